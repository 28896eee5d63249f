//! The client layer (spec §f, §D, §h 8–9): client-go's pager, reflector and informer driving a
//! real `Cluster`. Every expectation is exact: request targets as sent on the wire, lastSyncRV,
//! relist vs re-watch decisions, handler notifications, and the watch timeouts and back-off
//! waits drawn from the seed.
//!
//! Faults the server cannot produce yet (429, Retry-After, 504 too-large, legacy `Gone`,
//! BOOKMARKs on a plain watch) are injected by [`Faulty`], a transport that wraps the real
//! cluster and answers selected requests itself; everything else reaches the server.

use rvlab::apiserver::server::ApiResponse;
use rvlab::apiserver::status::Status;
use rvlab::apiserver::watch::{Frame, FrameType};
use rvlab::client::pager::PagerPoll;
use rvlab::client::rest::Transport;
use rvlab::client::{Informer, InformerMode, ListOptions, ListPager, ResourcePath, Trace};
use rvlab::clock::{Duration, Instant, Rng};
use rvlab::cluster::{Cluster, WatchHandle};
use rvlab::script::why::Lang;
use rvlab::script::why::informer::{render, report_json};
use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// A cluster whose reads are served by etcd: the watch cache is switched off (§C.3 "cache
/// disabled"), so a watch from a compacted rv ends with ERROR 410 (§E.2) and lists honour
/// `limit` for rv="0". The client's reactions to the cache's own answers (429 while
/// initialising, 504 too-large, bookmarks) are injected with [`Faulty`].
fn cluster() -> Cluster {
    let mut c = Cluster::new();
    c.set(0, "watch-cache", "off").expect("the watch cache can be switched off");
    c
}

fn create(c: &mut Cluster, name: &str) -> String {
    let (r, _) = c.request(0, "POST", CM, Some(&format!(r#"{{"metadata":{{"name":"{name}"}}}}"#)));
    assert_eq!(r.code, 201, "{}", r.body);
    r.body["metadata"]["resourceVersion"].as_str().unwrap_or_default().to_string()
}

fn update(c: &mut Cluster, name: &str, v: &str) {
    let body = format!(r#"{{"metadata":{{"name":"{name}"}},"data":{{"k":"{v}"}}}}"#);
    let (r, _) = c.request(0, "PUT", &format!("{CM}/{name}"), Some(&body));
    assert_eq!(r.code, 200, "{}", r.body);
}

fn delete(c: &mut Cluster, name: &str) {
    let (r, _) = c.request(0, "DELETE", &format!("{CM}/{name}"), None);
    assert_eq!(r.code, 200, "{}", r.body);
}

/// `c` holding the configmaps `names`, created in this order (revisions 2, 3, …).
fn holding(mut c: Cluster, names: &[&str]) -> Cluster {
    for name in names {
        create(&mut c, name);
    }
    c
}

fn informer(mode: InformerMode, seed: u64) -> Informer {
    Informer::new("inf", "configmaps", Some("default"), mode, vec![0], seed, None)
}

/// `informer show` as the script prints it.
fn show(i: &mut Informer) -> Value {
    report_json(&i.show(), false)
}

/// An informer that has run once over `c` (listed, and watching from the list's RV), with what
/// that run printed marked as shown.
fn watching(c: &mut Cluster, mode: InformerMode, seed: u64) -> Informer {
    let mut i = informer(mode, seed);
    i.poll(c);
    shown(&mut i);
    i
}

/// Every decision so far, rendered in English (the `log` text).
fn log_lines(i: &Informer) -> Vec<String> {
    i.decisions().into_iter().map(|d| render(d, Lang::En)).collect()
}

/// What `informer show` printed as new: (log, requests, handlers).
fn shown(i: &mut Informer) -> (Vec<String>, Vec<String>, Vec<String>) {
    let v = show(i);
    let strings = |k: &str| -> Vec<String> {
        v[k].as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap_or("?").to_string()).collect())
            .unwrap_or_default()
    };
    (strings("log"), strings("requests"), strings("handlers"))
}

/// The seed's draws, in the order the reflector makes them: a timeout per watch request, a
/// jitter per back-off.
struct Draws {
    rng: Rng,
    base: u64,
}

impl Draws {
    fn new(seed: u64) -> Self {
        Draws { rng: Rng::new(seed), base: 800 }
    }
    /// The draws left once the first watch request has taken its timeout.
    fn past_first_watch(seed: u64) -> Self {
        let mut d = Draws::new(seed);
        d.timeout();
        d
    }
    /// `timeoutSeconds` in [300, 600).
    fn timeout(&mut self) -> u64 {
        self.rng.range(300, 600)
    }
    /// The next back-off in ms: base doubling from 0.8 s (cap 30 s), jittered into [base, 2·base).
    fn backoff(&mut self) -> u64 {
        let b = self.base;
        self.base = (self.base * 2).min(30_000);
        self.rng.range(b, 2 * b)
    }
}

fn watch_target(rv: &str, timeout: u64) -> String {
    format!(
        "GET {CM}?allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds={timeout}&watch=true → 200"
    )
}

/// The log of a watch that ended cleanly: a new watch from `rv` with the next `timeout`.
fn clean_rewatch(rv: &str, timeout: u64) -> [String; 2] {
    [
        format!("watch ended cleanly → re-watch from {rv}"),
        format!("watch from {rv} (timeoutSeconds={timeout})"),
    ]
}

fn watch_list_target(rv: Option<&str>, timeout: u64, code: u16) -> String {
    let rv = rv.map(|r| format!("resourceVersion={r}&")).unwrap_or_default();
    format!(
        "GET {CM}?allowWatchBookmarks=true&{rv}resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds={timeout}&watch=true → {code}"
    )
}

/// Ends the informer's current stream from the server side, as a watch timeout would (the
/// events not yet sent on it are never delivered).
fn end_stream(c: &mut Cluster, i: &Informer) {
    let h = i.watch_handle().expect("the informer holds a watch");
    c.cancel_watch(h);
}

fn at(ms: u64) -> Option<Instant> {
    Some(Instant(ms))
}

fn advance_to(c: &mut Cluster, t: Option<Instant>) {
    let t = t.expect("a wake-up time");
    let now = c.clock().now();
    c.advance(t.since(now));
}

/// A transport that wraps the real cluster and injects faults: canned answers for the next
/// request whose target contains a pattern, and frames appended to the next read of a stream.
struct Faulty<'a> {
    c: &'a mut Cluster,
    canned: Vec<(String, ApiResponse)>,
    inject: Vec<Frame>,
}

impl<'a> Faulty<'a> {
    fn new(c: &'a mut Cluster) -> Self {
        Faulty { c, canned: vec![], inject: vec![] }
    }
    fn answer(&mut self, pattern: &str, status: &Status) {
        self.canned.push((
            pattern.to_string(),
            ApiResponse::from_status(
                status,
                rvlab::apiserver::decision::Why::new(rvlab::apiserver::decision::Rule::RequestRejected),
            ),
        ));
    }
}

impl Transport for Faulty<'_> {
    fn now(&self) -> Instant {
        self.c.clock().now()
    }
    fn request(
        &mut self,
        apiserver: usize,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> (ApiResponse, Option<WatchHandle>) {
        if let Some(pos) = self.canned.iter().position(|(p, _)| target.contains(p.as_str())) {
            return (self.canned.remove(pos).1, None);
        }
        self.c.request(apiserver, method, target, body)
    }
    fn read_watch(&mut self, h: WatchHandle) -> Option<(Vec<Frame>, bool)> {
        let (mut frames, closed) = self.c.read_watch(h)?;
        frames.append(&mut self.inject);
        Some((frames, closed))
    }
    fn cancel_watch(&mut self, h: WatchHandle) -> bool {
        self.c.cancel_watch(h)
    }
}

fn bookmark(rv: &str) -> Frame {
    Frame::new(
        FrameType::Bookmark,
        json!({"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion": rv}}),
    )
}

// ---------------------------------------------------------------------------------------------
// Legacy ListAndWatch

// §f: first list rv="0" through the pager (limit 500), Replace, lastSyncRV = list RV, then a watch
// from it with allowWatchBookmarks and timeoutSeconds in [300, 600) from the seed.
#[test]
fn legacy_lists_at_rv_0_then_watches_from_the_list_rv() {
    let mut c = cluster();
    assert_eq!(create(&mut c, "a"), "2");
    assert_eq!(create(&mut c, "b"), "3");
    let mut i = informer(InformerMode::Legacy, 7);
    assert_eq!(i.next_wakeup(), at(0), "an informer that has not run yet wants to start");
    i.poll(&mut c);
    let mut d = Draws::new(7);
    let t1 = d.timeout();
    assert_eq!(
        report_json(&i.peek(), false)["log"].as_array().map(Vec::len),
        Some(4),
        "peek does not mark lines as shown"
    );
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(requests, vec![format!("GET {CM}?limit=500&resourceVersion=0 → 200"), watch_target("3", t1)]);
    assert_eq!(
        log,
        vec![
            "start informer on /api/v1/namespaces/default/configmaps (legacy: LIST, then WATCH)".to_string(),
            "list rv=\"0\", pages of 500 (first list: rv=\"0\" accepts any state, the watch cache serves it)"
                .to_string(),
            "list rv=\"0\" → 2 items at RV 3 (lastSyncRV=3)".to_string(),
            format!("watch from 3 (timeoutSeconds={t1})"),
        ]
    );
    assert_eq!(handlers, vec!["OnAdd a@2 (in initial list)", "OnAdd b@3 (in initial list)"]);
    assert_eq!(i.last_sync_rv(), "3");
    assert_eq!(i.store_names(), vec!["a", "b"]);
    assert!(i.has_synced());
    assert_eq!(i.next_wakeup(), None, "a watching reflector has nothing timed to do");
    let v = show(&mut i);
    assert_eq!(v["informer"], "inf");
    assert_eq!(v["lastSyncRV"], "3");
    assert_eq!(
        v["store"],
        json!([
            {"name":"a","namespace":"default","resourceVersion":"2"},
            {"name":"b","namespace":"default","resourceVersion":"3"}
        ])
    );
    assert_eq!(v["log"], json!([]), "show prints only what is new");
}

// §f: every watch event advances lastSyncRV; the informer does no RV filtering and calls
// OnAdd / OnUpdate(old, new) / OnDelete in arrival order.
#[test]
fn watch_events_move_last_sync_rv_and_reach_the_handlers_in_order() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 7);
    assert_eq!(create(&mut c, "c"), "4");
    update(&mut c, "a", "x");
    delete(&mut c, "b");
    i.poll(&mut c);
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(requests, Vec::<String>::new(), "events arrive on the open watch");
    assert_eq!(
        log,
        vec!["ADDED c@4 → lastSyncRV=4", "MODIFIED a@5 → lastSyncRV=5", "DELETED b@6 → lastSyncRV=6"]
    );
    assert_eq!(handlers, vec!["OnAdd c@4", "OnUpdate a@2 → a@5", "OnDelete b@6"]);
    assert_eq!(i.last_sync_rv(), "6");
    assert_eq!(i.store_names(), vec!["a", "c"]);
}

// §f, §E.5: a clean close (timeout, slow-watcher termination) → a new watch from lastSyncRV
// with a fresh timeout, no relist, no handler calls.
#[test]
fn clean_close_rewatches_from_last_sync_rv_without_relisting() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = informer(InformerMode::Legacy, 9);
    i.poll(&mut c);
    c.advance(Duration::from_secs(2));
    assert_eq!(create(&mut c, "b"), "3");
    i.poll(&mut c);
    c.advance(Duration::from_secs(3));
    shown(&mut i);
    end_stream(&mut c, &i);
    i.poll(&mut c);
    let mut d = Draws::past_first_watch(9);
    let t2 = d.timeout();
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(log, clean_rewatch("3", t2));
    assert_eq!(requests, vec![watch_target("3", t2)]);
    assert!(handlers.is_empty());
    assert_eq!(i.last_sync_rv(), "3");
}

// client-go handleAnyWatch: a stream that ends within 1 s without any event is an error ("very
// short watch") → ListAndWatch returns → back off (seeded) → relist at lastSyncRV, unpaginated.
// A relist calls OnUpdate even for unchanged objects (§f).
#[test]
fn very_short_watch_backs_off_then_relists_at_last_sync_rv() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 21);
    end_stream(&mut c, &i);
    i.poll(&mut c);
    let mut d = Draws::past_first_watch(21);
    let b1 = d.backoff();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(
        log,
        vec![format!(
            "watch ended with an error: very short watch: closed after 0s with no events → back off {}, then ListAndWatch again: relist at lastSyncRV=3 (NotOlderThan)",
            fmt(b1)
        )]
    );
    assert!(requests.is_empty());
    assert_eq!(i.next_wakeup(), at(b1));
    i.poll(&mut c);
    assert_eq!(shown(&mut i).1, Vec::<String>::new(), "nothing happens before the back-off ends");
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    let t2 = d.timeout();
    let (_, requests, handlers) = shown(&mut i);
    assert_eq!(requests, vec![format!("GET {CM}?resourceVersion=3 → 200"), watch_target("3", t2)]);
    assert_eq!(handlers, vec!["OnUpdate a@2 → a@2", "OnUpdate b@3 → b@3"]);
}

fn fmt(ms: u64) -> String {
    rvlab::client::trace::fmt_ms(ms)
}

// §f, §h 9, §E.2: a re-watch from a compacted revision gets ERROR 410 Expired → the reflector
// keeps its store, backs off, relists at lastSyncRV (not "" nor "0") and diffs on Replace:
// OnDelete(DeletedFinalStateUnknown) first, then OnUpdate/OnAdd in list order.
#[test]
fn watch_410_relists_at_last_sync_rv_and_diffs_the_store() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 4);
    c.advance(Duration::from_secs(2));
    assert_eq!(create(&mut c, "c"), "4");
    assert_eq!(create(&mut c, "d"), "5");
    delete(&mut c, "b"); // rev 6
    c.compact(6).expect("compact");
    end_stream(&mut c, &i);
    i.poll(&mut c);
    let mut d = Draws::past_first_watch(4);
    let t2 = d.timeout();
    let b1 = d.backoff();
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(
        log,
        vec![
            "watch ended cleanly → re-watch from 3".to_string(),
            format!("watch from 3 (timeoutSeconds={t2})"),
            "ERROR 410 Expired \"The resourceVersion for the provided watch is too old.\"".to_string(),
            format!(
                "410 Expired → back off {}, then ListAndWatch again: relist at lastSyncRV=3 (NotOlderThan)",
                fmt(b1)
            ),
        ]
    );
    assert_eq!(requests, vec![watch_target("3", t2)]);
    assert!(handlers.is_empty());
    assert_eq!(i.store_names(), vec!["a", "b"], "the store is kept until the relist replaces it");
    assert_eq!(i.next_wakeup(), at(2000 + b1));
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    let t3 = d.timeout();
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(requests, vec![format!("GET {CM}?resourceVersion=3 → 200"), watch_target("6", t3)]);
    assert_eq!(
        log[0],
        "list rv=\"3\", unpaginated (relist at lastSyncRV, not older than 3; unpaginated so the watch cache can serve it)"
    );
    assert_eq!(log[1], "list rv=\"3\" → 3 items at RV 6 (lastSyncRV=6)");
    assert_eq!(
        handlers,
        vec![
            "OnDelete DeletedFinalStateUnknown{key=default/b, obj=b@3}",
            "OnUpdate a@2 → a@2",
            "OnAdd c@4",
            "OnAdd d@5"
        ]
    );
    assert_eq!(i.last_sync_rv(), "6");
    assert_eq!(i.store_names(), vec!["a", "c", "d"]);
}

// §f + client-go reflector.list: a first rv="0" list that came back paginated makes every later
// list paginated too (paginatedResult); limit + rv=n is the legacy Exact rule (§C.3), so after
// compaction the relist at lastSyncRV fails with 410 and the reflector lists again with rv="",
// keeping the pager's page size. lastSyncRV becomes the first page's RV.
#[test]
fn relist_at_last_sync_rv_that_fails_with_410_falls_back_to_rv_empty() {
    let mut c = cluster();
    for n in 0..501 {
        create(&mut c, &format!("cm-{n:03}"));
    }
    let mut i = informer(InformerMode::Legacy, 12);
    i.poll(&mut c);
    let mut d = Draws::new(12);
    let t1 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(requests.len(), 3, "{requests:?}");
    assert_eq!(requests[0], format!("GET {CM}?limit=500&resourceVersion=0 → 200"));
    assert!(
        requests[1].starts_with(&format!("GET {CM}?continue=")) && requests[1].ends_with("&limit=500 → 200"),
        "{}",
        requests[1]
    );
    assert_eq!(requests[2], watch_target("502", t1));
    assert!(
        log.contains(
            &"page 1: 500 items at RV 502, continue token → next page (limit=500, rv cleared)".to_string()
        ),
        "{log:?}"
    );
    assert!(log.contains(&"page 2: 1 items, last page".to_string()), "{log:?}");
    assert!(
        log.contains(&"list rv=\"0\" → 501 items at RV 502 in 2 requests (lastSyncRV=502)".to_string()),
        "{log:?}"
    );
    assert_eq!(i.last_sync_rv(), "502");

    c.advance(Duration::from_secs(2));
    create(&mut c, "x"); // 503
    create(&mut c, "y"); // 504
    c.compact(504).expect("compact");
    end_stream(&mut c, &i);
    i.poll(&mut c); // clean close → re-watch from 502 → ERROR 410 → back off
    let t2 = d.timeout();
    let b1 = d.backoff();
    assert_eq!(shown(&mut i).1, vec![watch_target("502", t2)]);
    assert_eq!(i.next_wakeup(), at(2000 + b1));
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    let t3 = d.timeout();
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(requests.len(), 4, "{requests:?}");
    assert_eq!(requests[0], format!("GET {CM}?limit=500&resourceVersion=502 → 410"));
    assert_eq!(requests[1], format!("GET {CM}?limit=500 → 200"));
    assert!(
        requests[2].starts_with(&format!("GET {CM}?continue=")) && requests[2].ends_with("&limit=500 → 200")
    );
    assert_eq!(requests[3], watch_target("504", t3));
    assert_eq!(
        log[0],
        "list rv=\"502\", pages of 500, because the first list came back paginated (relist at lastSyncRV, not older than 502)"
    );
    assert_eq!(
        log[1],
        "list rv=\"502\" failed: 410 Expired \"The resourceVersion for the provided list is too old.\" → relist with rv=\"\""
    );
    assert!(
        log.contains(&"list rv=\"\" → 503 items at RV 504 in 2 requests (lastSyncRV=504)".to_string()),
        "{log:?}"
    );
    assert_eq!(handlers.len(), 503);
    assert_eq!(handlers[0], "OnUpdate cm-000@2 → cm-000@2");
    assert_eq!(handlers[502], "OnAdd y@504");
    assert_eq!(i.last_sync_rv(), "504");
}

// §f: 504 "too large resource version" (cause ResourceVersionTooLarge) on the relist also falls
// back to rv=""; the legacy reason `Gone` counts as expired. The rv="" retry reuses the pager of
// the failed relist, so it is unpaginated too.
#[test]
fn gone_then_too_large_relist_falls_back_to_a_consistent_list() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 5);
    let mut d = Draws::past_first_watch(5);
    {
        let mut f = Faulty::new(&mut c);
        f.inject.push(Frame::error(&Status::failure(410, "Gone", "too old resource version: 2 (3)", None)));
        f.answer("?resourceVersion=2", &Status::too_large_resource_version(2, 1, 0));
        i.poll_with(&mut f);
        let b1 = d.backoff();
        let (log, _, _) = shown(&mut i);
        assert_eq!(
            log,
            vec![
                "ERROR 410 Gone \"too old resource version: 2 (3)\"".to_string(),
                format!(
                    "410 Gone → back off {}, then ListAndWatch again: relist at lastSyncRV=2 (NotOlderThan)",
                    fmt(b1)
                ),
            ]
        );
        f.c.advance(Duration::from_millis(b1));
        i.poll_with(&mut f);
    }
    let t2 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(
        requests,
        vec![format!("GET {CM}?resourceVersion=2 → 504"), format!("GET {CM} → 200"), watch_target("2", t2)]
    );
    assert_eq!(
        log[1],
        "list rv=\"2\" failed: 504 Timeout \"Timeout: Too large resource version: 2, current: 1\" → relist with rv=\"\""
    );
    assert_eq!(log[2], "list rv=\"\" → 1 items at RV 2 (lastSyncRV=2)");
}

// §f: BOOKMARK events advance lastSyncRV (and so the next watch's start) without touching the
// store or the handlers.
#[test]
fn bookmarks_advance_last_sync_rv_only() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 6);
    let mut f = Faulty::new(&mut c);
    f.inject.push(bookmark("9"));
    i.poll_with(&mut f);
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(log, vec!["BOOKMARK@9 → lastSyncRV=9"]);
    assert!(requests.is_empty() && handlers.is_empty());
    assert_eq!(i.last_sync_rv(), "9");
    f.c.advance(Duration::from_secs(5));
    let h = i.watch_handle().expect("watching");
    f.c.cancel_watch(h);
    i.poll_with(&mut f);
    let mut d = Draws::past_first_watch(6);
    let t2 = d.timeout();
    assert_eq!(shown(&mut i).1, vec![watch_target("9", t2)]);
}

// client-go rest: a 429 (or 5xx) with Retry-After is retried by the REST client itself after the
// wait, before the reflector sees anything; the informer says when it wants to be polled.
#[test]
fn retry_after_is_honoured_by_the_rest_client() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = informer(InformerMode::Legacy, 8);
    let mut f = Faulty::new(&mut c);
    f.answer("limit=500&resourceVersion=0", &Status::too_many_requests("storage is (re)initializing", 1));
    f.answer("limit=500&resourceVersion=0", &Status::too_many_requests("storage is (re)initializing", 2));
    i.poll_with(&mut f);
    assert_eq!(i.next_wakeup(), at(1000));
    f.c.advance(Duration::from_secs(1));
    i.poll_with(&mut f);
    assert_eq!(i.next_wakeup(), at(3000));
    f.c.advance(Duration::from_secs(2));
    i.poll_with(&mut f);
    let (log, requests, _) = shown(&mut i);
    let list = format!("GET {CM}?limit=500&resourceVersion=0");
    assert_eq!(requests[..3], [format!("{list} → 429"), format!("{list} → 429"), format!("{list} → 200")]);
    assert!(log.contains(&"429 TooManyRequests with Retry-After: 1 → the REST client waits 1s and sends it again (retry 1 of 10)".to_string()), "{log:?}");
    assert!(log.contains(&"429 TooManyRequests with Retry-After: 2 → the REST client waits 2s and sends it again (retry 2 of 10)".to_string()), "{log:?}");
    assert_eq!(i.last_sync_rv(), "2");
}

// client-go rest: after 10 retries the 11th answer goes to the reflector: a failed list →
// ListAndWatch returns → back off.
#[test]
fn the_eleventh_429_reaches_the_reflector() {
    let mut c = cluster();
    let mut i = informer(InformerMode::Legacy, 8);
    let mut f = Faulty::new(&mut c);
    for _ in 0..11 {
        f.answer("limit=500", &Status::too_many_requests("storage is (re)initializing", 1));
    }
    for _ in 0..11 {
        i.poll_with(&mut f);
        if let Some(t) = i.next_wakeup() {
            let now = f.c.clock().now();
            if t > now && !f.canned.is_empty() {
                f.c.advance(t.since(now));
            }
        }
    }
    let mut d = Draws::new(8);
    let b1 = d.backoff();
    let log = log_lines(&i);
    assert_eq!(i.request_lines().len(), 11);
    assert_eq!(
        log.last().map(String::as_str),
        Some(format!("list rv=\"0\" failed: 429 TooManyRequests \"storage is (re)initializing\" → back off {}, then ListAndWatch again: list rv=\"0\"", fmt(b1)).as_str())
    );
    assert_eq!(i.next_wakeup(), at(10_000 + b1));
}

// §f: a watch request answered 429 → back off and watch again from lastSyncRV — no relist.
#[test]
fn watch_429_backs_off_and_rewatches_without_relisting() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = informer(InformerMode::Legacy, 13);
    let mut f = Faulty::new(&mut c);
    f.answer("watch=true", &Status::too_many_requests("too many requests", 0));
    i.poll_with(&mut f);
    let mut d = Draws::new(13);
    let t1 = d.timeout();
    let b1 = d.backoff();
    assert_eq!(i.next_wakeup(), at(b1));
    f.c.advance(Duration::from_millis(b1));
    i.poll_with(&mut f);
    let t2 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(
        requests,
        vec![
            format!("GET {CM}?limit=500&resourceVersion=0 → 200"),
            watch_target("2", t1).replace("→ 200", "→ 429"),
            watch_target("2", t2),
        ]
    );
    assert!(
        log.contains(&format!("watch from 2 refused: 429 TooManyRequests \"too many requests\" → back off {}, then watch again from 2", fmt(b1))),
        "{log:?}"
    );
}

// wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0): every ListAndWatch failure takes
// the next back-off — 0.8 s, 1.6 s, 3.2 s … each jittered from the seed; streaming falls back to
// a LIST when the watch-list fails with anything but 410/too-large/429 (§f).
#[test]
fn failures_back_off_exponentially_from_the_seed() {
    let mut c = cluster();
    let mut i = Informer::new("w", "widgets", Some("default"), InformerMode::Streaming, vec![0], 11, None);
    let mut d = Draws::new(11);
    let mut t = 0;
    for round in 0..4 {
        i.poll(&mut c);
        let timeout = d.timeout();
        let b = d.backoff();
        let (log, requests, _) = shown(&mut i);
        let path = "/api/v1/namespaces/default/widgets";
        assert_eq!(
            requests,
            vec![
                format!(
                    "GET {path}?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds={timeout}&watch=true → 404"
                ),
                format!("GET {path}?limit=500&resourceVersion=0 → 404"),
            ],
            "round {round}"
        );
        assert!(log.iter().any(|l| l.contains("→ fall back to LIST + WATCH")), "{log:?}");
        assert!(
            log.last()
                .is_some_and(|l| l.contains(&format!("→ back off {}, then ListAndWatch again", fmt(b)))),
            "{log:?}"
        );
        t += b;
        assert_eq!(i.next_wakeup(), at(t), "round {round}");
        advance_to(&mut c, i.next_wakeup());
    }
    assert!(i.store_names().is_empty() && !i.has_synced());
}

// §f resync: every period each cached object is re-delivered as OnUpdate(obj, obj) with the
// same RV; the timer runs only while the reflector is in its watch phase.
#[test]
fn resync_redelivers_the_cache_every_period() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = Informer::new(
        "inf",
        "configmaps",
        Some("default"),
        InformerMode::Legacy,
        vec![0],
        1,
        Some(Duration::from_secs(30)),
    );
    i.poll(&mut c);
    shown(&mut i);
    assert_eq!(i.next_wakeup(), at(30_000));
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(handlers, vec!["OnUpdate a@2 → a@2 (resync)", "OnUpdate b@3 → b@3 (resync)"]);
    assert_eq!(log, vec!["resync period 30s elapsed → re-deliver every cached object (2)"]);
    assert!(requests.is_empty(), "a resync is local: no request");
    assert_eq!(i.next_wakeup(), at(60_000));
}

// With the watch cache on (§E.5): the server ends the watch at its timeoutSeconds deadline —
// a clean close → re-watch from lastSyncRV, no relist.
#[test]
fn watch_timeout_from_the_cache_is_a_clean_close() {
    let mut c = holding(Cluster::new(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 1);
    let mut d = Draws::new(1);
    let t1 = d.timeout();
    c.advance(Duration::from_secs(t1));
    i.poll(&mut c);
    let t2 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(log, clean_rewatch("3", t2));
    assert_eq!(requests, vec![watch_target("3", t2)]);
}

// With the watch cache on (§C.3, §E.3): an apiserver restart ends its watches cleanly; the
// re-watch meets a cache that is (re)initializing → 429 with Retry-After: 1, which the REST
// client retries by itself one second later (client-go rest `checkWait`).
#[test]
fn apiserver_restart_rewatch_rides_out_the_429_with_retry_after() {
    let mut c = holding(Cluster::new(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Legacy, 1);
    c.advance(Duration::from_secs(2));
    c.restart_apiserver(0).expect("restart");
    i.poll(&mut c);
    let mut d = Draws::past_first_watch(1);
    let t2 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(
        log,
        vec![
            // The restart broke the TCP connection: the next request opens a new one.
            "the connection to apiserver 1 broke (no ERROR frame, the stream just ends) → the next request opens a new connection, to apiserver 1".to_string(),
            "watch ended cleanly → re-watch from 3".to_string(),
            format!("watch from 3 (timeoutSeconds={t2})"),
            "429 TooManyRequests with Retry-After: 1 → the REST client waits 1s and sends it again (retry 1 of 10)".to_string(),
        ]
    );
    assert_eq!(requests, vec![watch_target("3", t2).replace("→ 200", "→ 429")]);
    assert_eq!(i.next_wakeup(), at(3000));
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    assert_eq!(shown(&mut i).1, vec![watch_target("3", t2)], "the same request, sent again");
    assert_eq!(i.store_names(), vec!["a", "b"]);
}

// ---------------------------------------------------------------------------------------------
// Streaming (WatchListClient)

// §f streaming, §E.2: one watch with sendInitialEvents=true&resourceVersionMatch=NotOlderThan,
// rv "" at start; ADDED go to a temporary store until the initial-events-end BOOKMARK, then the
// store is replaced, lastSyncRV = the bookmark's RV, and the same stream keeps delivering.
#[test]
fn streaming_collects_initial_events_until_the_end_bookmark_and_keeps_the_watch() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = informer(InformerMode::Streaming, 5);
    i.poll(&mut c);
    let mut d = Draws::new(5);
    let t1 = d.timeout();
    let (log, requests, handlers) = shown(&mut i);
    assert_eq!(requests, vec![watch_list_target(None, t1, 200)]);
    assert_eq!(
        log,
        vec![
            "start informer on /api/v1/namespaces/default/configmaps (streaming: WatchList (sendInitialEvents=true))".to_string(),
            format!("watch-list rv=\"\" with sendInitialEvents=true, NotOlderThan (timeoutSeconds={t1}): the most recent state, consistent"),
            "initial ADDED a@2 → temporary store (1 so far)".to_string(),
            "initial ADDED b@3 → temporary store (2 so far)".to_string(),
            "BOOKMARK@3 with k8s.io/initial-events-end → replace the store with 2 items (lastSyncRV=3); keep watching on this stream".to_string(),
        ]
    );
    assert_eq!(handlers, vec!["OnAdd a@2 (in initial list)", "OnAdd b@3 (in initial list)"]);
    assert_eq!(i.last_sync_rv(), "3");
    let h = i.watch_handle();
    create(&mut c, "c");
    i.poll(&mut c);
    let (log, requests, handlers) = shown(&mut i);
    assert!(requests.is_empty(), "the watch-list stream is kept");
    assert_eq!(i.watch_handle(), h);
    assert_eq!(log, vec!["ADDED c@4 → lastSyncRV=4"]);
    assert_eq!(handlers, vec!["OnAdd c@4"]);
}

// client-go watch(): after the watch-list stream ends cleanly the reflector re-watches from
// lastSyncRV with a plain watch; a 410 on it → back off → watch-list again from lastSyncRV
// (NotOlderThan never 410s on an old rv) and the Replace diffs the store.
#[test]
fn streaming_rewatches_plainly_and_recovers_from_410_with_a_new_watch_list() {
    let mut c = holding(cluster(), &["a", "b"]);
    let mut i = watching(&mut c, InformerMode::Streaming, 17);
    c.advance(Duration::from_secs(2));
    create(&mut c, "c"); // 4
    delete(&mut c, "a"); // 5
    c.compact(5).expect("compact");
    end_stream(&mut c, &i);
    i.poll(&mut c);
    let mut d = Draws::past_first_watch(17);
    let t2 = d.timeout();
    let b1 = d.backoff();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(requests, vec![watch_target("3", t2)]);
    assert_eq!(log.last().map(String::as_str), Some(format!("410 Expired → back off {}, then ListAndWatch again: watch-list from lastSyncRV=3 (NotOlderThan)", fmt(b1)).as_str()));
    advance_to(&mut c, i.next_wakeup());
    i.poll(&mut c);
    let t3 = d.timeout();
    let (_, requests, handlers) = shown(&mut i);
    assert_eq!(requests, vec![watch_list_target(Some("3"), t3, 200)]);
    assert_eq!(
        handlers,
        vec!["OnDelete DeletedFinalStateUnknown{key=default/a, obj=a@2}", "OnUpdate b@3 → b@3", "OnAdd c@4"]
    );
    assert_eq!(i.last_sync_rv(), "5");
    assert_eq!(i.store_names(), vec!["b", "c"]);
}

// §f streaming: a watch-list refused with 410 or too-large → retry at once with rv "".
#[test]
fn streaming_too_large_retries_the_watch_list_with_rv_empty() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = watching(&mut c, InformerMode::Streaming, 19);
    let mut d = Draws::past_first_watch(19);
    let mut f = Faulty::new(&mut c);
    f.inject.push(Frame::error(&Status::expired("too old resource version: 2 (3)")));
    f.answer(
        "resourceVersion=2&resourceVersionMatch=NotOlderThan",
        &Status::too_large_resource_version(2, 1, 0),
    );
    i.poll_with(&mut f);
    let b1 = d.backoff();
    f.c.advance(Duration::from_millis(b1));
    i.poll_with(&mut f);
    let t2 = d.timeout();
    let t3 = d.timeout();
    let (log, requests, _) = shown(&mut i);
    assert_eq!(requests, vec![watch_list_target(Some("2"), t2, 504), watch_list_target(None, t3, 200)]);
    assert!(
        log.contains(&"watch-list rv=\"2\" failed: 504 Timeout \"Timeout: Too large resource version: 2, current: 1\" → retry the watch-list with rv=\"\"".to_string()),
        "{log:?}"
    );
    assert_eq!(i.last_sync_rv(), "2");
}

// An all-namespaces informer lists /api/v1/<resource> and names objects namespace/name.
#[test]
fn all_namespaces_informer_uses_the_cluster_wide_path() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = Informer::new("all", "configmaps", None, InformerMode::Legacy, vec![0], 3, None);
    i.poll(&mut c);
    let t1 = Draws::new(3).timeout();
    let (_, requests, handlers) = shown(&mut i);
    assert_eq!(
        requests,
        vec![
            "GET /api/v1/configmaps?limit=500&resourceVersion=0 → 200".to_string(),
            format!(
                "GET /api/v1/configmaps?allowWatchBookmarks=true&resourceVersion=2&timeoutSeconds={t1}&watch=true → 200"
            ),
        ]
    );
    assert_eq!(handlers, vec!["OnAdd default/a@2 (in initial list)"]);
    assert_eq!(i.store().keys().cloned().collect::<Vec<_>>(), vec!["default/a"]);
}

// ---------------------------------------------------------------------------------------------
// Pager

// §D: a continuation whose token revision was compacted fails with 410 Expired → the pager makes
// exactly one full (unpaginated) list at the originally requested rv; the result is that list.
#[test]
fn pager_falls_back_to_one_full_list_when_a_continue_token_expires() {
    let mut c = holding(cluster(), &["a", "b", "c"]);
    let path = ResourcePath::new("configmaps", Some("default"));
    let mut trace = Trace::new();
    let mut run = ListPager::new(1).start(&path, 0, ListOptions::default());
    assert!(run.send_one(&mut c, &mut trace).is_none(), "page 1 has a continue token");
    create(&mut c, "d"); // 5
    create(&mut c, "e"); // 6
    c.compact(6).expect("compact");
    assert!(run.send_one(&mut c, &mut trace).is_none(), "the 410 is absorbed, the full list follows");
    let Some(PagerPoll::Done(Ok(list))) = run.send_one(&mut c, &mut trace) else {
        panic!("the full list ends the run")
    };
    let names: Vec<&str> =
        list.items.iter().filter_map(|o| o.pointer("/metadata/name").and_then(Value::as_str)).collect();
    assert_eq!(names, vec!["a", "b", "c", "d", "e"]);
    assert_eq!(list.resource_version, "6");
    assert!(list.paginated && list.fell_back_to_full_list);
    let requests = trace.request_lines();
    assert_eq!(requests[0], format!("GET {CM}?limit=1 → 200"));
    assert!(
        requests[1].starts_with(&format!("GET {CM}?continue=")) && requests[1].ends_with("&limit=1 → 410")
    );
    assert_eq!(requests[2], format!("GET {CM} → 200"));
    assert_eq!(requests.len(), 3);
    assert!(trace.log.iter().map(|l| render(&l.decision, Lang::En)).collect::<Vec<_>>().contains(
        &"page 2 failed: 410 Expired (the continue token's revision was compacted) → one full list at the requested rv=\"\" (pager fallback)".to_string()
    ));
}

// §D: pages carry only limit + continue after the first; the list RV is the first page's; a 410
// on the *first* page is returned as is (no fallback).
#[test]
fn pager_pages_and_returns_first_page_errors() {
    let mut c = holding(cluster(), &["a", "b", "c"]);
    let path = ResourcePath::new("configmaps", Some("default"));
    let mut trace = Trace::new();
    let list = ListPager::new(2)
        .list(
            &mut c,
            &path,
            0,
            ListOptions { resource_version: "3".into(), ..Default::default() },
            &mut trace,
        )
        .expect("list");
    assert_eq!(list.items.len(), 2, "limit + rv=3 is Exact (§C.3): c@4 is not visible");
    assert_eq!(list.resource_version, "3");
    assert_eq!(list.pages, 1);
    assert!(!list.paginated);
    let list = ListPager::new(2).list(&mut c, &path, 0, ListOptions::default(), &mut trace).expect("list");
    assert_eq!(
        (list.items.len(), list.resource_version.as_str(), list.pages, list.paginated),
        (3, "4", 2, true)
    );
    c.compact(4).expect("compact");
    let err = ListPager::default()
        .list(
            &mut c,
            &path,
            0,
            ListOptions { resource_version: "2".into(), ..Default::default() },
            &mut trace,
        )
        .expect_err("a compacted Exact first page fails");
    assert!(err.is_expired() && err.code == 410);
    let requests = trace.request_lines();
    assert_eq!(requests[0], format!("GET {CM}?limit=2&resourceVersion=3 → 200"));
    assert_eq!(requests[1], format!("GET {CM}?limit=2 → 200"));
    assert!(
        requests[2].starts_with(&format!("GET {CM}?continue=")) && requests[2].ends_with("&limit=2 → 200")
    );
    assert_eq!(requests[3], format!("GET {CM}?limit=500&resourceVersion=2 → 410"));
    assert_eq!(requests.len(), 4);
}

// ---------------------------------------------------------------------------------------------
// Robustness

// Nothing the server returns may panic the client: a list body that is not a list, an ERROR
// frame that is not a Status, an unknown resource.
#[test]
fn garbage_from_the_server_is_an_error_not_a_panic() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = informer(InformerMode::Legacy, 2);
    let mut f = Faulty::new(&mut c);
    f.canned.push((
        "limit=500".into(),
        ApiResponse {
            code: 200,
            headers: vec![],
            body: Value::Null,
            watch: None,
            why: Box::new(rvlab::apiserver::decision::Why::new(
                rvlab::apiserver::decision::Rule::RequestRejected,
            )),
        },
    ));
    i.poll_with(&mut f);
    assert!(
        log_lines(&i).iter().any(|l| l.contains("returned object must be a list")),
        "{:?}",
        log_lines(&i)
    );
    advance_to(f.c, i.next_wakeup());
    i.poll_with(&mut f);
    assert_eq!(i.last_sync_rv(), "2");
    f.inject.push(Frame::new(FrameType::Error, json!({"kind":"ConfigMap"})));
    f.inject.push(Frame::new(FrameType::Added, json!("not an object")));
    i.poll_with(&mut f);
    assert!(log_lines(&i).iter().any(|l| l.contains("unexpected watch ERROR object")), "{:?}", log_lines(&i));
    i.stop_with(&mut f);
    assert_eq!(i.next_wakeup(), None);
    i.poll_with(&mut f);
    assert_eq!(log_lines(&i).last().map(String::as_str), Some("stopped"));
}

// Stopping hangs up the watch; a stopped informer never sends again.
#[test]
fn stop_cancels_the_watch() {
    let mut c = holding(cluster(), &["a"]);
    let mut i = informer(InformerMode::Legacy, 2);
    i.poll(&mut c);
    let h = i.watch_handle().expect("watching");
    i.stop(&mut c);
    assert_eq!(i.watch_handle(), None);
    assert_eq!(c.read_watch(h).map(|(_, closed)| closed), Some(true));
    let n = i.request_lines().len();
    c.advance(Duration::from_secs(60));
    i.poll(&mut c);
    assert_eq!(i.request_lines().len(), n);
    assert_eq!(show(&mut i)["state"], "stopped");
}

// ---------------------------------------------------------------------------------------------
// Faults and clients a script drives (issue 16 §3), through `Session` exactly as `rvlab run`.

fn run(script: &str) -> Vec<Value> {
    rvlab::script::Session::with_explain(true).run_script(script)
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap_or("?").to_string()).collect())
        .unwrap_or_default()
}

/// The typed decisions of an informer/pager output, without their times.
fn decisions(out: &Value) -> Vec<String> {
    out["why"]["log"]
        .as_array()
        .map(|a| a.iter().map(|d| d["decision"].as_str().unwrap_or("?").to_string()).collect())
        .unwrap_or_default()
}

// A load balancer in front of two apiservers, the second with a watch cache 2 minutes behind.
// `drop informer` breaks the connection: client-go's StreamWatcher treats a broken connection
// like EOF and closes the result channel without an ERROR event (apimachinery
// pkg/watch/streamwatcher.go @ v0.34.0, `receive`: `net.IsProbableEOF`). The watch lasted < 1 s
// with no event, so watchHandler returns "very short watch" (client-go
// tools/cache/reflector.go @ v0.34.0) and ListAndWatch returns → back-off → relist at lastSyncRV,
// on the new connection, which the balancer gave to apiserver 2. Its cache cannot reach 3 within
// 3 s: 504 "Too large resource version" with Retry-After: 1, which the REST client retries 10
// times (rest/with_retry.go @ v0.34.0, `checkWait`: 429 or ≥ 500 with Retry-After; `maxRetries`
// 10); then `isTooLargeResourceVersionError` → lastSyncRV unavailable → list at "" at once
// (reflector.go `list`).
#[test]
fn load_balanced_relist_meets_the_lagging_cache_retries_then_lists_from_scratch() {
    let out = run(r#"set apiservers 2
apiserver 2
set cache.lag 2m
apiserver 1
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
informer start inf configmaps ns=default apiservers=1,2 mode=legacy
drop informer inf
advance 60s
informer show inf"#);
    let dropped = &out[7];
    assert_eq!(dropped, &json!({"line": 8, "dropped": "inf"}));
    let show = &out[9];
    let reqs = strs(&show["requests"]);
    let relist = format!("GET {CM}?resourceVersion=3 → 504");
    assert_eq!(reqs.iter().filter(|r| **r == relist).count(), 11, "{reqs:?}");
    assert_eq!(reqs[reqs.len() - 2], format!("GET {CM} → 200"));
    assert!(
        reqs[reqs.len() - 1].starts_with(&format!("GET {CM}?allowWatchBookmarks=true&resourceVersion=3&"))
    );
    let log = strs(&show["log"]);
    assert_eq!(
        log[0],
        "start informer on /api/v1/namespaces/default/configmaps (legacy: LIST, then WATCH), through a load balancer to apiservers 1, 2"
    );
    assert_eq!(
        log[4],
        "the connection to apiserver 1 broke (no ERROR frame, the stream just ends) → the next request opens a new connection, to apiserver 2"
    );
    assert!(log[5].starts_with(
        "watch ended with an error: very short watch: closed after 0s with no events → back off "
    ));
    assert!(log[5].ends_with(", then ListAndWatch again: relist at lastSyncRV=3 (NotOlderThan)"));
    assert_eq!(
        log[6],
        "list rv=\"3\", unpaginated (relist at lastSyncRV, not older than 3; unpaginated so the watch cache can serve it)"
    );
    for k in 1..=10 {
        assert_eq!(
            log[6 + k],
            format!(
                "504 Timeout with Retry-After: 1 → the REST client waits 1s and sends it again (retry {k} of 10)"
            )
        );
    }
    assert_eq!(
        log[17],
        "list rv=\"3\" failed: 504 Timeout \"Timeout: Too large resource version: 3, current: 1\" → relist with rv=\"\""
    );
    assert_eq!(log[18], "list rv=\"\" → 2 items at RV 3 (lastSyncRV=3)");
    let mut want = vec![
        "start",
        "list-any",
        "listed",
        "watch",
        "connection-lost",
        "relist-at-last-sync",
        "list-at-last-sync",
    ];
    want.extend(["retry-after"; 10]);
    want.extend(["relist-from-scratch", "listed", "watch"]);
    assert_eq!(decisions(show), want);
    let why = &show["why"]["log"];
    assert_eq!(why[4], json!({"at": "0s", "decision": "connection-lost", "from": 1, "to": 2}));
    assert_eq!(
        why[5]["cause"],
        json!({"kind": "watch-failed", "error": {"code": 0, "client": {"kind": "very-short-watch", "afterMs": 0}}})
    );
    assert_eq!(
        why[7],
        json!({"at": why[7]["at"].clone(), "decision": "retry-after", "code": 504, "reason": "Timeout",
               "retryAfterSeconds": 1, "retry": 1, "maxRetries": 10})
    );
    assert_eq!(
        why[17]["cause"],
        json!({"kind": "list-failed", "rv": "3", "error": {"code": 504, "reason": "Timeout",
               "message": "Timeout: Too large resource version: 3, current: 1"}})
    );
    assert_eq!(
        show["handlers"],
        json!([
            "OnAdd a@2 (in initial list)",
            "OnAdd b@3 (in initial list)",
            "OnUpdate a@2 → a@2",
            "OnUpdate b@3 → b@3"
        ])
    );
}

// A dropped connection on a watch that has lived longer than a second is a clean close: re-watch
// from lastSyncRV on a new connection, no relist (reflector.go @ v0.34.0, watchHandler returns nil
// → `watch` loops).
#[test]
fn drop_after_a_second_rewatches_on_the_next_apiserver() {
    let out = run(r#"set apiservers 2
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
informer start inf configmaps ns=default apiservers=1,2
advance 2s
informer show inf
drop informer inf
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
informer show inf"#);
    let show = &out[7];
    let log = strs(&show["log"]);
    assert_eq!(
        log[0],
        "the connection to apiserver 1 broke (no ERROR frame, the stream just ends) → the next request opens a new connection, to apiserver 2"
    );
    assert_eq!(log[1], "watch ended cleanly → re-watch from 2");
    assert!(log[2].starts_with("watch from 2 (timeoutSeconds="));
    assert_eq!(log[3], "ADDED b@3 → lastSyncRV=3");
    assert_eq!(decisions(show), vec!["connection-lost", "rewatch", "watch", "event"]);
    assert_eq!(show["handlers"], json!(["OnAdd b@3"]));
    // Dropping an informer that does not exist is an error, not a panic.
    assert_eq!(run("drop informer nope")[0]["error"], "no informer named \"nope\"");
}

// resync=30s: the reflector's resync timer re-delivers every cached object as
// OnUpdate(obj, obj) each period while it is in its watch phase (reflector.go @ v0.34.0
// `startResync` → `store.Resync()`; shared_informer.go `AddEventHandlerWithResyncPeriod`).
#[test]
fn resync_period_from_a_script() {
    let out = run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
informer start inf configmaps ns=default resync=30s
advance 61s
informer show inf"#);
    let show = &out[3];
    assert_eq!(
        show["handlers"],
        json!(["OnAdd a@2 (in initial list)", "OnUpdate a@2 → a@2 (resync)", "OnUpdate a@2 → a@2 (resync)"])
    );
    let why = &show["why"]["log"];
    assert_eq!(why[4], json!({"at": "30s", "decision": "resync", "periodMs": 30000, "objects": 1}));
    assert_eq!(why[5], json!({"at": "60s", "decision": "resync", "periodMs": 30000, "objects": 1}));
    assert_eq!(strs(&show["log"])[4], "resync period 30s elapsed → re-deliver every cached object (1)");
}

// A resync period below 1 s is raised to client-go's `minimumResyncPeriod` (1 s), which
// client-go only logs as a warning (staging/src/k8s.io/client-go/tools/cache/shared_informer.go
// @ v0.34.0: `const minimumResyncPeriod = 1 * time.Second`, `AddEventHandlerWithResyncPeriod`).
#[test]
fn a_resync_period_below_one_second_is_raised_to_it() {
    let out = run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
informer start inf configmaps ns=default resync=500ms
advance 3s
informer show inf"#);
    let why = &out[3]["why"]["log"];
    assert_eq!(
        why[1],
        json!({"at": "0s", "decision": "resync-raised", "requestedMs": 500, "periodMs": 1000})
    );
    assert_eq!(
        strs(&out[3]["log"])[1],
        "resync period 500ms is below client-go's minimum → resync every 1s instead"
    );
    // The watch phase starts at 0 s: a resync every second after it, not every 500 ms.
    let resyncs: Vec<&Value> =
        why.as_array().into_iter().flatten().filter(|l| l["decision"] == "resync").collect();
    let at: Vec<&Value> = resyncs.iter().map(|l| &l["at"]).collect();
    assert_eq!(at, [&json!("1s"), &json!("2s"), &json!("3s")], "{why}");
    assert!(resyncs.iter().all(|l| l["periodMs"] == 1000));
}

// What one `advance` may simulate (src/script/budget.rs): at most 10,000 compaction rounds and
// resyncs, refused before anything runs, with the longest advance that would run.
#[test]
fn an_advance_with_too_many_timer_rounds_is_refused_before_it_runs() {
    let out = run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
informer start inf configmaps ns=default resync=1s
advance 168h
advance 9966s
advance 9965s
informer stop inf
set compaction-interval 10s
advance 168h
advance 2h
set compaction-interval 5m
set apiservers 3
advance 168h"#);
    assert_eq!(
        out[2]["error"],
        "advance 604800s would run 2017 compaction round(s) and 604801 resync handler call(s); one advance runs at most 10000 of them (more would freeze the page): advance at most 9965s per line here, or lengthen compaction-interval / resync="
    );
    assert!(
        out[3]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("advance 9966s would run 34 compaction round(s) and 9967"))
    );
    assert_eq!(out[4]["now"], "9965s", "nothing ran before: time starts from 0");
    // A stopped informer does not resync; 10 s compaction: 60,481 rounds in 168h, 721 in 2h.
    assert!(out[7]["error"].as_str().is_some_and(|e| e.contains("60481 compaction round(s) and 0 resync")));
    assert_eq!(out[8]["now"], format!("{}s", 9965 + 2 * 3600));
    // The defaults (a compactor every 5 minutes on each of 3 apiservers) allow the longest advance.
    assert_eq!(out[11]["now"], format!("{}s", 9965 + 2 * 3600 + 168 * 3600));
}

// `pager list`: client-go's ListPager on its own (tools/pager/pager.go @ v0.34.0): `limit` on
// every page, `continue` and no resourceVersion after the first, the list RV of the first page.
#[test]
fn pager_list_pages_through_a_collection() {
    let out = run(r#"set watch-cache off
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}
pager list /api/v1/namespaces/default/configmaps limit=2
expect items == [a, b, c]
pager list /api/v1/namespaces/default/configmaps limit=2 rv=1
pager list /api/v1/namespaces/default/widgets
pager list /apis/x"#);
    let p = &out[4];
    assert_eq!(p["pager"], CM);
    assert_eq!(p["code"], 200);
    assert_eq!(p["body"]["metadata"], json!({"resourceVersion": "4"}));
    assert_eq!(p["pages"], 2);
    assert_eq!(p["fullListFallback"], false);
    let tok = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJiXHUwMDAwIn0";
    assert_eq!(
        p["requests"],
        json!([format!("GET {CM}?limit=2 → 200"), format!("GET {CM}?continue={tok}&limit=2 → 200")])
    );
    assert_eq!(
        p["log"],
        json!([
            "page 1: 2 items at RV 4, continue token → next page (limit=2, rv cleared)",
            "page 2: 1 items, last page"
        ])
    );
    assert_eq!(
        p["why"]["log"],
        json!([{"at":"0s","decision":"page-continue","page":1,"items":2,"rv":"4","limit":2},
               {"at":"0s","decision":"page-last","page":2,"items":1}])
    );
    assert_eq!(out[5]["ok"], true);
    // rv=1 with a limit and no resourceVersionMatch: a legacy Exact list at revision 1, when
    // nothing existed yet.
    assert_eq!(out[6]["code"], 200);
    assert_eq!(out[6]["body"]["items"], json!([]));
    assert_eq!(out[6]["requests"], json!([format!("GET {CM}?limit=2&resourceVersion=1 → 200")]));
    assert_eq!(
        out[7]["error"],
        "pager list: unknown resource \"widgets\"; the apiserver serves pods and configmaps"
    );
    assert_eq!(out[7]["refused"], json!({"kind": "pager-resource", "resource": "widgets"}));
    assert_eq!(
        out[8]["error"],
        "pager list: \"/apis/x\" is not a collection path; expected /api/v1/namespaces/<ns>/<resource> or /api/v1/<resource>"
    );
    assert_eq!(out[8]["refused"], json!({"kind": "pager-path", "path": "/apis/x"}));
}

// `drop wN`: the connection of a watch breaks. The server notices its client is gone and ends the
// stream; the client gets no ERROR frame, and frames sent but not yet read are lost with the
// connection (apimachinery pkg/watch/streamwatcher.go @ v0.34.0: a broken connection closes the
// result channel without an event).
#[test]
fn drop_a_watch_loses_its_unread_frames_without_an_error() {
    let out = run(r#"GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
drop w1
events w1
events w1
drop w9
drop informer w1
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1
events w2"#);
    assert_eq!(out[2], json!({"line": 3, "dropped": "w1"}));
    assert_eq!(out[3], json!({"line": 4, "events": [], "closed": true, "dropped": true}));
    assert_eq!(out[4], json!({"line": 5, "events": [], "closed": true, "dropped": true}));
    assert_eq!(out[5]["error"], "no watch named \"w9\"");
    assert_eq!(out[6]["error"], "no informer named \"w1\"");
    // The cluster is unaffected: a new watch sees the object.
    assert_eq!(out[8]["events"][0]["type"], "ADDED");
    assert_eq!(out[8]["events"][0]["object"]["metadata"]["name"], "a");
}

// Property (issue 13): over random scripts with informers, faults and the pager, every `log` line
// of an output is the English rendering of its own typed decision (`why.log`, same order), and
// each decision also renders in 中文 — no log text comes from anything else.
#[test]
fn every_client_log_line_is_the_rendering_of_its_typed_decision() {
    use rvlab::script::why::informer::output_log;
    let lines = [
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"NAME"}}"#,
        "DELETE /api/v1/namespaces/default/configmaps/NAME",
        "informer start i1 configmaps ns=default mode=legacy",
        "informer start i2 configmaps mode=streaming apiservers=1,2",
        "informer start i3 configmaps ns=default resync=10s apiservers=2,1 mode=legacy",
        "informer show i1",
        "informer show i2",
        "informer show i3",
        "informer stop i2",
        "drop informer i1",
        "drop informer i3",
        "restart apiserver 1",
        "restart apiserver 2",
        "advance 700ms",
        "advance 5s",
        "advance 2m",
        "compact 3",
        "pager list /api/v1/namespaces/default/configmaps limit=1",
        "pager list /api/v1/configmaps rv=0",
        "pager list /api/v1/namespaces/default/configmaps limit=1 pages=1",
        "pager next pages=1",
        "set cache.lag 20s",
    ];
    let mut checked = 0;
    for seed in 1..=24u64 {
        let mut rng = Rng::new(seed);
        let mut script = String::from("set explain on\nset apiservers 2\n");
        for n in 0..40 {
            let l = lines[rng.range(0, lines.len() as u64) as usize];
            script.push_str(&l.replace("NAME", &format!("o{}", n % 7)));
            script.push('\n');
        }
        for out in rvlab::script::Session::new().run_script(&script) {
            let Some(log) = out.get("log") else { continue };
            let typed = output_log(&out).unwrap_or_else(|| panic!("seed {seed}: no typed why.log in {out}"));
            let text = strs(log);
            assert_eq!(text.len(), typed.len(), "seed {seed}: {out}");
            for (t, d) in text.iter().zip(&typed) {
                assert_eq!(*t, render(&d.decision, Lang::En), "seed {seed}");
                assert_ne!(render(&d.decision, Lang::Zh), *t, "seed {seed}: {t}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} log lines checked");
}

// `pager list … pages=1` stops the pager after its first page (the client is busy with it);
// meanwhile a write and a compaction pass the token's revision; `pager next` sends the
// continuation, which answers 410 Expired, and the pager makes one full list at the originally
// requested resourceVersion (client-go tools/pager/pager.go @ v0.34.0: `FullListIfExpired`,
// on by default in `New`).
#[test]
fn pager_full_list_if_expired_from_a_script() {
    let out = run(r#"set watch-cache off
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}
pager list /api/v1/namespaces/default/configmaps limit=2 pages=1
PUT /api/v1/namespaces/default/configmaps/c {"metadata":{"name":"c"},"data":{"x":"1"}}
compact 5
pager next
expect items == [a, b, c@5]
pager next"#);
    let first = &out[4];
    assert_eq!(first["done"], false);
    assert_eq!(first["pages"], 1);
    assert_eq!(first["requests"], json!([format!("GET {CM}?limit=2 → 200")]));
    assert!(first.get("body").is_none());
    let next = &out[7];
    let tok = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJiXHUwMDAwIn0";
    assert_eq!(
        next["requests"],
        json!([format!("GET {CM}?continue={tok}&limit=2 → 410"), format!("GET {CM} → 200")])
    );
    assert_eq!(
        next["log"],
        json!([
            "page 2 failed: 410 Expired (the continue token's revision was compacted) → one full list at the requested rv=\"\" (pager fallback)"
        ])
    );
    assert_eq!(next["why"]["log"][0]["decision"], "pager-full-list");
    assert_eq!(next["code"], 200);
    assert_eq!(next["fullListFallback"], true);
    assert_eq!(next["body"]["metadata"]["resourceVersion"], "5");
    assert_eq!(out[8]["ok"], true);
    assert_eq!(
        out[9]["error"],
        "pager next: no pager is waiting; start one with pager list <path> … pages=<n>"
    );
}

// Every frame of `events` carries the simulated time the server sent it (issue 16 §3): the
// initial state when the watch starts, each change when the watch cache dispatches it (after
// the cache's lag), a bookmark when the cacher's timer sends it. An etcd-served watch (watch
// cache off) relays each change when etcd sends it, i.e. when the write commits (etcd's
// `watchableStore.notify` runs in the write's txn end); the frame is read later, but its "at"
// is the send time, exactly as for a cache-served frame.
#[test]
fn frames_carry_the_time_they_were_sent() {
    let out = run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0
set cache.lag 2s
advance 61200ms
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
advance 5s
events w1
set watch-cache off
GET /api/v1/namespaces/default/configmaps?watch=true
advance 1500ms
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}
advance 3s
etcd put /registry/configmaps/default/d {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","namespace":"default"}}
advance 10s
events w2"#);
    let evs = &out[6]["events"];
    assert_eq!(evs[0]["type"], "ADDED");
    assert_eq!(evs[0]["at"], "0s", "the initial state is sent when the watch starts");
    assert_eq!(evs[1]["object"]["metadata"]["name"], "b");
    assert_eq!(evs[1]["at"], "63.2s", "dispatched when the lagging cache received it: 61.2 s + 2 s");
    let evs = &out[14]["events"];
    assert_eq!(evs[0]["type"], "ADDED");
    assert_eq!(evs[0]["at"], "66.2s");
    assert_eq!(evs.as_array().map(Vec::len), Some(4), "{evs}");
    assert_eq!(evs[2]["object"]["metadata"]["name"], "c");
    assert_eq!(evs[2]["at"], "67.7s", "relayed when etcd sent it (the write), not when read (80.7 s)");
    assert_eq!(evs[3]["object"]["metadata"]["name"], "d");
    assert_eq!(evs[3]["at"], "70.7s", "a write straight to etcd is relayed at its time too");
}

// An etcd-served watch from an old resourceVersion: etcd sends the catch-up as the watch starts
// (`watchableStore.syncWatchers`), so the replayed frames carry the watch's start time; from a
// compacted revision the 410 ERROR frame (etcd3 `watcher.go`) carries it too.
#[test]
fn etcd_relayed_catch_up_and_410_carry_the_watch_start_time() {
    let out = run(r#"set watch-cache off
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
advance 4s
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2
advance 1s
events w1
compact 3
advance 2s
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1
events w2"#);
    let evs = &out[6]["events"];
    assert_eq!(evs.as_array().map(Vec::len), Some(1), "{evs}");
    assert_eq!(evs[0]["object"]["metadata"]["name"], "b");
    assert_eq!(evs[0]["at"], "4s");
    let evs = &out[10]["events"];
    assert_eq!(evs[0]["type"], "ERROR");
    assert_eq!(evs[0]["object"]["code"], 410);
    assert_eq!(evs[0]["at"], "7s");
}

// ---------------------------------------------------------------------------------------------
// The client-go release (`set client-go`, docs/semantics.md §F)

/// The base (0.8 s, 1.6 s, …) of each back-off the reflector took: a jittered wait is in
/// [base, 2·base).
fn backoff_bases(i: &Informer) -> Vec<u64> {
    i.decisions()
        .into_iter()
        .filter_map(|d| match d {
            rvlab::client::trace::Decision::RelistAny { backoff_ms, .. } => Some(*backoff_ms),
            _ => None,
        })
        .map(|d| [800, 1600, 3200, 6400, 12_800].into_iter().find(|b| d >= *b && d < 2 * b).unwrap_or(0))
        .collect()
}

// apimachinery `wait/backoff.go` `backoffManager.Step`: back to 0.8 s once more than 2 min passed
// since `lastStart`, which only a reset moves. client-go 1.36+ (`DelayWithReset`) starts the
// period at the reflector's creation; ≤ 1.35 (`NewExponentialBackoffManager`) at its first
// back-off. A reflector created at 0 s that fails its lists at 100 s, ~101 s and 130 s.
#[test]
fn the_back_off_period_counts_from_creation_from_client_go_1_36() {
    let bases = |minor: u32| {
        let mut c = holding(cluster(), &["a"]);
        let mut i = informer(InformerMode::Legacy, 7).with_client_go(minor, Instant(0));
        for t in [Some(Instant(100_000)), None, Some(Instant(130_000))] {
            let t = t.or_else(|| i.next_wakeup());
            advance_to(&mut c, t);
            let mut f = Faulty::new(&mut c);
            f.answer("limit=500", &Status::internal_error("boom"));
            i.poll_with(&mut f);
        }
        backoff_bases(&i)
    };
    assert_eq!(bases(37), [800, 1600, 800], "reset at 130 s: more than 2 min since creation");
    assert_eq!(bases(36), [800, 1600, 800]);
    assert_eq!(bases(35), [800, 1600, 3200], "no reset: 30 s since the first back-off");
}
