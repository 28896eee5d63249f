// Checks the JavaScript embedding API of a built playground in headless Chromium (playwright-core,
// pinned in dev.sh) against the native command line:
//   node tests/embed/check.mjs <dist-dir> <path-to-native-rvlab>
// <dist-dir> is a build of the playground (./dev.sh build, or web_build debug); the rvlab binary
// prints the JSON Lines every Lab and embed answer is compared with, field for field.
//
// The bundle is served on 127.0.0.1 (a free port, the app's origin) with the check's own pages
// under /__check/; a second server on another port is a foreign origin. Every other request, and
// any request that would leave the machine, is refused and counted as a failure.
//
// Checks: the module exports Lab; run() returns Arrays of plain objects; for scripts with `set
// explain on`, a refused line, a syntax error and a 410 the objects equal what `rvlab run` prints;
// runs continue the sandbox and its line numbers; reset(); hostile scripts (10 MB, NUL bytes, 100k
// lines, 20 MB of surrogate pairs, not a string) give bounded outputs without throwing and the
// page stays responsive; <rv-playground render="frame">'s run() resolves with the same values, a run before the
// frame is ready waits for it, rv-output events come in order (also for a line typed into the
// embed's console), messages from a foreign origin or window are ignored, a malformed message gets
// an rvlab:error reply, a read-only embed refuses to run; embed-api-example.html's button shows
// the rule. Prints one "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1
// on any failure, and when the browser, the bundle or the binary is missing (a check that cannot
// run fails).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { launchChromium, pwPath, sleep, until as poll } from '../browser.mjs';

/** Polls `f` for up to 30 s (this check's waits include first compiles of the wasm). */
const until = (f, ms = 30000) => poll(f, ms);

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);

let passed = 0, failed = 0;
const check = (ok, what, detail = '') => {
  if (ok) { passed++; console.log(`ok - ${what}`); }
  else { failed++; console.log(`not ok - ${what}${detail ? ': ' + String(detail).slice(0, 600) : ''}`); }
};
let cleanup = () => {};
const finish = async () => { await cleanup(); console.log(`${passed} passed, ${failed} failed`); process.exit(failed ? 1 : 0); };

const [distArg, rvlabArg] = process.argv.slice(2);
if (!distArg || !rvlabArg) {
  check(false, 'usage: node tests/embed/check.mjs <dist-dir> <path-to-native-rvlab>');
  await finish();
}
const dist = path.resolve(distArg);
const rvlab = path.resolve(rvlabArg);
check(fs.existsSync(path.join(dist, 'index.html')), `the bundle is built (${dist}/index.html)`);
check(fs.existsSync(rvlab), `the native rvlab binary exists (${rvlab})`);
const modules = fs.existsSync(dist) ? fs.readdirSync(dist).filter(f => /^rvlab-web.*\.js$/.test(f)) : [];
check(modules.length === 1, 'the bundle has one app module (rvlab-web-*.js)', modules.join(', '));
for (const f of ['rv-playground.js', 'embed-api-example.html']) check(fs.existsSync(path.join(dist, f)), `the bundle has ${f}`);
if (failed) await finish();
const moduleFile = modules[0];
const moduleText = fs.readFileSync(path.join(dist, moduleFile), 'utf8');
check(/export class Lab\b/.test(moduleText), `${moduleFile} exports class Lab`);
const wasmFile = fs.readdirSync(dist).find(f => /^rvlab-web-.*_bg\.wasm$/.test(f));

/** What `rvlab run [--explain] -` prints for `script`: its exit status and parsed objects. */
function cli(script, explain = false) {
  const r = spawnSync(rvlab, ['run', ...(explain ? ['--explain'] : []), '-'], { input: script, maxBuffer: 1 << 30 });
  const text = r.stdout.toString('utf8');
  return { code: r.status, outputs: text.split('\n').filter(l => l !== '').map(l => JSON.parse(l)) };
}

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', e); await finish(); }

// ---- the servers: the app's origin (the bundle and the check's pages) and a foreign one

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.rv': 'text/plain; charset=utf-8' };
const misses = [];
const pages = {
  'lab.html': `<!doctype html><meta charset="utf-8"><meta name="rvlab-app" content="none"><title>Lab</title>
<body><p id="p">a page that only uses Lab</p><script type="module">
import init, { Lab } from '../${moduleFile}';
window.labError = null;
try { await init({ module_or_path: '../${wasmFile}' }); window.Lab = Lab; } catch (e) { window.labError = String(e); }
window.labLoaded = true;
</script></body>`,
  'element.html': `<!doctype html><meta charset="utf-8"><title>element</title>
<body><script src="../rv-playground.js"></script>
<script>
window.seen = [];
window.errors = [];
document.addEventListener('rv-output', e => window.seen.push({ target: e.target.id, bubbles: e.bubbles, detail: e.detail }));
window.addEventListener('message', e => { if (e.data && e.data.type === 'rvlab:error') window.errors.push(e.data); });
</script></body>`,
};
let foreignOrigin = '';
const serve = (handler) => http.createServer(handler);
const app = serve((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p.startsWith('/__check/') && pages[p.slice(9)] !== undefined) {
    res.writeHead(200, { 'content-type': types['.html'], 'cache-control': 'no-store' });
    res.end(pages[p.slice(9)].replaceAll('@FOREIGN@', foreignOrigin));
    return;
  }
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(dist, path.normalize(p));
  if (!f.startsWith(dist) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { misses.push(req.url); res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
  fs.createReadStream(f).pipe(res);
});
// The foreign page posts to its parent and to every frame of it what an embed or a host would.
const foreign = serve((req, res) => {
  res.writeHead(200, { 'content-type': types['.html'] });
  res.end(`<!doctype html><meta charset="utf-8"><script>
parent.postMessage({ type: 'rvlab:output', output: { line: 999, forged: true } }, '*');
parent.postMessage({ type: 'rvlab:ready' }, '*');
parent.postMessage({ type: 'rvlab:result', id: 1, outputs: [{ forged: true }] }, '*');
for (let i = 0; i < parent.frames.length; i++) {
  parent.frames[i].postMessage({ type: 'rvlab:run', id: 'forged', script: 'etcd put /forged 1' }, '*');
  parent.frames[i].postMessage({ type: 'rvlab:hello' }, '*');
}
document.title = 'posted';
</script>`);
});
await new Promise(r => app.listen(0, '127.0.0.1', r));
await new Promise(r => foreign.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${app.address().port}`;
foreignOrigin = `http://127.0.0.1:${foreign.address().port}`;

let browser;
try {
  browser = await launchChromium(chromium);
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); app.close(); foreign.close(); await finish(); }
cleanup = async () => { await browser.close().catch(() => {}); app.close(); foreign.close(); };

const ctx = await browser.newContext();
await ctx.route(u => !u.href.startsWith(origin) && !u.href.startsWith(foreignOrigin), r => { misses.push(r.request().url()); r.abort(); });
const consoleErrors = [];
const newPage = async () => {
  const page = await ctx.newPage();
  page.setDefaultTimeout(60000);
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', e => consoleErrors.push(String(e)));
  return page;
};
/** Whether the page still answers and paints: a requestAnimationFrame callback runs. */
const responsive = page => Promise.race([
  page.evaluate(() => new Promise(r => requestAnimationFrame(() => r(true)))),
  sleep(10000).then(() => false),
]);

/** Deep equality with key order (what JSON.stringify shows), and the first difference. */
function diff(a, b, at = '$') {
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs not`;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.join('\u0001') !== kb.join('\u0001')) return `${at}: keys ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
    for (const k of ka) { const d = diff(a[k], b[k], `${at}.${k}`); if (d) return d; }
    return '';
  }
  return Object.is(a, b) ? '' : `${at}: ${JSON.stringify(a)?.slice(0, 200)} vs ${JSON.stringify(b)?.slice(0, 200)}`;
}

const CM = n => `POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${n}"}}`;
const scripts = {
  'set explain on': `set explain on\n${CM('a')}\nGET /api/v1/namespaces/default/configmaps?resourceVersion=0\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=NotOlderThan&limit=1\n`,
  'a refused line': `events w9\nadvance 169h\nset cache.lag soon\netcd put /a 1\n`,
  'a syntax error': `compact x\nnonsense here\n\n# a comment\netcd put /a 1\n`,
  'a 410': `${CM('a')}\n${CM('b')}\ncompact 3\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1\nevents w1\n`,
};

// ---- Lab on a page that only uses it

const page = await newPage();
await page.goto(origin + '/__check/lab.html');
await until(() => page.evaluate(() => window.labLoaded));
const loadError = await page.evaluate(() => window.labError);
check(!loadError && await page.evaluate(() => typeof window.Lab === 'function'), 'the module loads and exports Lab', loadError);
check(await page.evaluate(() => !document.querySelector('.app') && !!document.getElementById('p')),
  'a page with <meta name="rvlab-app" content="none"> gets no playground app mounted');
if (failed) await finish();

const shape = await page.evaluate(() => {
  const out = new window.Lab().run('etcd put /a 1\nGET /api/v1/namespaces/default/configmaps\n');
  const plain = v => v === null || typeof v !== 'object' ? true
    : (Array.isArray(v) ? v.every(plain) : Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plain));
  return { array: Array.isArray(out), n: out.length, objects: out.every(o => o !== null && typeof o === 'object' && Object.getPrototypeOf(o) === Object.prototype), deep: plain(out), map: out.some(o => o instanceof Map) };
});
check(shape.array && shape.n === 2, 'run returns an Array with one entry per line that ran', JSON.stringify(shape));
check(shape.objects && !shape.map, 'each entry is a plain object (not a string, not a Map)', JSON.stringify(shape));
check(shape.deep, 'nested values are plain objects and arrays all the way down', JSON.stringify(shape));

for (const [name, script] of Object.entries(scripts)) {
  for (const explain of [false, true]) {
    const want = cli(script, explain).outputs;
    const got = await page.evaluate(([s, e]) => new window.Lab(e ? { explain: true } : undefined).run(s), [script, explain]);
    const d = diff(got, want);
    check(!d && got.length > 0, `Lab.run equals rvlab run${explain ? ' --explain' : ''} field for field: ${name} (${want.length} objects)`, d);
  }
}
{
  const d = diff(cli(scripts['set explain on']).outputs.at(-2).why, { apiserver: 1, verb: 'list', path: 'watch-cache', semantics: 'Any', rule: 'any-from-cache', rv: 0, cacheRv: 2, revision: 2 });
  check(!d, 'after set explain on, the list with resourceVersion=0 says why (why.rule any-from-cache)', d);
  const kinds = cli(scripts['a refused line']).outputs.map(o => o.refused?.kind ?? null);
  check(diff(kinds, ['no-watch', 'advance-too-long', 'setting', null]) === '', 'the refused lines carry their refusal values', JSON.stringify(kinds));
  const codes = cli(scripts['a 410']).outputs.map(o => o.code ?? null);
  check(codes[3] === 410, 'the 410 script answers 410 Gone', JSON.stringify(codes));
}

// Consecutive runs continue the sandbox and the numbering of one script made of both.
{
  const parts = [scripts['a 410'].split('\n').slice(0, 3).join('\n'), '# between\n\n', scripts['a 410'].split('\n').slice(3).join('\n')];
  const want = cli(parts[0] + '\n' + parts[1] + parts[2]).outputs;
  const got = await page.evaluate(ps => { const lab = new window.Lab(); const all = []; const next = []; for (const p of ps) { all.push(...lab.run(p)); next.push(lab.nextLine); } return { all, next }; }, parts);
  const d = diff(got.all, want);
  check(!d, 'runs in turn equal one rvlab run of the whole script (the sandbox and the line numbers continue)', d);
  check(diff(got.next, [4, 6, 9]) === '', 'nextLine counts every line, blank lines and comments included', JSON.stringify(got.next));
}

// reset()
{
  const got = await page.evaluate(() => {
    const lab = new window.Lab({ explain: true });
    lab.run('etcd put /a 1\netcd put /b 2\nset apiservers 2\n');
    lab.reset();
    return { out: lab.run('etcd put /c 3\napiserver 2\nGET /api/v1/namespaces/default/configmaps\n'), next: lab.nextLine };
  });
  const want = cli('etcd put /c 3\napiserver 2\nGET /api/v1/namespaces/default/configmaps\n', true).outputs;
  const d = diff(got.out, want);
  check(!d && got.out[0].header.revision === 2 && got.out[1].refused?.kind === 'no-apiserver',
    'reset() gives a fresh sandbox: revisions, settings and line numbers start over (explain kept)', d || JSON.stringify(got.out).slice(0, 300));
}

// Options: the constructor is the one place that throws, and only for options of the wrong type.
{
  const r = await page.evaluate(() => {
    const res = [];
    for (const o of [5, { explain: 'yes' }]) { try { new window.Lab(o); res.push('no throw'); } catch (e) { res.push(`${e.name}: ${e.message}`); } }
    res.push(new window.Lab({}).run('GET /api/v1/namespaces/default/configmaps?resourceVersion=0')[0].why === undefined);
    return res;
  });
  check(/^TypeError: /.test(r[0]) && /^TypeError: .*explain/.test(r[1]) && r[2] === true, 'new Lab(options) throws a TypeError for options of the wrong type; {} means no explain', JSON.stringify(r));
}

// ---- hostile scripts: bounded outputs, no exception, the page keeps answering

const hostile = [
  { name: '10 MB on one line', make: () => 'etcd put /a ' + 'x'.repeat(10 << 20), max: 1, kind: 'script-too-big' },
  { name: '100k lines', make: () => 'etcd put /a 1\n'.repeat(100000), max: 1, kind: 'script-too-big' },
  { name: 'NUL bytes', make: () => ('\0'.repeat(1000) + '\nGET /api/v1/na\0mespaces/default/configmaps\netcd put /\0 \0\n').repeat(400), max: 1200 },
  { name: '20 MB of surrogate pairs (more UTF-16 units than one run takes bytes)', make: () => '\u{1F600}'.repeat(5 << 20), max: 1, kind: 'script-too-big' },
];
for (const h of hostile) {
  const script = h.make();
  const want = cli(script).outputs;
  const r = await page.evaluate(([src, kind]) => {
    const script = eval(src)();
    const lab = new window.Lab();
    const t0 = performance.now();
    let out, threw = null;
    try { out = lab.run(script); } catch (e) { threw = String(e); }
    const ms = performance.now() - t0;
    const after = threw ? null : lab.run('etcd put /after 1')[0];
    return { threw, ms, n: out ? out.length : -1, out: out && out.length <= 2000 ? out : null, kind: out && out[0] && out[0].refused ? out[0].refused.kind : null, after };
  }, [`(${h.make.toString()})`, h.kind]);
  console.log(`# ${h.name}: ${r.n} outputs in ${Math.round(r.ms)} ms`);
  check(r.threw === null, `hostile script (${h.name}): run does not throw`, r.threw);
  check(r.n >= 1 && r.n <= h.max, `hostile script (${h.name}): ${h.max === 1 ? 'ONE error object' : `at most ${h.max} outputs`}`, `${r.n} outputs`);
  if (h.kind) check(r.kind === h.kind, `hostile script (${h.name}): its refusal is ${h.kind}`, r.kind);
  const d = r.out ? diff(r.out, want) : 'too many outputs to compare';
  check(!d, `hostile script (${h.name}): the same objects as rvlab run`, d);
  check(r.after && r.after.header && r.after.line === (h.kind ? 1 : script.split('\n').length - (script.endsWith('\n') ? 1 : 0) + 1),
    `hostile script (${h.name}): the sandbox still runs lines afterwards, numbered on`, JSON.stringify(r.after));
  check(await responsive(page), `hostile script (${h.name}): the page stays responsive`);
}
{
  const r = await page.evaluate(() => [42, null, undefined, { script: 'x' }, ['etcd put /a 1']].map(v => new window.Lab().run(v)));
  const ok = r.every(a => Array.isArray(a) && a.length === 1 && a[0].line === 1 && a[0].refused?.kind === 'script-not-text');
  check(ok, 'run(not a string) never throws: ONE script-not-text object', JSON.stringify(r.map(a => a[0]?.refused)));
  check(r.map(a => a[0].refused.got).join() === 'number,null,undefined,object,array', 'script-not-text names the JavaScript type it got', JSON.stringify(r.map(a => a[0].refused.got)));
}
await page.close();

// ---- <rv-playground render="frame">: run(), rv-output, origins (the frame's message protocol;
// tests/embed/inpage.mjs checks the element rendered in the page, the default)

const host = await newPage();
await host.goto(origin + '/__check/element.html');
// Run before it is even in the page: the run waits for the frame.
const early = await host.evaluate(async s => {
  const el = document.createElement('rv-playground');
  el.setAttribute('render', 'frame'); // the message protocol: a frame
  el.id = 'pg';
  el.setAttribute('mode', 'interactive');
  el.setAttribute('height', '500');
  const p = el.run(s);
  document.body.appendChild(el);
  return await p;
}, scripts['set explain on']);
{
  const want = cli(scripts['set explain on'], true).outputs;
  const d = diff(early, want);
  check(!d, "the element's run() (called before it was in the page) resolves with what Lab({explain: true}) / rvlab run --explain give", d);
  const seen = await host.evaluate(() => window.seen);
  check(diff(seen.map(s => s.detail), want) === '' && seen.every(s => s.target === 'pg' && s.bubbles),
    'one bubbling rv-output event per line that ran, in order, detail = its output object', JSON.stringify(seen.map(s => s.detail?.line)));
}
{
  const script = scripts['a 410'];
  const got = await host.evaluate(s => document.getElementById('pg').run(s), script);
  // The embed's sandbox goes on from its first run: compare with one rvlab run of both.
  const want = cli(scripts['set explain on'] + script, true).outputs.slice(-got.length);
  const d = diff(got, want);
  check(!d && got[0].line === 5, "a second run() continues the embed's sandbox and its line numbers", d);
}
const frameEl = await host.$('#pg iframe');
const frame = await frameEl.contentFrame();
await until(() => frame.$('#console-input'));
const before = await host.evaluate(() => window.seen.length);
await frame.fill('#console-input', 'etcd get /forged');
await frame.press('#console-input', 'Enter');
const typed = await until(async () => { const s = await host.evaluate(() => window.seen); return s.length > before && s[s.length - 1]; });
check(typed && typed.detail && typed.detail.line === 11 && typed.detail.count === 0,
  "a line typed into the embed's console is an rv-output event too (with its number in the embed's log)", JSON.stringify(typed?.detail));
const logRows = await frame.$$eval('#log li', els => els.length);
check(logRows === 11, "run() lines show in the embed's console like typed ones", `${logRows} rows`);

// A foreign origin posts forged outputs to the host and commands to the embed; the host posts outputs to itself.
{
  const n = await host.evaluate(() => window.seen.length);
  await host.evaluate(f => {
    const fr = document.createElement('iframe');
    fr.id = 'foreign';
    fr.src = f + '/';
    document.body.appendChild(fr);
    window.postMessage({ type: 'rvlab:output', output: { line: 999, forged: true } }, '*');
  }, foreignOrigin);
  const fr = await (await host.$('#foreign')).contentFrame();
  await until(async () => (await fr.title()) === 'posted');
  await sleep(500);
  const seen = await host.evaluate(() => window.seen);
  check(seen.length === n && !seen.some(s => s.detail && s.detail.forged), 'the element ignores messages from a foreign origin and from other windows', JSON.stringify(seen.slice(n)));
  const probe = await host.evaluate(() => document.getElementById('pg').run('etcd get /forged'));
  check(probe.length === 1 && probe[0].count === 0 && probe[0].line === 12, "the embed ignores commands from a window that is not its parent (nothing ran in its sandbox)", JSON.stringify(probe));
}

// The element's own frame navigated to a foreign origin: its messages come from the right window
// but the wrong origin, and are ignored.
{
  const r = await host.evaluate(async f => {
    const el = document.createElement('rv-playground');
    el.setAttribute('render', 'frame'); // the message protocol: a frame
    el.id = 'moved';
    el.setAttribute('height', '200');
    const got = [];
    el.addEventListener('rv-output', e => got.push(e.detail));
    document.body.appendChild(el);
    const p = el.run('etcd put /a 1').then(v => ({ resolved: v }), e => ({ rejected: String(e) }));
    el.frame.src = f + '/';
    await new Promise(r => { const t = setInterval(() => { try { el.frame.contentWindow.document; } catch { clearInterval(t); r(); } }, 50); });
    const settled = await Promise.race([p, new Promise(r => setTimeout(() => r('pending'), 1500))]);
    return { got, settled };
  }, foreignOrigin);
  check(r.got.length === 0 && r.settled === 'pending', "messages from the element's own frame at a foreign origin are ignored (no rv-output, no forged result)", JSON.stringify(r));
}

// Malformed messages to the frame get an rvlab:error reply and break nothing.
{
  await host.evaluate(o => {
    const w = document.querySelector('#pg iframe').contentWindow;
    w.postMessage('run etcd put /a 1', o);
    w.postMessage({ type: 'rvlab:nope', id: 7 }, o);
    w.postMessage({ id: 'eight', script: 'etcd put /a 1' }, o);
    w.postMessage([1, 2], o);
  }, origin);
  const errs = await until(async () => { const e = await host.evaluate(() => window.errors); return e.length >= 4 && e; }, 10000) || [];
  check(errs.length === 4, 'each malformed message gets one rvlab:error reply', JSON.stringify(errs));
  check(diff(errs.map(e => e.id), [null, 7, 'eight', null]) === '', 'the reply carries the message id (null when there is none)', JSON.stringify(errs.map(e => e.id)));
  check(errs.length === 4 && errs.every(e => typeof e.message === 'string' && /rvlab:run/.test(e.message)), 'the reply says what the embed takes', JSON.stringify(errs.map(e => e.message)));
  const after = await host.evaluate(() => document.getElementById('pg').run('etcd put /x 1'));
  check(after.length === 1 && after[0].line === 13 && after[0].header, 'the sandbox still runs after malformed messages', JSON.stringify(after));
}

// A script over the limits through the element: the same ONE object as Lab gives.
{
  const got = await host.evaluate(() => document.getElementById('pg').run('etcd put /a 1\n'.repeat(100000)));
  check(got.length === 1 && got[0].line === 14 && got[0].refused?.kind === 'script-too-big', "a script over the limits through the element is Lab's one error object", JSON.stringify(got).slice(0, 300));
  check(await responsive(host), 'the host page stays responsive');
}

// A script that cannot be cloned fails that run only.
{
  const r = await host.evaluate(async () => {
    const el = document.getElementById('pg');
    let first;
    try { first = { resolved: await el.run(() => 1) }; } catch (e) { first = { rejected: e.name }; }
    const next = await el.run('etcd get /x');
    return { first, next: next.map(o => o.line) };
  });
  check(r.first.rejected === 'DataCloneError' && r.next.length === 1 && r.next[0] === 14,
    'run(a function) rejects with DataCloneError and the next run still works', JSON.stringify(r));
}

// A read-only embed runs no lines: run() rejects with the frame's reason.
{
  const r = await host.evaluate(async () => {
    const el = document.createElement('rv-playground');
    el.setAttribute('render', 'frame'); // the message protocol: a frame
    el.setAttribute('mode', 'readonly');
    el.setAttribute('script', 'etcd put /a 1');
    document.body.appendChild(el);
    try { return { resolved: await el.run('etcd put /b 2') }; } catch (e) { return { rejected: String(e.message) }; }
  });
  check(r.rejected && /read-only/.test(r.rejected), 'run() on a read-only embed rejects and says why', JSON.stringify(r));
}
await host.close();

// ---- the example page

{
  const ex = await newPage();
  await ex.goto(origin + '/embed-api-example.html');
  await ex.click('#run');
  const rule = await until(async () => { const t = await ex.textContent('#rule'); return t && !/not run|running/.test(t) && t; });
  check(rule === 'any-from-cache', "embed-api-example.html's button shows the rule of the list (any-from-cache)", rule);
  const seen = await ex.textContent('#seen');
  check(seen === '3', 'the example counts the rv-output events of the embed (its first line and the two it ran)', seen);
  await ex.close();
}

check(misses.length === 0, 'no request outside the served bundle', misses.join(', '));
const unexpected = consoleErrors.filter(e => !/favicon/.test(e));
check(unexpected.length === 0, 'no console error or page error', unexpected.join(' | '));
await finish();
