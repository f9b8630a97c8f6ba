// One run's page: its state (live), timeline, resources, output (followed while it
// runs), files to download, Cancel / Run again / Resume, and a workflow's steps as a graph.
import { ApiError, fileUrl, get } from '../api';
import { LogFollower } from '../components/log_follower';
import { resources } from '../components/resources';
import { announceStarted, cancelButton, rerunButton, resumable, resumeButton } from '../components/run_actions';
import { setBadge, stateBadge } from '../components/state_badge';
import { workflowGraph } from '../components/workflow_graph';
import { h, replace } from '../dom';
import { onResync, onStreamRun } from '../events';
import { formatBytes, formatDateTime, formatDuration, formatTime, isEnded, runElapsed, stateWord } from '../format';
import { navigate, type RouteContext } from '../router';
import * as store from '../store';
import { loadTemplates } from '../templates';
import type { Run, RunEvent, RunFile, Template } from '../types';

const POLL_MS = 2000;
/** After the run ended: how many more reads to wait for the server to say the output is complete. */
const FINAL_READS = 10;

export function runPage(ctx: RouteContext): () => void {
  const id = Number(ctx.params.id);
  const cleanups: (() => void)[] = [];
  document.title = `Run ${ctx.params.id} · Switchyard`;
  if (!Number.isInteger(id) || id <= 0) {
    notFound(ctx);
    return () => {};
  }
  const loading = h('p', { class: 'muted' }, 'Loading the run…');
  ctx.main.append(h('h1', { class: 'visually-hidden' }, `Run ${id}`), loading);

  const since = store.now();
  get<{ run: Run; events: RunEvent[] }>(`/api/v1/runs/${id}`).then((body) => {
    if (!ctx.alive()) return;
    // If the stream told of the run while this was asked, its copy is kept (store.put) and
    // what the stream does not carry (the steps, the timeline) is asked for again: under
    // load the answer can come after the stream's last word on the run, and no later word
    // would bring the steps' end.
    const run = store.put(body.run, since);
    ctx.main.replaceChildren();
    cleanups.push(draw(ctx, run, body.events ?? [], run !== body.run));
  }).catch((e) => {
    if (!ctx.alive()) return;
    if (e instanceof ApiError && e.status === 404) {
      ctx.main.replaceChildren();
      notFound(ctx);
    } else {
      loading.textContent = `Could not load the run: ${e instanceof Error ? e.message : String(e)}`;
      loading.className = 'form-error';
    }
  });
  return () => cleanups.forEach((c) => c());
}

function notFound(ctx: RouteContext): void {
  document.title = 'Run not found · Switchyard';
  ctx.main.append(
    h('h1', {}, 'Run not found'),
    h('p', {}, 'This run does not exist, or it is not one of yours. ', h('a', { href: '/runs' }, 'Go to your runs'), '.'));
  ctx.main.querySelector('h1')?.focus();
}

function draw(ctx: RouteContext, first: Run, firstEvents: RunEvent[], outdated: boolean): () => void {
  let run = first;
  const id = run.id;
  document.title = `${run.name} · Switchyard`;

  // Head: name, state, actions.
  const badge = stateBadge(run.state);
  const actions = h('div', { class: 'actions' });
  const title = h('h1', {}, run.name);
  const meta = h('p', { class: 'muted run-meta' });
  const summary = h('dl', { class: 'summary', 'data-testid': 'run-summary' });

  // Workflow steps.
  const graphBox = h('div', { class: 'graph-box' });
  let lastSteps = '';

  // Output.
  const log = h('pre', { class: 'log', role: 'log', tabindex: 0, 'aria-label': 'Output of the run', 'data-testid': 'log' });
  const logEmpty = h('p', { class: 'muted log-empty' }, 'No output yet.');
  const logNote = h('p', { class: 'muted', 'data-testid': 'log-status' });
  const errLog = h('pre', { class: 'log', role: 'log', tabindex: 0, 'aria-label': 'Error messages of the run', 'data-testid': 'log-stderr' });
  const errEmpty = h('p', { class: 'muted log-empty' }, 'No error messages.');
  const errDetails = h('details', { class: 'stderr' }, h('summary', {}, 'Error messages (stderr)'), errEmpty, errLog);

  // Files, resources, timeline, settings.
  const files = h('div', { 'data-testid': 'files' }, h('p', { class: 'muted' }, 'Loading files…'));
  const refreshFilesBtn = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'refresh-files' }, 'Refresh');
  const resBox = h('div');
  const timeline = h('ol', { class: 'timeline', 'data-testid': 'timeline' });
  const setBox = h('div', {}, settings(run));
  loadTemplates().then((ts) => {
    const t = ts.find((x) => x.name === run.template);
    if (t && ctx.alive()) replace(setBox, settings(run, t));
  }).catch(() => {});

  const isWorkflow = run.kind === 'workflow' || !!run.steps?.length;
  ctx.main.append(
    h('p', { class: 'back' }, h('a', { href: '/runs' }, '← All runs')),
    h('div', { class: 'page-head run-head' },
      h('div', { class: 'run-title' }, title, badge),
      actions),
    meta,
    summary,
    isWorkflow ? h('section', { class: 'card', 'aria-labelledby': 'steps-h' },
      h('h2', { id: 'steps-h' }, 'Steps'),
      h('p', { class: 'muted help' }, 'Each step starts when the steps it needs (the arrows into it) have completed.'),
      graphBox) : '',
    h('div', { class: 'run-grid' },
      h('div', { class: 'run-main' },
        h('section', { class: 'card', 'aria-labelledby': 'output-h' },
          h('h2', { id: 'output-h' }, 'Output'),
          logNote, logEmpty, log, errDetails),
        h('section', { class: 'card', 'aria-labelledby': 'files-h' },
          h('div', { class: 'card-head' }, h('h2', { id: 'files-h' }, 'Files'), refreshFilesBtn),
          files)),
      h('div', { class: 'run-side' },
        h('section', { class: 'card', 'aria-labelledby': 'res-h' },
          h('h2', { id: 'res-h' }, 'Resources'), resBox),
        h('section', { class: 'card', 'aria-labelledby': 'time-h' },
          h('h2', { id: 'time-h' }, 'Timeline'), timeline),
        h('section', { class: 'card', 'aria-labelledby': 'set-h' },
          h('h2', { id: 'set-h' }, 'Settings'), setBox))),
  );

  function applyRun(r: Run): void {
    run = r;
    title.textContent = r.name;
    setBadge(badge, r.state);
    // What it was started from: a template, a workflow file or a command sent by a program.
    const from = r.template ? ['template ', h('strong', {}, r.template)]
      : resumable(r) ? ['a workflow file'] : ['a command'];
    replace(meta,
      `Run #${r.id} · from `, from,
      r.backend ? [' · on ', h('strong', {}, r.backend)] : null,
      ' · by ', h('strong', {}, r.owner));
    replace(summary,
      item('Submitted', formatDateTime(r.submit_time)),
      item('Started', r.start_time ? formatDateTime(r.start_time) : 'not yet'),
      item('Ended', r.end_time ? formatDateTime(r.end_time) : isEnded(r) ? '—' : 'not yet'),
      item('Duration', formatDuration(runElapsed(r))),
      r.exit_code !== null && r.exit_code !== undefined ? item('Exit code', String(r.exit_code)) : null);
    // Actions: Cancel only while the run can still change; focus is kept on what remains.
    let cancel = actions.querySelector<HTMLButtonElement>('[data-testid="cancel-run"]');
    let rerun = actions.querySelector<HTMLButtonElement>('[data-testid="rerun-run"]');
    if (!rerun) {
      rerun = rerunButton(r, (r2) => {
        announceStarted(r2);
        navigate(`/runs/${r2.id}`);
      });
      actions.append(rerun);
    }
    if (!isEnded(r) && !cancel) {
      cancel = cancelButton(r);
      actions.prepend(cancel);
    } else if (isEnded(r) && cancel) {
      const hadFocus = document.activeElement === cancel;
      cancel.remove();
      if (hadFocus) rerun.focus();
    }
    // Resume: a workflow file's run that ended without completing every step.
    const resume = actions.querySelector<HTMLButtonElement>('[data-testid="resume-run"]');
    const canResume = resumable(r) && isEnded(r) && r.state !== 'COMPLETED';
    if (canResume && !resume) actions.prepend(resumeButton(r));
    else if (!canResume && resume) {
      const hadFocus = document.activeElement === resume;
      resume.remove();
      if (hadFocus) rerun.focus();
    }
    if (isWorkflow) {
      const key = JSON.stringify(r.steps ?? []);
      if (key !== lastSteps) {
        lastSteps = key;
        replace(graphBox, r.steps?.length ? workflowGraph(r.steps) : h('p', { class: 'muted' }, 'No steps yet.'));
      }
    }
    replace(resBox, resources(r));
    logEmpty.textContent = isEnded(r) ? 'This run wrote no output.' : 'No output yet.';
    logNote.textContent = isEnded(r)
      ? `The run has ended (${stateWord(r.state)}).`
      : r.state === 'RUNNING' ? 'Following the output as the run writes it.' : 'The output appears here once the run starts.';
  }

  let shownEvents: RunEvent[] = [];
  function drawTimeline(events: RunEvent[]): void {
    shownEvents = events;
    if (!events.length) {
      replace(timeline, h('li', { class: 'muted' }, 'Nothing has happened yet.'));
      return;
    }
    replace(timeline, events.map((ev) => {
      const step = isWorkflow && ev.name ? stepName(ev.name, run.template) : '';
      return h('li', {},
        h('time', { datetime: new Date(ev.time * 1000).toISOString(), title: formatDateTime(ev.time) }, formatTime(ev.time)),
        h('span', { class: 'tl-state' }, stateWord(ev.state)),
        step || ev.detail ? h('span', { class: 'tl-detail' },
          step ? h('span', { class: 'tl-step' }, step) : null, step && ev.detail ? ' ' : null, ev.detail || null) : null);
    }));
  }

  // The steps and the timeline: fetched again (once, shortly after) when the stream says
  // the run changed. A fetch that fails is tried again, later each time: the run's last
  // change may have been told already, and nothing else would fetch them.
  let detailTimer: number | undefined;
  let retryMs = 1000;
  function refreshDetail(delayMs = 250): void {
    window.clearTimeout(detailTimer);
    detailTimer = window.setTimeout(async () => {
      const since = store.now();
      try {
        const body = await get<{ run: Run; events: RunEvent[] }>(`/api/v1/runs/${id}`);
        if (!ctx.alive()) return;
        retryMs = 1000;
        store.put(body.run, since);
        drawTimeline(body.events ?? []);
      } catch (e) {
        if (!ctx.alive() || (e instanceof ApiError && e.status === 404)) return;
        refreshDetail(retryMs);
        retryMs = Math.min(retryMs * 2, 30000);
      }
    }, delayMs);
  }

  async function refreshFiles(): Promise<void> {
    try {
      const body = await get<{ files: RunFile[] }>(`/api/v1/runs/${id}/files`);
      if (!ctx.alive()) return;
      const list = (body.files ?? []).slice().sort((a, b) => a.path.localeCompare(b.path));
      if (!list.length) {
        replace(files, h('p', { class: 'muted' }, isEnded(run) ? 'This run left no files.' : 'No files yet.'));
        return;
      }
      replace(files, h('ul', { class: 'files' }, list.map((f) =>
        h('li', {},
          h('a', { href: fileUrl(id, f.path), download: f.path.split('/').pop() ?? f.path, 'data-testid': 'file-link', 'data-path': f.path },
            h('span', { class: 'file-icon', 'aria-hidden': 'true' }, '⤓'), f.path),
          h('span', { class: 'muted file-meta' }, `${formatBytes(f.size)} · ${formatDateTime(f.mtime)}`)))));
    } catch (e) {
      if (!ctx.alive()) return;
      replace(files, h('p', { class: 'form-error' }, `Could not list the files: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
  refreshFilesBtn.addEventListener('click', () => void refreshFiles());

  // Output: read now, on each change of the run, and every 2 s while it runs.
  const out = new LogFollower(id, 'stdout', log, logEmpty);
  const err = new LogFollower(id, 'stderr', errLog, errEmpty);
  let finalReads = 0;
  const readLogs = () => {
    void out.poll().catch(() => {});
    if (errDetails.open || isEnded(run)) void err.poll().catch(() => {});
  };
  errDetails.addEventListener('toggle', () => {
    if (errDetails.open) void err.poll().catch(() => {});
  });
  const poller = window.setInterval(() => {
    if (run.state === 'RUNNING') {
      readLogs();
    } else if (isEnded(run)) {
      if ((out.ended && err.ended) || finalReads >= FINAL_READS) {
        window.clearInterval(poller);
        return;
      }
      finalReads += 1;
      readLogs();
    }
  }, POLL_MS);

  applyRun(run);
  drawTimeline(firstEvents);
  void refreshFiles();
  readLogs();

  // Any new copy of the run (stream, action, fetch) is shown; only the stream's news
  // make the page fetch again (the timeline, the output, the files).
  const unsubscribe = store.subscribe((r) => {
    if (r.id === id) applyRun(r);
  });
  const unStream = onStreamRun((r, previous) => {
    if (r.id !== id) return;
    // Shown at once; the fetch that follows brings the server's own entry and detail.
    const last = shownEvents[shownEvents.length - 1];
    if (!last || last.state !== r.state) {
      drawTimeline([...shownEvents, { time: (isEnded(r) && r.end_time) || Date.now() / 1000, state: r.state }]);
    }
    readLogs();
    refreshDetail();
    if (!previous || previous.state !== r.state || isEnded(r)) void refreshFiles();
  });
  const unResync = onResync(() => {
    refreshDetail();
    void refreshFiles();
    readLogs();
  });
  if (outdated) refreshDetail();
  const ticker = window.setInterval(() => {
    if (run.state === 'RUNNING') applyRun(run);
  }, 2000);

  return () => {
    unsubscribe();
    unStream();
    unResync();
    window.clearInterval(poller);
    window.clearInterval(ticker);
    window.clearTimeout(detailTimer);
    out.stop();
    err.stop();
  };
}

/** A workflow job's name without the workflow's own prefix: "three-steps.prepare" -> "prepare". */
function stepName(name: string, template: string): string {
  return name.startsWith(`${template}.`) ? name.slice(template.length + 1) : name;
}

function item(label: string, value: string): HTMLElement {
  return h('div', { class: 'summary-item' }, h('dt', {}, label), h('dd', {}, value));
}

/** The values the run was started with, under their form labels when the template is known. */
function settings(run: Run, template?: Template): HTMLElement {
  const entries = Object.entries(run.values ?? {});
  if (!entries.length) return h('p', { class: 'muted' }, 'This run has no settings.');
  const label = (k: string) => template?.fields.find((f) => f.name === k)?.label || k;
  // A text of several lines (a workflow file, a script) keeps its lines.
  const shown = (v: unknown) => typeof v === 'string' && v.includes('\n') ? h('pre', { class: 'setting-text' }, v)
    : typeof v === 'string' ? v : JSON.stringify(v);
  return h('dl', { class: 'settings' }, entries.map(([k, v]) =>
    h('div', { class: 'setting' }, h('dt', {}, label(k)), h('dd', {}, shown(v)))));
}
