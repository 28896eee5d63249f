// What the page scripts (page.mjs, profile.mjs, embeds.mjs) share: their `--name=value` options
// and a tiny static server for the built app on a free loopback port (127.0.0.1, port 0): never
// caching, or (compress: true) as a documentation host serves it.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';

/// `--name=value` from `args` (as text), or `dflt`.
export const option = (args, name, dflt) => {
  const a = args.find(a => a.startsWith(`--${name}=`));
  return a ? a.split('=')[1] : dflt;
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

/// Content-hashed file names (Trunk's `name-<hash>.ext`, `name-<hash>_bg.wasm`).
const HASHED = /-[0-9a-f]{12,}(_bg)?\.(js|wasm|css)$/;

/// Serves the files under `dist` (nothing outside it) at `prefix` (default `/`); resolves to
/// `{ server, url, encoding, hits }` (`hits`: how many requests each path got). `pages` maps paths outside the bundle to HTML texts (host pages).
/// With `compress`, as a documentation host serves a static site: each file brotli-compressed
/// (quality 11, once, kept in memory) when the browser accepts `br`, else gzip -9; content-hashed
/// files cacheable for a year (`immutable`), everything else revalidated (`no-cache`).
export async function serveDir(dist, { compress = false, pages = {}, prefix = '/' } = {}) {
  const packed = new Map(); // file → { br, gzip }
  const pack = f => {
    if (!packed.has(f)) {
      const buf = fs.readFileSync(f);
      packed.set(f, {
        br: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
        gzip: zlib.gzipSync(buf, { level: 9 }),
      });
    }
    return packed.get(f);
  };
  // Compressed before the first request, so no request waits for it.
  if (compress) {
    const walk = d => fs.readdirSync(d, { withFileTypes: true }).forEach(e => (e.isDirectory() ? walk(path.join(d, e.name)) : pack(path.join(d, e.name))));
    walk(dist);
  }
  const hits = new Map();
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    hits.set(p, (hits.get(p) || 0) + 1);
    if (pages[p] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(pages[p]);
      return;
    }
    if (!p.startsWith(prefix)) { res.writeHead(404); res.end(); return; }
    p = p.slice(prefix.length - 1);
    if (p.endsWith('/')) p += 'index.html';
    const f = path.join(dist, path.normalize(p));
    if (!f.startsWith(dist) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); res.end(); return; }
    const type = TYPES[path.extname(f)] || 'application/octet-stream';
    if (!compress) {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      fs.createReadStream(f).pipe(res);
      return;
    }
    const accepts = String(req.headers['accept-encoding'] || '');
    const enc = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    const cache = HASHED.test(f) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const body = enc ? pack(f)[enc] : fs.readFileSync(f);
    res.writeHead(200, { 'content-type': type, 'cache-control': cache, vary: 'accept-encoding', 'content-length': body.length, ...(enc ? { 'content-encoding': enc } : {}) });
    res.end(body);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/`, encoding: compress ? 'brotli q11 or gzip -9, as accepted' : 'uncompressed', hits };
}
