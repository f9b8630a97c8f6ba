// The runs list: the person's runs, newest first, kept live by the event stream,
// with filters by state and template, Cancel / Run again, and "Load more".
import { get, query } from '../api';
import { announceStarted, cancelButton, rerunButton } from '../components/run_actions';
import { setBadge, stateBadge } from '../components/state_badge';
import { h, replace } from '../dom';
import { onResync } from '../events';
import { FILTER_STATES, formatAgo, formatDateTime, formatDuration, isEnded, runElapsed, stateWord } from '../format';
import { navigate, type RouteContext } from '../router';
import { currentUser } from '../session';
import * as store from '../store';
import { loadTemplates, templateTitle } from '../templates';
import type { Run, RunList } from '../types';

const PAGE = 50;

export function runsPage(ctx: RouteContext): () => void {
  const admin = !!currentUser()?.admin;
  document.title = 'Runs · Switchyard';
  const stateFilter = ctx.query.get('state') ?? '';
  const templateFilter = ctx.query.get('template') ?? '';

  const stateSelect = h('select', { id: 'filter-state', 'data-testid': 'filter-state' },
    h('option', { value: '' }, 'All states'),
    FILTER_STATES.map((st) => h('option', { value: st, selected: st === stateFilter }, stateWord(st))));
  if (stateFilter && !FILTER_STATES.includes(stateFilter)) {
    stateSelect.append(h('option', { value: stateFilter, selected: true }, stateWord(stateFilter)));
  }
  const templateSelect = h('select', { id: 'filter-template', 'data-testid': 'filter-template' },
    h('option', { value: '' }, 'All templates'));
  if (templateFilter) templateSelect.append(h('option', { value: templateFilter, selected: true }, templateFilter));
  loadTemplates().then((ts) => {
    if (!ctx.alive()) return;
    replace(templateSelect, h('option', { value: '' }, 'All templates'),
      ts.map((t) => h('option', { value: t.name, selected: t.name === templateFilter }, templateTitle(t))));
    if (templateFilter && !ts.some((t) => t.name === templateFilter)) {
      templateSelect.append(h('option', { value: templateFilter, selected: true }, templateFilter));
    }
  }).catch(() => {});

  const applyFilters = () => {
    navigate(`/runs${query({ state: stateSelect.value, template: templateSelect.value })}`, { replace: true });
  };
  stateSelect.addEventListener('change', applyFilters);
  templateSelect.addEventListener('change', applyFilters);

  const tbody = h('tbody');
  const table = h('table', { class: 'runs-table', 'data-testid': 'runs-table' },
    h('caption', { class: 'visually-hidden' }, 'Your runs, newest first'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Run'),
      admin ? h('th', { scope: 'col' }, 'Owner') : null,
      h('th', { scope: 'col' }, 'Template'),
      h('th', { scope: 'col' }, 'State'),
      h('th', { scope: 'col' }, 'Submitted'),
      h('th', { scope: 'col' }, 'Duration'),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
    tbody);
  const status = h('p', { class: 'muted', role: 'status', 'data-testid': 'runs-status' }, 'Loading your runs…');
  const empty = h('div', { class: 'empty', hidden: true, 'data-testid': 'runs-empty' });
  const more = h('button', { type: 'button', class: 'btn', hidden: true, 'data-testid': 'load-more' }, 'Load more');
  const listBox = h('div', { class: 'runs-list', 'data-loaded': 'false' }, status, table, empty, h('div', { class: 'more' }, more));

  ctx.main.append(
    h('div', { class: 'page-head' },
      h('h1', {}, admin ? 'All runs' : 'Your runs'),
      h('a', { href: '/runs/new', class: 'btn btn-primary', 'data-testid': 'new-run-link' }, 'New run')),
    h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter runs', onsubmit: (e: Event) => e.preventDefault() },
      h('div', { class: 'field field-inline' }, h('label', { for: 'filter-state' }, 'State'), stateSelect),
      h('div', { class: 'field field-inline' }, h('label', { for: 'filter-template' }, 'Template'), templateSelect)),
    listBox,
  );

  const rows = new Map<number, HTMLTableRowElement>();
  let next: number | string = 0;
  let maxId = 0;

  const matches = (run: Run) =>
    (!stateFilter || run.state === stateFilter) && (!templateFilter || run.template === templateFilter);

  function showEmptyIfNone(): void {
    const none = rows.size === 0;
    table.hidden = none;
    empty.hidden = !none;
    if (none) {
      replace(empty, stateFilter || templateFilter
        ? h('p', {}, 'No runs match these filters.')
        : [h('p', {}, 'You have no runs yet.'), h('p', {}, h('a', { href: '/runs/new' }, 'Start your first run'), '.')]);
    }
  }

  async function load(reset: boolean): Promise<void> {
    more.disabled = true;
    const since = store.now();
    try {
      const body = await get<RunList>(`/api/v1/runs${query({
        state: stateFilter, template: templateFilter, after: reset ? undefined : next || undefined, limit: PAGE,
      })}`);
      if (!ctx.alive()) return;
      if (reset) {
        rows.clear();
        tbody.replaceChildren();
      }
      for (const r of body.runs ?? []) {
        const run = store.put(r, since);
        if (rows.has(run.id)) continue;
        const tr = makeRow(run);
        rows.set(run.id, tr);
        tbody.append(tr);
        maxId = Math.max(maxId, run.id);
      }
      next = body.next ?? 0;
      more.hidden = !next;
      status.textContent = rows.size ? `${rows.size} run${rows.size === 1 ? '' : 's'} shown.` : '';
      status.classList.add('visually-hidden');
      listBox.dataset.loaded = 'true';
      showEmptyIfNone();
    } catch (e) {
      if (!ctx.alive()) return;
      status.classList.remove('visually-hidden');
      status.textContent = `Could not load your runs: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      more.disabled = false;
    }
  }

  function makeRow(run: Run): HTMLTableRowElement {
    const tr = h('tr', { 'data-testid': `run-row-${run.id}`, 'data-run-id': run.id },
      h('th', { scope: 'row', 'data-label': 'Run' },
        h('a', { href: `/runs/${run.id}`, class: 'run-link', 'data-testid': 'run-link' }, run.name),
        h('span', { class: 'muted run-id' }, ` #${run.id}`)),
      admin ? h('td', { 'data-label': 'Owner' }, run.owner) : null,
      h('td', { 'data-label': 'Template' }, run.template),
      h('td', { 'data-label': 'State' }, stateBadge(run.state)),
      h('td', { 'data-label': 'Submitted', class: 'cell-submitted' }),
      h('td', { 'data-label': 'Duration', class: 'cell-duration' }),
      h('td', { class: 'cell-actions' }, h('div', { class: 'actions' })));
    updateRow(tr, run);
    return tr;
  }

  function updateRow(tr: HTMLTableRowElement, run: Run): void {
    const badge = tr.querySelector<HTMLElement>('[data-testid="run-state"]');
    if (badge) setBadge(badge, run.state);
    const submitted = tr.querySelector<HTMLElement>('.cell-submitted')!;
    submitted.textContent = formatAgo(run.submit_time);
    submitted.title = formatDateTime(run.submit_time);
    tr.querySelector<HTMLElement>('.cell-duration')!.textContent = formatDuration(runElapsed(run));
    const actions = tr.querySelector<HTMLElement>('.actions')!;
    const cancel = actions.querySelector<HTMLButtonElement>('[data-testid="cancel-run"]');
    let rerun = actions.querySelector<HTMLButtonElement>('[data-testid="rerun-run"]');
    if (!rerun) {
      rerun = rerunButton(run, (r2) => announceStarted(r2));
      actions.append(rerun);
    }
    if (!isEnded(run) && !cancel) actions.prepend(cancelButton(run));
    if (isEnded(run) && cancel) {
      const hadFocus = document.activeElement === cancel;
      cancel.remove();
      if (hadFocus) rerun.focus();
    }
  }

  const unsubscribe = store.subscribe((run) => {
    const tr = rows.get(run.id);
    if (tr) {
      updateRow(tr, run);
      return;
    }
    if (listBox.dataset.loaded !== 'true' || run.id <= maxId || !matches(run)) return;
    if (admin === false && run.owner !== currentUser()?.name) return;
    const row = makeRow(run);
    rows.set(run.id, row);
    maxId = run.id;
    tbody.prepend(row);
    showEmptyIfNone();
  });
  const unResync = onResync(() => void load(true));
  const ticker = window.setInterval(() => {
    for (const [id, tr] of rows) {
      const run = store.getRun(id);
      if (run) updateRow(tr, run);
    }
  }, 10000);

  more.addEventListener('click', () => void load(false));
  void load(true);

  return () => {
    unsubscribe();
    unResync();
    window.clearInterval(ticker);
  };
}
