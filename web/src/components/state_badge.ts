// A run's or a step's state as a badge: a symbol and a word (colour is a third cue only).
import { h } from '../dom';
import { stateSymbol, stateTone, stateWord } from '../format';

export function stateBadge(state: string): HTMLSpanElement {
  const el = h('span', { 'data-testid': 'run-state' });
  setBadge(el, state);
  return el;
}

export function setBadge(el: HTMLElement, state: string): void {
  if (el.dataset.state === state) return;
  el.dataset.state = state;
  el.className = `badge tone-${stateTone(state)}`;
  el.title = state;
  el.replaceChildren(h('span', { class: 'badge-symbol', 'aria-hidden': 'true' }, stateSymbol(state)), stateWord(state));
}
