// Checks the embeds a documentation page lives with, in headless Chromium (playwright-core,
// pinned in dev.sh), against a built bundle:
//   node tests/embed/layout.mjs [DIST] [--shots DIR]
// DIST (default dist/, from ./dev.sh build) is served under the sub-path /rvlab/ by a static
// server on 127.0.0.1 (a free port); any other request, and any request that would leave the
// machine, is refused and counted as a failure.
//
// Checked, with positions (getBoundingClientRect), at a 1280×800 window and with frames 800 px
// wide: every shipped HTML page (embed-example.html, index.html, in normal and embed mode, in
// English and 中文) loads with no 4xx response, no failed request and no console error; the example
// page's <rv-playground> is checked rendered in the page (the default: "its frame" below is then
// the element, and the content is the app in its shadow root) and with render="frame"; each
// read-only embed of at most 4 lines is at most 900 px tall; every embed's frame keeps its height
// (and the host page's content below it does not move) through ◀, ▶, Show me, Check, Next and a
// typed line, and the frame fits its content; no visible empty panel (a "Why?" box, an error
// box, a section… with nothing in it) and no control cut off by an area that scrolls; every
// control the example page's text names is shown by the embed it names it for, with that label,
// and no control is named where it is not.
// Prints one "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exits 1 on any
// failure, and when it cannot run (no browser, no bundle): a check that cannot run fails.
// With --shots DIR, it also writes screenshots of the example page and of each embed there.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bundleArgs, launchChromium, pwPath, serveStatic, sleep, tap, until } from '../browser.mjs';
import { embedView } from './view.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const PREFIX = '/rvlab/';
const FRAME_W = 800;
const MAX_SHORT = 900;

const { dist, shots } = bundleArgs(path.join(here, '../../dist'), 'shots/embed');
const t = tap();
const { check, finish } = t;

for (const f of ['index.html', 'embed-example.html', 'rv-playground.js', 'favicon.svg']) {
  check(fs.existsSync(path.join(dist, f)), `the bundle has ${f}`, dist);
}
if (t.failed) finish();
if (shots) fs.mkdirSync(shots, { recursive: true });

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e).split('\n')[0]); finish(); }

// ---- the static server: the bundle under PREFIX, and host pages the checks write

const hosts = new Map();
const { server, origin, base, misses } = await serveStatic(dist, PREFIX, p => hosts.get(p) ?? null);

/** A host page (outside the bundle) with one 800 px iframe of `src`, sized as the example page does. */
function hostPage(name, src) {
  const p = `/host/${name}.html`;
  hosts.set(p, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<link rel="icon" href="data:,"><style>body{margin:16px;font:16px system-ui}iframe{width:${FRAME_W}px;border:0;display:block;height:420px}</style></head>
<body><p>Before the embed.</p><iframe class="rvlab" title="${name}" src="${src}"></iframe><p id="after">After the embed.</p>
<script>window.addEventListener("message",function(e){if(!e.data||e.data.type!=="rvlab:height"||typeof e.data.height!=="number")return;
for(const f of document.querySelectorAll("iframe.rvlab"))if(f.contentWindow===e.source)f.style.height=Math.min(Math.max(Math.ceil(e.data.height),120),4000)+"px";});</script>
</body></html>`);
  return origin + p;
}

let browser;
try {
  browser = await launchChromium(chromium);
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); server.close(); finish(); }



/** `f()` once it has returned the same value for `quiet` ms (animations, a lazy frame, a fetch). */
async function settled(f, quiet = 700, ms = 20000) {
  let last, since = Date.now();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = JSON.stringify(await f());
    if (v !== last) { last = v; since = Date.now(); } else if (Date.now() - since > quiet) return JSON.parse(v);
    await sleep(100);
  }
  return last === undefined ? undefined : JSON.parse(last);
}

/** A fresh browser context whose page records console errors and failed or refused requests. */
async function openPage(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const log = { errors: [], failed: [], refused: [] };
  await context.route('**/*', route => {
    const u = route.request().url();
    if (u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    log.refused.push(u);
    return route.abort('internetdisconnected');
  });
  page.on('console', m => { if (m.type() === 'error') log.errors.push(m.text()); });
  page.on('pageerror', e => log.errors.push(String(e)));
  page.on('requestfailed', r => log.failed.push(`${r.url()} (${r.failure()?.errorText})`));
  page.on('response', r => { if (r.status() >= 400) log.failed.push(`${r.url()} → ${r.status()}`); });
  return { context, page, log, misses: misses.length };
}

/** The checks every page ends with: nothing missing, nothing failed, nothing fetched elsewhere. */
async function closePage(name, { context, log, misses: before }) {
  await sleep(300);
  check(log.errors.length === 0, `${name}: no console error`, log.errors.join(' | '));
  const missed = misses.slice(before);
  check(log.failed.length === 0 && missed.length === 0, `${name}: no 4xx response or failed request`, log.failed.concat(missed).join(' | '));
  check(log.refused.length === 0, `${name}: nothing fetched from elsewhere`, log.refused.join(' | '));
  await context.close();
}

// ---- one embed: its frame, its app, what it shows

/** The embed in `frameEl` (an iframe, or an <rv-playground> element rendered in the page or in its
 *  frame) once its app has rendered (and its lesson, if any, has loaded). `frame` is where the
 *  checks look: the frame's document, or the element's shadow root (tests/embed/view.mjs); and
 *  `frameEl` the box the embed takes in the host page. */
async function embedOf(frameEl, name) {
  await frameEl.scrollIntoViewIfNeeded().catch(() => {});
  const tag = await frameEl.evaluate(el => el.tagName);
  let frame;
  if (tag === 'RV-PLAYGROUND') {
    const view = await embedView(frameEl);
    frame = view;
    if (view) frameEl = view.box;
  } else {
    frame = await until(() => frameEl.contentFrame());
  }
  const app = frame && await until(() => frame.$('.app.embed'));
  check(!!app, `${name}: the app renders ${frame && frame.in === 'page' ? 'in its shadow root, in the page' : 'in its frame'}`);
  if (!app) return null;
  if (await frame.$('.lesson-panel')) {
    const ok = await until(() => frame.$('#lesson-panel .lesson-goal, #lesson-panel .lesson-error'));
    check(!!ok && !(await frame.$('#lesson-panel .lesson-error')), `${name}: its lesson loaded`);
  }
  return { frame, frameEl, name };
}

/** Heights and positions, once they have stopped changing: the frame (in its page), the app in it,
 *  the page's content under the frame, and whether the frame fits its content. */
async function measure(e, page) {
  return settled(async () => {
    const f = await e.frameEl.evaluate(el => {
      const r = el.getBoundingClientRect();
      // Where the host page's content after the frame's figure (or the frame) starts: the next
      // element with a box, else the end of the page. It must not move.
      let at = el.closest('figure') || el;
      let below = null;
      while (at && !below) {
        let n = at.nextElementSibling;
        // (Not the hidden box rv-playground.js adds at the end of the body to measure labels in.)
        while (n && (n.getClientRects().length === 0 || n.classList.contains('rv-playground-measure'))) n = n.nextElementSibling;
        below = n;
        at = at.parentElement;
      }
      const end = below ? below.getBoundingClientRect().top + scrollY : document.documentElement.scrollHeight;
      return { top: r.top + scrollY, height: r.height, width: el.clientWidth, below: end };
    });
    const inner = await e.frame.evaluate(() => {
      const app = document.querySelector('.app');
      return { app: app.getBoundingClientRect().height, doc: document.documentElement.scrollHeight, view: innerHeight };
    });
    return { ...f, ...inner };
  });
}

/** What the reader sees that is an empty box: a visible panel with no text and nothing drawn. */
async function emptyPanels(frame) {
  return frame.evaluate(() => {
    const out = [];
    const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
    for (const el of document.querySelectorAll('.why, .explain, .error-box, .lesson-result, .lesson-goal, .lesson-say, div.token, .notice, .fork, section, .scroll-hint, #response, .lesson-body')) {
      if (!shown(el)) continue;
      const c = el.cloneNode(true);
      c.querySelectorAll('summary, h2, .row-head').forEach(x => x.remove());
      const text = (c.textContent || '').replace(/\s+/g, '');
      const drawn = c.querySelector('svg, img, input, button, select, textarea, table');
      if (!text && !drawn) out.push(el.id ? `#${el.id}` : `.${[...el.classList].join('.')}`);
    }
    // A "Why?" box whose only text is its summary, whatever else it holds.
    for (const el of document.querySelectorAll('details.why')) {
      if (!shown(el)) continue;
      const vis = [...el.querySelectorAll(':scope > :not(summary)')].filter(shown).map(x => x.innerText).join('').trim();
      if (!vis) out.push('#why (nothing visible in it)');
    }
    return out;
  });
}

/** The controls a reader needs (the console's input, the lesson's buttons, the scrubber) that are
 *  there but cut off by an area that scrolls (they must stay in view in it). */
async function clippedControls(frame) {
  return frame.evaluate(() => {
    const out = [];
    for (const sel of ['#console-input', '#console-run', '#lesson-show', '#lesson-check', '#lesson-prev', '#lesson-next', '#scrub-back', '#scrub-fwd']) {
      const el = document.querySelector(sel);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      for (let a = el.parentElement; a; a = a.parentElement) {
        const o = getComputedStyle(a).overflowY;
        if (o === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) { out.push(`${sel} (cut by ${a.id ? '#' + a.id : '.' + [...a.classList].join('.')})`); break; }
      }
    }
    return out;
  });
}

/** Whether the control `sel` is shown in `frame` with `label` (its text, aria-label or title). */
async function controlShown(frame, sel, label) {
  return frame.evaluate(([sel, label]) => {
    const norm = s => (s || '').replace(/\s+/g, ' ').trim();
    const want = norm(label);
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!(r.width > 0 && r.height > 0) || getComputedStyle(el).visibility === 'hidden') continue;
      if ([el.textContent, el.getAttribute('aria-label'), el.getAttribute('title')].some(t => norm(t).includes(want))) return true;
    }
    return false;
  }, [sel, label]);
}

/** Every button label the app shows in `frame` (to spot controls a page names without marking). */
async function labels(frame) {
  return frame.evaluate(() => [...document.querySelectorAll('button, summary, [role=button]')]
    .map(b => (b.textContent || '').replace(/\s+/g, ' ').trim()).filter(t => t.length > 0));
}

const actionsDone = new Map();

/** What holds the embed in the host page: its frame, or its element when it renders in the page. */
const boxOf = e => (e.frame.in === 'page' ? 'element' : 'frame');

/** Runs `act` in embed `e` and checks that its frame and the host page's content below it keep
 *  their height and place (`what` names the action). Returns false when the control is absent. */
async function steady(e, page, what, act, { optional = false } = {}) {
  const before = await measure(e, page);
  let ran;
  try { ran = await act(); } catch (err) { ran = String(err).split('\n')[0]; }
  if (ran === false) { if (!optional) check(false, `${e.name}: ${what} is there to press`); return false; }
  if (typeof ran === 'string') { check(false, `${e.name}: ${what} runs`, ran); return false; }
  const after = await measure(e, page);
  const same = (a, b) => Math.abs(a - b) <= 0.5;
  check(same(before.height, after.height) && same(before.app, after.app),
    `${e.name}: ${what} keeps the ${boxOf(e)}'s height`, `frame ${before.height} → ${after.height}px, app ${before.app} → ${after.app}px`);
  check(same(before.below, after.below) && same(before.top, after.top),
    `${e.name}: ${what} does not move the host page around it`, `frame top ${before.top} → ${after.top}px, below it ${before.below} → ${after.below}px`);
  check(after.doc <= after.view + 2, `${e.name}: after ${what}, the ${boxOf(e)} still fits its content (no scrollbar)`, JSON.stringify(after));
  const empty = await emptyPanels(e.frame);
  check(empty.length === 0, `${e.name}: after ${what}, no empty panel`, empty.join(', '));
  const cut = await clippedControls(e.frame);
  check(cut.length === 0, `${e.name}: after ${what}, its controls are in view`, cut.join(', '));
  actionsDone.set(what, (actionsDone.get(what) || 0) + 1);
  return true;
}

/** Clicks `sel` in the embed when it is there and enabled; false when it is not. */
const press = (e, sel) => async () => {
  const b = await e.frame.$(sel);
  if (!b || await b.isDisabled() || !(await b.isVisible())) return false;
  await b.click();
  return true;
};

/** Types `line` in the embed's console and presses Enter. */
const type = (e, line) => async () => {
  const input = await e.frame.$('#console-input');
  if (!input) return false;
  await input.fill(line);
  await input.press('Enter');
  return true;
};

/** The checks of one embed: its size, then each action it offers keeps it steady. */
async function exercise(e, page, { line = 'GET /api/v1/namespaces/default/configmaps?limit=1' } = {}) {
  const first = await measure(e, page);
  check(Math.abs(first.width - FRAME_W) <= 1, `${e.name}: its ${boxOf(e)} is ${FRAME_W}px wide`, `${first.width}px`);
  check(first.doc <= first.view + 2, `${e.name}: the ${boxOf(e)} fits its content (no scrollbar)`, JSON.stringify(first));
  check(first.height <= first.app + 4, `${e.name}: the ${boxOf(e)} is no taller than its content`, JSON.stringify(first));
  const ro = await e.frame.$('.app.readonly') !== null;
  const rows = await e.frame.$$eval('#log li', ls => ls.length);
  if (ro && rows <= 4) {
    check(first.height <= MAX_SHORT, `${e.name}: a read-only embed of ${rows} line${rows === 1 ? "" : "s"} is at most ${MAX_SHORT}px tall (${Math.round(first.height)}px)`, `${first.height}px`);
  }
  const empty = await emptyPanels(e.frame);
  check(empty.length === 0, `${e.name}: no empty panel`, empty.join(', '));
  const cut = await clippedControls(e.frame);
  check(cut.length === 0, `${e.name}: its controls are in view`, cut.join(', '));
  if (shots) await e.frameEl.screenshot({ path: path.join(shots, `${e.name.replace(/[^a-z0-9]+/gi, '-')}-loaded.png`) });

  // An empty sandbox has no step to go back to: ◀ ▶ come with its first line.
  const steps = rows > 0;
  await steady(e, page, '◀', press(e, '#scrub-back'), { optional: !steps });
  await steady(e, page, '◀ again', press(e, '#scrub-back'), { optional: true });
  await steady(e, page, '▶', press(e, '#scrub-fwd'), { optional: !steps });
  await steady(e, page, '▶|', press(e, '#scrub-last'), { optional: true });
  if (await e.frame.$('#lesson-panel')) {
    if (await e.frame.$('#lesson-show')) {
      await steady(e, page, 'Check (nothing done yet)', press(e, '#lesson-check'));
      await steady(e, page, 'Show me', press(e, '#lesson-show'));
      await steady(e, page, 'Check', press(e, '#lesson-check'));
      await steady(e, page, '◀ (after Show me)', press(e, '#scrub-back'));
      await steady(e, page, '▶ (after Show me)', press(e, '#scrub-fwd'));
    }
    await steady(e, page, 'Next', press(e, '#lesson-next'));
    await steady(e, page, 'Next again', press(e, '#lesson-next'));
    if (await e.frame.$('#lesson-show')) await steady(e, page, 'Show me on step 3', press(e, '#lesson-show'));
    await steady(e, page, 'Previous', press(e, '#lesson-prev'));
  }
  if (!ro) {
    await steady(e, page, 'typing a line', type(e, line));
    await steady(e, page, 'typing a line that is refused', type(e, 'GET /api/v1/namespaces/default/configmaps?resourceVersion=abc'));
    await steady(e, page, 'typing a line in the past (◀ then a line)', async () => (await press(e, '#scrub-back')()) && type(e, 'advance 1s')());
  }
  if (shots) await e.frameEl.screenshot({ path: path.join(shots, `${e.name.replace(/[^a-z0-9]+/gi, '-')}-used.png`) });
}

// ---- every shipped HTML page loads cleanly

const htmlPages = [];
(function walk(dir, rel) {
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isDirectory()) walk(p, rel + f + '/');
    else if (f.endsWith('.html')) htmlPages.push(rel + f);
  }
})(dist, '');
const cm = n => `POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${n}"}}`;
const enc = s => encodeURIComponent(s);
const PAGING = [cm('a'), cm('b'), cm('c'), 'GET /api/v1/namespaces/default/configmaps?limit=2'].join('\n');
const WATCH = [cm('a'), cm('b'), 'GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2', 'events w1'].join('\n');
const ONE = cm('a');
const variants = [
  ...htmlPages,
  'index.html?lang=zh',
  'index.html?lesson=where-rv-comes-from',
  `index.html?embed=1&mode=readonly&script=${enc(PAGING)}`,
  `index.html?embed=1&mode=readonly&lang=zh&theme=dark&script=${enc(WATCH)}`,
  'index.html?embed=1&lesson=where-rv-comes-from',
  'index.html?embed=1&lesson=paging&mode=readonly&lang=zh',
  'index.html?embed=1&mode=interactive&lesson=compaction',
];
for (const v of variants) {
  const pg = await openPage();
  const resp = await pg.page.goto(base + v, { waitUntil: 'load' }).catch(err => ({ status: () => String(err).split('\n')[0] }));
  check(resp.status() === 200, `${v}: loads`, String(resp.status()));
  if (v.startsWith('index.html')) {
    const app = await until(() => pg.page.$('.app'));
    check(!!app, `${v}: the app renders`);
    if (v.includes('lesson=')) await until(() => pg.page.$('#lesson-panel .lesson-goal'));
  } else {
    await sleep(1500);
  }
  await settled(() => pg.page.evaluate(() => document.documentElement.scrollHeight));
  await closePage(v, pg);
}

// ---- the example page: its embeds at 1280×800, their captions, their steadiness

// The page's <rv-playground> renders in the page (the default); the same page with
// render="frame" on it (served beside it) checks the element's frame too. Its plain iframes are
// checked once, on the first.
const exampleText = fs.readFileSync(path.join(dist, 'embed-example.html'), 'utf8');
const framedExample = exampleText.replaceAll('<rv-playground ', '<rv-playground render="frame" ');
check(framedExample !== exampleText, 'embed-example.html has an <rv-playground> element (checked in the page and with render="frame")');
hosts.set(PREFIX + 'embed-example-frame.html', framedExample);
for (const [file, rendering] of [['embed-example.html', 'page'], ['embed-example-frame.html', 'frame']]) {
  const pg = await openPage();
  const { page } = pg;
  const all = rendering === 'page';
  await page.goto(base + file, { waitUntil: 'load' });
  const figures = await page.$$('figure');
  check(figures.length >= 4, `${file}: has its four embeds`, `${figures.length} figures`);
  const embeds = [];
  for (const [i, fig] of figures.entries()) {
    const el = await fig.$('rv-playground');
    if (!el && !all) continue;
    const frameEl = el || await until(() => fig.$('iframe'), 10000);
    const title = frameEl ? await frameEl.getAttribute('title') : `figure ${i + 1}`;
    if (!frameEl) { check(false, `${title}: has a frame`); continue; }
    if (el) {
      const where = await until(() => el.evaluate(x => x.renderedIn), 30000);
      check(where === rendering, `${file}: its <rv-playground> renders in the ${rendering}`, where);
    }
    const e = await embedOf(frameEl, `example ${i + 1} (${title}${el ? `, in the ${rendering}` : ''})`);
    if (e) embeds.push({ ...e, fig });
  }
  // Every embed is loaded: measure each once the page has stopped moving.
  await settled(() => page.evaluate(() => [...document.querySelectorAll('iframe, rv-playground')].map(f => f.getBoundingClientRect().height)));
  if (shots) await page.screenshot({ path: path.join(shots, `${file.replace('.html', '')}-page.png`), fullPage: true });
  if (!all) {
    for (const e of embeds) await exercise(e, page);
    await closePage(file, pg);
    continue;
  }

  // The controls the page's text names. Every control a reader could press, in any embed here
  // or in the full playground, that the page names (in <kbd>, <em>, <strong>, <b>) must be marked
  // with data-control inside the figure of the embed that shows it.
  const known = new Set();
  for (const e of embeds) (await labels(e.frame)).forEach(l => known.add(l));
  {
    const full = await openPage();
    for (const q of ['index.html?lang=en', 'index.html?lang=zh']) {
      await full.page.goto(base + q, { waitUntil: 'load' });
      await until(() => full.page.$('.app'));
      await full.page.evaluate(() => document.querySelectorAll('details').forEach(d => { d.open = true; }));
      (await labels(full.page)).forEach(l => known.add(l));
    }
    await full.context.close();
  }
  const named = await page.$$eval('kbd, em, strong, b, i, [data-control]', els => els.map(el => ({
    text: (el.textContent || '').replace(/\s+/g, ' ').trim(),
    control: el.getAttribute('data-control'),
    figure: el.closest('figure') ? [...document.querySelectorAll('figure')].indexOf(el.closest('figure')) : -1,
  })));
  for (const n of named) {
    if (n.control) {
      const e = embeds.find(x => figures.indexOf(x.fig) === n.figure);
      if (!e) { check(false, `the page names "${n.text}" (${n.control}) outside a figure with an embed`); continue; }
      check(await controlShown(e.frame, n.control, n.text), `${e.name}: shows the control its caption names, "${n.text}"`, n.control);
    } else {
      const isControl = [...known].some(l => l === n.text || l.replace(/[←→↗]/g, '').trim() === n.text);
      check(!isControl, `embed-example.html: "${n.text}" names a control only where its embed shows it (data-control)`, 'named without data-control');
    }
  }

  for (const e of embeds) await exercise(e, page);
  await closePage(file, pg);
}

// ---- index.html?embed=1&… directly, in a host page's 800 px frame

const direct = [
  { name: 'read-only paging, 4 lines', q: `embed=1&mode=readonly&lang=en&script=${enc(PAGING)}` },
  { name: 'read-only paging, 4 lines, 中文', q: `embed=1&mode=readonly&lang=zh&theme=dark&script=${enc(PAGING)}` },
  { name: 'read-only watch, 4 lines', q: `embed=1&mode=readonly&lang=en&script=${enc(WATCH)}` },
  { name: 'read-only watch, 4 lines, 中文', q: `embed=1&mode=readonly&lang=zh&script=${enc(WATCH)}` },
  { name: 'read-only, 1 line', q: `embed=1&mode=readonly&lang=en&script=${enc(ONE)}` },
  { name: 'interactive, empty', q: 'embed=1&mode=interactive&lang=en' },
  { name: 'interactive watch, 中文', q: `embed=1&mode=interactive&lang=zh&script=${enc(WATCH)}` },
  { name: 'lesson, interactive, 中文', q: 'embed=1&lang=zh&lesson=where-rv-comes-from' },
  { name: 'lesson, read-only replay', q: 'embed=1&lang=en&mode=readonly&lesson=paging' },
];
for (const d of direct) {
  const pg = await openPage();
  const url = hostPage(d.name.replace(/[^a-z0-9]+/gi, '-'), `${base}index.html?${d.q}`);
  await pg.page.goto(url, { waitUntil: 'load' });
  const frameEl = await until(() => pg.page.$('iframe'));
  const e = frameEl && await embedOf(frameEl, d.name);
  if (e) await exercise(e, pg.page);
  await closePage(`${d.name} (index.html?${d.q.slice(0, 60)}…)`, pg);
}

for (const what of ['◀', '▶', 'Show me', 'Check', 'Next', 'typing a line']) {
  check((actionsDone.get(what) || 0) > 0, `the checks above pressed ${what} at least once`);
}
await browser.close();
server.close();
finish();
