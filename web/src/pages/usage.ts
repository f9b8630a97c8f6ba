// Usage: core-hours per month by account and by backend, and jobs by state, as charts.
import { get, query } from '../api';
import { barChart, type BarSeries } from '../components/bar_chart';
import { h, replace } from '../dom';
import { formatAmount, formatNumber, stateWord } from '../format';
import { navigate, type RouteContext } from '../router';
import type { UsageMonth } from '../types';

// Colour-blind-safe colours (Okabe and Ito), strong enough against white.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#6b6b6b', '#332288'];
const STATE_COLOURS: Record<string, string> = {
  COMPLETED: '#1e7b3c', FAILED: '#b42318', CANCELLED: '#7a828f', TIMEOUT: '#c2570c', RUNNING: '#1f5fbf', PENDING: '#b7791f',
};

function seriesOf(months: UsageMonth[], pick: (m: UsageMonth) => Record<string, number> | undefined,
  colour: (key: string, i: number) => string, label: (key: string) => string = (k) => k): BarSeries[] {
  const keys = new Set<string>();
  for (const m of months) for (const k of Object.keys(pick(m) ?? {})) keys.add(k);
  const sorted = [...keys].sort((a, b) => sum(months, pick, b) - sum(months, pick, a));
  return sorted.map((k, i) => ({ label: label(k), color: colour(k, i), values: months.map((m) => pick(m)?.[k] ?? 0) }));
}

function sum(months: UsageMonth[], pick: (m: UsageMonth) => Record<string, number> | undefined, key: string): number {
  return months.reduce((a, m) => a + (pick(m)?.[key] ?? 0), 0);
}

function monthLabel(m: string): string {
  const [y, mo] = m.split('-').map(Number);
  if (!y || !mo) return m;
  return new Date(y, mo - 1, 1).toLocaleDateString(undefined, { month: 'short', year: 'numeric' });
}

export function usagePage(ctx: RouteContext): () => void {
  document.title = 'Usage · Switchyard';
  const months = Math.min(24, Math.max(1, Number(ctx.query.get('months')) || 6));
  const destroyers: (() => void)[] = [];
  const select = h('select', { id: 'usage-months', 'data-testid': 'usage-months' },
    [3, 6, 12, 24].map((n) => h('option', { value: n, selected: n === months }, `Last ${n} months`)));
  select.addEventListener('change', () => navigate(`/usage${query({ months: select.value })}`, { replace: true }));
  const body = h('div', { 'data-testid': 'usage' }, h('p', { class: 'muted' }, 'Loading usage…'));
  ctx.main.append(
    h('div', { class: 'page-head' }, h('h1', {}, 'Usage'),
      h('div', { class: 'field field-inline' }, h('label', { for: 'usage-months' }, 'Period'), select)),
    h('p', { class: 'lead' }, 'How much computing your runs used, month by month. A core-hour is one processor core busy for one hour.'),
    body);

  get<{ months: UsageMonth[] }>(`/api/v1/usage${query({ months })}`).then((res) => {
    if (!ctx.alive()) return;
    const ms = (res.months ?? []).slice().sort((a, b) => a.month.localeCompare(b.month));
    if (!ms.length) {
      replace(body, h('p', {}, 'No usage to show for this period.'));
      return;
    }
    const cats = ms.map((m) => monthLabel(m.month));
    const byAccount = seriesOf(ms, (m) => m.core_hours?.by_account, (_k, i) => PALETTE[i % PALETTE.length]);
    const byBackend = seriesOf(ms, (m) => m.core_hours?.by_backend, (_k, i) => PALETTE[(i + 2) % PALETTE.length]);
    const byState = seriesOf(ms, (m) => m.jobs_by_state, (k, i) => STATE_COLOURS[k] ?? PALETTE[i % PALETTE.length], stateWord);
    const totalHours = byAccount.reduce((a, s) => a + s.values.reduce((x, y) => x + y, 0), 0);
    const totalJobs = byState.reduce((a, s) => a + s.values.reduce((x, y) => x + y, 0), 0);

    const card = (title: string, series: BarSeries[], unit: string, digits: number, testid: string) => {
      const box = h('section', { class: 'card', 'aria-label': title, 'data-testid': testid }, h('h2', {}, title));
      if (!series.length) {
        box.append(h('p', { class: 'muted' }, 'Nothing in this period.'));
      } else {
        const c = barChart({ title, categories: cats, series, unit, digits });
        destroyers.push(c.destroy);
        box.append(c.el);
      }
      return box;
    };
    replace(body,
      h('dl', { class: 'totals' },
        h('div', { class: 'total' }, h('dt', {}, 'Core-hours'), h('dd', {}, formatAmount(totalHours, totalHours < 10 ? 2 : 1))),
        h('div', { class: 'total' }, h('dt', {}, 'Jobs'), h('dd', {}, formatNumber(totalJobs, 0))),
        h('div', { class: 'total' }, h('dt', {}, 'Months'), h('dd', {}, String(ms.length)))),
      h('div', { class: 'chart-grid' },
        card('Core-hours by account', byAccount, 'core-hours', 2, 'chart-account'),
        card('Core-hours by backend', byBackend, 'core-hours', 2, 'chart-backend'),
        card('Jobs by state', byState, 'jobs', 0, 'chart-states')));
  }).catch((e) => {
    if (!ctx.alive()) return;
    replace(body, h('p', { class: 'form-error', role: 'alert' }, `Could not load usage: ${e instanceof Error ? e.message : String(e)}`));
  });

  return () => destroyers.forEach((d) => d());
}
