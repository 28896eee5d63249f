//! The store itself (etcd's kvstore): global revision, put / delete-range / txn / range,
//! compaction (§A.1–§A.4), and the watchers it feeds (§A.5).
//!
//! It owns `currentRev`, `compactRev`, the key index ([`TreeIndex`]) and the backend: a map from
//! [`Revision`] to the [`KeyValue`] written at that revision (tombstones included), exactly like
//! etcd's `key` bucket. Point reads and limited ranges go through the index (binary searches),
//! never through a scan of the store; compaction only visits keys changed since the previous
//! compaction. Write paths mirror `kvstore_txn.go`: every write runs inside a write txn whose
//! reads see its own earlier writes, and which bumps `currentRev` once if it changed anything.

use std::collections::{BTreeMap, HashSet};

use super::MvccError;
use super::key_index::{KeyIndex, KeyRange, TreeIndex};
use super::revision::Revision;
use super::watch::{
    ERR_EMPTY_WATCHER_RANGE, Event, EventType, WATCH_BATCH_MAX_REVS, WatchCreateRequest, WatchId,
    WatchResponse, Watcher, WatcherInfo, Watchers,
};

/// A small multiplicative hasher (FxHash-like) for the store's transient sets of keys: SipHash's
/// DoS resistance buys nothing there and costs most of the time.
#[derive(Default, Clone, Copy)]
struct FastHash;

#[derive(Default)]
struct FastHasher(u64);

impl std::hash::BuildHasher for FastHash {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(K);
        }
    }
}

/// `mvccpb.KeyValue`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyValue {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    pub lease: i64,
}

/// Every response carries the store's *current* revision (§A.3), whatever revision was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResponseHeader {
    pub revision: i64,
}

/// `range_end` follows etcd: empty = just `key`; `[0]` (a single NUL) = every key ≥ `key`;
/// otherwise the half-open interval `[key, range_end)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// ≤ 0 = current revision.
    pub revision: i64,
    /// 0 = unlimited.
    pub limit: i64,
    pub count_only: bool,
    pub keys_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RangeResponse {
    pub header: ResponseHeader,
    pub kvs: Vec<KeyValue>,
    pub more: bool,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PutRequest {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
    pub lease: i64,
    pub prev_kv: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PutResponse {
    pub header: ResponseHeader,
    pub prev_kv: Option<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteRangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    pub prev_kv: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteRangeResponse {
    pub header: ResponseHeader,
    pub deleted: i64,
    pub prev_kvs: Vec<KeyValue>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareResult {
    Equal,
    Greater,
    Less,
    NotEqual,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareTarget {
    Version(i64),
    CreateRevision(i64),
    ModRevision(i64),
    Value(Vec<u8>),
}

/// One txn guard on a single key (a missing key has version/create/mod revision 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compare {
    pub key: Vec<u8>,
    pub result: CompareResult,
    pub target: CompareTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOp {
    Range(RangeRequest),
    Put(PutRequest),
    DeleteRange(DeleteRangeRequest),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseOp {
    Range(RangeResponse),
    Put(PutResponse),
    DeleteRange(DeleteRangeResponse),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxnRequest {
    pub compare: Vec<Compare>,
    pub success: Vec<RequestOp>,
    pub failure: Vec<RequestOp>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxnResponse {
    pub header: ResponseHeader,
    pub succeeded: bool,
    pub responses: Vec<ResponseOp>,
}

/// What the backend holds at one revision: the key's value as written, or its tombstone
/// (whose `kv` carries only the key, as in etcd).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendRecord {
    pub kv: KeyValue,
    pub tombstone: bool,
}

/// The in-memory etcd.
#[derive(Debug, Clone)]
pub struct MvccStore {
    /// etcd's `currentRev`: the revision of the last write txn (1 for a fresh store).
    current_rev: i64,
    /// etcd's `compactMainRev`: -1 until the first compaction.
    compact_rev: i64,
    /// etcd's `treeIndex`: key → keyIndex (generations of revisions).
    index: TreeIndex,
    /// etcd's backend `key` bucket: revision → record.
    backend: BTreeMap<Revision, BackendRecord>,
    watchers: Watchers,
}

impl Default for MvccStore {
    fn default() -> Self {
        Self::new()
    }
}

/// One write transaction in progress (etcd's `storeTxnWrite`).
struct TxnWrite {
    begin_rev: i64,
    /// Revisions written so far; `changes.len()` is the next `sub`.
    changes: Vec<Revision>,
}

impl TxnWrite {
    fn new(begin_rev: i64) -> Self {
        TxnWrite { begin_rev, changes: Vec::new() }
    }
    /// Reads inside the txn see its own earlier writes.
    fn read_rev(&self) -> i64 {
        if self.changes.is_empty() { self.begin_rev } else { self.begin_rev + 1 }
    }
    fn next_rev(&self) -> Revision {
        Revision::new(self.begin_rev + 1, self.changes.len() as i64)
    }
}

fn header(revision: i64) -> ResponseHeader {
    ResponseHeader { revision }
}

impl MvccStore {
    /// A fresh store: current revision 1, nothing compacted.
    pub fn new() -> Self {
        MvccStore {
            current_rev: 1,
            compact_rev: -1,
            index: TreeIndex::default(),
            backend: BTreeMap::new(),
            watchers: Watchers::default(),
        }
    }
    pub fn current_revision(&self) -> i64 {
        self.current_rev
    }
    /// `None` until the first compaction.
    pub fn compact_revision(&self) -> Option<i64> {
        (self.compact_rev >= 0).then_some(self.compact_rev)
    }
    pub fn put(&mut self, req: PutRequest) -> PutResponse {
        let mut tx = TxnWrite::new(self.current_rev);
        let resp = self.txn_put(&mut tx, req);
        self.end(tx);
        resp
    }
    pub fn delete_range(&mut self, req: DeleteRangeRequest) -> DeleteRangeResponse {
        let mut tx = TxnWrite::new(self.current_rev);
        let resp = self.txn_delete_range(&mut tx, &req);
        self.end(tx);
        resp
    }
    pub fn range(&self, req: &RangeRequest) -> Result<RangeResponse, MvccError> {
        self.range_at(req, self.current_rev)
    }
    /// All operations of the chosen branch share one new revision if any of them changes a key.
    ///
    /// As in etcd, the compares and the branch's ranges are checked against the store before
    /// anything is written: a Range with a non-zero `revision` above the current revision fails
    /// the whole txn with `FutureRev`, one below the compact revision with `Compacted` (so does
    /// any negative `revision` other than -1 before the first compaction — an etcd quirk).
    /// Ranges, puts (`prev_kv`) and deletes later in the branch see the branch's earlier writes.
    pub fn txn(&mut self, req: TxnRequest) -> Result<TxnResponse, MvccError> {
        let succeeded = req.compare.iter().all(|c| self.compare(c));
        let ops = if succeeded { req.success } else { req.failure };
        for op in &ops {
            if let RequestOp::Range(r) = op
                && r.revision != 0
            {
                if r.revision > self.current_rev {
                    return Err(MvccError::FutureRev);
                }
                if r.revision < self.compact_rev {
                    return Err(MvccError::Compacted);
                }
            }
        }
        let mut tx = TxnWrite::new(self.current_rev);
        let mut responses = Vec::with_capacity(ops.len());
        for op in ops {
            let resp =
                match op {
                    RequestOp::Range(r) => {
                        let read_rev = tx.read_rev();
                        // Cannot fail after the checks above; an empty answer keeps this panic-free.
                        ResponseOp::Range(self.range_at(&r, read_rev).unwrap_or(RangeResponse {
                            header: header(read_rev),
                            ..RangeResponse::default()
                        }))
                    }
                    RequestOp::Put(p) => ResponseOp::Put(self.txn_put(&mut tx, p)),
                    RequestOp::DeleteRange(d) => ResponseOp::DeleteRange(self.txn_delete_range(&mut tx, &d)),
                };
            responses.push(resp);
        }
        let revision = tx.read_rev();
        self.end(tx);
        Ok(TxnResponse { header: header(revision), succeeded, responses })
    }
    pub fn compact(&mut self, revision: i64) -> Result<ResponseHeader, MvccError> {
        if revision <= self.compact_rev {
            return Err(MvccError::Compacted);
        }
        if revision > self.current_rev {
            return Err(MvccError::FutureRev);
        }
        let prev = self.compact_rev;
        self.compact_rev = revision;
        // Keys with no revision in (prev, revision] already hold at most one revision <= prev
        // (that is what the previous compaction left), so only the changed keys need a visit.
        let from = Revision::new(prev.saturating_add(1), 0);
        let to = Revision::new(revision, i64::MAX);
        let keys: Vec<Vec<u8>> = if from <= to {
            // Distinct keys without cloning one per revision.
            let mut seen: HashSet<&[u8], FastHash> = HashSet::default();
            for (_, rec) in self.backend.range(from..=to) {
                seen.insert(&rec.kv.key);
            }
            seen.into_iter().map(<[u8]>::to_vec).collect()
        } else {
            Vec::new()
        };
        let removed = self.index.compact_keys(keys.iter().map(|k| k.as_slice()), revision);
        if removed.len() > self.backend.len() / 8 {
            // Much of the backend goes: one ordered pass that rebuilds the map beats a removal
            // (with its rebalancing) per revision. Every record in (prev, revision] belongs to a
            // visited key, and of those the backend keeps exactly what the index still holds
            // (at most one per key); at or below prev only the listed removals go. Both lists
            // are short next to `removed`, so they are sorted instead of it.
            let mut old_gone: Vec<Revision> = removed.iter().filter(|r| r.main <= prev).copied().collect();
            old_gone.sort_unstable();
            let mut kept: Vec<Revision> = keys
                .iter()
                .filter_map(|k| self.index.key_index(k))
                .flat_map(|ki| ki.generations().iter().flat_map(|g| g.revisions()))
                .filter(|r| r.main > prev && r.main <= revision)
                .collect();
            kept.sort_unstable();
            let (mut gone, mut kept) = (old_gone.iter().peekable(), kept.iter().peekable());
            let old = std::mem::take(&mut self.backend);
            self.backend = old
                .into_iter()
                .filter(|(r, _)| {
                    if r.main <= prev {
                        while gone.next_if(|g| **g < *r).is_some() {}
                        gone.next_if(|g| **g == *r).is_none()
                    } else if r.main <= revision {
                        while kept.next_if(|k| **k < *r).is_some() {}
                        kept.next_if(|k| **k == *r).is_some()
                    } else {
                        true
                    }
                })
                .collect();
        } else {
            for rev in removed {
                self.backend.remove(&rev);
            }
        }
        Ok(header(self.current_rev))
    }
    /// Registers a watcher. Past events from `start_revision` are queued at once (or the watcher
    /// is canceled with `compact_revision` if that revision was compacted).
    ///
    /// Details as in etcd 3.4: the catch-up comes from the backend (so a tombstone at exactly
    /// the compact revision is not replayed), in responses of at most
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
                    header: header(self.current_rev),
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
        let current = self.current_rev;
        let synced = start == 0 || start > current;
        if !synced && start < self.compact_rev {
            self.watchers.send(
                id,
                WatchResponse {
                    header: header(0),
                    watch_id: id,
                    events: Vec::new(),
                    compact_revision: self.compact_rev,
                    canceled: self.compact_rev != 0,
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
    /// The value of `key` at the current revision (a point read through the index).
    pub fn get(&self, key: &[u8]) -> Option<KeyValue> {
        self.kv_at(key, self.current_rev)
    }
    /// Number of revisions the backend holds (every put and tombstone not yet compacted away).
    pub fn history_len(&self) -> usize {
        self.backend.len()
    }
    /// The backend in revision order (use `.rev()` for the newest first).
    pub fn history(&self) -> impl DoubleEndedIterator<Item = (Revision, &BackendRecord)> + '_ {
        self.backend.iter().map(|(r, rec)| (*r, rec))
    }
    /// The backend from revision `from` (inclusive) on.
    pub fn history_from(
        &self,
        from: Revision,
    ) -> impl DoubleEndedIterator<Item = (Revision, &BackendRecord)> + '_ {
        self.backend.range(from..).map(|(r, rec)| (*r, rec))
    }
    /// Number of keys in the index (deleted keys whose tombstone is not yet compacted included).
    pub fn key_count(&self) -> usize {
        self.index.len()
    }
    /// The keyIndex (generations) of one key.
    pub fn key_index(&self, key: &[u8]) -> Option<&KeyIndex> {
        self.index.key_index(key)
    }
    /// Every keyIndex in key order.
    pub fn key_indexes(&self) -> impl DoubleEndedIterator<Item = &KeyIndex> + '_ {
        self.index.iter()
    }

    // ----- internals -----

    fn kv_at(&self, key: &[u8], at_rev: i64) -> Option<KeyValue> {
        let e = self.index.get(key, at_rev)?;
        self.backend.get(&e.modified).map(|rec| rec.kv.clone())
    }

    /// etcd's `rangeKeys` plus the limit / count / keys_only handling of the Range applier.
    fn range_at(&self, req: &RangeRequest, cur_rev: i64) -> Result<RangeResponse, MvccError> {
        if req.revision > cur_rev {
            return Err(MvccError::FutureRev);
        }
        let rev = if req.revision <= 0 { cur_rev } else { req.revision };
        if rev < self.compact_rev {
            return Err(MvccError::Compacted);
        }
        let range = KeyRange::new(&req.key, &req.range_end);
        // The server fetches limit+1 to know whether there is more.
        let fetch = if req.limit > 0 { usize::try_from(req.limit).unwrap_or(usize::MAX) } else { 0 };
        let fetch = fetch.saturating_add(usize::from(req.limit > 0));
        let mut count: i64 = 0;
        let mut kvs = Vec::new();
        let to_kv = |rec: &BackendRecord| {
            if req.keys_only {
                KeyValue { key: rec.kv.key.clone(), value: Vec::new(), ..rec.kv }
            } else {
                rec.kv.clone()
            }
        };
        if req.count_only || fetch > 0 {
            // Walk only as far as the page needs; the count comes from the index's live-key
            // counter (etcd walks the whole range for it, which would make a page's cost grow
            // with the size of the collection).
            if !req.count_only {
                for (_, e) in self.index.revisions(&range, rev) {
                    if kvs.len() >= fetch {
                        break;
                    }
                    if let Some(rec) = self.backend.get(&e.modified) {
                        kvs.push(to_kv(rec));
                    }
                }
            }
            count = self.count_at(&range, rev);
        } else {
            for (_, e) in self.index.revisions(&range, rev) {
                count += 1;
                if let Some(rec) = self.backend.get(&e.modified) {
                    kvs.push(to_kv(rec));
                }
            }
        }
        let mut more = false;
        if req.limit > 0 && kvs.len() as i64 > req.limit {
            kvs.truncate(req.limit as usize);
            more = true;
        }
        Ok(RangeResponse { header: header(cur_rev), kvs, more, count })
    }

    /// The number of keys in `range` visible at `rev`: the keys live now, corrected for the
    /// keys changed after `rev` (found in the backend, which is in revision order). When more
    /// has changed since `rev` than is cheap to check, the range is walked instead.
    fn count_at(&self, range: &KeyRange, rev: i64) -> i64 {
        let live = self.index.live_count(range);
        if rev >= self.current_rev {
            return live as i64;
        }
        let budget = (live / 8).max(4096);
        let mut changed: HashSet<&[u8], FastHash> = HashSet::default();
        for (i, (_, rec)) in self.backend.range(Revision::new(rev.saturating_add(1), 0)..).enumerate() {
            if i >= budget {
                return self.index.revisions(range, rev).count() as i64;
            }
            if range.contains(&rec.kv.key) {
                changed.insert(&rec.kv.key);
            }
        }
        let mut count = live as i64;
        for k in changed {
            if let Some(ki) = self.index.key_index(k) {
                count += i64::from(ki.get(rev).is_some()) - i64::from(ki.is_live());
            }
        }
        count
    }

    /// etcd's `applyCompare`: a missing key has zero version/revisions, and any value compare
    /// on a missing key is false (whatever the operator).
    fn compare(&self, c: &Compare) -> bool {
        // Borrowed, not cloned: a compare only looks at the revisions (or the value).
        let found = self
            .index
            .get(&c.key, self.current_rev)
            .and_then(|e| self.backend.get(&e.modified))
            .map(|rec| &rec.kv);
        if found.is_none() && matches!(c.target, CompareTarget::Value(_)) {
            return false;
        }
        let missing = KeyValue::default();
        let kv = found.unwrap_or(&missing);
        let ord = match &c.target {
            CompareTarget::Version(v) => kv.version.cmp(v),
            CompareTarget::CreateRevision(v) => kv.create_revision.cmp(v),
            CompareTarget::ModRevision(v) => kv.mod_revision.cmp(v),
            CompareTarget::Value(v) => kv.value.as_slice().cmp(v.as_slice()),
        };
        match c.result {
            CompareResult::Equal => ord.is_eq(),
            CompareResult::NotEqual => ord.is_ne(),
            CompareResult::Greater => ord.is_gt(),
            CompareResult::Less => ord.is_lt(),
        }
    }

    fn txn_put(&mut self, tx: &mut TxnWrite, req: PutRequest) -> PutResponse {
        let prev_kv = if req.prev_kv { self.kv_at(&req.key, tx.read_rev()) } else { None };
        let rev = tx.next_rev();
        let (create_revision, version) = match self.index.get(&req.key, rev.main) {
            Some(e) => (e.created.main, e.version.saturating_add(1)),
            None => (rev.main, 1),
        };
        self.index.put(&req.key, rev);
        let kv = KeyValue {
            key: req.key,
            value: req.value,
            create_revision,
            mod_revision: rev.main,
            version,
            lease: req.lease,
        };
        self.backend.insert(rev, BackendRecord { kv, tombstone: false });
        tx.changes.push(rev);
        PutResponse { header: header(tx.begin_rev + 1), prev_kv }
    }

    fn txn_delete_range(&mut self, tx: &mut TxnWrite, req: &DeleteRangeRequest) -> DeleteRangeResponse {
        let read_rev = tx.read_rev();
        let range = KeyRange::new(&req.key, &req.range_end);
        let found: Vec<(Vec<u8>, Revision)> =
            self.index.revisions(&range, read_rev).map(|(k, e)| (k.to_vec(), e.modified)).collect();
        let prev_kvs = if req.prev_kv {
            found.iter().filter_map(|(_, r)| self.backend.get(r).map(|rec| rec.kv.clone())).collect()
        } else {
            Vec::new()
        };
        for (key, _) in &found {
            let rev = tx.next_rev();
            if self.index.tombstone(key, rev) {
                let kv = KeyValue { key: key.clone(), ..KeyValue::default() };
                self.backend.insert(rev, BackendRecord { kv, tombstone: true });
                tx.changes.push(rev);
            }
        }
        let deleted = found.len() as i64;
        let revision = if tx.changes.is_empty() { tx.begin_rev } else { tx.begin_rev + 1 };
        DeleteRangeResponse { header: header(revision), deleted, prev_kvs }
    }

    /// Ends a write txn: bumps the revision once if anything changed and notifies watchers.
    fn end(&mut self, tx: TxnWrite) {
        if tx.changes.is_empty() {
            return;
        }
        self.current_rev = tx.begin_rev + 1;
        self.notify(self.current_rev, &tx.changes);
    }

    /// `prev_kv` as etcd's watch server finds it: a Range at `mod_revision - 1`, absent once
    /// that revision is compacted.
    fn prev_kv_of(&self, key: &[u8], mod_rev: i64) -> Option<KeyValue> {
        let at = mod_rev - 1;
        if at < self.compact_rev || at <= 0 {
            return None;
        }
        self.kv_at(key, at)
    }

    /// Sends one response per matching watcher with the txn's events (etcd's `notify`).
    fn notify(&mut self, rev: i64, changes: &[Revision]) {
        if self.watchers.is_empty() {
            return;
        }
        // (watcher, its events of this txn) in watcher-id order; a txn of one change (every
        // plain put or delete) fills each entry once.
        let mut batches: Vec<(WatchId, Vec<Event>)> = Vec::new();
        let mut ids = Vec::new();
        for r in changes {
            let Some(rec) = self.backend.get(r) else {
                continue;
            };
            let key = rec.kv.key.as_slice();
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
        for (rev, rec) in self.backend.range(Revision::new(start, 0)..) {
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
            header: header(self.current_rev),
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

#[cfg(test)]
mod count_tests {
    use super::*;

    /// The count a limited Range reports (from the live-key counter plus the correction for
    /// later changes) equals a walk over the range, at every revision, after deletes,
    /// re-creates and compactions, including past the correction budget.
    #[test]
    fn limited_range_count_matches_a_walk() {
        let mut s = MvccStore::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let key = |i: u64| format!("/k/{i:03}").into_bytes();
        for step in 0..9_000u64 {
            let k = key(next(60));
            match next(10) {
                0..=5 => {
                    s.put(PutRequest { key: k, value: b"v".to_vec(), ..Default::default() });
                }
                6..=8 => {
                    s.delete_range(DeleteRangeRequest { key: k, ..Default::default() });
                }
                _ => {
                    if step % 500 == 0 {
                        let at = s.current_revision() - next(50) as i64;
                        let _ = s.compact(at);
                    }
                }
            }
            if step % 37 == 0 {
                let lo = s.compact_revision().unwrap_or(1).max(1);
                let rev = lo + next((s.current_revision() - lo + 1) as u64) as i64;
                let (a, b) = (next(60), next(60));
                let (a, b) = (a.min(b), a.max(b) + 1);
                for (start, end) in [
                    (key(a), key(b)),
                    (key(a), vec![0]),
                    (b"/k/".to_vec(), b"/k0".to_vec()),
                    (key(a), Vec::new()),
                ] {
                    let walk = RangeRequest {
                        key: start.clone(),
                        range_end: end.clone(),
                        revision: rev,
                        ..Default::default()
                    };
                    let want = s.range(&walk).map(|r| r.count).unwrap();
                    for limit in [1, 3] {
                        let got = s.range(&RangeRequest { limit, ..walk.clone() }).unwrap();
                        assert_eq!(
                            got.count,
                            want,
                            "count at rev {rev} of {:?}",
                            String::from_utf8_lossy(&start)
                        );
                        assert_eq!(got.more, want > limit);
                    }
                    let only = s.range(&RangeRequest { count_only: true, ..walk.clone() }).unwrap();
                    assert_eq!(only.count, want);
                }
            }
        }
    }
}

#[cfg(test)]
mod compact_tests {
    use super::*;

    /// After every compaction the backend holds exactly the revisions the index still names
    /// (the bulk rebuild and the per-revision removal must agree with the index).
    #[test]
    fn backend_matches_the_index_after_compactions() {
        let mut s = MvccStore::new();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for step in 0..20_000u64 {
            let k = format!("/k/{:03}", next(40)).into_bytes();
            if next(5) == 0 {
                s.delete_range(DeleteRangeRequest { key: k, ..Default::default() });
            } else {
                s.put(PutRequest { key: k, value: b"v".to_vec(), ..Default::default() });
            }
            if step % 997 == 0 || step % 89 == 0 {
                let lo = s.compact_revision().unwrap_or(0) + 1;
                let at = lo + next((s.current_revision() - lo + 1) as u64) as i64;
                s.compact(at).expect("compact");
                let mut from_index: Vec<Revision> = s
                    .key_indexes()
                    .flat_map(|ki| ki.generations().iter().flat_map(|g| g.revisions()).collect::<Vec<_>>())
                    .collect();
                from_index.sort_unstable();
                let backend: Vec<Revision> = s.history().map(|(r, _)| r).collect();
                assert_eq!(backend, from_index, "after compact({at})");
            }
        }
    }
}
