// `./dev.sh serve` is `trunk serve` with Trunk.toml: this checks, in headless Chromium, what a
// person editing the playground relies on.
//   node tests/trunk/serve.mjs
// Runs `trunk --offline=true serve` as `./dev.sh serve` does (a debug build: after the browser
// tests cargo has only the small rvlab-web binary to compile) on a free loopback port with its own
// dist folder, and checks:
// the page, its ES module and its wasm (as application/wasm), the copied files and a lesson are
// served; the app renders; a change to a watched file (a probe under www/, removed afterwards)
// makes Trunk rebuild and the open page reload itself through Trunk's websocket.
// One "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exit 1 on any failure
// or when something it needs (trunk, Chromium, playwright-core) is missing.
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { launchChromium, pwPath, sleep, until } from '../browser.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

let passed = 0, failed = 0;
const check = (ok, what, detail = '') => {
  if (ok) { passed++; console.log(`ok - ${what}`); } else { failed++; console.log(`not ok - ${what}${detail ? ': ' + detail : ''}`); }
};
const freePort = () => new Promise(r => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });

const probe = path.join(root, 'www', 'reload-probe.tmp');
const dist = path.join(root, 'target', 'trunk-serve-check');
const port = await freePort();
const log = [];
const trunk = spawn('trunk', ['--offline=true', 'serve', '--port', String(port), '--dist', dist], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let exited = null;
trunk.on('exit', c => { exited = c; });
trunk.on('error', e => { exited = String(e); });
for (const s of [trunk.stdout, trunk.stderr]) s.on('data', d => log.push(...String(d).split('\n').filter(Boolean)));
const builds = () => log.filter(l => l.includes('success')).length;
let browser, firstBuildSeconds = '?', rebuildSeconds = '?';
const t0 = Date.now();
const finish = async () => {
  console.log(`# first build after ${firstBuildSeconds}s, the rebuild after ${rebuildSeconds}s`);
  if (browser) await browser.close().catch(() => {});
  trunk.kill('SIGINT');
  await until(() => exited !== null, 10000);
  if (exited === null) trunk.kill('SIGKILL');
  fs.rmSync(probe, { force: true });
  fs.rmSync(dist, { recursive: true, force: true });
  if (failed) console.log(log.slice(-15).map(l => '# ' + l).join('\n'));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
};

const base = `http://127.0.0.1:${port}/`;
const up = await until(async () => exited === null && builds() >= 1 && (await fetch(base)).ok, 600000);
firstBuildSeconds = Math.round((Date.now() - t0) / 1000);
check(!!up, `trunk serve answers on 127.0.0.1:${port} after its first build`, exited !== null ? `trunk exited: ${exited}` : 'no answer');
if (!up) await finish();

const html = await (await fetch(base)).text();
const js = html.match(/from '\.\/(rvlab-web-[0-9a-f]+\.js)'/)?.[1];
const wasm = html.match(/module_or_path: '\.\/(rvlab-web-[0-9a-f]+_bg\.wasm)'/)?.[1];
check(!!js && !!wasm, 'the page loads the hashed ES module and wasm by relative URLs', html.slice(0, 300));
const get = async p => { const r = await fetch(base + p); return { status: r.status, type: r.headers.get('content-type') || '' }; };
if (wasm) { const r = await get(wasm); check(r.status === 200 && r.type.startsWith('application/wasm'), 'the wasm is served as application/wasm', JSON.stringify(r)); }
for (const f of ['favicon.svg', 'rv-playground.js', 'embed-example.html', 'lessons/05-paging.rv']) {
  const r = await get(f);
  check(r.status === 200, `serves ${f}`, JSON.stringify(r));
}

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e)); await finish(); }
try {
  browser = await launchChromium(chromium);
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); await finish(); }
const page = await browser.newPage();
const errors = [];
page.on('pageerror', e => errors.push(String(e)));
let loads = 0;
page.on('load', () => { loads++; });
await page.goto(base, { waitUntil: 'load' });
const rendered = await until(async () => (await page.$('.app')) && !(await page.$('#rvlab-boot')), 60000);
check(!!rendered, 'the app renders in the served page');
// Trunk's live-reload script connects a websocket; give it a moment before the change.
await sleep(1500);
const before = builds(), loadsBefore = loads;
fs.writeFileSync(probe, `/* ${Date.now()} */\n`);
const t1 = Date.now();
const rebuilt = await until(() => builds() > before, 300000);
rebuildSeconds = Math.round((Date.now() - t1) / 1000);
check(!!rebuilt, 'a change under www/ makes trunk serve rebuild');
const reloaded = await until(() => loads > loadsBefore, 60000);
check(!!reloaded, 'the open page reloads itself after the rebuild');
const again = await until(async () => (await page.$('.app')) && !(await page.$('#rvlab-boot')), 60000);
check(!!again, 'the app renders again after the reload');
check(errors.length === 0, 'no page error', errors.join(' | '));
// finish() removes the probe and stops trunk (a rebuild it may start then goes to the check's
// own dist folder, which is removed too).
await finish();
