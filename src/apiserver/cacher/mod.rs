//! The cacher (k8s.io/apiserver `storage/cacher`): one watch cache per resource, fed by its own
//! etcd watch with a configurable propagation lag, the cache watchers it serves, readiness and
//! relists (§C.2, §E). Routing — which requests it serves — is in [`delegator`].

pub mod cache_watcher;
pub mod delegator;
pub mod watch_cache;

use std::collections::{BTreeMap, VecDeque};

use serde_json::Value;

use self::cache_watcher::{CacheWatcher, channel_size};
use self::watch_cache::{CacheEvent, CacheEventType, WatchCache};
use super::decision::{EndReason, Ended};
use super::etcd3::prefix_range_end;
use super::object;
use super::resource::ResourceInfo;
use crate::clock::{Clock, Duration, Instant};
use crate::store::{EventType, MvccStore, RangeRequest, WatchCreateRequest, WatchId};

/// How long a request waits for the cache to catch up (`blockTimeout`).
pub const FRESHNESS_TIMEOUT: Duration = Duration::from_secs(3);

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
    /// The compaction this apiserver knows about.
    pub known_compaction: i64,
}

#[derive(Debug, Clone)]
pub struct Cacher {
    pub info: &'static ResourceInfo,
    prefix: String,
    etcd_watch: Option<WatchId>,
    incoming: VecDeque<(Instant, Incoming)>,
    pub cache: WatchCache,
    watchers: BTreeMap<u64, CacheWatcher>,
    /// Not ready (initialising) before this instant.
    ready_at: Instant,
    /// When the cache last became unready (for Retry-After).
    unready_since: Instant,
    /// The compaction the apiserver knows about (snapshots below it are dropped).
    pub known_compaction: i64,
    pub lag: Duration,
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
            prefix: format!("/registry/{}/", info.resource),
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

    pub fn is_ready(&self, now: Instant) -> bool {
        now >= self.ready_at
    }

    /// `Retry-After` for 429 while initialising: clamp(e^(0.06·downtime), 1, 30).
    pub fn retry_after_seconds(&self, now: Instant) -> i32 {
        let down = now.since(self.unready_since).0 as f64 / 1000.0;
        (0.06 * down).exp().clamp(1.0, 30.0) as i32
    }

    pub fn view(&self, apiserver: usize, now: Instant) -> CacheView {
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
            known_compaction: self.known_compaction,
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
            for kv in &r.kvs {
                if let Some(obj) = object::decode_from_storage(&kv.value, kv.mod_revision) {
                    items.push((
                        String::from_utf8_lossy(&kv.key).into_owned(),
                        object::canonical(self.info, obj),
                    ));
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

    fn process_event(&mut self, ev: &crate::store::Event, time: Instant) {
        let key = String::from_utf8_lossy(&ev.kv.key).into_owned();
        let rv = ev.kv.mod_revision;
        let prev = self.cache.get(&key).cloned();
        let (kind, object) = match ev.kind {
            EventType::Delete => {
                let Some(mut last) = prev.clone() else {
                    self.cache.advance_to(rv);
                    return;
                };
                object::set_resource_version(&mut last, rv);
                (CacheEventType::Deleted, last)
            }
            EventType::Put => {
                let Some(obj) = object::decode_from_storage(&ev.kv.value, rv) else { return };
                let kind = if prev.is_some() { CacheEventType::Modified } else { CacheEventType::Added };
                (kind, object::canonical(self.info, obj))
            }
        };
        let cev = CacheEvent { kind, key, object, prev, rv, time };
        for w in self.watchers.values_mut() {
            if w.closed || rv <= w.resource_version {
                continue;
            }
            if let Some(frame) = cev.frame_for(&w.filter) {
                w.dispatch(frame);
            }
        }
        self.cache.process(cev);
    }

    /// Asks etcd for a progress notification (it arrives behind everything already sent).
    pub fn request_progress(&mut self, etcd: &mut MvccStore, now: Instant) {
        if let Some(id) = self.etcd_watch {
            etcd.request_progress(id);
            self.pull(etcd, now);
        }
    }

    /// `waitUntilFreshAndBlock`: lets simulated time pass (≤ 3 s) until the cache's RV reaches
    /// `target`. Returns whether it did.
    pub fn wait_until_fresh(&mut self, target: i64, etcd: &mut MvccStore, clock: &mut Clock) -> bool {
        if self.cache.resource_version() >= target {
            return true;
        }
        self.request_progress(etcd, clock.now());
        let deadline = clock.now() + FRESHNESS_TIMEOUT;
        // When would the queued items bring the cache to `target`?
        let mut rv = self.cache.resource_version();
        let mut reach = None;
        for (t, item) in &self.incoming {
            rv = match item {
                Incoming::Events(evs) => evs.iter().map(|e| e.kv.mod_revision).max().unwrap_or(rv).max(rv),
                Incoming::Progress(r) => (*r).max(rv),
                Incoming::Canceled => rv,
            };
            if rv >= target {
                reach = Some(*t);
                break;
            }
        }
        match reach {
            Some(t) if t <= deadline => {
                clock.advance_to(t);
                self.apply_arrived(etcd, clock.now());
                true
            }
            _ => {
                clock.advance_to(deadline);
                self.apply_arrived(etcd, clock.now());
                self.cache.resource_version() >= target
            }
        }
    }

    /// Registers a watcher and returns its id.
    pub fn add_watcher(&mut self, id: u64, w: CacheWatcher) {
        self.watchers.insert(id, w);
    }

    pub fn watcher(&self, id: u64) -> Option<&CacheWatcher> {
        self.watchers.get(&id)
    }

    pub fn watcher_mut(&mut self, id: u64) -> Option<&mut CacheWatcher> {
        self.watchers.get_mut(&id)
    }

    pub fn channel_size(&self) -> usize {
        channel_size(self.cache.capacity())
    }

    /// When a watcher next needs the timer.
    pub fn next_timer_due(&self) -> Option<Instant> {
        self.watchers.values().filter_map(CacheWatcher::next_due).min()
    }

    /// One tick of the cacher's 1 s timer: bookmarks and deadlines.
    pub fn tick(&mut self, now: Instant) {
        let rv = self.cache.resource_version();
        for w in self.watchers.values_mut() {
            w.tick(now, rv);
        }
    }

    /// Forgets ended watchers whose frames have all been read, returning their ids and why they
    /// ended (their streams remain with the apiserver).
    pub fn collect_ended(&mut self) -> Vec<(u64, Option<Ended>)> {
        let ended: Vec<u64> = self
            .watchers
            .iter()
            .filter(|(_, w)| w.closed && w.delivered.is_empty() && w.buffered.is_empty())
            .map(|(id, _)| *id)
            .collect();
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

    /// The current state under `prefix` (a namespace or the whole resource) as (key, object)
    /// pairs in key order, from `start` on.
    pub fn state_from<'a>(
        &'a self,
        start: &str,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a String, &'a Value)> + 'a {
        self.cache.store().range(start.to_string()..).take_while(move |(k, _)| k.starts_with(prefix))
    }
}
