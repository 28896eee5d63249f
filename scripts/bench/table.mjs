// Joins BENCH lines into the benchmark tables:
//   node scripts/bench/table.mjs [--markdown] [--title=TEXT] native.txt wasm.txt [page.txt]
// 1. Issue 19's figures, one row each: native (the engine natively), wasm (the same engine code
//    in headless Chromium), their ratio, the page figure where the figure is what a user sees in
//    the page, the target and whether it is met. A row measured in one place only says why.
//    Then, when page.txt has them (scripts/bench/embeds.mjs), issue 34's embeds: one against
//    five on a page, rendered in the page and in frames.
// 2. Every engine scenario, native and wasm side by side.
// 3. The page metrics.
// The ratio is how many times slower (or bigger) wasm is than native (for a rate: native/wasm).
// Each file argument may be a comma-separated list of runs: every value is then their median.
// --markdown prints the tables without padding, under a title line.
// --page=FILE (implies --markdown) also writes them into FILE, the book's performance page
// (site/src/project/performance.md): between its `<!-- bench table` and `<!-- end bench table -->`
// lines, keeping everything else; a FILE that does not exist is created with a heading. A FILE
// with one marker but not the other is left alone (exit 2).
import fs from 'node:fs';

const argv = process.argv.slice(2);
const pageArg = argv.find(a => a.startsWith('--page='));
const pageFile = pageArg ? pageArg.slice('--page='.length) : null;
const markdown = argv.includes('--markdown') || pageFile !== null;
const titleArg = argv.find(a => a.startsWith('--title='));
// Everything printed, kept to write the page too.
const out = [];
const emit = line => out.push(line);
const [nativeF, wasmF, pageF] = argv.filter(a => !a.startsWith('--'));

const readOne = f => {
  const rows = new Map();
  if (!f || !fs.existsSync(f)) return rows;
  for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
    const i = line.indexOf('BENCH\t');
    if (i < 0) continue;
    const [, id, value, unit, note] = line.slice(i).split('\t');
    rows.set(id, { value: Number(value), unit, note: (note || '').trim() });
  }
  return rows;
};
const med = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const read = arg => {
  const runs = (arg || '').split(',').filter(Boolean).map(readOne);
  const out = new Map();
  for (const run of runs) for (const [id, r] of run) {
    if (!out.has(id)) out.set(id, { ...r, all: [] });
    out.get(id).all.push(r.value);
  }
  for (const r of out.values()) { r.value = med(r.all); if (r.all.length > 1) r.note = `median of ${r.all.length} runs; ${r.note}`; }
  return out;
};
const native = read(nativeF), wasm = read(wasmF), page = read(pageF);

const num = v => Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
const fmt = r => {
  if (!r) return '—';
  if (r.unit === 'B' && r.value >= 10240) return `${(r.value / 1024).toFixed(1)} KiB`;
  return `${num(r.value)} ${r.unit}`;
};
const ratioOf = (n, w) => {
  if (!n || !w || !n.value || !w.value || n.unit === '×') return null;
  return n.unit.endsWith('/s') ? n.value / w.value : w.value / n.value;
};
const yes = b => b ? 'yes' : 'NO';
// The largest N among ids `prefix.N` in `map` (the page and list rows carry their size).
const largest = (map, re) => {
  let best = null;
  for (const id of map.keys()) {
    const m = id.match(re);
    if (m && (best === null || Number(m[1]) > Number(best[1]))) best = m;
  }
  return best ? best[0] : null;
};
// 1000000 → 1M, 10007 → 10k (sizes are written as people say them), 250 → 250.
const thousands = n => n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);

// ---- 1. the issue's figures ----
// Each: the engine scenario (native and wasm), the page metric (browser only), the target as a
// test on the value the issue means (`on`: 'page' or 'engine'), and why a column is empty.
const ENGINE_ONLY = 'engine figure: no page involved';
const PAGE_ONLY = 'page only: the shipped bundle in the browser, nothing to run natively';
const issueRows = () => {
  const rows = [];
  const add = (figure, { engine, page: pageId, on, test, target, why }) => {
    const n = engine && native.get(engine), w = engine && wasm.get(engine), p = pageId && page.get(pageId);
    let met = '';
    if (test && on === 'page') met = p ? yes(test(p.value)) : '—';
    if (test && on === 'engine') met = [n, w].map(x => x ? yes(test(x.value)) : '—').join(' / ');
    const r = ratioOf(n, w);
    rows.push({ figure, n: fmt(n), w: fmt(w), ratio: r === null ? '—' : r.toFixed(2), p: pageId ? fmt(p) : '—', target, met, why, r, engine });
  };
  // Bundle: the sum of the brotli sizes.
  const wb = page.get('size.wasm.brotli'), jb = page.get('size.js.brotli');
  {
    const tot = wb && jb ? { value: wb.value + jb.value, unit: 'B' } : null;
    rows.push({ figure: 'the full playground: wasm + JS, brotli', n: '—', w: '—', ratio: '—', p: fmt(tot), target: '≤ 200 KB now, ≤ 150 KB the goal',
      met: tot ? `${yes(tot.value <= 200 * 1024)} / ${yes(tot.value <= 150 * 1024)}` : '—', why: PAGE_ONLY });
  }
  // Issue 34: what a documentation embed downloads (the console embed's module).
  const ewb = page.get('size.embed.wasm.brotli'), ejb = page.get('size.embed.js.brotli');
  if (ewb && ejb) {
    const tot = { value: ewb.value + ejb.value, unit: 'B' };
    rows.push({ figure: 'a documentation embed (the console embed): wasm + JS, brotli', n: '—', w: '—', ratio: '—', p: fmt(tot), target: '≤ 250 KB (issue 34), ≤ 150 KB the goal',
      met: `${yes(tot.value <= 250 * 1000)} / ${yes(tot.value <= 150 * 1000)}`, why: PAGE_ONLY });
  }
  add('navigation → first render: the console present (median of the loads, served compressed)', { page: 'page.first_render', on: 'page', test: v => v <= 150, target: '≤ 150 ms', why: PAGE_ONLY });
  const cmd = largest(page, /^page\.console_cmd\.(\d+)$/);
  // The size a row is about: from the page metric's id, else from the engine scenario's note.
  const sizeOf = (pageId, engine) => {
    if (pageId) return thousands(Number(pageId.split('.').pop()));
    const m = ((native.get(engine) || wasm.get(engine) || {}).note || '').match(/(\d+) (?:console )?(?:objects|lines)/);
    return m ? thousands(Number(m[1])) : '?';
  };
  const cmdN = sizeOf(cmd, 'console.engine.put');
  add(`console command at ${cmdN} objects → DOM updated`, { engine: 'console.engine.put', page: cmd, on: 'page', test: v => v <= 16, target: '≤ 16 ms',
    why: 'page figure; native and wasm: the engine part (the `etcd put` line)' });
  const scrub = largest(page, /^page\.scrub_back\.(\d+)$/);
  add(`one scrubber step back at ${sizeOf(scrub, 'history.step_back')} lines`, { engine: 'history.step_back', page: scrub, on: 'page', test: v => v <= 50, target: '≤ 50 ms',
    why: 'page figure; native and wasm: the engine part (nearest checkpoint + replay)' });
  const reload = largest(page, /^page\.reload\.(\d+)$/);
  add(`reload + restore of a ${sizeOf(reload, 'history.replay')}-line sandbox`, { engine: 'history.replay', page: reload, on: 'page', test: v => v <= 500, target: '≤ 500 ms',
    why: 'page figure; native and wasm: the engine part (the log replayed)' });
  add('memory per cached object (≈250-byte ConfigMap, heap)', { engine: 'mem.cache.per_object', on: 'engine', test: v => v <= 1024, target: '≤ 1 KB', why: ENGINE_ONLY });
  add('creates/s through the API, cache on, 10 watches', { engine: 'write.create', on: 'engine', test: v => v >= 250000, target: '≥ 250,000/s', why: ENGINE_ONLY });
  add('one write → 1,000 watches, per delivered event', { engine: 'fanout.per_event', on: 'engine', test: v => v <= 0.5, target: '≤ 0.5 µs', why: ENGINE_ONLY });
  // The biggest list: a 500-item page through the watch cache and through etcd, the target being
  // the page's cost against the same page at the smallest size.
  const big = largest(native.size ? native : wasm, /^list\.cache_notolder\.(\d+)$/) || largest(wasm, /^list\.cache_notolder\.(\d+)$/);
  if (big) {
    const n = Number(big.split('.').pop());
    for (const [path, label] of [['cache_notolder', 'watch cache'], ['etcd_exact', 'etcd']]) {
      const ratioId = `list.${path}.ratio.${n}`;
      const rn = native.get(ratioId), rw = wasm.get(ratioId);
      const lo = [...native.keys(), ...wasm.keys()].map(id => id.match(new RegExp(`^list\\.${path}\\.(\\d+)$`))).filter(Boolean).map(m => Number(m[1])).sort((a, b) => a - b)[0];
      add(`500-item list page of ${thousands(n)} objects, ${label}`, { engine: `list.${path}.${n}`, target: `≤ 1.5 × the page at ${thousands(lo)}`, why: ENGINE_ONLY });
      const row = rows[rows.length - 1];
      row.met = [rn, rw].map(x => x ? `${yes(x.value <= 1.5)} (${x.value.toFixed(2)}×)` : '—').join(' / ');
    }
    const rss = `mem.rss.${n}`;
    add(`${thousands(n)} objects held (etcd + watch cache): resident / wasm memory`, { engine: rss, target: 'fits in wasm32 (4 GiB)', why: 'native: resident set; wasm: linear memory, which never shrinks' });
    const row = rows[rows.length - 1];
    const w = wasm.get(rss);
    row.met = w ? yes(w.value < 4096) : '—';
  }
  // wasm/native over every engine scenario that ran in both (not only the rows above).
  const ratios = [];
  for (const [id, n] of native) {
    if (id.startsWith('mem.')) continue; // bytes, not speed
    const r = ratioOf(n, wasm.get(id));
    if (r !== null) ratios.push([id, r]);
  }
  if (ratios.length) {
    ratios.sort((a, b) => a[1] - b[1]);
    const [loId, lo] = ratios[0], [hiId, hi] = ratios[ratios.length - 1];
    rows.push({ figure: 'wasm / native on each engine figure', n: '—', w: '—', ratio: `${lo.toFixed(2)}–${hi.toFixed(2)}`, p: '—', target: '≤ 1.5 (keep)',
      met: yes(hi <= 1.5), why: `over ${ratios.length} timed scenarios; slowest: ${hiId} (${hi.toFixed(2)}), fastest: ${loId} (${lo.toFixed(2)})` });
  }
  return rows;
};

const print = (rows, header) => {
  // In Markdown a cell's `<` would open an HTML tag (`first app element in <body>`).
  const all = [header, ...rows].map(r => r.map(c => markdown ? String(c).replace(/</g, '&lt;') : String(c)));
  if (markdown) {
    emit(`| ${all[0].join(' | ')} |`);
    emit(`|${all[0].map(() => '---').join('|')}|`);
    for (const r of all.slice(1)) emit(`| ${r.join(' | ')} |`);
    return;
  }
  const widths = all[0].map((_, c) => Math.max(...all.map(r => r[c].length)));
  const line = r => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  emit(line(all[0]));
  emit('|' + widths.map(w => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of all.slice(1)) emit(line(r));
};

if (titleArg) emit(`${titleArg.slice('--title='.length)}\n`);
emit(markdown ? '**Issue 19 figures**\n' : 'Issue 19 figures:');
print(issueRows().map(r => [r.figure, r.n, r.w, r.ratio, r.p, r.target, r.met, r.why]),
  ['figure', 'native', 'wasm', 'wasm/native', 'page', 'target', 'met?', 'measured where, and why']);

// Issue 34: a page with five embeds makes one wasm request and one compile, and all five are
// alive within 1.3× the time of one (scripts/bench/embeds.mjs).
const renders = ['page', 'full', 'frame'].filter(r => page.has(`page.embeds.${r}.5.alive`));
if (renders.length) {
  emit(markdown ? '\n**Issue 34: several embeds on one page**\n' : '\nIssue 34: several embeds on one page:');
  const rows = [];
  const how = { page: 'in the page: console embeds share the console module', full: 'in the page, `view="full"`: the embeds share the app\'s module', frame: '`render="frame"`: one app per frame' };
  for (const r of renders) {
    const g = k => page.get(`page.embeds.${r}.${k}`);
    const cell = k => fmt(g(k));
    const count = k => (g(k) ? String(g(k).value) : '—');
    const ratio = g('5_over_1');
    const one = (k, t) => (g(k) ? yes(g(k).value <= t) : '—');
    rows.push([how[r], cell('1.alive'), cell('5.alive'), ratio ? `${ratio.value.toFixed(2)}×` : '—', `${count('5.wasm_requests')} / ${count('5.compiles')}`,
      `${cell('1.bytes')} / ${cell('5.bytes')}`, `${ratio ? yes(ratio.value <= 1.3) : '—'} / ${one('5.wasm_requests', 1)} / ${one('5.compiles', 1)}`]);
  }
  print(rows, ['embeds rendered', 'one alive', 'five alive', 'five / one', 'five: wasm requests / compiles', 'transferred: one / five',
    'met? (≤ 1.3× / 1 request / 1 compile)']);
}

// ---- 2. every engine scenario ----
// Targets of single scenarios that are not issue rows.
const targets = [
  [/^list\..*\.ratio\.\d+$/, v => v <= 1.5, '≤ 1.5'],
  [/^compact\.store$/, v => v <= 1000, '≤ 1000 ms'],
  [/^timeline\.model$/, v => v <= 100, '≤ 100 ms'],
  [/^history\.step_back$/, v => v <= 50, '≤ 50 ms (page)'],
];
const target = id => targets.find(([re]) => re.test(id));
const ids = [...new Set([...native.keys(), ...wasm.keys()])];
if (ids.length) {
  emit(markdown ? '\n**Every engine scenario**\n' : '\nEvery engine scenario:');
  const rows = [];
  for (const id of ids) {
    const n = native.get(id), w = wasm.get(id);
    const r = ratioOf(n, w);
    const t = target(id);
    const met = t ? [n, w].filter(Boolean).map(x => yes(t[1](x.value))).join(' / ') : '';
    const only = !n ? 'browser only' : !w ? 'native only' : '';
    rows.push([id, fmt(n), fmt(w), r === null ? '—' : `${r.toFixed(2)}${r > 1.5 ? ' (>1.5)' : ''}`, t ? t[2] : '', met, [only, (n || w).note].filter(Boolean).join('; ').slice(0, 110)]);
  }
  print(rows, ['scenario', 'native', 'wasm', 'wasm/native', 'target', 'met?', 'note']);
}

// ---- 3. page metrics ----
if (page.size) {
  emit(markdown ? '\n**Page metrics** (release build, headless Chromium)\n' : '\nPage metrics (release build, headless Chromium):');
  const rows = [];
  for (const [id, r] of page) rows.push([id, fmt(r), r.note.slice(0, 110)]);
  print(rows, ['metric', 'value', 'note']);
}

process.stdout.write(out.join('\n') + '\n');

// ---- the book's page ----
const BEGIN = '<!-- bench table';
const END = '<!-- end bench table -->';
const BEGIN_LINE = `${BEGIN}: written by \`./dev.sh bench --markdown\` (scripts/bench/table.mjs --page); edit outside these markers -->`;
if (pageFile) {
  const tables = out.join('\n').trim();
  const block = `${BEGIN_LINE}\n${tables}\n${END}`;
  let text;
  if (!fs.existsSync(pageFile)) {
    text = `# Performance\n\n${block}\n`;
  } else {
    const old = fs.readFileSync(pageFile, 'utf8');
    const lines = old.split('\n');
    const b = lines.findIndex(l => l.startsWith(BEGIN));
    const e = lines.findIndex(l => l.trim() === END);
    if (b < 0 || e < 0 || e < b) {
      console.error(`${pageFile}: expected one "${BEGIN} … -->" line and a later "${END}" line; not written`);
      process.exit(2);
    }
    text = [...lines.slice(0, b), block, ...lines.slice(e + 1)].join('\n');
  }
  fs.writeFileSync(pageFile, text);
  console.error(`wrote the tables into ${pageFile}`);
}
