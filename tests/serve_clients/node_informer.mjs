// A driver for tests/recovery.rs: @kubernetes/client-node's informer keeps a cache of the
// ConfigMaps of one namespace.
//
//   node node_informer.mjs CLIENT_NODE_DIR KUBECONFIG NAMESPACE
//
// CLIENT_NODE_DIR holds node_modules/@kubernetes/client-node (1.4.0, the per-machine tool
// cache). The informer is `makeInformer` with the list function its README shows; it stops on
// an error, and the error handler starts it again after 5 s, as the library's examples do
// (`examples/typescript/informer/informer.ts`). Speaks the driver protocol: one JSON line on
// stdout whenever the cache changes, `{"cache":[["name","resourceVersion"],…]}` sorted by
// name; `{"error":"…"}` for each error the library surfaces; exits 0 when stdin ends.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , modDir, kubeconfig, ns] = process.argv;
const k8s = await import(
  pathToFileURL(join(modDir, 'node_modules/@kubernetes/client-node/dist/index.js')).href
);

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const api = kc.makeApiClient(k8s.CoreV1Api);
const path = `/api/v1/namespaces/${ns}/configmaps`;
const informer = k8s.makeInformer(kc, path, () => api.listNamespacedConfigMap({ namespace: ns }));

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
let last = null;
function emit() {
  const cache = informer
    .list(ns)
    .map((o) => [o.metadata.name, o.metadata.resourceVersion])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const text = JSON.stringify(cache);
  if (text !== last) {
    last = text;
    out({ cache });
  }
}
const describe = (e) => {
  if (e && typeof e === 'object') {
    const code = e.code ?? e.statusCode;
    const msg = e.message || (e.body && JSON.stringify(e.body)) || String(e);
    return code !== undefined ? `${code}: ${msg}` : msg;
  }
  return String(e);
};

for (const verb of ['add', 'update', 'delete']) informer.on(verb, () => emit());
informer.on('error', (e) => {
  out({ error: describe(e) });
  setTimeout(() => informer.start().then(emit, (err) => out({ error: describe(err) })), 5000);
});
// A relist that changes nothing calls no handler: look again now and then.
setInterval(emit, 200);
process.stdin.on('data', () => {});
process.stdin.on('end', () => {
  informer.stop();
  process.exit(0);
});
process.stdin.resume();
try {
  await informer.start();
  emit();
} catch (e) {
  out({ error: describe(e) });
  setTimeout(() => informer.start().then(emit, (err) => out({ error: describe(err) })), 5000);
}
