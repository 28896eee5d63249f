//! One kube-apiserver: takes a request (method, URL, body), validates it, routes it to a read or
//! write path and returns the HTTP answer with an explanation of why it came out that way.
//! This file is the registry/handler layer (k8s.io/apiserver `registry/generic/registry` and
//! `endpoints/handlers`); storage is in [`super::etcd3`].

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::cacher::cache_watcher::CacheWatcher;
use super::cacher::delegator::{ListShape, ReadPath, get_semantics, route_get, route_list};
use super::cacher::{CacheView, Cacher};
use super::compactor::Compactor;
use super::continue_token::ContinueToken;
use super::decision::{EndReason, Ended, Outcome, Path, Rule, Semantics, Why};
use super::etcd3::{self, ListRequest, Preconditions, ReadAt, StorageError};
use super::features::Features;
use super::object;
use super::request::{ApiRequest, Verb, parse_request};
use super::resource::RESOURCES;
use super::resource::ResourceInfo;
use super::status::{FieldError, Status};
use super::validation;
use super::watch::{Frame, FrameType, WatchFilter, WatchSource, WatchStream};
use crate::clock::{Clock, Duration, Instant, Rng};
use crate::store::{MvccStore, RangeRequest, WatchCreateRequest};

/// An HTTP answer: status code, the headers that matter, the JSON body, and — for an accepted
/// watch — the id of the stream it opened.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub code: u16,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub watch: Option<u64>,
    /// Which path served the request and which rule decided the outcome (boxed: responses move
    /// around a lot, the decision is read once).
    pub why: Box<Why>,
}

impl ApiResponse {
    fn ok(code: u16, body: Value, why: Why) -> Self {
        ApiResponse { code, headers: vec![], body, watch: None, why: Box::new(why) }
    }

    pub fn from_status(status: &Status, why: Why) -> Self {
        let mut headers = vec![];
        if let Some(secs) = status.retry_after()
            && secs > 0
        {
            headers.push(("Retry-After".to_string(), secs.to_string()));
        }
        ApiResponse { code: status.code(), headers, body: status.to_json(), watch: None, why: Box::new(why) }
    }
}

/// What every request may touch: the shared etcd, clock and randomness, owned by the cluster.
pub struct Ctx<'a> {
    pub etcd: &'a mut MvccStore,
    pub clock: &'a mut Clock,
    /// Source of deterministic uids.
    pub uid_seq: &'a mut u64,
    pub seed: u64,
    pub rng: &'a mut Rng,
}

/// The behaviour switches of one apiserver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// The Kubernetes release whose default feature gates apply (§C.4).
    pub features: Features,
    /// `--watch-cache` (on by default).
    pub watch_cache: bool,
    /// How long the watch cache takes to (re)initialise after a restart.
    pub init_delay: Duration,
    /// Propagation delay from etcd to this apiserver's watch caches.
    pub cache_lag: Duration,
    /// A pinned ring capacity (`set cache.capacity N`).
    pub cache_capacity: Option<usize>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            features: Features::default(),
            watch_cache: true,
            init_delay: Duration::from_secs(1),
            cache_lag: Duration(0),
            cache_capacity: None,
        }
    }
}

/// What a picture shows of one watch stream on the server side (see `script::view`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchStreamView {
    pub resource: &'static str,
    /// Served by a cache watcher (else straight from an etcd watch).
    pub from_cache: bool,
    /// The RV a cache watcher started after.
    pub started_from: Option<i64>,
    /// Frames sent and not yet read by the client.
    pub unread: usize,
    /// Frames held in the cache watcher's channels while its consumer does not read, and how
    /// many fit before it is terminated as a slow consumer (2 × channel size + 1).
    pub buffered: usize,
    pub buffer_limit: usize,
    pub paused: bool,
    pub closed: bool,
    /// When the server ends it (`timeoutSeconds`), in simulated ms.
    pub deadline_ms: Option<u64>,
    /// When the next BOOKMARK is due, in simulated ms.
    pub next_bookmark_ms: Option<u64>,
}

/// One apiserver: its watch caches, its open watch streams, its compactor.
#[derive(Debug, Clone)]
pub struct ApiServer {
    /// 0-based position among the cluster's apiservers.
    pub index: usize,
    pub config: ServerConfig,
    cachers: BTreeMap<&'static str, Cacher>,
    watches: BTreeMap<u64, WatchStream>,
    /// Streams served straight from etcd that are still open (they have deadlines to watch).
    open_etcd_streams: std::collections::BTreeSet<u64>,
    next_watch: u64,
    pub compactor: Compactor,
}

/// `pods` keep their last state in a delete response; other types answer with a Status.
fn returns_deleted_object(info: &ResourceInfo) -> bool {
    info.resource == "pods"
}

fn key_prefix(info: &ResourceInfo, namespace: Option<&str>) -> String {
    match (info.namespaced, namespace) {
        (true, Some(ns)) => format!("/registry/{}/{}/", info.resource, ns),
        _ => format!("/registry/{}/", info.resource),
    }
}

fn object_key(info: &ResourceInfo, namespace: Option<&str>, name: &str) -> String {
    format!("{}{}", key_prefix(info, namespace), name)
}

fn storage_status(err: &StorageError, info: &ResourceInfo, name: &str) -> Status {
    match err {
        StorageError::KeyExists => Status::already_exists(info, name),
        StorageError::NotFound => Status::not_found(info, name),
        StorageError::Conflict => Status::conflict(info, name, Status::OBJECT_MODIFIED),
        StorageError::PreconditionFailed(msg) => Status::conflict(info, name, msg),
        StorageError::Compacted => Status::expired("The resourceVersion for the provided list is too old."),
        StorageError::TooLargeResourceVersion { requested, current } => {
            Status::too_large_resource_version(*requested, *current, 0)
        }
        StorageError::Internal(msg) => Status::internal_error(msg),
    }
}

/// §B: the checks the pod strategy makes that a playground user can trip over.
fn validate_pod(obj: &Value) -> Vec<FieldError> {
    let mut errs = vec![];
    let containers = obj.get("spec").and_then(|s| s.get("containers")).and_then(Value::as_array);
    match containers {
        None => errs.push(FieldError::required("spec.containers", "")),
        Some(list) if list.is_empty() => errs.push(FieldError::required("spec.containers", "")),
        Some(list) => {
            for (i, c) in list.iter().enumerate() {
                for field in ["name", "image"] {
                    if c.get(field).and_then(Value::as_str).is_none_or(str::is_empty) {
                        errs.push(FieldError::required(format!("spec.containers[{i}].{field}"), ""));
                    }
                }
            }
        }
    }
    errs
}

impl ApiServer {
    pub fn new(index: usize, config: ServerConfig, etcd: &mut MvccStore, now: Instant) -> Self {
        let mut s = ApiServer {
            index,
            config,
            cachers: BTreeMap::new(),
            watches: BTreeMap::new(),
            open_etcd_streams: Default::default(),
            next_watch: 0,
            compactor: Compactor::new(now),
        };
        if s.config.watch_cache {
            s.start_caches(etcd, now, Duration(0));
        }
        s
    }

    fn start_caches(&mut self, etcd: &mut MvccStore, now: Instant, init_delay: Duration) {
        for info in RESOURCES {
            let mut c = Cacher::new(info, etcd, now, init_delay);
            c.lag = self.config.cache_lag;
            c.set_capacity(self.config.cache_capacity);
            self.cachers.insert(info.resource, c);
        }
    }

    fn stop_caches(&mut self, etcd: &mut MvccStore, why: EndReason) {
        for c in self.cachers.values_mut() {
            c.stop(etcd, why);
        }
        // Frames already sent stay readable on the (now ended) streams.
        for (id, stream) in self.watches.iter_mut() {
            if let WatchSource::Cache(resource) = stream.source {
                if let Some(w) = self.cachers.get_mut(resource).and_then(|c| c.watcher_mut(*id)) {
                    w.buffered.truncate(w.chan_size);
                    stream.pending.extend(w.delivered.drain(..));
                    stream.pending.extend(w.buffered.drain(..));
                    stream.close_reason = w.close_reason.clone();
                }
                stream.source = WatchSource::Done;
                stream.closed = true;
            }
        }
        self.cachers.clear();
    }

    /// `--watch-cache` on or off.
    pub fn set_watch_cache(&mut self, on: bool, etcd: &mut MvccStore, now: Instant) {
        if on == self.config.watch_cache {
            return;
        }
        self.config.watch_cache = on;
        if on {
            self.start_caches(etcd, now, Duration(0));
        } else {
            self.stop_caches(etcd, EndReason::CacheOff);
        }
    }

    pub fn set_cache_lag(&mut self, lag: Duration) {
        self.config.cache_lag = lag;
        for c in self.cachers.values_mut() {
            c.lag = lag;
        }
    }

    pub fn set_cache_capacity(&mut self, pinned: Option<usize>) {
        self.config.cache_capacity = pinned;
        for c in self.cachers.values_mut() {
            c.set_capacity(pinned);
        }
    }

    /// The process restarts: every watch ends, the caches relist and are not ready for a while.
    pub fn restart(&mut self, etcd: &mut MvccStore, now: Instant) {
        self.stop_caches(etcd, EndReason::Restart);
        for w in self.watches.values_mut() {
            w.pump(etcd);
            let mut ended = Ended::new(EndReason::Restart);
            ended.path = Some(Path::Etcd);
            w.close(ended, etcd);
        }
        if self.config.watch_cache {
            let delay = self.config.init_delay;
            self.start_caches(etcd, now, delay);
        }
        // A restart keeps the apiserver's flags, the compactor's interval among them.
        let interval = self.compactor.interval;
        self.compactor = Compactor::new(now);
        self.compactor.set_interval(interval, now);
    }

    pub fn cache_views(&self, now: Instant) -> Vec<CacheView> {
        self.cachers.values().map(|c| c.view(self.index, now)).collect()
    }

    /// The apiserver learns of a compaction (through its compactor or `compact`).
    pub fn note_compaction(&mut self, rev: i64) {
        for c in self.cachers.values_mut() {
            if rev > c.known_compaction {
                c.known_compaction = rev;
            }
        }
    }

    /// Moves what etcd sent into the caches' lag queues, applies what has arrived, and lets
    /// etcd-direct watches pick up their events.
    pub fn sync(&mut self, etcd: &mut MvccStore, now: Instant) {
        for c in self.cachers.values_mut() {
            c.pull(etcd, now);
            c.apply_arrived(etcd, now);
        }
    }

    /// The earliest instant at which a lagging cache receives something.
    pub fn next_arrival(&self) -> Option<Instant> {
        self.cachers.values().filter_map(Cacher::next_arrival).min()
    }

    /// When the 1 s timer next has something to do here (a bookmark or a watch deadline).
    pub fn next_timer_due(&self) -> Option<Instant> {
        let caches = self.cachers.values().filter_map(Cacher::next_timer_due).min();
        let streams = self
            .open_etcd_streams
            .iter()
            .filter_map(|id| self.watches.get(id))
            .filter(|w| !w.closed)
            .filter_map(|w| w.deadline)
            .min();
        match (caches, streams) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// One tick of the 1 s timers: bookmarks and watch deadlines.
    pub fn tick(&mut self, etcd: &mut MvccStore, now: Instant) {
        for c in self.cachers.values_mut() {
            c.tick(now);
            for (id, reason) in c.collect_ended() {
                if let Some(stream) = self.watches.get_mut(&id) {
                    stream.closed = true;
                    stream.source = WatchSource::Done;
                    if stream.close_reason.is_none() {
                        stream.close_reason = reason;
                    }
                }
            }
        }
        let watches = &mut self.watches;
        self.open_etcd_streams.retain(|id| {
            let Some(w) = watches.get_mut(id) else { return false };
            if !w.closed && w.deadline.is_some_and(|d| now >= d) {
                w.pump(etcd);
                let mut ended = Ended::new(EndReason::Timeout);
                ended.path = Some(Path::Etcd);
                w.close(ended, etcd);
            }
            !w.closed
        });
    }

    fn cacher(&mut self, info: &ResourceInfo) -> Option<&mut Cacher> {
        self.cachers.get_mut(info.resource)
    }

    /// Serves one request.
    pub fn handle(
        &mut self,
        ctx: &mut Ctx<'_>,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> ApiResponse {
        let req = match parse_request(method, target, body) {
            Ok(r) => r,
            Err(status) => {
                let mut resp = ApiResponse::from_status(&status, Why::new(Rule::RequestRejected));
                resp.why.apiserver = self.index + 1;
                return resp;
            }
        };
        let verb = req.verb;
        let mut resp = match req.verb {
            Verb::Get => self.get(ctx, &req),
            Verb::List => self.list(ctx, &req),
            Verb::Watch => self.watch(ctx, req),
            Verb::Create => self.create(ctx, &req),
            Verb::Update => self.update(ctx, &req),
            Verb::Delete => self.delete(ctx, &req),
        };
        resp.why.apiserver = self.index + 1;
        resp.why.verb = Some(verb);
        resp
    }

    fn get(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let name = req.name.as_deref().unwrap_or("");
        let key = object_key(info, req.namespace.as_deref(), name);
        let rv = match req.options.resource_version.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match validation::parse_resource_version_for_get(s) {
                Ok(n) => Some(n),
                Err(status) => {
                    return ApiResponse::from_status(&status, Why::new(Rule::InvalidResourceVersion));
                }
            },
        };
        let now = ctx.clock.now();
        let cache_ready = self.cacher(info).is_some_and(|c| c.is_ready(now));
        let (mut path, rule) = route_get(rv, self.cachers.contains_key(info.resource));
        let mut why = Why::new(rule).semantics(get_semantics(rv));
        why.rv = rv.map(rv_i64);
        if !cache_ready && matches!(path, ReadPath::CacheAny | ReadPath::CacheMin(_)) {
            why = why.outcome(Outcome::CacheNotReady);
            path = match rv {
                Some(n) if n > 0 => ReadPath::EtcdNotOlderThan(n),
                _ => ReadPath::EtcdLatest,
            };
        }
        let result = match path {
            ReadPath::CacheAny | ReadPath::CacheMin(_) => {
                why = why.path(Path::WatchCache);
                let Some(c) = self.cachers.get_mut(info.resource) else {
                    return ApiResponse::from_status(&Status::internal_error("no watch cache"), why);
                };
                if let ReadPath::CacheMin(n) = path
                    && let Err(resp) = wait_fresh(c, n, ctx, why.clone())
                {
                    return resp;
                }
                why.cache_rv = Some(c.cache.resource_version());
                match c.cache.get(&key) {
                    Some(obj) => Ok(obj.clone()),
                    None => Err(StorageError::NotFound),
                }
            }
            ReadPath::EtcdNotOlderThan(n) => {
                why = why.path(Path::Etcd);
                etcd3::get(ctx.etcd, &key, ReadAt::NotOlderThan(n))
            }
            _ => {
                why = why.path(Path::Etcd);
                etcd3::get(ctx.etcd, &key, ReadAt::Latest)
            }
        };
        match result {
            Ok(obj) => {
                why.revision = object::resource_version(&obj).and_then(|r| r.parse().ok());
                ApiResponse::ok(200, object::canonical(info, obj), why)
            }
            Err(e) => {
                let why = storage_outcome(why, &e, ctx.etcd);
                ApiResponse::from_status(&storage_status(&e, info, name), why)
            }
        }
    }

    fn list(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let opts = &req.options;
        if let Err(status) =
            validation::validate_list_options(opts, Verb::List, self.config.features.watch_list)
        {
            return ApiResponse::from_status(&status, Why::new(Rule::InvalidListOptions));
        }
        let storage = match validation::check_list_storage_options_ruled(opts) {
            Ok(s) => s,
            Err((rule, status)) => return ApiResponse::from_status(&status, Why::new(rule)),
        };
        let token = storage.continue_token;
        let rv = opts.resource_version.as_deref().filter(|s| !s.is_empty()).map(|_| storage.resource_version);
        let shape = ListShape {
            rv,
            exact: opts.resource_version_match.as_deref() == Some("Exact"),
            not_older_than: opts.resource_version_match.as_deref() == Some("NotOlderThan"),
            limit: opts.limit,
            continue_rv: token.as_ref().map(|t| t.rv),
            has_selector: !opts.label_selector.is_empty(),
        };
        let now = ctx.clock.now();
        let has_cache = self.cachers.contains_key(info.resource);
        let (mut path, rule) = route_list(&shape, &self.config.features, has_cache);
        let mut why = Why::new(rule).semantics(shape.semantics());
        why.rv = match (shape.continue_rv, rv) {
            (Some(crv), _) => Some(crv),
            (None, rv) => rv.map(rv_i64),
        };
        let is_cache_path = matches!(
            path,
            ReadPath::CacheAny
                | ReadPath::CacheMin(_)
                | ReadPath::CacheConsistent
                | ReadPath::CacheSnapshot(_)
        );
        if is_cache_path && !self.cacher(info).is_some_and(|c| c.is_ready(now)) {
            if opts.limit > 0 && !shape.has_selector {
                path = match path {
                    ReadPath::CacheMin(n) => ReadPath::EtcdNotOlderThan(n),
                    ReadPath::CacheSnapshot(n) => ReadPath::EtcdAt(n),
                    _ => ReadPath::EtcdLatest,
                };
                why = why.outcome(Outcome::CacheNotReady);
            } else {
                let retry = self.cacher(info).map(|c| c.retry_after_seconds(now)).unwrap_or(1);
                why = why.outcome(Outcome::CacheInitializing).path(Path::WatchCache);
                why.retry_after = Some(retry.into());
                return ApiResponse::from_status(
                    &Status::too_many_requests("storage is (re)initializing", retry),
                    why,
                );
            }
        }
        let prefix = key_prefix(info, req.namespace.as_deref());
        let prefix_end = String::from_utf8_lossy(&etcd3::prefix_range_end(prefix.as_bytes())).into_owned();
        let start = token.as_ref().map(|t| t.start_key(&prefix)).unwrap_or_else(|| prefix.clone());
        let etcd_read = |at: ReadAt, ctx: &mut Ctx<'_>| {
            etcd3::list(
                ctx.etcd,
                &ListRequest {
                    key_prefix: &prefix,
                    at,
                    continue_from: token.as_ref(),
                    limit: opts.limit,
                    selector: &opts.label_selector,
                },
            )
        };
        why = why.path(if is_cache_path_of(path) { Path::WatchCache } else { Path::Etcd });
        let page = match path {
            ReadPath::EtcdLatest => etcd_read(ReadAt::Latest, ctx),
            ReadPath::EtcdNotOlderThan(n) => etcd_read(ReadAt::NotOlderThan(n), ctx),
            ReadPath::EtcdAt(n) => etcd_read(ReadAt::Exact(n), ctx),
            ReadPath::CacheAny => {
                let Some(c) = self.cachers.get(info.resource) else {
                    return ApiResponse::from_status(&Status::internal_error("no watch cache"), why);
                };
                why.cache_rv = Some(c.cache.resource_version());
                Ok(page_from(
                    c.state_from(&start, &prefix),
                    &prefix,
                    c.cache.resource_version(),
                    0,
                    &opts.label_selector,
                    |_| 0,
                ))
            }
            ReadPath::CacheMin(n) => {
                let Some(c) = self.cachers.get_mut(info.resource) else {
                    return ApiResponse::from_status(&Status::internal_error("no watch cache"), why);
                };
                if let Err(resp) = wait_fresh(c, n, ctx, why.clone()) {
                    return resp;
                }
                why.cache_rv = Some(c.cache.resource_version());
                Ok(page_from(
                    c.state_from(&start, &prefix),
                    &prefix,
                    c.cache.resource_version(),
                    opts.limit,
                    &opts.label_selector,
                    |after| c.cache.count_between(after, &prefix_end),
                ))
            }
            ReadPath::CacheConsistent => {
                let target = ctx.etcd.current_revision();
                let Some(c) = self.cachers.get_mut(info.resource) else {
                    return ApiResponse::from_status(&Status::internal_error("no watch cache"), why);
                };
                why.etcd_revision = Some(target);
                if c.wait_until_fresh(target, ctx.etcd, ctx.clock) {
                    why.cache_rv = Some(c.cache.resource_version());
                    Ok(page_from(
                        c.state_from(&start, &prefix),
                        &prefix,
                        c.cache.resource_version(),
                        opts.limit,
                        &opts.label_selector,
                        |after| c.cache.count_between(after, &prefix_end),
                    ))
                } else {
                    why.cache_rv = Some(c.cache.resource_version());
                    why = why.outcome(Outcome::ConsistentReadTimeout).path(Path::Etcd);
                    etcd_read(ReadAt::Latest, ctx)
                }
            }
            ReadPath::CacheSnapshot(n) => {
                let Some(c) = self.cachers.get_mut(info.resource) else {
                    return ApiResponse::from_status(&Status::internal_error("no watch cache"), why);
                };
                if let Err(resp) = wait_fresh(c, n, ctx, why.clone()) {
                    return resp;
                }
                let at = rv_i64(n);
                let snap_rev = c.cache.snapshot_revision(at, c.known_compaction);
                match c.cache.snapshot_range(at, c.known_compaction, &start, &prefix) {
                    Some(state) => {
                        why = why.path(Path::CacheSnapshot);
                        why.snapshot_rv = Some(snap_rev.unwrap_or(at));
                        let cache = &c.cache;
                        let known = c.known_compaction;
                        Ok(page_from(state, &prefix, at, opts.limit, &opts.label_selector, |after| {
                            cache.count_between_at(at, known, after, &prefix_end).unwrap_or(0)
                        }))
                    }
                    None => {
                        why = why.outcome(Outcome::SnapshotMissing).path(Path::Etcd);
                        etcd_read(ReadAt::Exact(n), ctx)
                    }
                }
            }
        };
        match page {
            Ok(page) => {
                let mut meta = Map::new();
                meta.insert("resourceVersion".into(), Value::String(page.resource_version.to_string()));
                if let Some(c) = &page.continue_token {
                    meta.insert("continue".into(), Value::String(c.clone()));
                }
                if let Some(n) = page.remaining_item_count {
                    meta.insert("remainingItemCount".into(), json!(n));
                }
                let items: Vec<Value> = page.items.into_iter().map(|o| object::canonical(info, o)).collect();
                let mut list = Map::new();
                list.insert("kind".into(), Value::String(info.list_kind.into()));
                list.insert("apiVersion".into(), Value::String(info.api_version()));
                list.insert("metadata".into(), Value::Object(meta));
                list.insert("items".into(), Value::Array(items));
                let body = Value::Object(list);
                why.revision = Some(page.resource_version);
                ApiResponse::ok(200, body, why)
            }
            Err(e) => {
                let status = match (&e, &token) {
                    (StorageError::Compacted, Some(tok)) => {
                        why = why.outcome(Outcome::ContinueCompacted);
                        why.compact_revision = ctx.etcd.compact_revision();
                        Status::expired_continue(&ContinueToken { rv: -1, start: tok.start.clone() }.encode())
                    }
                    _ => {
                        why = storage_outcome(why, &e, ctx.etcd);
                        storage_status(&e, info, "")
                    }
                };
                ApiResponse::from_status(&status, why)
            }
        }
    }

    fn watch(&mut self, ctx: &mut Ctx<'_>, mut req: ApiRequest) -> ApiResponse {
        let info = req.resource;
        let watch_list = self.config.features.watch_list;
        validation::default_watch_list(&mut req.options, watch_list);
        if let Err(status) = validation::validate_list_options(&req.options, Verb::Watch, watch_list) {
            return ApiResponse::from_status(&status, Why::new(Rule::InvalidListOptions));
        }
        let opts = &req.options;
        let rv = match opts.resource_version.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match validation::parse_resource_version_for_get(s) {
                Ok(n) => Some(n),
                Err(status) => {
                    return ApiResponse::from_status(&status, Why::new(Rule::InvalidResourceVersion));
                }
            },
        };
        let prefix = key_prefix(info, req.namespace.as_deref());
        let filter = WatchFilter {
            key_prefix: prefix.clone(),
            name: req.name.clone(),
            selector: opts.label_selector.clone(),
        };
        let now = ctx.clock.now();
        let timeout = match opts.timeout_seconds {
            Some(s) if s > 0 => Duration::from_secs(s as u64),
            _ => Duration::from_secs(ctx.rng.range(1800, 3600)),
        };
        let deadline = now + timeout;
        self.next_watch += 1;
        let wid = self.next_watch;
        if !self.cachers.contains_key(info.resource) {
            return self.watch_from_etcd(
                ctx,
                wid,
                EtcdWatchStart {
                    info,
                    filter,
                    rv,
                    send_initial_events: opts.send_initial_events,
                    allow_bookmarks: opts.allow_watch_bookmarks,
                    deadline,
                },
            );
        }
        let semantics = watch_semantics(rv, opts.send_initial_events);
        let Some(c) = self.cachers.get_mut(info.resource) else {
            return ApiResponse::from_status(
                &Status::internal_error("no watch cache"),
                Why::new(Rule::WatchCacheOff).semantics(semantics),
            );
        };
        if !c.is_ready(now) {
            let retry = c.retry_after_seconds(now);
            let mut why = Why::new(Rule::WatchStateFromCache)
                .semantics(semantics)
                .path(Path::WatchCache)
                .outcome(Outcome::CacheInitializing);
            why.rv = rv.map(rv_i64);
            why.retry_after = Some(retry.into());
            return ApiResponse::from_status(
                &Status::too_many_requests("storage is (re)initializing", retry),
                why,
            );
        }
        let chan = c.channel_size();
        let sie = opts.send_initial_events;
        let bookmarks = opts.allow_watch_bookmarks;
        let mut error: Option<(Status, Ended)> = None;
        let mut initial: Vec<Frame> = Vec::new();
        let mut end_bookmark = None;
        let start_rv: i64;
        // Wait for freshness where the table says so (§E.2).
        let wait_for = match (rv, sie) {
            (None, Some(_)) => Some(ctx.etcd.current_revision()),
            (Some(n), Some(true)) if n > 0 => Some(rv_i64(n)),
            _ => None,
        };
        if let Some(target) = wait_for
            && !c.wait_until_fresh(target, ctx.etcd, ctx.clock)
        {
            let cur = c.cache.resource_version();
            let mut ended = Ended::new(EndReason::CacheNotFresh);
            ended.rv = Some(target);
            ended.cache_rv = Some(cur);
            error = Some((Status::too_large_resource_version(rv_u64(target), rv_u64(cur), 1), ended));
        }
        let cache_rv = c.cache.resource_version();
        let with_state = matches!(sie, Some(true)) || (sie.is_none() && matches!(rv, None | Some(0)));
        let mut why = Why::new(Rule::WatchStateFromCache).semantics(semantics).path(Path::WatchCache);
        why.rv = rv.map(rv_i64);
        why.cache_rv = Some(cache_rv);
        if error.is_some() {
            start_rv = cache_rv;
            why.rule = if sie == Some(true) { Rule::WatchListFromCache } else { Rule::WatchNoInitialState };
            why = why.outcome(Outcome::CacheNotFresh);
            why.etcd_revision = wait_for;
            why.retry_after = Some(1);
        } else if with_state {
            for (_, obj) in c.state_from(&prefix, &prefix) {
                if filter.matches(obj) {
                    initial.push(Frame { kind: FrameType::Added, object: obj.clone() });
                }
            }
            start_rv = cache_rv;
            if sie == Some(true) && bookmarks {
                end_bookmark = Some(Frame::bookmark(info, cache_rv, true));
            }
            why.rule = if sie == Some(true) { Rule::WatchListFromCache } else { Rule::WatchStateFromCache };
            if sie == Some(true) {
                why.end_bookmark = Some(bookmarks);
            }
            if rv.is_none() && sie == Some(true) {
                why.etcd_revision = wait_for;
            }
            why.initial_events = Some(initial.len());
            why.key_order = Some(true);
            why.start_rv = Some(cache_rv);
        } else {
            match (rv, sie) {
                (None, Some(false)) => {
                    start_rv = wait_for.unwrap_or(cache_rv);
                    why.rule = Rule::WatchNoInitialState;
                    why.etcd_revision = wait_for;
                    why.start_rv = Some(start_rv);
                }
                (Some(0), _) => {
                    start_rv = cache_rv;
                    why.rule = Rule::WatchNoInitialState;
                    why.start_rv = Some(start_rv);
                }
                _ => {
                    let n = rv.map(rv_i64).unwrap_or(0);
                    start_rv = n;
                    why.oldest_startable_rv = Some(c.cache.oldest_startable_rv());
                    match c.cache.events_since(n) {
                        Err(status) => {
                            why.rule = Rule::WatchFromCacheHistory;
                            why = why.outcome(Outcome::CacheWindow);
                            let mut ended = Ended::new(EndReason::CacheWindow);
                            ended.rv = Some(n);
                            ended.oldest_startable_rv = Some(c.cache.oldest_startable_rv());
                            error = Some((status, ended));
                        }
                        Ok(evs) => {
                            for ev in evs {
                                if let Some(f) = ev.frame_for(&filter) {
                                    initial.push(f);
                                }
                            }
                            why.rule = if n > cache_rv {
                                Rule::WatchAheadOfCache
                            } else {
                                Rule::WatchFromCacheHistory
                            };
                            why.initial_events = Some(initial.len());
                            why.start_rv = Some(n.max(cache_rv));
                        }
                    }
                }
            }
        }
        // Events already covered by the replay (or skipped for a future rv) are not sent again.
        let mut w = CacheWatcher::new(
            info,
            filter.clone(),
            start_rv.max(cache_rv),
            bookmarks,
            ctx.clock.now(),
            deadline,
            chan,
        );
        w.started_from = start_rv;
        for f in initial {
            w.send_initial(f);
        }
        if let Some(b) = end_bookmark {
            w.send_initial(b);
        }
        if let Some((status, mut ended)) = error {
            w.send_initial(Frame::error(&status));
            ended.path = Some(Path::WatchCache);
            w.close(ended);
        }
        c.add_watcher(wid, w);
        let mut stream = WatchStream::new(info, filter, WatchSource::Cache(info.resource));
        stream.deadline = Some(deadline);
        self.watches.insert(wid, stream);
        let mut resp = ApiResponse::ok(200, Value::Null, why);
        resp.watch = Some(wid);
        resp
    }

    /// A watch served straight from etcd (no watch cache for the resource).
    fn watch_from_etcd(&mut self, ctx: &mut Ctx<'_>, wid: u64, start: EtcdWatchStart) -> ApiResponse {
        let EtcdWatchStart { info, filter, rv, send_initial_events, allow_bookmarks, deadline } = start;
        let prefix = filter.key_prefix.clone();
        let mut stream = WatchStream::new(info, filter.clone(), WatchSource::Done);
        stream.deadline = Some(deadline);
        let initial = send_initial_events == Some(true)
            || (send_initial_events.is_none() && matches!(rv, None | Some(0)));
        let mut why = Why::new(Rule::WatchFromEtcd)
            .semantics(watch_semantics(rv, send_initial_events))
            .path(Path::Etcd);
        why.rv = rv.map(rv_i64);
        let start_rev;
        if initial {
            // A consistent list, then a watch from its revision + 1.
            let cur = ctx.etcd.current_revision();
            let range_end = etcd3::prefix_range_end(prefix.as_bytes());
            if let Ok(resp) = ctx.etcd.range(&RangeRequest {
                key: prefix.clone().into_bytes(),
                range_end,
                ..Default::default()
            }) {
                for kv in &resp.kvs {
                    if let Some(obj) = object::decode_from_storage(&kv.value, kv.mod_revision)
                        && filter.matches(&obj)
                    {
                        stream.pending.push_back(Frame {
                            kind: FrameType::Added,
                            object: object::canonical(info, obj),
                        });
                    }
                }
            }
            why.rule = Rule::WatchListFromEtcd;
            why.initial_events = Some(stream.pending.len());
            why.key_order = Some(true);
            if send_initial_events == Some(true) && allow_bookmarks {
                stream.pending.push_back(Frame::bookmark(info, cur, true));
                why.end_bookmark = Some(true);
            }
            start_rev = cur.saturating_add(1);
            why.etcd_revision = Some(cur);
            why.start_rv = Some(cur);
        } else {
            let n = match (rv, send_initial_events) {
                (None, Some(false)) | (Some(0), Some(false)) => ctx.etcd.current_revision(),
                _ => rv.map(rv_i64).unwrap_or(0),
            };
            start_rev = n.saturating_add(1);
            why.start_rv = Some(n);
        }
        let id = ctx.etcd.watch(WatchCreateRequest {
            key: prefix.clone().into_bytes(),
            range_end: etcd3::prefix_range_end(prefix.as_bytes()),
            start_revision: start_rev,
            prev_kv: true,
            progress_notify: false,
        });
        stream.source = WatchSource::Etcd(id);
        stream.pump(ctx.etcd);
        self.open_etcd_streams.insert(wid);
        self.watches.insert(wid, stream);
        let mut resp = ApiResponse::ok(200, Value::Null, why);
        resp.watch = Some(wid);
        resp
    }

    fn create(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let Some(body) = &req.body else {
            return ApiResponse::from_status(
                &Status::bad_request(
                    "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
                ),
                Why::new(Rule::BodyRejected),
            );
        };
        let mut obj = match super::body::decode_object(info, req.namespace.as_deref(), None, body) {
            Ok(o) => o,
            Err(status) => return ApiResponse::from_status(&status, Why::new(Rule::BodyRejected)),
        };
        let name = object::name(&obj).to_string();
        if object::resource_version(&obj).is_some() {
            return ApiResponse::from_status(
                &Status::non_api_error("resourceVersion should not be set on objects to be created"),
                Why::new(Rule::ResourceVersionOnCreate),
            );
        }
        if info.resource == "pods" {
            let errs = validate_pod(&obj);
            if !errs.is_empty() {
                return ApiResponse::from_status(
                    &Status::invalid(info, &name, &errs),
                    Why::new(Rule::ObjectInvalid),
                );
            }
            if obj.get("status").is_none()
                && let Value::Object(m) = &mut obj
            {
                m.insert("status".into(), json!({"phase": "Pending", "qosClass": "BestEffort"}));
            }
        }
        *ctx.uid_seq += 1;
        object::set_meta(&mut obj, "uid", Value::String(object::make_uid(ctx.seed, *ctx.uid_seq)));
        object::set_meta(&mut obj, "creationTimestamp", Value::String(object::timestamp(ctx.clock.now())));
        if let (true, Some(ns)) = (info.namespaced, req.namespace.as_deref()) {
            object::set_meta(&mut obj, "namespace", Value::String(ns.to_string()));
        }
        let obj = object::canonical(info, obj);
        let key = object_key(info, req.namespace.as_deref(), &name);
        match etcd3::create(ctx.etcd, &key, &obj) {
            Ok(stored) => {
                let mut why = Why::new(Rule::Create).path(Path::Etcd);
                why.revision = stored_revision(&stored);
                ApiResponse::ok(201, object::canonical(info, stored), why)
            }
            Err(e) => {
                let why = storage_outcome(Why::new(Rule::Create).path(Path::Etcd), &e, ctx.etcd);
                ApiResponse::from_status(&storage_status(&e, info, &name), why)
            }
        }
    }

    fn update(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let url_name = req.name.as_deref().unwrap_or("");
        let Some(body) = &req.body else {
            return ApiResponse::from_status(
                &Status::bad_request(
                    "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
                ),
                Why::new(Rule::BodyRejected),
            );
        };
        let mut obj = match super::body::decode_object(info, req.namespace.as_deref(), Some(url_name), body) {
            Ok(o) => o,
            Err(status) => return ApiResponse::from_status(&status, Why::new(Rule::BodyRejected)),
        };
        let key = object_key(info, req.namespace.as_deref(), url_name);
        let expected = match object::resource_version(&obj) {
            None => None,
            Some(rv) => match rv.parse::<i64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    return ApiResponse::from_status(
                        &Status::bad_request(&format!("invalid resourceVersion in the object: {rv:?}")),
                        Why::new(Rule::InvalidResourceVersion),
                    );
                }
            },
        };
        let current = match etcd3::get(ctx.etcd, &key, ReadAt::Latest) {
            Ok(c) => c,
            Err(e) => {
                let why = storage_outcome(update_why(expected).path(Path::Etcd), &e, ctx.etcd);
                return ApiResponse::from_status(&storage_status(&e, info, url_name), why);
            }
        };
        if info.resource == "pods" {
            let errs = validate_pod(&obj);
            if !errs.is_empty() {
                return ApiResponse::from_status(
                    &Status::invalid(info, url_name, &errs),
                    Why::new(Rule::ObjectInvalid),
                );
            }
        }
        // System fields come from the stored object.
        for f in ["uid", "creationTimestamp", "namespace"] {
            if let Some(v) = object::metadata(&current).and_then(|m| m.get(f)).cloned() {
                object::set_meta(&mut obj, f, v);
            }
        }
        if info.resource == "pods"
            && obj.get("status").is_none()
            && let (Value::Object(m), Some(st)) = (&mut obj, current.get("status").cloned())
        {
            m.insert("status".into(), st);
        }
        let obj = object::canonical(info, obj);
        let cur_rv = stored_revision(&current);
        let mut why = update_why(expected).path(Path::Etcd);
        why.current_rv = cur_rv;
        match etcd3::update(ctx.etcd, &key, &obj, expected) {
            Ok((stored, true)) => {
                why.revision = stored_revision(&stored);
                ApiResponse::ok(200, object::canonical(info, stored), why)
            }
            Ok((stored, false)) => {
                why.rule = Rule::UpdateNoOp;
                why.revision = stored_revision(&stored);
                ApiResponse::ok(200, object::canonical(info, stored), why)
            }
            Err(e) => {
                let why = storage_outcome(why, &e, ctx.etcd);
                ApiResponse::from_status(&storage_status(&e, info, url_name), why)
            }
        }
    }

    fn delete(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let name = req.name.as_deref().unwrap_or("");
        let key = object_key(info, req.namespace.as_deref(), name);
        let pre = Preconditions {
            resource_version: req.delete_options.precondition_resource_version.clone(),
            uid: req.delete_options.precondition_uid.clone(),
        };
        let rule = if returns_deleted_object(info) { Rule::DeleteReturnsObject } else { Rule::Delete };
        let mut why = Why::new(rule).path(Path::Etcd);
        match etcd3::delete(ctx.etcd, &key, &pre) {
            Ok(last) => {
                why.revision = stored_revision(&last);
                if returns_deleted_object(info) {
                    ApiResponse::ok(200, object::canonical(info, last), why)
                } else {
                    let status = Status::success_deleted(info, name, object::uid(&last));
                    ApiResponse::ok(200, status.to_json(), why)
                }
            }
            Err(e) => {
                let why = storage_outcome(why, &e, ctx.etcd);
                ApiResponse::from_status(&storage_status(&e, info, name), why)
            }
        }
    }

    /// Reads every frame sent on watch `id` since the last read: the frames, whether the server
    /// has ended the stream, and whether the client is paused. `None` if there is no such watch.
    pub fn read_watch(&mut self, etcd: &mut MvccStore, id: u64) -> Option<(Vec<Frame>, bool)> {
        let stream = self.watches.get_mut(&id)?;
        match stream.source {
            WatchSource::Cache(resource) => {
                let w = self.cachers.get_mut(resource).and_then(|c| c.watcher_mut(id));
                match w {
                    Some(w) => {
                        let frames = w.read();
                        let closed = w.closed && w.buffered.is_empty() && w.delivered.is_empty();
                        if closed {
                            stream.closed = true;
                            stream.close_reason = w.close_reason.clone();
                        }
                        Some((frames, closed))
                    }
                    None => {
                        stream.closed = true;
                        Some((stream.pending.drain(..).collect(), true))
                    }
                }
            }
            _ => {
                let frames = stream.drain(etcd);
                Some((frames, stream.closed && stream.pending.is_empty()))
            }
        }
    }

    pub fn is_paused(&self, id: u64) -> bool {
        self.watches.get(&id).is_some_and(|s| s.paused)
    }

    /// Stops (or restarts) the client reading watch `id`.
    pub fn pause_watch(&mut self, id: u64, paused: bool) -> bool {
        let Some(stream) = self.watches.get_mut(&id) else { return false };
        stream.paused = paused;
        if let WatchSource::Cache(resource) = stream.source
            && let Some(w) = self.cachers.get_mut(resource).and_then(|c| c.watcher_mut(id))
        {
            if paused { w.pause() } else { w.resume() }
        }
        true
    }

    /// The client hangs up.
    pub fn cancel_watch(&mut self, etcd: &mut MvccStore, id: u64) -> bool {
        match self.watches.get_mut(&id) {
            Some(s) => {
                if let WatchSource::Cache(resource) = s.source
                    && let Some(w) = self.cachers.get_mut(resource).and_then(|c| c.watcher_mut(id))
                {
                    w.close(Ended::new(EndReason::Cancelled));
                }
                s.close(Ended::new(EndReason::Cancelled), etcd);
                true
            }
            None => false,
        }
    }

    /// What a picture shows of watch stream `id` (read only).
    pub fn watch_view(&self, id: u64) -> Option<WatchStreamView> {
        let stream = self.watches.get(&id)?;
        let cached = match stream.source {
            WatchSource::Cache(resource) => self.cachers.get(resource).and_then(|c| c.watcher(id)),
            _ => None,
        };
        Some(match cached {
            Some(w) => WatchStreamView {
                resource: stream.info.resource,
                from_cache: true,
                started_from: Some(w.started_from),
                unread: w.delivered.len(),
                buffered: w.buffered.len(),
                buffer_limit: w.in_flight_limit(),
                paused: stream.paused,
                closed: w.closed,
                deadline_ms: Some(w.deadline.0),
                next_bookmark_ms: w.next_bookmark.map(|t| t.0),
            },
            None => WatchStreamView {
                resource: stream.info.resource,
                from_cache: matches!(stream.source, WatchSource::Cache(_)),
                started_from: None,
                unread: stream.pending.len(),
                buffered: 0,
                buffer_limit: 0,
                paused: stream.paused,
                closed: stream.closed,
                deadline_ms: stream.deadline.map(|t| t.0),
                next_bookmark_ms: None,
            },
        })
    }

    /// Why watch `id` ended, if it has.
    pub fn watch_close_reason(&self, id: u64) -> Option<Ended> {
        let stream = self.watches.get(&id)?;
        let mut ended = match stream.source {
            WatchSource::Cache(resource) => match self.cachers.get(resource).and_then(|c| c.watcher(id)) {
                Some(w) => w.close_reason.clone(),
                None => stream.close_reason.clone(),
            },
            _ => stream.close_reason.clone(),
        }?;
        ended.apiserver = self.index + 1;
        Some(ended)
    }
}

/// `waitUntilFreshAndBlock` for a read that needs the cache at `n`: on timeout, the 504
/// `Too large resource version` with `Retry-After: 1` (§C.5).
fn wait_fresh(c: &mut Cacher, n: u64, ctx: &mut Ctx<'_>, why: Why) -> Result<(), ApiResponse> {
    if c.wait_until_fresh(rv_i64(n), ctx.etcd, ctx.clock) {
        return Ok(());
    }
    let cur = c.cache.resource_version();
    let mut why = why.outcome(Outcome::CacheNotFresh);
    why.cache_rv = Some(cur);
    why.retry_after = Some(1);
    Err(ApiResponse::from_status(&Status::too_large_resource_version(n, rv_u64(cur), 1), why))
}

/// A resourceVersion from a URL (u64) as an etcd revision (i64), saturating.
fn rv_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// An etcd revision as a resourceVersion, negatives as 0.
fn rv_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The revision a stored object carries in `metadata.resourceVersion`.
fn stored_revision(obj: &Value) -> Option<i64> {
    object::resource_version(obj).and_then(|r| r.parse().ok())
}

/// The rule of an update with (or without) the body's resourceVersion as precondition.
fn update_why(expected: Option<i64>) -> Why {
    let mut why = Why::new(if expected.is_some() { Rule::Update } else { Rule::UpdateUnconditional });
    why.rv = expected;
    why
}

/// The watch semantics of `rv` and `sendInitialEvents` (the docs' "Semantics for watch").
fn watch_semantics(rv: Option<u64>, send_initial_events: Option<bool>) -> Semantics {
    match (send_initial_events, rv) {
        (Some(true), _) => Semantics::SendInitialEvents,
        (_, None) => Semantics::MostRecent,
        (_, Some(0)) => Semantics::Any,
        (_, Some(_)) => Semantics::Exact,
    }
}

/// What a storage error means for the decision.
fn storage_outcome(why: Why, err: &StorageError, etcd: &MvccStore) -> Why {
    let mut why = why.outcome(match err {
        StorageError::KeyExists => Outcome::AlreadyExists,
        StorageError::NotFound => Outcome::NotFound,
        StorageError::Conflict => Outcome::Conflict,
        StorageError::PreconditionFailed(_) => Outcome::PreconditionFailed,
        StorageError::Compacted => Outcome::EtcdCompacted,
        StorageError::TooLargeResourceVersion { .. } => Outcome::TooLargeResourceVersion,
        StorageError::Internal(_) => Outcome::Internal,
    });
    match err {
        StorageError::Compacted => why.compact_revision = etcd.compact_revision(),
        StorageError::TooLargeResourceVersion { current, .. } => {
            why.etcd_revision = Some(i64::try_from(*current).unwrap_or(i64::MAX));
        }
        _ => {}
    }
    why
}

/// How a watch served by etcd starts.
struct EtcdWatchStart {
    info: &'static ResourceInfo,
    filter: WatchFilter,
    rv: Option<u64>,
    send_initial_events: Option<bool>,
    allow_bookmarks: bool,
    deadline: Instant,
}

fn is_cache_path_of(p: ReadPath) -> bool {
    matches!(
        p,
        ReadPath::CacheAny | ReadPath::CacheMin(_) | ReadPath::CacheConsistent | ReadPath::CacheSnapshot(_)
    )
}

/// A page of a cache-served list: key order, selector, `limit` with a token at `rv` (§D).
fn page_from<'a>(
    state: impl Iterator<Item = (&'a String, &'a Value)>,
    prefix: &str,
    rv: i64,
    limit: i64,
    selector: &super::selector::LabelSelector,
    count_after: impl FnOnce(&str) -> usize,
) -> etcd3::ListPage {
    let mut items = Vec::new();
    let mut last_key = None;
    let mut has_more = false;
    let mut remaining = 0i64;
    let mut state = state.peekable();
    while let Some((k, obj)) = state.next() {
        last_key = Some(k.clone());
        if selector.matches(&object::labels(obj)) {
            items.push(obj.clone());
        }
        if limit > 0 && items.len() as i64 >= limit && state.peek().is_some() {
            has_more = true;
            remaining = count_after(&format!("{k}\0")) as i64;
            break;
        }
    }
    let (continue_token, remaining_item_count) = match (has_more, last_key) {
        (true, Some(k)) => {
            let token = ContinueToken::after_key(&k, prefix, rv).map(|t| t.encode());
            (token, selector.is_empty().then_some(remaining))
        }
        _ => (None, None),
    };
    etcd3::ListPage { items, resource_version: rv, continue_token, remaining_item_count }
}
