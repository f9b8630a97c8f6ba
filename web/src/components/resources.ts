// What a run asked for next to what it used: CPU, memory and time, as words and bars.
import { h } from '../dom';
import { formatBytes, formatDuration, formatNumber, isEnded, runElapsed } from '../format';
import type { Run } from '../types';

function bar(fraction: number | null): HTMLElement | null {
  if (fraction === null || !isFinite(fraction)) return null;
  const pct = Math.max(0, Math.min(1, fraction)) * 100;
  return h('div', { class: 'bar', 'aria-hidden': 'true' },
    h('div', { class: `bar-fill${fraction > 1 ? ' bar-over' : ''}`, style: `width:${pct.toFixed(1)}%` }));
}

function row(label: string, requested: string, used: string, fraction: number | null): HTMLElement {
  return h('div', { class: 'res-row' },
    h('dt', {}, label),
    h('dd', {},
      h('div', { class: 'res-text' },
        h('span', {}, h('span', { class: 'muted' }, 'Requested: '), requested),
        h('span', {}, h('span', { class: 'muted' }, 'Used: '), used)),
      bar(fraction)));
}

export function resources(run: Run): HTMLElement {
  const req = run.requested ?? {};
  const used = run.used ?? {};
  const elapsed = runElapsed(run);
  const cpus = req.cpus ?? 0;
  const cpuSec = used.cpu_seconds ?? 0;
  // An average over less than a second says little: shown only for longer runs.
  const avgCores = elapsed && elapsed >= 1 ? cpuSec / elapsed : null;
  const ended = isEnded(run);
  const cpuUsed = !run.start_time ? 'not started yet'
    : cpuSec === 0 && !ended ? 'not measured yet'
    : cpuSec > 0 && cpuSec < 0.01 ? 'less than 0.01 CPU-seconds'
    : `${formatNumber(cpuSec, cpuSec < 10 ? 2 : 1)} CPU-seconds${avgCores !== null ? ` (on average ${formatNumber(avgCores, 2)} cores)` : ''}`;
  const cpuFraction = avgCores !== null && cpus > 0 ? avgCores / cpus : null;

  const mem = req.mem_bytes ?? 0;
  const rss = used.max_rss_bytes ?? 0;
  const memUsed = !run.start_time ? 'not started yet' : rss === 0 && !ended ? 'not measured yet' : `${formatBytes(rss)} at most`;

  const wall = req.walltime_s ?? 0;
  return h('dl', { class: 'resources', 'data-testid': 'resources' },
    row('CPU', cpus ? `${cpus} core${cpus === 1 ? '' : 's'}` : 'not set', cpuUsed, cpuFraction),
    row('Memory', mem > 0 ? formatBytes(mem) : 'no limit', memUsed, mem > 0 && run.start_time ? rss / mem : null),
    row('Time', wall > 0 ? formatDuration(wall) : 'no limit', elapsed !== null ? formatDuration(elapsed) : 'not started yet',
      wall > 0 && elapsed !== null ? elapsed / wall : null),
  );
}
