// Checks the console embed (<rv-playground> without a lesson: the `rvlab-embed` module, rendered
// in the element's shadow root) in headless Chromium (playwright-core, pinned in dev.sh), against a
// built bundle:
//   node tests/embed/console.mjs [DIST]
// DIST (default dist/, from ./dev.sh build) is served under the sub-path /docs/rvlab/ by a static
// server on 127.0.0.1 (a free port); the host pages are outside the bundle. Any other request,
// and any request that would leave the machine, is refused and counted as a failure.
//
// Checked: the build wrote the console module's content-hashed names into rv-playground.js (and
// stripped its comments); what a page downloads for it (wasm + JS, brotli) is within
// budget.toml's [embed] budget; a page of five console embeds makes ONE wasm request (the console
// module's, not the app's) and ONE compile, and the bytes it transfers are printed; each element
// shows its lines with the summary of each answer (in its language), the latest answer's output
// object and the engine's reason; each rv-output event comes from its own element, with the
// line numbers `rvlab run` gives; run() answers from the element's own sandbox, and a read-only
// one rejects with the app's reason; a typed line runs (Enter); rows are stacked without overlap
// inside the element, which is as tall as its content (a fixed height scrolls inside); the log
// is one Tab stop and the arrows move between its rows, unseen by the host page; the
// "Picture and full playground" button loads the full playground in place with the same lines
// and sends no rv-output twice; a typed PATCH line, and a run() with a kubectl line, load it too
// and run there (each new output sent once, numbered after the lines before); an element whose
// own lines need it renders the full playground at once; view="full" does too; when the full
// playground cannot load, the console says why and keeps working; no console error. Prints one
// "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1 on any failure, and
// when it cannot run (no browser, no bundle).
import fs from 'node:fs';
import vm from 'node:vm';
import zlib from 'node:zlib';
import path from 'node:path';
import { createRequire } from 'node:module';
import { HOST_LISTENERS, bundleArgs, openHostPage, pwPath, serveStatic, tap, until } from '../browser.mjs';
import { countWasmCompiles } from './view.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const PREFIX = '/docs/rvlab/';

const { dist } = bundleArgs(path.join(here, '../../dist'));
const t = tap();
const { check, finish } = t;

let names = null;
{
  const js = fs.existsSync(path.join(dist, 'rv-playground.js')) ? fs.readFileSync(path.join(dist, 'rv-playground.js'), 'utf8') : '';
  const m = js.match(/console: \{ module: "\.\/(rvlab-embed-[0-9a-f]{16}\.js)", wasm: "\.\/(rvlab-embed-[0-9a-f]{16}_bg\.wasm)" \} \}; \/\/ rvlab:build/);
  check(!!m && m.slice(1).every(f => fs.existsSync(path.join(dist, f))),
    "the build wrote the console module's content-hashed names into rv-playground.js (and they are the bundle's files)", m ? m.slice(1).join(', ') : 'no console names');
  if (m) names = { module: m[1], wasm: m[2] };
  const comments = js.split('\n').filter(l => /^\s*(\/\/|\/\*|\* )/.test(l));
  check(js.length > 0 && comments.length === 0, "the bundle's rv-playground.js has no comment lines (the source keeps them)", comments.slice(0, 2).join(' | '));
  // Nothing but whole comment lines went: the source's other lines, in order (the BUILD line filled).
  const src = fs.readFileSync(path.join(here, '../../www/rv-playground.js'), 'utf8').split('\n');
  const kept = [];
  let block = false;
  for (const l of src) {
    if (block) { if (/\*\/\s*$/.test(l)) block = false; continue; }
    if (/^\s*\/\*/.test(l)) { if (!/\*\/\s*$/.test(l)) block = true; continue; }
    if (/^\s*\/\//.test(l)) continue;
    kept.push(l.includes('// rvlab:build') ? null : l);
  }
  const built = js.split('\n');
  const same = built.length === kept.length && kept.every((l, i) => l === null ? /\/\/ rvlab:build$/.test(built[i]) : l === built[i]);
  check(same, "the bundle's rv-playground.js is the source without its comment lines (nothing else changed but the BUILD line)", `${built.length} lines vs ${kept.length}`);
  let parses = '';
  try { new vm.Script(js); } catch (e) { parses = String(e); }
  check(!parses, "the bundle's rv-playground.js parses", parses);
}
// The size a documentation page downloads for it: within budget.toml's [embed] max_brotli_bytes.
if (names) {
  const budget = Number((fs.readFileSync(path.join(here, '../../budget.toml'), 'utf8').split('[embed]')[1] || '')
    .match(/^max_brotli_bytes\s*=\s*([0-9_]+)/m)?.[1].replace(/_/g, ''));
  const br = f => zlib.brotliCompressSync(fs.readFileSync(path.join(dist, f)), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const sizes = [names.wasm, names.module, 'rv-playground.js'].map(f => [f, br(f)]);
  const total = sizes.reduce((n, [, b]) => n + b, 0);
  console.log(`# the console embed downloads ${total} B brotli q11 (${sizes.map(([f, b]) => `${f} ${b}`).join(', ')})`);
  check(budget > 0 && total <= budget, `what a console embed downloads (wasm + JS, brotli q11) is within budget.toml's ${budget} B`, `${total} B`);
}
if (t.failed) finish();

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e).split('\n')[0]); finish(); }

const CM = (name) => `POST /api/v1/namespaces/default/configmaps {&quot;apiVersion&quot;:&quot;v1&quot;,&quot;kind&quot;:&quot;ConfigMap&quot;,&quot;metadata&quot;:{&quot;name&quot;:&quot;${name}&quot;}}`;
/** A host page with five console embeds (and, on the second page, the other kinds). */
const PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>five console embeds</title>
<link rel="icon" href="data:,"><style>body{margin:16px;font:16px serif;width:800px}rv-playground{margin:12px 0}</style></head>
<body><h1>Cinq</h1>
<rv-playground id="a" mode="readonly" lang="en" theme="light" script="${CM('a')}&#10;${CM('b')}&#10;GET /api/v1/namespaces/default/configmaps?limit=1"></rv-playground>
<rv-playground id="b" mode="interactive" lang="zh" theme="dark" script="etcd put /b 2&#10;# a comment&#10;etcd get /b"></rv-playground>
<rv-playground id="c" mode="readonly" height="200" script="${CM('c')}&#10;compact 2&#10;GET /api/v1/namespaces/default/configmaps?resourceVersion=1&amp;resourceVersionMatch=Exact&#10;${CM('d')}&#10;${CM('e')}&#10;${CM('f')}"></rv-playground>
<rv-playground id="d" mode="interactive" lang="en" script="${CM('x')}"></rv-playground>
<rv-playground id="e" mode="interactive" lang="en"></rv-playground>
<p id="after">After the embeds.</p>
${HOST_LISTENERS}
<script src="rvlab/rv-playground.js"></script>
</body></html>`;
const PAGE2 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>other kinds</title>
<link rel="icon" href="data:,"></head><body>
<rv-playground id="k" mode="readonly" script="etcd put /k 1&#10;kubectl get configmaps"></rv-playground>
<rv-playground id="f" view="full" mode="readonly" script="etcd put /f 1"></rv-playground>
<script src="rvlab/rv-playground.js"></script></body></html>`;

const { server, origin, misses } = await serveStatic(dist, PREFIX,
  p => (p === '/docs/page.html' ? PAGE : p === '/docs/page2.html' || p === '/docs/page3.html' ? PAGE2 : null));

const { browser, ctx, page, errors } = await openHostPage(chromium, origin, misses, { check, finish, server });
const wasm = [];
const bytes = {};
page.on('request', r => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push(path.basename(new URL(r.url()).pathname)); });
page.on('response', async r => {
  const f = path.basename(new URL(r.url()).pathname);
  try { bytes[f] = (await r.body()).length; } catch { /* a redirect or an aborted body */ }
});
await countWasmCompiles(page);
await page.goto(origin + '/docs/page.html');
const ids = ['a', 'b', 'c', 'd', 'e'];

/** What each element shows: its rows (number, line, summary, error), the shown answer, the notice. */
const shown = () => page.evaluate(ids => ids.map(id => {
  const r = document.getElementById(id).shadowRoot;
  const c = r && r.querySelector('.rvc');
  if (!c) return null;
  return {
    lang: c.getAttribute('lang'),
    theme: c.getAttribute('data-theme'),
    rows: [...c.querySelectorAll('.rvc-log button')].map(b => ({
      n: b.querySelector('.rvc-n').textContent, line: b.querySelector('.rvc-line').textContent,
      sum: b.querySelector('.rvc-sum').textContent, err: b.classList.contains('rvc-err'), pressed: b.getAttribute('aria-pressed'),
    })),
    detail: c.querySelector('.rvc-detail h3') && c.querySelector('.rvc-detail h3').textContent,
    json: c.querySelector('.rvc-json') && c.querySelector('.rvc-json').textContent,
    why: c.querySelector('.rvc-why') && c.querySelector('.rvc-why').textContent,
    input: !!c.querySelector('.rvc-input input'),
    full: !!r.querySelector('.app.embed'),
  };
}), ids);

const all = await until(async () => { const s = await shown(); return s.every(x => x) && s; }, 60000);
check(!!all, 'all five elements show the console embed in their shadow roots');
if (!all) { await browser.close(); server.close(); finish(); }
check(wasm.length === 1 && names && wasm[0] === names.wasm, "ONE wasm request for five console embeds: the console module's, not the app's", wasm.join(', '));
const compiles = await page.evaluate(() => window.rvCompiles);
check(compiles.length === 1, 'ONE WebAssembly compile for five console embeds', compiles.join(', '));
{
  const js = Object.entries(bytes).filter(([f]) => f.endsWith('.js'));
  const total = Object.entries(bytes).filter(([f]) => /\.(js|wasm)$/.test(f)).reduce((n, [, b]) => n + b, 0);
  console.log(`# transferred for five console embeds (uncompressed, this server): ${total} B (${Object.entries(bytes).map(([f, b]) => `${f} ${b}`).join(', ')})`);
  check(js.some(([f]) => f === names.module) && !Object.keys(bytes).some(f => f.startsWith('rvlab-web')), "the page loads the console module's JS and nothing of the app", Object.keys(bytes).join(', '));
}

{
  const [a, b, c, d, e] = all;
  check(a.rows.length === 3 && a.rows.map(r => r.n).join() === '1,2,3', 'a: one row per line, numbered 1–3', JSON.stringify(a.rows.map(r => r.n)));
  check(a.rows[0].sum === '201 Created · a · RV 2' && a.rows[2].sum === '200 OK · 1 item · RV 3 · continue…',
    "a: each row's summary is the typed answer's (status, name or items, RV, continue)", a.rows.map(r => r.sum).join(' | '));
  check(a.rows[2].pressed === 'true' && a.detail === 'Line 3' && JSON.parse(a.json).line === 3 && JSON.parse(a.json).code === 200,
    "a: the latest line's answer is shown: its output object as rvlab run prints it", `${a.detail} ${a.json && a.json.slice(0, 80)}`);
  check(!!a.why && a.why.length > 20, "a: the engine's reason for that answer is shown", a.why);
  check(a.lang === 'en' && a.theme === 'light' && !a.input, 'a: English, light, read-only (no input)', JSON.stringify([a.lang, a.theme, a.input]));
  check(b.lang === 'zh-CN' && b.theme === 'dark' && b.input && b.rows.length === 3 && b.rows[1].sum === '注释',
    'b: 中文, dark, interactive; its comment line is a row that ran nothing', JSON.stringify([b.lang, b.theme, b.rows.map(r => r.sum)]));
  check(/[\u4e00-\u9fff]/.test(b.why || '') && /[\u4e00-\u9fff]/.test(b.detail || ''), "b: the heading and the engine's reason in Chinese", `${b.detail} ${b.why}`);
  check(c.rows[2].err && c.rows[2].sum.startsWith('410 Gone — Expired'), 'c: a 410 Gone row is drawn as an error, with its reason', JSON.stringify(c.rows[2]));
  check(d.rows.length === 1 && e.rows.length === 0 && e.input, 'd has its one line; e (no script) is an empty interactive console', JSON.stringify([d.rows.length, e.rows.length]));
}

// ---- rv-output events and run()
{
  const seen = await page.evaluate(() => window.seen);
  const of = id => seen.filter(s => s.target === id).map(s => s.line).join();
  check(of('a') === '1,2,3' && of('b') === '1,3' && of('c') === '1,2,3,4,5,6' && of('d') === '1' && of('e') === '',
    "each element dispatched one rv-output per line that ran (a comment runs nothing), from itself, numbered as rvlab run numbers them", JSON.stringify(seen));
  const r = await page.evaluate(async () => {
    window.seen = [];
    const out = await document.getElementById('d').run('etcd put /d 1\n\netcd get /d');
    let ro;
    try { await document.getElementById('a').run('etcd get /a'); ro = 'resolved'; } catch (err) { ro = err.message; }
    return { out, ro, seen: window.seen.slice() };
  });
  check(r.out.length === 2 && r.out[0].line === 2 && r.out[1].line === 3 && r.out[1].count === 1,
    "d.run() answers from d's own sandbox, numbering after its lines (a blank line is no line)", JSON.stringify(r.out));
  check(JSON.stringify(r.seen) === JSON.stringify([{ target: 'd', line: 2 }, { target: 'd', line: 3 }]), "d's run dispatches its rv-output events", JSON.stringify(r.seen));
  check(r.ro === 'rv-playground: this embed is read-only (mode=readonly) and runs no lines; use mode=interactive',
    "a read-only console's run() rejects with the app's reason", r.ro);
  const rows = await until(async () => { const s = await shown(); return s[3].rows.length === 3 && s[3]; });
  check(!!rows && rows.rows[2].sum === 'revision 3 · count 1', "d's console shows the lines run() ran", JSON.stringify(rows && rows.rows.map(x => x.sum)));
}

// ---- typing
{
  await page.fill('#e .rvc-input input', 'etcd put /typed 1');
  await page.press('#e .rvc-input input', 'Enter');
  const s = await until(async () => { const x = await shown(); return x[4].rows.length === 1 && x; });
  check(!!s && s[4].rows[0].line === 'etcd put /typed 1' && s[4].rows[0].sum === 'revision 2',
    'a line typed in e and Enter runs it there', JSON.stringify(s && s[4].rows));
  const v = await page.$eval('#e .rvc-input input', i => i.value);
  check(v === '', 'the input is emptied for the next line', v);
  await page.click('#a .rvc-log li:nth-child(1) button');
  const sel = await until(async () => { const x = await shown(); return x[0].detail === 'Line 1' && x[0]; });
  check(!!sel && sel.rows[0].pressed === 'true' && sel.rows[2].pressed === 'false' && JSON.parse(sel.json).line === 1,
    "clicking a row shows that line's answer", sel && sel.detail);
}

// ---- the keyboard: one Tab stop in the log (the shown row), the arrows move between rows
{
  const stops = await page.$$eval('#b .rvc-log button', bs => bs.map(b => b.getAttribute('tabindex')).join());
  check(stops === '-1,-1,0', "b's log is one Tab stop: its shown row", stops);
  await page.focus('#b .rvc-log button[tabindex="0"]');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  const k = await until(() => page.evaluate(() => {
    const r = document.getElementById('b').shadowRoot;
    const f = r.activeElement;
    return r.querySelector('.rvc-detail h3').textContent === '第 1 行' && f && f.getAttribute('data-n') === '1' && f.getAttribute('tabindex') === '0' && 'moved';
  }));
  check(k === 'moved', '↑ twice in b selects line 1 and moves the focus (and the Tab stop) there', String(k));
  await page.keyboard.press('End');
  const end = await until(() => page.evaluate(() => document.getElementById('b').shadowRoot.activeElement.getAttribute('data-n') === '3'));
  check(!!end, 'End goes to the last line');
  const host = await page.evaluate(() => window.hostKeys || []);
  check(host.length === 0, "the arrows stay in the embed (the host page's document hears none)", host.join());
}

// ---- layout: rows stacked without overlap in the element; as tall as the content; fixed height scrolls
{
  const L = await page.evaluate(ids => ids.map(id => {
    const el = document.getElementById(id);
    const box = el.getBoundingClientRect();
    const c = el.shadowRoot.querySelector('.rvc');
    const rows = [...c.querySelectorAll('.rvc-log button')].map(b => b.getBoundingClientRect());
    return { top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: box.height,
      app: c.getBoundingClientRect().height, scroll: c.scrollHeight, client: c.clientHeight,
      rows: rows.map(r => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right })) };
  }), ids);
  const stacked = L.every(e => e.rows.every((r, i) => i === 0 || r.top >= e.rows[i - 1].bottom - 0.5));
  const inside = L.every(e => e.rows.every(r => r.left >= e.left - 0.5 && r.right <= e.right + 0.5));
  check(stacked && inside, 'in each element the rows are stacked without overlap, inside its width', JSON.stringify(L.map(e => e.rows.slice(0, 3))));
  const order = L.every((e, i) => i === 0 || e.top >= L[i - 1].bottom - 0.5);
  check(order, "the elements are stacked in the page's order without overlap", JSON.stringify(L.map(e => [e.top, e.bottom])));
  const fits = [0, 1, 3, 4].every(i => Math.abs(L[i].height - L[i].app) <= 1);
  check(fits, 'each element without a height is as tall as its console', JSON.stringify(L.map(e => [e.height, e.app])));
  check(Math.abs(L[2].app - 200) <= 1 && L[2].scroll > L[2].client, 'c (height=200) keeps its height and scrolls inside', JSON.stringify([L[2].app, L[2].scroll, L[2].client]));
}

// ---- the app's limits of one action: a line too long is refused as the app refuses it
{
  const long = 'etcd put /long ' + 'x'.repeat(70 * 1024);
  await page.evaluate(() => { window.seen = []; });
  await page.fill('#e .rvc-input input', long);
  await page.press('#e .rvc-input input', 'Enter');
  const n = await until(() => page.evaluate(() => {
    const x = document.getElementById('e').shadowRoot.querySelector('.rvc-notice.rvc-err');
    return x && !x.hidden && x.textContent;
  }));
  check(n === 'Not run: line 1 is 71 KB long; one line may be at most 64 KB.', "a typed line over 64 KB is refused with the app's words, in the console", String(n));
  const after = await page.evaluate(() => ({
    rows: document.getElementById('e').shadowRoot.querySelectorAll('.rvc-log li').length,
    full: !!document.getElementById('e').shadowRoot.querySelector('.app'),
    seen: window.seen.length,
  }));
  check(after.rows === 1 && !after.full && after.seen === 0, 'nothing ran, the sandbox is kept, the full playground was not loaded', JSON.stringify(after));
  await page.fill('#e .rvc-input input', 'etcd get /typed');
  await page.press('#e .rvc-input input', 'Enter');
  const cleared = await until(() => page.evaluate(() => {
    const r = document.getElementById('e').shadowRoot;
    return r.querySelectorAll('.rvc-log li').length === 2 && r.querySelector('.rvc-notice').hidden;
  }));
  check(!!cleared, 'the next line runs and the notice goes', String(cleared));
}

// ---- the full playground, by its button: the same lines, no rv-output twice
{
  await page.evaluate(() => { window.seen = []; });
  await page.click('#a .rvc-full');
  const full = await until(() => page.evaluate(() => {
    const r = document.getElementById('a').shadowRoot;
    const app = r.querySelector('.app.embed');
    return app && !r.querySelector('.rvc') && r.querySelectorAll('#log li').length;
  }), 60000);
  check(full === 3, "a's button loads the full playground in its place, with a's three lines", String(full));
  const pictured = await page.evaluate(() => !!document.getElementById('a').shadowRoot.querySelector('.pictures, #pictures, svg'));
  check(pictured, 'the full playground draws the picture', String(pictured));
  const seen = await page.evaluate(() => window.seen);
  check(seen.length === 0, 'its replay of the three lines sends no rv-output again', JSON.stringify(seen));
  check(wasm.length === 2 && wasm.some(f => f.startsWith('rvlab-web-')), "only then is the app's wasm fetched", wasm.join(', '));
  const ro = await page.evaluate(async () => { try { await document.getElementById('a').run('etcd get /a'); return 'resolved'; } catch (err) { return err.message; } });
  check(/read-only/.test(ro), 'a is still read-only there', ro);
}

// ---- a typed PATCH line loads the full playground, which runs it after d's lines
{
  await page.evaluate(() => { window.seen = []; });
  await page.fill('#d .rvc-input input', 'PATCH /api/v1/namespaces/default/configmaps/x {"data":{"k":"v"}}');
  await page.press('#d .rvc-input input', 'Enter');
  const log = await until(() => page.evaluate(() => {
    const r = document.getElementById('d').shadowRoot;
    return r.querySelector('.app.embed') && [...r.querySelectorAll('#log li')].length === 4 && window.seen.length >= 1 && window.seen.slice();
  }), 60000);
  check(!!log && JSON.stringify(log) === JSON.stringify([{ target: 'd', line: 4 }]),
    "a PATCH typed in d's console loads the full playground, which runs d's three lines and the PATCH: only line 4's rv-output is sent", JSON.stringify(log));
  const out = await page.evaluate(async () => document.getElementById('d').run('GET /api/v1/namespaces/default/configmaps/x'));
  check(out.length === 1 && out[0].line === 5 && out[0].code === 200 && out[0].body.data && out[0].body.data.k === 'v',
    "d's sandbox in the full playground has the patched object (line 5)", JSON.stringify(out).slice(0, 200));
}

// ---- run() with a kubectl line on a console
{
  await page.evaluate(() => { window.seen = []; });
  const out = await page.evaluate(async () => document.getElementById('e').run('kubectl get configmaps'));
  check(Array.isArray(out) && out.length === 1 && out[0].line === 3 && Array.isArray(out[0].requests),
    "e.run() with a kubectl line loads the full playground and answers from there (line 3, after the two typed)", JSON.stringify(out).slice(0, 200));
  const seen = await page.evaluate(() => window.seen);
  check(JSON.stringify(seen) === JSON.stringify([{ target: 'e', line: 3 }]), 'only the new line is sent as an rv-output', JSON.stringify(seen));
  const full = await page.evaluate(() => !!document.getElementById('e').shadowRoot.querySelector('.app.embed'));
  check(full, 'e now shows the full playground');
}
// ---- a run() with a line over 64 KB: the console hands over, and the full playground runs it
// (as the full embed's run() does; only a typed line is refused)
{
  const r = await page.evaluate(async () => {
    const el = document.createElement('rv-playground');
    el.id = 'r';
    el.setAttribute('mode', 'interactive');
    el.setAttribute('script', 'etcd put /r 1');
    document.body.appendChild(el);
    window.seen = [];
    const out = await el.run('etcd get /r\netcd put /long ' + 'x'.repeat(70 * 1024));
    return { lines: out.map(o => o.line), seen: window.seen.filter(x => x.target === 'r').map(x => x.line) };
  });
  const full = await until(() => page.evaluate(() => !!document.getElementById('r').shadowRoot.querySelector('.app.embed')));
  check(full && JSON.stringify(r.lines) === '[2,3]' && JSON.stringify(r.seen) === '[1,2,3]',
    "a run() with a line over 64 KB runs in the full playground, after the console's line, each output sent once", JSON.stringify(r));
}

// ---- two runs before the console is ready, the first needing the full playground; typing while
// a run() hands the sandbox over
{
  const r = await page.evaluate(async () => {
    const el = document.createElement('rv-playground');
    el.id = 'q';
    el.setAttribute('mode', 'interactive');
    el.setAttribute('script', 'etcd put /q 1');
    window.seen = [];
    const a = el.run('kubectl get configmaps');
    const b = el.run('etcd get /q');
    document.body.appendChild(el);
    const outs = await Promise.all([a, b]);
    return { outs, seen: window.seen.filter(x => x.target === 'q') };
  });
  const shown = await until(() => page.evaluate(() => {
    const root = document.getElementById('q').shadowRoot;
    const rows = root.querySelectorAll('#log li').length;
    return root.querySelector('.app.embed') && rows === 3 && rows;
  }));
  r.full = !!shown;
  r.rows = shown;
  check(r.full && r.rows === 3 && r.outs[0].length === 1 && r.outs[0][0].line === 2 && r.outs[1].length === 1 && r.outs[1][0].line === 3 && r.outs[1][0].count === 1,
    'two runs queued before the console was ready, the first with a kubectl line: both run in the full playground, in order, numbered 2 and 3', JSON.stringify({ ...r, outs: r.outs.map(o => o.map(x => x.line)) }));
  check(JSON.stringify(r.seen.map(x => x.line)) === '[1,2,3]', "its rv-output events: line 1 (the console's), then 2 and 3, each once", JSON.stringify(r.seen));
}
{
  const p4 = await ctx.newPage();
  await p4.goto(origin + '/docs/page.html');
  await until(() => p4.evaluate(() => !!(document.getElementById('d').shadowRoot && document.getElementById('d').shadowRoot.querySelector('.rvc-log li'))), 60000);
  const st = await p4.evaluate(() => {
    window.seen = [];
    window.pending = document.getElementById('d').run('kubectl get configmaps');
    const r = document.getElementById('d').shadowRoot;
    const input = r.querySelector('.rvc-input input');
    return { disabled: input.disabled, notice: r.querySelector('.rvc-notice').textContent };
  });
  check(st.disabled && st.notice === 'Loading the full playground…', "while a run() hands the sandbox over, the console takes no line and says the full playground is loading", JSON.stringify(st));
  const out = await p4.evaluate(async () => ({ out: await window.pending, seen: window.seen.slice() }));
  check(out.out.length === 1 && out.out[0].line === 2 && JSON.stringify(out.seen) === JSON.stringify([{ target: 'd', line: 2 }]),
    'then the run answers from the full playground, line 2, sent once', JSON.stringify(out).slice(0, 200));
  await p4.close();
}
check(errors.length === 0, 'no console error on the page', errors.join(' | '));

// ---- an element whose own lines need the full playground, and view="full"
{
  const p2 = await ctx.newPage();
  const errs = [];
  p2.on('console', m => { if (m.type() === 'error') errs.push(m.text()); });
  await p2.goto(origin + '/docs/page2.html');
  const r = await until(() => p2.evaluate(() => {
    const n = ['k', 'f'].map(id => {
      const root = document.getElementById(id).shadowRoot;
      return root && root.querySelector('.app.embed') ? root.querySelectorAll('#log li').length : 0;
    });
    return n.every(x => x > 0) && n;
  }), 60000);
  check(r && r[0] === 2 && r[1] === 1, 'an element with a kubectl line, and one with view="full", render the full playground at once', JSON.stringify(r));
  check(errs.length === 0, 'no console error there', errs.join(' | '));
  await p2.close();
}

// ---- the full playground cannot load: the console says why and works on
{
  const p3 = await ctx.newPage();
  await p3.route(u => /rvlab-web-[0-9a-f]+_bg\.wasm$/.test(u.pathname), r => r.fulfill({ status: 404, body: 'gone' }));
  await p3.setContent('');
  await p3.goto(origin + '/docs/page.html');
  await until(() => p3.evaluate(() => !!(document.getElementById('d').shadowRoot && document.getElementById('d').shadowRoot.querySelector('.rvc-log li'))), 60000);
  await p3.click('#d .rvc-full');
  const notice = await until(() => p3.evaluate(() => {
    const n = document.getElementById('d').shadowRoot.querySelector('.rvc-notice.rvc-err');
    return n && !n.hidden && n.textContent;
  }), 60000);
  check(!!notice && notice.startsWith('The full playground did not load: '), 'when the full playground cannot load, the console says why', String(notice));
  const rej = await p3.evaluate(async () => { try { await document.getElementById('d').run('kubectl get configmaps'); return 'resolved'; } catch (err) { return err.message; } });
  check(/did not load/.test(rej), "a run() that needs it rejects, saying so", rej);
  const out = await p3.evaluate(async () => document.getElementById('d').run('etcd get /d'));
  check(out.length === 1 && out[0].line === 2, 'the console keeps working: a run() of a line it runs answers', JSON.stringify(out));
  await p3.close();
}

check(misses.length === 0, 'no request outside the bundle and the host pages', misses.join(', '));
await browser.close();
server.close();
finish();
