//! Reads and write transactions of the store (etcd's `kvstore_txn.go`, plus the Range applier's
//! limit / count / keys_only handling and `applyCompare` from `apply.go`).
//!
//! Every write runs inside a write txn whose reads see its own earlier writes, and which bumps
//! `currentRev` once if it changed anything. A write returns the revisions it wrote
//! ([`Changes`]) so the watchable store above can notify its watchers; this module knows
//! nothing of watchers. Point reads and limited ranges go through the index (binary
//! searches), never through a scan of the store.

use std::collections::HashSet;

use super::MvccError;
use super::api::{
    Bytes, Changes, Compare, CompareResult, CompareTarget, DeleteRangeRequest, DeleteRangeResponse, KeyValue,
    PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp, ResponseOp, TxnRequest, TxnResponse,
    header,
};
use super::key_index::KeyRange;
use super::kvstore::{BackendRecord, FastHash, KvStore};
use super::revision::Revision;

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

impl KvStore {
    /// A Range at the current revision.
    pub fn range(&self, req: &RangeRequest) -> Result<RangeResponse, MvccError> {
        self.range_at(req, self.current_rev)
    }
    pub(crate) fn put(&mut self, req: PutRequest) -> (PutResponse, Changes) {
        let mut tx = TxnWrite::new(self.current_rev);
        let resp = self.txn_put(&mut tx, req);
        (resp, self.end(tx))
    }
    pub(crate) fn delete_range(&mut self, req: DeleteRangeRequest) -> (DeleteRangeResponse, Changes) {
        let mut tx = TxnWrite::new(self.current_rev);
        let resp = self.txn_delete_range(&mut tx, &req);
        (resp, self.end(tx))
    }
    /// All operations of the chosen branch share one new revision if any of them changes a key.
    ///
    /// As in etcd, the compares and the branch's ranges are checked against the store before
    /// anything is written: a Range with a non-zero `revision` above the current revision fails
    /// the whole txn with `FutureRev`, one below the compact revision with `Compacted` (so does
    /// any negative `revision` other than -1 before the first compaction — an etcd quirk).
    /// Ranges, puts (`prev_kv`) and deletes later in the branch see the branch's earlier writes.
    pub(crate) fn txn(&mut self, req: TxnRequest) -> Result<(TxnResponse, Changes), MvccError> {
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
        let changes = self.end(tx);
        Ok((TxnResponse { header: header(revision), succeeded, responses }, changes))
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
                KeyValue { key: rec.kv.key.clone(), value: Bytes::default(), ..rec.kv }
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
            CompareTarget::Value(v) => kv.value[..].cmp(v.as_slice()),
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
        let key = self.index.put(&req.key, rev);
        let kv = KeyValue {
            key,
            value: req.value.into(),
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
            if let Some(key) = self.index.tombstone(key, rev) {
                let kv = KeyValue { key, ..KeyValue::default() };
                self.backend.insert(rev, BackendRecord { kv, tombstone: true });
                tx.changes.push(rev);
            }
        }
        let deleted = found.len() as i64;
        let revision = if tx.changes.is_empty() { tx.begin_rev } else { tx.begin_rev + 1 };
        DeleteRangeResponse { header: header(revision), deleted, prev_kvs }
    }

    /// Ends a write txn: bumps the revision once if anything changed; returns what it wrote.
    fn end(&mut self, tx: TxnWrite) -> Changes {
        if tx.changes.is_empty() {
            return Changes::default();
        }
        self.current_rev = tx.begin_rev + 1;
        Changes { rev: self.current_rev, revs: tx.changes }
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
        let mut s = KvStore::new();
        let mut rng = crate::clock::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = |m: u64| rng.below(m);
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
