// Joins BENCH lines into one table:  node scripts/bench/table.mjs native.txt wasm.txt [page.txt]
// ratio = how many times slower (or bigger) wasm is than native (for writes/s: native/wasm).
import fs from 'node:fs';

// Each argument may be a comma-separated list of files (repeated runs): every value is then the
// median over the runs that have it.
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
const [nativeF, wasmF, pageF] = process.argv.slice(2);
const native = read(nativeF), wasm = read(wasmF), page = read(pageF);

// Targets from the issue.
const targets = [
  // Issue 19's targets.
  [/^write\.create$/, v => v >= 250000, '≥ 250,000/s'],
  [/^list\..*\.ratio\.\d+$/, v => v <= 1.5, '≤ 1.5'],
  [/^fanout\.per_event$/, v => v <= 0.5, '≤ 0.5 µs'],
  [/^mem\..*per_object$/, v => v <= 1024, '≤ 1 KB'],
  [/^compact\.store$/, v => v <= 1000, '≤ 1000 ms'],
  [/^timeline\.model$/, v => v <= 100, '≤ 100 ms'],
  [/^page\.first_render$/, v => v <= 150, '≤ 150 ms'],
  [/^page\.console_cmd\.\d+$/, v => v <= 16, '≤ 16 ms'],
  [/^page\.scrub_back\.\d+$/, v => v <= 50, '≤ 50 ms'],
  [/^page\.reload\.\d+$/, v => v <= 500, '≤ 500 ms'],
  [/^history\.step_back$/, v => v <= 50, '≤ 50 ms'],
];
const target = id => targets.find(([re]) => re.test(id));

const fmt = (r) => {
  if (!r) return '—';
  const v = r.value;
  const num = Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
  return `${num} ${r.unit}`;
};
const ratioOf = (n, w) => {
  if (!n || !w || !n.value || !w.value || n.unit === '×') return null;
  return n.unit.endsWith('/s') ? n.value / w.value : w.value / n.value;
};

const ids = [...new Set([...native.keys(), ...wasm.keys()])];
const rows = [['scenario', 'native', 'wasm', 'ratio (wasm/native)', 'target', 'met?']];
for (const id of ids) {
  const n = native.get(id), w = wasm.get(id);
  const r = ratioOf(n, w);
  const t = target(id);
  let met = '';
  if (t) {
    const vals = [n, w].filter(Boolean).map(x => x.value);
    met = vals.map(v => t[1](v) ? 'yes' : 'NO').join(' / ');
  }
  const ratioCell = r === null ? '—' : `${r.toFixed(2)}${r > 1.5 ? ' (>1.5)' : ''}`;
  rows.push([id, fmt(n), fmt(w), ratioCell, t ? t[2] : '', met]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map(r => String(r[c]).length)));
const line = r => '| ' + r.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
console.log(line(rows[0]));
console.log('|' + widths.map(w => '-'.repeat(w + 2)).join('|') + '|');
for (const r of rows.slice(1)) console.log(line(r));

if (page.size) {
  console.log('\nPage metrics (release build, headless Chromium):');
  const prow = [['metric', 'value', 'target', 'met?', 'note']];
  const wb = page.get('size.wasm.brotli'), jb = page.get('size.js.brotli');
  for (const [id, r] of page) {
    const t = target(id);
    prow.push([id, fmt(r), t ? t[2] : '', t ? (t[1](r.value) ? 'yes' : 'NO') : '', r.note.slice(0, 90)]);
  }
  if (wb && jb) {
    const tot = wb.value + jb.value;
    prow.push(['size.wasm+js.brotli', `${tot.toLocaleString('en-US')} B (${(tot / 1024).toFixed(1)} KiB)`, '≤ 200 KB now, ≤ 150 KB goal', `${tot <= 200 * 1024 ? 'yes' : 'NO'} / ${tot <= 150 * 1024 ? 'yes' : 'NO'}`, '']);
  }
  const pw = prow[0].map((_, c) => Math.max(...prow.map(r => String(r[c]).length)));
  const pl = r => '| ' + r.map((c, i) => String(c).padEnd(pw[i])).join(' | ') + ' |';
  console.log(pl(prow[0]));
  console.log('|' + pw.map(w => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of prow.slice(1)) console.log(pl(r));
}
