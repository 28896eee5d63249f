// Drives `rvlab serve` with the official JavaScript client, @kubernetes/client-node 1.4.0.
//
// Run by tests/serve_tls.rs: node client_node.mjs CLIENT_NODE_DIR KUBECONFIG CONTROL_URL, where
// CLIENT_NODE_DIR holds node_modules/@kubernetes/client-node (the per-machine tool cache).
// Loads the kubeconfig as `rvlab serve` wrote it (HTTPS, certificate-authority-data), runs a
// makeInformer over the ConfigMaps of namespace `node` through writes and a watch the server
// ends, and prints one JSON object: the informer's cache and the server's list once they agree
// (or when the time is up), and the events the informer delivered.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , modDir, kubeconfig, control] = process.argv;
const k8s = await import(
  pathToFileURL(join(modDir, 'node_modules/@kubernetes/client-node/dist/index.js')).href
);

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const api = kc.makeApiClient(k8s.CoreV1Api);
const ns = 'node';
const seen = { events: [], errors: [] };

async function script(text) {
  const r = await fetch(control + '/rvlab/v1/script', { method: 'POST', body: text });
  return (await r.text()).split('\n').filter((l) => l).map((l) => JSON.parse(l));
}

const cm = (name, k) => ({ metadata: { name }, data: { k } });
for (const n of ['n1', 'n2', 'n3']) {
  await api.createNamespacedConfigMap({ namespace: ns, body: cm(n, n) });
}

const path = `/api/v1/namespaces/${ns}/configmaps`;
const informer = k8s.makeInformer(kc, path, () => api.listNamespacedConfigMap({ namespace: ns }));
for (const verb of ['add', 'update', 'delete']) {
  informer.on(verb, (o) => seen.events.push([verb, o.metadata.name, o.metadata.resourceVersion]));
}
// client-node's informer stops on an error; the handler restarts it, as its README shows.
informer.on('error', (e) => {
  seen.errors.push(String(e && (e.message || e)));
  setTimeout(() => informer.start().catch((err) => seen.errors.push(String(err))), 200);
});
await informer.start();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const names = (list) =>
  list
    .map((o) => [o.metadata.name, o.metadata.resourceVersion, o.data && o.data.k])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

// Writes while the informer watches: a create, an update, a delete.
await api.createNamespacedConfigMap({ namespace: ns, body: cm('n4', 'n4') });
const n1 = await api.readNamespacedConfigMap({ name: 'n1', namespace: ns });
n1.data = { k: 'changed' };
await api.replaceNamespacedConfigMap({ name: 'n1', namespace: ns, body: n1 });
await api.deleteNamespacedConfigMap({ name: 'n2', namespace: ns });

// The server ends the informer's watch (an apiserver restart), and writes happen while it
// is away; the informer must catch up.
await sleep(300);
seen.restart = (await script('restart apiserver 1')).map((o) => Object.keys(o));
await api.createNamespacedConfigMap({ namespace: ns, body: cm('n5', 'n5') });
await api.deleteNamespacedConfigMap({ name: 'n3', namespace: ns });

const deadline = Date.now() + 20000;
let cache = [];
let server = [];
while (Date.now() < deadline) {
  cache = names(informer.list(ns));
  try {
    server = names((await api.listNamespacedConfigMap({ namespace: ns })).items);
  } catch (e) {
    // 429 while the restarted apiserver's watch cache initializes (Retry-After: 1).
    seen.list_errors = (seen.list_errors || 0) + 1;
    await sleep(1000);
    continue;
  }
  if (JSON.stringify(cache) === JSON.stringify(server)) break;
  await sleep(100);
}
await informer.stop();
seen.cache = cache;
seen.server = server;
console.log(JSON.stringify(seen));
process.exit(0);
