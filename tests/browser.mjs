// What the headless-Chromium checks share (site/check.mjs, tests/embed/*.mjs,
// tests/trunk/serve.mjs): where playwright-core is (PLAYWRIGHT_CORE, set by dev.sh, or the
// per-machine tool cache it installs into), how Chromium is launched, and polling.
import os from 'node:os';
import path from 'node:path';

/** playwright-core's folder: $PLAYWRIGHT_CORE, else where ./dev.sh installs it. */
export const pwPath = process.env.PLAYWRIGHT_CORE
  || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'rvlab/tools/playwright-core-1.65.1/node_modules/playwright-core');

/** Debian's Chromium (or $CHROMIUM), headless, as root. */
export const launchChromium = chromium => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});

export const sleep = ms => new Promise(r => setTimeout(r, ms));

/** Waits until `f()` is truthy (polling every `step` ms), or `ms` pass; returns the last value. */
export async function until(f, ms = 20000, step = 100) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) { try { v = await f(); } catch { v = undefined; } if (v) return v; await sleep(step); }
  return v;
}
