// The runs the pages know, by id, kept current by the event stream.
// Pages read from it and subscribe; a run fetched by a request started before the
// stream's last word about that run does not overwrite that word.
import type { Run } from './types';

export type RunListener = (run: Run, previous: Run | undefined) => void;

const runs = new Map<number, Run>();
const updatedAt = new Map<number, number>();
const listeners = new Set<RunListener>();
let clock = 0;

/** A moment to pass to put() for a request started now. */
export function now(): number {
  clock += 1;
  return clock;
}

export function getRun(id: number): Run | undefined {
  return runs.get(id);
}

/**
 * Records a run. `since` is the now() taken before the request that fetched it:
 * if the stream spoke of this run after that, the stream's copy wins and is returned.
 * Without `since` (the stream itself, or an action's answer) the run always wins.
 */
export function put(run: Run, since?: number): Run {
  const known = runs.get(run.id);
  if (known && since !== undefined && (updatedAt.get(run.id) ?? 0) > since) return known;
  runs.set(run.id, run);
  updatedAt.set(run.id, now());
  for (const l of listeners) l(run, known);
  return run;
}

/** Calls `listener` on every change; returns the unsubscribe function. */
export function subscribe(listener: RunListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function clear(): void {
  runs.clear();
  updatedAt.clear();
}
