// CPU profile of the page rows (console command, scrubber step, reload) in headless Chromium,
// through the DevTools Profiler domain (playwright-core, as page.mjs):
//   node scripts/bench/profile.mjs <dist-dir> [--objects=10000] [--runs=5] [--top=40] [--only=cmd,scrub,reload]
//     [--callers=NAME] [--depth=4] [--chain=rvlab|all]
// Use a build that keeps function names (the release wasm through `wasm-opt -O -g`, see the
// README's performance section). Prints, per scenario, the functions by inclusive and by self
// time (summed over the runs, then divided by the runs: ms per action). With --callers, also the
// time under the functions whose name contains NAME, by the chain of the --depth nearest
// `rvlab::` functions that called them (--chain=all: the nearest functions of any crate).
// A release wasm inlines most function components into Yew's generic `view`: building the
// project alone at opt-level 1 (`--config 'profile.release.package.rvlab.opt-level=1'`) and
// skipping wasm-opt keeps them apart, at the price of slower code everywhere.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { option, serveDir } from './static.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const pwPath = process.env.PLAYWRIGHT_CORE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rvlab/tools/playwright-core-1.65.1/node_modules/playwright-core');
const { chromium } = require(pwPath);

const args = process.argv.slice(2);
const dist = path.resolve(args.find(a => !a.startsWith('--')) || 'dist');
const opt = (name, dflt) => option(args, name, dflt);
const OBJECTS = Number(opt('objects', 10000));
const RUNS = Number(opt('runs', 5));
const TOP = Number(opt('top', 40));
const ONLY = opt('only', 'cmd,scrub,reload').split(',');
const CALLERS = opt('callers', '');
const DEPTH = Number(opt('depth', 4));
const CHAIN = opt('chain', 'rvlab');

const { server, url } = await serveDir(dist);

const log = [];
for (let i = 0; i < OBJECTS; i++) {
  const name = `cm-${String(i).padStart(7, '0')}`;
  log.push(`etcd put /registry/configmaps/default/${name} {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default"},"data":{"k":"v${i}"}}`);
}
const saved = JSON.stringify({ log, redo: [] });

// Inclusive and self time (ms) per function name over a Profiler.Profile.
function summarise(profile, acc) {
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = n => {
    const f = n.callFrame;
    return f.functionName || (f.url ? `(anonymous ${path.basename(f.url)}:${f.lineNumber})` : `(${f.functionName || 'program'})`);
  };
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let n = byId.get(id);
    const self = name(n);
    acc.self.set(self, (acc.self.get(self) || 0) + dt);
    acc.total += dt;
    const seen = new Set();
    const stack = [];
    for (; n; n = byId.get(parent.get(n.id))) {
      const k = name(n);
      stack.push(k);
      if (seen.has(k)) continue;
      seen.add(k);
      acc.incl.set(k, (acc.incl.get(k) || 0) + dt);
    }
    if (CALLERS) {
      // The outermost frame matching CALLERS, and the DEPTH frames that called it.
      const at = stack.findLastIndex(k => k.includes(CALLERS));
      if (at >= 0) {
        // The project's own frames name the place; the framework's between them are left out.
        const chain = stack.slice(at + 1).filter(k => CHAIN === 'all' ? !k.endsWith(' shim') : k.includes('rvlab::')).slice(0, DEPTH)
          .map(k => k.replace(/::h[0-9a-f]{16}$/, '')).join(' < ') || '(no rvlab frame)';
        acc.callers.set(chain, (acc.callers.get(chain) || 0) + dt);
      }
    }
  });
}

function report(title, acc, runs) {
  const fmt = m => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([k, v]) => `  ${(v / runs).toFixed(1).padStart(7)} ms  ${k.slice(0, 150)}`).join('\n');
  console.log(`\n=== ${title}: ${(acc.total / runs).toFixed(1)} ms sampled per action (${runs} runs)`);
  console.log('--- inclusive');
  console.log(fmt(acc.incl));
  console.log('--- self');
  console.log(fmt(acc.self));
  if (CALLERS) {
    console.log(`--- under "${CALLERS}", by its callers (innermost first)`);
    console.log(fmt(acc.callers));
  }
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(s => {
    if (!sessionStorage.getItem('bench-seeded')) { localStorage.setItem('rvlab.log.v1', s); sessionStorage.setItem('bench-seeded', '1'); }
  }, saved);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const ready = () => page.waitForFunction(n => {
    const last = document.querySelector('#log li:last-child');
    return last && Number(last.dataset.line) >= n && document.getElementById('console-input');
  }, OBJECTS, { timeout: 600000 });

  if (ONLY.includes('reload')) {
    const acc = { incl: new Map(), self: new Map(), callers: new Map(), total: 0 };
    await page.goto(url, { waitUntil: 'load' });
    await ready();
    for (let i = 0; i < RUNS; i++) {
      await cdp.send('Profiler.start');
      await page.reload({ waitUntil: 'load' });
      await ready();
      const { profile } = await cdp.send('Profiler.stop');
      summarise(profile, acc);
    }
    report(`reload of a ${OBJECTS}-line sandbox`, acc, RUNS);
  } else {
    await page.goto(url, { waitUntil: 'load' });
    await ready();
  }
  await page.waitForTimeout(1500);

  if (ONLY.includes('cmd')) {
    const acc = { incl: new Map(), self: new Map(), callers: new Map(), total: 0 };
    for (let i = 0; i < RUNS; i++) {
      const name = `prof-${i}`;
      await page.fill('#console-input', `etcd put /registry/configmaps/default/${name} {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default"}}`);
      await page.waitForTimeout(300);
      await cdp.send('Profiler.start');
      await page.evaluate(() => new Promise(resolve => {
        const n = document.querySelectorAll('#log li').length;
        const last = document.querySelector('#log li:last-child')?.dataset.line;
        document.getElementById('console-form').requestSubmit();
        const poll = () => document.querySelector('#log li:last-child')?.dataset.line !== last ? requestAnimationFrame(() => setTimeout(resolve, 0)) : setTimeout(poll, 1);
        poll();
        void n;
      }));
      const { profile } = await cdp.send('Profiler.stop');
      summarise(profile, acc);
      await page.waitForTimeout(1200);
    }
    report(`console command at ${OBJECTS} objects`, acc, RUNS);
  }

  if (ONLY.includes('scrub')) {
    const acc = { incl: new Map(), self: new Map(), callers: new Map(), total: 0 };
    for (let i = 0; i < RUNS; i++) {
      await page.waitForTimeout(300);
      await cdp.send('Profiler.start');
      await page.evaluate(() => new Promise(resolve => {
        const before = document.getElementById('scrub-pos').textContent;
        document.getElementById('scrub-back').click();
        const poll = () => document.getElementById('scrub-pos').textContent !== before ? requestAnimationFrame(() => setTimeout(resolve, 0)) : setTimeout(poll, 1);
        poll();
      }));
      const { profile } = await cdp.send('Profiler.stop');
      summarise(profile, acc);
    }
    report(`scrubber step back at ${OBJECTS}+ lines`, acc, RUNS);
  }
  await ctx.close();
} finally {
  await browser.close();
  server.close();
}
