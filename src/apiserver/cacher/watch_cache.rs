//! The watch cache (k8s.io/apiserver `storage/cacher/watch_cache.go`): the current state of one
//! resource, its resourceVersion, and the bounded history ring of recent events with its
//! growing/shrinking capacity and the "oldest startable RV" rule (§E.3). Snapshots at past
//! revisions are derived from the ring (§C.2 C-snap).

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

use serde_json::Value;

use crate::apiserver::object::Stored;
use crate::apiserver::resource::ResourceInfo;
use crate::apiserver::status::Status;
use crate::apiserver::watch::{Frame, WatchFilter};
use crate::clock::{Duration, Instant};
use crate::store::{Bytes, RankedSet};

/// `eventFreshDuration`: the bookmark period (1 min) + 15 s.
pub const EVENT_FRESH_DURATION: Duration = Duration::from_secs(75);
/// Default lower and upper bounds of the ring's capacity.
pub const LOWER_BOUND_CAPACITY: usize = 100;
pub const UPPER_BOUND_CAPACITY: usize = 102_400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheEventType {
    Added,
    Modified,
    Deleted,
}

/// One change as the cache stores it: the object after the change (for a deletion, its last
/// state with RV = the delete's revision) and the object before it, both as etcd's bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheEvent {
    pub kind: CacheEventType,
    /// etcd's key, shared with etcd's index and the cache's state (one allocation per key
    /// however many events and stores name it).
    pub key: Bytes,
    pub object: Stored,
    pub prev: Option<Stored>,
    pub rv: i64,
    /// When the cache recorded it.
    pub time: Instant,
}

/// One change's objects, decoded at most once however many watchers it is dispatched to (the
/// cacher's `cachingObject`): every frame of the change shares them.
pub struct Decoded<'a> {
    ev: &'a CacheEvent,
    /// The key as text (keys are UTF-8; anything else is read as Go would print it).
    key: Cow<'a, str>,
    info: &'static ResourceInfo,
    object: Option<Option<Arc<Value>>>,
    prev: Option<Option<Arc<Value>>>,
}

impl<'a> Decoded<'a> {
    /// The change `ev`, nothing decoded yet.
    pub fn new(ev: &'a CacheEvent, info: &'static ResourceInfo) -> Self {
        Decoded { ev, key: String::from_utf8_lossy(&ev.key), info, object: None, prev: None }
    }
    fn object(&mut self) -> Option<Arc<Value>> {
        let (ev, info) = (self.ev, self.info);
        self.object.get_or_insert_with(|| ev.object.decode(info).map(Arc::new)).clone()
    }
    fn prev(&mut self) -> Option<Arc<Value>> {
        let (ev, info) = (self.ev, self.info);
        self.prev.get_or_insert_with(|| ev.prev.as_ref().and_then(|p| p.decode(info)).map(Arc::new)).clone()
    }

    /// The frame this change becomes for a watch with `filter` (selector transitions included).
    pub fn frame_for(&mut self, filter: &WatchFilter) -> Option<Frame> {
        let ev = self.ev;
        if !filter.covers_key(&self.key) {
            return None;
        }
        match ev.kind {
            CacheEventType::Deleted => filter.frame_for_change(None, self.object(), ev.rv),
            CacheEventType::Added => filter.frame_for_change(self.object(), None, ev.rv),
            CacheEventType::Modified => {
                let cur = self.object();
                // A watch that passes every object decides on presence alone: the state before
                // is not decoded for it (any present object stands in for it).
                let prev = if filter.selects_all() && ev.prev.is_some() { cur.clone() } else { self.prev() };
                filter.frame_for_change(cur, prev, ev.rv)
            }
        }
    }
}

/// The cache's current state and history. Each key is etcd's own key (the state, the ranked key
/// set, the ring's events and etcd's index hold the same allocation) and each object is etcd's
/// bytes, shared with etcd's backend: an object in the cache costs a few pointers beyond what
/// etcd holds. Keys compare as bytes, which for UTF-8 text is the order of the strings.
#[derive(Debug, Clone)]
pub struct WatchCache {
    store: BTreeMap<Bytes, Stored>,
    /// The keys of `store`, ranked: how many keys lie in a range without walking them.
    keys: RankedSet<Bytes>,
    history: VecDeque<CacheEvent>,
    capacity: usize,
    lower: usize,
    upper: usize,
    /// The cache's resourceVersion: the newest revision it has processed (events or progress).
    rv: i64,
    /// The RV of the last (re)list.
    list_rv: i64,
    removed_since_relist: bool,
}

impl WatchCache {
    pub fn new() -> Self {
        WatchCache {
            store: BTreeMap::new(),
            keys: RankedSet::new(),
            history: VecDeque::new(),
            capacity: LOWER_BOUND_CAPACITY,
            lower: LOWER_BOUND_CAPACITY,
            upper: UPPER_BOUND_CAPACITY,
            rv: 0,
            list_rv: 0,
            removed_since_relist: false,
        }
    }

    pub fn resource_version(&self) -> i64 {
        self.rv
    }
    pub fn list_resource_version(&self) -> i64 {
        self.list_rv
    }
    pub fn capacity(&self) -> usize {
        self.capacity
    }
    pub fn history_len(&self) -> usize {
        self.history.len()
    }
    pub fn history(&self) -> impl DoubleEndedIterator<Item = &CacheEvent> + '_ {
        self.history.iter()
    }
    pub fn store(&self) -> &BTreeMap<Bytes, Stored> {
        &self.store
    }
    pub fn get(&self, key: &str) -> Option<&Stored> {
        self.store.get(key.as_bytes())
    }
    /// The cache's own copy of `key` with its object, if it holds the key.
    pub fn get_key_value(&self, key: &[u8]) -> Option<(&Bytes, &Stored)> {
        self.store.get_key_value(key)
    }
    /// The current state from `start` on, in key order.
    pub fn state_from<'a>(&'a self, start: &str) -> impl Iterator<Item = (&'a Bytes, &'a Stored)> + 'a {
        self.store.range::<[u8], _>((Bound::Included(start.as_bytes()), Bound::Unbounded))
    }

    /// How many keys of the current state lie in `[lo, hi)`.
    pub fn count_between(&self, lo: &[u8], hi: &[u8]) -> usize {
        self.keys.count_between(lo, hi)
    }

    /// How many keys lay in `[lo, hi)` at revision `n` (the current count corrected by the
    /// events after `n`); `None` without a snapshot at `n`.
    pub fn count_between_at(&self, n: i64, known_compaction: i64, lo: &[u8], hi: &[u8]) -> Option<usize> {
        self.snapshot_revision(n, known_compaction)?;
        let mut at_n: BTreeMap<&[u8], bool> = BTreeMap::new();
        for ev in self.history.iter().rev().take_while(|e| e.rv > n) {
            at_n.insert(&ev.key, ev.kind != CacheEventType::Added && ev.prev.is_some());
        }
        if hi <= lo {
            return Some(0);
        }
        let mut count = self.keys.count_between(lo, hi) as i64;
        for (k, present_then) in at_n.range::<[u8], _>((Bound::Included(lo), Bound::Excluded(hi))) {
            let present_now = self.store.contains_key(*k);
            count += i64::from(*present_then) - i64::from(present_now);
        }
        Some(count.max(0) as usize)
    }

    /// Pins the capacity (`set cache.capacity N`), or restores the dynamic bounds with `None`.
    pub fn set_capacity(&mut self, pinned: Option<usize>) {
        match pinned {
            Some(n) => {
                let n = n.max(1);
                self.lower = n;
                self.upper = n;
                self.resize(n);
            }
            None => {
                self.lower = LOWER_BOUND_CAPACITY;
                self.upper = UPPER_BOUND_CAPACITY;
                let c = self.capacity.clamp(self.lower, self.upper);
                self.resize(c);
            }
        }
    }

    fn resize(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.history.len() > capacity {
            self.history.pop_front();
            self.removed_since_relist = true;
        }
        self.history.shrink_to(capacity);
    }

    /// A (re)list: the state at `rv` replaces everything and the history starts empty.
    pub fn replace(&mut self, items: Vec<(Bytes, Stored)>, rv: i64) {
        self.store = items.into_iter().collect();
        self.keys = RankedSet::new();
        for k in self.store.keys() {
            self.keys.insert(k.clone());
        }
        self.history.clear();
        self.rv = rv;
        self.list_rv = rv;
        self.removed_since_relist = false;
    }

    /// A progress notification: nothing of this resource changed up to `rv`.
    pub fn advance_to(&mut self, rv: i64) {
        if rv > self.rv {
            self.rv = rv;
        }
    }

    /// `resizeCacheLocked` then `updateCache`: grow while the oldest event is fresh, shrink when
    /// the event a quarter back is stale, else evict the oldest.
    fn make_room(&mut self, now: Instant) {
        if self.history.len() < self.capacity {
            return;
        }
        if let Some(oldest) = self.history.front()
            && now.since(oldest.time) < EVENT_FRESH_DURATION
        {
            let grown = (self.capacity * 2).min(self.upper);
            if grown > self.capacity {
                self.capacity = grown;
                // Room for exactly the new capacity (the ring never holds more), not the next
                // power of two.
                self.history.reserve_exact(grown.saturating_sub(self.history.len()));
                return;
            }
        }
        let quarter_back = self.history.len().saturating_sub(self.capacity / 4);
        if let Some(ev) = self.history.get(quarter_back)
            && now.since(ev.time) > EVENT_FRESH_DURATION
        {
            let shrunk = (self.capacity / 2).max(self.lower);
            if shrunk < self.capacity {
                self.resize(shrunk);
                if self.history.len() < self.capacity {
                    return;
                }
            }
        }
        if self.history.len() >= self.capacity {
            self.history.pop_front();
            self.removed_since_relist = true;
        }
    }

    /// Records one change and applies it to the current state.
    pub fn process(&mut self, ev: CacheEvent) {
        self.make_room(ev.time);
        match ev.kind {
            CacheEventType::Deleted => {
                self.store.remove(&ev.key);
                self.keys.remove::<[u8]>(&ev.key);
            }
            _ => {
                if self.store.insert(ev.key.clone(), ev.object.clone()).is_none() {
                    self.keys.insert(ev.key.clone());
                }
            }
        }
        if ev.rv > self.rv {
            self.rv = ev.rv;
        }
        self.history.push_back(ev);
    }

    /// §E.3 the oldest RV a watch may start from.
    pub fn oldest_startable_rv(&self) -> i64 {
        match (self.removed_since_relist, self.history.front()) {
            (true, Some(oldest)) => oldest.rv - 1,
            (true, None) => self.rv,
            (false, _) => self.list_rv,
        }
    }

    /// Every buffered event with RV > `rv`, or the cache's 410 when `rv` is older than what it
    /// can replay (`getAllEventsSinceLocked`).
    pub fn events_since(&self, rv: i64) -> Result<Vec<&CacheEvent>, Status> {
        let oldest = self.oldest_startable_rv();
        if rv < oldest {
            return Err(Status::too_old_resource_version(rv, oldest));
        }
        let start = self.history.partition_point(|e| e.rv <= rv);
        Ok(self.history.range(start..).collect())
    }

    /// The revision of the newest snapshot at or below `n`, if the cache still holds one: one
    /// snapshot per buffered event, plus the relist's while nothing was evicted; none below the
    /// known compaction.
    pub fn snapshot_revision(&self, n: i64, known_compaction: i64) -> Option<i64> {
        let idx = self.history.partition_point(|e| e.rv <= n);
        let rev = if idx > 0 {
            self.history.get(idx - 1).map(|e| e.rv)
        } else if !self.removed_since_relist && n >= self.list_rv {
            Some(self.list_rv)
        } else {
            None
        }?;
        (rev >= known_compaction).then_some(rev)
    }

    /// Every revision [`Self::snapshot_revision`] can answer with, oldest first.
    pub fn snapshot_revisions(&self, known_compaction: i64) -> Vec<i64> {
        let relist = (!self.removed_since_relist).then_some(self.list_rv);
        relist
            .into_iter()
            .chain(self.history.iter().map(|e| e.rv))
            .filter(|r| *r >= known_compaction)
            .collect()
    }

    /// The state at revision `n` from `start` on, under `prefix`, in key order, if a snapshot
    /// exists: the current state with the events newer than `n` undone on the fly, so a page costs
    /// the events since `n` plus the page, not a copy of the whole cache.
    pub fn snapshot_range<'a>(
        &'a self,
        n: i64,
        known_compaction: i64,
        start: &str,
        prefix: &'a str,
    ) -> Option<impl Iterator<Item = (&'a Bytes, &'a Stored)> + 'a> {
        self.snapshot_revision(n, known_compaction)?;
        // key → its state at n (None = absent), from the oldest event after n on each key.
        let mut overlay: BTreeMap<&'a Bytes, Option<&'a Stored>> = BTreeMap::new();
        for ev in self.history.iter().rev().take_while(|e| e.rv > n) {
            let before = match ev.kind {
                CacheEventType::Added => None,
                _ => ev.prev.as_ref(),
            };
            overlay.insert(&ev.key, before);
        }
        let undone: Vec<(&'a Bytes, Option<&'a Stored>)> =
            overlay.iter().filter(|(k, _)| k[..] >= *start.as_bytes()).map(|(k, v)| (*k, *v)).collect();
        let touched: std::collections::BTreeSet<&'a Bytes> = overlay.into_keys().collect();
        let current =
            self.state_from(start).filter(move |(k, _)| !touched.contains(k)).map(|(k, v)| (k, Some(v)));
        Some(
            MergeByKey { a: current.peekable(), b: undone.into_iter().peekable() }
                .take_while(move |(k, _)| k.starts_with(prefix.as_bytes()))
                .filter_map(|(k, v)| v.map(|v| (k, v))),
        )
    }

    /// The state at revision `n` (rebuilt by undoing newer events), if a snapshot exists.
    pub fn snapshot_at(&self, n: i64, known_compaction: i64) -> Option<BTreeMap<Bytes, Stored>> {
        self.snapshot_revision(n, known_compaction)?;
        let mut state = self.store.clone();
        for ev in self.history.iter().rev().take_while(|e| e.rv > n) {
            match (&ev.kind, &ev.prev) {
                (CacheEventType::Added, _) => {
                    state.remove(&ev.key);
                }
                (_, Some(prev)) => {
                    state.insert(ev.key.clone(), prev.clone());
                }
                (_, None) => {
                    state.remove(&ev.key);
                }
            }
        }
        Some(state)
    }
}

impl Default for WatchCache {
    fn default() -> Self {
        Self::new()
    }
}

/// Merges two key-ordered streams with disjoint keys.
struct MergeByKey<'a, A, B>
where
    A: Iterator<Item = (&'a Bytes, Option<&'a Stored>)>,
    B: Iterator<Item = (&'a Bytes, Option<&'a Stored>)>,
{
    a: std::iter::Peekable<A>,
    b: std::iter::Peekable<B>,
}

impl<'a, A, B> Iterator for MergeByKey<'a, A, B>
where
    A: Iterator<Item = (&'a Bytes, Option<&'a Stored>)>,
    B: Iterator<Item = (&'a Bytes, Option<&'a Stored>)>,
{
    type Item = (&'a Bytes, Option<&'a Stored>);
    fn next(&mut self) -> Option<Self::Item> {
        match (self.a.peek(), self.b.peek()) {
            (Some((ka, _)), Some((kb, _))) => {
                if ka <= kb {
                    self.a.next()
                } else {
                    self.b.next()
                }
            }
            (Some(_), None) => self.a.next(),
            (None, _) => self.b.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(v: Value, rv: i64) -> Stored {
        Stored { bytes: serde_json::to_vec(&v).unwrap_or_default().into(), rv }
    }

    fn ev(key: &str, rv: i64, t: u64) -> CacheEvent {
        CacheEvent {
            kind: CacheEventType::Added,
            key: key.as_bytes().into(),
            object: stored(json!({"metadata": {"name": key}}), rv),
            prev: None,
            rv,
            time: Instant(t),
        }
    }

    // §E.3 capacity doubles while the oldest event is fresh.
    #[test]
    fn grows_while_fresh_and_evicts_when_stale() {
        let mut c = WatchCache::new();
        c.replace(vec![], 1);
        for i in 0..150 {
            c.process(ev(&format!("k{i}"), 2 + i, 0));
        }
        assert_eq!(c.capacity(), 200);
        assert_eq!(c.oldest_startable_rv(), 1);
        let mut d = WatchCache::new();
        d.replace(vec![], 1);
        for i in 0..100 {
            d.process(ev(&format!("k{i}"), 2 + i, 0));
        }
        // 80 s later the oldest is stale and the quarter-back one too: shrink is bounded at 100,
        // so the oldest is evicted.
        d.process(ev("late", 102, 80_000));
        assert_eq!(d.capacity(), 100);
        assert_eq!(d.oldest_startable_rv(), 2);
        assert_eq!(
            d.events_since(1).err().map(|s| s.message().to_string()),
            Some("too old resource version: 1 (2)".into())
        );
    }

    // §E.3 pinned capacity evicts; §C.2 snapshots come from the ring.
    #[test]
    fn pinned_capacity_and_snapshots() {
        let mut c = WatchCache::new();
        c.replace(vec![(b"a"[..].into(), stored(json!({"v": 1}), 5))], 5);
        c.set_capacity(Some(2));
        assert_eq!(c.snapshot_revision(5, 0), Some(5));
        c.process(ev("b", 6, 0));
        c.process(ev("c", 7, 0));
        c.process(ev("d", 8, 0));
        assert_eq!(c.oldest_startable_rv(), 6);
        assert_eq!(c.snapshot_revision(5, 0), None);
        assert_eq!(c.snapshot_revision(7, 0), Some(7));
        let s = c.snapshot_at(7, 0).unwrap_or_default();
        assert_eq!(
            s.keys().map(|k| String::from_utf8_lossy(k).into_owned()).collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        let lazy: Vec<String> = c
            .snapshot_range(7, 0, "", "")
            .map(|it| it.map(|(k, _)| String::from_utf8_lossy(k).into_owned()).collect())
            .unwrap_or_default();
        assert_eq!(lazy, ["a", "b", "c"]);
        let from_b: Vec<String> = c
            .snapshot_range(7, 0, "b", "")
            .map(|it| it.map(|(k, _)| String::from_utf8_lossy(k).into_owned()).collect())
            .unwrap_or_default();
        assert_eq!(from_b, ["b", "c"]);
        assert!(c.snapshot_range(6, 0, "", "").is_none());
        assert_eq!(c.snapshot_revision(7, 8), None);
        assert_eq!(c.events_since(6).map(|v| v.len()).ok(), Some(2));
    }
}
