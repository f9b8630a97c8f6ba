// Starting a run: first pick a template (cards), then fill the form made from its
// fields. The server checks the values; its message is shown beside the field at fault.
import { ApiError, post, put } from '../api';
import { announceStarted } from '../components/run_actions';
import { h, replace } from '../dom';
import * as notify from '../notify';
import { navigate, type RouteContext } from '../router';
import * as store from '../store';
import { loadTemplates, templateTitle } from '../templates';
import type { Run, Template, TemplateField } from '../types';

export function newRunPage(ctx: RouteContext): void {
  document.title = 'New run · Switchyard';
  const chosen = ctx.params.template;
  const heading = h('h1', {}, chosen ? 'New run' : 'Start a new run');
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading templates…'));
  ctx.main.append(heading, body);

  loadTemplates().then((templates) => {
    if (!ctx.alive()) return;
    if (!chosen) {
      replace(body, chooser(templates));
      return;
    }
    const t = templates.find((x) => x.name === chosen);
    if (!t) {
      heading.textContent = 'Template not found';
      replace(body, h('p', {}, `There is no template called “${chosen}”. `, h('a', { href: '/runs/new' }, 'Choose a template'), '.'));
      return;
    }
    document.title = `New run: ${templateTitle(t)} · Switchyard`;
    heading.textContent = `New run: ${templateTitle(t)}`;
    replace(body, runForm(t, ctx));
  }).catch((e) => {
    if (!ctx.alive()) return;
    replace(body, h('p', { class: 'form-error', role: 'alert' }, `Could not load the templates: ${e instanceof Error ? e.message : String(e)}`));
  });
}

function chooser(templates: Template[]): HTMLElement {
  if (!templates.length) {
    return h('p', {}, 'There are no templates on this site yet. Ask your site administrator to add some.');
  }
  return h('div', {},
    h('p', { class: 'lead' }, 'Choose what to run. You can set its options on the next page.'),
    h('ul', { class: 'template-grid', role: 'list' }, templates.map((t) =>
      h('li', {},
        h('a', { href: `/runs/new/${encodeURIComponent(t.name)}`, class: 'card template-card', 'data-testid': `template-${t.name}` },
          h('span', { class: 'template-title' }, templateTitle(t)),
          t.description ? h('span', { class: 'template-desc' }, t.description) : null,
          h('span', { class: 'template-meta' },
            t.kind === 'workflow' ? 'Workflow' : 'Single job',
            ' · ',
            t.fields.length ? `${t.fields.length} setting${t.fields.length === 1 ? '' : 's'}` : 'no settings'))))),
  );
}

interface FieldUi {
  field: TemplateField;
  input: HTMLInputElement | HTMLSelectElement;
  help: HTMLElement | null;
  error: HTMLElement;
}

function rangeHint(f: TemplateField): string {
  const kind = f.type === 'integer' ? 'A whole number' : 'A number';
  if (f.min !== undefined && f.max !== undefined) return `${kind} from ${f.min} to ${f.max}.`;
  if (f.min !== undefined) return `${kind}, at least ${f.min}.`;
  if (f.max !== undefined) return `${kind}, at most ${f.max}.`;
  return `${kind}.`;
}

function makeField(f: TemplateField): { el: HTMLElement; ui: FieldUi } {
  const id = `f-${f.name}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  let input: HTMLInputElement | HTMLSelectElement;
  const common = { id, name: f.name, 'data-testid': `input-${f.name}`, required: !!f.required };
  switch (f.type) {
    case 'integer':
    case 'number':
      input = h('input', {
        ...common, type: 'number', inputmode: f.type === 'integer' ? 'numeric' : 'decimal',
        step: f.type === 'integer' ? 1 : 'any', min: f.min, max: f.max,
        value: f.default !== undefined ? String(f.default) : undefined,
      });
      break;
    case 'choice':
      input = h('select', common,
        f.required && f.default === undefined ? h('option', { value: '' }, 'Choose…') : null,
        !f.required ? h('option', { value: '' }, '(none)') : null,
        (f.choices ?? []).map((c) => h('option', { value: c, selected: String(f.default ?? '') === c }, c)));
      break;
    case 'file':
      input = h('input', { ...common, type: 'file' });
      break;
    default:
      input = h('input', {
        ...common, type: 'text', maxlength: f.max_length || undefined,
        value: f.default !== undefined ? String(f.default) : undefined,
      });
  }
  const hints: string[] = [];
  if (f.help) hints.push(f.help);
  if (f.type === 'integer' || f.type === 'number') hints.push(rangeHint(f));
  if (f.type === 'file') hints.push('The file is uploaded when you start the run.');
  const help = hints.length ? h('p', { id: helpId, class: 'help' }, hints.join(' ')) : null;
  const error = h('p', { id: errorId, class: 'field-error', hidden: true, 'data-testid': `field-error-${f.name}` });
  if (help) input.setAttribute('aria-describedby', helpId);
  const label = h('label', { for: id }, f.label || f.name, f.required ? null : h('span', { class: 'optional' }, ' (optional)'));
  const el = h('div', { class: 'field', 'data-testid': `field-${f.name}` }, label, help, input, error);
  return { el, ui: { field: f, input, help, error } };
}

function setFieldError(ui: FieldUi, message: string | null): void {
  const describedBy = [ui.help?.id, message ? ui.error.id : null].filter(Boolean).join(' ');
  if (describedBy) ui.input.setAttribute('aria-describedby', describedBy);
  else ui.input.removeAttribute('aria-describedby');
  if (message) {
    ui.error.textContent = message;
    ui.error.hidden = false;
    ui.input.setAttribute('aria-invalid', 'true');
  } else {
    ui.error.textContent = '';
    ui.error.hidden = true;
    ui.input.removeAttribute('aria-invalid');
  }
}

function runForm(t: Template, ctx: RouteContext): HTMLElement {
  const uis: FieldUi[] = [];
  const fieldEls: HTMLElement[] = [];
  for (const f of t.fields) {
    const { el, ui } = makeField(f);
    uis.push(ui);
    fieldEls.push(el);
  }
  const formError = h('p', { class: 'form-error', role: 'alert', tabindex: -1, hidden: true, 'data-testid': 'form-error' });
  const progress = h('p', { class: 'muted', role: 'status', 'data-testid': 'form-progress' });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'submit-run' }, 'Start run');
  const form = h('form', { class: 'run-form card', novalidate: true, 'data-testid': 'run-form', 'aria-label': `Settings for ${templateTitle(t)}` },
    fieldEls.length ? fieldEls : h('p', {}, 'This template has no settings. Press “Start run” to begin.'),
    formError,
    h('div', { class: 'form-actions' }, submit, h('a', { href: '/runs/new', class: 'btn btn-link' }, 'Choose another template')),
    progress,
  );

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    for (const ui of uis) setFieldError(ui, null);
    formError.hidden = true;
    const values: Record<string, unknown> = {};
    // Only what the browser cannot hand over is checked here; the server checks the rest.
    for (const ui of uis) {
      const { field, input } = ui;
      if (input instanceof HTMLInputElement && input.type === 'number' && input.validity.badInput) {
        setFieldError(ui, field.type === 'integer' ? 'Please enter a whole number.' : 'Please enter a number.');
        input.focus();
        return;
      }
    }
    submit.disabled = true;
    try {
      for (const ui of uis) {
        const { field, input } = ui;
        if (field.type === 'file') {
          const file = (input as HTMLInputElement).files?.[0];
          if (!file) continue;
          progress.textContent = `Uploading ${file.name}…`;
          try {
            const up = await put<{ upload: { name: string } }>(`/api/v1/uploads/${encodeURIComponent(file.name)}`, file);
            values[field.name] = up.upload?.name ?? file.name;
          } catch (err) {
            if (err instanceof ApiError) throw new ApiError(err.status, err.message, field.name);
            throw err;
          }
          continue;
        }
        const v = input.value;
        if (v === '') continue;
        values[field.name] = field.type === 'integer' || field.type === 'number' ? Number(v) : v;
      }
      progress.textContent = 'Starting the run…';
      const res = await post<{ run: Run }>('/api/v1/runs', { template: t.name, values });
      store.put(res.run);
      notify.startedHere(res.run);
      if (!ctx.alive()) {
        announceStarted(res.run);
        return;
      }
      navigate(`/runs/${res.run.id}`);
    } catch (err) {
      if (!ctx.alive()) return;
      progress.textContent = '';
      const message = err instanceof Error ? err.message : String(err);
      const ui = err instanceof ApiError && err.field ? uis.find((u) => u.field.name === err.field) : undefined;
      if (ui) {
        setFieldError(ui, message);
        ui.input.focus();
      } else {
        formError.textContent = `The run was not started: ${message}`;
        formError.hidden = false;
        formError.focus();
      }
    } finally {
      submit.disabled = false;
    }
  });

  return h('div', {},
    t.description ? h('p', { class: 'lead' }, t.description) : null,
    form);
}
