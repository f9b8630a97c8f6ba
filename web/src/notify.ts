// Browser notifications when one of the person's own runs ends. Permission is asked
// only when the person presses the button (never on load); the choice is remembered.
import { onStreamRun } from './events';
import { isEndedState, stateWord } from './format';
import { currentUser } from './session';
import * as store from './store';
import type { Run } from './types';

const PREF = 'yard.notify';
const notified = new Set<number>();
let navigate: ((path: string) => void) | null = null;

export function supported(): boolean {
  return 'Notification' in window && window.isSecureContext;
}

/** 'on' | 'off' (supported, not wanted or not yet allowed) | 'blocked' | 'unsupported' */
export function notifyState(): 'on' | 'off' | 'blocked' | 'unsupported' {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission === 'granted' && localStorage.getItem(PREF) === 'on') return 'on';
  return 'off';
}

/** Turns notifications on (asking the browser when needed) or off; returns the new state. */
export async function toggle(): Promise<ReturnType<typeof notifyState>> {
  if (!supported()) return 'unsupported';
  if (notifyState() === 'on') {
    localStorage.setItem(PREF, 'off');
    return notifyState();
  }
  let permission = Notification.permission;
  if (permission === 'default') permission = await Notification.requestPermission();
  localStorage.setItem(PREF, permission === 'granted' ? 'on' : 'off');
  return notifyState();
}

function tell(run: Run): void {
  if (notified.has(run.id)) return;
  const me = currentUser();
  if (!me || run.owner !== me.name || notifyState() !== 'on') return;
  notified.add(run.id);
  try {
    const n = new Notification(`${run.name}: ${stateWord(run.state)}`, {
      body: `Your run “${run.name}” (${run.template}) has ended: ${stateWord(run.state)}.`,
      tag: `yard-run-${run.id}`,
    });
    n.addEventListener('click', () => {
      window.focus();
      navigate?.(`/runs/${run.id}`);
      n.close();
    });
  } catch {
    // Some browsers allow notifications only from a service worker: stay quiet.
  }
}

/**
 * A run this page started: the answer that names it may already tell its end (a run of a
 * second on a busy server), and then no later copy is a change to notify of; its end is
 * told now.
 */
export function startedHere(run: Run): void {
  if (isEndedState(run.state)) tell(run);
}

export function init(go: (path: string) => void): void {
  navigate = go;
  // The stream's news of a run this page did not know, already ended: it ended now.
  onStreamRun((run, previous) => {
    if (isEndedState(run.state) && !(previous && isEndedState(previous.state))) tell(run);
  });
  // A run seen unended and then ended, whoever told the store: the run page's own
  // fetch can learn of the end before the stream's message does, and that message
  // then finds the run already ended.
  store.subscribe((run, previous) => {
    if (isEndedState(run.state) && previous && !isEndedState(previous.state)) tell(run);
  });
}
