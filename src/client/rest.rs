//! The client-go REST layer as the reflector and pager see it (`rest/request.go`,
//! `rest/with_retry.go`, apimachinery `api/errors`).
//!
//! Owns:
//! * [`ResourcePath`] and [`ListOptions`]: how a list/watch URL is built — the query keys are
//!   sorted and empty fields omitted, exactly like `url.Values.Encode` of the parameter codec;
//! * [`ApiError`]: a non-2xx response or a watch `ERROR` frame turned into an error, with the
//!   classifications client-go decides by (`IsResourceExpired`, `IsGone`, `IsTooManyRequests`,
//!   the reflector's `isTooLargeResourceVersionError`, …) — by reason, code and cause, never by
//!   message text except where client-go itself does;
//! * [`send`]: one attempt of a request, with the REST client's transparent retry when the
//!   server answers 429 or 5xx with a `Retry-After` header (at most [`MAX_RETRIES`] retries);
//! * [`Transport`]: what a client needs from the cluster (requests, watch streams, the clock).
//!   [`Cluster`] is the transport; tests may wrap one to inject faults the server cannot
//!   produce yet.

use serde_json::Value;

use crate::apiserver::server::ApiResponse;
use crate::apiserver::watch::Frame;
use crate::clock::{Duration, Instant};
use crate::cluster::{Cluster, WatchHandle};

use super::trace::{ClientError, Decision, ErrorInfo, Trace};

/// `rest.Request.maxRetries` default: a request is retried at most 10 times on `Retry-After`.
pub const MAX_RETRIES: u32 = 10;

/// Which collection a client lists and watches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourcePath {
    /// Plural resource name (`pods`, `configmaps`).
    pub resource: String,
    /// `None` = all namespaces.
    pub namespace: Option<String>,
}

impl ResourcePath {
    pub fn new(resource: &str, namespace: Option<&str>) -> Self {
        ResourcePath {
            resource: resource.to_string(),
            namespace: namespace.filter(|n| !n.is_empty()).map(str::to_string),
        }
    }

    /// `/api/v1/namespaces/<ns>/<resource>` or `/api/v1/<resource>`.
    pub fn collection(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("/api/v1/namespaces/{}/{}", ns, self.resource),
            None => format!("/api/v1/{}", self.resource),
        }
    }

    /// The request target for `opts`.
    pub fn target(&self, opts: &ListOptions) -> String {
        let q = opts.query();
        if q.is_empty() { self.collection() } else { format!("{}?{}", self.collection(), q) }
    }
}

/// `metav1.ListOptions` as a client sets it. Empty strings / zero / `None` are omitted from the
/// query (`omitempty`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOptions {
    pub resource_version: String,
    pub resource_version_match: String,
    pub limit: i64,
    pub continue_token: String,
    pub timeout_seconds: Option<u64>,
    pub allow_watch_bookmarks: bool,
    pub send_initial_events: Option<bool>,
    pub watch: bool,
}

impl ListOptions {
    /// The encoded query, keys in byte order as `url.Values.Encode` writes them.
    pub fn query(&self) -> String {
        let mut kv: Vec<(&str, String)> = Vec::new();
        if self.allow_watch_bookmarks {
            kv.push(("allowWatchBookmarks", "true".into()));
        }
        if !self.continue_token.is_empty() {
            kv.push(("continue", self.continue_token.clone()));
        }
        if self.limit != 0 {
            kv.push(("limit", self.limit.to_string()));
        }
        if !self.resource_version.is_empty() {
            kv.push(("resourceVersion", self.resource_version.clone()));
        }
        if !self.resource_version_match.is_empty() {
            kv.push(("resourceVersionMatch", self.resource_version_match.clone()));
        }
        if let Some(b) = self.send_initial_events {
            kv.push(("sendInitialEvents", b.to_string()));
        }
        if let Some(t) = self.timeout_seconds {
            kv.push(("timeoutSeconds", t.to_string()));
        }
        if self.watch {
            kv.push(("watch", "true".into()));
        }
        kv.sort_by(|a, b| a.0.cmp(b.0));
        kv.iter().map(|(k, v)| format!("{}={}", k, query_escape(v))).collect::<Vec<_>>().join("&")
    }
}

/// Go's `url.QueryEscape`.
fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The `StatusReason`s apimachinery knows (`knownReasons`), including the empty "Unknown".
const KNOWN_REASONS: &[&str] = &[
    "",
    "Unauthorized",
    "Forbidden",
    "NotFound",
    "AlreadyExists",
    "Conflict",
    "Gone",
    "Invalid",
    "ServerTimeout",
    "StoreReadError",
    "Timeout",
    "TooManyRequests",
    "BadRequest",
    "MethodNotAllowed",
    "NotAcceptable",
    "RequestEntityTooLarge",
    "UnsupportedMediaType",
    "InternalError",
    "Expired",
    "ServiceUnavailable",
];

/// An error as client-go's `StatusError` carries it (or a client-side error, `code` 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP code of the Status (0 for an error that did not come from the server).
    pub code: u16,
    pub reason: String,
    pub message: String,
    /// `details.causes` as (reason, message).
    pub causes: Vec<(String, String)>,
    pub retry_after_seconds: Option<i64>,
    /// Set for an error the client produced itself (`code` 0).
    pub client: Option<ClientError>,
}

impl ApiError {
    /// A response that is not a success. A `Status` body is taken as is; anything else becomes a
    /// generic error for the HTTP code (`NewGenericServerResponse`).
    pub fn from_response(resp: &ApiResponse) -> ApiError {
        let mut e = match status_fields(&resp.body) {
            Some(e) => e,
            None => generic(resp.code),
        };
        if let Some(secs) = retry_after_header(resp) {
            e.retry_after_seconds = Some(secs);
        }
        e
    }

    /// The object of a watch `ERROR` frame (`apierrors.FromObject`). Something that is not a
    /// `Status` is an "unexpected object" error that matches no API error class.
    pub fn from_watch_error(obj: &Value) -> ApiError {
        status_fields(obj).unwrap_or_else(|| ApiError::client(ClientError::NotAStatus))
    }

    /// An error the client produced itself (very short watch, malformed list, …).
    pub fn client(kind: ClientError) -> ApiError {
        ApiError {
            code: 0,
            reason: String::new(),
            message: String::new(),
            causes: vec![],
            retry_after_seconds: None,
            client: Some(kind),
        }
    }

    /// The error as a decision records it.
    pub fn info(&self) -> ErrorInfo {
        ErrorInfo {
            code: self.code,
            reason: self.reason.clone(),
            message: self.message.clone(),
            client: self.client.clone(),
        }
    }

    fn reason_known(&self) -> bool {
        KNOWN_REASONS.contains(&self.reason.as_str())
    }

    /// `apierrors.IsResourceExpired`: reason `Expired`.
    pub fn is_resource_expired(&self) -> bool {
        self.code != 0 && self.reason == "Expired"
    }

    /// `apierrors.IsGone`: reason `Gone`, or an unknown reason with code 410.
    pub fn is_gone(&self) -> bool {
        self.code != 0 && (self.reason == "Gone" || (!self.reason_known() && self.code == 410))
    }

    /// The reflector's `isExpiredError`: `Expired` or the pre-1.18 `Gone`.
    pub fn is_expired(&self) -> bool {
        self.is_resource_expired() || self.is_gone()
    }

    /// `apierrors.IsTimeout`: reason `Timeout`, or an unknown reason with code 504.
    pub fn is_timeout(&self) -> bool {
        self.code != 0 && (self.reason == "Timeout" || (!self.reason_known() && self.code == 504))
    }

    /// The reflector's `isTooLargeResourceVersionError`: cause `ResourceVersionTooLarge`, or (old
    /// servers) a Timeout whose cause message or message says "Too large resource version".
    pub fn is_too_large_resource_version(&self) -> bool {
        if self.code == 0 {
            return false;
        }
        if self.causes.iter().any(|(r, _)| r == "ResourceVersionTooLarge") {
            return true;
        }
        if !self.is_timeout() {
            return false;
        }
        self.causes.iter().any(|(_, m)| m == "Too large resource version")
            || self.message.contains("Too large resource version")
    }

    /// `apierrors.IsTooManyRequests`: reason `TooManyRequests` or code 429.
    pub fn is_too_many_requests(&self) -> bool {
        self.code != 0 && (self.reason == "TooManyRequests" || self.code == 429)
    }

    /// `apierrors.IsInvalid`.
    pub fn is_invalid(&self) -> bool {
        self.code != 0 && (self.reason == "Invalid" || (!self.reason_known() && self.code == 422))
    }

    /// The reflector's `isWatchErrorRetriable`: connection refused (not modelled: the simulated
    /// apiservers always answer) or 429.
    pub fn is_watch_retriable(&self) -> bool {
        self.is_too_many_requests()
    }
}

fn status_fields(v: &Value) -> Option<ApiError> {
    if v.get("kind").and_then(Value::as_str) != Some("Status") {
        return None;
    }
    let code = v.get("code").and_then(Value::as_u64).unwrap_or(0).min(u16::MAX as u64) as u16;
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let details = v.get("details");
    let causes = details
        .and_then(|d| d.get("causes"))
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    let f = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                    (f("reason"), f("message"))
                })
                .collect()
        })
        .unwrap_or_default();
    let retry_after_seconds =
        details.and_then(|d| d.get("retryAfterSeconds")).and_then(Value::as_i64).filter(|s| *s > 0);
    Some(ApiError {
        code,
        reason: text("reason"),
        message: text("message"),
        causes,
        retry_after_seconds,
        client: None,
    })
}

/// `NewGenericServerResponse`: the reason client-go derives from a bare HTTP code.
fn generic(code: u16) -> ApiError {
    let (reason, message) = match code {
        400 => ("BadRequest", "the server rejected our request for an unknown reason".to_string()),
        401 => ("Unauthorized", "the server has asked for the client to provide credentials".to_string()),
        403 => ("Forbidden", "the server does not allow access to the requested resource".to_string()),
        404 => ("NotFound", "the server could not find the requested resource".to_string()),
        405 => ("MethodNotAllowed", "the server does not allow this method on the requested resource".to_string()),
        409 => ("Conflict", "the server reported a conflict".to_string()),
        422 => ("Invalid", "the server rejected our request due to an error in our request".to_string()),
        429 => ("TooManyRequests", "the server has received too many requests and has asked us to try again later".to_string()),
        500 => ("InternalError", "an error on the server (\"unknown\") has prevented the request from succeeding".to_string()),
        503 => ("ServiceUnavailable", "the server is currently unable to handle the request".to_string()),
        504 => ("Timeout", "the server was unable to return a response in the time allotted, but may still be processing the request".to_string()),
        _ => ("", format!("the server responded with the status code {code} but did not return more information")),
    };
    ApiError {
        code,
        reason: reason.to_string(),
        message,
        causes: vec![],
        retry_after_seconds: None,
        client: None,
    }
}

fn retry_after_header(resp: &ApiResponse) -> Option<i64> {
    resp.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Retry-After"))
        .and_then(|(_, v)| v.trim().parse::<i64>().ok())
}

/// What a client uses of the cluster. Every request goes through the same server code as a
/// user's request.
pub trait Transport {
    /// The simulated time now.
    fn now(&self) -> Instant;
    /// One HTTP request to apiserver `apiserver` (0-based).
    fn request(
        &mut self,
        apiserver: usize,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> (ApiResponse, Option<WatchHandle>);
    /// Frames sent on a watch since the last read, and whether the server ended it.
    fn read_watch(&mut self, h: WatchHandle) -> Option<(Vec<Frame>, bool)>;
    /// The client hangs up.
    fn cancel_watch(&mut self, h: WatchHandle) -> bool;
    /// Whether an ended watch ended because its connection broke (the apiserver restarted), so
    /// the client's next request opens a new connection.
    fn connection_broken(&self, _h: WatchHandle) -> bool {
        false
    }
}

impl Transport for Cluster {
    fn now(&self) -> Instant {
        self.clock().now()
    }
    fn request(
        &mut self,
        apiserver: usize,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> (ApiResponse, Option<WatchHandle>) {
        Cluster::request(self, apiserver, method, target, body)
    }
    fn read_watch(&mut self, h: WatchHandle) -> Option<(Vec<Frame>, bool)> {
        Cluster::read_watch(self, h)
    }
    fn cancel_watch(&mut self, h: WatchHandle) -> bool {
        Cluster::cancel_watch(self, h)
    }
    fn connection_broken(&self, h: WatchHandle) -> bool {
        self.watch_close_reason(h).is_some_and(|e| e.ended == crate::apiserver::decision::EndReason::Restart)
    }
}

/// What one attempt of a request came to.
#[derive(Debug)]
pub enum Sent {
    /// The response the caller sees (success or the final error).
    Response(ApiResponse, Option<WatchHandle>),
    /// The REST client will send this request again by itself at this time (`Retry-After`).
    RetryAt(Instant),
}

/// Sends one attempt of `GET target` to apiserver `apiserver` and records it in `trace`.
/// `attempts` counts the retries already granted for this logical request (start at 0): a 429 or
/// 5xx carrying a numeric `Retry-After` header is retried up to [`MAX_RETRIES`] times
/// (`withRetry.IsNextRetry` + `checkWait`), each after the server's requested wait.
pub fn send(
    transport: &mut dyn Transport,
    apiserver: usize,
    target: &str,
    attempts: &mut u32,
    trace: &mut Trace,
) -> Sent {
    let now: Instant = transport.now();
    let (resp, handle) = transport.request(apiserver, "GET", target, None);
    trace.request(now, apiserver, "GET", target, resp.code);
    let success = (200..300).contains(&resp.code);
    if !success {
        let waits = resp.code == 429 || resp.code >= 500;
        if let (true, Some(secs)) = (waits, retry_after_header(&resp)) {
            *attempts += 1;
            if *attempts <= MAX_RETRIES {
                let wait = Duration::from_secs(secs.max(0) as u64);
                let reason = resp.body.get("reason").and_then(Value::as_str).unwrap_or("").to_string();
                trace.note(
                    now,
                    Decision::RetryAfter {
                        code: resp.code,
                        reason,
                        retry_after_seconds: secs,
                        retry: *attempts,
                        max_retries: MAX_RETRIES,
                    },
                );
                return Sent::RetryAt(transport.now() + wait);
            }
        }
    }
    Sent::Response(resp, handle)
}

/// `metadata.<field>` of an object when it is a string ("" otherwise). Direct map lookups: these
/// run for every object an informer handles, and `Value::pointer` re-splits its path each call.
fn meta_str<'a>(obj: &'a Value, field: &str) -> &'a str {
    obj.get("metadata").and_then(|m| m.get(field)).and_then(Value::as_str).unwrap_or("")
}

/// `metadata.name` of an object ("" if missing).
pub fn obj_name(obj: &Value) -> &str {
    meta_str(obj, "name")
}

/// `metadata.namespace` of an object ("" if missing).
pub fn obj_namespace(obj: &Value) -> &str {
    meta_str(obj, "namespace")
}

/// `metadata.resourceVersion` of an object ("" if missing).
pub fn obj_rv(obj: &Value) -> &str {
    meta_str(obj, "resourceVersion")
}

/// `MetaNamespaceKeyFunc`: `namespace/name`, or `name` for cluster-scoped objects.
pub fn obj_key(obj: &Value) -> String {
    let ns = obj_namespace(obj);
    if ns.is_empty() { obj_name(obj).to_string() } else { format!("{}/{}", ns, obj_name(obj)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn query_is_sorted_and_omits_empty() {
        let o = ListOptions {
            resource_version: "7".into(),
            timeout_seconds: Some(412),
            allow_watch_bookmarks: true,
            watch: true,
            ..Default::default()
        };
        assert_eq!(o.query(), "allowWatchBookmarks=true&resourceVersion=7&timeoutSeconds=412&watch=true");
        let o = ListOptions { resource_version: "0".into(), limit: 500, ..Default::default() };
        assert_eq!(o.query(), "limit=500&resourceVersion=0");
        assert_eq!(ListOptions::default().query(), "");
        assert_eq!(query_escape("a b/c"), "a+b%2Fc");
    }

    #[test]
    fn classifies_errors() {
        let expired = status_fields(&json!({"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 5 (10)"})).unwrap();
        assert!(expired.is_expired() && expired.is_resource_expired() && !expired.is_gone());
        let gone = status_fields(&json!({"kind":"Status","code":410,"reason":"Gone"})).unwrap();
        assert!(gone.is_expired() && !gone.is_resource_expired());
        let odd = status_fields(&json!({"kind":"Status","code":410,"reason":"Whatever"})).unwrap();
        assert!(odd.is_gone());
        let unknown = status_fields(&json!({"kind":"Status","code":410,"reason":""})).unwrap();
        assert!(!unknown.is_expired());
        let large = status_fields(&json!({"kind":"Status","code":504,"reason":"Timeout",
            "details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1}})).unwrap();
        assert!(large.is_too_large_resource_version());
        assert_eq!(large.retry_after_seconds, Some(1));
        let old = status_fields(&json!({"kind":"Status","code":504,"reason":"Timeout","message":"Too large resource version: 9, current: 3"})).unwrap();
        assert!(old.is_too_large_resource_version());
        let plain_timeout = status_fields(
            &json!({"kind":"Status","code":504,"reason":"Timeout","message":"request timed out"}),
        )
        .unwrap();
        assert!(!plain_timeout.is_too_large_resource_version());
        let busy = status_fields(&json!({"kind":"Status","code":429,"reason":"TooManyRequests"})).unwrap();
        assert!(busy.is_too_many_requests() && busy.is_watch_retriable());
        assert!(ApiError::from_watch_error(&json!({"kind":"ConfigMap"})).code == 0);
        assert!(!ApiError::client(ClientError::NotAList).is_expired());
    }
}
