//! One kube-apiserver, HTTP-shaped (k8s.io/apiserver `endpoints/handlers`): takes a request
//! (method, URL, body), parses and validates it, hands reads to the [`CacheDelegator`] and writes
//! to the [`registry`], and turns the result into the HTTP answer with its typed decision
//! ([`Why`]). It also owns the apiserver's lifecycle (its cachers, open watch streams, restart)
//! and its compactor.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::cacher::delegator::{CacheDelegator, ListShape, MatchShape, ReadCtx, ReadError, StartedWatch};
use super::cacher::{Cacher, ListArgs};
use super::compactor::Compactor;
use super::decision::{Rule, Why};
use super::etcd3::ListPage;
use super::features::Features;
use super::field_selector::{SelectableFields, SelectionPredicate};
use super::object;
use super::registry::{self, WriteCtx};
use super::request::{ApiRequest, ValueStyle, Verb};
use super::resource::ResourceInfo;
use super::status::Status;
use super::validation;
use super::watch::{WatchArgs, WatchFilter, WatchSource, WatchStream};
use crate::clock::{Clock, Duration, Instant, Rng};
use crate::store::MvccStore;

mod lifecycle;
mod streams;
pub use streams::WatchStreamView;

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
    /// A read that has waited for the watch cache already (`waited=` on its line).
    pub held: Option<crate::apiserver::cacher::Held>,
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

/// One apiserver: its watch caches, its open watch streams, its compactor.
#[derive(Debug, Clone)]
pub struct ApiServer {
    /// 0-based position among the cluster's apiservers.
    pub index: usize,
    pub config: ServerConfig,
    cachers: BTreeMap<&'static str, Cacher>,
    watches: BTreeMap<u64, WatchStream>,
    /// Streams served straight from etcd that are still open (they have deadlines to watch).
    open_etcd_streams: BTreeSet<u64>,
    next_watch: u64,
    pub compactor: Compactor,
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

    /// Serves one request.
    pub fn handle(
        &mut self,
        ctx: &mut Ctx<'_>,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> ApiResponse {
        self.handle_typed(ctx, method, target, None, body)
    }

    /// Serves one request with its `Content-Type` (a PATCH's patch type).
    pub fn handle_typed(
        &mut self,
        ctx: &mut Ctx<'_>,
        method: &str,
        target: &str,
        content_type: Option<&str>,
        body: Option<&str>,
    ) -> ApiResponse {
        let watch_list = self.config.features.watch_list;
        let style = ValueStyle::of_minor(self.config.features.minor);
        let parsed =
            validation::parse_and_validate_ruled(method, target, content_type, body, watch_list, style);
        let req = match parsed {
            Ok(r) => r,
            Err(rejection) => {
                let mut resp = ApiResponse::from_status(&rejection.status, Why::new(rejection.rule));
                resp.why.apiserver = self.index + 1;
                resp.why.verb = rejection.verb;
                if let Some(g) = rejection.gate {
                    resp.why.decided_by(g, self.config.features.enabled(g));
                }
                return resp;
            }
        };
        let verb = req.verb;
        let mut resp = match req.verb {
            Verb::Get => self.get(ctx, &req),
            Verb::List => self.list(ctx, &req),
            Verb::Watch => self.watch(ctx, req),
            Verb::DeleteCollection => self.delete_collection(ctx, &req),
            Verb::Create | Verb::Update | Verb::Delete | Verb::Patch => {
                let mut wctx =
                    WriteCtx { etcd: ctx.etcd, clock: ctx.clock, uid_seq: ctx.uid_seq, seed: ctx.seed };
                let (result, why) = match req.verb {
                    Verb::Create => registry::create(&mut wctx, &req),
                    Verb::Update => registry::update(&mut wctx, &req),
                    Verb::Patch => registry::patch(&mut wctx, &req),
                    _ => registry::delete(&mut wctx, &req),
                };
                match result {
                    Ok((code, body)) => ApiResponse::ok(code, body, why),
                    Err(status) => ApiResponse::from_status(&status, why),
                }
            }
        };
        resp.why.apiserver = self.index + 1;
        resp.why.verb = Some(verb);
        resp
    }

    /// The storage reads go through for `info`: its cacher (when the watch cache is on) over etcd.
    fn delegator(&mut self, info: &ResourceInfo) -> CacheDelegator<'_> {
        CacheDelegator::new(self.cachers.get_mut(info.resource), &self.config.features)
    }

    fn get(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let name = req.name.as_deref().unwrap_or("");
        let rv = match parse_rv(req.options.resource_version.as_deref()) {
            Ok(rv) => rv,
            Err(status) => return ApiResponse::from_status(&status, Why::new(Rule::InvalidResourceVersion)),
        };
        let key = info.object_key(req.namespace.as_deref(), name);
        let (result, why) = self.delegator(info).get(&mut ctx.read(), &key, rv);
        match result {
            Ok(obj) => ApiResponse::ok(200, object::canonical(info, obj), why),
            Err(ReadError::Storage(e)) => {
                let why = e.explain(why, ctx.etcd);
                ApiResponse::from_status(&e.to_status(info, name), why)
            }
            Err(ReadError::Api(status)) => ApiResponse::from_status(&status, why),
        }
    }

    fn list(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let opts = &req.options;
        let selector = match selection_predicate(req) {
            Ok(p) => p,
            Err(resp) => return *resp,
        };
        let storage = match validation::check_list_storage_options_ruled(opts) {
            Ok(s) => s,
            Err((rule, status)) => return ApiResponse::from_status(&status, Why::new(rule)),
        };
        let token = storage.continue_token;
        let shape = ListShape {
            rv: opts.resource_version.as_deref().filter(|s| !s.is_empty()).map(|_| storage.resource_version),
            rv_match: MatchShape::of(opts.resource_version_match.as_ref()),
            limit: opts.limit,
            continue_rv: token.as_ref().map(|t| t.rv),
            has_selector: !selector.is_empty(),
        };
        let prefix = info.key_prefix(req.namespace.as_deref());
        let args = ListArgs {
            prefix: &prefix,
            continue_from: token.as_ref(),
            limit: opts.limit,
            selector: &selector,
        };
        let (result, why) = self.delegator(info).list(&mut ctx.read(), &shape, &args);
        match result {
            Ok(page) => ApiResponse::ok(200, list_body(info, page), why),
            Err(ReadError::Storage(e)) => ApiResponse::from_status(&e.to_status(info, ""), why),
            Err(ReadError::Api(status)) => ApiResponse::from_status(&status, why),
        }
    }

    /// `DeleteCollection` of the generic registry (`registry/generic/registry/store.go`): the
    /// list the request's options select (through the same read path as a list), then one
    /// `Delete` per listed object in list order (one worker, `--delete-collection-workers=1`),
    /// each its own etcd transaction at its own revision; an object already gone is skipped.
    /// The answer is the list.
    fn delete_collection(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let listed = self.list(ctx, req);
        if listed.code != 200 {
            return listed;
        }
        let names: Vec<(Option<String>, String)> = listed
            .body
            .get("items")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .map(|o| (object::namespace(o).map(str::to_string), object::name(o).to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let mut wctx = WriteCtx { etcd: ctx.etcd, clock: ctx.clock, uid_seq: ctx.uid_seq, seed: ctx.seed };
        let mut why = Why::new(Rule::DeleteCollection);
        if req.dry_run {
            why.rule = Rule::DryRun;
        }
        for (ns, name) in names {
            let one = ApiRequest { verb: Verb::Delete, namespace: ns, name: Some(name), ..req.clone() };
            let (result, w) = registry::delete(&mut wctx, &one);
            match result {
                Ok(_) => why.revision = w.revision.or(why.revision),
                Err(status) if status.code() == 404 => {}
                Err(status) => return ApiResponse::from_status(&status, w),
            }
        }
        why.path = listed.why.path;
        ApiResponse::ok(200, listed.body, why)
    }

    /// A watch; its options are defaulted and validated already.
    fn watch(&mut self, ctx: &mut Ctx<'_>, req: ApiRequest) -> ApiResponse {
        let info = req.resource;
        let selector = match selection_predicate(&req) {
            Ok(p) => p,
            Err(resp) => return *resp,
        };
        let opts = &req.options;
        let rv = match parse_rv(opts.resource_version.as_deref()) {
            Ok(rv) => rv,
            Err(status) => return ApiResponse::from_status(&status, Why::new(Rule::InvalidResourceVersion)),
        };
        let filter = WatchFilter {
            key_prefix: info.key_prefix(req.namespace.as_deref()),
            name: req.name.clone(),
            selector,
        };
        let timeout = watch_timeout(opts.timeout_seconds)
            .unwrap_or_else(|| Duration::from_secs(ctx.rng.range(1800, 3600)));
        self.next_watch += 1;
        let id = self.next_watch;
        let args = WatchArgs {
            features: self.config.features,
            id,
            info,
            filter: filter.clone(),
            rv,
            send_initial_events: opts.send_initial_events,
            allow_bookmarks: opts.allow_watch_bookmarks,
            deadline: ctx.clock.now() + timeout,
            now: ctx.clock.now(),
        };
        let deadline = args.deadline;
        let (started, why) = self.delegator(info).watch(&mut ctx.read(), args);
        let stream = match started {
            Err(status) => return ApiResponse::from_status(&status, why),
            Ok(StartedWatch::Cache) => {
                let mut stream = WatchStream::new(info, filter, WatchSource::Cache(info.resource));
                stream.deadline = Some(deadline);
                stream
            }
            Ok(StartedWatch::Etcd(stream)) => {
                self.open_etcd_streams.insert(id);
                *stream
            }
        };
        self.watches.insert(id, stream);
        let mut resp = ApiResponse::ok(200, Value::Null, why);
        resp.watch = Some(id);
        resp
    }
}

impl Ctx<'_> {
    /// What a read may touch.
    fn read(&mut self) -> ReadCtx<'_> {
        ReadCtx { etcd: self.etcd, clock: self.clock, held: self.held }
    }
}

/// The list's or watch's selectors, with the field selector through the kind's field label
/// conversion (`endpoints/handlers/get.go` `ListResource`: after `ValidateListOptions`, a
/// conversion error is a 400 BadRequest with its text).
fn selection_predicate(req: &ApiRequest) -> Result<SelectionPredicate, Box<ApiResponse>> {
    let opts = &req.options;
    match opts.field_selector.convert(SelectableFields::of_resource(req.resource.resource)) {
        Ok(field) => Ok(SelectionPredicate { label: opts.label_selector.clone(), field }),
        Err(e) => Err(Box::new(ApiResponse::from_status(
            &Status::bad_request(&e.to_string()),
            Why::new(Rule::FieldSelectorNotSupported),
        ))),
    }
}

/// A `resourceVersion` query parameter for get and watch: unset or "" is `None`; anything else
/// must parse (a non-API 500 otherwise, as the storage layer answers).
fn parse_rv(rv: Option<&str>) -> Result<Option<u64>, Status> {
    match rv.filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => validation::parse_resource_version_for_get(s).map(Some),
    }
}

/// The `…List` object of one page.
fn list_body(info: &ResourceInfo, page: ListPage) -> Value {
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
    Value::Object(list)
}

/// The server's timeout for a watch with `timeoutSeconds` (upstream
/// `endpoints/request.GetTimeoutForWatch`): the seconds times `time.Second` in Go's int64
/// nanoseconds, which wraps; `None` when that is zero (or absent), and then the server picks a
/// random one in [`--min-request-timeout`, 2×). A negative timeout (upstream keeps allowing it)
/// is already over: the stream ends at the next tick of the timer.
pub fn watch_timeout(timeout_seconds: Option<i64>) -> Option<Duration> {
    let ns = timeout_seconds.unwrap_or(0).wrapping_mul(1_000_000_000);
    match ns {
        0 => None,
        ..0 => Some(Duration(0)),
        _ => Some(Duration(ns.unsigned_abs() / 1_000_000)),
    }
}
