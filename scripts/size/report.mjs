// The sizes of a wasm build and where its bytes are: `scripts/size/measure.sh` runs it.
//
//   node scripts/size/report.mjs [--js=FILE]... [--names=WASM] [--top=N] LABEL=WASM...
//
// For every LABEL=WASM: raw bytes, gzip -9 and brotli q11 (node's zlib, the same settings as
// scripts/bench/page.mjs), and the wasm plus every --js file together, which is what a page
// downloads. --names=WASM (the same build optimised the same way, with `wasm-opt -g` keeping the
// function names) adds the breakdown: the code section by origin (crate, and rvlab's module
// two levels deep), the data section, and the N largest functions. Code sizes there are raw
// function-body bytes; brotli cannot be split per function.
import fs from 'node:fs';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const js = args.filter((a) => a.startsWith('--js=')).map((a) => a.slice(5));
const namesArg = args.find((a) => a.startsWith('--names='));
const top = Number((args.find((a) => a.startsWith('--top=')) || '--top=25').slice(6));
const builds = args.filter((a) => !a.startsWith('--')).map((a) => {
  const i = a.indexOf('=');
  if (i < 0) throw new Error(`expected LABEL=WASM, got ${a}`);
  return { label: a.slice(0, i), file: a.slice(i + 1) };
});

const gzip = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const brotli = (buf) => zlib.brotliCompressSync(buf, {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
}).length;
const sizes = (buf) => ({ raw: buf.length, gzip: gzip(buf), brotli: brotli(buf) });
const n = (x) => x.toLocaleString('en-US');
const kb = (x) => `${(x / 1000).toFixed(1)} KB`;

const jsBufs = js.map((f) => fs.readFileSync(f));
const jsSize = jsBufs.map(sizes).reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip, brotli: a.brotli + s.brotli }), { raw: 0, gzip: 0, brotli: 0 });

console.log('| build | wasm raw | wasm gzip -9 | wasm brotli | wasm + JS brotli |');
console.log('|---|---:|---:|---:|---:|');
for (const b of builds) {
  const s = sizes(fs.readFileSync(b.file));
  console.log(`| ${b.label} | ${n(s.raw)} | ${n(s.gzip)} | ${n(s.brotli)} | ${n(s.brotli + jsSize.brotli)} (${kb(s.brotli + jsSize.brotli)}) |`);
}
if (js.length) {
  console.log(`\nJS (${js.map((f) => f.split('/').pop()).join(' + ')}): ${n(jsSize.raw)} raw, ${n(jsSize.gzip)} gzip -9, ${n(jsSize.brotli)} brotli`);
}

// --- the wasm binary format, as far as the breakdown needs it ---
function reader(buf) {
  let p = 0;
  const r = {
    get pos() { return p; },
    set pos(v) { p = v; },
    u8: () => buf[p++],
    leb() { let x = 0, s = 0, b; do { b = buf[p++]; x += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return x; },
    str() { const l = r.leb(); const t = buf.toString('utf8', p, p + l); p += l; return t; },
  };
  return r;
}

function parse(buf) {
  const r = reader(buf);
  r.pos = 8;
  const sections = [];
  let importedFuncs = 0;
  const bodies = [];
  const names = new Map();
  while (r.pos < buf.length) {
    const id = r.u8();
    const len = r.leb();
    const start = r.pos;
    let name = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount', 'tag'][id] || `#${id}`;
    if (id === 0) name = `custom "${r.str()}"`;
    if (id === 2) {
      const count = r.leb();
      for (let i = 0; i < count; i++) {
        r.str(); r.str();
        const kind = r.u8();
        const limits = () => { const f = r.u8(); r.leb(); if (f & 1) r.leb(); };
        if (kind === 0) { r.leb(); importedFuncs++; } else if (kind === 1) { r.u8(); limits(); } else if (kind === 2) limits();
        else if (kind === 3) { r.u8(); r.u8(); } else if (kind === 4) { r.u8(); r.leb(); }
      }
    }
    if (id === 10) {
      const count = r.leb();
      for (let i = 0; i < count; i++) { const l = r.leb(); bodies.push(l); r.pos += l; }
    }
    if (id === 0 && name === 'custom "name"') {
      while (r.pos < start + len) {
        const sub = r.u8();
        const sl = r.leb();
        const end = r.pos + sl;
        if (sub === 1) {
          const count = r.leb();
          for (let i = 0; i < count; i++) { const idx = r.leb(); names.set(idx, r.str()); }
        }
        r.pos = end;
      }
    }
    sections.push({ name, size: len });
    r.pos = start + len;
  }
  return { sections, importedFuncs, bodies, names };
}

// Where a function comes from: the first path in its demangled name (for `<T as Trait>::f`,
// T's path, so derived and trait code counts where the type lives); rvlab two modules deep.
// yew's `CompStateInner<COMP>::view` is each component's `view` (its `html!`) monomorphised into
// yew's lifecycle: our UI's code under yew's name, counted apart.
function origin(name) {
  if (name.includes('yew::html::component::lifecycle::CompStateInner<COMP>')) {
    return { crate: 'yew (CompStateInner::view: our components\' html! views)', module: null };
  }
  // The precompiled std's names are v0-mangled: `core[c5930c85a12de822]::num::…`.
  const plain = name.replace(/\[[0-9a-f]+\]/g, '');
  let s = plain.replace(/^[<&\s]+|^(mut |dyn |const )+/g, '');
  s = s.replace(/^[<&\[(\s]+|^(mut |dyn |const |\*const |\*mut )+/g, '');
  const m = s.match(/^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/);
  if (!m) return { crate: '(other)', module: '(other)' };
  const parts = m[0].split('::');
  const crate = parts[0];
  if (crate === 'rvlab') {
    // rvlab::apiserver::patch, rvlab::cluster (not rvlab::cluster::Cluster): a third segment
    // only when it is a module (lower case) and not the function itself.
    const deep = parts.length > 3 && /^[a-z_]/.test(parts[2]) ? 3 : 2;
    return { crate, top: parts.slice(0, 2).join('::'), module: parts.slice(0, Math.min(deep, parts.length - 1)).join('::') || 'rvlab' };
  }
  // `<f64 as core::str::FromStr>::from_str`, `<T as alloc::string::ToString>::to_string`,
  // `<str>::to_lowercase`: a primitive's or a type parameter's code counts under the trait's
  // crate (a primitive's inherent code under core).
  if (parts.length === 1) {
    const t = plain.match(/ as ([A-Za-z_][A-Za-z0-9_]*)::/);
    if (t) return { crate: t[1], module: null };
    if (['str', 'char', 'f64', 'f32', 'u8', 'u16', 'u32', 'u64', 'usize', 'i32', 'i64', 'isize', 'bool'].includes(parts[0])) return { crate: 'core', module: null };
  }
  if (parts.length === 1) return { crate: '(unnamed)', module: '(unnamed)' };
  return { crate, module: crate };
}

if (namesArg) {
  const buf = fs.readFileSync(namesArg.slice(8));
  const w = parse(buf);
  console.log(`\nSections of ${namesArg.slice(8).split('/').pop()} (names kept; the shipped build has no name section):`);
  console.log('| section | bytes |');
  console.log('|---|---:|');
  for (const s of w.sections) console.log(`| ${s.name} | ${n(s.size)} |`);
  const codeTotal = w.bodies.reduce((a, b) => a + b, 0);
  const byCrate = new Map(), byTop = new Map(), byModule = new Map(), unnamed = [];
  const funcs = [];
  w.bodies.forEach((size, i) => {
    const name = w.names.get(w.importedFuncs + i) || `func[${w.importedFuncs + i}]`;
    const o = origin(name);
    byCrate.set(o.crate, (byCrate.get(o.crate) || 0) + size);
    if (o.crate === 'rvlab') {
      byTop.set(o.top, (byTop.get(o.top) || 0) + size);
      byModule.set(o.module, (byModule.get(o.module) || 0) + size);
    }
    if (o.crate === '(unnamed)') unnamed.push({ name, size });
    funcs.push({ name, size });
  });
  const table = (title, map, limit) => {
    console.log(`\n${title}`);
    console.log('| origin | bytes | share of code |');
    console.log('|---|---:|---:|');
    [...map].sort((a, b) => b[1] - a[1]).slice(0, limit).forEach(([k, v]) => console.log(`| ${k} | ${n(v)} | ${(100 * v / codeTotal).toFixed(1)}% |`));
  };
  console.log(`\nCode: ${n(w.bodies.length)} functions, ${n(codeTotal)} bytes of bodies.`);
  table('Code by crate (generic code counts under the crate that defines the function):', byCrate, 30);
  table('rvlab code by top module:', byTop, 30);
  table('rvlab code by module:', byModule, 40);
  unnamed.sort((a, b) => b.size - a.size);
  console.log(`\nLargest of the (unnamed) group: ${unnamed.slice(0, 8).map((f) => `${f.name} ${n(f.size)}`).join(', ')}`);
  console.log(`\nThe ${top} largest functions:`);
  console.log('| bytes | function |');
  console.log('|---:|---|');
  funcs.sort((a, b) => b.size - a.size).slice(0, top).forEach((f) => console.log(`| ${n(f.size)} | \`${f.name.replace(/\|/g, '\\|').slice(0, 140)}\` |`));
}
