// Page metrics of the release build in headless Chromium (playwright-core, pinned in dev.sh):
//   node scripts/bench/page.mjs <dist-dir> [--runs=7] [--objects=10000]
// Prints `BENCH\t<id>\t<value>\t<unit>\t<note>` lines:
//   size.{wasm,js}.{raw,gzip,brotli}   bytes of the app's wasm and JS (its module and rv-playground.js;
//                                      gzip -9, brotli q11)
//   size.embed.{wasm,js}.{raw,gzip,brotli}  the same for the console embed's module (what a
//                                      documentation page's <rv-playground> downloads)
//   page.first_paint                   navigation start → first contentful paint: the page's loading
//                                      line (#rvlab-boot) before the wasm is ready (median)
//   page.first_render                  navigation start → the app's first element in <body>, not
//                                      counting the loading line (median)
//   page.interactive                   navigation start → #console-input present and the main thread idle
//   page.console_cmd.<N>               a console command typed with N objects preloaded → its row in #log
//                                      (DOM mutation), and → the next frame painted
//   page.reload.<N>                    navigation → a saved N-line sandbox restored (its last line in #log)
//   page.scrub_back.<N>                one click on the scrubber's ◀ at N lines → #scrub-pos says so
// The dist directory is served by a tiny static server on a free port (127.0.0.1, port 0), as a
// documentation host serves a static site (issue 34's condition for the navigation figure):
// brotli q11 or gzip -9 as the browser accepts, `application/wasm` (so the wasm compiles while
// it streams), each page load in a fresh browser context (nothing cached).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { option, serveDir } from './static.mjs';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const pwPath = process.env.PLAYWRIGHT_CORE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rvlab/tools/playwright-core-1.65.1/node_modules/playwright-core');
const { chromium } = require(pwPath);

const args = process.argv.slice(2);
const dist = path.resolve(args.find(a => !a.startsWith('--')) || 'dist');
const opt = (name, dflt) => Number(option(args, name, dflt));
const RUNS = opt('runs', 7);
const OBJECTS = opt('objects', 10000);

const emit = (id, value, unit, note) => console.log(`BENCH\t${id}\t${value}\t${unit}\t${note}`);
const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : 0; };

// ---- sizes ----
// size.*: the full playground (the app's module, its wasm, and rv-playground.js); size.embed.*:
// what a documentation page's console embed downloads (the console module, its wasm, and
// rv-playground.js).
const files = fs.readdirSync(dist);
for (const [prefix, module] of [['size', 'rvlab-web-'], ['size.embed', 'rvlab-embed-']]) {
  for (const ext of ['wasm', 'js']) {
    const fs_ = files.filter(f => f.endsWith('.' + ext) && (f.startsWith(module) || f === 'rv-playground.js'));
    let raw = 0, gz = 0, br = 0;
    for (const f of fs_) {
      const buf = fs.readFileSync(path.join(dist, f));
      raw += buf.length;
      gz += zlib.gzipSync(buf, { level: 9 }).length;
      br += zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }).length;
    }
    emit(`${prefix}.${ext}.raw`, raw, 'B', fs_.join(' '));
    emit(`${prefix}.${ext}.gzip`, gz, 'B', 'gzip -9');
    emit(`${prefix}.${ext}.brotli`, br, 'B', 'brotli q11');
  }
}

// ---- static server ----
const { server, url, encoding } = await serveDir(dist, { compress: true });

// Records (in the page, relative to navigation start) when the app first puts an element into
// <body>, when #console-input exists, and the first idle period after that.
const probe = () => {
  window.__bench = {};
  const mark = () => {
    const b = window.__bench;
    if (b.first === undefined && document.body && [...document.body.children].some(e => e.id !== 'rvlab-boot')) b.first = performance.now();
    if (b.input === undefined && document.getElementById('console-input')) {
      b.input = performance.now();
      const idle = window.requestIdleCallback || (f => setTimeout(f, 0));
      idle(() => { b.idle = performance.now(); });
    }
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const first = [], inter = [], fcp = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript(probe);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__bench && window.__bench.idle !== undefined, null, { timeout: 60000 });
    const b = await page.evaluate(() => ({ ...window.__bench,
      fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime }));
    first.push(b.first); inter.push(b.idle); if (b.fcp !== undefined) fcp.push(b.fcp);
    await ctx.close();
  }
  emit('page.first_paint', median(fcp), 'ms', `navigation → first contentful paint (the loading line), median of ${fcp.length}; served ${encoding}`);
  emit('page.first_render', median(first), 'ms', `navigation → first app element in <body>, median of ${RUNS} (${first.map(x => x.toFixed(0)).join(' ')}); served ${encoding}`);
  emit('page.interactive', median(inter), 'ms', `navigation → #console-input present + main thread idle, median of ${RUNS}; served ${encoding}`);

  // ---- console command with OBJECTS objects preloaded (through the saved sandbox) ----
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const log = [];
  for (let i = 0; i < OBJECTS; i++) {
    const name = `cm-${String(i).padStart(7, '0')}`;
    log.push(`etcd put /registry/configmaps/default/${name} {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default"},"data":{"k":"v${i}"}}`);
  }
  await page.addInitScript(saved => {
    if (!sessionStorage.getItem('bench-seeded')) { localStorage.setItem('rvlab.log.v1', saved); sessionStorage.setItem('bench-seeded', '1'); }
  }, JSON.stringify({ log, redo: [] }));
  await page.addInitScript(probe);
  // When the restored sandbox's last line is in the log.
  await page.addInitScript(n => {
    const mark = () => {
      const last = document.querySelector('#log li:last-child');
      if (window.__restored === undefined && last && last.dataset.line === String(n)) window.__restored = performance.now();
    };
    new MutationObserver(mark).observe(document, { childList: true, subtree: true });
  }, OBJECTS);
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__bench && window.__bench.idle !== undefined, null, { timeout: 600000 });
  const loadMs = Date.now() - t0;
  const restored = await page.evaluate(() => window.__restored);
  emit(`page.reload.${OBJECTS}`, restored, 'ms', `navigation → a saved ${OBJECTS}-line sandbox restored (replayed) and its last line in #log (one load)`);
  const dom = [], paint = [];
  for (let i = 0; i < RUNS; i++) {
    const name = `bench-${i}`;
    await page.fill('#console-input', `etcd put /registry/configmaps/default/${name} {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default"}}`);
    const r = await page.evaluate(() => new Promise(resolve => {
      const logEl = document.getElementById('log');
      const before = logEl ? logEl.textContent.length : 0;
      let t1;
      const obs = new MutationObserver(() => {
        const l = document.getElementById('log');
        if (t1 === undefined && l && l.textContent.length !== before) {
          t1 = performance.now();
          obs.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve({ dom: t1 - t0, paint: performance.now() - t0 }), 0));
        }
      });
      obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      const t0 = performance.now();
      document.getElementById('console-form').requestSubmit();
      setTimeout(() => resolve({ dom: NaN, paint: NaN }), 10000);
    }));
    dom.push(r.dom); paint.push(r.paint);
    await page.waitForTimeout(50);
  }
  // One step back with the scrubber, RUNS times in a row.
  const back = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await page.evaluate(() => new Promise(resolve => {
      const pos = document.getElementById('scrub-pos');
      const before = pos.textContent;
      const obs = new MutationObserver(() => {
        if (document.getElementById('scrub-pos').textContent !== before) {
          obs.disconnect();
          resolve(performance.now() - t0);
        }
      });
      obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      const t0 = performance.now();
      document.getElementById('scrub-back').click();
      setTimeout(() => resolve(NaN), 60000);
    }));
    back.push(r);
    await page.waitForTimeout(50);
  }
  const lines = OBJECTS + RUNS;
  emit(`page.scrub_back.${lines}`, median(back), 'ms', `one scrubber step back at ${lines} lines → #scrub-pos updated, median of ${RUNS} (${back.map(x => x.toFixed(0)).join(' ')})`);
  emit(`page.console_cmd.${OBJECTS}`, median(dom), 'ms', `console \`etcd put\` → its row in #log with ${OBJECTS} objects preloaded, median of ${RUNS} (${dom.map(x => x.toFixed(1)).join(' ')}); page load with that sandbox took ${loadMs} ms`);
  emit(`page.console_cmd_paint.${OBJECTS}`, median(paint), 'ms', `… → the next frame`);
  await ctx.close();
} finally {
  await browser.close();
  server.close();
}
