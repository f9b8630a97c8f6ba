// One EventSource on /api/v1/events for the whole page: each `runs` message carries the
// runs that changed (the parts of their summary that changed), which go into the run store. The browser reconnects by itself
// (sending Last-Event-ID); if the stream is closed for good (an error answer), it is
// opened anew after a pause and the pages are told to fetch again what they show.
import { get } from './api';
import * as store from './store';
import type { Run } from './types';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'off';

type StreamRunListener = (run: Run, previous: Run | undefined) => void;

let source: EventSource | null = null;
let status: StreamStatus = 'off';
let retryTimer: number | undefined;
let retryDelay = 1000;
let wasOpen = false;
const statusListeners = new Set<(s: StreamStatus) => void>();
const resyncListeners = new Set<() => void>();
const runListeners = new Set<StreamRunListener>();
let checkSession: (() => Promise<boolean>) | null = null;

function setStatus(s: StreamStatus): void {
  if (s === status) return;
  status = s;
  for (const l of statusListeners) l(s);
}

export function streamStatus(): StreamStatus {
  return status;
}

export function onStatus(l: (s: StreamStatus) => void): () => void {
  statusListeners.add(l);
  return () => statusListeners.delete(l);
}

/** Called after the stream was opened anew (changes may have been missed): fetch again. */
export function onResync(l: () => void): () => void {
  resyncListeners.add(l);
  return () => resyncListeners.delete(l);
}

/** Called for each run message from the stream, with the run as known before it. */
export function onStreamRun(l: StreamRunListener): () => void {
  runListeners.add(l);
  return () => runListeners.delete(l);
}

/**
 * Opens the stream. `sessionAlive` is asked when the stream is closed for good:
 * false means the session ended (the caller sends the person to the login page).
 */
export function start(sessionAlive: () => Promise<boolean>): void {
  checkSession = sessionAlive;
  if (source) return;
  open(false);
}

export function stop(): void {
  window.clearTimeout(retryTimer);
  retryTimer = undefined;
  source?.close();
  source = null;
  wasOpen = false;
  setStatus('off');
}

/** A message with all of a run's summary, not only the fields that changed. */
function isWhole(run: Partial<Run>): run is Run {
  return typeof run.name === 'string' && typeof run.template === 'string' && typeof run.submit_time === 'number';
}

const fetching = new Map<number, { again: boolean }>();

/**
 * A run's news from the stream. The fields it carries are laid over the run as known;
 * a run not known yet, told of only in part, is fetched whole (again, if more news came
 * while it was being fetched).
 */
function receive(run: Partial<Run> & { id: number }): void {
  const previous = store.getRun(run.id);
  if (previous || isWhole(run)) {
    const merged = { ...previous, ...run } as Run;
    store.put(merged);
    for (const l of runListeners) l(merged, previous);
    return;
  }
  const pending = fetching.get(run.id);
  if (pending) {
    pending.again = true;
    return;
  }
  const state = { again: false };
  fetching.set(run.id, state);
  void (async () => {
    try {
      let whole: Run | undefined;
      do {
        state.again = false;
        whole = (await get<{ run: Run }>(`/api/v1/runs/${run.id}`)).run;
      } while (state.again);
      const before = store.getRun(run.id);
      store.put(whole);
      for (const l of runListeners) l(whole, before);
    } catch {
      // not visible to this person, or the server is away: the next message tries again
    } finally {
      fetching.delete(run.id);
    }
  })();
}

function open(isReopen: boolean): void {
  setStatus(isReopen ? 'reconnecting' : 'connecting');
  const es = new EventSource('/api/v1/events');
  source = es;
  es.addEventListener('open', () => {
    retryDelay = 1000;
    setStatus('live');
    if (wasOpen || isReopen) for (const l of resyncListeners) l();
    wasOpen = true;
  });
  // Each message: the runs that changed, each as it is after its last change here, and
  // the changes themselves ([event id, run, job, state, time, detail]).
  es.addEventListener('runs', (e) => {
    let runs: Partial<Run>[] | undefined;
    try {
      runs = (JSON.parse((e as MessageEvent<string>).data) as { runs?: Partial<Run>[] }).runs;
    } catch {
      return;
    }
    for (const run of runs ?? [])
      if (run && typeof run.id === 'number') receive(run as Partial<Run> & { id: number });
  });
  es.addEventListener('error', () => {
    if (source !== es) return;
    if (es.readyState === EventSource.CONNECTING) {
      // The browser reconnects by itself and sends Last-Event-ID: nothing is lost.
      setStatus('reconnecting');
      return;
    }
    // Closed for good (an error status or not an event stream): try again later.
    es.close();
    source = null;
    setStatus('reconnecting');
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(async () => {
      retryTimer = undefined;
      const alive = checkSession ? await checkSession().catch(() => true) : true;
      if (!alive) {
        stop();
        return;
      }
      if (!source) open(true);
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000);
  });
}
