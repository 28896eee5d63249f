//! Benchmarks: the same scenarios natively (`rvlab-bench`) and in the browser
//! (`tests/bench_web.rs`), so the two can be compared side by side (`./dev.sh bench`).
//!
//! Pure engine code: the caller passes its clock ([`Probes::now`], milliseconds as `f64`:
//! `std::time::Instant` natively, `performance.now()` in the browser) and, where it has them, a
//! heap counter and a resident-size reader. Nothing here asserts on time; every scenario returns
//! numbers ([`Row`]s) and the drivers print them. Each timed value is the median of
//! [`Config::reps`] runs unless the scenario says otherwise (the big lists and compaction run
//! fewer times because building their input dominates).

use crate::apiserver::etcd3::prefix_range_end;
use crate::apiserver::resource::CONFIGMAPS;
use crate::client::{Informer, InformerMode};
use crate::cluster::{Cluster, WatchHandle};
use crate::store::{MvccStore, PutRequest};

/// What the driver can measure with.
#[derive(Clone, Copy)]
pub struct Probes {
    /// A monotonic clock in milliseconds.
    pub now: fn() -> f64,
    /// Bytes currently allocated on the heap (a counting allocator), if known.
    pub heap: Option<fn() -> usize>,
    /// The process's resident set size in bytes, if known.
    pub rss: Option<fn() -> Option<u64>>,
}

/// Sizes of every scenario.
#[derive(Clone, Debug)]
pub struct Config {
    /// Creates (then as many updates) through `Cluster::request`.
    pub writes: usize,
    /// Open watches during the write scenario.
    pub write_watches: usize,
    /// Object counts for the 500-item page scenarios.
    pub list_sizes: Vec<usize>,
    /// Watches for the fan-out scenario, and writes delivered to them.
    pub fanout_watches: usize,
    pub fanout_writes: usize,
    /// Revisions to compact (spread over `compact_revs / 100` keys).
    pub compact_revs: usize,
    /// Objects an informer relists after a 410.
    pub relist_objects: usize,
    /// Object versions for the bytes-per-version measurement.
    pub memory_versions: usize,
    /// Objects preloaded before timing one console command (engine part).
    pub console_objects: usize,
    /// Repetitions for medians.
    pub reps: usize,
}

impl Config {
    /// Every scenario at tiny sizes: for CI, to keep the benchmarks compiling and running.
    pub fn smoke() -> Self {
        Config {
            writes: 200,
            write_watches: 10,
            list_sizes: vec![1_000, 2_000],
            fanout_watches: 50,
            fanout_writes: 5,
            compact_revs: 10_000,
            relist_objects: 1_000,
            memory_versions: 2_000,
            console_objects: 200,
            reps: 3,
        }
    }
    /// The issue's sizes (native).
    pub fn full() -> Self {
        Config {
            writes: 20_000,
            write_watches: 10,
            list_sizes: vec![10_000, 100_000, 1_000_000],
            fanout_watches: 1_000,
            fanout_writes: 50,
            compact_revs: 1_000_000,
            relist_objects: 100_000,
            memory_versions: 100_000,
            console_objects: 10_000,
            reps: 7,
        }
    }
    /// The same sizes in a browser tab, the 1M-object lists included: etcd and the watch cache
    /// hold under 1 KB of heap per object (the cache shares etcd's keys and bytes), so a million
    /// objects fit in wasm32's 4 GB (~0.7 GB of linear memory measured).
    pub fn web() -> Self {
        Config::full()
    }
    /// Every size multiplied by `f` (at least a few of each, so that every scenario still runs):
    /// `--scale=0.01` (`RVLAB_BENCH_SCALE` for `./dev.sh bench`) runs the whole pipeline quickly.
    pub fn scaled(self, f: f64) -> Self {
        let f = if f.is_finite() && f > 0.0 { f } else { 1.0 };
        let s = |n: usize, floor: usize| ((n as f64 * f).round() as usize).max(floor);
        Config {
            writes: s(self.writes, 100),
            write_watches: self.write_watches,
            list_sizes: self.list_sizes.iter().map(|&n| s(n, 1_000)).collect(),
            fanout_watches: s(self.fanout_watches, 10),
            fanout_writes: self.fanout_writes,
            compact_revs: s(self.compact_revs, 1_000),
            relist_objects: s(self.relist_objects, 100),
            memory_versions: s(self.memory_versions, 1_000),
            console_objects: s(self.console_objects, 100),
            reps: self.reps,
        }
    }
    /// Picks a config by name: `smoke`, `full` or `web`.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "smoke" => Some(Config::smoke()),
            "full" => Some(Config::full()),
            "web" => Some(Config::web()),
            _ => None,
        }
    }
}

/// One measured number. `id` is stable (the drivers join native and wasm rows on it).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub id: String,
    pub value: f64,
    pub unit: &'static str,
    pub note: String,
}

impl Row {
    fn new(id: impl Into<String>, value: f64, unit: &'static str, note: impl Into<String>) -> Self {
        Row { id: id.into(), value, unit, note: note.into() }
    }
    /// `BENCH\t<id>\t<value>\t<unit>\t<note>`: the line both drivers print.
    pub fn line(&self) -> String {
        format!("BENCH\t{}\t{}\t{}\t{}", self.id, self.value, self.unit, self.note.replace(['\t', '\n'], " "))
    }
}

/// The median of the samples (0 for none).
pub fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

const NS_PATH: &str = "/api/v1/namespaces/default/configmaps";

/// The stored bytes of configmap `name` (what the apiserver would have written).
pub fn configmap_json(name: &str, i: usize) -> String {
    format!(
        r#"{{"kind":"ConfigMap","apiVersion":"v1","metadata":{{"name":"{name}","namespace":"default","uid":"00000000-0000-4000-8000-{i:012x}","creationTimestamp":"2026-01-01T00:00:00Z","labels":{{"app":"bench","shard":"s{}"}}}},"data":{{"key":"value-{i}"}}}}"#,
        i % 16
    )
}

fn cm_name(i: usize) -> String {
    format!("cm-{i:07}")
}

fn cm_key(i: usize) -> Vec<u8> {
    cm_key_text(i).into_bytes()
}

/// The etcd key of configmap `i` in `default` (the apiserver's key layout).
fn cm_key_text(i: usize) -> String {
    CONFIGMAPS.object_key(Some("default"), &cm_name(i))
}

/// Writes `n` configmaps straight into etcd (in chunks, so the caches keep up without holding
/// a million queued events).
pub fn load_configmaps(c: &mut Cluster, from: usize, n: usize) {
    const CHUNK: usize = 10_000;
    let mut i = from;
    while i < from + n {
        let end = (i + CHUNK).min(from + n);
        c.with_etcd(|etcd| {
            for j in i..end {
                etcd.put(PutRequest {
                    key: cm_key(j),
                    value: configmap_json(&cm_name(j), j).into_bytes(),
                    ..Default::default()
                });
            }
        });
        i = end;
    }
}

fn ok(
    c: &mut Cluster,
    method: &str,
    target: &str,
    body: Option<&str>,
    want: u16,
) -> (serde_json::Value, Option<WatchHandle>) {
    let (r, h) = c.request(0, method, target, body);
    assert_eq!(r.code, want, "{method} {target}: {}", r.body);
    (r.body, h)
}

fn open_watches(c: &mut Cluster, n: usize) -> Vec<WatchHandle> {
    let rv = c.etcd().current_revision();
    (0..n)
        .map(|_| {
            let (_, h) = ok(
                c,
                "GET",
                &format!("{NS_PATH}?watch=true&resourceVersion={rv}&timeoutSeconds=36000"),
                None,
                200,
            );
            h.expect("a watch handle")
        })
        .collect()
}

/// Reads every watch; returns the frames delivered.
fn drain(c: &mut Cluster, ws: &[WatchHandle]) -> usize {
    ws.iter().map(|h| c.read_watch(*h).map_or(0, |(f, _)| f.len())).sum()
}

/// Runs every scenario, calling `emit` with each row as soon as it is known.
pub fn run_all(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    writes(cfg, p, emit);
    fanout(cfg, p, emit);
    compaction(cfg, p, emit);
    memory(cfg, p, emit);
    console(cfg, p, emit);
    history(cfg, p, emit);
    relist(cfg, p, emit);
    lists(cfg, p, emit);
}

/// The body the write scenario sends for configmap `i` (created with `v0`, updated to `v1`).
fn write_body(i: usize, value: &str) -> String {
    format!(
        r#"{{"metadata":{{"name":"{}","labels":{{"app":"bench"}}}},"data":{{"key":"{value}"}}}}"#,
        cm_name(i)
    )
}

/// Creates and updates per second through the object layer, cache on, `write_watches` open
/// watches read every 100 writes.
pub fn writes(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let mut c = Cluster::new();
    let ws = open_watches(&mut c, cfg.write_watches);
    let n = cfg.writes;
    let bodies: Vec<String> = (0..n).map(|i| write_body(i, "v0")).collect();
    let mut frames = 0;
    let t0 = (p.now)();
    for (i, b) in bodies.iter().enumerate() {
        ok(&mut c, "POST", NS_PATH, Some(b), 201);
        if i % 100 == 99 {
            frames += drain(&mut c, &ws);
        }
    }
    frames += drain(&mut c, &ws);
    let create_ms = (p.now)() - t0;
    assert_eq!(frames, n * ws.len(), "every create reaches every watch");
    let targets: Vec<String> = (0..n).map(|i| format!("{NS_PATH}/{}", cm_name(i))).collect();
    let bodies: Vec<String> = (0..n).map(|i| write_body(i, "v1")).collect();
    let t0 = (p.now)();
    for i in 0..n {
        ok(&mut c, "PUT", &targets[i], Some(&bodies[i]), 200);
        if i % 100 == 99 {
            frames += drain(&mut c, &ws);
        }
    }
    frames += drain(&mut c, &ws);
    let update_ms = (p.now)() - t0;
    assert_eq!(frames, 2 * n * ws.len(), "every update reaches every watch");
    let note = format!("{n} writes, cache on, {} watches", ws.len());
    emit(Row::new("write.create", n as f64 / (create_ms / 1000.0), "writes/s", note.clone()));
    emit(Row::new("write.update", n as f64 / (update_ms / 1000.0), "writes/s", note));
    store_writes(cfg, p, emit);
}

/// The store alone: puts per second with `write_watches` etcd watchers on the prefix (with
/// prev_kv, as the apiserver's caches ask), drained every 100 puts. Best of `reps` runs of
/// `10 * writes` puts.
pub fn store_writes(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let n = cfg.writes * 10;
    let keys: Vec<Vec<u8>> = (0..n).map(|i| cm_key(i % 10_000)).collect();
    let value = configmap_json(&cm_name(0), 0).into_bytes();
    let mut samples = Vec::new();
    for _ in 0..cfg.reps.min(3) {
        let mut s = MvccStore::new();
        let ids: Vec<_> = (0..cfg.write_watches)
            .map(|_| {
                s.watch(crate::store::WatchCreateRequest {
                    key: CONFIGMAPS.key_root().into_bytes(),
                    range_end: prefix_range_end(CONFIGMAPS.key_root().as_bytes()),
                    prev_kv: true,
                    ..Default::default()
                })
            })
            .collect();
        let mut events = 0;
        let t0 = (p.now)();
        for (i, k) in keys.iter().enumerate() {
            s.put(PutRequest { key: k.clone(), value: value.clone(), ..Default::default() });
            if i % 100 == 99 {
                for id in &ids {
                    events += s.take_watch_responses(*id).len();
                }
            }
        }
        for id in &ids {
            events += s.take_watch_responses(*id).len();
        }
        let dt = (p.now)() - t0;
        assert_eq!(events, n * ids.len());
        samples.push(n as f64 / (dt / 1000.0));
    }
    emit(Row::new(
        "write.store_put",
        median(samples),
        "writes/s",
        format!(
            "MvccStore::put of {n} writes (10k keys), {} prev_kv watchers drained every 100",
            cfg.write_watches
        ),
    ));
}

/// One write delivered to `fanout_watches` cache watches: time per delivered event (write,
/// cache dispatch and the clients' reads included).
pub fn fanout(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let mut c = Cluster::new();
    load_configmaps(&mut c, 0, 1);
    let ws = open_watches(&mut c, cfg.fanout_watches);
    let mut samples = Vec::new();
    for i in 0..cfg.fanout_writes {
        let t0 = (p.now)();
        c.with_etcd(|etcd| {
            etcd.put(PutRequest {
                key: cm_key(0),
                value: configmap_json(&cm_name(0), 1000 + i).into_bytes(),
                ..Default::default()
            })
        });
        let got = drain(&mut c, &ws);
        let dt = (p.now)() - t0;
        assert_eq!(got, ws.len());
        samples.push(dt * 1000.0 / ws.len() as f64);
    }
    emit(Row::new(
        "fanout.per_event",
        median(samples),
        "µs",
        format!("1 write → {} watches, median of {} writes", ws.len(), cfg.fanout_writes),
    ));
}

/// Store-level compaction of `compact_revs` revisions over `compact_revs / 100` keys.
pub fn compaction(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let revs = cfg.compact_revs;
    let keys = (revs / 100).max(1);
    let mut samples = Vec::new();
    let reps = if revs >= 500_000 { 3 } else { cfg.reps };
    for _ in 0..reps {
        let mut s = MvccStore::new();
        for i in 0..revs {
            s.put(PutRequest {
                key: CONFIGMAPS.object_key(Some("default"), &format!("k{:06}", i % keys)).into_bytes(),
                value: b"v".to_vec(),
                ..Default::default()
            });
        }
        let at = s.current_revision();
        let t0 = (p.now)();
        s.compact(at).expect("compact");
        samples.push((p.now)() - t0);
        assert_eq!(s.history_len(), keys);
    }
    emit(Row::new(
        "compact.store",
        median(samples),
        "ms",
        format!("{revs} revisions over {keys} keys, median of {reps}"),
    ));
}

/// Heap bytes per stored object version (store level) and the resident size.
pub fn memory(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let Some(heap) = p.heap else { return };
    let n = cfg.memory_versions;
    let value = configmap_json(&cm_name(0), 0);
    let before = heap();
    let mut s = MvccStore::new();
    for i in 0..n {
        // Half new keys, half updates: a realistic mix of index entries and versions.
        let k = if i % 2 == 0 { i } else { i - 1 };
        s.put(PutRequest { key: cm_key(k), value: value.clone().into_bytes(), ..Default::default() });
    }
    let after = heap();
    let per = after.saturating_sub(before) as f64 / n as f64;
    emit(Row::new(
        "mem.store.per_version",
        per,
        "B",
        format!(
            "{} B value, {n} versions of {} keys; overhead {:.0} B",
            value.len(),
            n / 2,
            per - value.len() as f64
        ),
    ));
    drop(s);
    cached_objects(cfg, p, emit);
}

/// Heap bytes per object of a cluster holding `memory_versions` configmaps (one version each),
/// watch cache on: etcd's backend and index plus the cache's state and history, everything one
/// more object costs. The same cluster with the watch cache off first: etcd's share.
pub fn cached_objects(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let Some(heap) = p.heap else { return };
    let n = cfg.memory_versions;
    let value_len = configmap_json(&cm_name(0), 0).len();
    {
        let mut c = Cluster::new();
        c.set(0, "watch-cache", "off").expect("watch-cache off");
        c.set(0, "compactor", "off").expect("compactor off");
        let before = heap();
        load_configmaps(&mut c, 0, n);
        let after = heap();
        assert_eq!(c.etcd().key_count(), n);
        emit(Row::new(
            "mem.etcd.per_object",
            after.saturating_sub(before) as f64 / n as f64,
            "B",
            format!(
                "{n} configmaps of ~{value_len} B in etcd alone (watch cache off): index, backend, value"
            ),
        ));
    }
    let mut c = Cluster::new();
    c.set(0, "compactor", "off").expect("compactor off");
    let before = heap();
    load_configmaps(&mut c, 0, n);
    let after = heap();
    let rev = c.etcd().current_revision();
    let (body, _) = ok(&mut c, "GET", &format!("{NS_PATH}?resourceVersion={rev}&limit=1"), None, 200);
    assert_eq!(
        body["metadata"]["remainingItemCount"].as_i64(),
        Some(n as i64 - 1),
        "the cache holds them all"
    );
    emit(Row::new(
        "mem.cache.per_object",
        after.saturating_sub(before) as f64 / n as f64,
        "B",
        format!("{n} configmaps of ~{value_len} B in etcd and the watch cache (history ring included)"),
    ));
}

/// The engine part of one console command with `console_objects` objects: a script line
/// (`etcd put`) and a 500-item list, as the UI's console runs them.
pub fn console(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let mut s = crate::script::Session::with_explain(true);
    for i in 0..cfg.console_objects {
        let line = format!("etcd put {} {}", cm_key_text(i), configmap_json(&cm_name(i), i));
        s.run_line(i + 1, &line);
    }
    let mut put = Vec::new();
    let mut list = Vec::new();
    for r in 0..cfg.reps {
        let i = cfg.console_objects + r;
        let line = format!("etcd put {} {}", cm_key_text(i), configmap_json(&cm_name(i), i));
        let t0 = (p.now)();
        s.run_line(i + 1, &line);
        put.push((p.now)() - t0);
        let t0 = (p.now)();
        s.run_line(i + 1, &format!("GET {NS_PATH}?limit=500"));
        list.push((p.now)() - t0);
    }
    let k = cfg.console_objects;
    emit(Row::new(
        "console.engine.put",
        median(put),
        "ms",
        format!("`etcd put` line at {k} objects (engine only)"),
    ));
    emit(Row::new(
        "console.engine.list500",
        median(list),
        "ms",
        format!("`GET …?limit=500` line at {k} objects (engine only)"),
    ));
}

/// The console's `etcd put` line for object `i` (the lines the history scenarios and the
/// browser's page metrics preload).
pub fn console_line(i: usize) -> String {
    format!("etcd put /registry/configmaps/default/{} {}", cm_name(i), configmap_json(&cm_name(i), i))
}

/// The engine part of the scrubber and of a reload, over a log of `console_objects` lines
/// (each an `etcd put`): the whole log run into a fresh session as one batch, keeping at most
/// one checkpoint (what a reload does), the same log typed line by line keeping
/// [`crate::script::session::Checkpoints`] on their spacing (what the console does), then one
/// step back from the end and a jump to the middle from those checkpoints, and the heap they
/// hold.
pub fn history(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    use crate::script::Session;
    use crate::script::session::Checkpoints;
    let n = cfg.console_objects;
    let lines: Vec<String> = (0..n).map(console_line).collect();
    let fresh = || Session::with_explain(true);
    let mut reload = Vec::new();
    for _ in 0..cfg.reps.min(3) {
        let t0 = (p.now)();
        let mut cps = Checkpoints::default();
        let s = cps.session_at(n, &lines, fresh);
        reload.push((p.now)() - t0);
        drop((s, cps));
    }
    let h0 = p.heap.map(|h| h());
    let t0 = (p.now)();
    let mut cps = Checkpoints::default();
    let mut s = fresh();
    for (i, l) in lines.iter().enumerate() {
        s.run_line(i + 1, l);
        cps.offer(i + 1, &s);
    }
    let typed = (p.now)() - t0;
    drop(s);
    let held = match (h0, p.heap) {
        (Some(h0), Some(h)) => Some(h().saturating_sub(h0)),
        _ => None,
    };
    let mut back = Vec::new();
    let mut middle = Vec::new();
    for k in 0..cfg.reps {
        let t0 = (p.now)();
        let s = cps.session_at(n.saturating_sub(1 + k), &lines, fresh);
        back.push((p.now)() - t0);
        drop(s);
        let t0 = (p.now)();
        let s = cps.session_at(n / 2 + k, &lines, fresh);
        middle.push((p.now)() - t0);
        drop(s);
    }
    let snaps = cps.positions().count();
    let every = cps.every();
    emit(Row::new(
        "history.replay",
        median(reload),
        "ms",
        format!("{n} console lines run into a fresh session, one checkpoint (the engine part of a reload)"),
    ));
    emit(Row::new(
        "history.typed",
        typed,
        "ms",
        format!("the same {n} lines one at a time, keeping checkpoints ({snaps} kept, every {every} lines)"),
    ));
    emit(Row::new(
        "history.step_back",
        median(back),
        "ms",
        format!("one scrubber step back at {n} lines (engine: copy of the nearest checkpoint + replay)"),
    ));
    emit(Row::new(
        "history.jump_middle",
        median(middle),
        "ms",
        format!("scrubber jump to line {} of {n}", n / 2),
    ));
    if let Some(held) = held {
        emit(Row::new(
            "history.checkpoint_heap",
            held as f64 / 1_048_576.0,
            "MiB",
            format!("heap held by the {snaps} checkpoints of a {n}-line log"),
        ));
    }
}

/// An informer over `relist_objects` objects: its watch is ended after a compaction, the
/// re-watch gets 410, and it relists. Timed from the 410 through the relisted store.
pub fn relist(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let n = cfg.relist_objects;
    let mut c = Cluster::new();
    c.set(0, "watch-cache", "off").expect("watch-cache off");
    load_configmaps(&mut c, 0, n);
    let mut inf =
        Informer::new("bench", "configmaps", Some("default"), InformerMode::Legacy, vec![0], 7, None);
    let t0 = (p.now)();
    inf.poll(&mut c);
    let initial = (p.now)() - t0;
    assert!(inf.has_synced(), "the informer synced");
    assert_eq!(inf.store().len(), n);
    c.advance(crate::clock::Duration::from_secs(2));
    let h = inf.watch_handle().expect("a watch");
    c.cancel_watch(h);
    // Two writes, then compaction at the second: the re-watch from lastSyncRV starts below it.
    load_configmaps(&mut c, n, 2);
    let rev = c.etcd().current_revision();
    c.compact(rev).expect("compact");
    let t0 = (p.now)();
    inf.poll(&mut c); // re-watch → ERROR 410 → back off
    let mut spins = 0;
    while inf.store().len() != n + 2 && spins < 10 {
        if let Some(t) = inf.next_wakeup() {
            let now = c.now();
            if t > now {
                c.advance(t.since(now));
            }
        }
        inf.poll(&mut c);
        spins += 1;
    }
    let cycle = (p.now)() - t0;
    assert_eq!(inf.store().len(), n + 2, "the relist brought the new objects");
    assert!(
        inf.decisions()
            .iter()
            .any(|d| matches!(d, crate::client::trace::Decision::ErrorFrame { error } if error.code == 410)),
        "the re-watch got a 410: {:?}",
        inf.decisions()
    );
    emit(Row::new(
        "informer.initial_list",
        initial,
        "ms",
        format!("legacy LIST+WATCH of {n} objects (watch cache off)"),
    ));
    emit(Row::new(
        "informer.410_relist",
        cycle,
        "ms",
        format!("410 → back off → relist of {} objects → Replace", n + 2),
    ));
}

/// A 500-item page at every size in `list_sizes` on the three read paths, first page and a
/// continuation, plus page(largest)/page(smallest).
pub fn lists(cfg: &Config, p: &Probes, emit: &mut dyn FnMut(Row)) {
    let mut firsts: Vec<(String, usize, f64)> = Vec::new();
    for &n in &cfg.list_sizes {
        let reps = cfg.reps;
        let time = |c: &mut Cluster, target: &str| -> (f64, serde_json::Value) {
            let mut samples = Vec::new();
            let mut body = serde_json::Value::Null;
            for _ in 0..reps {
                let t0 = (p.now)();
                let (b, _) = ok(c, "GET", target, None, 200);
                samples.push((p.now)() - t0);
                body = b;
            }
            assert_eq!(body["items"].as_array().map(Vec::len), Some(500.min(n)), "{target}");
            (median(samples), body)
        };
        let cont_of =
            |b: &serde_json::Value| b["metadata"]["continue"].as_str().unwrap_or_default().to_string();
        let mut record = |path: &str, first: f64, cont: Option<f64>, emit: &mut dyn FnMut(Row)| {
            emit(Row::new(
                format!("list.{path}.{n}"),
                first,
                "ms",
                format!("first 500-item page of {n}, median of {reps}"),
            ));
            if let Some(cm) = cont {
                emit(Row::new(
                    format!("list.{path}.cont.{n}"),
                    cm,
                    "ms",
                    format!("continuation page of {n}"),
                ));
            }
            firsts.push((path.to_string(), n, first));
        };
        // etcd Exact: a cluster whose watch cache is off from the start (so its pages are not
        // measured in a heap just vacated by a million cached objects).
        {
            let mut c = Cluster::new();
            c.set(0, "watch-cache", "off").expect("cache off");
            c.set(0, "compactor", "off").expect("compactor off");
            load_configmaps(&mut c, 0, n);
            let rev = c.etcd().current_revision();
            let (ex, body) = time(
                &mut c,
                &format!("{NS_PATH}?resourceVersionMatch=Exact&resourceVersion={rev}&limit=500"),
            );
            let (ex_c, _) = time(&mut c, &format!("{NS_PATH}?limit=500&continue={}", cont_of(&body)));
            record("etcd_exact", ex, Some(ex_c), emit);
        }
        let mut c = Cluster::new();
        c.set(0, "cache.capacity", "1000").expect("pin the ring");
        c.set(0, "compactor", "off").expect("compactor off");
        let t0 = (p.now)();
        load_configmaps(&mut c, 0, n);
        let load = (p.now)() - t0;
        emit(Row::new(
            format!("load.{n}"),
            load,
            "ms",
            format!("{n} configmaps written to etcd and taken up by the cache"),
        ));
        if n == *cfg.list_sizes.iter().max().unwrap_or(&n)
            && let Some(rss) = p.rss.and_then(|f| f())
        {
            emit(Row::new(
                format!("mem.rss.{n}"),
                rss as f64 / 1_048_576.0,
                "MiB",
                format!("resident size with {n} objects (etcd + watch cache)"),
            ));
        }
        let rev = c.etcd().current_revision();
        // Cache, NotOlderThan: the cache's current state.
        let (nt, _) = time(
            &mut c,
            &format!("{NS_PATH}?resourceVersionMatch=NotOlderThan&resourceVersion={rev}&limit=500"),
        );
        record("cache_notolder", nt, None, emit);
        // Cache snapshot: legacy limit + rv (Exact) with the cache on; the continuation too.
        let (snap, body) = time(&mut c, &format!("{NS_PATH}?resourceVersion={rev}&limit=500"));
        let (snap_c, _) = time(&mut c, &format!("{NS_PATH}?limit=500&continue={}", cont_of(&body)));
        record("cache_snapshot", snap, Some(snap_c), emit);
    }
    // page(n)/page(smallest) for every larger n (the issue's target is n = 1M, lo = 10k).
    let Some(&lo) = cfg.list_sizes.iter().min() else { return };
    for &hi in cfg.list_sizes.iter().filter(|&&n| n > lo) {
        for path in ["cache_notolder", "cache_snapshot", "etcd_exact"] {
            let get = |n: usize| firsts.iter().find(|(p, m, _)| p == path && *m == n).map(|x| x.2);
            if let (Some(a), Some(b)) = (get(lo), get(hi)) {
                emit(Row::new(
                    format!("list.{path}.ratio.{hi}"),
                    b / a,
                    "×",
                    format!("page({hi})/page({lo})"),
                ));
            }
        }
    }
}

/// A global allocator that counts live heap bytes, for the memory figures. Each benchmark binary
/// installs it: `#[global_allocator] static A: rvlab::bench::CountingAlloc = rvlab::bench::CountingAlloc;`
pub struct CountingAlloc;

static LIVE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Live heap bytes, when [`CountingAlloc`] is the global allocator.
pub fn live_heap_bytes() -> usize {
    LIVE_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

unsafe impl std::alloc::GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        LIVE_BYTES.fetch_sub(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.dealloc(p, l) }
    }
    unsafe fn alloc_zeroed(&self, l: std::alloc::Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.alloc_zeroed(l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: std::alloc::Layout, new: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new, std::sync::atomic::Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(l.size(), std::sync::atomic::Ordering::Relaxed);
        unsafe { std::alloc::System.realloc(p, l, new) }
    }
}
