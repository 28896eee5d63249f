// Checks the built documentation site in headless Chromium (playwright-core, pinned in dev.sh):
//   node site/check.mjs <book-dir>
// <book-dir> is mdBook's output with the playground's build in <book-dir>/playground/. It is
// served under the sub-path /docs/rvlab/ by a static server on 127.0.0.1 (a free port); every
// other request, and any request that would leave the machine, is refused and counted as a
// failure, so the site is shown to work offline from the built folder.
//
// For every page: no console error, no failed or refused request. For every embed: the app
// rendered inside its frame, the frame fits its content (no inner scrollbar, no blank space
// below the app), and a short read-only example stays well under 900 px tall.
// Prints one "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1 on any
// failure (and when the browser or the folder is missing: a check that cannot run fails).
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const pwPath = process.env.PLAYWRIGHT_CORE || path.join(here, '../.tools/npm/node_modules/playwright-core');
const PREFIX = '/docs/rvlab/';

let passed = 0, failed = 0;
const check = (ok, what, detail = '') => {
  if (ok) { passed++; console.log(`ok - ${what}`); }
  else { failed++; console.log(`not ok - ${what}${detail ? ': ' + detail : ''}`); }
};
const finish = () => { console.log(`${passed} passed, ${failed} failed`); process.exit(failed ? 1 : 0); };

const book = path.resolve(process.argv[2] || path.join(here, 'book'));
for (const f of ['index.html', 'paging.html', 'compaction.html', 'watch.html', 'iframe.html', 'playground/index.html', 'playground/rv-playground.js']) {
  check(fs.existsSync(path.join(book, f)), `built site has ${f}`);
}
if (failed) finish();

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e)); finish(); }

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png', '.ico': 'image/x-icon', '.rv': 'text/plain; charset=utf-8', '.txt': 'text/plain' };
const misses = [];
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (!p.startsWith(PREFIX)) { misses.push(p); res.writeHead(404); res.end(); return; }
  p = p.slice(PREFIX.length - 1);
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(book, path.normalize(p));
  if (!f.startsWith(book) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { misses.push(req.url); res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
  fs.createReadStream(f).pipe(res);
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const base = origin + PREFIX;

let browser;
try {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); server.close(); finish(); }

const sleep = ms => new Promise(r => setTimeout(r, ms));

/** Waits until `f()` is truthy (polling), or the timeout passes; returns the last value. */
async function until(f, ms = 20000) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) { try { v = await f(); } catch { v = undefined; } if (v) return v; await sleep(100); }
  return v;
}

/** The frame's height once it has stopped changing for half a second. */
async function settledHeight(frameEl) {
  let last = -1, since = Date.now();
  const end = Date.now() + 20000;
  while (Date.now() < end) {
    const h = await frameEl.evaluate(f => f.getBoundingClientRect().height);
    if (h !== last) { last = h; since = Date.now(); } else if (Date.now() - since > 600) return h;
    await sleep(100);
  }
  return last;
}

/** Checks one embed frame: the app rendered, and the frame fits it. */
async function checkEmbed(page, frameEl, name, { fixed, maxHeight, rows, lesson }) {
  await frameEl.scrollIntoViewIfNeeded();
  const frame = await until(() => frameEl.contentFrame());
  if (!frame) { check(false, `${name}: its frame loads`); return; }
  const app = await until(() => frame.$('.app.embed'));
  check(!!app, `${name}: the app renders in its frame`);
  check(!(await frame.$('#rvlab-boot')), `${name}: the page's loading line is gone once the app runs`);
  if (!app) return;
  if (rows !== undefined) {
    const n = await until(async () => (await frame.$$('#log li')).length === rows && rows);
    check(n === rows, `${name}: shows its ${rows} steps`, `${(await frame.$$('#log li')).length} rows`);
  }
  if (lesson) {
    const step = await until(() => frame.$('#lesson-panel .lesson-goal'));
    check(!!step, `${name}: the lesson loaded and shows its first goal`);
    check(!(await frame.$('#lesson-panel .lesson-error')), `${name}: no lesson load error`);
  }
  check(!(await frame.$('#notice.err')), `${name}: no error notice`, await frame.$eval('#notice.err', e => e.textContent).catch(() => ''));
  const h = await settledHeight(frameEl);
  const content = await frame.evaluate(() => {
    const app = document.querySelector('.app');
    return { app: Math.ceil(app.getBoundingClientRect().height), doc: document.documentElement.scrollHeight, view: window.innerHeight };
  });
  if (fixed) {
    check(Math.abs(h - fixed) <= 2, `${name}: keeps its fixed height ${fixed}px`, `${h}px`);
    check(content.app <= fixed + 2, `${name}: the app fits the fixed height (scrolls inside)`, JSON.stringify(content));
  } else {
    check(content.doc <= content.view + 2, `${name}: the frame is tall enough for its content (no inner scrollbar)`, `frame ${h}px, ${JSON.stringify(content)}`);
    check(h <= content.app + 40, `${name}: the frame is no taller than its content`, `frame ${h}px, app ${content.app}px`);
  }
  if (maxHeight) check(h < maxHeight, `${name}: compact (${Math.round(h)}px < ${maxHeight}px)`, `${h}px`);
}

const pages = [
  { file: 'index.html', embeds: [] },
  { file: 'paging.html', embeds: [{ sel: 'rv-playground[lesson="paging"] iframe', name: 'paging lesson (<rv-playground>)', lesson: true }] },
  { file: 'compaction.html', embeds: [{ sel: 'rv-playground[lesson="continue-after-compaction"] iframe', name: 'continue-after-compaction lesson (<rv-playground>)', lesson: true }] },
  { file: 'watch.html', embeds: [{ sel: 'rv-playground iframe', name: 'read-only watch example (<rv-playground>, 4 lines)', rows: 4, maxHeight: 900 }] },
  { file: 'iframe.html', embeds: [{ sel: 'iframe.rvlab-frame', name: 'pagination example (plain iframe)', fixed: 420 }] },
];

for (const pg of pages) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const refused = [];
  await context.route('**/*', route => {
    const u = route.request().url();
    if (u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    refused.push(u);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  const errors = [], failedReqs = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  page.on('requestfailed', r => failedReqs.push(`${r.url()} (${r.failure()?.errorText})`));
  page.on('response', r => { if (r.status() >= 400) failedReqs.push(`${r.url()} → ${r.status()}`); });
  const before = misses.length;
  const resp = await page.goto(base + pg.file, { waitUntil: 'load' }).catch(e => ({ status: () => String(e) }));
  check(resp.status() === 200, `${pg.file}: loads under ${PREFIX}`, String(resp.status()));
  const title = await page.title();
  check(/rvlab/.test(title), `${pg.file}: is an mdBook page of the site`, title);
  for (const e of pg.embeds) {
    const el = await until(() => page.$(e.sel), 10000);
    if (!el) { check(false, `${e.name}: present on ${pg.file}`); continue; }
    await checkEmbed(page, el, e.name, e);
  }
  await sleep(300);
  check(errors.length === 0, `${pg.file}: no console error`, errors.join(' | '));
  check(failedReqs.length === 0 && misses.length === before, `${pg.file}: every request is served from the built folder`, failedReqs.concat(misses.slice(before)).join(' | '));
  check(refused.length === 0, `${pg.file}: works offline (nothing fetched from elsewhere)`, refused.join(' | '));
  await context.close();
}

await browser.close();
server.close();
finish();
