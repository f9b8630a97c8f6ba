// Client-side routes on the history API. The server answers every non-/api path with
// index.html, so each route's URL can be reloaded, bookmarked and shared.

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The element the page draws into (emptied before each page). */
  main: HTMLElement;
  /** True while this page is the one shown; async work checks it before drawing. */
  alive: () => boolean;
}

/** A page draws itself and may return a function that stops its timers and listeners. */
export type Page = (ctx: RouteContext) => (() => void) | void;

interface Route {
  pattern: RegExp;
  keys: string[];
  page: Page;
  needsLogin: boolean;
}

const routes: Route[] = [];
let main: HTMLElement;
let cleanup: (() => void) | void;
let generation = 0;
let guard: (path: string, needsLogin: boolean) => string | null = () => null;
const afterListeners = new Set<(path: string) => void>();

/** Adds a route: '/runs/:id' (':name' matches one path segment). */
export function route(path: string, page: Page, needsLogin = true): void {
  const keys: string[] = [];
  const re = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, k: string) => {
    keys.push(k);
    return '([^/]+)';
  });
  routes.push({ pattern: new RegExp(`^${re}/?$`), keys, page, needsLogin });
}

/** Called after each page is drawn, with its path (the header marks the current link). */
export function onNavigate(l: (path: string) => void): void {
  afterListeners.add(l);
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  render(true);
}

/**
 * Starts routing into `el`. `check(path, needsLogin)` returns a path to go to instead
 * (the login page when nobody is logged in), or null.
 */
export function start(el: HTMLElement, check: typeof guard): void {
  main = el;
  guard = check;
  window.addEventListener('popstate', () => render(true));
  document.addEventListener('click', onClick);
  render(false);
}

function onClick(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest('a');
  if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
  if (a.pathname.startsWith('/api/')) return;
  if (a.pathname === location.pathname && a.search === location.search && a.hash) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}

function render(moveFocus: boolean): void {
  const path = location.pathname;
  let found: Route | undefined;
  let m: RegExpExecArray | null = null;
  for (const r of routes) {
    m = r.pattern.exec(path);
    if (m) {
      found = r;
      break;
    }
  }
  const redirect = guard(path + location.search, found ? found.needsLogin : true);
  if (redirect !== null) {
    history.replaceState(null, '', redirect);
    render(moveFocus);
    return;
  }
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  generation += 1;
  const mine = generation;
  main.replaceChildren();
  const params: Record<string, string> = {};
  if (found && m) found.keys.forEach((k, i) => (params[k] = decodeURIComponent(m![i + 1])));
  const page = found ? found.page : notFound;
  cleanup = page({ params, query: new URLSearchParams(location.search), main, alive: () => generation === mine });
  for (const l of afterListeners) l(path);
  if (moveFocus) {
    window.scrollTo(0, 0);
    const heading = main.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }
  }
}

function notFound(ctx: RouteContext): void {
  document.title = 'Page not found · Switchyard';
  const h1 = document.createElement('h1');
  h1.textContent = 'Page not found';
  const p = document.createElement('p');
  p.innerHTML = 'There is no page here. <a href="/runs">Go to your runs</a>.';
  ctx.main.append(h1, p);
}
