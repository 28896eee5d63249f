// What a documentation page pays for one and for five embeds (issue 34), in headless Chromium
// (playwright-core, pinned in dev.sh), against a built bundle (the release build for the numbers):
//   node scripts/bench/embeds.mjs <dist-dir> [--runs=5]
// The bundle is served as a documentation host would (scripts/bench/static.mjs serveDir with
// compress: brotli or gzip as the browser accepts, `application/wasm`, hashed files cacheable for
// a year, pages revalidated); the host page, outside the bundle, holds 1 or 5 interactive
// <rv-playground> elements, each with its own two-line script. Each load is a new browser context
// (an empty cache), in a window tall enough that no frame waits for scrolling (frames are lazy).
// For the default (console embeds mounted in the page, one shared console module), view="full"
// (the full playground in the page, one shared app module) and render="frame" (one iframe per
// embed), prints `BENCH\t<id>\t<value>\t<unit>\t<note>` lines:
//   page.embeds.<render>.<n>.alive        navigation → every embed's console present (median);
//                                          <render>: page (console embeds), full, frame
//   page.embeds.<render>.5_over_1          that time for five over that time for one
//   page.embeds.<render>.<n>.wasm_requests requests for a .wasm file the page made (one load), and
//                                          how many reached the server (the others the HTTP cache
//                                          answered)
//   page.embeds.<render>.<n>.compiles      WebAssembly compile/instantiate calls (every one wrapped by
//                                          an init script, in the page and in its frames)
//   page.embeds.<render>.<n>.bytes         bytes transferred (encoded, headers included; CDP
//                                          Network.loadingFinished), and the page's request count
// Nothing is asserted: these are numbers (tests/embed/inpage.mjs checks the countable facts).
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { option, serveDir } from './static.mjs';

const require = createRequire(import.meta.url);
const pwPath = process.env.PLAYWRIGHT_CORE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rvlab/tools/playwright-core-1.65.1/node_modules/playwright-core');
const { chromium } = require(pwPath);

const args = process.argv.slice(2);
const dist = path.resolve(args.find(a => !a.startsWith('--')) || 'dist');
const RUNS = Number(option(args, 'runs', 5));

const emit = (id, value, unit, note) => console.log(`BENCH\t${id}\t${value}\t${unit}\t${note}`);
const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };

/** The host page: `n` interactive embeds rendered as `render` says. */
const hostPage = (render, n) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${n} embeds</title>
<link rel="icon" href="data:,"><style>body{margin:16px;font:16px system-ui;width:800px}</style></head><body>
${Array.from({ length: n }, (_, i) => `<p>Embed ${i + 1}.</p>
<rv-playground ${render === 'full' ? 'view="full"' : `render="${render}"`} mode="interactive" script="etcd put /e${i} ${i}&#10;etcd get /e${i}"></rv-playground>`).join('\n')}
<script src="rvlab/rv-playground.js"></script></body></html>`;

// In the page and in every frame: count compiles; in the top page: when every embed is alive.
const probe = () => {
  window.__compiles = 0;
  for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const f = WebAssembly[name];
    if (typeof f !== 'function') continue;
    WebAssembly[name] = function (...a) {
      if (!(name === 'instantiate' && a[0] instanceof WebAssembly.Module)) window.__compiles++;
      return f.apply(this, a);
    };
  }
  if (window.top !== window) return;
  const console_ = el => {
    // The console embed's input, or the full playground's.
    if (el.renderedIn === 'page') return el.shadowRoot && el.shadowRoot.querySelector('#console-input, .rvc-input input');
    try { return el.frame && el.frame.contentDocument && el.frame.contentDocument.querySelector('#console-input'); } catch { return null; }
  };
  const tick = () => {
    const els = [...document.querySelectorAll('rv-playground')];
    if (els.length && els.every(console_)) { window.__alive = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

const { server, url, encoding, hits } = await serveDir(dist, {
  compress: true,
  pages: Object.fromEntries(['page', 'full', 'frame'].flatMap(r => [[`/docs/one-${r}.html`, hostPage(r, 1)], [`/docs/five-${r}.html`, hostPage(r, 5)]])),
  prefix: '/docs/rvlab/',
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  for (const render of ['page', 'full', 'frame']) {
    const alive = {};
    for (const n of [1, 5]) {
      const times = [];
      let counts = null;
      for (let i = 0; i < RUNS; i++) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 * n } });
        const page = await ctx.newPage();
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        let bytes = 0, requests = 0, wasm = 0;
        hits.clear();
        cdp.on('Network.requestWillBeSent', e => { requests++; if (new URL(e.request.url).pathname.endsWith('.wasm')) wasm++; });
        cdp.on('Network.loadingFinished', e => { bytes += e.encodedDataLength; });
        // Frames are other targets: their requests are counted through the page's own events too
        // (same-origin frames share the page's network agent), and their compiles by the probe.
        await page.addInitScript(probe);
        await page.goto(`${url}docs/${n === 1 ? 'one' : 'five'}-${render}.html`, { waitUntil: 'load' });
        await page.waitForFunction(() => window.__alive !== undefined, null, { timeout: 120000 });
        times.push(await page.evaluate(() => window.__alive));
        await page.waitForTimeout(200);
        const compiles = await Promise.all(page.frames().map(f => f.evaluate(() => window.__compiles || 0).catch(() => 0)));
        const served = [...hits].filter(([p]) => p.endsWith('.wasm')).reduce((a, [, k]) => a + k, 0);
        counts = { bytes, requests, wasm, served, compiles: compiles.reduce((a, b) => a + b, 0) };
        await ctx.close();
      }
      alive[n] = median(times);
      const what = `${n} embed${n > 1 ? 's' : ''} rendered in ${render === 'page' ? 'the page (console embeds: one shared console module)' : render === 'full' ? 'the page with view="full" (one shared app module)' : 'frames (one app per frame)'}`;
      emit(`page.embeds.${render}.${n}.alive`, alive[n].toFixed(0), 'ms', `navigation → every console present, ${what}, median of ${RUNS} (${times.map(x => x.toFixed(0)).join(' ')})`);
      emit(`page.embeds.${render}.${n}.wasm_requests`, counts.wasm, '', `wasm requests (${counts.served} reached the server, the rest from the HTTP cache), ${what}`);
      emit(`page.embeds.${render}.${n}.compiles`, counts.compiles, '', `WebAssembly compiles/instantiations, ${what}`);
      emit(`page.embeds.${render}.${n}.bytes`, counts.bytes, 'B', `transferred (${encoding}, headers included) in ${counts.requests} requests, ${what}`);
    }
    emit(`page.embeds.${render}.5_over_1`, (alive[5] / alive[1]).toFixed(2), '×', `five embeds alive / one embed alive (${render}); issue 34's target ≤ 1.3`);
  }
} finally {
  await browser.close();
  server.close();
}
