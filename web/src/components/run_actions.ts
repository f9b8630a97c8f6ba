// The Cancel, Run again and Resume buttons, shared by the runs list and a run's page.
import { post } from '../api';
import { h } from '../dom';
import { isEnded } from '../format';
import * as notify from '../notify';
import * as store from '../store';
import type { Run } from '../types';
import { toast, toastError } from './toast';

export function cancelButton(run: Run): HTMLButtonElement {
  const btn = h('button', {
    type: 'button', class: 'btn btn-danger', 'data-testid': 'cancel-run',
    'aria-label': `Cancel run ${run.name}`,
  }, 'Cancel');
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    btn.textContent = 'Cancelling…';
    try {
      const body = await post<{ run: Run }>(`/api/v1/runs/${run.id}/cancel`);
      store.put(body.run);
      toast(isEnded(body.run) ? `Run “${run.name}” cancelled.` : `Cancelling run “${run.name}”…`);
    } catch (e) {
      toastError(e, `Could not cancel “${run.name}”`);
    } finally {
      btn.disabled = false;
      btn.textContent = 'Cancel';
    }
  });
  return btn;
}

/** `started` gets the new run (the list shows it; a run's page goes to it). */
export function rerunButton(run: Run, started: (run: Run) => void): HTMLButtonElement {
  const btn = h('button', {
    type: 'button', class: 'btn', 'data-testid': 'rerun-run',
    'aria-label': `Run ${run.name} again with the same settings`,
  }, 'Run again');
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    try {
      const body = await post<{ run: Run }>(`/api/v1/runs/${run.id}/rerun`);
      store.put(body.run);
      notify.startedHere(body.run);
      started(body.run);
    } catch (e) {
      toastError(e, `Could not start “${run.name}” again`);
    } finally {
      btn.disabled = false;
    }
  });
  return btn;
}

/** A run of a workflow file sent through the API (not a template's): it can be resumed. */
export function resumable(run: Run): boolean {
  return run.kind === 'workflow' && run.template === '' && typeof run.values?.workflow === 'string';
}

/** Resume: the workflow file sent again; steps that completed do not run again. */
export function resumeButton(run: Run): HTMLButtonElement {
  const btn = h('button', {
    type: 'button', class: 'btn', 'data-testid': 'resume-run',
    'aria-label': `Resume run ${run.name}: run its steps that did not complete`,
  }, 'Resume');
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    try {
      const body = await post<{ run: Run }>(`/api/v1/runs/${run.id}/resume`);
      store.put(body.run);
      toast(`Resuming “${run.name}”: the steps that completed are kept.`);
    } catch (e) {
      toastError(e, `Could not resume “${run.name}”`);
    } finally {
      btn.disabled = false;
    }
  });
  return btn;
}

/** A toast with a link to a run just started. */
export function announceStarted(run: Run): void {
  toast(h('span', {}, 'Started ', h('a', { href: `/runs/${run.id}` }, run.name), '.'));
}
