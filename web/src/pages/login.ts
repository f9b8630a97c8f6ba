// The log in page: a name, a password, and a plain message when it did not work.
import { ApiError } from '../api';
import { h } from '../dom';
import type { RouteContext } from '../router';
import { login } from '../session';

export function loginPage(ctx: RouteContext, onLoggedIn: (next: string) => void): void {
  document.title = 'Log in · Switchyard';
  const next = safeNext(ctx.query.get('next'));

  const name = h('input', {
    id: 'login-name', name: 'name', type: 'text', autocomplete: 'username', required: true,
    autocapitalize: 'none', spellcheck: 'false', 'data-testid': 'login-name',
  });
  const password = h('input', {
    id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true,
    'data-testid': 'login-password',
  });
  const error = h('p', { id: 'login-error', class: 'form-error', role: 'alert', 'data-testid': 'login-error', hidden: true });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-wide', 'data-testid': 'login-submit' }, 'Log in');

  const form = h('form', { class: 'login-form', novalidate: true, 'aria-describedby': 'login-error' },
    h('div', { class: 'field' }, h('label', { for: 'login-name' }, 'Name'), name),
    h('div', { class: 'field' }, h('label', { for: 'login-password' }, 'Password'), password),
    error,
    submit,
  );

  function showError(text: string): void {
    error.textContent = text;
    error.hidden = false;
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    if (!name.value.trim() || !password.value) {
      showError('Please enter your name and your password.');
      (name.value.trim() ? password : name).focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Logging in…';
    try {
      await login(name.value.trim(), password.value);
      onLoggedIn(next);
    } catch (err) {
      if (!ctx.alive()) return;
      if (err instanceof ApiError && err.status === 401) {
        showError('Wrong name or password. Please try again.');
      } else if (err instanceof ApiError && err.status === 429) {
        showError(/too many/i.test(err.message) ? err.message : `Too many failed attempts. ${err.message}`);
      } else {
        showError(err instanceof Error ? err.message : String(err));
      }
      password.value = '';
      password.focus();
    } finally {
      submit.disabled = false;
      submit.textContent = 'Log in';
    }
  });

  ctx.main.append(
    h('section', { class: 'login-card card' },
      h('h1', {}, 'Log in to Switchyard'),
      h('p', { class: 'muted' }, 'Run simulations and workflows from your browser.'),
      form,
    ),
  );
  name.focus();
}

/** Only a path on this site (never another site) may be the page to go to after logging in. */
function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/login')) return '/runs';
  return next;
}
