//! The cacher (k8s.io/apiserver `storage/cacher/cacher.go`): one watch cache per resource, fed by
//! its own etcd watch with a configurable propagation lag; it serves `get`, `list` and `watch`
//! from its state, its snapshots and its history, each with the typed decision behind the answer,
//! and owns the cache watchers it feeds, readiness and relists (§C.2, §E). Routing — which
//! requests it serves and when etcd does — is the [`delegator`]'s.

pub mod cache_watcher;
pub mod delegator;
mod fresh;
pub mod watch_cache;

use std::collections::{BTreeMap, VecDeque};

use serde_json::Value;

use self::cache_watcher::{CacheWatcher, channel_size};
use self::delegator::ReadPath;
use self::watch_cache::{CacheEvent, CacheEventType, Decoded, WatchCache};
use super::continue_token::ContinueToken;
use super::decision::{EndReason, Ended, Outcome, Path, Rule, Why};
use super::etcd3::prefix_range_end;
use super::etcd3::{ListPage, ReadAt};
use super::features::Features;
use super::field_selector::SelectionPredicate;
use super::object::{self, Stored};
use super::resource::ResourceInfo;
use super::status::Status;
use super::watch::{Frame, FrameType, WatchFilter};
use crate::clock::{Clock, Duration, Instant};
use crate::store::{Bytes, EventType, MvccStore, RangeRequest, WatchCreateRequest, WatchId};

pub use self::fresh::{FRESHNESS_TIMEOUT, Held};

/// Something the cache's etcd watch delivered, and when it reaches the cache.
#[derive(Debug, Clone)]
enum Incoming {
    Events(Vec<crate::store::Event>),
    Progress(i64),
    Canceled,
}

/// What a picture shows of one cache (read only; see `script::view`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheView {
    pub apiserver: usize,
    pub resource: &'static str,
    pub rv: i64,
    pub oldest_startable_rv: i64,
    pub capacity: usize,
    pub history_len: usize,
    pub lag_ms: u64,
    pub ready: bool,
    /// The revisions a list can be served from a snapshot at.
    pub snapshots: Vec<i64>,
    /// etcd responses sent to this cache that have not arrived yet (the lag queue).
    pub in_flight: usize,
    pub next_arrival: Option<Instant>,
    /// Each etcd response with events still on its way: the newest revision it carries and
    /// when it arrives.
    pub in_flight_revs: Vec<(i64, Instant)>,
    /// When a read that starts waiting now for the cache to reach `fresh_target` would see it
    /// there (`waitUntilFreshAndBlock`; it gives up after [`FRESHNESS_TIMEOUT`]).
    pub fresh_at: Option<Instant>,
    /// The compaction this apiserver knows about.
    pub known_compaction: i64,
    /// When a (re)initialising cache becomes ready (None while ready).
    pub ready_at: Option<Instant>,
}

#[derive(Debug, Clone)]
pub struct Cacher {
    info: &'static ResourceInfo,
    prefix: String,
    etcd_watch: Option<WatchId>,
    incoming: VecDeque<(Instant, Incoming)>,
    cache: WatchCache,
    watchers: BTreeMap<u64, CacheWatcher>,
    /// Not ready (initialising) before this instant.
    ready_at: Instant,
    /// When the cache last became unready (for Retry-After).
    unready_since: Instant,
    /// The compaction the apiserver knows about (snapshots below it are dropped).
    known_compaction: i64,
    lag: Duration,
    pinned_capacity: Option<usize>,
}

impl Cacher {
    /// A cache that lists and starts watching now, ready after `init_delay`.
    pub fn new(
        info: &'static ResourceInfo,
        etcd: &mut MvccStore,
        now: Instant,
        init_delay: Duration,
    ) -> Self {
        let mut c = Cacher {
            info,
            prefix: info.key_root(),
            etcd_watch: None,
            incoming: VecDeque::new(),
            cache: WatchCache::new(),
            watchers: BTreeMap::new(),
            ready_at: now,
            unready_since: now,
            known_compaction: 0,
            lag: Duration(0),
            pinned_capacity: None,
        };
        c.relist(etcd, now, init_delay);
        c
    }

    /// Propagation delay from etcd to this cache.
    pub fn set_lag(&mut self, lag: Duration) {
        self.lag = lag;
    }

    /// The apiserver learns of a compaction: snapshots below it are gone.
    pub fn note_compaction(&mut self, rev: i64) {
        self.known_compaction = self.known_compaction.max(rev);
    }

    /// The cache's resourceVersion (the newest revision it has seen).
    pub fn resource_version(&self) -> i64 {
        self.cache.resource_version()
    }

    pub fn is_ready(&self, now: Instant) -> bool {
        now >= self.ready_at
    }

    /// `Retry-After` for 429 while initialising: clamp(e^(0.06·downtime), 1, 30) from 1.33
    /// (`growing`), a fixed 1 before.
    pub fn retry_after_seconds(&self, now: Instant, growing: bool) -> i32 {
        if !growing {
            return 1;
        }
        let down = now.since(self.unready_since).0 as f64 / 1000.0;
        (0.06 * down).exp().clamp(1.0, 30.0) as i32
    }

    /// `ready.wait`: the request blocks until the cache is ready (Kubernetes before
    /// ResilientWatchCacheInitialization); time passes meanwhile.
    pub fn wait_ready(&mut self, etcd: &mut MvccStore, clock: &mut Clock) {
        if clock.now() < self.ready_at {
            clock.advance_to(self.ready_at);
            self.apply_arrived(etcd, clock.now());
        }
    }

    /// `fresh_target` is the revision a consistent read now would wait for (etcd's head).
    pub fn view(&self, apiserver: usize, now: Instant, fresh_target: i64) -> CacheView {
        let in_flight_revs = self
            .incoming
            .iter()
            .filter_map(|(t, i)| match i {
                Incoming::Events(evs) => evs.iter().map(|e| e.kv.mod_revision).max().map(|r| (r, *t)),
                _ => None,
            })
            .collect();
        CacheView {
            apiserver,
            resource: self.info.resource,
            rv: self.cache.resource_version(),
            oldest_startable_rv: self.cache.oldest_startable_rv(),
            capacity: self.cache.capacity(),
            history_len: self.cache.history_len(),
            lag_ms: self.lag.0,
            ready: self.is_ready(now),
            snapshots: self.cache.snapshot_revisions(self.known_compaction),
            in_flight: self.incoming.iter().filter(|(_, i)| matches!(i, Incoming::Events(_))).count(),
            next_arrival: self.next_arrival(),
            in_flight_revs,
            fresh_at: self.fresh_at(fresh_target, now),
            known_compaction: self.known_compaction,
            ready_at: (!self.is_ready(now)).then_some(self.ready_at),
        }
    }

    pub fn set_capacity(&mut self, pinned: Option<usize>) {
        self.pinned_capacity = pinned;
        self.cache.set_capacity(pinned);
    }

    /// Lists everything at etcd's current revision, empties the history, ends every watcher
    /// cleanly and watches etcd from the list's revision + 1.
    pub fn relist(&mut self, etcd: &mut MvccStore, now: Instant, init_delay: Duration) {
        if let Some(id) = self.etcd_watch.take() {
            etcd.cancel_watch(id);
        }
        self.incoming.clear();
        let range_end = prefix_range_end(self.prefix.as_bytes());
        let resp = etcd.range(&RangeRequest {
            key: self.prefix.clone().into_bytes(),
            range_end: range_end.clone(),
            ..Default::default()
        });
        let rev = etcd.current_revision();
        let mut items = Vec::new();
        if let Ok(r) = resp {
            for kv in r.kvs {
                // What does not decode as an object is not cached (the reflector drops it).
                if object::decodes_as_object(&kv.value) {
                    items.push((kv.key, Stored { bytes: kv.value, rv: kv.mod_revision }));
                }
            }
        }
        self.cache.replace(items, rev);
        self.cache.set_capacity(self.pinned_capacity);
        for w in self.watchers.values_mut() {
            let mut ended = Ended::new(EndReason::EtcdCompacted);
            ended.cache_relisted = Some(true);
            w.close(ended);
        }
        self.etcd_watch = Some(etcd.watch(WatchCreateRequest {
            key: self.prefix.clone().into_bytes(),
            range_end,
            start_revision: rev + 1,
            prev_kv: true,
            progress_notify: true,
        }));
        if init_delay.0 > 0 {
            self.unready_since = now;
        }
        self.ready_at = now + init_delay;
    }

    /// Moves what etcd has sent into the lag queue (arriving `lag` later).
    pub fn pull(&mut self, etcd: &mut MvccStore, now: Instant) {
        let Some(id) = self.etcd_watch else { return };
        let arrival = self.next_arrival_floor(now + self.lag);
        for resp in etcd.take_watch_responses(id) {
            let item = if resp.canceled {
                Incoming::Canceled
            } else if resp.events.is_empty() {
                Incoming::Progress(resp.header.revision)
            } else {
                Incoming::Events(resp.events)
            };
            self.incoming.push_back((arrival, item));
        }
    }

    /// Arrivals stay in order: nothing arrives before what was sent earlier.
    fn next_arrival_floor(&self, t: Instant) -> Instant {
        match self.incoming.back() {
            Some((last, _)) if *last > t => *last,
            _ => t,
        }
    }

    /// When the next queued item reaches the cache.
    pub fn next_arrival(&self) -> Option<Instant> {
        self.incoming.front().map(|(t, _)| *t)
    }

    /// Applies everything that has arrived by `now`.
    pub fn apply_arrived(&mut self, etcd: &mut MvccStore, now: Instant) {
        while let Some((t, _)) = self.incoming.front() {
            if *t > now {
                break;
            }
            let Some((t, item)) = self.incoming.pop_front() else { break };
            match item {
                Incoming::Events(events) => {
                    for ev in &events {
                        self.process_event(ev, t);
                    }
                }
                Incoming::Progress(rev) => self.cache.advance_to(rev),
                Incoming::Canceled => {
                    self.relist(etcd, now, Duration(0));
                    return;
                }
            }
        }
    }

    /// One etcd event into the cache: the cache keeps etcd's bytes (shared, not copied); the
    /// object is decoded once and that one decoded object goes to every watcher.
    fn process_event(&mut self, ev: &crate::store::Event, time: Instant) {
        let rv = ev.kv.mod_revision;
        // etcd's own key (its index holds the same allocation): the state, every event of the
        // key and etcd share it.
        let (key, prev) = match self.cache.get_key_value(&ev.kv.key) {
            Some((k, v)) => (k.clone(), Some(v.clone())),
            None => (ev.kv.key.clone(), None),
        };
        let (kind, object) = match ev.kind {
            EventType::Delete => {
                let Some(last) = &prev else {
                    self.cache.advance_to(rv);
                    return;
                };
                // Its last state, at the delete's revision.
                (CacheEventType::Deleted, Stored { bytes: last.bytes.clone(), rv })
            }
            EventType::Put => {
                // A value that does not decode is not taken up. Checking it builds nothing: the
                // object is decoded below only if a watcher's filter needs it.
                if !object::decodes_as_object(&ev.kv.value) {
                    return;
                }
                let kind = if prev.is_some() { CacheEventType::Modified } else { CacheEventType::Added };
                (kind, Stored { bytes: ev.kv.value.clone(), rv })
            }
        };
        let cev = CacheEvent { kind, key, object, prev, rv, time };
        let mut change = Decoded::new(&cev, self.info);
        for w in self.watchers.values_mut() {
            if w.closed || rv <= w.resource_version {
                continue;
            }
            if let Some(frame) = change.frame_for(&w.filter) {
                w.dispatch(frame.sent(time));
            }
        }
        self.cache.process(cev);
    }

    pub fn channel_size(&self) -> usize {
        channel_size(self.cache.capacity())
    }

    /// When a watcher next needs the timer.
    pub fn next_timer_due(&self) -> Option<Instant> {
        self.watchers.values().filter_map(CacheWatcher::next_due).min()
    }

    /// One tick of the cacher's 1 s timer: bookmarks and deadlines.
    pub fn tick(&mut self, now: Instant, features: &Features) {
        let rv = self.cache.resource_version();
        for w in self.watchers.values_mut() {
            w.tick(now, rv, features);
        }
    }

    /// Forgets ended watchers whose frames have all been read, returning their ids and why they
    /// ended (their streams remain with the apiserver).
    pub fn collect_ended(&mut self) -> Vec<(u64, Option<Ended>)> {
        let ended: Vec<u64> =
            self.watchers.iter().filter(|(_, w)| w.is_drained()).map(|(id, _)| *id).collect();
        ended.into_iter().filter_map(|id| self.watchers.remove(&id).map(|w| (id, w.close_reason))).collect()
    }

    /// Ends every watcher (the apiserver goes away or the cache is switched off).
    pub fn stop(&mut self, etcd: &mut MvccStore, why: EndReason) {
        if let Some(id) = self.etcd_watch.take() {
            etcd.cancel_watch(id);
        }
        for w in self.watchers.values_mut() {
            w.close(Ended::new(why));
        }
    }

    /// The current state under `prefix` (a namespace or the whole resource) as (key, stored
    /// object) pairs in key order, from `start` on.
    pub fn state_from<'a>(
        &'a self,
        start: &str,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a Bytes, &'a Stored)> + 'a {
        self.cache.state_from(start).take_while(move |(k, _)| k.starts_with(prefix.as_bytes()))
    }
}

/// A list as the cacher and etcd serve it: the key range, where to continue, the page size and
/// the selector.
#[derive(Debug, Clone, Copy)]
pub struct ListArgs<'a> {
    pub prefix: &'a str,
    pub continue_from: Option<&'a ContinueToken>,
    pub limit: i64,
    pub selector: &'a SelectionPredicate,
}

/// What the cacher did with a list: served a page, or handed it to etcd at a revision.
#[derive(Debug, Clone, PartialEq)]
pub enum CacheList {
    Page(ListPage),
    Etcd(ReadAt),
}

/// How a watch served by the cache starts.
#[derive(Debug, Clone)]
pub struct CacheWatchArgs {
    pub id: u64,
    pub filter: WatchFilter,
    pub rv: Option<i64>,
    pub send_initial_events: Option<bool>,
    pub allow_bookmarks: bool,
    pub deadline: Instant,
    pub features: Features,
    /// A watch that has waited for the cache already (`waited=` on its line).
    pub held: Option<Held>,
}

/// An etcd revision as a resourceVersion, negatives as 0.
fn rv_u64(n: i64) -> u64 {
    object::ResourceVersion::of_revision(n).0
}

impl Cacher {
    /// `Get`: the object at `key` in the current state, once the cache has seen `min_rv`.
    pub fn get(
        &mut self,
        key: &str,
        min_rv: Option<i64>,
        held: Option<Held>,
        etcd: &mut MvccStore,
        clock: &mut Clock,
        why: &mut Why,
    ) -> Result<Option<Value>, Status> {
        if let Some(n) = min_rv {
            self.wait_fresh(n, held, etcd, clock, why)?;
        }
        why.path = Some(Path::WatchCache);
        why.cache_rv = Some(self.cache.resource_version());
        Ok(self.cache.get(key).and_then(|s| s.decode(self.info)))
    }

    /// `GetList` along `path`: the current state (after waiting where the path says so) or a
    /// snapshot; [`CacheList::Etcd`] when etcd has to serve it after all (an etcd path, a
    /// consistent read the cache could not catch up with, a snapshot it does not hold). A
    /// [`Held`] read has waited already.
    pub fn list(
        &mut self,
        path: ReadPath,
        args: &ListArgs<'_>,
        held: Option<Held>,
        etcd: &mut MvccStore,
        clock: &mut Clock,
        why: &mut Why,
    ) -> Result<CacheList, Status> {
        let start =
            args.continue_from.map(|t| t.start_key(args.prefix)).unwrap_or_else(|| args.prefix.to_string());
        let prefix_end = prefix_range_end(args.prefix.as_bytes());
        let limit = match path {
            ReadPath::EtcdLatest => return Ok(CacheList::Etcd(ReadAt::Latest)),
            ReadPath::EtcdNotOlderThan(n) => return Ok(CacheList::Etcd(ReadAt::NotOlderThan(n))),
            ReadPath::EtcdAt(n) => return Ok(CacheList::Etcd(ReadAt::Exact(n))),
            ReadPath::CacheAny => 0,
            ReadPath::CacheMin(n) => {
                self.wait_fresh(object::ResourceVersion(n).revision(), held, etcd, clock, why)?;
                args.limit
            }
            ReadPath::CacheConsistent => {
                // `waitUntilFreshAndBlock(ctx, listRV)` with etcd's revision when the read came.
                let target = held.map_or_else(|| etcd.current_revision(), |h| h.revision);
                why.etcd_revision = Some(target);
                if !self.wait_until_fresh_held(target, held, etcd, clock) {
                    why.cache_rv = Some(self.cache.resource_version());
                    why.outcome = Some(Outcome::ConsistentReadTimeout);
                    return Ok(CacheList::Etcd(ReadAt::Latest));
                }
                args.limit
            }
            ReadPath::CacheSnapshot(n) => {
                let at = object::ResourceVersion(n).revision();
                self.wait_fresh(at, held, etcd, clock, why)?;
                let known = self.known_compaction;
                let Some(state) = self.cache.snapshot_range(at, known, &start, args.prefix) else {
                    why.outcome = Some(Outcome::SnapshotMissing);
                    return Ok(CacheList::Etcd(ReadAt::Exact(n)));
                };
                why.path = Some(Path::CacheSnapshot);
                why.snapshot_rv = Some(self.cache.snapshot_revision(at, known).unwrap_or(at));
                let cache = &self.cache;
                return Ok(CacheList::Page(page_from(
                    self.info,
                    state,
                    args.prefix,
                    at,
                    args.limit,
                    args.selector,
                    |after| cache.count_between_at(at, known, after, &prefix_end).unwrap_or(0),
                )));
            }
        };
        why.path = Some(Path::WatchCache);
        why.cache_rv = Some(self.cache.resource_version());
        let cache = &self.cache;
        Ok(CacheList::Page(page_from(
            self.info,
            self.state_from(&start, args.prefix),
            args.prefix,
            cache.resource_version(),
            limit,
            args.selector,
            |after| cache.count_between(after, &prefix_end),
        )))
    }

    /// `Watch`: starts a cache watcher (§E.2's table): the current state as ADDED events, the
    /// buffered history after an rv, or nothing; a watch the cache cannot start gets its ERROR
    /// frame and ends at once. `Err` is the 429 of a cache that is not ready.
    pub fn watch(
        &mut self,
        args: CacheWatchArgs,
        etcd: &mut MvccStore,
        clock: &mut Clock,
        why: &mut Why,
    ) -> Result<(), Status> {
        let now = clock.now();
        let CacheWatchArgs {
            id,
            filter,
            rv,
            send_initial_events: sie,
            allow_bookmarks: bookmarks,
            deadline,
            features,
            held,
        } = args;
        why.path = Some(Path::WatchCache);
        if !self.is_ready(now) {
            let retry = self.retry_after_seconds(now, true);
            why.rule = watch_rule(rv, sie);
            why.outcome = Some(Outcome::CacheInitializing);
            why.retry_after = Some(retry.into());
            return Err(Status::storage_initializing(retry));
        }
        let chan = self.channel_size();
        let mut error: Option<(Status, Ended)> = None;
        let mut initial: Vec<Frame> = Vec::new();
        let mut end_bookmark = None;
        let start_rv: i64;
        // Wait for freshness where the table says so (§E.2).
        // Only `sendInitialEvents=true` waits (`waitUntilWatchCacheFreshAndForceAllEvents`); with
        // no resourceVersion the watch still starts at etcd's current revision
        // (`getWatchCacheResourceVersion`), so `sendInitialEvents=false` starts there at once.
        let etcd_now = etcd.current_revision();
        // A held watch-list waits for etcd's revision when it came.
        let fresh_target = held.map_or(etcd_now, |h| h.revision);
        let wait_for = match (rv, sie) {
            (None, Some(true)) => Some(fresh_target),
            (Some(n), Some(true)) if n > 0 => Some(n),
            _ => None,
        };
        let start_at_etcd = (rv.is_none() && sie == Some(false)).then_some(etcd_now);
        if let Some(target) = wait_for
            && !self.wait_until_fresh_held(target, held, etcd, clock)
        {
            let cur = self.cache.resource_version();
            let mut ended = Ended::new(EndReason::CacheNotFresh);
            ended.rv = Some(target);
            ended.cache_rv = Some(cur);
            error = Some((Status::too_large_resource_version(rv_u64(target), rv_u64(cur), 1), ended));
        }
        let cache_rv = self.cache.resource_version();
        let with_state = matches!(sie, Some(true)) || (sie.is_none() && matches!(rv, None | Some(0)));
        why.cache_rv = Some(cache_rv);
        if error.is_some() {
            start_rv = cache_rv;
            why.rule = if sie == Some(true) { Rule::WatchListFromCache } else { Rule::WatchNoInitialState };
            why.outcome = Some(Outcome::CacheNotFresh);
            why.etcd_revision = wait_for;
            why.retry_after = Some(1);
        } else if with_state {
            for (_, stored) in self.state_from(&filter.key_prefix, &filter.key_prefix) {
                if let Some(obj) = stored.decode(self.info)
                    && filter.matches(&obj)
                {
                    initial.push(Frame::new(FrameType::Added, obj));
                }
            }
            start_rv = cache_rv;
            if sie == Some(true) && bookmarks {
                end_bookmark = Some(Frame::bookmark(self.info, cache_rv, true, &features));
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
                (None, _) => {
                    start_rv = wait_for.or(start_at_etcd).unwrap_or(cache_rv);
                    why.rule = Rule::WatchNoInitialState;
                    why.etcd_revision = wait_for.or(start_at_etcd);
                    why.start_rv = Some(start_rv);
                }
                (Some(0), _) => {
                    start_rv = cache_rv;
                    why.rule = Rule::WatchNoInitialState;
                    why.start_rv = Some(start_rv);
                }
                (Some(n), _) => {
                    start_rv = n;
                    why.oldest_startable_rv = Some(self.cache.oldest_startable_rv());
                    match self.cache.events_since(n) {
                        Err(status) => {
                            why.rule = Rule::WatchFromCacheHistory;
                            why.outcome = Some(Outcome::CacheWindow);
                            let mut ended = Ended::new(EndReason::CacheWindow);
                            ended.rv = Some(n);
                            ended.oldest_startable_rv = Some(self.cache.oldest_startable_rv());
                            error = Some((status, ended));
                        }
                        Ok(evs) => {
                            let info = self.info;
                            initial.extend(
                                evs.into_iter().filter_map(|ev| Decoded::new(ev, info).frame_for(&filter)),
                            );
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
        let mut w =
            CacheWatcher::new(self.info, filter, start_rv.max(cache_rv), bookmarks, now, deadline, chan);
        w.started_from = start_rv;
        for f in initial {
            w.send_initial(f.sent(now));
        }
        if let Some(b) = end_bookmark {
            w.send_initial(b.sent(now));
        }
        if let Some((status, ended)) = error {
            w.send_initial(Frame::error(&status).sent(now));
            w.close(ended);
        }
        self.watchers.insert(id, w);
        Ok(())
    }

    /// The client reads watcher `id`: every frame delivered since the last read, and whether the
    /// stream has ended (all its frames read). `None` if the cache does not know it.
    pub fn read_watcher(&mut self, id: u64) -> Option<(Vec<Frame>, bool)> {
        let w = self.watchers.get_mut(&id)?;
        let frames = w.read();
        Some((frames, w.is_drained()))
    }

    /// The client stops (or restarts) reading watcher `id`.
    pub fn pause_watcher(&mut self, id: u64, paused: bool) {
        if let Some(w) = self.watchers.get_mut(&id) {
            if paused { w.pause() } else { w.resume() }
        }
    }

    /// Ends watcher `id` for `reason` (a client cancel).
    pub fn close_watcher(&mut self, id: u64, reason: Ended) {
        if let Some(w) = self.watchers.get_mut(&id) {
            w.close(reason);
        }
    }

    /// Why watcher `id` ended, if it has.
    pub fn watcher_close_reason(&self, id: u64) -> Option<Option<Ended>> {
        self.watchers.get(&id).map(|w| w.close_reason.clone())
    }

    /// Takes what watcher `id` still holds for its client (what fits in its result channel) and
    /// why it ended: the cache goes away, the frames already sent stay readable.
    pub fn take_watcher(&mut self, id: u64) -> Option<(Vec<Frame>, Option<Ended>)> {
        let mut w = self.watchers.remove(&id)?;
        Some((w.take_remaining(), w.close_reason.clone()))
    }

    /// What a picture shows of watcher `id`.
    pub fn watcher_view(&self, id: u64) -> Option<CacheWatcherView> {
        self.watchers.get(&id).map(CacheWatcher::view)
    }
}

pub use self::cache_watcher::CacheWatcherView;

/// A page of a cache-served list: key order, selector, `limit` with a token at `rv` (§D). Each
/// object is decoded from its stored bytes as the page takes it.
fn page_from<'a>(
    info: &'static ResourceInfo,
    state: impl Iterator<Item = (&'a Bytes, &'a Stored)>,
    prefix: &str,
    rv: i64,
    limit: i64,
    selector: &SelectionPredicate,
    count_after: impl FnOnce(&[u8]) -> usize,
) -> ListPage {
    let mut items = Vec::new();
    let mut last_key = None;
    let mut has_more = false;
    let mut remaining = 0usize;
    let mut state = state.peekable();
    let limit = usize::try_from(limit).unwrap_or(0);
    while let Some((k, stored)) = state.next() {
        last_key = Some(k.clone());
        if let Some(obj) = stored.decode(info)
            && selector.matches(&obj)
        {
            items.push(obj);
        }
        if limit > 0 && items.len() >= limit && state.peek().is_some() {
            has_more = true;
            // The first key after `k`: `k` + NUL.
            remaining = count_after(&[&k[..], &[0]].concat());
            break;
        }
    }
    let (continue_token, remaining_item_count) = match (has_more, last_key) {
        (true, Some(k)) => {
            let token =
                ContinueToken::after_key(&String::from_utf8_lossy(&k), prefix, rv).map(|t| t.encode());
            let remaining = i64::try_from(remaining).unwrap_or(i64::MAX);
            (token, selector.is_empty().then_some(remaining))
        }
        _ => (None, None),
    };
    ListPage { items, resource_version: rv, continue_token, remaining_item_count }
}

/// The rule a cache watch follows, by what it asks for (§E.2's table): the rule names how the
/// request is served even when the cache refuses it before starting. Upstream `cacher.go`
/// `Watch` (v1.31.0–v1.37.0) checks readiness first — `if !c.ready.check() { return nil,
/// errors.NewTooManyRequests("storage is (re)initializing", …) }` under
/// ResilientWatchCacheInitialization — for every resourceVersion, so a 429 says nothing about
/// the start rule; the rule stays the one of the request's semantics (a watch from `n` is still
/// one from the cache's history, never "Get State and Start at Any").
pub fn watch_rule(rv: Option<i64>, send_initial_events: Option<bool>) -> Rule {
    match (send_initial_events, rv) {
        (Some(true), _) => Rule::WatchListFromCache,
        (None, None | Some(0)) => Rule::WatchStateFromCache,
        (Some(false), None | Some(0)) => Rule::WatchNoInitialState,
        (_, Some(_)) => Rule::WatchFromCacheHistory,
    }
}
