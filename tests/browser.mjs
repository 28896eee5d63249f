// What the headless-Chromium checks share (site/check.mjs, tests/embed/*.mjs,
// tests/page/flow.mjs, tests/trunk/serve.mjs): where playwright-core is (PLAYWRIGHT_CORE, set by dev.sh, or the
// per-machine tool cache it installs into), how Chromium is launched, polling, the report they
// print, their command line and the static server they load the bundle from.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** playwright-core's folder: $PLAYWRIGHT_CORE, else where ./dev.sh installs it. */
export const pwPath = process.env.PLAYWRIGHT_CORE
  || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rvlab/tools/playwright-core-1.65.1/node_modules/playwright-core');

/** Debian's Chromium (or $CHROMIUM), headless, as root. */
export const launchChromium = chromium => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

export const sleep = ms => new Promise(r => setTimeout(r, ms));

/** Waits until `f()` is truthy (polling every `step` ms), or `ms` pass; returns the last value. */
export async function until(f, ms = 20000, step = 100) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) { try { v = await f(); } catch { v = undefined; } if (v) return v; await sleep(step); }
  return v;
}

/**
 * The checks' report: `check(ok, what, detail)` prints one "ok - …" / "not ok - …" line;
 * `finish(code)` prints "N passed, N failed" and exits (1 on any failure unless `code` says).
 */
export function tap() {
  const t = { passed: 0, failed: 0 };
  t.check = (ok, what, detail = '') => {
    if (ok) { t.passed++; console.log(`ok - ${what}`); }
    else { t.failed++; console.log(`not ok - ${what}${detail ? ': ' + detail : ''}`); }
  };
  t.finish = code => { console.log(`${t.passed} passed, ${t.failed} failed`); process.exit(code ?? (t.failed ? 1 : 0)); };
  return t;
}

/** `[DIST] [--shots DIR]` from the command line: the bundle (default `defaultDist`) and the shots folder (or null). */
export function bundleArgs(defaultDist, defaultShots) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--shots');
  const shots = at >= 0 ? path.resolve(args[at + 1] || defaultShots) : null;
  const positional = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  return { dist: path.resolve(positional[0] || defaultDist), shots };
}

/** Content types of the files a built bundle or book holds. */
export const contentTypes = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png', '.ico': 'image/x-icon', '.rv': 'text/plain; charset=utf-8', '.txt': 'text/plain' };

/**
 * A static server on 127.0.0.1 (a free port) serving `root` under the sub-path `prefix`; `page(path)`
 * may answer a path first with an HTML text. Anything else is a 404 recorded in `misses`.
 */
export async function serveStatic(root, prefix, page = () => null) {
  const misses = [];
  const server = http.createServer((req, res) => {
    let p;
    try { p = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { p = req.url; }
    const html = page(p);
    if (html != null) { res.writeHead(200, { 'content-type': contentTypes['.html'], 'cache-control': 'no-store' }); res.end(html); return; }
    if (!p.startsWith(prefix)) { misses.push(req.url); res.writeHead(404); res.end(); return; }
    p = p.slice(prefix.length - 1);
    if (p.endsWith('/')) p += 'index.html';
    const f = path.join(root, path.normalize(p));
    if (!f.startsWith(root) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { misses.push(req.url); res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': contentTypes[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(f).pipe(res);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { server, origin, base: origin + prefix, misses };
}

/**
 * Headless Chromium with one page for the checks against a bundle served at `origin`: any request
 * elsewhere is aborted and recorded in `misses`; the page's console errors and uncaught errors
 * are collected in `errors`. When Chromium does not start, the check fails and the run ends.
 */
export async function openHostPage(chromium, origin, misses, { check, finish, server }) {
  let browser;
  try { browser = await launchChromium(chromium); } catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); server.close(); finish(); }
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.route(u => !u.href.startsWith(origin), r => { misses.push(r.request().url()); r.abort(); });
  const page = await ctx.newPage();
  page.setDefaultTimeout(60000);
  const errors = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  return { browser, ctx, page, errors };
}

/** What a host page of the embed checks records: every rv-output event (`window.seen`: the
 *  element's id and the output's line) and every key its document hears (`window.hostKeys`). */
export const HOST_LISTENERS = `<script>
window.seen = [];
window.hostKeys = [];
document.addEventListener('keydown', e => window.hostKeys.push(e.key));
document.addEventListener('rv-output', e => window.seen.push({ target: e.target.id, line: e.detail && e.detail.line }));
</script>`;
