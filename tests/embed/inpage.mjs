// Checks <rv-playground> rendered in the page (the default, and render="page": embeds mounted in the
// host page's shadow roots, sharing one module) in headless Chromium (playwright-core, pinned in dev.sh), against a built bundle:
//   node tests/embed/inpage.mjs [DIST]
// DIST (default dist/, from ./dev.sh build) is served under the sub-path /docs/rvlab/ by a static
// server on 127.0.0.1 (a free port); the host page is /docs/page.html, outside the bundle. Any
// other request, and any request that would leave the machine, is refused and counted as a failure.
//
// The elements say view="full" (the console embed a page shows by default is
// tests/embed/console.mjs's). Checked, on a page of five embeds (two interactive ones in different languages and themes, a
// guided lesson, a read-only one of fixed height, an empty interactive one): the build wrote the
// bundle's file names into rv-playground.js; the page makes ONE wasm request and ONE
// WebAssembly compile/instantiate (counted by wrapping every WebAssembly entry point in an init
// script); every element renders in the page (no frame) and comes alive; each run() answers from
// its own sandbox (a key put in one is not in another) and each rv-output event comes from the
// element whose sandbox ran the line; a plain key pressed in an embed does not reach the host page's
// document; a line typed into one embed's console changes only that
// one; Ctrl+Z in one undoes only there; only the embeds the reader touched lock their heights;
// "open the full playground" goes to the bundle's index.html; a read-only embed's run() rejects
// with the frame's reason; theme and language per element (and the host page's own lang attribute
// left alone); each element as tall as its app (its own height with height=), stacked in the
// page's order without overlap; a changed attribute remounts only its element; the pictures
// measure their labels under the app's stylesheet; a run() before the element is attached waits
// for it; render="frame" set on a live element moves it into a frame (el.frame) and removing it back; nothing is saved to
// localStorage; no console error; where the page cannot import the module, each element falls
// back to a working frame. Prints one "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1 on
// any failure, and when it cannot run (no browser, no bundle).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { HOST_LISTENERS, bundleArgs, openHostPage, pwPath, serveStatic, sleep, tap, until } from '../browser.mjs';
import { countWasmCompiles } from './view.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const PREFIX = '/docs/rvlab/';

const { dist } = bundleArgs(path.join(here, '../../dist'));
const t = tap();
const { check, finish } = t;

for (const f of ['index.html', 'rv-playground.js']) check(fs.existsSync(path.join(dist, f)), `the bundle has ${f}`, dist);
if (t.failed) finish();
{
  const js = fs.readFileSync(path.join(dist, 'rv-playground.js'), 'utf8');
  const m = js.match(/var BUILD = \{ module: "\.\/([^"]+)", wasm: "\.\/([^"]+)", css: "\.\/([^"]+)", console: \{[^}]*\} \}; \/\/ rvlab:build/);
  check(!!m && m.slice(1).every(f => fs.existsSync(path.join(dist, f))),
    "the build wrote its module, wasm and stylesheet names into rv-playground.js (and they are the bundle's files)", m ? m.slice(1).join(', ') : 'no BUILD line');
}

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e).split('\n')[0]); finish(); }

/** A host page (outside the bundle, like a documentation page) with the five embeds. */
const PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>five embeds</title>
<link rel="icon" href="data:,"><style>body{margin:16px;font:16px serif;width:800px}rv-playground{margin:12px 0}</style></head>
<body><h1>Cinq</h1>
<rv-playground id="a" view="full" mode="interactive" lang="en" theme="light" script="etcd put /a 1"></rv-playground>
<rv-playground id="b" view="full" mode="interactive" lang="zh" theme="dark" script="etcd put /b 2"></rv-playground>
<rv-playground id="c" render="page" lesson="paging"></rv-playground>
<rv-playground id="d" view="full" mode="readonly" height="300" script="etcd put /d 4&#10;etcd get /d"></rv-playground>
<rv-playground id="e" view="full" mode="interactive"></rv-playground>
<p id="after">After the embeds.</p>
${HOST_LISTENERS}
<script src="rvlab/rv-playground.js"></script>
</body></html>`;

const { server, origin, base, misses } = await serveStatic(dist, PREFIX, p => (p === '/docs/page.html' ? PAGE : null));

const { browser, ctx, page, errors } = await openHostPage(chromium, origin, misses, { check, finish, server });
const wasmRequests = [];
page.on('request', r => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasmRequests.push(r.url()); });
await countWasmCompiles(page);

await page.goto(origin + '/docs/page.html');
const ids = ['a', 'b', 'c', 'd', 'e'];

/** Whether every element's embed is alive: its app rendered, interactive ones with a console. */
const alive = () => page.evaluate(ids => ids.every(id => {
  const el = document.getElementById(id);
  const app = el.shadowRoot && el.shadowRoot.querySelector('.app.embed');
  return app && (el.getAttribute('mode') !== 'interactive' || el.shadowRoot.querySelector('#console-input'));
}), ids);
check(!!(await until(alive, 60000)), 'all five embeds come alive in the page (the app rendered; interactive ones have a console)');
const lessonOk = await until(() => page.evaluate(() => {
  const r = document.getElementById('c').shadowRoot;
  return r && (r.querySelector('#lesson-panel .lesson-goal') ? 'goal' : r.querySelector('#lesson-panel .lesson-error') ? 'error' : null);
}), 30000);
check(lessonOk === 'goal', "the lesson embed loads its lesson from the bundle's lessons/ (not the host page's directory)", lessonOk);

const where = await page.evaluate(ids => ids.map(id => document.getElementById(id).renderedIn), ids);
check(where.every(w => w === 'page'), 'every element renders in the page: without render (the default) and with render="page"', where.join());
check((await page.$$('iframe')).length === 0, 'no frame in the page');
check(wasmRequests.length === 1, 'ONE wasm request for five embeds', wasmRequests.join(', '));
const compiles = await page.evaluate(() => window.rvCompiles);
check(compiles.length === 1, 'ONE WebAssembly compile for five embeds', compiles.join(', '));

// ---- each run() in its own sandbox; each rv-output from its own element
{
  const r = await page.evaluate(async () => {
    const a = document.getElementById('a'), b = document.getElementById('b'), e = document.getElementById('e');
    window.seen = [];
    const inA = await a.run('etcd get /a');
    const seenA = window.seen.slice();
    window.seen = [];
    const inB = await b.run('etcd get /a\netcd get /b');
    const seenB = window.seen.slice();
    const inE = await e.run('etcd get /b');
    return { inA, seenA, inB, seenB, inE, seenE: window.seen.slice(seenB.length) };
  });
  check(r.inA.length === 1 && r.inA[0].line === 2 && r.inA[0].count === 1, "a.run() answers from a's sandbox (its /a, line 2 after its script)", JSON.stringify(r.inA));
  check(r.inB.length === 2 && r.inB[0].count === 0 && r.inB[1].count === 1 && r.inB[0].line === 2,
    "b.run() answers from b's own sandbox (no /a there, its /b)", JSON.stringify(r.inB));
  check(r.inE.length === 1 && r.inE[0].line === 1 && r.inE[0].count === 0, "the empty embed's sandbox has neither", JSON.stringify(r.inE));
  check(JSON.stringify(r.seenA) === JSON.stringify([{ target: 'a', line: 2 }]), "a's run dispatches rv-output from a only", JSON.stringify(r.seenA));
  check(JSON.stringify(r.seenB) === JSON.stringify([{ target: 'b', line: 2 }, { target: 'b', line: 3 }]), "b's run dispatches rv-output from b only, in order", JSON.stringify(r.seenB));
  check(JSON.stringify(r.seenE) === JSON.stringify([{ target: 'e', line: 1 }]), "e's run dispatches rv-output from e only", JSON.stringify(r.seenE));
}

// ---- typing in one embed changes only that one
const rows = () => page.evaluate(ids => ids.map(id => document.getElementById(id).shadowRoot.querySelectorAll('#log li').length), ids);
{
  const before = await rows();
  await page.evaluate(() => { window.seen = []; });
  // Playwright's CSS selectors pierce open shadow roots.
  await page.fill('#a #console-input', 'etcd put /typed 1');
  await page.press('#a #console-input', 'Enter');
  const after = await until(async () => { const r = await rows(); return r[0] > before[0] && r; });
  check(!!after && after[0] === before[0] + 1 && after.slice(1).join() === before.slice(1).join(),
    "a line typed into a's console runs in a only (the other logs keep their rows)", `${before} → ${after}`);
  const seen = await page.evaluate(() => window.seen);
  check(seen.length === 1 && seen[0].target === 'a' && seen[0].line === 3, "the typed line is one rv-output from a", JSON.stringify(seen));
  const inB = await page.evaluate(() => document.getElementById('b').run('etcd get /typed'));
  check(inB[0].count === 0, "the typed key is not in b's sandbox", JSON.stringify(inB));
}
// Ctrl+Z pressed in e (on its log, not in a field) undoes e's last line, not a's or b's.
{
  const before = await rows();
  await page.focus('#e #log li:last-child button').catch(() => page.click('#e #log li:last-child'));
  // A plain key pressed in an embed stays in it, as in a frame (a book's arrow keys turn its
  // pages); Ctrl+Z reaches the document, where the embed's undo listens.
  await page.evaluate(() => { window.hostKeys = []; });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('x');
  await page.focus('#e #console-input');
  await page.keyboard.press('Control+k');
  await page.focus('#e #log li:last-child button').catch(() => page.click('#e #log li:last-child'));
  const hostKeys = await page.evaluate(() => window.hostKeys.slice());
  check(hostKeys.length === 0, "keys pressed in an embed (ArrowLeft, x, and Ctrl+K in its console) do not reach the host page's document listeners", hostKeys.join());
  await page.keyboard.press('Control+z');
  const after = await until(async () => { const r = await rows(); return r[4] < before[4] && r; }, 5000);
  check(!!after && after[4] === before[4] - 1 && [0, 1, 2, 3].every(i => after[i] === before[i]),
    "Ctrl+Z inside e undoes e's last line only", `${before} → ${after}`);
  const ctrlZ = await page.evaluate(() => window.hostKeys.slice());
  check(ctrlZ.join() === 'Control,z', 'Ctrl+Z pressed outside a field goes on to the document (where the undo listens)', ctrlZ.join());
}

// "Open the full playground" goes to the playground, not to the host page.
{
  const hrefs = await page.evaluate(ids => ids.map(id => document.getElementById(id).shadowRoot.querySelector('#open-full')?.href), ids);
  check(hrefs.every(h => h && h.startsWith(base + 'index.html#')), "each embed's \"open the full playground\" link goes to the bundle's index.html", hrefs.map(h => h && h.slice(0, 60)).join(' '));
}

// The reader touched a and e only: their heights are locked (so the page does not jump), the
// others' are not (a touch elsewhere in the page is not theirs).
{
  const locked = await page.evaluate(ids => ids.map(id => document.getElementById(id).shadowRoot.querySelector('.app').hasAttribute('data-locked')), ids);
  check(locked.join() === 'true,false,false,false,true', 'only the embeds the reader touched (a, e) lock their heights', locked.join());
}

// ---- read-only
{
  const r = await page.evaluate(() => document.getElementById('d').run('etcd put /x 1').then(v => ({ ok: v }), e => ({ err: e.message })));
  check(r.err === 'rv-playground: this embed is read-only (mode=readonly) and runs no lines; use mode=interactive',
    "a read-only embed's run() rejects with the frame's reason", JSON.stringify(r));
}

// ---- theme and language per element; the host page's own language left alone
{
  const s = await page.evaluate(ids => ids.map(id => {
    const app = document.getElementById(id).shadowRoot.querySelector('.app');
    return { theme: app.dataset.theme, lang: app.lang, bg: getComputedStyle(app).backgroundColor };
  }), ids);
  check(s[0].theme === 'light' && s[0].lang === 'en', 'a: theme=light lang=en', JSON.stringify(s[0]));
  check(s[1].theme === 'dark' && s[1].lang.startsWith('zh'), 'b: theme=dark lang=zh', JSON.stringify(s[1]));
  check(s[0].bg !== s[1].bg && s[0].bg !== 'rgba(0, 0, 0, 0)', "the stylesheet applies in each shadow root (a's light and b's dark backgrounds differ)", `${s[0].bg} vs ${s[1].bg}`);
  const lang = await page.evaluate(() => document.documentElement.lang);
  check(lang === 'fr', "the host page's <html lang> is left alone", lang);
  const zh = await page.evaluate(() => document.getElementById('b').shadowRoot.querySelector('.app').textContent);
  check(/[\u4e00-\u9fff]/.test(zh), "b's texts are in 中文", zh.slice(0, 80));
}

// ---- sizes and positions
const boxes = async () => {
  await sleep(300);
  return page.evaluate(ids => ids.map(id => {
    const el = document.getElementById(id);
    const r = el.getBoundingClientRect();
    const app = el.shadowRoot.querySelector('.app').getBoundingClientRect();
    return { id, top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width, height: r.height, app: app.height };
  }).concat([(() => { const p = document.getElementById('after').getBoundingClientRect(); return { id: 'after', top: p.top + scrollY }; })()]), ids);
};
{
  const b = await boxes();
  check(b.slice(0, 5).every(x => x.width === 800), 'each embed is as wide as the page column (800 px)', b.map(x => x.width).join());
  check(b.slice(0, 5).every(x => Math.abs(x.height - x.app) <= 1 && x.height > 100), 'each element is as tall as its app (it fits its content)', b.map(x => `${x.id} ${x.height}/${x.app}`).join(', '));
  check(Math.abs(b[3].height - 300) <= 1, 'height="300" gives its embed 300 px', b[3].height);
  check(b.slice(1).every((x, i) => x.top >= b[i].bottom), 'the embeds are stacked in order without overlap, the text after them below', b.map(x => `${x.id}@${Math.round(x.top)}`).join(' '));
}

// ---- an attribute change remounts only its element
{
  await page.evaluate(() => document.getElementById('b').setAttribute('lang', 'en'));
  const lang = await until(() => page.evaluate(() => {
    const app = document.getElementById('b').shadowRoot.querySelector('.app');
    return app && app.lang === 'en' && app.lang;
  }), 10000);
  check(lang === 'en', 'lang changed on b: b remounts in English', lang);
  const r = await page.evaluate(async () => [await document.getElementById('b').run('etcd get /b'), await document.getElementById('a').run('etcd get /typed')]);
  check(r[0][0].line === 2 && r[0][0].count === 1 && r[1][0].count === 1, "b's new sandbox starts from its script again; a's is untouched", JSON.stringify(r));
}

{
  const m = await page.evaluate(() => ({
    light: document.querySelectorAll('svg.timeline').length,
    probe: [...document.querySelectorAll('.rv-playground-measure')].map(b => b.shadowRoot.querySelectorAll('svg.timeline text.lbl').length),
    font: (() => { const b = document.querySelector('.rv-playground-measure'); const t = b && b.shadowRoot.querySelector('svg.timeline'); return t && getComputedStyle(t).fontSize; })(),
  }));
  check(m.light === 0 && m.probe.join() === '1' && m.font === '12px',
    "the pictures measure their labels in one hidden element styled like the embeds (12 px), not in the host page's body", JSON.stringify(m));
}
// A run() before the element is in the page waits for its embed.
{
  const r = await page.evaluate(async () => {
    const el = document.createElement('rv-playground');
    el.setAttribute('view', 'full');
    el.setAttribute('mode', 'interactive');
    const p = el.run('etcd put /f 1\netcd get /f');
    document.body.appendChild(el);
    const out = await p;
    const where = el.renderedIn;
    el.remove();
    return { out, where };
  });
  check(r.where === 'page' && r.out.length === 2 && r.out[0].line === 1 && r.out[1].count === 1,
    'a run() called before the element was in the page waits for its embed and answers from a fresh sandbox', JSON.stringify(r).slice(0, 300));
}

check(wasmRequests.length === 1, 'still ONE wasm request after remounting', wasmRequests.length);

// render changed on a live element: it moves into a frame (shown through its shadow root's
// slot) and back into the page.
{
  await page.evaluate(() => document.getElementById('e').setAttribute('render', 'frame'));
  const frameEl = await until(() => page.$('#e > iframe'), 10000);
  const frame = frameEl && await frameEl.contentFrame();
  const alive = frame && await until(() => frame.$('.app.embed #console-input'), 60000);
  const shown = frameEl && await frameEl.evaluate(f => f.getBoundingClientRect().height);
  const inFrame = await page.evaluate(() => document.getElementById('e').renderedIn);
  check(inFrame === 'frame' && !!alive && shown > 100, 'render="frame" set on a live element: it renders in a working, visible frame', `${inFrame}, ${shown}px`);
  const framed = await page.evaluate(() => { const el = document.getElementById('e'); return el.frame === el.querySelector('iframe') && !!el.frame; });
  check(framed, 'el.frame is the frame of an element rendered with render="frame"');
  await page.evaluate(() => document.getElementById('e').removeAttribute('render'));
  const back = await until(() => page.evaluate(() => {
    const el = document.getElementById('e');
    return el.renderedIn === 'page' && el.frame === null && !el.querySelector('iframe') && !!el.shadowRoot.querySelector('.app.embed #console-input');
  }), 30000);
  check(!!back, 'and removing render brings it back into the page, the default (its frame removed, el.frame null)');
}

const stored = await page.evaluate(() => localStorage.length);
check(stored === 0, 'nothing is saved to localStorage', stored);
check(errors.length === 0, 'no console error', errors.join(' | '));
check(misses.length === 0, 'no 404 and no request outside the server', misses.join(', '));

// ---- the fallback: where the page cannot import the module, the element renders in a frame
{
  const ctx2 = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx2.route(u => !u.href.startsWith(origin), r => { misses.push(r.request().url()); r.abort(); });
  // The host page's own import of the module fails (as under a Content-Security-Policy); the
  // frame's load of the same file goes through.
  await ctx2.route(/rvlab-web-[0-9a-f]+\.js$/, r => (r.request().frame().parentFrame() === null ? r.abort() : r.continue()));
  const p2 = await ctx2.newPage();
  const warnings = [];
  p2.on('console', m => { if (m.type() === 'warning') warnings.push(m.text()); });
  await p2.goto(origin + '/docs/page.html');
  const where = await until(() => p2.evaluate(() => {
    const w = ['a', 'b', 'c', 'd', 'e'].map(id => document.getElementById(id).renderedIn);
    return w.every(x => x === 'frame') && w;
  }), 30000);
  check(!!where, 'when the module cannot be imported, every element renders in a frame instead', JSON.stringify(where));
  const frameEl = await p2.$('#a iframe');
  const frame = frameEl && await frameEl.contentFrame();
  const app = frame && await until(() => frame.$('.app.embed #console-input'), 60000);
  check(!!app, "the fallback frame's embed comes alive");
  const out = await p2.evaluate(() => document.getElementById('a').run('etcd get /a'));
  check(out.length === 1 && out[0].line === 2 && out[0].count === 1, "run() works through the fallback frame", JSON.stringify(out));
  check(warnings.some(w => w.startsWith('rv-playground: rendering in a frame')), 'the console says why the element fell back to a frame', warnings.join(' | ').slice(0, 300));
  await ctx2.close();
}

await browser.close();
server.close();
finish();
