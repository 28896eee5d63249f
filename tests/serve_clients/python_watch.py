"""A driver for tests/recovery.rs: the official Python client (kubernetes==37.0.2) keeps a cache
of the ConfigMaps of one namespace.

    python python_watch.py [--page-size N] KUBECONFIG NAMESPACE

It lists with `limit` (N, 500 by default), following `_continue`, then watches with
`watch.Watch().stream(list_fn, resource_version=…)`, which resumes by itself from the last
resourceVersion it saw when a stream ends and re-sends once after an ERROR 410; when the library
raises `ApiException(410)` the driver lists again, as the library's docstring says to
(`kubernetes/watch/watch.py`). A continuation answered 410 starts the list again from its first
page; any other error is retried after 1 s (the library does not retry by itself), a watch from
the last resourceVersion the library kept. Speaks the driver protocol: one JSON line on stdout
whenever the cache changes, `{"cache":[["name","resourceVersion"],…]}` sorted by name;
`{"error":"…"}` for each error the library surfaces; exits 0 when stdin ends.
"""
import json
import os
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

args = sys.argv[1:]
page_size = 500
if len(args) >= 2 and args[0] == "--page-size":
    page_size = int(args[1])
    args = args[2:]
kubeconfig, ns = args[0], args[1]
config.load_kube_config(config_file=kubeconfig)
v1 = client.CoreV1Api()

out_lock = threading.Lock()
last = [None]
cache = {}


def out(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def emit():
    items = sorted([name, rv] for name, rv in cache.items())
    if items != last[0]:
        last[0] = items
        out({"cache": items})


def error(e):
    if isinstance(e, ApiException):
        out({"error": "%s: %s" % (e.status, e.reason)})
    else:
        out({"error": "%s: %s" % (type(e).__name__, e)})


def stdin_eof():
    for _ in sys.stdin:
        pass
    os._exit(0)


threading.Thread(target=stdin_eof, daemon=True).start()


def list_all():
    """Pages through the list; a continuation answered 410 starts again from the first page."""
    while True:
        items, token = {}, None
        try:
            while True:
                page = v1.list_namespaced_config_map(ns, limit=page_size, _continue=token)
                for o in page.items:
                    items[o.metadata.name] = o.metadata.resource_version
                token = page.metadata._continue
                if not token:
                    return items, page.metadata.resource_version
        except ApiException as e:
            error(e)
            if e.status != 410:
                time.sleep(1)
        except Exception as e:  # the connection broke
            error(e)
            time.sleep(1)


def relist():
    items, rv = list_all()
    cache.clear()
    cache.update(items)
    emit()
    return rv


rv = relist()
w = watch.Watch()
while True:
    try:
        for ev in w.stream(v1.list_namespaced_config_map, ns, resource_version=rv):
            o = ev["object"]
            if ev["type"] in ("ADDED", "MODIFIED"):
                cache[o.metadata.name] = o.metadata.resource_version
            elif ev["type"] == "DELETED":
                cache.pop(o.metadata.name, None)
            emit()
        rv = w.resource_version
    except ApiException as e:
        error(e)
        if e.status == 410:
            rv = relist()
            w = watch.Watch()
        else:
            time.sleep(1)
            rv = w.resource_version or rv
    except Exception as e:
        error(e)
        time.sleep(1)
        rv = w.resource_version or rv
