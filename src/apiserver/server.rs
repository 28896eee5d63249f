//! One kube-apiserver: takes a request (method, URL, body), validates it, routes it to a read or
//! write path and returns the HTTP answer with an explanation of why it came out that way.
//! This file is the registry/handler layer (k8s.io/apiserver `registry/generic/registry` and
//! `endpoints/handlers`); storage is in [`super::etcd3`].

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::continue_token::ContinueToken;
use super::etcd3::{self, ListRequest, Preconditions, ReadAt, StorageError};
use super::object;
use super::request::{ApiRequest, Verb, parse_request};
use super::resource::ResourceInfo;
use super::status::{FieldError, Status};
use super::validation;
use super::watch::{Frame, WatchFilter, WatchSource, WatchStream};
use crate::clock::Clock;
use crate::store::{MvccStore, RangeRequest, WatchCreateRequest};

/// An HTTP answer: status code, the headers that matter, the JSON body, and — for an accepted
/// watch — the id of the stream it opened.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub code: u16,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub watch: Option<u64>,
    /// Which path served the request and which rule decided the outcome.
    pub explain: String,
}

impl ApiResponse {
    fn ok(code: u16, body: Value, explain: impl Into<String>) -> Self {
        ApiResponse { code, headers: vec![], body, watch: None, explain: explain.into() }
    }

    pub fn from_status(status: &Status, explain: impl Into<String>) -> Self {
        let mut headers = vec![];
        if let Some(secs) = status.retry_after() {
            if secs > 0 {
                headers.push(("Retry-After".to_string(), secs.to_string()));
            }
        }
        ApiResponse { code: status.code(), headers, body: status.to_json(), watch: None, explain: explain.into() }
    }
}

/// What every request may touch: the shared etcd and clock, owned by the cluster.
pub struct Ctx<'a> {
    pub etcd: &'a mut MvccStore,
    pub clock: &'a Clock,
    /// Source of deterministic uids.
    pub uid_seq: &'a mut u64,
    pub seed: u64,
}

/// The behaviour switches of one apiserver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// Server-side defaulting of ""/"0" watches to `sendInitialEvents=true` (WatchList, §C.1).
    pub watch_list: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig { watch_list: true }
    }
}

/// One apiserver and its open watch streams.
#[derive(Debug, Clone, Default)]
pub struct ApiServer {
    pub config: ServerConfig,
    watches: BTreeMap<u64, WatchStream>,
    next_watch: u64,
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
        StorageError::Compacted => {
            Status::expired("The resourceVersion for the provided list is too old.")
        }
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
                        errs.push(FieldError::required(&format!("spec.containers[{i}].{field}"), ""));
                    }
                }
            }
        }
    }
    errs
}

impl ApiServer {
    pub fn new(config: ServerConfig) -> Self {
        ApiServer { config, ..Default::default() }
    }

    /// Serves one request.
    pub fn handle(&mut self, ctx: &mut Ctx<'_>, method: &str, target: &str, body: Option<&str>) -> ApiResponse {
        let req = match parse_request(method, target, body) {
            Ok(r) => r,
            Err(status) => return ApiResponse::from_status(&status, "rejected while decoding the request"),
        };
        match req.verb {
            Verb::Get => self.get(ctx, &req),
            Verb::List => self.list(ctx, &req),
            Verb::Watch => self.watch(ctx, req),
            Verb::Create => self.create(ctx, &req),
            Verb::Update => self.update(ctx, &req),
            Verb::Delete => self.delete(ctx, &req),
        }
    }

    fn get(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let name = req.name.as_deref().unwrap_or("");
        let key = object_key(info, req.namespace.as_deref(), name);
        let (at, why) = match req.options.resource_version.as_deref() {
            None | Some("") => (ReadAt::Latest, "resourceVersion unset → Most recent: read from etcd at its current revision".to_string()),
            Some(rv) => match validation::parse_resource_version_for_get(rv) {
                Err(status) => return ApiResponse::from_status(&status, "the storage layer could not parse resourceVersion"),
                Ok(0) => (ReadAt::Latest, "resourceVersion=\"0\" → Any; with the watch cache off it is read from etcd".to_string()),
                Ok(n) => (ReadAt::NotOlderThan(n), format!("resourceVersion={n} → Not older than {n}: the current object from etcd, checked against {n}")),
            },
        };
        match etcd3::get(ctx.etcd, &key, at) {
            Ok(obj) => ApiResponse::ok(200, object::canonical(info, obj), why),
            Err(e) => ApiResponse::from_status(&storage_status(&e, info, name), format!("{why}; {e}")),
        }
    }

    fn list(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let opts = &req.options;
        if let Err(status) = validation::validate_list_options(opts, Verb::List, self.config.watch_list) {
            return ApiResponse::from_status(&status, "rejected by ListOptions validation (§C.1)");
        }
        let token = match opts.continue_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match ContinueToken::decode(t) {
                Ok(tok) => Some(tok),
                Err(e) => return ApiResponse::from_status(&Status::from(e), "the continue token could not be decoded (§D)"),
            },
        };
        let rv = match opts.resource_version.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match validation::parse_resource_version(s) {
                Ok(n) => Some(n),
                Err(status) => return ApiResponse::from_status(&status, "resourceVersion is not a number"),
            },
        };
        let prefix = key_prefix(info, req.namespace.as_deref());
        let exact = opts.resource_version_match.as_deref() == Some("Exact");
        let (at, why) = if let Some(tok) = &token {
            if tok.rv > 0 {
                (ReadAt::Exact(tok.rv as u64), format!("continue token (rv {}) → read etcd at the token's revision {} from its start key", tok.rv, tok.rv))
            } else {
                (ReadAt::Latest, "continue token with rv -1 → inconsistent continuation: read etcd at its current revision from the token's start key".to_string())
            }
        } else {
            match rv {
                None => (ReadAt::Latest, "resourceVersion unset → Most recent: read from etcd at its current revision".to_string()),
                Some(0) => (ReadAt::Latest, "resourceVersion=\"0\" → Any; with the watch cache off it is read from etcd at its current revision (limit honoured)".to_string()),
                Some(n) if exact => (ReadAt::Exact(n), format!("resourceVersionMatch=Exact → read etcd at revision {n}")),
                Some(n) if opts.limit > 0 && opts.resource_version_match.is_none() => (
                    ReadAt::Exact(n),
                    format!("limit with resourceVersion={n} and no resourceVersionMatch → the legacy Exact rule: read etcd at revision {n}"),
                ),
                Some(n) => (ReadAt::NotOlderThan(n), format!("resourceVersion={n} → Not older than {n}: read etcd at its current revision")),
            }
        };
        let page = etcd3::list(
            ctx.etcd,
            &ListRequest { key_prefix: &prefix, at, continue_from: token.as_ref(), limit: opts.limit, selector: &opts.label_selector },
        );
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
                let body = json!({"kind": info.list_kind, "apiVersion": info.api_version(), "metadata": Value::Object(meta), "items": items});
                ApiResponse::ok(200, body, format!("{why}; list resourceVersion {} is the revision the list is consistent at", page.resource_version))
            }
            Err(e) => {
                let status = match (&e, &token) {
                    (StorageError::Compacted, Some(tok)) => {
                        Status::expired_continue(&ContinueToken { rv: -1, start: tok.start.clone() }.encode())
                    }
                    _ => storage_status(&e, info, ""),
                };
                let because = match &e {
                    StorageError::Compacted => format!(
                        "410 from etcd compaction: revision {} was compacted (compact revision {})",
                        match at { ReadAt::Exact(n) | ReadAt::NotOlderThan(n) => n as i64, ReadAt::Latest => 0 },
                        ctx.etcd.compact_revision().unwrap_or(0)
                    ),
                    other => other.to_string(),
                };
                ApiResponse::from_status(&status, format!("{why}; {because}"))
            }
        }
    }

    fn watch(&mut self, ctx: &mut Ctx<'_>, mut req: ApiRequest) -> ApiResponse {
        let info = req.resource;
        validation::default_watch_list(&mut req.options, self.config.watch_list);
        if let Err(status) = validation::validate_list_options(&req.options, Verb::Watch, self.config.watch_list) {
            return ApiResponse::from_status(&status, "rejected by ListOptions validation (§C.1)");
        }
        let opts = &req.options;
        let rv = match opts.resource_version.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => match validation::parse_resource_version_for_get(s) {
                Ok(n) => Some(n),
                Err(status) => return ApiResponse::from_status(&status, "the storage layer could not parse resourceVersion"),
            },
        };
        let prefix = key_prefix(info, req.namespace.as_deref());
        let filter = WatchFilter { key_prefix: prefix.clone(), name: req.name.clone(), selector: opts.label_selector.clone() };
        let mut stream = WatchStream::new(info, filter.clone(), WatchSource::Done);
        let initial = opts.send_initial_events == Some(true) || matches!(rv, None | Some(0));
        let explain;
        let start_rev;
        if initial {
            // Consistent list, then watch from its revision + 1.
            let cur = ctx.etcd.current_revision();
            let range_end = etcd3::prefix_range_end(prefix.as_bytes());
            if let Ok(resp) = ctx.etcd.range(&RangeRequest { key: prefix.clone().into_bytes(), range_end, ..Default::default() }) {
                for kv in &resp.kvs {
                    if let Some(obj) = object::decode_from_storage(&kv.value, kv.mod_revision) {
                        if filter.matches(&obj) {
                            stream.pending.push_back(Frame { kind: super::watch::FrameType::Added, object: object::canonical(info, obj) });
                        }
                    }
                }
            }
            if opts.send_initial_events == Some(true) && opts.allow_watch_bookmarks {
                stream.pending.push_back(Frame::bookmark(info, cur, true));
            }
            start_rev = cur + 1;
            explain = format!("watch cache off → etcd: list at revision {cur} as initial ADDED events, then changes from revision {}", cur + 1);
        } else {
            let n = rv.unwrap_or(0) as i64;
            start_rev = n.saturating_add(1);
            explain = format!("watch from resourceVersion={n} → etcd watch starting strictly after {n} (at {})", start_rev);
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
        self.next_watch += 1;
        let wid = self.next_watch;
        self.watches.insert(wid, stream);
        let mut resp = ApiResponse::ok(200, Value::Null, explain);
        resp.watch = Some(wid);
        resp
    }

    fn create(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let Some(body) = &req.body else {
            return ApiResponse::from_status(&Status::bad_request("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"), "create needs a body");
        };
        let mut obj = match super::body::decode_object(info, req.namespace.as_deref(), None, body) {
            Ok(o) => o,
            Err(status) => return ApiResponse::from_status(&status, "the object in the body was rejected"),
        };
        let name = object::name(&obj).to_string();
        if object::resource_version(&obj).is_some() {
            return ApiResponse::from_status(
                &Status::non_api_error("resourceVersion should not be set on objects to be created"),
                "create with a resourceVersion in the body is refused by the storage layer",
            );
        }
        if info.resource == "pods" {
            let errs = validate_pod(&obj);
            if !errs.is_empty() {
                return ApiResponse::from_status(&Status::invalid(info, &name, &errs), "the pod failed validation");
            }
            if obj.get("status").is_none() {
                if let Value::Object(m) = &mut obj {
                    m.insert("status".into(), json!({"phase": "Pending", "qosClass": "BestEffort"}));
                }
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
                let rv = object::resource_version(&stored).unwrap_or("").to_string();
                ApiResponse::ok(201, stored, format!("created with Txn If(mod_revision({key})==0) Then Put → new revision {rv} is its resourceVersion"))
            }
            Err(e) => ApiResponse::from_status(&storage_status(&e, info, &name), format!("Txn If(mod_revision({key})==0) failed: the key exists")),
        }
    }

    fn update(&mut self, ctx: &mut Ctx<'_>, req: &ApiRequest) -> ApiResponse {
        let info = req.resource;
        let url_name = req.name.as_deref().unwrap_or("");
        let Some(body) = &req.body else {
            return ApiResponse::from_status(&Status::bad_request("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"), "update needs a body");
        };
        let mut obj = match super::body::decode_object(info, req.namespace.as_deref(), Some(url_name), body) {
            Ok(o) => o,
            Err(status) => return ApiResponse::from_status(&status, "the object in the body was rejected"),
        };
        let key = object_key(info, req.namespace.as_deref(), url_name);
        let expected = match object::resource_version(&obj) {
            None => None,
            Some(rv) => match rv.parse::<i64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    return ApiResponse::from_status(
                        &Status::bad_request(&format!("invalid resourceVersion in the object: {rv:?}")),
                        "the body's resourceVersion is not a number",
                    );
                }
            },
        };
        let current = match etcd3::get(ctx.etcd, &key, ReadAt::Latest) {
            Ok(c) => c,
            Err(e) => return ApiResponse::from_status(&storage_status(&e, info, url_name), "update of an object that does not exist"),
        };
        if info.resource == "pods" {
            let errs = validate_pod(&obj);
            if !errs.is_empty() {
                return ApiResponse::from_status(&Status::invalid(info, url_name, &errs), "the pod failed validation");
            }
        }
        // System fields come from the stored object.
        for f in ["uid", "creationTimestamp", "namespace"] {
            if let Some(v) = object::metadata(&current).and_then(|m| m.get(f)).cloned() {
                object::set_meta(&mut obj, f, v);
            }
        }
        if info.resource == "pods" && obj.get("status").is_none() {
            if let (Value::Object(m), Some(st)) = (&mut obj, current.get("status").cloned()) {
                m.insert("status".into(), st);
            }
        }
        let obj = object::canonical(info, obj);
        let cur_rv = object::resource_version(&current).unwrap_or("0").to_string();
        match etcd3::update(ctx.etcd, &key, &obj, expected) {
            Ok((stored, true)) => {
                let rv = object::resource_version(&stored).unwrap_or("").to_string();
                let cond = match expected {
                    Some(n) => format!("Txn If(mod_revision=={n}) Then Put"),
                    None => "no resourceVersion in the body → unconditional update".to_string(),
                };
                ApiResponse::ok(200, object::canonical(info, stored), format!("{cond} → new revision {rv}"))
            }
            Ok((stored, false)) => ApiResponse::ok(
                200,
                object::canonical(info, stored),
                format!("the new object encodes to the same bytes as the stored one → no-op: nothing written, resourceVersion stays {cur_rv}"),
            ),
            Err(e) => ApiResponse::from_status(
                &storage_status(&e, info, url_name),
                format!("the body's resourceVersion {} ≠ the stored mod_revision {cur_rv} → 409 Conflict", expected.unwrap_or(0)),
            ),
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
        match etcd3::delete(ctx.etcd, &key, &pre) {
            Ok(last) => {
                let rv = object::resource_version(&last).unwrap_or("").to_string();
                let why = format!("deleted with Txn If(mod_revision==current) Then Delete → the delete is revision {rv}");
                if returns_deleted_object(info) {
                    ApiResponse::ok(200, object::canonical(info, last), format!("{why}; pods return their last state with that resourceVersion"))
                } else {
                    let status = Status::success_deleted(info, name, object::uid(&last));
                    ApiResponse::ok(200, status.to_json(), why)
                }
            }
            Err(e) => ApiResponse::from_status(&storage_status(&e, info, name), e.to_string()),
        }
    }

    /// Reads every frame sent on watch `id` since the last read. `None` if there is no such watch.
    pub fn read_watch(&mut self, etcd: &mut MvccStore, id: u64) -> Option<(Vec<Frame>, bool)> {
        let stream = self.watches.get_mut(&id)?;
        let frames = stream.drain(etcd);
        Some((frames, stream.closed))
    }

    /// The client hangs up.
    pub fn cancel_watch(&mut self, etcd: &mut MvccStore, id: u64) -> bool {
        match self.watches.get_mut(&id) {
            Some(s) => {
                s.close("canceled by the client".into(), etcd);
                true
            }
            None => false,
        }
    }

    pub fn watch_stream(&self, id: u64) -> Option<&WatchStream> {
        self.watches.get(&id)
    }
}
