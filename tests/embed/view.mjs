// The app of one <rv-playground> element as the checks look inside it, whichever way it renders:
// in a frame (a Playwright Frame: the app's document) or in the page (the element's shadow root).
//   const v = await embedView(elementHandle);   // null when it does not render in time
//   v.in          'frame' or 'page'
//   v.box         the handle whose box the embed takes in the host page (the iframe, or the element)
//   v.$, v.$$, v.$eval, v.$$eval   as on a Frame, inside the app (Playwright's CSS pierces open
//                 shadow roots, and the light DOM of an in-page element holds nothing else)
//   v.evaluate(fn, arg)   runs fn(arg) where `document` and `innerHeight` are the app's: in a
//                 frame its own; in the page `document.querySelector*` search the shadow root,
//                 `document.documentElement.scrollHeight` is the content's height (its app's, as a
//                 frame's document is as tall as its app) and `innerHeight` the element's height,
//                 so "the content fits" means the same in both.
import { until } from '../browser.mjs';

export async function embedView(el, ms = 60000) {
  const where = await until(() => el.evaluate(e => e.renderedIn), ms);
  if (where === 'frame') {
    const box = await until(() => el.$('iframe'), 10000);
    const frame = box && await until(() => box.contentFrame(), ms);
    if (!frame) return null;
    return { in: 'frame', box, $: s => frame.$(s), $$: s => frame.$$(s), $eval: (s, f, a) => frame.$eval(s, f, a), $$eval: (s, f, a) => frame.$$eval(s, f, a), evaluate: (f, a) => frame.evaluate(f, a), frame };
  }
  if (where !== 'page') return null;
  return {
    in: 'page',
    box: el,
    $: s => el.$(s),
    $$: s => el.$$(s),
    $eval: (s, f, a) => el.$eval(s, f, a),
    $$eval: (s, f, a) => el.$$eval(s, f, a),
    evaluate: (f, a) => el.evaluate((host, [src, arg]) => {
      const root = host.shadowRoot;
      const app = () => root.querySelector('.app');
      const doc = {
        querySelector: s => root.querySelector(s),
        querySelectorAll: s => root.querySelectorAll(s),
        get documentElement() { return { get scrollHeight() { const a = app(); return a ? Math.ceil(a.getBoundingClientRect().height) : 0; } }; },
      };
      // eslint-disable-next-line no-new-func
      const fn = new Function('document', 'innerHeight', `return (${src});`)(doc, host.getBoundingClientRect().height);
      return fn(arg);
    }, [f.toString(), a]),
  };
}

/** Counts, in `window.rvCompiles` of every document `page` opens, each way to compile or
 *  instantiate a wasm module (`instantiate` of an already compiled Module compiles nothing). */
export async function countWasmCompiles(page) {
  await page.addInitScript(() => {
    window.rvCompiles = [];
    for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
      const f = WebAssembly[name];
      if (typeof f !== 'function') continue;
      WebAssembly[name] = function (...args) {
        if (!(name === 'instantiate' && args[0] instanceof WebAssembly.Module)) window.rvCompiles.push(name);
        return f.apply(this, args);
      };
    }
    const M = WebAssembly.Module;
    WebAssembly.Module = function (...args) { window.rvCompiles.push('new Module'); return new M(...args); };
    WebAssembly.Module.prototype = M.prototype;
  });
}
