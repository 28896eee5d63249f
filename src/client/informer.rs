//! A client-go shared informer (spec §f): a [`Reflector`] feeding a queue that is processed into
//! the indexer and the event handlers, and the [`Informer`] driving API the script session and
//! the UI use.
//!
//! Owns the handler-side semantics:
//! * the indexer, keyed `namespace/name` (`MetaNamespaceKeyFunc`);
//! * `processDeltas`: an Added/Updated/Replaced/Sync delta for a key the indexer knows →
//!   `OnUpdate(old, new)` (even when nothing changed), for an unknown key → `OnAdd`; Deleted →
//!   `OnDelete` (also for a key the indexer did not have). There is no RV-based filtering;
//! * RealFIFO order (`InOrderInformers`, client-go ≥ 1.33): deltas are processed in arrival
//!   order, and a relist (`Replace`) is one atomic "replaced all" step (`processReplacedAllInfo`):
//!   first `OnDelete(DeletedFinalStateUnknown{key, obj})` for every known key missing from the
//!   list (in key order here; Go iterates a map), then `OnUpdate`/`OnAdd` for the listed objects
//!   in list order. Adds of the first Replace are flagged "in initial list";
//! * resync: `OnUpdate(obj, obj)` for every cached object, same RV.
//!
//! The queue is drained synchronously: in the simulation nothing can happen between a delta being
//! queued and it being processed.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::clock::{Duration, Instant};
use crate::cluster::Cluster;

use super::reflector::{Reflector, ReflectorMode, ReflectorStore};
use super::rest::{ResourcePath, Transport, obj_key, obj_name, obj_namespace, obj_rv};
use super::trace::{Decision, ListMode, LogLine, Trace};

/// client-go's `minimumResyncPeriod` (`tools/cache/shared_informer.go`): a shorter resync period
/// is raised to it, with a warning.
pub const MIN_RESYNC_PERIOD: Duration = Duration::from_secs(1);

/// How the informer's reflector gets its initial state (a script's `mode=legacy|streaming`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InformerMode {
    /// LIST (paginated), then WATCH from the list's resourceVersion (WatchListClient off).
    Legacy,
    /// A watch with `sendInitialEvents=true` (WatchListClient on, default from client-go 1.35).
    Streaming,
}

impl InformerMode {
    pub const ALL: [InformerMode; 2] = [InformerMode::Legacy, InformerMode::Streaming];

    /// The word a script line uses.
    pub fn as_str(self) -> &'static str {
        match self {
            InformerMode::Legacy => "legacy",
            InformerMode::Streaming => "streaming",
        }
    }

    /// The mode a script word names.
    pub fn parse(word: &str) -> Option<InformerMode> {
        InformerMode::ALL.into_iter().find(|m| m.as_str() == word)
    }
}

impl std::fmt::Display for InformerMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a handler call names an object: what `informer show` prints of it
/// (`[namespace/]name@resourceVersion`). Shared, not copied: an informer with a short resync
/// period makes hundreds of thousands of calls naming the same few objects.
pub type Label = Arc<str>;

/// One handler call. Each object is kept as its [`Label`], not as a copy: a copy of every object
/// per call would hold gigabytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Notification {
    Add {
        obj: Label,
        in_initial_list: bool,
    },
    Update {
        old: Label,
        new: Label,
        resync: bool,
    },
    Delete {
        obj: Label,
    },
    /// `OnDelete(DeletedFinalStateUnknown{Key, Obj})`: the key vanished from a relist.
    DeleteFinalStateUnknown {
        key: String,
        obj: Label,
    },
}

/// The indexer plus the handler notifications it caused (the queue's consumer).
#[derive(Debug, Clone, Default)]
pub struct Processor {
    indexer: BTreeMap<String, Value>,
    /// The [`Label`] of each object in the indexer, by the same key (a resync names every one).
    labels: BTreeMap<String, Label>,
    pub notifications: Vec<Notification>,
    /// Whether the first Replace was processed (`HasSynced`).
    pub synced: bool,
    /// Show names without the namespace (the informer watches one namespace).
    short_names: bool,
}

impl Processor {
    /// How a notification names an object: `name@rv`, or `namespace/name@rv` when the informer
    /// watches more than one namespace.
    fn label(&self, obj: &Value) -> Label {
        if self.short_names || obj_namespace(obj).is_empty() {
            format!("{}@{}", obj_name(obj), obj_rv(obj)).into()
        } else {
            format!("{}/{}@{}", obj_namespace(obj), obj_name(obj), obj_rv(obj)).into()
        }
    }

    /// `OnAdd a@5`, `OnUpdate a@5 → a@7`, `OnDelete DeletedFinalStateUnknown{key=default/a, obj=a@5}`.
    pub fn render(&self, n: &Notification) -> String {
        match n {
            Notification::Add { obj, in_initial_list: true } => format!("OnAdd {obj} (in initial list)"),
            Notification::Add { obj, .. } => format!("OnAdd {obj}"),
            Notification::Update { old, new, resync: true } => format!("OnUpdate {old} → {new} (resync)"),
            Notification::Update { old, new, .. } => format!("OnUpdate {old} → {new}"),
            Notification::Delete { obj } => format!("OnDelete {obj}"),
            Notification::DeleteFinalStateUnknown { key, obj } => {
                format!("OnDelete DeletedFinalStateUnknown{{key={key}, obj={obj}}}")
            }
        }
    }

    /// `processDeltas` for Added / Updated / Sync.
    fn upsert(&mut self, obj: Value) {
        let key = obj_key(&obj);
        let new = self.label(&obj);
        self.indexer.insert(key.clone(), obj);
        let n = match self.labels.insert(key, new.clone()) {
            Some(old) => Notification::Update { old, new, resync: false },
            None => Notification::Add { obj: new, in_initial_list: !self.synced },
        };
        self.notifications.push(n);
    }
}

impl ReflectorStore for Processor {
    fn add(&mut self, obj: Value) {
        self.upsert(obj);
    }

    fn update(&mut self, obj: Value) {
        self.upsert(obj);
    }

    fn delete(&mut self, obj: Value) {
        let key = obj_key(&obj);
        self.indexer.remove(&key);
        self.labels.remove(&key);
        let obj = self.label(&obj);
        self.notifications.push(Notification::Delete { obj });
    }

    fn replace(&mut self, items: Vec<Value>, _resource_version: &str) {
        let in_initial_list = !self.synced;
        let new_keys: BTreeSet<String> = items.iter().map(obj_key).collect();
        let gone: Vec<String> = self.indexer.keys().filter(|k| !new_keys.contains(*k)).cloned().collect();
        self.indexer.clear();
        let old = std::mem::take(&mut self.labels);
        for key in gone {
            if let Some(obj) = old.get(&key) {
                self.notifications.push(Notification::DeleteFinalStateUnknown { key, obj: obj.clone() });
            }
        }
        for obj in items {
            let key = obj_key(&obj);
            let new = self.label(&obj);
            let n = match old.get(&key) {
                Some(prev) => Notification::Update { old: prev.clone(), new: new.clone(), resync: false },
                None => Notification::Add { obj: new.clone(), in_initial_list },
            };
            self.notifications.push(n);
            self.indexer.insert(key.clone(), obj);
            self.labels.insert(key, new);
        }
        self.synced = true;
    }

    fn len(&self) -> usize {
        self.indexer.len()
    }

    fn resync(&mut self) {
        for obj in self.labels.values() {
            self.notifications.push(Notification::Update {
                old: obj.clone(),
                new: obj.clone(),
                resync: true,
            });
        }
    }
}

/// What `informer show` reports: the state now, and what is new since the previous show.
#[derive(Debug, Clone, PartialEq)]
pub struct InformerReport {
    pub name: String,
    /// What the reflector is doing, in a few words.
    pub state: String,
    /// `{"name","namespace","resourceVersion"}` of each cached object, in key order.
    pub store: Vec<Value>,
    pub last_sync_rv: String,
    /// New decisions.
    pub log: Vec<LogLine>,
    /// New requests, as `METHOD target → code`.
    pub requests: Vec<String>,
    /// New handler notifications, rendered.
    pub handlers: Vec<String>,
}

/// An informer: a reflector, its indexer and handlers, and the log of what it did.
#[derive(Debug, Clone)]
pub struct Informer {
    name: String,
    resource: String,
    namespace: Option<String>,
    mode: InformerMode,
    reflector: Reflector,
    processor: Processor,
    trace: Trace,
    shown_notifications: usize,
    started: bool,
    /// A `resync=` below [`MIN_RESYNC_PERIOD`] as asked for (it runs at the minimum).
    resync_raised_from: Option<Duration>,
}

impl Informer {
    /// An informer on `resource` (`pods`, `configmaps`) in `namespace` (or all namespaces) that
    /// talks to `apiservers` (0-based) through a load balancer: each new connection goes to the
    /// next one in the list (one entry = no load balancer). `seed` drives the watch timeouts and
    /// back-off jitter; `resync` re-delivers the cache every period. Nothing is sent before the
    /// first [`poll`](Self::poll).
    pub fn new(
        name: &str,
        resource: &str,
        namespace: Option<&str>,
        mode: InformerMode,
        apiservers: Vec<usize>,
        seed: u64,
        resync: Option<Duration>,
    ) -> Informer {
        let path = ResourcePath::new(resource, namespace);
        let rmode = match mode {
            InformerMode::Legacy => ReflectorMode::Legacy,
            InformerMode::Streaming => ReflectorMode::Streaming,
        };
        // `AddEventHandlerWithResyncPeriod`: 0 means no resync; anything else is at least 1 s.
        let resync = resync.filter(|d| d.as_millis() > 0);
        let resync_raised_from = resync.filter(|d| *d < MIN_RESYNC_PERIOD);
        let resync = resync.map(|d| d.max(MIN_RESYNC_PERIOD));
        Informer {
            name: name.to_string(),
            resource: resource.to_string(),
            namespace: path.namespace.clone(),
            mode,
            reflector: Reflector::new(path.clone(), apiservers, rmode, seed, resync, Instant(0)),
            processor: Processor { short_names: path.namespace.is_some(), ..Default::default() },
            trace: Trace::new(),
            shown_notifications: 0,
            started: false,
            resync_raised_from,
        }
    }

    /// Behave as client-go release 1.`minor` (the back-off's construction, how a watch's first
    /// ADDED events move its resourceVersion); `now`: when the informer is created.
    pub fn with_client_go(mut self, minor: u32, now: Instant) -> Informer {
        self.reflector.set_client_go(minor, now);
        self
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn mode(&self) -> InformerMode {
        self.mode
    }

    /// Does everything possible at the cluster's current time: send due requests, read frames,
    /// react. Never advances the clock.
    pub fn poll(&mut self, cluster: &mut Cluster) {
        self.poll_with(cluster);
    }

    /// [`poll`](Self::poll) through any [`Transport`] (a test may wrap the cluster to inject
    /// faults).
    pub fn poll_with(&mut self, cluster: &mut dyn Transport) {
        if !self.started {
            self.started = true;
            let mode = match self.mode {
                InformerMode::Legacy => ListMode::Legacy,
                InformerMode::Streaming => ListMode::Streaming,
            };
            let path = ResourcePath { resource: self.resource.clone(), namespace: self.namespace.clone() };
            let apiservers = self.reflector.apiservers().iter().map(|a| a + 1).collect();
            self.trace
                .note(cluster.now(), Decision::Start { collection: path.collection(), mode, apiservers });
            if let Some(requested) = self.resync_raised_from {
                let raised = Decision::ResyncRaised {
                    requested_ms: requested.as_millis(),
                    period_ms: MIN_RESYNC_PERIOD.as_millis(),
                };
                self.trace.note(cluster.now(), raised);
            }
        }
        self.reflector.poll(cluster, &mut self.processor, &mut self.trace);
    }

    /// How many objects its indexer holds (what a resync re-delivers).
    pub fn cached_objects(&self) -> usize {
        self.processor.len()
    }

    /// How often it resyncs by itself, while it runs (and resyncs at all).
    pub fn resync_period(&self) -> Option<Duration> {
        self.reflector.resync_period()
    }

    /// When it next wants to act by itself (end of a back-off, a `Retry-After`, resync), if ever.
    pub fn next_wakeup(&self) -> Option<Instant> {
        if !self.started {
            return Some(Instant(0));
        }
        self.reflector.next_wakeup()
    }

    pub fn stop(&mut self, cluster: &mut Cluster) {
        self.stop_with(cluster);
    }

    /// [`stop`](Self::stop) through any [`Transport`].
    pub fn stop_with(&mut self, cluster: &mut dyn Transport) {
        self.started = true;
        self.reflector.stop(cluster, &mut self.trace);
    }

    /// What is new since the previous `show` (decisions, requests, handler calls) plus the
    /// current state; moves past it.
    pub fn show(&mut self) -> InformerReport {
        let r = self.peek();
        self.trace.mark_shown();
        self.shown_notifications = self.processor.notifications.len();
        r
    }

    /// What [`show`](Self::show) would report, without marking anything as shown (for `expect
    /// informer <name> …`, which must not swallow the next show's lines).
    pub fn peek(&self) -> InformerReport {
        let store: Vec<Value> = self
            .processor
            .indexer
            .values()
            .map(
                |o| json!({"name": obj_name(o), "namespace": obj_namespace(o), "resourceVersion": obj_rv(o)}),
            )
            .collect();
        let from = self.shown_notifications.min(self.processor.notifications.len());
        let handlers: Vec<String> =
            self.processor.notifications[from..].iter().map(|n| self.processor.render(n)).collect();
        InformerReport {
            name: self.name.clone(),
            state: self.reflector.describe_state(),
            store,
            last_sync_rv: self.reflector.last_sync_rv().to_string(),
            log: self.trace.new_log().to_vec(),
            requests: self.trace.new_requests().iter().map(|r| r.render()).collect(),
            handlers,
        }
    }

    /// The connection breaks (`drop informer`): the watch ends without an ERROR frame and the
    /// next request goes out on a new connection (to the next apiserver behind the load
    /// balancer). The reflector reacts at the next poll.
    pub fn drop_connection(&mut self) {
        self.reflector.drop_connection();
    }

    pub fn last_sync_rv(&self) -> &str {
        self.reflector.last_sync_rv()
    }

    /// The apiserver (0-based) its current connection goes to.
    pub fn apiserver(&self) -> usize {
        self.reflector.apiserver()
    }

    /// The watch stream the informer currently reads, if any.
    pub fn watch_handle(&self) -> Option<crate::cluster::WatchHandle> {
        self.reflector.watch_handle()
    }

    /// What the reflector is doing, in a few words.
    pub fn state(&self) -> String {
        self.reflector.describe_state()
    }

    /// Names in the store, in key order.
    pub fn store_names(&self) -> Vec<String> {
        self.processor.indexer.values().map(|o| obj_name(o).to_string()).collect()
    }

    /// The cached objects, keyed `namespace/name`.
    pub fn store(&self) -> &BTreeMap<String, Value> {
        &self.processor.indexer
    }

    /// Everything logged so far (not only what is new since the last show).
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Every decision so far.
    pub fn decisions(&self) -> Vec<&Decision> {
        self.trace.log.iter().map(|l| &l.decision).collect()
    }

    /// Every request sent so far, as `GET <target> → <code>`.
    pub fn request_lines(&self) -> Vec<String> {
        self.trace.request_lines()
    }

    /// Every handler notification so far, rendered.
    pub fn handler_lines(&self) -> Vec<String> {
        self.processor.notifications.iter().map(|n| self.processor.render(n)).collect()
    }

    /// Every handler notification so far.
    pub fn notifications(&self) -> &[Notification] {
        &self.processor.notifications
    }

    /// Whether the first list / watch-list has been delivered (`HasSynced`).
    pub fn has_synced(&self) -> bool {
        self.processor.synced
    }
}
