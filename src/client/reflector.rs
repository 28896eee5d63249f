//! client-go's `tools/cache.Reflector` (spec §f), as a sans-IO state machine.
//!
//! Owns the decisions a reflector makes and the state they depend on: `lastSyncResourceVersion`,
//! `isLastSyncResourceVersionUnavailable`, `paginatedResult`, the watch timeout drawn from the
//! seed, the shared exponential back-off ([`Backoff`], per client-go release) and the resync
//! timer. It mirrors `RunWithContext` → `wait.BackoffUntil(ListAndWatch,
//! sliding)`:
//!
//! * **ListAndWatch, legacy**: `list()` — rv = `relistResourceVersion()` ("0" the first time,
//!   then lastSyncRV, or "" once that is unavailable); the pager pages by 500 unless the rv is a
//!   specific number (then one unpaginated request, so the watch cache can serve it) or an earlier
//!   rv="0" list came back paginated. A 410 or too-large error → mark lastSyncRV unavailable and
//!   list again at once with rv "". Success → `Replace`, lastSyncRV = list RV.
//! * **ListAndWatch, streaming** (`WatchListClient`): `watchList()` — a watch with
//!   `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true` from
//!   `rewatchResourceVersion()`; ADDED events go to a temporary store until the BOOKMARK annotated
//!   `k8s.io/initial-events-end: "true"`, then `Replace` and keep that watch. 429 → back off and
//!   retry; 410/too-large → retry with rv ""; a clean close before the bookmark → retry; any other
//!   error → fall back to `list()`.
//! * **watch()**: a watch from lastSyncRV with `allowWatchBookmarks=true` and `timeoutSeconds` in
//!   [300, 600); every event (BOOKMARK too) sets lastSyncRV. A clean close → watch again from
//!   lastSyncRV (no relist). A close within 1 s with no event is an error ("very short watch").
//!   ERROR 410 / other errors → ListAndWatch returns → back off → ListAndWatch again (a relist at
//!   lastSyncRV). 429 → back off, then watch again.
//!
//! The store the reflector writes to is a [`ReflectorStore`] — the informer's queue.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::apiserver::watch::FrameType;
use crate::clock::{Duration, Instant, Rng};
use crate::cluster::WatchHandle;

pub use super::backoff::{Backoff, BackoffReset};
use super::pager::{ListPager, PagerPoll, PagerRun};
use super::rest::{self, ApiError, ListOptions, ResourcePath, Sent, Transport, obj_key, obj_name, obj_rv};
use super::trace::{Cause, ClientError, Decision, Trace, fmt_ms};

/// `defaultMinWatchTimeout`: watch `timeoutSeconds` is random in [5 min, 10 min).
pub const MIN_WATCH_TIMEOUT_SECS: u64 = 300;
/// The annotation of the BOOKMARK that ends a watch-list's initial events.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";
/// Safety valve: the most steps one `poll` takes (a server that closes every watch at once with
/// events would otherwise keep the reflector busy forever at one instant).
const MAX_STEPS_PER_POLL: usize = 256;

/// What the reflector writes into (client-go's `ReflectorStore`, here the informer's queue).
pub trait ReflectorStore {
    fn add(&mut self, obj: Value);
    fn update(&mut self, obj: Value);
    fn delete(&mut self, obj: Value);
    /// Replaces the whole content with `items` (a list or a finished watch-list).
    fn replace(&mut self, items: Vec<Value>, resource_version: &str);
    /// Re-delivers every known object (the resync timer fired).
    fn resync(&mut self);
    /// How many objects it holds.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the reflector builds its initial state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReflectorMode {
    /// LIST (paged) then WATCH.
    Legacy,
    /// WatchListClient: one watch with `sendInitialEvents=true`.
    Streaming,
}

#[derive(Debug, Clone)]
enum WatchKind {
    /// A watch inside `watch()`: events go straight to the store.
    Plain,
    /// A watch-list stream collecting its initial events.
    WatchList { temp: BTreeMap<String, Value>, rv: String },
}

#[derive(Debug, Clone)]
enum State {
    /// `BackoffUntil` calls ListAndWatch at this time.
    ListAndWatchAt(Instant),
    /// `list()` in progress; `fallback` = this is the retry with rv "".
    Listing {
        run: PagerRun,
        rv: String,
        page_size: i64,
        fallback: bool,
    },
    /// `watch()` opens its next watch at this time.
    WatchAt(Instant),
    /// `watchList()` opens its next stream at this time.
    WatchListAt(Instant),
    /// A watch request is being sent (maybe waiting for a `Retry-After`).
    Opening {
        target: String,
        from: String,
        timeout: u64,
        kind: WatchKind,
        start: Instant,
        attempts: u32,
        not_before: Instant,
    },
    /// A watch stream is open.
    Watching {
        handle: WatchHandle,
        start: Instant,
        events: u32,
        kind: WatchKind,
    },
    Stopped,
}

/// One reflector.
#[derive(Debug, Clone)]
pub struct Reflector {
    path: ResourcePath,
    /// The apiservers behind the load balancer (0-based), in the order new connections go to.
    apiservers: Vec<usize>,
    /// Index into `apiservers` of the current connection.
    conn: usize,
    /// The connection broke (`drop informer`): the next poll hangs up and reconnects.
    dropped: bool,
    mode: ReflectorMode,
    rng: Rng,
    backoff: Backoff,
    /// The client-go release (minor) it behaves as.
    client_go: u32,
    last_sync_rv: String,
    rv_unavailable: bool,
    paginated_result: bool,
    resync_period: Option<Duration>,
    resync_at: Option<Instant>,
    state: State,
}

impl Reflector {
    /// A reflector that starts its first ListAndWatch at `now`.
    pub fn new(
        path: ResourcePath,
        apiservers: Vec<usize>,
        mode: ReflectorMode,
        seed: u64,
        resync: Option<Duration>,
        now: Instant,
    ) -> Self {
        let apiservers = if apiservers.is_empty() { vec![0] } else { apiservers };
        Reflector {
            path,
            apiservers,
            conn: 0,
            dropped: false,
            mode,
            rng: Rng::new(seed),
            backoff: Backoff::new(
                now,
                BackoffReset::for_client_go(crate::apiserver::features::DEFAULT_MINOR),
            ),
            client_go: crate::apiserver::features::DEFAULT_MINOR,
            last_sync_rv: String::new(),
            rv_unavailable: false,
            paginated_result: false,
            resync_period: resync.filter(|d| d.as_millis() > 0),
            resync_at: None,
            state: State::ListAndWatchAt(now),
        }
    }

    pub fn last_sync_rv(&self) -> &str {
        &self.last_sync_rv
    }

    /// Behave as client-go release 1.`minor`, created at `now` (its back-off's construction).
    pub fn set_client_go(&mut self, minor: u32, now: Instant) {
        self.client_go = minor;
        self.backoff = Backoff::new(now, BackoffReset::for_client_go(minor));
    }

    pub fn client_go(&self) -> u32 {
        self.client_go
    }

    /// The watch stream the reflector currently reads, if any.
    pub fn watch_handle(&self) -> Option<WatchHandle> {
        match &self.state {
            State::Watching { handle, .. } => Some(*handle),
            _ => None,
        }
    }

    pub fn mode(&self) -> ReflectorMode {
        self.mode
    }

    /// The apiservers behind the load balancer (0-based).
    pub fn apiservers(&self) -> &[usize] {
        &self.apiservers
    }

    /// The apiserver (0-based) the current connection goes to.
    pub fn apiserver(&self) -> usize {
        self.apiservers.get(self.conn).copied().unwrap_or(0)
    }

    /// The connection breaks (a network fault): no ERROR frame, the stream just ends. The next
    /// poll hangs up the watch and sends the following requests on a new connection, which the
    /// load balancer gives to the next apiserver.
    pub fn drop_connection(&mut self) {
        if !self.is_stopped() {
            self.dropped = true;
        }
    }

    /// A new connection: to the next apiserver behind the load balancer.
    fn reconnect(&mut self, now: Instant, trace: &mut Trace) {
        let from = self.apiserver();
        self.conn = (self.conn + 1) % self.apiservers.len();
        trace.note(now, Decision::ConnectionLost { from: from + 1, to: self.apiserver() + 1 });
    }

    pub fn is_stopped(&self) -> bool {
        matches!(self.state, State::Stopped)
    }

    /// The resync period, while the reflector runs and resyncs at all.
    pub fn resync_period(&self) -> Option<Duration> {
        self.resync_period.filter(|_| !self.is_stopped())
    }

    /// What the reflector is doing, in a few words.
    pub fn describe_state(&self) -> String {
        match &self.state {
            State::ListAndWatchAt(t) => format!("ListAndWatch at {}", fmt_ms(t.0)),
            State::Listing { rv, .. } => format!("listing at rv={rv:?} (waiting for Retry-After)"),
            State::WatchAt(t) => format!("watch from {} at {}", self.last_sync_rv, fmt_ms(t.0)),
            State::WatchListAt(t) => format!("watch-list at {}", fmt_ms(t.0)),
            State::Opening { from, .. } => format!("opening a watch from {from:?} (waiting for Retry-After)"),
            State::Watching { kind: WatchKind::Plain, .. } => "watching".to_string(),
            State::Watching { kind: WatchKind::WatchList { temp, .. }, .. } => {
                format!(
                    "watch-list: {} initial events so far, waiting for the initial-events-end bookmark",
                    temp.len()
                )
            }
            State::Stopped => "stopped".to_string(),
        }
    }

    /// When the reflector next wants to act by itself (end of a back-off or `Retry-After` wait,
    /// the resync timer), if ever.
    pub fn next_wakeup(&self) -> Option<Instant> {
        let own = match &self.state {
            State::ListAndWatchAt(t) | State::WatchAt(t) | State::WatchListAt(t) => Some(*t),
            State::Listing { run, .. } => run.wakeup(),
            State::Opening { not_before, .. } => Some(*not_before),
            State::Watching { .. } | State::Stopped => None,
        };
        match (own, self.resync_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Hangs up the watch (if any) and stops for good.
    pub fn stop(&mut self, cluster: &mut dyn Transport, trace: &mut Trace) {
        if let State::Watching { handle, .. } = &self.state {
            cluster.cancel_watch(*handle);
        }
        if !self.is_stopped() {
            trace.note(cluster.now(), Decision::Stopped);
        }
        self.state = State::Stopped;
        self.resync_at = None;
    }

    /// Does everything possible at the cluster's current time.
    pub fn poll(&mut self, cluster: &mut dyn Transport, store: &mut dyn ReflectorStore, trace: &mut Trace) {
        if std::mem::take(&mut self.dropped) {
            self.connection_dropped(cluster, trace);
        }
        for _ in 0..MAX_STEPS_PER_POLL {
            let now = cluster.now();
            if let (Some(t), Some(p)) = (self.resync_at, self.resync_period)
                && t <= now
            {
                trace.note(t, Decision::Resync { period_ms: p.as_millis(), objects: store.len() });
                store.resync();
                self.resync_at = Some(t + p);
                continue;
            }
            if !self.step(cluster, store, trace, now) {
                return;
            }
        }
        trace.note(cluster.now(), Decision::TooManySteps { steps: MAX_STEPS_PER_POLL });
    }

    /// `drop informer`: the TCP connection is gone. The server notices the client went away and
    /// ends the stream; the client sees its watch channel close without an ERROR frame, exactly
    /// like a clean close (`watch.StreamWatcher` treats EOF and a broken connection alike), and
    /// its next request opens a new connection.
    fn connection_dropped(&mut self, cluster: &mut dyn Transport, trace: &mut Trace) {
        let now = cluster.now();
        let state = std::mem::replace(&mut self.state, State::Stopped);
        self.reconnect(now, trace);
        match state {
            State::Watching { handle, start, events, kind } => {
                cluster.cancel_watch(handle);
                self.watch_ended(now, start, events, kind, None, trace);
            }
            State::Listing { mut run, rv, page_size, fallback } => {
                run.set_apiserver(self.apiserver());
                self.state = State::Listing { run, rv, page_size, fallback };
            }
            other => self.state = other,
        }
    }

    fn relist_rv(&self) -> String {
        if self.rv_unavailable {
            String::new()
        } else if self.last_sync_rv.is_empty() {
            "0".to_string()
        } else {
            self.last_sync_rv.clone()
        }
    }

    fn rewatch_rv(&self) -> String {
        if self.rv_unavailable { String::new() } else { self.last_sync_rv.clone() }
    }

    /// `BackoffUntil`: ListAndWatch returned; take the next back-off, then ListAndWatch again.
    fn list_and_watch_returned(&mut self, now: Instant, cause: Cause, trace: &mut Trace) {
        self.resync_at = None;
        let backoff_ms = self.backoff.next(now, &mut self.rng).as_millis();
        let decision = match self.mode {
            ReflectorMode::Legacy => match self.relist_rv().as_str() {
                "" => Decision::RelistFromScratch { cause, backoff_ms: Some(backoff_ms) },
                "0" => Decision::RelistAny { cause, backoff_ms },
                rv => Decision::RelistAtLastSync { cause, backoff_ms, rv: rv.to_string() },
            },
            ReflectorMode::Streaming => match self.rewatch_rv().as_str() {
                "" => Decision::WatchListFromScratch { cause, backoff_ms: Some(backoff_ms) },
                rv => Decision::WatchListAtLastSync { cause, backoff_ms, rv: rv.to_string() },
            },
        };
        trace.note(now, decision);
        self.state = State::ListAndWatchAt(now + Duration::from_millis(backoff_ms));
    }

    /// The watch phase (`watchWithResync`) begins: start the resync timer.
    fn enter_watch_phase(&mut self, now: Instant) {
        self.resync_at = self.resync_period.map(|p| now + p);
    }

    fn begin_list(&mut self, now: Instant, trace: &mut Trace) {
        let rv = self.relist_rv();
        let page_size = if self.paginated_result {
            super::pager::DEFAULT_PAGE_SIZE
        } else if !rv.is_empty() && rv != "0" {
            0
        } else {
            super::pager::DEFAULT_PAGE_SIZE
        };
        let decision = if rv == "0" {
            Decision::ListAny { rv: rv.clone(), limit: page_size }
        } else if rv.is_empty() {
            Decision::ListConsistent { rv: rv.clone(), limit: page_size }
        } else {
            Decision::ListAtLastSync {
                rv: rv.clone(),
                limit: page_size,
                paginated_before: self.paginated_result,
            }
        };
        trace.note(now, decision);
        let run = ListPager::new(page_size).start(
            &self.path,
            self.apiserver(),
            ListOptions { resource_version: rv.clone(), ..Default::default() },
        );
        self.state = State::Listing { run, rv, page_size, fallback: false };
    }

    fn begin_watch(&mut self, now: Instant, kind: WatchKind, trace: &mut Trace) {
        let timeout = self.rng.range(MIN_WATCH_TIMEOUT_SECS, 2 * MIN_WATCH_TIMEOUT_SECS);
        let (opts, from) = match &kind {
            WatchKind::Plain => {
                let rv = self.last_sync_rv.clone();
                trace.note(now, Decision::Watch { from: rv.clone(), timeout_seconds: timeout });
                (
                    ListOptions {
                        resource_version: rv.clone(),
                        timeout_seconds: Some(timeout),
                        allow_watch_bookmarks: true,
                        watch: true,
                        ..Default::default()
                    },
                    rv,
                )
            }
            WatchKind::WatchList { .. } => {
                let rv = self.rewatch_rv();
                trace.note(now, Decision::WatchList { rv: rv.clone(), timeout_seconds: timeout });
                (
                    ListOptions {
                        resource_version: rv.clone(),
                        resource_version_match: "NotOlderThan".into(),
                        send_initial_events: Some(true),
                        timeout_seconds: Some(timeout),
                        allow_watch_bookmarks: true,
                        watch: true,
                        ..Default::default()
                    },
                    rv,
                )
            }
        };
        let target = self.path.target(&opts);
        self.state = State::Opening { target, from, timeout, kind, start: now, attempts: 0, not_before: now };
    }

    /// One step; false when nothing more can happen at `now`.
    fn step(
        &mut self,
        cluster: &mut dyn Transport,
        store: &mut dyn ReflectorStore,
        trace: &mut Trace,
        now: Instant,
    ) -> bool {
        let state = std::mem::replace(&mut self.state, State::Stopped);
        match state {
            State::Stopped => false,
            State::ListAndWatchAt(t) | State::WatchAt(t) | State::WatchListAt(t) if now < t => {
                self.state = state;
                false
            }
            State::ListAndWatchAt(_) => {
                match self.mode {
                    ReflectorMode::Legacy => self.begin_list(now, trace),
                    ReflectorMode::Streaming => self.begin_watch(
                        now,
                        WatchKind::WatchList { temp: BTreeMap::new(), rv: String::new() },
                        trace,
                    ),
                }
                true
            }
            State::WatchAt(_) => {
                self.begin_watch(now, WatchKind::Plain, trace);
                true
            }
            State::WatchListAt(_) => {
                self.begin_watch(
                    now,
                    WatchKind::WatchList { temp: BTreeMap::new(), rv: String::new() },
                    trace,
                );
                true
            }
            State::Listing { mut run, rv, page_size, fallback } => match run.poll(cluster, trace) {
                // (a request may let simulated time pass; decisions below are taken after it)
                PagerPoll::Pending(_) => {
                    self.state = State::Listing { run, rv, page_size, fallback };
                    false
                }
                PagerPoll::Done(Ok(list)) => {
                    let now = cluster.now();
                    if rv == "0" && list.paginated {
                        self.paginated_result = true;
                    }
                    self.rv_unavailable = false;
                    let n = list.items.len();
                    let list_rv = list.resource_version.clone();
                    trace.note(
                        now,
                        Decision::Listed {
                            rv: rv.clone(),
                            items: n,
                            list_rv: list_rv.clone(),
                            requests: list.pages,
                        },
                    );
                    store.replace(list.items, &list_rv);
                    self.last_sync_rv = list_rv;
                    self.enter_watch_phase(now);
                    self.state = State::WatchAt(now);
                    true
                }
                PagerPoll::Done(Err(e)) => {
                    let now = cluster.now();
                    if !fallback && (e.is_expired() || e.is_too_large_resource_version()) {
                        self.rv_unavailable = true;
                        trace.note(
                            now,
                            Decision::RelistFromScratch {
                                cause: Cause::ListFailed { rv: rv.clone(), error: e.info() },
                                backoff_ms: None,
                            },
                        );
                        let run = ListPager::new(page_size).start(
                            &self.path,
                            self.apiserver(),
                            ListOptions::default(),
                        );
                        self.state = State::Listing { run, rv: String::new(), page_size, fallback: true };
                    } else {
                        self.list_and_watch_returned(
                            now,
                            Cause::ListFailed { rv: rv.clone(), error: e.info() },
                            trace,
                        );
                    }
                    true
                }
            },
            State::Opening { target, from, timeout, kind, start, mut attempts, not_before } => {
                if now < not_before {
                    self.state = State::Opening { target, from, timeout, kind, start, attempts, not_before };
                    return false;
                }
                match rest::send(cluster, self.apiserver(), &target, &mut attempts, trace) {
                    Sent::RetryAt(t) => {
                        self.state =
                            State::Opening { target, from, timeout, kind, start, attempts, not_before: t };
                        false
                    }
                    Sent::Response(resp, Some(handle)) if resp.code == 200 => {
                        self.state = State::Watching { handle, start, events: 0, kind };
                        true
                    }
                    Sent::Response(resp, handle) => {
                        let now = cluster.now();
                        if let Some(h) = handle {
                            cluster.cancel_watch(h);
                        }
                        let err = if (200..300).contains(&resp.code) {
                            ApiError::client(ClientError::NoStream { code: resp.code })
                        } else {
                            ApiError::from_response(&resp)
                        };
                        self.watch_request_failed(now, from, kind, err, trace);
                        true
                    }
                }
            }
            State::Watching { handle, start, events, kind } => {
                self.read_stream(cluster, store, trace, now, handle, start, events, kind)
            }
        }
    }

    /// The watch request itself was refused (plain HTTP error before streaming).
    fn watch_request_failed(
        &mut self,
        now: Instant,
        from: String,
        kind: WatchKind,
        err: ApiError,
        trace: &mut Trace,
    ) {
        match kind {
            WatchKind::Plain => {
                if err.is_watch_retriable() {
                    let d = self.backoff.next(now, &mut self.rng);
                    trace.note(
                        now,
                        Decision::WatchRefusedRetry { from, error: err.info(), backoff_ms: d.as_millis() },
                    );
                    self.state = State::WatchAt(now + d);
                } else {
                    self.list_and_watch_returned(now, Cause::WatchRefused { from, error: err.info() }, trace);
                }
            }
            WatchKind::WatchList { .. } => self.watch_list_failed(now, from, err, trace),
        }
    }

    /// `watchList()`'s `isErrorRetriableWithSideEffectsFn`, then the fallback to `list()`.
    fn watch_list_failed(&mut self, now: Instant, from: String, err: ApiError, trace: &mut Trace) {
        if err.is_watch_retriable() {
            let d = self.backoff.next(now, &mut self.rng);
            trace.note(
                now,
                Decision::WatchListRetry { rv: from, error: err.info(), backoff_ms: d.as_millis() },
            );
            self.state = State::WatchListAt(now + d);
        } else if err.is_expired() || err.is_too_large_resource_version() {
            self.rv_unavailable = true;
            trace.note(
                now,
                Decision::WatchListFromScratch {
                    cause: Cause::WatchListFailed { rv: from, error: err.info() },
                    backoff_ms: None,
                },
            );
            self.state = State::WatchListAt(now);
        } else {
            trace.note(now, Decision::WatchListFallback { rv: from, error: err.info() });
            self.begin_list(now, trace);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn read_stream(
        &mut self,
        cluster: &mut dyn Transport,
        store: &mut dyn ReflectorStore,
        trace: &mut Trace,
        now: Instant,
        handle: WatchHandle,
        mut start: Instant,
        mut events: u32,
        mut kind: WatchKind,
    ) -> bool {
        let (frames, closed) = match cluster.read_watch(handle) {
            Some(x) => x,
            None => {
                trace.note(now, Decision::StreamGone);
                (Vec::new(), true)
            }
        };
        if frames.is_empty() && !closed {
            self.state = State::Watching { handle, start, events, kind };
            return false;
        }
        for frame in frames {
            if frame.kind == FrameType::Error {
                cluster.cancel_watch(handle);
                let err = ApiError::from_watch_error(&frame.object);
                trace.note(now, Decision::ErrorFrame { error: err.info() });
                self.watch_ended(now, start, events, kind, Some(err), trace);
                return true;
            }
            if !frame.object.get("metadata").is_some_and(Value::is_object) {
                trace.note(now, Decision::EventIgnored { kind: frame.kind.as_str().to_string() });
                continue;
            }
            let rv = obj_rv(&frame.object).to_string();
            let kind_name = frame.kind.as_str().to_string();
            let name = if frame.kind == FrameType::Bookmark {
                String::new()
            } else {
                obj_name(&frame.object).to_string()
            };
            events += 1;
            match &mut kind {
                WatchKind::Plain => {
                    trace.note(now, Decision::Event { kind: kind_name, name, rv: rv.clone() });
                    match frame.kind {
                        FrameType::Added => store.add(Arc::unwrap_or_clone(frame.object)),
                        FrameType::Modified => store.update(Arc::unwrap_or_clone(frame.object)),
                        FrameType::Deleted => store.delete(Arc::unwrap_or_clone(frame.object)),
                        _ => {}
                    }
                    self.last_sync_rv = rv;
                }
                WatchKind::WatchList { temp, rv: list_rv } => {
                    let end = frame.kind == FrameType::Bookmark
                        && frame
                            .object
                            .pointer("/metadata/annotations")
                            .and_then(|a| a.get(INITIAL_EVENTS_END))
                            .and_then(Value::as_str)
                            == Some("true");
                    match frame.kind {
                        FrameType::Added | FrameType::Modified => {
                            temp.insert(obj_key(&frame.object), Arc::unwrap_or_clone(frame.object));
                        }
                        FrameType::Deleted => {
                            temp.remove(&obj_key(&frame.object));
                        }
                        _ => {}
                    }
                    *list_rv = rv.clone();
                    if !end {
                        trace.note(
                            now,
                            Decision::InitialEvent { kind: kind_name, name, rv, held: temp.len() },
                        );
                        continue;
                    }
                    let items: Vec<Value> = std::mem::take(temp).into_values().collect();
                    let n = items.len();
                    self.rv_unavailable = false;
                    trace.note(now, Decision::InitialEventsEnd { rv: rv.clone(), items: n });
                    store.replace(items, &rv);
                    self.last_sync_rv = rv;
                    self.enter_watch_phase(now);
                    kind = WatchKind::Plain;
                    start = now;
                    events = 0;
                }
            }
        }
        if closed {
            if cluster.connection_broken(handle) {
                self.reconnect(now, trace);
            }
            self.watch_ended(now, start, events, kind, None, trace);
        } else {
            self.state = State::Watching { handle, start, events, kind };
        }
        true
    }

    /// The stream ended: `err` is the ERROR frame's Status, `None` for a clean close.
    fn watch_ended(
        &mut self,
        now: Instant,
        start: Instant,
        events: u32,
        kind: WatchKind,
        err: Option<ApiError>,
        trace: &mut Trace,
    ) {
        let lasted = now.since(start);
        let err = match err {
            None if lasted.as_millis() < 1000 && events == 0 => {
                Some(ApiError::client(ClientError::VeryShortWatch { after_ms: lasted.as_millis() }))
            }
            e => e,
        };
        match kind {
            WatchKind::Plain => {
                let last = self.last_sync_rv.clone();
                match err {
                    None => {
                        trace.note(now, Decision::Rewatch { from: last });
                        self.state = State::WatchAt(now);
                    }
                    Some(e) if e.is_expired() => {
                        self.list_and_watch_returned(now, Cause::WatchExpired { error: e.info() }, trace);
                    }
                    Some(e) if e.is_too_many_requests() => {
                        let d = self.backoff.next(now, &mut self.rng);
                        trace.note(
                            now,
                            Decision::WatchThrottledRetry {
                                from: last,
                                error: e.info(),
                                backoff_ms: d.as_millis(),
                            },
                        );
                        self.state = State::WatchAt(now + d);
                    }
                    Some(e) => {
                        self.list_and_watch_returned(now, Cause::WatchFailed { error: e.info() }, trace);
                    }
                }
            }
            WatchKind::WatchList { .. } => {
                let from = self.rewatch_rv();
                match err {
                    None => {
                        trace.note(now, Decision::WatchListRestart);
                        self.state = State::WatchListAt(now);
                    }
                    Some(e) => self.watch_list_failed(now, from, e, trace),
                }
            }
        }
    }
}
