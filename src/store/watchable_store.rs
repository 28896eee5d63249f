//! The watchable store (etcd's `watchable_store.go`): [`MvccStore`] wraps the plain
//! [`KvStore`] and the [`WatcherGroup`], so watching sits above the store. Every write goes
//! through here: the store applies it and reports the revisions it wrote, and this layer sends
//! one response per matching watcher (`notify`). A watcher that starts in the past is caught up
//! from the backend (`syncWatchers`), or canceled with `compact_revision` (§A.5).
//!
//! Every watcher is "synced" as soon as it is created (the model catches up at once where etcd
//! does it within ~100 ms), so events never depend on timing.

use super::MvccError;
use super::api::{
    Changes, DeleteRangeRequest, DeleteRangeResponse, ERR_EMPTY_WATCHER_RANGE, Event, EventType, KeyValue,
    PutRequest, PutResponse, RangeRequest, RangeResponse, ResponseHeader, TxnRequest, TxnResponse,
    WATCH_BATCH_MAX_REVS, WatchCreateRequest, WatchId, WatchResponse, WatcherInfo, header,
};
use super::key_index::{KeyIndex, KeyRange};
use super::kvstore::{BackendRecord, EtcdVersion, KvStore};
use super::revision::Revision;
use super::watcher_group::{Watcher, WatcherGroup};

/// The in-memory etcd: the store and its watchers.
#[derive(Debug, Clone, Default)]
pub struct MvccStore {
    kv: KvStore,
    watchers: WatcherGroup,
}

impl MvccStore {
    /// A fresh store: current revision 1, nothing compacted, today's etcd rules.
    pub fn new() -> Self {
        MvccStore::default()
    }
    /// A fresh store following the rules of `version`.
    pub fn with_version(version: EtcdVersion) -> Self {
        let mut s = MvccStore::default();
        s.kv.set_version(version);
        s
    }
    /// The store without its watchers (read-only).
    pub fn kv(&self) -> &KvStore {
        &self.kv
    }
    pub fn current_revision(&self) -> i64 {
        self.kv.current_revision()
    }
    /// `None` until the first compaction.
    pub fn compact_revision(&self) -> Option<i64> {
        self.kv.compact_revision()
    }
    /// The etcd release whose rules the store follows.
    pub fn version(&self) -> EtcdVersion {
        self.kv.version()
    }
    /// Switches to the rules of `version` from now on.
    pub fn set_version(&mut self, version: EtcdVersion) {
        self.kv.set_version(version);
    }
    pub fn put(&mut self, req: PutRequest) -> PutResponse {
        let (resp, changes) = self.kv.put(req);
        self.notify(&changes);
        resp
    }
    pub fn delete_range(&mut self, req: DeleteRangeRequest) -> DeleteRangeResponse {
        let (resp, changes) = self.kv.delete_range(req);
        self.notify(&changes);
        resp
    }
    pub fn range(&self, req: &RangeRequest) -> Result<RangeResponse, MvccError> {
        self.kv.range(req)
    }
    /// See [`KvStore::txn`]; the watchers get one response for the txn's changes.
    pub fn txn(&mut self, req: TxnRequest) -> Result<TxnResponse, MvccError> {
        let (resp, changes) = self.kv.txn(req)?;
        self.notify(&changes);
        Ok(resp)
    }
    /// See [`KvStore::compact`]. Watchers are not affected: only new watchers starting below
    /// the compact revision are canceled.
    pub fn compact(&mut self, revision: i64) -> Result<ResponseHeader, MvccError> {
        self.kv.compact(revision)
    }
    /// The value of `key` at the current revision (a point read through the index).
    pub fn get(&self, key: &[u8]) -> Option<KeyValue> {
        self.kv.get(key)
    }
    /// Number of revisions the backend holds (every put and tombstone not yet compacted away).
    pub fn history_len(&self) -> usize {
        self.kv.history_len()
    }
    /// The backend in revision order (use `.rev()` for the newest first).
    pub fn history(&self) -> impl DoubleEndedIterator<Item = (Revision, &BackendRecord)> + '_ {
        self.kv.history()
    }
    /// The backend from revision `from` (inclusive) on.
    pub fn history_from(
        &self,
        from: Revision,
    ) -> impl DoubleEndedIterator<Item = (Revision, &BackendRecord)> + '_ {
        self.kv.history_from(from)
    }
    /// Number of keys in the index (deleted keys whose tombstone is not yet compacted included).
    pub fn key_count(&self) -> usize {
        self.kv.key_count()
    }
    /// The keyIndex (generations) of one key.
    pub fn key_index(&self, key: &[u8]) -> Option<&KeyIndex> {
        self.kv.key_index(key)
    }
    /// Every keyIndex in key order.
    pub fn key_indexes(&self) -> impl DoubleEndedIterator<Item = &KeyIndex> + '_ {
        self.kv.key_indexes()
    }
    /// Registers a watcher. Past events from `start_revision` are queued at once (or the watcher
    /// is canceled with `compact_revision` if that revision was compacted).
    ///
    /// Details as in etcd: the catch-up comes from the backend (so whether a tombstone at exactly
    /// the compact revision is replayed depends on the release's [`super::CompactionRule`]), in
    /// responses of at most
    /// [`WATCH_BATCH_MAX_REVS`] revisions whose header is the current revision. A compacted
    /// start gives one response with `header.revision == 0`, `compact_revision = compactRev` and
    /// `canceled = (compactRev != 0)`. A `range_end` not after `key` gives one canceled response
    /// with `watch_id == -1` and `cancel_reason` [`ERR_EMPTY_WATCHER_RANGE`]. In those two cases
    /// the watcher is not registered; the returned id still drains the response. A start of -1
    /// before the first compaction is accepted but replays nothing (etcd 3.4 quirk).
    pub fn watch(&mut self, req: WatchCreateRequest) -> WatchId {
        let id = self.watchers.allocate_id();
        let range = KeyRange::new(&req.key, &req.range_end);
        if range.is_empty_interval() {
            self.watchers.send(
                id,
                WatchResponse {
                    header: header(self.kv.current_rev),
                    watch_id: WatchId(-1),
                    events: Vec::new(),
                    compact_revision: 0,
                    canceled: true,
                    cancel_reason: ERR_EMPTY_WATCHER_RANGE.to_string(),
                },
            );
            return id;
        }
        let start = req.start_revision;
        let current = self.kv.current_rev;
        let synced = start == 0 || start > current;
        if !synced && start < self.kv.compact_rev {
            self.watchers.send(
                id,
                WatchResponse {
                    header: header(0),
                    watch_id: id,
                    events: Vec::new(),
                    compact_revision: self.kv.compact_rev,
                    canceled: self.kv.compact_rev != 0,
                    cancel_reason: String::new(),
                },
            );
            return id;
        }
        let min_rev = if synced { start.max(current + 1) } else { current + 1 };
        let watcher = Watcher {
            key: req.key,
            range_end: req.range_end,
            range,
            min_rev,
            prev_kv: req.prev_kv,
            progress_notify: req.progress_notify,
            idle: true,
        };
        // etcd 3.4 reads the catch-up from the backend starting at the key of `minRev`; a negative
        // start (only -1 gets here, before the first compaction) encodes as a huge unsigned key,
        // so nothing is replayed and the watcher just follows from current+1.
        let catch_up = if synced || start < 0 { Vec::new() } else { self.catch_up(id, &watcher, start) };
        self.watchers.add(id, watcher);
        for resp in catch_up {
            self.watchers.send(id, resp);
        }
        id
    }
    pub fn cancel_watch(&mut self, id: WatchId) -> bool {
        self.watchers.cancel(id)
    }
    /// Queues a progress notification (header = current revision) for the watcher.
    pub fn request_progress(&mut self, id: WatchId) {
        if self.watchers.get(id).is_some() {
            self.watchers.send(id, self.progress_response(id));
        }
    }
    /// How many responses the watcher has been sent and not yet taken (looking does not take).
    pub fn queued_watch_responses(&self, id: WatchId) -> usize {
        self.watchers.queued(id)
    }
    /// Drains what the watcher has been sent since the last call, in order.
    pub fn take_watch_responses(&mut self, id: WatchId) -> Vec<WatchResponse> {
        self.watchers.take(id)
    }

    // ----- additions for the simulation and the UI's etcd view -----

    /// The server's progress ticker (etcd sends it every 10 min by default): queues a progress
    /// notification for every `progress_notify` watcher that was sent no events since the
    /// previous tick.
    pub fn progress_notify_idle(&mut self) {
        for id in self.watchers.idle_tick() {
            self.watchers.send(id, self.progress_response(id));
        }
    }
    /// The active watchers, by id.
    pub fn watchers(&self) -> Vec<WatcherInfo> {
        self.watchers.infos()
    }

    // ----- internals -----

    /// `prev_kv` as etcd's watch server finds it: a Range at `mod_revision - 1`, absent once
    /// that revision is compacted.
    fn prev_kv_of(&self, key: &[u8], mod_rev: i64) -> Option<KeyValue> {
        let at = mod_rev - 1;
        if at < self.kv.compact_rev || at <= 0 {
            return None;
        }
        self.kv.kv_at(key, at)
    }

    /// Sends one response per matching watcher with the txn's events (etcd's `notify`).
    fn notify(&mut self, changes: &Changes) {
        if self.watchers.is_empty() || changes.revs.is_empty() {
            return;
        }
        let rev = changes.rev;
        // (watcher, its events of this txn) in watcher-id order; a txn of one change (every
        // plain put or delete) fills each entry once.
        let mut batches: Vec<(WatchId, Vec<Event>)> = Vec::new();
        let mut ids = Vec::new();
        for r in &changes.revs {
            let Some(rec) = self.kv.backend.get(r) else {
                continue;
            };
            let key: &[u8] = &rec.kv.key;
            ids.clear();
            self.watchers.matching_into(key, rev, &mut ids);
            if ids.is_empty() {
                continue;
            }
            let ev = event_of(*r, rec);
            let mut prev: Option<Option<KeyValue>> = None;
            for &(id, wants_prev) in &ids {
                let mut e = ev.clone();
                if wants_prev {
                    e.prev_kv = prev.get_or_insert_with(|| self.prev_kv_of(key, rev)).clone();
                }
                match batches.binary_search_by_key(&id, |(i, _)| *i) {
                    Ok(i) => batches[i].1.push(e),
                    Err(i) => batches.insert(i, (id, vec![e])),
                }
            }
        }
        for (id, events) in batches {
            self.watchers.send(
                id,
                WatchResponse {
                    header: header(rev),
                    watch_id: id,
                    events,
                    compact_revision: 0,
                    canceled: false,
                    cancel_reason: String::new(),
                },
            );
        }
    }

    /// The events from `start` to now for a new watcher, in responses of at most
    /// [`WATCH_BATCH_MAX_REVS`] revisions (etcd's `syncWatchers`).
    fn catch_up(&self, id: WatchId, w: &Watcher, start: i64) -> Vec<WatchResponse> {
        let mut out = Vec::new();
        let mut events = Vec::new();
        let mut revs_in_batch = 0usize;
        let mut last_main = None;
        for (rev, rec) in self.kv.backend.range(Revision::new(start, 0)..) {
            if !w.range.contains(&rec.kv.key) {
                continue;
            }
            if last_main != Some(rev.main) {
                if revs_in_batch == WATCH_BATCH_MAX_REVS {
                    out.push(self.events_response(id, std::mem::take(&mut events)));
                    revs_in_batch = 0;
                }
                revs_in_batch += 1;
                last_main = Some(rev.main);
            }
            let mut e = event_of(*rev, rec);
            if w.prev_kv {
                e.prev_kv = self.prev_kv_of(&rec.kv.key, rev.main);
            }
            events.push(e);
        }
        if !events.is_empty() {
            out.push(self.events_response(id, events));
        }
        out
    }

    fn events_response(&self, id: WatchId, events: Vec<Event>) -> WatchResponse {
        WatchResponse {
            header: header(self.kv.current_rev),
            watch_id: id,
            events,
            compact_revision: 0,
            canceled: false,
            cancel_reason: String::new(),
        }
    }

    fn progress_response(&self, id: WatchId) -> WatchResponse {
        self.events_response(id, Vec::new())
    }
}

fn event_of(rev: Revision, rec: &BackendRecord) -> Event {
    if rec.tombstone {
        Event {
            kind: EventType::Delete,
            kv: KeyValue { key: rec.kv.key.clone(), mod_revision: rev.main, ..KeyValue::default() },
            prev_kv: None,
        }
    } else {
        Event { kind: EventType::Put, kv: rec.kv.clone(), prev_kv: None }
    }
}
