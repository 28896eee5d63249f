// What the page scripts (page.mjs, profile.mjs) share: their `--name=value` options and a tiny
// static server for the built app on a free loopback port (127.0.0.1, port 0), never caching.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';

/// `--name=value` from `args` (as text), or `dflt`.
export const option = (args, name, dflt) => {
  const a = args.find(a => a.startsWith(`--${name}=`));
  return a ? a.split('=')[1] : dflt;
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

/// Serves the files under `dist` (nothing outside it); resolves to `{ server, url }`.
export async function serveDir(dist) {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const f = path.join(dist, path.normalize(p));
    if (!f.startsWith(dist) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': TYPES[path.extname(f)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(f).pipe(res);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
