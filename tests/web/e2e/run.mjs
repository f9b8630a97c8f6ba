#!/usr/bin/env node
// End-to-end walk through Switchyard's web pages, as a person would use them, in a real
// (headless) Chromium driven by playwright-core.
//
//   BASE_URL=http://127.0.0.1:PORT USER1=alice PASS1=... USER2=bob PASS2=... \
//   SHOTS=/tmp/shots node tests/web/e2e/run.mjs        (or: cd web && npm run e2e)
//
// The server must have the templates "hello" (fields greeting: text, count: integer 1..10),
// "sleeper" (field seconds: integer) and "three-steps" (a workflow without fields), and the
// two users. CHROMIUM chooses the browser (default /usr/bin/chromium). E2E_TIMEOUT_S (default
// 30) bounds each wait; E2E_RUN_TIMEOUT_S (default 120) bounds the wait for a run to end.
// YARD_BIN_DIR holds the `yard` that reaches the service account's daemon; SITE_DIR is the
// site's directory (a run's files are mended there before it is resumed).
// Prints one line per stage passed, then "N passed, N failed"; exits 1 on the first failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
  BASE, CHROMIUM, PASS1, PASS2, RUN_T, T, USER1, USER2, YARD, chromium, daemonPid, fail, gone, logIn, need,
  openTemplate, recordNotifications, recordStreamRuns, shot, stage, submitRun, until, urlMatches, visible, walk, watch,
} from './harness.mjs';

const user1Runs = [];
let resultPath = '';

try {
  walk.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
} catch (e) {
  console.error(`FAIL setup: could not start Chromium at ${CHROMIUM}: ${e.message}`);
  process.exit(1);
}

const ctx1 = await walk.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
ctx1.setDefaultTimeout(T);
ctx1.setDefaultNavigationTimeout(T);
await ctx1.addInitScript(recordNotifications);
await ctx1.addInitScript(recordStreamRuns);
const page = await ctx1.newPage();
walk.activePage = page;
watch(page, USER1);
const secure = /^https:|^http:\/\/(127\.|localhost[:/]|\[::1\])/.test(`${BASE}/`);

await stage(`${USER1} logs in (a wrong password is refused first)`, async () => {
  await page.goto(`${BASE}/`, { timeout: T });
  await urlMatches(page, /\/login/, 'the login page');
  await visible(page.locator('[data-testid="login-name"]'), 'the name field');
  const labelled = await page.evaluate(() =>
    ['login-name', 'login-password'].every((id) => document.getElementById(id)?.labels?.length));
  if (!labelled) fail('the login fields have no label elements');
  await page.locator('[data-testid="login-name"]').fill(USER1);
  await page.locator('[data-testid="login-password"]').fill(`${PASS1}-not-it`);
  await page.locator('[data-testid="login-submit"]').click();
  const err = await visible(page.locator('[data-testid="login-error"]'), 'the message about a wrong password');
  const text = (await err.textContent()) ?? '';
  if (!/wrong name or password/i.test(text)) fail(`the login error says "${text}", not "wrong name or password"`);
  await page.locator('[data-testid="login-password"]').fill(PASS1);
  await shot(page, 'login.png');
  await page.locator('[data-testid="login-password"]').press('Enter');
  await urlMatches(page, /\/runs(\?.*)?$/, 'the runs list after logging in');
  await visible(page.locator('.runs-list[data-loaded="true"]'), 'the runs list to load');
  const who = (await page.locator('[data-testid="user-name"]').textContent())?.trim();
  if (who !== USER1) fail(`the header names "${who}", not ${USER1}`);
  if (secure) {
    // Notifications are asked for with the button only; allowed here, then turned on.
    await ctx1.grantPermissions(['notifications'], { origin: new URL(BASE).origin });
    const toggle = await visible(page.locator('[data-testid="notify-toggle"]'), 'the notifications button');
    await toggle.click();
    await until(page, 'notifications are on', () =>
      document.querySelector('[data-testid="notify-toggle"]')?.getAttribute('data-state') === 'on');
  }
});

let helloId = 0;
await stage('starts a run of "hello" (greeting "tyres", count 3) from its form', async () => {
  await openTemplate(page, 'hello');
  const form = await page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll('[data-testid="run-form"] input, [data-testid="run-form"] select')) {
      out[el.name] = { labelled: (el.labels?.length ?? 0) > 0, min: el.getAttribute('min'), max: el.getAttribute('max'), type: el.type };
    }
    return out;
  });
  for (const [n, f] of Object.entries(form)) if (!f.labelled) fail(`the field "${n}" has no label`);
  if (!form.greeting || !form.count) fail(`the form lacks greeting or count: ${JSON.stringify(form)}`);
  if (form.count.type !== 'number' || form.count.min !== '1' || form.count.max !== '10') {
    fail(`count should be a number input with min 1 and max 10: ${JSON.stringify(form.count)}`);
  }
  await page.locator('[data-testid="input-greeting"]').fill('tyres');
  await page.locator('[data-testid="input-count"]').fill('3');
  await shot(page, 'new-run.png');
  helloId = await submitRun(page, 'hello');
  user1Runs.push(helloId);
});

await stage('sees the hello run become COMPLETED live (no reload) and "tyres" in its output', async () => {
  await visible(page.locator('[data-testid="run-state"]'), 'the state badge');
  await page.evaluate(() => (window.__yardSamePage = true));
  await until(page, 'the run page shows the state COMPLETED',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'COMPLETED', '[data-testid="run-state"]', RUN_T);
  const text = await page.locator('[data-testid="run-state"]').first().innerText();
  if (!/completed/i.test(text)) fail(`the state badge reads "${text}"`);
  if (!(await page.evaluate(() => window.__yardSamePage === true))) fail('the page was reloaded to show the new state');
  await until(page, 'the log pane shows "tyres"',
    () => (document.querySelector('[data-testid="log"]')?.textContent ?? '').includes('tyres'));
  await visible(page.locator('[data-testid="file-link"][data-path$="result.txt"]'), 'result.txt in the files list');
  if (secure) {
    const name = (await page.locator('h1').first().innerText()).trim();
    await until(page, `a notification that "${name}" ended`,
      (n) => (window.__yardNotes ?? []).some((t) => t.includes(n)), name);
  }
  await shot(page, 'run-completed.png');
});

await stage('downloads result.txt from the files list and finds "tyres" in it', async () => {
  const link = page.locator('[data-testid="file-link"][data-path$="result.txt"]').first();
  resultPath = (await link.getAttribute('data-path')) ?? 'result.txt';
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: T }), link.click()]);
  const file = await download.path();
  const body = fs.readFileSync(file, 'utf8');
  if (!body.includes('tyres')) fail(`result.txt holds ${JSON.stringify(body.slice(0, 200))}, without "tyres"`);
});

let sleeperId = 0;
await stage('starts a "sleeper" run, cancels it from the runs list and sees CANCELLED', async () => {
  await openTemplate(page, 'sleeper');
  const seconds = page.locator('[data-testid="input-seconds"]');
  const max = Number(await seconds.getAttribute('max')) || 600;
  await seconds.fill(String(Math.min(max, 600)));
  sleeperId = await submitRun(page, 'sleeper');
  user1Runs.push(sleeperId);
  await page.locator('[data-testid="nav-runs"]').click();
  await urlMatches(page, /\/runs$/, 'the runs list');
  const row = await visible(page.locator(`[data-testid="run-row-${sleeperId}"]`), `the row of run ${sleeperId}`);
  await visible(page.locator(`[data-testid="run-row-${helloId}"]`), `the row of run ${helloId}`);
  const order = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="run-row-"]')].map((r) => Number(r.getAttribute('data-run-id'))));
  if (order.indexOf(sleeperId) > order.indexOf(helloId)) fail(`the newest run is not first: ${order.join(', ')}`);
  const helloRow = page.locator(`[data-testid="run-row-${helloId}"]`);
  if (await helloRow.locator('[data-testid="cancel-run"]').count()) fail('the ended hello run still offers Cancel');
  if (!(await helloRow.locator('[data-testid="rerun-run"]').count())) fail('the hello run offers no Run again');
  await shot(page, 'runs-list.png');
  await row.locator('[data-testid="cancel-run"]').click();
  await until(page, `the row of run ${sleeperId} shows CANCELLED`,
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'CANCELLED',
    `[data-testid="run-row-${sleeperId}"] [data-testid="run-state"]`);
  const text = await row.locator('[data-testid="run-state"]').innerText();
  if (!/cancel/i.test(text)) fail(`the cancelled run's badge reads "${text}"`);
  // The template filter keeps only that template's runs.
  await page.locator('[data-testid="filter-template"]').selectOption('sleeper');
  await urlMatches(page, /template=sleeper/, 'the filtered list');
  await visible(page.locator(`[data-testid="run-row-${sleeperId}"]`), 'the sleeper run in the filtered list');
  await until(page, 'the hello run is filtered out', (sel) => !document.querySelector(sel), `[data-testid="run-row-${helloId}"]`);
  await shot(page, 'cancelled.png');
  await page.locator('[data-testid="filter-template"]').selectOption('');
  await visible(page.locator(`[data-testid="run-row-${helloId}"]`), 'the hello run back in the unfiltered list');
});

await stage('runs the workflow "three-steps" and sees every step COMPLETED in its graph', async () => {
  await openTemplate(page, 'three-steps');
  const id = await submitRun(page, 'three-steps');
  user1Runs.push(id);
  await visible(page.locator('[data-testid="workflow-graph"] [data-testid^="step-"]'), 'the step nodes of the graph');
  await until(page, 'every step node shows COMPLETED', () => {
    const nodes = [...document.querySelectorAll('[data-testid="workflow-graph"] [data-testid^="step-"]')];
    return nodes.length > 0 && nodes.every((n) => n.getAttribute('data-state') === 'COMPLETED' && /completed/i.test(n.textContent));
  }, undefined, RUN_T);
  await until(page, 'the workflow run shows COMPLETED',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'COMPLETED', '[data-testid="run-state"]', RUN_T);
  await shot(page, 'workflow.png');
});

await stage('a run page whose first answer comes after the stream told the run ended, and whose next fails, shows every step COMPLETED', async () => {
  // Under load the page's first fetch of a run can be answered after the stream's last
  // word on it: the steps' states come only from fetches, so the page must fetch again, and
  // keep trying if that fails. Here the first answer is held until the stream has told that
  // the run COMPLETED, and the next is a 503.
  let held = false;
  let failed = false;
  const runUrl = /\/api\/v1\/runs\/(\d+)$/;
  const handler = async (route) => {
    const id = Number(runUrl.exec(new URL(route.request().url()).pathname)?.[1]);
    if (route.request().method() !== 'GET' || !id) return route.continue();
    if (!held) {
      held = true;
      await until(page, `the stream tells that run ${id} COMPLETED`,
        (i) => (window.__yardStreamRuns ?? []).some((r) => r.id === i && r.state === 'COMPLETED'), id, RUN_T);
      return route.continue();
    }
    if (!failed) {
      failed = true;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"busy (said by the test)"}' });
    }
    return route.continue();
  };
  await page.route(runUrl, handler);
  try {
    await openTemplate(page, 'three-steps');
    const id = await submitRun(page, 'three-steps');
    user1Runs.push(id);
    await until(page, 'every step node shows COMPLETED', () => {
      const nodes = [...document.querySelectorAll('[data-testid="workflow-graph"] [data-testid^="step-"]')];
      return nodes.length > 0 && nodes.every((n) => n.getAttribute('data-state') === 'COMPLETED');
    }, undefined, RUN_T);
    if (!held || !failed) fail(`the page did not fetch the run again after its first answer (held ${held}, failed ${failed})`);
  } finally {
    await page.unroute(runUrl, handler);
  }
});

await stage('a bad value (count 99) shows the server\'s message next to the count field', async () => {
  await openTemplate(page, 'hello');
  await page.locator('[data-testid="input-greeting"]').fill('tyres');
  await page.locator('[data-testid="input-count"]').fill('99');
  await page.locator('[data-testid="submit-run"]').click();
  const err = await visible(page.locator('[data-testid="field-count"] [data-testid="field-error-count"]'), 'the error next to count');
  const text = ((await err.textContent()) ?? '').trim();
  if (!text) fail('the error next to count is empty');
  const a11y = await page.evaluate(() => {
    const input = document.querySelector('[data-testid="input-count"]');
    const error = document.querySelector('[data-testid="field-error-count"]');
    return {
      invalid: input?.getAttribute('aria-invalid'),
      described: (input?.getAttribute('aria-describedby') ?? '').split(/\s+/).includes(error?.id ?? '-'),
      focused: document.activeElement === input,
    };
  });
  if (a11y.invalid !== 'true' || !a11y.described) fail(`the count field is not marked invalid and tied to its error: ${JSON.stringify(a11y)}`);
  if (!/\/runs\/new\/hello$/.test(page.url())) fail(`the page left the form: ${page.url()}`);
  console.log(`    (the server said: ${text})`);
  await shot(page, 'bad-value.png');
});

await stage('the runs list at phone width (375 px) fits and is usable by keyboard', async () => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('[data-testid="nav-runs"]').click();
  await urlMatches(page, /\/runs$/, 'the runs list');
  await visible(page.locator(`[data-testid="run-row-${helloId}"]`), 'the hello run at phone width');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 376) fail(`the page is ${width} px wide at a 375 px screen (it scrolls sideways)`);
  await shot(page, 'phone-runs.png', false);
  // Keyboard: every element Tab reaches shows a visible focus ring.
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
  });
  const seen = [];
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const cs = getComputedStyle(el);
      return { tag: el.tagName.toLowerCase(), text: (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30),
        ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 };
    });
    if (!f) continue;
    seen.push(f);
    if (!f.ring) fail(`no visible focus on ${f.tag} "${f.text}"`);
  }
  if (seen.length < 5) fail(`Tab reached only ${seen.length} controls`);
  if (!seen.some((f) => f.tag === 'button')) fail('Tab reached no button');
  await page.setViewportSize({ width: 1280, height: 900 });
});

await stage('the daemon is killed and started again under an open run page, which follows the run to its end without a reload', async () => {
  await openTemplate(page, 'sleeper');
  await page.locator('[data-testid="input-seconds"]').fill('4');
  const id = await submitRun(page, 'sleeper');
  user1Runs.push(id);
  await page.evaluate(() => (window.__yardSamePage = true));
  await until(page, 'the run page shows RUNNING',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'RUNNING', '[data-testid="run-state"]', RUN_T);
  const pid = daemonPid();
  if (!pid) fail('no daemon to kill');
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + T;
  while (!gone(pid)) {
    if (Date.now() > deadline) fail(`the daemon ${pid} did not die of SIGKILL`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The service may have started it again already (it starts it when it is not running).
  execFileSync(YARD, ['server', 'start'], { encoding: 'utf8' });
  const again = daemonPid();
  if (!again || again === pid) fail(`no new daemon after the kill (pid ${again})`);
  await until(page, 'the run page shows COMPLETED after the restart',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'COMPLETED', '[data-testid="run-state"]', RUN_T);
  if (!(await page.evaluate(() => window.__yardSamePage === true))) fail('the page was reloaded to show the new state');
  await shot(page, 'daemon-restarted.png');
});

await stage('a workflow file sent by a program fails a step; Resume on its page runs only what did not complete', async () => {
  // A program's token, as a script beside the pages would use it.
  const tok = await ctx1.request.post(`${BASE}/api/v1/tokens`, { data: { name: USER1, password: PASS1 }, timeout: T });
  if (tok.status() !== 201) fail(`POST /api/v1/tokens answered ${tok.status()}`);
  const { token } = await tok.json();
  const workflow = ['name: fragile', 'steps:',
    '  - {name: prepare, command: echo prepared >> prepare.log, outputs: [prepare.log]}',
    '  - {name: solve, needs: [prepare], command: "test -e fixed && echo solved > solved.txt", outputs: [solved.txt]}',
    ''].join('\n');
  const sent = await ctx1.request.post(`${BASE}/api/v1/workflows`,
    { data: { workflow }, headers: { Authorization: `Bearer ${token}` }, timeout: T });
  if (sent.status() !== 201) fail(`POST /api/v1/workflows answered ${sent.status()}: ${await sent.text()}`);
  const id = (await sent.json()).run.id;
  user1Runs.push(id);
  await page.goto(`${BASE}/runs/${id}`, { timeout: T });
  await until(page, 'the run page shows FAILED',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'FAILED', '[data-testid="run-state"]', RUN_T);
  const resume = await visible(page.locator('[data-testid="resume-run"]'), 'the Resume button');
  fs.writeFileSync(path.join(need('SITE_DIR'), 'runs', String(id), 'fixed'), '');
  await page.evaluate(() => (window.__yardSamePage = true));
  await resume.click();
  await until(page, 'every step node shows COMPLETED', () => {
    const nodes = [...document.querySelectorAll('[data-testid="workflow-graph"] [data-testid^="step-"]')];
    return nodes.length === 2 && nodes.every((n) => n.getAttribute('data-state') === 'COMPLETED');
  }, undefined, RUN_T);
  await until(page, 'the run shows COMPLETED',
    (sel) => document.querySelector(sel)?.getAttribute('data-state') === 'COMPLETED', '[data-testid="run-state"]', RUN_T);
  await until(page, 'the Resume button is gone', () => !document.querySelector('[data-testid="resume-run"]'));
  if (!(await page.evaluate(() => window.__yardSamePage === true))) fail('the page was reloaded');
  const log = await ctx1.request.get(`${BASE}/api/v1/runs/${id}/files/prepare.log`, { timeout: T });
  const text = await log.text();
  if (text !== 'prepared\n') fail(`prepare ran again: prepare.log holds ${JSON.stringify(text)}`);
  await shot(page, 'workflow-resumed.png');
});

await stage(`${USER2} logs in and sees none of ${USER1}'s runs; their URLs answer 404`, async () => {
  const ctx2 = await walk.browser.newContext({ viewport: { width: 1280, height: 900 } });
  ctx2.setDefaultTimeout(T);
  ctx2.setDefaultNavigationTimeout(T);
  const page2 = await ctx2.newPage();
  walk.activePage = page2;
  watch(page2, USER2);
  await page2.goto(`${BASE}/runs`, { timeout: T });
  await urlMatches(page2, /\/login/, 'the login page');
  await logIn(page2, USER2, PASS2);
  for (const id of user1Runs) {
    if (await page2.locator(`[data-testid="run-row-${id}"]`).count()) fail(`${USER2} sees ${USER1}'s run ${id}`);
  }
  await shot(page2, 'user2.png');
  const urls = [`/api/v1/runs/${helloId}`, `/api/v1/runs/${helloId}/files`,
    `/api/v1/runs/${helloId}/files/${resultPath.split('/').map(encodeURIComponent).join('/')}`, `/api/v1/runs/${sleeperId}`];
  for (const u of urls) {
    const res = await ctx2.request.get(`${BASE}${u}`, { timeout: T });
    if (res.status() !== 404) fail(`GET ${u} as ${USER2} answered ${res.status()}, not 404`);
  }
  // The page of one of user1's runs says it is not found.
  await page2.goto(`${BASE}/runs/${helloId}`, { timeout: T });
  await until(page2, 'the run page says "Run not found"', () => /not found/i.test(document.querySelector('h1')?.textContent ?? ''));
  await ctx2.close();
  walk.activePage = page;
});

await walk.browser.close();
console.log(`${walk.passed} passed, 0 failed`);
