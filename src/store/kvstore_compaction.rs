//! Compaction (etcd's `kvstore.go` `compact` + `kvstore_compaction.go`): the key index drops
//! what the rule of the store's etcd release says (see [`super::kvstore::CompactionRule`]) and
//! the backend loses the same revisions.

use std::collections::HashSet;

use super::MvccError;
use super::api::{ResponseHeader, header};
use super::kvstore::{FastHash, KvStore};
use super::revision::Revision;

impl KvStore {
    /// Compacts the history at `revision` (etcd `Compact`, applied at once, `physical`).
    pub fn compact(&mut self, revision: i64) -> Result<ResponseHeader, MvccError> {
        if revision <= self.compact_rev {
            return Err(MvccError::Compacted);
        }
        if revision > self.current_rev {
            return Err(MvccError::FutureRev);
        }
        let prev = self.compact_rev;
        self.compact_rev = revision;
        // Keys with no revision in [prev, revision] already hold at most one revision < prev
        // (that is what the previous compaction left), so only the changed keys need a visit —
        // plus the keys whose tombstone at exactly `prev` that compaction kept.
        let from = Revision::new(prev.max(0), 0);
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
        let removed = self.index.compact_keys(
            keys.iter().map(|k| k.as_slice()),
            revision,
            self.version.compaction_rule(),
        );
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
}

#[cfg(test)]
mod compact_tests {
    use super::*;
    use crate::store::api::{DeleteRangeRequest, PutRequest};
    use crate::store::kvstore::EtcdVersion;

    /// After every compaction the backend holds exactly the revisions the index still names
    /// (the bulk rebuild and the per-revision removal must agree with the index), under both
    /// compaction rules.
    #[test]
    fn backend_matches_the_index_after_compactions() {
        for version in [EtcdVersion::V3_4, EtcdVersion::V3_6] {
            backend_matches_the_index(version);
        }
    }

    fn backend_matches_the_index(version: EtcdVersion) {
        let mut s = KvStore::new();
        s.set_version(version);
        let mut rng = crate::clock::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = |m: u64| rng.below(m);
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
