// Short messages at the bottom of the screen ("Run started", "Could not cancel").
// Screen readers hear them through a live region; errors stay until closed.
import { h } from '../dom';

let region: HTMLElement | null = null;

function ensureRegion(): HTMLElement {
  if (!region) {
    region = h('div', { class: 'toasts', 'aria-live': 'polite', 'data-testid': 'toasts' });
    document.body.append(region);
  }
  return region;
}

export function toast(message: string | Node, kind: 'info' | 'error' = 'info'): void {
  const r = ensureRegion();
  const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss message' }, '×');
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    h('div', { class: 'toast-text' }, message), close);
  close.addEventListener('click', () => el.remove());
  r.append(el);
  while (r.children.length > 2) r.firstElementChild?.remove();
  if (kind === 'info') window.setTimeout(() => el.remove(), 6000);
}

export function toastError(e: unknown, what: string): void {
  toast(`${what}: ${e instanceof Error ? e.message : String(e)}`, 'error');
}

/** Removes every message (when the page changes person, for example). */
export function clearToasts(): void {
  region?.replaceChildren();
}
