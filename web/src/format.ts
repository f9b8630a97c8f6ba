// Words and numbers as a person reads them: states, times, durations, sizes.
import type { Run } from './types';

/** The states after which a run changes no more. */
const ENDED = new Set([
  'COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY',
  'BOOT_FAIL', 'DEADLINE', 'REVOKED', 'SPECIAL_EXIT',
]);

export function isEndedState(state: string): boolean {
  return ENDED.has(state);
}

export function isEnded(run: Run): boolean {
  return isEndedState(run.state);
}

/** The states offered by the runs list's filter (the server may send others too). */
export const FILTER_STATES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT'];

const STATE_WORDS: Record<string, string> = {
  PENDING: 'Pending',
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  TIMEOUT: 'Timed out',
  NODE_FAIL: 'Node failed',
  OUT_OF_MEMORY: 'Out of memory',
  BOOT_FAIL: 'Failed to start',
  DEADLINE: 'Deadline passed',
  SUSPENDED: 'Suspended',
  REQUEUED: 'Requeued',
  HELD: 'Held',
};

/** "COMPLETED" -> "Completed"; unknown states: first letter capital, underscores as spaces. */
export function stateWord(state: string): string {
  const known = STATE_WORDS[state];
  if (known) return known;
  const s = state.toLowerCase().replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A colour family for a state (the word is always shown too). */
export function stateTone(state: string): 'ok' | 'bad' | 'run' | 'wait' | 'off' {
  switch (state) {
    case 'COMPLETED': return 'ok';
    case 'RUNNING': case 'COMPLETING': return 'run';
    case 'PENDING': case 'QUEUED': case 'HELD': case 'SUSPENDED': case 'REQUEUED': case 'CONFIGURING': return 'wait';
    case 'CANCELLED': return 'off';
    default: return isEndedState(state) ? 'bad' : 'wait';
  }
}

/** A small symbol beside the state word, so colour is never the only cue. */
export function stateSymbol(state: string): string {
  switch (stateTone(state)) {
    case 'ok': return '✓';
    case 'bad': return '✕';
    case 'run': return '▶';
    case 'off': return '■';
    default: return '…';
  }
}

const sameYear = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
});
const otherYear = new Intl.DateTimeFormat(undefined, {
  year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
});
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** "Nov 27, 12:12:21" (the year only when it is not this year). */
export function formatDateTime(secs: number | null | undefined): string {
  if (!secs) return '—';
  const d = new Date(secs * 1000);
  return (d.getFullYear() === new Date().getFullYear() ? sameYear : otherYear).format(d);
}

export function formatTime(secs: number): string {
  return timeOnly.format(new Date(secs * 1000));
}

/** "just now", "5 min ago", "3 h ago", else the date. */
export function formatAgo(secs: number, now = Date.now() / 1000): string {
  const d = now - secs;
  if (d < 45) return 'just now';
  if (d < 3600) return `${Math.round(d / 60)} min ago`;
  if (d < 86400) return `${Math.round(d / 3600)} h ago`;
  return formatDateTime(secs);
}

/** 75 -> "1 min 15 s", 3700 -> "1 h 1 min". */
export function formatDuration(secs: number | null | undefined): string {
  if (secs === null || secs === undefined || !isFinite(secs) || secs < 0) return '—';
  const s = Math.round(secs);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const hrs = Math.floor(m / 60);
  if (hrs < 48) return `${hrs} h ${m % 60} min`;
  return `${Math.floor(hrs / 24)} d ${hrs % 24} h`;
}

/** How long a run has been running (to now when not ended). */
export function runElapsed(run: Run, now = Date.now() / 1000): number | null {
  if (!run.start_time) return null;
  return (run.end_time ?? now) - run.start_time;
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function formatNumber(n: number, digits = 2): string {
  return n.toLocaleString(undefined, { maximumFractionDigits: digits });
}

/** An amount that may be tiny (a few seconds of one core, in core-hours): "< 0.01" then. */
export function formatAmount(n: number, digits = 2): string {
  if (n === 0) return '0';
  const least = 10 ** -digits;
  if (n > 0 && n < least) return `< ${least}`;
  return formatNumber(n, digits);
}

/** An axis value: up to three significant digits, however small. */
export function formatTick(n: number): string {
  return n === 0 ? '0' : n.toLocaleString(undefined, { maximumSignificantDigits: 3 });
}
