//! Kubernetes 1.37 and kube-apiserver's `--feature-gates` (docs/semantics.md §C.8).
//!
//! Upstream, as read: `component-base/featuregate/feature_gate.go` (`Set`, `unsafeSetFromMap`,
//! `SetFromMap`), `apiserver/pkg/storage/cacher/delegator.go` `GetList` with
//! ConsistentListFromCacheSkipTimeoutFallback (kubernetes/kubernetes#138701; the stored delegator
//! at the 1.37 cycle), `watch_cache.go` (`blockTimeout = 3 * time.Second`,
//! `resourceVersionTooHighRetrySeconds = 1`), `meta/internalversion/validation` (WatchList), and
//! CHANGELOG-1.37 (v1.37.0-alpha.1, kubernetes/kubernetes commit df0a31e0) for the 1.37 gates. No
//! v1.37.0 tag was within reach; the alpha.1 changelog and the stored 1.37-cycle sources are what
//! these values were checked against.

use rvlab::apiserver::features::{Features, Gate, Spec, Stage, gates_for};
use rvlab::cluster::Cluster;
use rvlab::script::Session;
use serde_json::{Value, json};

const LIST: &str = "/api/v1/namespaces/default/configmaps";

fn cm(c: &mut Cluster, name: &str) {
    let body = format!(r#"{{"metadata":{{"name":"{name}"}}}}"#);
    let (r, _) = c.request(0, "POST", LIST, Some(&body));
    assert_eq!(r.code, 201, "{}", r.body);
}

/// A cluster whose watch cache lags 10 s behind etcd, with one write it has not seen yet.
fn lagging(minor: &str) -> Cluster {
    let mut c = Cluster::new();
    c.set(0, "kubernetes", minor).expect("release");
    cm(&mut c, "a");
    c.set(0, "cache.lag", "10s").expect("lag");
    cm(&mut c, "b");
    c
}

fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

// 1.37 default: a consistent list the cache cannot serve within 3 s falls back to etcd
// (`delegator.go` `GetList`: `fallback = "true"; err = c.storage.GetList(...)`).
#[test]
fn a_consistent_list_falls_back_to_etcd_by_default() {
    let mut c = lagging("1.37");
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(r.code, 200);
    assert_eq!(r.body["metadata"]["resourceVersion"], "3");
    assert_eq!(serde_json::to_value(&r.why.outcome).ok(), Some(json!("consistent-read-timeout")));
    assert_eq!(r.why.gate, None);
}

// ConsistentListFromCacheSkipTimeoutFallback=true: `errors.NewTooManyRequests(err.Error(),
// resourceVersionTooHighRetrySeconds)` — 429 TooManyRequests carrying the too-large message of
// `storage.NewTooLargeResourceVersionError` (itself `NewTimeoutError`'s "Timeout: …"),
// `retryAfterSeconds: 1` and the `Retry-After: 1` header; etcd is not read.
#[test]
fn skip_timeout_fallback_answers_429_with_the_too_large_message() {
    let mut c = lagging("1.37");
    c.set(0, "feature-gates", "ConsistentListFromCacheSkipTimeoutFallback=true").expect("alpha gate");
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(r.code, 429);
    assert_eq!(
        r.body,
        json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "Timeout: Too large resource version: 3, current: 2",
            "reason": "TooManyRequests",
            "details": {"retryAfterSeconds": 1},
            "code": 429
        })
    );
    assert_eq!(header(&r.headers, "Retry-After"), Some("1"));
    assert_eq!(r.why.gate, Some(Gate::ConsistentListFromCacheSkipTimeoutFallback));
    assert_eq!(r.why.gate_enabled, Some(true));
    assert_eq!(r.why.retry_after, Some(1));
    assert_eq!(serde_json::to_value(&r.why.outcome).ok(), Some(json!("consistent-read-timeout-no-fallback")));
    // A cache that catches up in time serves it as before.
    c.set(0, "cache.lag", "1s").expect("lag");
    c.advance(rvlab::clock::Duration::from_secs(11));
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(r.code, 200);
}

// WatchList=false: `ValidateListOptions` forbids sendInitialEvents on a watch, as a server
// without the feature does (422, FieldValueForbidden on `sendInitialEvents`).
#[test]
fn watch_list_off_refuses_a_watch_list_request() {
    let mut c = Cluster::new();
    c.set(0, "feature-gates", "WatchList=false").expect("beta gate");
    let target = format!("{LIST}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan");
    let (r, h) = c.request(0, "GET", &target, None);
    assert!(h.is_none());
    assert_eq!(r.code, 422);
    assert_eq!(
        r.body["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"
    );
    assert_eq!(r.body["details"]["causes"][0]["reason"], "FieldValueForbidden");
    assert_eq!(r.body["details"]["causes"][0]["field"], "sendInitialEvents");
    assert_eq!(r.why.gate, Some(Gate::WatchList));
    assert_eq!(r.why.gate_enabled, Some(false));
    // Apiserver 2 keeps its release's defaults: the flag is per kube-apiserver.
    c.set(0, "apiservers", "2").expect("two");
    c.set(1, "feature-gates", "WatchList=true").expect("back on");
    let (r, h) = c.request(1, "GET", &target, None);
    assert_eq!(r.code, 200);
    assert!(h.is_some());
}

fn refusal(s: &mut Session, line: &str) -> Value {
    s.run_line(1, line).map(|o| o["refused"].clone()).unwrap_or_default()
}

fn error(s: &mut Session, line: &str) -> String {
    s.run_line(1, line).and_then(|o| o["error"].as_str().map(str::to_string)).unwrap_or_default()
}

// `unsafeSetFromMap`: "unrecognized feature gate: %s" for a name the release does not know (1.37
// removed the locked GA gates, #138907), "cannot set feature gate %v to %v, feature is locked to
// %v" for a locked gate given the other value; `Set`: "missing bool value for %s" and
// "invalid value of %s=%s, err: %v" (Go's strconv.ParseBool error).
#[test]
fn the_flag_refuses_with_the_apiservers_own_words() {
    let mut s = Session::new();
    assert_eq!(
        error(&mut s, "set feature-gates ConsistentListFromCache=true"),
        "unrecognized feature gate: ConsistentListFromCache"
    );
    assert_eq!(
        refusal(&mut s, "set feature-gates ResilientWatchCacheInitialization=true"),
        json!({"kind": "setting", "error": {"kind": "feature-gate-unknown", "name": "ResilientWatchCacheInitialization", "release": "1.37"}})
    );
    assert_eq!(
        error(&mut s, "set feature-gates WatchCacheInitializationPostStartHook=false"),
        "cannot set feature gate WatchCacheInitializationPostStartHook to false, feature is locked to true"
    );
    // Locked to its own value: accepted (upstream only refuses the other value).
    assert!(
        s.run_line(1, "set feature-gates WatchCacheInitializationPostStartHook=true")
            .is_some_and(|o| o.get("error").is_none())
    );
    assert_eq!(error(&mut s, "set feature-gates MadeUp=true"), "unrecognized feature gate: MadeUp");
    assert_eq!(error(&mut s, "set feature-gates WatchList"), "missing bool value for WatchList");
    assert_eq!(
        error(&mut s, "set feature-gates WatchList=on"),
        "invalid value of WatchList=on, err: strconv.ParseBool: parsing \"on\": invalid syntax"
    );
    // 1.34: the gates are there, locked.
    s.run_line(1, "set kubernetes 1.34");
    assert_eq!(
        error(&mut s, "set feature-gates ConsistentListFromCache=false"),
        "cannot set feature gate ConsistentListFromCache to false, feature is locked to true"
    );
    // 1.36 does not know the 1.37 gate.
    s.run_line(1, "set kubernetes 1.36");
    assert_eq!(
        error(&mut s, "set feature-gates ConsistentListFromCacheSkipTimeoutFallback=true"),
        "unrecognized feature gate: ConsistentListFromCacheSkipTimeoutFallback"
    );
    // A refused line changes nothing.
    assert_eq!(s.kubernetes_minor(), 36);
}

// 1.30: ConsistentListFromCache is alpha, off; the flag turns it on and the consistent list is
// served by the cache (the gate is named, as it was switched from the default).
#[test]
fn an_alpha_gate_turned_on_changes_the_path() {
    let mut c = Cluster::new();
    c.set(0, "kubernetes", "1.30").expect("release");
    cm(&mut c, "a");
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(serde_json::to_value(r.why.rule).ok(), Some(json!("consistent-read-from-etcd")));
    assert_eq!(r.why.gate, None);
    c.set(0, "feature-gates", "ConsistentListFromCache=true").expect("alpha");
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(serde_json::to_value(r.why.rule).ok(), Some(json!("consistent-read-from-cache")));
    assert_eq!(r.why.gate, Some(Gate::ConsistentListFromCache));
    // 1.30 `shouldDelegateList`: `hasLimit` (limit > 0, rv ≠ "0") still delegates to etcd.
    let (r, _) = c.request(0, "GET", &format!("{LIST}?limit=5"), None);
    assert_eq!(serde_json::to_value(r.why.path).ok(), Some(json!("etcd")));
    assert_eq!(r.why.gate, None, "the limit, not the gate, sent it to etcd");
    // `set kubernetes` starts a new binary without the flag.
    c.set(0, "kubernetes", "1.30").expect("release");
    let (r, _) = c.request(0, "GET", LIST, None);
    assert_eq!(serde_json::to_value(r.why.rule).ok(), Some(json!("consistent-read-from-etcd")));
}

// WatchFromStorageWithoutResourceVersion (beta, off; `delegator.go` `Watch`): on, a watch without
// resourceVersion and without sendInitialEvents is served by etcd. 1.32 defaults such watches to
// watch-list (WatchList on), so 1.31 shows it.
#[test]
fn watch_from_storage_without_resource_version() {
    let mut c = Cluster::new();
    c.set(0, "kubernetes", "1.31").expect("release");
    cm(&mut c, "a");
    c.set(0, "feature-gates", "WatchFromStorageWithoutResourceVersion=true").expect("beta");
    let (r, h) = c.request(0, "GET", &format!("{LIST}?watch=true"), None);
    assert_eq!(r.code, 200);
    assert!(h.is_some());
    assert_eq!(serde_json::to_value(r.why.path).ok(), Some(json!("etcd")));
    assert_eq!(r.why.gate, Some(Gate::WatchFromStorageWithoutResourceVersion));
    // Deprecated and locked off from 1.33.
    c.set(0, "kubernetes", "1.33").expect("release");
    assert_eq!(
        c.set(0, "feature-gates", "WatchFromStorageWithoutResourceVersion=true"),
        Err("cannot set feature gate WatchFromStorageWithoutResourceVersion to true, feature is locked to false".into())
    );
}

// What the settings panel offers for 1.37 (CHANGELOG-1.37; website feature-gate pages), and the
// release `/version` reports by default.
#[test]
fn the_gates_of_1_37() {
    let g: Vec<(Gate, Spec)> = gates_for(37);
    let spec = |gate| g.iter().find(|(x, _)| *x == gate).map(|(_, s)| *s);
    let s = |stage, default, locked| Some(Spec { stage, default, locked });
    assert_eq!(spec(Gate::ConsistentListFromCache), None);
    assert_eq!(spec(Gate::ResilientWatchCacheInitialization), None);
    assert_eq!(spec(Gate::BtreeWatchCache), None);
    assert_eq!(spec(Gate::WatchCacheInitializationPostStartHook), s(Stage::Ga, true, true));
    assert_eq!(spec(Gate::ConsistentListFromCacheSkipTimeoutFallback), s(Stage::Alpha, false, false));
    assert_eq!(spec(Gate::EtcdRangeStream), s(Stage::Beta, true, false));
    assert_eq!(spec(Gate::WatchListCompression), s(Stage::Beta, true, false));
    assert_eq!(spec(Gate::ConcurrentWatchObjectDecode), s(Stage::Beta, false, false));
    assert_eq!(spec(Gate::WatchList), s(Stage::Beta, true, false));
    assert_eq!(spec(Gate::ListFromCacheSnapshot), s(Stage::Beta, true, false));
    // The removed gates' behaviour stays on.
    let f = Features::for_minor(37);
    assert!(f.consistent_list_from_cache && f.resilient_watch_cache_init);
    assert_eq!(Session::new().kubernetes_minor(), 37);
}

// `set client-go 1.x|auto`: the clients' release; auto follows apiserver 1's Kubernetes release.
#[test]
fn the_client_go_release_follows_kubernetes_unless_set() {
    let mut c = Cluster::new();
    assert_eq!(c.client_go_minor(), 37);
    c.set(0, "kubernetes", "1.33").expect("release");
    assert_eq!(c.client_go_minor(), 33);
    c.set(0, "client-go", "1.36").expect("client-go");
    assert_eq!((c.client_go_minor(), c.client_go_explicit()), (36, Some(36)));
    c.set(0, "kubernetes", "1.30").expect("release");
    assert_eq!(c.client_go_minor(), 36, "an explicit release stays");
    c.set(0, "client-go", "auto").expect("auto");
    assert_eq!(c.client_go_minor(), 30);
    assert_eq!(
        c.set(0, "client-go", "1.99"),
        Err("unsupported client-go version \"1.99\"; use 1.27 … 1.37 or auto".into())
    );
}

// Without `mode=` an informer takes its client-go release's default: `WatchListClient` off up to
// 1.34, on from 1.35 (client-go `features/known_features.go` @ v0.35.0; docs/semantics.md §C.4).
#[test]
fn an_informer_streams_by_default_from_client_go_1_35() {
    let first_log_line = |client_go: &str| {
        let mut s = Session::new();
        let script = format!("set client-go {client_go}\ninformer start i configmaps ns=default\n");
        let out = s.run_script(&script);
        out.last().and_then(|o| o["log"][0].as_str().map(str::to_string)).unwrap_or_default()
    };
    assert!(first_log_line("1.34").contains("(legacy: LIST, then WATCH)"), "{}", first_log_line("1.34"));
    assert!(!first_log_line("1.35").contains("legacy"), "{}", first_log_line("1.35"));
    assert!(first_log_line("auto").contains("streaming"), "{}", first_log_line("auto"));
}

// ResilientWatchCacheInitialization off in 1.32 (beta, on by default): an unready cache makes a
// list that needs a resourceVersion wait until it is ready, as 1.30 does (`cacher.go` `GetList`:
// `ready.wait`), instead of answering 429; the why names the gate.
#[test]
fn resilient_cache_initialization_off_waits_for_the_cache() {
    let mut c = Cluster::new();
    c.set(0, "kubernetes", "1.32").expect("release");
    cm(&mut c, "a");
    c.set(0, "cache.init-delay", "5s").expect("delay");
    c.restart_apiserver(0).expect("restart");
    let (r, _) = c.request(0, "GET", &format!("{LIST}?resourceVersion=2"), None);
    assert_eq!(r.code, 429, "on by default: {}", r.body);
    c.set(0, "feature-gates", "ResilientWatchCacheInitialization=false").expect("beta");
    c.restart_apiserver(0).expect("restart");
    let (r, _) = c.request(0, "GET", &format!("{LIST}?resourceVersion=2"), None);
    assert_eq!(r.code, 200, "{}", r.body);
    assert_eq!(serde_json::to_value(r.why.outcome).ok(), Some(json!("cache-waited-ready")));
    assert_eq!(r.why.gate, Some(Gate::ResilientWatchCacheInitialization));
    assert_eq!(r.why.gate_enabled, Some(false));
}

// Hostile `set feature-gates` values are refusals or settings, never panics, on every release.
#[test]
fn hostile_gate_values_are_refused_not_panics() {
    let long = "WatchList=true,".repeat(500);
    let inputs = [
        "",
        ",",
        "=",
        "=true",
        "WatchList=",
        "WatchList==true",
        "WatchList=true=false",
        " WatchList = true ",
        "watchlist=true",
        "Wätch=1",
        "AllAlpha=true,AllBeta=false",
        "WatchList=true,WatchList=false",
        "AllBeta=false,WatchList=true",
        long.as_str(),
    ];
    for minor in 27..=37 {
        for v in inputs {
            let mut c = Cluster::new();
            c.set(0, "kubernetes", &format!("1.{minor}")).expect("release");
            match c.set(0, "feature-gates", v) {
                Ok(effect) => assert!(effect.contains(&format!("Kubernetes 1.{minor}")), "{v}: {effect}"),
                Err(e) => assert!(!e.is_empty(), "{v}"),
            }
            let (r, _) = c.request(0, "GET", LIST, None);
            assert_eq!(r.code, 200, "1.{minor} {v}");
        }
    }
    let mut c = Cluster::new();
    assert_eq!(
        c.set(0, "feature-gates", "WatchList=").err().as_deref(),
        Some("invalid value of WatchList=, err: strconv.ParseBool: parsing \"\": invalid syntax")
    );
    assert_eq!(c.set(0, "feature-gates", "=true").err().as_deref(), Some("unrecognized feature gate: "));
    // `Set` trims: " WatchList = false " is WatchList=false.
    c.set(0, "feature-gates", " WatchList = false ").expect("trimmed");
    assert!(!c.apiserver(0).map(|s| s.config.features.watch_list).unwrap_or(true));
}
