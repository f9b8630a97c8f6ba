// The end-to-end walk's harness (run.mjs): its settings from the environment, Chromium
// through playwright-core, stages that stop the walk at the first failure with a
// screenshot, waits with a deadline, and the steps a person repeats (log in, open a
// template, submit its form). The service account's daemon is reached with `yard`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export function loadPlaywright() {
  // playwright-core is installed in web/node_modules (web/package.json); look there first.
  for (const base of [path.join(here, '../../../web/package.json'), path.join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(base)('playwright-core');
    } catch {
      // try the next place
    }
  }
  console.error('FAIL setup: playwright-core is not installed; run `cd web && npm ci` first');
  process.exit(1);
}

export function need(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`FAIL setup: the environment variable ${name} is not set`);
    process.exit(1);
  }
  return v;
}

export const BASE = need('BASE_URL').replace(/\/+$/, '');
export const USER1 = need('USER1');
export const PASS1 = need('PASS1');
export const USER2 = need('USER2');
export const PASS2 = need('PASS2');
export const SHOTS = path.resolve(process.env.SHOTS || 'e2e-shots');
export const T = 1000 * Number(process.env.E2E_TIMEOUT_S || 30);
export const RUN_T = 1000 * Number(process.env.E2E_RUN_TIMEOUT_S || 120);
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const YARD = path.join(need('YARD_BIN_DIR'), 'yard');

fs.mkdirSync(SHOTS, { recursive: true });

export const { chromium } = loadPlaywright();

export class StageError extends Error {}
export const fail = (msg) => {
  throw new StageError(msg);
};

// The walk's state: stages passed, the page a failure's screenshot is taken of, the browser
// to close on a failure, and what the browser said of errors.
export const walk = { passed: 0, activePage: null, browser: null, browserErrors: [] };

export async function stage(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
  } catch (e) {
    const msg = e instanceof StageError ? e.message : (e && e.stack) || String(e);
    console.error(`FAIL stage ${walk.passed + 1} "${name}": ${msg}`);
    if (walk.activePage) {
      const shot = path.join(SHOTS, `fail-${walk.passed + 1}.png`);
      await walk.activePage.screenshot({ path: shot, fullPage: true, timeout: 10000 }).catch(() => {});
      console.error(`  page: ${walk.activePage.url()}  screenshot: ${shot}`);
      await tellServersView(walk.activePage);
    }
    for (const line of walk.browserErrors.slice(-10)) console.error(`  browser: ${line}`);
    console.log(`${walk.passed} passed, 1 failed`);
    await walk.browser?.close().catch(() => {});
    process.exit(1);
  }
  walk.passed += 1;
  console.log(`ok ${walk.passed} - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

// On a failure on a run's page: the run as the server has it now (its state and its steps'),
// and the daemon's jobs, to tell a page that missed a change from a run that never made it.
async function tellServersView(page) {
  const id = /\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1];
  if (!id) return;
  try {
    const res = await page.request.get(`${BASE}/api/v1/runs/${id}`, { timeout: 10000 });
    const run = (await res.json()).run ?? {};
    const steps = (run.steps ?? []).map((st) => `${st.name} ${st.state}`).join(', ');
    console.error(`  server: run ${id} ${res.status()} ${run.state ?? ''}${steps ? ` (steps: ${steps})` : ''}`);
  } catch (e) {
    console.error(`  server: run ${id} could not be asked: ${e.message}`);
  }
  try {
    const jobs = execFileSync(YARD, ['status'], { encoding: 'utf8', timeout: 10000 });
    console.error(`  daemon: yard status\n${jobs.split('\n').slice(-12).map((l) => `    ${l}`).join('\n')}`);
  } catch (e) {
    console.error(`  daemon: yard status failed: ${e.message}`);
  }
}

/** Waits for `fn(arg)` in the page to be truthy; `what` says what was awaited when it times out. */
export async function until(page, what, fn, arg, timeout = T) {
  try {
    return await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  } catch (e) {
    if (String(e).includes('Timeout')) fail(`timed out after ${timeout / 1000} s waiting until ${what}`);
    throw e;
  }
}

export async function visible(locator, what, timeout = T) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (e) {
    if (String(e).includes('Timeout')) fail(`timed out after ${timeout / 1000} s waiting for ${what}`);
    throw e;
  }
  return locator.first();
}

export async function urlMatches(page, re, what, timeout = T) {
  try {
    await page.waitForURL(re, { timeout });
  } catch (e) {
    if (String(e).includes('Timeout')) fail(`timed out after ${timeout / 1000} s waiting for ${what} (at ${page.url()})`);
    throw e;
  }
}

export async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: path.join(SHOTS, name), fullPage });
}

export function watch(page, who) {
  page.on('pageerror', (e) => walk.browserErrors.push(`${who} page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') walk.browserErrors.push(`${who} console: ${m.text()}`);
  });
}

/** Records each Notification the page creates (in window.__yardNotes) before the page's own code runs. */
export function recordNotifications() {
  const N = window.Notification;
  window.__yardNotes = [];
  if (!N) return;
  window.Notification = class extends N {
    constructor(title, opts) {
      window.__yardNotes.push(title);
      super(title, opts);
    }
  };
}

/** Records the runs each `runs` message of the event stream carries (window.__yardStreamRuns),
 * before the page's own listener sees them. */
export function recordStreamRuns() {
  const ES = window.EventSource;
  window.__yardStreamRuns = [];
  if (!ES) return;
  window.EventSource = class extends ES {
    constructor(url, opts) {
      super(url, opts);
      this.addEventListener('runs', (e) => {
        try {
          window.__yardStreamRuns.push(...(JSON.parse(e.data).runs ?? []));
        } catch {
          // not JSON: the page's own listener ignores it too
        }
      });
    }
  };
}

export async function logIn(page, name, password) {
  await page.locator('[data-testid="login-name"]').fill(name);
  await page.locator('[data-testid="login-password"]').fill(password);
  await page.locator('[data-testid="login-password"]').press('Enter');
  await urlMatches(page, /\/runs(\?.*)?$/, `the runs list after ${name} logs in`);
  await visible(page.locator('.runs-list[data-loaded="true"]'), 'the runs list to load');
}

/** Opens the new run page from the header, picks a template by its card. */
export async function openTemplate(page, template) {
  await page.locator('[data-testid="nav-runs-new"]').click();
  const card = await visible(page.locator(`[data-testid="template-${template}"]`), `the template card "${template}"`);
  await card.click();
  await visible(page.locator('[data-testid="run-form"]'), `the form of template "${template}"`);
}

export async function submitRun(page, what) {
  await page.locator('[data-testid="submit-run"]').click();
  await urlMatches(page, /\/runs\/\d+$/, `the page of the new ${what} run`);
  const id = Number(/\/runs\/(\d+)$/.exec(page.url())[1]);
  await visible(page.locator('h1'), `the heading of run ${id}`);
  return id;
}

/** The service account's daemon, as `yard server status` names it (0: none running). */
export function daemonPid() {
  try {
    return JSON.parse(execFileSync(YARD, ['server', 'status', '--json'], { encoding: 'utf8' })).pid ?? 0;
  } catch {
    return 0;
  }
}

/** Whether process `pid` is gone (a zombie counts as gone: it runs nothing). */
export function gone(pid) {
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
