// The full page's keyboard and phone flow, in headless Chromium (playwright-core, pinned in
// dev.sh), against a built bundle:
//   node tests/page/flow.mjs [DIST] [--shots DIR]
// DIST (default dist/, from ./dev.sh build) is served under /rvlab/ by a static server on
// 127.0.0.1 (a free port); a request for anything else, or one that would leave the machine, is
// refused and counted as a failure.
//
// Checked, in English and 中文, with real key presses and positions (getBoundingClientRect):
// - plain Tab reaches the console's input within 5 stops from page load (a first visit and a
//   guided lesson, 1280 and 390 px); the header's controls are one WAI-ARIA toolbar (one Tab
//   stop, ← → Home End inside, also on its selects); Tab goes round the page with no trap and
//   every control outside the toolbar is one of its stops;
// - the first Tab stop from page load is the "Skip to console" link, off screen until it has the
//   focus and then inside the window; Enter on it puts the focus in the console's input (at
//   1280×800 and 390×844);
// - the console's empty state never ends on "Try one:" with nothing shown after it: on a first
//   visit (where the welcome panel has its own lines) the sentence goes with its lines, and where
//   they are shown, the lines are laid out below it;
// - at 390×844 (a phone) the panels come in the order a learner works in, by position: the
//   console, its response, then the picture (nothing else between them), and no panel is wider
//   than the window; also with a guided lesson open;
// - at 390×844 after a script with lists, a compaction and a 410: the picture's top is below the
//   response's bottom and above every other panel, and its labels ("compacted below 5", the 410,
//   the token chip, the lanes) are drawn inside its panel;
// - in a guided lesson, after Send in the request builder (pressed as a user does, with the
//   builder scrolled into view), the response panel is inside the window (1280×800, 390×844).
// Prints one "ok - …" / "not ok - …" line per check ("# …" lines are measurements), then
// "N passed, N failed"; exits 1 on any failure, and when it cannot run (no browser, no bundle).
// With --shots DIR it also writes a screenshot of each page it checks there.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bundleArgs, launchChromium, pwPath, serveStatic, sleep, tap, until } from '../browser.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const PREFIX = '/rvlab/';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const LESSON = 'where-rv-comes-from';

const { dist, shots } = bundleArgs(path.join(here, '../../dist'), 'shots/flow');
const t = tap();
const { check, finish } = t;

check(fs.existsSync(path.join(dist, 'index.html')), 'the bundle has index.html', dist);
if (t.failed) finish();
if (shots) fs.mkdirSync(shots, { recursive: true });

let chromium;
try { ({ chromium } = require(pwPath)); } catch (e) { check(false, 'playwright-core is installed', String(e).split('\n')[0]); finish(); }

const { server, origin, base, misses } = await serveStatic(dist, PREFIX);

let browser;
try {
  browser = await launchChromium(chromium);
} catch (e) { check(false, 'headless Chromium starts', String(e).split('\n')[0]); server.close(); finish(); }

/** A fresh context (empty storage: a first visit) at `viewport`, showing `query`; null if the app did not render. */
async function open(name, viewport, query) {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors = [];
  await context.route('**/*', route => {
    const u = route.request().url();
    if (u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
    errors.push(`refused ${u}`);
    return route.abort('internetdisconnected');
  });
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${base}?${query}`);
  const app = await until(() => page.$('.app .panes'));
  check(!!app, `${name}: the app renders`);
  if (!app) { await context.close(); return null; }
  if (query.includes('lesson=')) {
    const ok = await until(() => page.$('.lesson-goal, .lesson-error'));
    check(!!ok && !(await page.$('.lesson-error')), `${name}: its lesson loaded`);
  }
  await sleep(200);
  return { name, context, page, errors };
}

async function close(t) {
  if (shots) await t.page.screenshot({ path: path.join(shots, `${t.name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true });
  check(t.errors.length === 0, `${t.name}: no console error, no refused request`, t.errors.join(' | '));
  await t.context.close();
}

/** What has the keyboard's focus: its id (else its tag and classes). */
const focused = page => page.evaluate(() => {
  const a = document.activeElement;
  return a ? (a.id ? `#${a.id}` : `${a.tagName.toLowerCase()}.${[...a.classList].join('.')}`) : '';
});

/** A box as plain numbers (null when the element is absent or not laid out). */
const box = (page, sel) => page.evaluate(s => {
  const el = document.querySelector(s);
  if (!el || el.getClientRects().length === 0) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, vh: innerHeight, vw: innerWidth };
}, sel);

/** Runs `line` by typing it in the console (as a user does) and waits until the log has `n` lines. */
async function type(page, line, n) {
  await page.fill('#console-input', line);
  await page.press('#console-input', 'Enter');
  return until(() => page.evaluate(k => document.querySelectorAll('#log li.entry').length >= k, n));
}

/** The most plain Tab presses from page load to the console's input (the skip link is the first). */
const MAX_STOPS = 5;

/** Presses Tab from where the focus is until `sel` has it (at most 150 times); returns how many. */
async function tabsTo(page, sel) {
  let stops = 0, at = '';
  const path = [];
  while (stops < 150 && at !== sel) { await page.keyboard.press('Tab'); stops++; at = await focused(page); path.push(at); }
  if (stops > MAX_STOPS) console.log(`# the Tab stops: ${path.slice(0, 12).join(' ')}`);
  return at === sel ? stops : Infinity;
}

/** The header's toolbar controls, in order, and which of them are enabled. */
const toolbarControls = page => page.evaluate(() => [...document.querySelectorAll('[role=toolbar] button, [role=toolbar] select')]
  .map(e => ({ id: '#' + e.id, on: !e.disabled, tab: e.tabIndex })));

/**
 * The header's toolbar (WAI-ARIA APG "Toolbar"): one Tab stop; ← → Home End move between its
 * enabled controls (wrapping), also from a <select>, whose value they leave alone; Tab leaves it
 * forwards (to the console's input) and Shift+Tab backwards (to the skip link).
 */
async function toolbarKeys(t) {
  const { page } = t;
  await page.reload();
  await until(() => page.$('.app .panes'));
  await sleep(200);
  const all = await toolbarControls(page);
  const on = all.filter(c => c.on).map(c => c.id);
  check(all.length >= 10 && all.filter(c => c.tab === 0).length === 1 && all[0].tab === 0,
    `${t.name}: the toolbar is one Tab stop (its first control) among ${all.length} controls`, JSON.stringify(all));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  check(await focused(page) === on[0], `${t.name}: the second Tab stop is the toolbar's first control`, await focused(page));
  const walked = [];
  for (let i = 0; i < on.length; i++) { walked.push(await focused(page)); await page.keyboard.press('ArrowRight'); }
  check(JSON.stringify(walked) === JSON.stringify(on) && await focused(page) === on[0],
    `${t.name}: → walks every enabled toolbar control in order and wraps to the first`, walked.join(' '));
  await page.keyboard.press('ArrowLeft');
  check(await focused(page) === on[on.length - 1], `${t.name}: ← from the first wraps to the last`, await focused(page));
  await page.keyboard.press('Home');
  check(await focused(page) === on[0], `${t.name}: Home goes to the first control`, await focused(page));
  await page.keyboard.press('End');
  check(await focused(page) === on[on.length - 1], `${t.name}: End goes to the last control`, await focused(page));
  // On a <select> (the language), the arrows move the focus and the language stays.
  const lang = await page.evaluate(() => document.querySelector('#lang').value);
  await page.focus('#lang');
  await page.keyboard.press('ArrowRight');
  const after = await page.evaluate(() => document.querySelector('#lang').value);
  check(await focused(page) === '#theme' && after === lang, `${t.name}: → on the language select moves to the theme, the language unchanged`, `${await focused(page)} ${after}`);
  // The control last used is the toolbar's Tab stop: Tab leaves, Shift+Tab comes back to it.
  await page.keyboard.press('Tab');
  check(await focused(page) === '#console-input', `${t.name}: Tab from the toolbar goes on to the console's input`, await focused(page));
  await page.keyboard.press('Shift+Tab');
  check(await focused(page) === '#theme', `${t.name}: Shift+Tab comes back to the toolbar control last used`, await focused(page));
  await page.keyboard.press('Shift+Tab');
  check(await focused(page) === '#skip-console', `${t.name}: Shift+Tab from the toolbar goes back to the skip link`, await focused(page));
  // Reset pressed from the keyboard disables itself (the sandbox is empty): the focus goes on to
  // the next enabled control instead of falling out of the toolbar.
  const ran = await type(page, 'GET /api/v1/namespaces/default/pods', 1);
  await page.focus('#lessons');
  for (let i = 0; i < 3 && await focused(page) !== '#reset'; i++) await page.keyboard.press('ArrowRight');
  const onReset = await focused(page);
  await page.keyboard.press('Enter');
  await until(() => page.evaluate(() => document.querySelectorAll('#log li.entry').length === 0));
  await sleep(100);
  const next = await focused(page);
  check(!!ran && onReset === '#reset' && next === '#import', `${t.name}: Enter on Reset (which disables it) leaves the focus on the next enabled control`, `${onReset} → ${next}`);
  await page.reload();
  await until(() => page.$('.app .panes'));
  await sleep(200);
}

/**
 * No keyboard trap, nothing out of reach: Tab from page load goes round the whole page (back to
 * the browser's chrome, then the skip link again), and every control that can take the focus is
 * one of its stops, or a toolbar control the arrows reach.
 */
async function everyStop(t) {
  const { page } = t;
  await page.reload();
  await until(() => page.$('.app .panes'));
  await sleep(200);
  await page.evaluate(() => { window.__stops = new Set(); });
  let n = 0, round = false;
  for (; n < 400; n++) {
    await page.keyboard.press('Tab');
    const back = await page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return 'body';
      if (window.__stops.has(a)) return 'again';
      window.__stops.add(a);
      return '';
    });
    if (back) { round = true; break; }
  }
  check(round, `${t.name}: Tab goes round the page and back (no keyboard trap)`, `${n} stops`);
  const missed = await page.evaluate(() => {
    const bar = document.querySelector('[role=toolbar]');
    const can = [...document.querySelectorAll('a[href], button, select, input, textarea, [tabindex]')]
      .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
      // Inside a closed <details> a control is reached by opening it (its summary is a stop).
      .filter(e => e.tagName === 'SUMMARY' || !e.closest('details:not([open])'));
    return can.filter(e => !window.__stops.has(e) && !bar.contains(e)).map(e => e.id || e.outerHTML.slice(0, 80));
  });
  check(missed.length === 0, `${t.name}: every control outside the toolbar is a Tab stop (${n} stops)`, missed.join(' | '));
  await page.reload();
  await until(() => page.$('.app .panes'));
  await sleep(200);
}

const TEXT = {
  en: { skip: 'Skip to console', tryOne: 'Try one:' },
  zh: { skip: '跳到控制台', tryOne: '试试这些：' },
};

// ---- the skip link, the Tab stops of a first visit, the empty console's last words

for (const lang of ['en', 'zh']) {
  for (const [vp, size] of [['1280', DESKTOP], ['390', PHONE]]) {
    const t = await open(`first visit ${vp} px ${lang}`, size, `lang=${lang}`);
    if (!t) continue;
    const { page } = t;
    // The empty console's text: where the welcome panel shows its lines, the console's own
    // "Try one:" goes with them; it never ends the visible text.
    const empty = await page.evaluate(() => document.querySelector('#log-empty')?.innerText.trim() ?? '');
    check(empty.length > 0 && !/[:：]$/.test(empty), `${t.name}: the empty console does not end on a colon`, JSON.stringify(empty.slice(-60)));

    // How many plain Tab presses reach the console's input.
    const stops = await tabsTo(page, '#console-input');
    console.log(`# ${t.name}: the console's input is Tab stop ${stops} (Tab, Enter on the skip link: 1)`);
    check(stops <= MAX_STOPS, `${t.name}: plain Tab reaches the console's input within ${MAX_STOPS} stops (the skip link one of them)`, String(stops));
    await toolbarKeys(t);
    await everyStop(t);

    await page.reload();
    await until(() => page.$('.app .panes'));
    await sleep(200);
    const before = await box(page, '#skip-console');
    check(!!before && before.bottom <= 0, `${t.name}: the skip link is out of sight until focused`, JSON.stringify(before));
    await page.keyboard.press('Tab');
    const first = await focused(page);
    check(first === '#skip-console', `${t.name}: the first Tab stop is the skip link`, first);
    const shown = await box(page, '#skip-console');
    const text = await page.evaluate(() => document.querySelector('#skip-console')?.textContent ?? '');
    check(!!shown && shown.top >= 0 && shown.bottom <= shown.vh && shown.left >= 0 && shown.right <= shown.vw && shown.height > 10,
      `${t.name}: focused, the skip link is inside the window`, JSON.stringify(shown));
    check(text === TEXT[lang].skip, `${t.name}: the skip link reads "${TEXT[lang].skip}"`, text);
    await page.keyboard.press('Enter');
    await sleep(100);
    const after = await focused(page);
    check(after === '#console-input', `${t.name}: Enter on the skip link puts the focus in the console's input`, after);
    const input = await box(page, '#console-input');
    check(!!input && input.top >= 0 && input.bottom <= input.vh, `${t.name}: the console's input is in view`, JSON.stringify(input));
    check(!(await page.evaluate(() => location.hash)), `${t.name}: the skip link leaves the address bar alone`);
    // A line typed there runs.
    const ran = await type(page, 'GET /api/v1/namespaces/default/pods', 1);
    check(!!ran, `${t.name}: a line typed after the skip link runs`);
    await close(t);
  }

  // An embed has no welcome panel: "Try one:" is followed by its lines, runnable.
  const t = await open(`empty embed ${lang}`, { width: 800, height: 700 }, `lang=${lang}&embed=1&mode=interactive`);
  if (t) {
    const { page } = t;
    const lay = await page.evaluate(() => {
      const p = document.querySelector('#log-empty .log-try p');
      const bs = [...document.querySelectorAll('#log-empty .log-try .examples button')];
      if (!p) return null;
      const pr = p.getBoundingClientRect();
      return { text: p.textContent, pBottom: pr.bottom, buttons: bs.map(b => { const r = b.getBoundingClientRect(); return { top: r.top, h: r.height, line: b.textContent }; }) };
    });
    check(!!lay && lay.text === TEXT[lang].tryOne && lay.buttons.length >= 3 && lay.buttons.every(b => b.h > 0 && b.top >= lay.pBottom - 1),
      `${t.name}: "${TEXT[lang].tryOne}" is followed by its lines, laid out below it`, JSON.stringify(lay));
    if (lay && lay.buttons.length) {
      await page.click('#log-empty .log-try .examples li:first-child button');
      const ran = await until(() => page.evaluate(() => document.querySelectorAll('#log li.entry').length === 1));
      const line = await page.evaluate(() => document.querySelector('#log li.entry .cmd')?.textContent ?? '');
      check(!!ran && line === lay.buttons[0].line, `${t.name}: a suggested line runs when pressed`, line);
    }
    await close(t);
  }
}

// ---- a phone: the console, its response, then the picture

/** The panels' boxes in page coordinates, top to bottom. */
const panels = page => page.evaluate(() => {
  const sel = { lesson: '.lesson-panel', welcome: '#welcome', console: 'section.console', response: 'section.response', picture: 'section.timeline-panel', scrubber: 'section.scrubber', watches: 'section.watches', etcd: 'section.etcd', builder: 'section.request', sim: 'section.sim' };
  const out = [];
  for (const [k, s] of Object.entries(sel)) {
    const el = document.querySelector(s);
    if (!el || el.getClientRects().length === 0) continue;
    const r = el.getBoundingClientRect();
    out.push({ k, top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), left: Math.round(r.left), right: Math.round(r.right) });
  }
  return { boxes: out.sort((a, b) => a.top - b.top), docW: document.documentElement.scrollWidth, vw: innerWidth };
});

function phoneOrder(name, { boxes, docW, vw }, expect) {
  const order = boxes.map(b => b.k);
  console.log(`# ${name}: ${boxes.map(b => `${b.k}@${b.top}`).join(' ')}`);
  check(JSON.stringify(order.slice(0, expect.length)) === JSON.stringify(expect), `${name}: the panels start ${expect.join(', ')}`, order.join(', '));
  const overlaps = boxes.slice(1).filter((b, i) => b.top < boxes[i].bottom - 1).map(b => b.k);
  check(overlaps.length === 0, `${name}: no panel overlaps the one above it`, overlaps.join(', '));
  const wide = boxes.filter(b => b.left < -1 || b.right > vw + 1).map(b => `${b.k} ${b.left}..${b.right}`);
  check(wide.length === 0 && docW <= vw, `${name}: every panel fits the ${vw} px window`, `${wide.join(', ')} page ${docW}`);
}

for (const lang of ['en', 'zh']) {
  const t = await open(`phone ${lang}`, PHONE, `lang=${lang}`);
  if (t) {
    phoneOrder(`${t.name}, first visit`, await panels(t.page), ['welcome', 'console', 'response']);
    const ran = await type(t.page, 'POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}', 1);
    check(!!ran, `${t.name}: a line runs`);
    await until(() => t.page.$('section.timeline-panel'));
    await sleep(300);
    phoneOrder(`${t.name}, after a line`, await panels(t.page), ['console', 'response', 'picture']);
    await close(t);
  }
  const l = await open(`phone lesson ${lang}`, PHONE, `lang=${lang}&lesson=${LESSON}`);
  if (l) {
    const stops = await tabsTo(l.page, '#console-input');
    console.log(`# ${l.name}: the console's input is Tab stop ${stops}`);
    check(stops <= MAX_STOPS, `${l.name}: plain Tab reaches the console's input within ${MAX_STOPS} stops`, String(stops));
    await everyStop(l);
    const ran = await type(l.page, 'GET /api/v1/namespaces/default/configmaps', 1);
    check(!!ran, `${l.name}: a line runs`);
    await until(() => l.page.$('section.timeline-panel'));
    await sleep(300);
    phoneOrder(l.name, await panels(l.page), ['lesson', 'console', 'response', 'picture']);
    await close(l);
  }
}

// ---- a phone after compaction, lists and a 410: the picture right after the console and the
// response, with all its labels

const COMPACTED = [
  'set watch-cache off',
  'POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}',
  'POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}',
  'POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}',
  'GET /api/v1/namespaces/default/configmaps?limit=1',
  'POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"d"}}',
  'compact 5',
  // The first list's continue token (scripts/scenarios/continue-after-compaction.rv): 410 Expired.
  'GET /api/v1/namespaces/default/configmaps?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0',
];
const LABELS = {
  en: ['compacted below 5', 'head 5', '410', 'p2', 'lists, tokens', 'compaction', 'configmaps/default/a', 'configmaps/default/d'],
  zh: ['5 之前已压缩', '410', 'p2'],
};

for (const lang of ['en', 'zh']) {
  const t = await open(`phone compaction ${lang}`, PHONE, `lang=${lang}`);
  if (!t) continue;
  const { page } = t;
  let ran = true;
  for (const [i, line] of COMPACTED.entries()) ran = ran && !!(await type(page, line, i + 1));
  check(ran, `${t.name}: the script runs`);
  const code = await page.evaluate(() => document.querySelector('#log li.entry:last-child')?.textContent ?? '');
  check(code.includes('410'), `${t.name}: its last line is a 410`, code.slice(-80));
  await until(() => page.$('section.timeline-panel svg'));
  await sleep(400);
  const p = await panels(page);
  phoneOrder(t.name, p, ['console', 'response', 'picture']);
  const at = k => p.boxes.find(b => b.k === k);
  const [resp, pic] = [at('response'), at('picture')];
  const others = p.boxes.filter(b => !['console', 'response', 'picture', 'lesson', 'welcome'].includes(b.k));
  check(!!resp && !!pic && pic.top >= resp.bottom && others.every(b => b.top >= pic.bottom),
    `${t.name}: the picture's top is below the response's bottom, everything else below the picture`,
    JSON.stringify({ resp, pic, others: others.map(b => `${b.k}@${b.top}`) }));
  // Every label is drawn, with a size, inside the picture's panel (in its horizontal scroll).
  const drawn = await page.evaluate(want => {
    const panel = document.querySelector('section.timeline-panel');
    const pr = panel.getBoundingClientRect();
    const texts = [...panel.querySelectorAll('svg text')];
    return want.map(w => {
      const el = texts.find(x => x.textContent.trim() === w || [...x.childNodes].some(c => c.nodeType === 3 && c.textContent.trim() === w));
      if (!el) return { w, found: false };
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return { w, found: true, inside: r.width > 0 && r.height > 0 && r.left >= pr.left - 1 && r.right <= pr.right + 1, shown: cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0 };
    });
  }, LABELS[lang]);
  const bad = drawn.filter(d => !(d.found && d.inside && d.shown));
  check(bad.length === 0, `${t.name}: the picture's labels are drawn inside its panel (${LABELS[lang].join(', ')})`, JSON.stringify(bad));
  await close(t);
}

// ---- a lesson: after Send, the response is in view

for (const lang of ['en', 'zh']) {
  for (const [vp, size] of [['1280', DESKTOP], ['390', PHONE]]) {
    const t = await open(`lesson Send ${vp} px ${lang}`, size, `lang=${lang}&lesson=${LESSON}`);
    if (!t) continue;
    const { page } = t;
    const stops = await tabsTo(page, '#console-input');
    console.log(`# ${t.name}: the console's input is Tab stop ${stops}`);
    check(stops <= MAX_STOPS, `${t.name}: plain Tab reaches the console's input within ${MAX_STOPS} stops in a lesson`, String(stops));
    await everyStop(t);
    const n = await page.evaluate(() => document.querySelectorAll('#log li.entry').length);
    await page.locator('#send').scrollIntoViewIfNeeded();
    const send = await box(page, '#send');
    check(!!send && send.top >= 0 && send.bottom <= send.vh, `${t.name}: Send is in view to press`, JSON.stringify(send));
    await page.click('#send');
    const ran = await until(() => page.evaluate(k => document.querySelectorAll('#log li.entry').length > k, n));
    check(!!ran, `${t.name}: Send runs the builder's line`);
    await sleep(400);
    const r = await box(page, 'section.response');
    check(!!r && r.top >= -1 && r.top < r.vh && (r.bottom <= r.vh || r.height > r.vh),
      `${t.name}: after Send the response is inside the window`, JSON.stringify(r));
    await close(t);
  }
}

await browser.close();
server.close();
finish();
