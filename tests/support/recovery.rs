//! The data of "How your client library recovers" (`site/src/concepts/client-libraries.md`):
//! what one run of a client library (or of the project's client-go model) under one fault sent,
//! summarised from its recorded session, and the chapter rendered from those summaries.
//! Included with `#[path]` by `tests/recovery.rs`, which makes the runs and checks that the
//! committed chapter is exactly the rendering of the committed data.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The namespace every run keeps its cache of.
pub const NS: &str = "rec";

/// The collection every library lists and watches.
pub fn collection() -> String {
    format!("/api/v1/namespaces/{NS}/configmaps")
}

/// The client libraries, in the chapter's column order (client-go's model first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lib {
    ClientGo,
    Python,
    ClientNode,
    KubeRs,
}

impl Lib {
    pub const ALL: [Lib; 4] = [Lib::ClientGo, Lib::Python, Lib::ClientNode, Lib::KubeRs];

    pub fn id(self) -> &'static str {
        match self {
            Lib::ClientGo => "client-go",
            Lib::Python => "python",
            Lib::ClientNode => "client-node",
            Lib::KubeRs => "kube-rs",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Lib::ClientGo => "client-go (rvlab's reflector model)",
            Lib::Python => "Python `kubernetes` 37.0.2",
            Lib::ClientNode => "`@kubernetes/client-node` 1.4.0",
            Lib::KubeRs => "kube-rs 5.0.0 (`Controller`)",
        }
    }
}

/// The five faults, in the chapter's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Drop,
    Expired,
    Restart,
    CompactWhilePaging,
    LaggingApiserver,
}

impl Fault {
    pub const ALL: [Fault; 5] =
        [Fault::Drop, Fault::Expired, Fault::Restart, Fault::CompactWhilePaging, Fault::LaggingApiserver];

    pub fn id(self) -> &'static str {
        match self {
            Fault::Drop => "drop",
            Fault::Expired => "expired",
            Fault::Restart => "restart",
            Fault::CompactWhilePaging => "compact-paging",
            Fault::LaggingApiserver => "lagging-apiserver",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Fault::Drop => "A dropped connection",
            Fault::Expired => "The window moved past its resourceVersion",
            Fault::Restart => "An apiserver restart",
            Fault::CompactWhilePaging => "A compaction while it pages a list",
            Fault::LaggingApiserver => "A lagging second apiserver behind a load balancer",
        }
    }

    /// What the run does, in prose (the schedule itself is in `tests/recovery.rs`).
    pub fn schedule(self) -> &'static str {
        match self {
            Fault::Drop => {
                "Five ConfigMaps, the library's cache filled, one create seen; then its watch's connection \
                 breaks (`drop wN`: no ERROR frame, the stream just ends) and a create, an update and a \
                 delete follow."
            }
            Fault::Expired => {
                "`set cache.capacity 2`: the watch cache keeps two events. The library's watch is dropped \
                 while `network watch-delay 3s` holds its re-watch on the wire, and four writes move the \
                 window past the resourceVersion it re-watches from: 410 on the re-watch."
            }
            Fault::Restart => {
                "`restart apiserver 1` ends every watch; its watch cache answers 429 (Retry-After: 1) \
                 until it has initialised; a create, an update and a delete happen meanwhile."
            }
            Fault::CompactWhilePaging => {
                "`set watch-cache off` (pages come from etcd), `network continue-delay 2s` (each \
                 continuation arrives 2 s late). Its watch is dropped and held 2 s while two writes and a compaction \
                 pass the revision it re-watches from: 410 (from etcd); the library relists, and once its first page is answered a write and a `compact` past \
                 that page's revision expire its continue token."
            }
            Fault::LaggingApiserver => {
                "`set apiservers 2`; the library starts on apiserver 1. Then the load balancer sends new \
                 connections to apiserver 2 (`apiserver 2`), whose watch cache lags 5 s \
                 (`set cache.lag 5s`); a create; the library's watch is dropped and its next requests \
                 reach the lagging apiserver with a resourceVersion it has not seen yet."
            }
        }
    }
}

/// One request as the chapter shows it: list or watch, the parameters that matter for load and
/// recovery, and the answer's code (ERROR frames are counted apart).
pub fn shape(target: &str, code: u64) -> Option<String> {
    let coll = collection();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path != coll {
        return None;
    }
    let pairs: Vec<(&str, &str)> =
        query.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    let get = |k: &str| pairs.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let rv = match get("resourceVersion") {
        None | Some("") => "\"\"",
        Some("0") => "\"0\"",
        Some(_) => "N",
    };
    let on = |k: &str| matches!(get(k), Some("true" | "1"));
    let s = if on("watch") {
        let mut s = format!("watch rv={rv}");
        if on("allowWatchBookmarks") {
            s.push_str(" bookmarks");
        }
        if on("sendInitialEvents") {
            s.push_str(" sendInitialEvents");
        }
        s
    } else {
        let mut s = format!("list rv={rv}");
        if let Some(l) = get("limit") {
            s.push_str(&format!(" limit={l}"));
        }
        if get("continue").is_some_and(|c| !c.is_empty()) {
            s.push_str(" continue");
        }
        s
    };
    Some(format!("{s} → {code}"))
}

/// What a run sent after the fault, summarised.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Every list and watch it sent after the fault, in order (`shape`).
    pub after: Vec<String>,
    /// Before the fault (its start: the first list and watch).
    pub before: Vec<String>,
    /// ERROR frames received after the fault, by code (`410`, …), in order.
    pub error_frames: Vec<u64>,
}

impl Summary {
    pub fn lists(&self) -> usize {
        self.after.iter().filter(|s| s.starts_with("list ")).count()
    }
    pub fn watches(&self) -> usize {
        self.after.iter().filter(|s| s.starts_with("watch ")).count()
    }
    /// Watch-lists (`sendInitialEvents=true`): a list's load, delivered as a watch.
    pub fn watch_lists(&self) -> usize {
        self.after.iter().filter(|s| s.contains("sendInitialEvents")).count()
    }
    pub fn answered(&self, code: u64) -> usize {
        let tail = format!("→ {code}");
        self.after.iter().filter(|s| s.ends_with(&tail)).count()
            + self.error_frames.iter().filter(|c| **c == code).count()
    }
    /// The deterministic part: the distinct request shapes after the fault.
    pub fn shapes(&self) -> BTreeSet<String> {
        self.after.iter().cloned().collect()
    }
}

/// Summarises a recorded session (`GET /rvlab/v1/script` and `?output=jsonl`) from line
/// `from` (0-based index into `record`) on.
pub fn summarise_record(record: &[String], outputs: &[Value], from: usize) -> Summary {
    let mut s = Summary::default();
    for out in outputs {
        let Some(n) = out["line"].as_u64() else { continue };
        let i = n as usize - 1;
        let Some(text) = record.get(i) else { continue };
        if let Some(target) = text.strip_prefix("GET ") {
            let target = target.split_whitespace().next().unwrap_or_default();
            if let Some(sh) = shape(target, out["code"].as_u64().unwrap_or(0)) {
                if i >= from { s.after.push(sh) } else { s.before.push(sh) }
            }
        } else if text.starts_with("events ") && i >= from {
            for ev in out["events"].as_array().into_iter().flatten() {
                if ev["type"] == "ERROR" {
                    s.error_frames.push(ev["object"]["code"].as_u64().unwrap_or(0));
                }
            }
        }
    }
    s
}

/// Summarises the client-go model: `informer show` prints the requests (`"GET target → code"`)
/// and log lines since the last `show`; `before` is the one just before the fault, `end` the
/// one at the end.
pub fn summarise_model(before: &Value, end: &Value) -> Summary {
    let strings = |v: &Value, k: &str| -> Vec<String> {
        v[k].as_array().into_iter().flatten().filter_map(|r| r.as_str().map(str::to_string)).collect()
    };
    let to_shape = |r: &String| {
        let rest = r.strip_prefix("GET ")?;
        let (target, code) = rest.split_once(" → ")?;
        shape(target, code.trim().parse().ok()?)
    };
    let error_frames = strings(end, "log")
        .iter()
        .filter(|l| l.contains("ERROR"))
        .filter_map(|l| {
            l.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 3).and_then(|w| w.parse().ok())
        })
        .collect();
    Summary {
        before: strings(before, "requests").iter().filter_map(to_shape).collect(),
        after: strings(end, "requests").iter().filter_map(to_shape).collect(),
        error_frames,
    }
}

/// One run's data file (`site/src/data/recovery/<lib>-<fault>.json`).
pub fn run_json(lib: Lib, fault: Fault, s: &Summary, recovered_ms: Option<u128>, errors: &[String]) -> Value {
    json!({
        "lib": lib.id(),
        "fault": fault.id(),
        "before": s.before,
        "after": s.after,
        "error_frames": s.error_frames,
        "recovered_ms": recovered_ms,
        "errors_surfaced": errors,
    })
}

pub fn summary_of(v: &Value) -> Summary {
    let strings = |k: &str| {
        v[k].as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_string)).collect()
    };
    Summary {
        before: strings("before"),
        after: strings("after"),
        error_frames: v["error_frames"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect(),
    }
}

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("site/src/data/recovery")
}

pub fn chapter_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("site/src/concepts/client-libraries.md")
}

fn read_run(lib: Lib, fault: Fault) -> Option<Value> {
    let text = std::fs::read_to_string(data_dir().join(format!("{}-{}.json", lib.id(), fault.id()))).ok()?;
    serde_json::from_str(&text).ok()
}

/// The committed data of one run, if there is one.
pub fn committed(lib: Lib, fault: Fault) -> Option<Value> {
    read_run(lib, fault)
}

/// `?script=` value: the query escape of the playground's config parser (`+` is a space there).
fn escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The session a row links to: the recorded script, opened in the playground.
fn session_link(lib: Lib, fault: Fault) -> String {
    let file = format!("{}-{}.rv", lib.id(), fault.id());
    let text = std::fs::read_to_string(data_dir().join(&file)).unwrap_or_default();
    format!("[open](../playground/index.html?script={}) · [`{file}`](../data/recovery/{file})", escape(&text))
}

fn cell_list(items: &[String]) -> String {
    if items.is_empty() {
        return "—".into();
    }
    // Runs of the same request, counted: `watch rv=N → 429` ×3.
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let mut j = i;
        while j < items.len() && items[j] == items[i] {
            j += 1;
        }
        let n = j - i;
        out.push(if n > 1 { format!("`{}` ×{n}", items[i]) } else { format!("`{}`", items[i]) });
        i = j;
    }
    out.join("<br>")
}

/// The chapter, rendered from the committed data and the prose around it.
pub fn render() -> String {
    let mut md = String::new();
    md.push_str(PREAMBLE);
    for fault in Fault::ALL {
        md.push_str(&format!("\n## {}\n\n{}\n\n", fault.title(), fault.schedule()));
        md.push_str("| library | requests after the fault | lists | 410 | 429 | ERROR frames | recovered in | session |\n");
        md.push_str("|---|---|---|---|---|---|---|---|\n");
        for lib in Lib::ALL {
            let Some(v) = read_run(lib, fault) else {
                md.push_str(&format!("| {} | not run | | | | | | |\n", lib.title()));
                continue;
            };
            let s = summary_of(&v);
            let frames: Vec<String> = s.error_frames.iter().map(u64::to_string).collect();
            let recovered = match v["recovered_ms"].as_u64() {
                Some(ms) if ms < 1000 => format!("{ms} ms"),
                Some(ms) => format!("{:.1} s", ms as f64 / 1000.0),
                None => "—".into(),
            };
            let lists = if s.watch_lists() > 0 {
                format!("{} (+{} watch-list)", s.lists(), s.watch_lists())
            } else {
                s.lists().to_string()
            };
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                lib.title(),
                cell_list(&s.after),
                lists,
                s.answered(410),
                s.answered(429),
                if frames.is_empty() { "—".into() } else { frames.join(", ") },
                recovered,
                session_link(lib, fault)
            ));
        }
    }
    md.push_str(POSTSCRIPT);
    md
}

const PREAMBLE: &str = r#"# How your client library recovers

<!-- Generated by `./dev.sh recovery` (tests/recovery.rs, tests/support/recovery.rs) from
     site/src/data/recovery/: edit those, not this file. -->

Each client library below keeps a cache of the ConfigMaps of one namespace through its own
watch machinery, against `rvlab serve` (HTTPS, the kubeconfig as written), and meets five
faults through the [control endpoint](../reference/serve.md#the-control-endpoint). Every number
and request in the tables comes from a recorded run (`./dev.sh recovery` writes them; `cargo
test --test recovery` runs them again and fails when a library's requests no longer have the
committed shapes), and every run ends with the library's cache equal to the server's state: the
same names at the same resourceVersions, nothing lost, nothing left over. The client-go row is
the project's own reflector model (`informer start …`) under the same schedule, run by
`rvlab run`; its session is a script. The model has no network to hold a request on, so where a
fault needs one (a re-watch that arrives late) it breaks the informer's connection twice within
a second instead: client-go then backs off before it relists, and the writes land meanwhile.

The libraries, as their own documentation says to use them:

- **Python** (`kubernetes==37.0.2`): a list with `limit` (2 per page here) following
  `_continue`, then `watch.Watch().stream(list_fn, resource_version=…)`, which re-sends the watch
  from the last resourceVersion it saw whenever a stream ends, and once more after an ERROR 410
  before it raises `ApiException(410)`; then the program lists again, as the library's docstring
  says to (`kubernetes/watch/watch.py`, 37.0.2). Other errors are the program's to retry (here:
  after 1 s, from the resourceVersion the library kept). The library asks for no bookmarks
  unless told to (`allow_watch_bookmarks=True`), and has no pager of its own: a continuation that
  answers 410 is the program's to handle (here: the list starts again from its first page).
- **client-node** (`@kubernetes/client-node` 1.4.0): `makeInformer` with the list function its
  README shows. Its `ListWatch` (`src/cache.ts`) lists once, unpaginated, then watches from the
  list's resourceVersion without bookmarks; when a watch ends cleanly it watches again from the
  last resourceVersion it saw, after a 410 it lists again, and on any other error it *stops* and
  calls the `error` handler: the program must start it again (here after 5 s, as the library's
  examples do), and `start()` watches again from where it was, listing only when it has no
  resourceVersion.
- **kube-rs** (5.0.0): `examples/controller.rs`, a `Controller` whose `watcher` feeds a
  `reflector` store, with the watcher's defaults but `page_size(2)`. Its watcher
  (`kube-runtime/src/watcher.rs`) lists with `limit` following `continue` at rv `""` (the default
  `ListSemantic::MostRecent`), watches with `allowWatchBookmarks=true`, re-watches from its last
  resourceVersion when a stream ends, and after a 410 starts again from an empty state: a new
  paginated list at `""`. Errors go to the program's stream, which retries with
  `DefaultBackoff` (800 ms doubling to 30 s, jittered, reset after 120 s).
- **client-go** (`tools/cache/reflector.go`): lists at `"0"` (or streams the list with
  `sendInitialEvents=true` where the WatchList feature is on, as in 1.37), watches with
  `allowWatchBookmarks=true`, backs off (800 ms doubling to 30 s, jittered) before it lists
  again, re-watches from its last resourceVersion after a clean end, and after a 410 relists at
  its last resourceVersion (from the watch cache), at `""` only when that list answers 410 or
  "too large resource version" (`setIsLastSyncResourceVersionUnavailable`).

A request is written `list rv=…` or `watch rv=…` (`N` is a resourceVersion the client had seen),
with `limit=`, `continue` (a continuation), `bookmarks` (`allowWatchBookmarks=true`) and
`sendInitialEvents` when it sent them, and the answer's code; `×3` counts identical requests in
a row. "lists" is the list requests the fault cost (each reads the whole collection from the
watch cache or, for `rv=""` without the cache, from etcd); "410" and "429" count answers and
ERROR frames with that code; "recovered in" is wall time from the fault to the cache equal to
the server's (it includes the program's own waits, and is not compared between runs).
"#;

const POSTSCRIPT: &str = r#"
## Where a library differs from client-go, and what it costs

- **No bookmarks → 410s on quiet resources.** Neither the Python client nor client-node asks for
  `allowWatchBookmarks`, so on a resource that does not change while others do, the
  resourceVersion they re-watch from falls out of the watch cache's window, and a reconnect
  after that is a 410 and a full relist. client-go and kube-rs ask for bookmarks on every watch
  (`reflector.go` `AllowWatchBookmarks: true`; `watcher.rs` `Config::default()` `bookmarks:
  true`), so their resourceVersion moves with the cache even when their objects do not. Python:
  `kubernetes/watch/watch.py` (37.0.2) sends only what the caller passes; client-node:
  `src/cache.ts` (1.4.0) `doneHandler` sends only `resourceVersion` (and selectors).
- **Relisting from `""` → etcd load.** client-node's informer relists with the program's list
  function, which sends no `resourceVersion`; kube-rs's watcher relists at `""` by default; the
  Python program does the same, because the library has no relist of its own. Each is a
  consistent read: from etcd with the watch cache off or before 1.31 (and, where the cache
  serves it, only after the cache has caught up with etcd's current revision). client-go
  relists at its last resourceVersion from the watch cache.
- **An error stops client-node's informer.** Any error other than a 410 (a 429 while the cache
  initialises, a 504 from a lagging apiserver, a broken connection) ends the informer until the
  program calls `start()` again (`src/cache.ts` `doneHandler`: the `ERROR` callbacks, then
  `return`); the delay is the program's choice, and meanwhile the cache is stale.
- **An ERROR frame other than 410 is ignored by client-node.** `watchHandler` (`src/cache.ts`)
  acts only on `code === 410`; when the stream then ends, `doneHandler` watches again at once
  from the same resourceVersion, with no back-off. A watch the apiserver keeps failing the same
  way (with the watch cache off, an update whose previous version was compacted is etcd3's
  500 `etcd event received with PrevKv=nil`) becomes a loop of watches as fast as the network
  allows, and the cache stays stale.
- **No pager in Python.** A continuation that answers 410 is an `ApiException` the program must
  handle (here: by listing again from the first page); client-go's pager makes one full list at
  the requested resourceVersion instead (`tools/pager/pager.go`, `FullListIfExpired`).
  client-node never pages.

Upstream: client-go `tools/cache/reflector.go`, `tools/pager/pager.go` (v0.34.0);
kubernetes-client/python `kubernetes/watch/watch.py` (v37.0.2); kubernetes-client/javascript
`src/cache.ts`, `src/watch.ts` (1.4.0); kube-rs `kube-runtime/src/watcher.rs` (5.0.0).
"#;
