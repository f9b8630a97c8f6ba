// Starts the pages: the header, the session, the event stream and the routes.
import './style.css';
import { setUnauthorizedHandler } from './api';
import { h } from './dom';
import * as events from './events';
import * as notify from './notify';
import { loginPage } from './pages/login';
import { newRunPage } from './pages/new_run';
import { runPage } from './pages/run';
import { runsPage } from './pages/runs';
import { usagePage } from './pages/usage';
import { navigate, onNavigate, route, start } from './router';
import { currentUser, forget, logout, restore } from './session';
import * as store from './store';
import { clearToasts, toast } from './components/toast';

const app = document.getElementById('app')!;

// ---- header -------------------------------------------------------------------------
const navLinks = [
  { href: '/runs', label: 'Runs', match: (p: string) => p === '/runs' || /^\/runs\/\d+/.test(p) },
  { href: '/runs/new', label: 'New run', match: (p: string) => p.startsWith('/runs/new') },
  { href: '/usage', label: 'Usage', match: (p: string) => p.startsWith('/usage') },
];
const nav = h('nav', { class: 'nav', 'aria-label': 'Main' },
  h('ul', {}, navLinks.map((l) => h('li', {}, h('a', { href: l.href, 'data-testid': `nav-${l.href.slice(1).replace('/', '-')}` }, l.label)))));
const live = h('span', { class: 'live', 'data-testid': 'stream-status', role: 'status' });
const notifyBtn = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'notify-toggle' });
const who = h('span', { class: 'who', 'data-testid': 'user-name' });
const logoutBtn = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'logout' }, 'Log out');
const userBox = h('div', { class: 'userbox' }, live, notifyBtn, h('span', { class: 'who-box' }, who, logoutBtn));
const header = h('header', { class: 'topbar' },
  h('div', { class: 'topbar-inner' },
    h('a', { href: '/runs', class: 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '⇌'), 'Switchyard'),
    nav, userBox));
const main = h('main', { id: 'main', tabindex: -1 });
app.replaceChildren(header, h('div', { class: 'container' }, main));

function drawNotify(): void {
  const st = notify.notifyState();
  notifyBtn.hidden = st === 'unsupported';
  notifyBtn.replaceChildren(st === 'on' ? 'Notifications on'
    : h('span', {}, 'Notify me', h('span', { class: 'wide-only' }, ' when runs end')));
  notifyBtn.setAttribute('aria-pressed', String(st === 'on'));
  notifyBtn.dataset.state = st;
  notifyBtn.title = st === 'blocked'
    ? 'Your browser blocks notifications from this site; allow them in the site settings.'
    : st === 'on' ? 'Press to stop notifications' : 'Get a notification when one of your runs ends';
}
notifyBtn.addEventListener('click', async () => {
  const before = notify.notifyState();
  const st = await notify.toggle();
  drawNotify();
  if (st === 'blocked') toast('Your browser blocks notifications from this site. Allow them in the site settings, then try again.', 'error');
  else if (st === 'on' && before !== 'on') toast('You will get a notification when one of your runs ends.');
});

function drawLive(s: events.StreamStatus): void {
  live.dataset.status = s;
  live.textContent = s === 'live' ? 'Live' : s === 'off' ? '' : s === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  live.title = s === 'live' ? 'Changes to your runs appear here as they happen' : '';
}
events.onStatus(drawLive);

function drawHeader(): void {
  const user = currentUser();
  header.classList.toggle('logged-out', !user);
  nav.hidden = !user;
  userBox.hidden = !user;
  who.textContent = user ? user.name : '';
  drawNotify();
  drawLive(events.streamStatus());
}

onNavigate((path) => {
  for (const a of nav.querySelectorAll('a')) {
    const l = navLinks.find((x) => x.href === a.getAttribute('href'));
    if (l && l.match(path)) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
});

// ---- session --------------------------------------------------------------------------
async function sessionAlive(): Promise<boolean> {
  const user = await restore();
  if (!user) sessionEnded();
  return !!user;
}

function startStream(): void {
  events.start(sessionAlive);
}

function sessionEnded(): void {
  if (!currentUser() && location.pathname === '/login') return;
  forget();
  events.stop();
  store.clear();
  drawHeader();
  const here = location.pathname + location.search;
  navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true });
  clearToasts();
  toast('Your session has ended. Please log in again.');
}

setUnauthorizedHandler(() => {
  if (currentUser()) sessionEnded();
});

logoutBtn.addEventListener('click', async () => {
  try {
    await logout();
  } catch {
    // logged out here all the same
  }
  events.stop();
  store.clear();
  clearToasts();
  drawHeader();
  navigate('/login', { replace: true });
});

// ---- routes ---------------------------------------------------------------------------
route('/login', (ctx) => loginPage(ctx, (next) => {
  drawHeader();
  startStream();
  navigate(next, { replace: true });
}), false);
route('/', () => {}, true);
route('/runs', runsPage);
route('/runs/new', newRunPage);
route('/runs/new/:template', newRunPage);
route('/runs/:id', runPage);
route('/usage', usagePage);

notify.init((path) => navigate(path));

async function boot(): Promise<void> {
  main.append(h('p', { class: 'muted' }, 'Loading…'));
  try {
    await restore();
  } catch {
    // the server is out of reach: the login page says so when used
  }
  drawHeader();
  if (currentUser()) startStream();
  start(main, (path, needsLogin) => {
    const user = currentUser();
    if (path === '/' || path.startsWith('/?')) return user ? '/runs' : '/login';
    if (needsLogin && !user) return `/login?next=${encodeURIComponent(path)}`;
    if (!needsLogin && user && path.startsWith('/login')) return '/runs';
    return null;
  });
}

void boot();
