// Checks the built documentation site as a reader meets it, in headless Chromium (playwright-core,
// pinned in dev.sh):
//   node site/check.mjs <book-dir>
// <book-dir> is mdBook's output with the playground's build in <book-dir>/playground/. It is
// served under the sub-path /docs/rvlab/ by a static server on 127.0.0.1 (a free port); every
// other request, and any request that would leave the machine, is refused and counted as a
// failure, so the site is shown to work offline from the built folder.
//
// The pages are discovered, not listed: every .html file mdBook wrote (the playground's own files
// aside). For every page: it loads with 200, no response of 400 or more, no page error and no
// console error; every embed on it (<rv-playground>, iframe.rvlab-frame) comes alive: the app
// renders (an element in its shadow root, in the page, unless it says render="frame"; else in
// its frame), or for an element without a lesson the console embed, with one row per line of its
// script; a lesson embed shows its first goal and no load error, there is no error notice,
// and the embed fits its content (or keeps its fixed height); a page whose several embeds render
// in the page makes ONE wasm request and ONE compile per module they use (every WebAssembly
// entry point counted), and
// the book has such a page, where arrow keys pressed inside an embed do not turn the book's page;
// every link that stays
// within the book resolves to a built file, and a #fragment to an element with that id on the
// target page. For the book: at least 25 chapters in its table of contents, and every lesson in
// playground/lessons/ embedded by file name (lesson="NN-name") on a page in English and on one
// in Chinese (lang="zh").
// Prints one "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1 on any
// failure (and when the browser or the folder is missing: a check that cannot run fails).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import http from 'node:http';
import { createRequire } from 'node:module';
import { launchChromium, pwPath, sleep, until } from '../tests/browser.mjs';
import { countWasmCompiles, embedView } from '../tests/embed/view.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const PREFIX = '/docs/rvlab/';
const MIN_CHAPTERS = 25;

let passed = 0, failed = 0;
const check = (ok, what, detail = '') => {
  if (ok) { passed++; console.log(`ok - ${what}`); }
  else { failed++; console.log(`not ok - ${what}${detail ? ': ' + detail : ''}`); }
};
const finish = () => { console.log(`${passed} passed, ${failed} failed`); process.exit(failed ? 1 : 0); };

const book = path.resolve(process.argv[2] || path.join(here, 'book'));
for (const f of ['index.html', 'playground/index.html', 'playground/rv-playground.js']) {
  check(fs.existsSync(path.join(book, f)), `built site has ${f}`);
}
if (failed) finish();

/** Every .html file under `dir`, relative to the book, with `/` separators. */
function htmlFiles(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) { if (r !== 'playground') out.push(...htmlFiles(path.join(dir, e.name), r)); }
    else if (e.name.endsWith('.html')) out.push(r);
  }
  return out.sort();
}
// print.html is off in book.toml; 404.html is served for missing pages, not linked; toc.html is
// the table of contents that mdBook frames when scripts are off (checked too, without a title).
const pages = htmlFiles(book).filter(f => f !== '404.html');
const chapterPages = pages.filter(f => f !== 'toc.html');
check(chapterPages.length >= MIN_CHAPTERS, `the book has at least ${MIN_CHAPTERS} pages`, `${chapterPages.length}`);

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e)); finish(); }

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png', '.ico': 'image/x-icon', '.rv': 'text/plain; charset=utf-8', '.txt': 'text/plain' };
const misses = [];
/** The built file a path under PREFIX names, or null. */
function fileFor(urlPath) {
  if (!urlPath.startsWith(PREFIX)) return null;
  let p = urlPath.slice(PREFIX.length - 1);
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(book, path.normalize(p));
  if (!f.startsWith(book) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) return null;
  return f;
}
const server = http.createServer((req, res) => {
  const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const f = fileFor(p);
  if (!f) { misses.push(req.url); res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
  fs.createReadStream(f).pipe(res);
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const base = origin + PREFIX;

let browser;
try {
  browser = await launchChromium(chromium);
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); server.close(); finish(); }



/** The embed's height (its frame's, or its element's in the page) once it has stopped changing
 *  for half a second. */
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

/** Checks one embed (`frame`: its embedView, the app in its frame or in its shadow root): the app
 *  rendered, a lesson loaded, and the embed fits the app. */
async function checkEmbed(frame, name, { fixed, lesson, title, lines }) {
  const frameEl = frame.box;
  await frameEl.scrollIntoViewIfNeeded();
  const shown = await until(() => frame.$('.app.embed, .rvc'));
  if (shown && await shown.evaluate(e => e.classList.contains('rvc'))) return checkConsole(frame, name, { fixed, lines });
  const app = await until(() => frame.$('.app.embed'));
  check(!!app, `${name}: the app renders in its ${frame.in === 'page' ? 'shadow root, in the page' : 'frame'}`);
  if (!app) return;
  if (frame.in === 'frame') {
    const booted = await until(async () => !(await frame.$('#rvlab-boot')), 5000);
    check(!!booted, `${name}: the page's loading line is gone once the app runs`);
  }
  if (lesson) {
    const goal = await until(async () => (await frame.$('#lesson-panel .lesson-goal')) || (await frame.$('#lesson-panel .lesson-error')));
    const err = await frame.$eval('#lesson-panel .lesson-error', e => e.textContent).catch(() => '');
    check(!!goal && !err, `${name}: the lesson loaded and shows its first goal`, err || 'no goal shown');
    if (title) {
      const shown = await frame.$eval('#lesson-title', e => e.textContent).catch(() => '');
      check(shown === title, `${name}: it is the lesson the page names ("${title}")`, shown);
    }
  }
  check(!(await frame.$('#notice.err')), `${name}: no error notice`, await frame.$eval('#notice.err', e => e.textContent).catch(() => ''));
  const h = await settledHeight(frameEl);
  const content = await frame.evaluate(() => {
    const app = document.querySelector('.app');
    return { app: Math.ceil(app.getBoundingClientRect().height), doc: document.documentElement.scrollHeight, view: innerHeight };
  });
  if (fixed) {
    check(Math.abs(h - fixed) <= 2, `${name}: keeps its fixed height ${fixed}px`, `${h}px`);
    check(content.app <= fixed + 2, `${name}: the app fits the fixed height (scrolls inside)`, JSON.stringify(content));
  } else {
    const what = frame.in === 'page' ? 'element' : 'frame';
    check(content.doc <= content.view + 2, `${name}: the ${what} is tall enough for its content (no inner scrollbar)`, `${what} ${h}px, ${JSON.stringify(content)}`);
    check(h <= content.app + 40, `${name}: the ${what} is no taller than its content`, `${what} ${h}px, app ${content.app}px`);
  }
}

/** Checks a console embed (an element without a lesson, in the page): one row per line of its
 *  script, no error notice, as tall as its console (or its fixed height). */
async function checkConsole(frame, name, { fixed, lines }) {
  const rows = await frame.$$eval('.rvc-log li', ls => ls.length);
  check(rows === lines, `${name}: the console shows one row per line of its script (${lines})`, String(rows));
  const err = await frame.$eval('.rvc-notice.rvc-err', e => e.hidden ? '' : e.textContent).catch(() => '');
  check(!err, `${name}: no error notice`, err);
  const h = await settledHeight(frame.box);
  const c = await frame.$eval('.rvc', e => Math.ceil(e.getBoundingClientRect().height));
  if (fixed) check(Math.abs(h - fixed) <= 2, `${name}: keeps its fixed height ${fixed}px`, `${h}px`);
  else check(Math.abs(h - c) <= 2, `${name}: the element is as tall as its console`, `element ${h}px, console ${c}px`);
}

/** The ids (and a-names) in a built page, read from its file. */
const idCache = new Map();
function idsOf(file) {
  if (!idCache.has(file)) {
    const text = fs.readFileSync(file, 'utf8');
    const ids = new Set();
    for (const m of text.matchAll(/\s(?:id|name)="([^"]*)"/g)) ids.add(m[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    idCache.set(file, ids);
  }
  return idCache.get(file);
}

// The guided lessons the playground ships: `NN-name` ids; `name` is the slug.
const lessonDir = path.join(book, 'playground/lessons');
const lessonIds = fs.existsSync(lessonDir) ? fs.readdirSync(lessonDir).filter(f => f.endsWith('.rv')).map(f => f.slice(0, -3)).sort() : [];
check(lessonIds.length > 0, 'the playground ships its lessons', lessonDir);
const isGuided = id => lessonIds.includes(id) || lessonIds.some(f => f.replace(/^\d+-/, '') === id);
/** A lesson file's title in `lang` (its `#: title.<lang>` lines, joined; backticks dropped). */
function lessonTitle(file, lang) {
  if (!file || !fs.existsSync(file)) return null;
  const key = `#: title.${lang === 'zh' ? 'zh' : 'en'}`;
  const parts = fs.readFileSync(file, 'utf8').split('\n').map(l => l.trim()).filter(l => l.startsWith(key + ' ')).map(l => l.slice(key.length + 1).trim());
  return parts.length ? parts.join(' ').replace(/`/g, '') : null;
}
const lessonEmbeds = { en: new Set(), zh: new Set() };
let chapters = 0;
const severalInPage = []; // the pages whose several embeds all render in the page

for (const file of pages) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const refused = [];
  await context.route('**/*', route => {
    const u = route.request().url();
    if (u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    refused.push(u);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  await countWasmCompiles(page);
  const wasmRequests = [];
  page.on('request', r => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasmRequests.push(r.url()); });
  const errors = [], failedReqs = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  page.on('requestfailed', r => failedReqs.push(`${r.url()} (${r.failure()?.errorText})`));
  page.on('response', r => { if (r.status() >= 400) failedReqs.push(`${r.url()} → ${r.status()}`); });
  const before = misses.length;
  const resp = await page.goto(base + file, { waitUntil: 'load' }).catch(e => ({ status: () => String(e) }));
  check(resp.status() === 200, `${file}: loads under ${PREFIX}`, String(resp.status()));
  const title = await page.title().catch(() => '');
  if (file !== 'toc.html') check(/rvlab/.test(title), `${file}: is a page of the book`, title);

  if (file === 'index.html') {
    // mdBook 0.5 draws the table of contents with a script: count its chapter links.
    chapters = await until(() => page.$$eval('.sidebar .chapter a[href]', as => new Set(as.map(a => a.getAttribute('href')).filter(h => h && !h.startsWith('#'))).size), 10000) || 0;
    check(chapters >= MIN_CHAPTERS, `the table of contents lists at least ${MIN_CHAPTERS} chapters (${chapters})`, `${chapters}`);
  }

  // Embeds: every <rv-playground> and every plain iframe to the playground.
  const embeds = await page.$$eval('rv-playground, iframe.rvlab-frame', els => els.map((e, i) => ({
    i, tag: e.tagName.toLowerCase(), lesson: e.getAttribute('lesson'), src: e.getAttribute('lesson-src'),
    lang: e.getAttribute('lang'), mode: e.getAttribute('mode'), height: e.getAttribute('height'), render: e.getAttribute('render'),
    lines: (e.getAttribute('script') || '').split('\n').filter(l => l.trim()).length,
    fixed: e.tagName === 'IFRAME' ? Math.round(parseFloat(e.style.height)) || null : null,
  })));
  for (const e of embeds) {
    const name = `${file} embed ${e.i + 1} (${e.tag}${e.lesson ? ` lesson="${e.lesson}"` : ''}${e.src ? ` lesson-src="${e.src}"` : ''}${e.lang ? ` lang=${e.lang}` : ''})`;
    if (e.lesson && /^\d\d-/.test(e.lesson)) lessonEmbeds[e.lang === 'zh' ? 'zh' : 'en'].add(e.lesson);
    const handle = await page.$$('rv-playground, iframe.rvlab-frame').then(hs => hs[e.i]);
    let view;
    if (e.tag === 'iframe') {
      const frame = await until(() => handle.contentFrame());
      view = frame && { in: 'frame', box: handle, $: s => frame.$(s), $eval: (s, f) => frame.$eval(s, f), evaluate: f => frame.evaluate(f) };
    } else {
      await handle.scrollIntoViewIfNeeded();
      view = await embedView(handle);
      // Without render="frame" an element renders in the page (the module loads here).
      if (view) check(view.in === (e.render === 'frame' ? 'frame' : 'page'), `${name}: renders in the ${e.render === 'frame' ? 'frame it asks for' : 'page (the default)'}`, view.in);
    }
    if (!view) { check(false, `${name}: renders (in the page or in its frame)`); continue; }
    const guided = !!e.src || (e.tag !== 'iframe' && !!e.lesson && isGuided(e.lesson));
    // The file the embed should run: lesson-src resolved against the page, or the named lesson.
    const lessonFile = e.src ? fileFor(decodeURIComponent(new URL(e.src, base + file).pathname))
      : guided ? path.join(lessonDir, `${lessonIds.find(f => f === e.lesson || f.replace(/^\d+-/, '') === e.lesson)}.rv`) : null;
    const title = guided ? lessonTitle(lessonFile, e.lang) : null;
    if (guided) check(!!title, `${name}: names a lesson file with a title`, String(lessonFile));
    await checkEmbed(view, name, { fixed: e.fixed || (e.height ? parseInt(e.height, 10) : null), lesson: guided, title, lines: e.lines });
  }

  // Several embeds rendered in the page share one download and one compile of each module they
  // use: the console embed's, and the app's for lesson embeds and view="full".
  const inPage = await page.$$eval('rv-playground', els => els.filter(el => el.renderedIn === 'page').length);
  if (inPage >= 2 && inPage === embeds.length) {
    severalInPage.push(file);
    const compiles = await page.evaluate(() => window.rvCompiles);
    const modules = await page.$$eval('rv-playground', els => new Set(els.map(el => (el.shadowRoot.querySelector('.rvc') ? 'console' : 'app'))).size);
    check(wasmRequests.length === modules, `${file}: its ${inPage} embeds make ONE wasm request per module they use (${modules})`, wasmRequests.join(', '));
    check(compiles.length === modules, `${file}: its ${inPage} embeds compile each module ONCE`, compiles.join(', '));
    if (severalInPage.length === 1) {
      // mdBook turns the page on ← and →: keys pressed inside an embed stay in it, as in a frame.
      const before = page.url();
      const button = await page.$('rv-playground button'); // Playwright's CSS pierces the shadow root
      if (button) {
        await button.focus();
        for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowRight']) await page.keyboard.press(key);
        await sleep(1000);
      }
      check(!!button && page.url() === before, `${file}: arrow keys pressed on a button inside an embed do not turn the book's page`, button ? page.url() : 'no button in the embeds');
    }
  }

  // Links that stay within the book.
  // The page's own links (Playwright's CSS also finds those inside an embed's shadow root: they are
  // the app's, such as its "open the full playground" address, checked by tests/embed/inpage.mjs).
  const links = await page.$$eval('a[href]', as => as.filter(a => a.getRootNode() === document).map(a => ({ href: a.getAttribute('href'), abs: a.href })));
  const bad = [];
  let internal = 0;
  for (const { href, abs } of links) {
    if (!href || href.startsWith('javascript:') || href.startsWith('mailto:')) continue;
    const u = new URL(abs);
    if (u.origin !== origin) continue; // another site: not fetched, not checked
    internal++;
    const target = fileFor(decodeURIComponent(u.pathname));
    if (!target) { bad.push(`${href} (no such file)`); continue; }
    const frag = decodeURIComponent(u.hash.slice(1));
    if (frag && target.endsWith('.html') && !idsOf(target).has(frag)) bad.push(`${href} (no #${frag} there)`);
  }
  check(bad.length === 0, `${file}: its ${internal} links within the book resolve`, bad.join(' | '));

  await sleep(300);
  check(errors.length === 0, `${file}: no page error, no console error`, errors.join(' | '));
  check(failedReqs.length === 0 && misses.length === before, `${file}: no request failed or answered 4xx/5xx`, failedReqs.concat(misses.slice(before)).join(' | '));
  check(refused.length === 0, `${file}: works offline (nothing fetched from elsewhere)`, refused.join(' | '));
  await context.close();
}

check(severalInPage.length > 0, 'the book has a page with several embeds in the page (their one request and one compile checked above)', 'none');

// The learning path: every lesson file embedded by its file name, in both languages.
for (const lang of ['en', 'zh']) {
  const missing = lessonIds.filter(id => !lessonEmbeds[lang].has(id));
  check(missing.length === 0, `every lesson is embedded by file name in a ${lang === 'zh' ? 'Chinese' : 'English'} chapter`, missing.join(', '));
}

await browser.close();
server.close();
finish();
