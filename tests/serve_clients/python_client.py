"""Drives `rvlab serve` with the official Kubernetes Python client (kubernetes==37.0.2).

Run by tests/serve_clients.rs: python_client.py KUBECONFIG SERVER_URL. Prints one JSON object
with what the client saw; the Rust test checks it and the server's recorded script.
"""
import json
import sys
import threading
import urllib.request

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

kubeconfig, server = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
v1 = client.CoreV1Api()
ns = "py"
seen = {}


def control(script):
    """Faults and settings through the control endpoint (script lines)."""
    req = urllib.request.Request(server + "/rvlab/v1/script", data=script.encode(), method="POST")
    with urllib.request.urlopen(req) as r:
        return [json.loads(l) for l in r.read().decode().splitlines() if l]


for name in ["p1", "p2", "p3"]:
    v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data={"k": name}))

# List with limit / _continue, following the tokens.
pages, token = [], None
while True:
    page = v1.list_namespaced_config_map(ns, limit=1, _continue=token)
    pages.append([i.metadata.name for i in page.items])
    token = page.metadata._continue
    if not token:
        break
seen["pages"] = pages

# A create of an existing name, and a replace with a stale resourceVersion: 409 both.
try:
    v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="p1")))
    seen["create_again"] = "no error"
except ApiException as e:
    seen["create_again"] = [e.status, json.loads(e.body)["reason"]]
old = v1.read_namespaced_config_map("p1", ns)
stale_rv = old.metadata.resource_version
old.data = {"k": "new"}
v1.replace_namespaced_config_map("p1", ns, old)
old.data = {"k": "stale"}
old.metadata.resource_version = stale_rv
try:
    v1.replace_namespaced_config_map("p1", ns, old)
    seen["stale_replace"] = "no error"
except ApiException as e:
    seen["stale_replace"] = [e.status, json.loads(e.body)["reason"]]

# A watch from a resourceVersion that etcd has compacted away (watch cache off, so the watch is
# served by etcd): ERROR 410. Without timeout_seconds the client re-sends the identical watch
# once, then raises ApiException(410); with timeout_seconds it raises at once.
first_rv = v1.read_namespaced_config_map("p2", ns).metadata.resource_version
control("set watch-cache off")
v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="p4")))
current = v1.list_namespaced_config_map(ns).metadata.resource_version
control("compact %s" % current)
for label, extra in [("watch_410", {}), ("watch_410_timeout", {"timeout_seconds": 5})]:
    events = []
    try:
        for ev in watch.Watch().stream(v1.list_namespaced_config_map, ns, resource_version=first_rv, **extra):
            events.append(ev["type"])
        seen[label] = ["ended", events]
    except ApiException as e:
        seen[label] = [e.status, events]
control("set watch-cache on")

# A watch across a write (made by another thread once the watch is open); the server ends the
# watch after timeoutSeconds, and the client's generator ends with it.
rv = v1.list_namespaced_config_map(ns).metadata.resource_version
threading.Timer(1.0, lambda: v1.create_namespaced_config_map(
    ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="p5")))).start()
got = []
for ev in watch.Watch().stream(v1.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=3):
    got.append([ev["type"], ev["object"].metadata.name])
seen["watch_after_write"] = got

print(json.dumps(seen))
