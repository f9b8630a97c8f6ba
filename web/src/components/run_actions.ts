// The Cancel and Run again buttons, shared by the runs list and a run's page.
import { post } from '../api';
import { h } from '../dom';
import { isEnded } from '../format';
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
      started(body.run);
    } catch (e) {
      toastError(e, `Could not start “${run.name}” again`);
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
