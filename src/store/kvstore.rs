//! The store itself (etcd's `kvstore.go`): the current and compact revisions, the key index
//! ([`TreeIndex`]) and the backend, a map from [`Revision`] to the [`KeyValue`] written at that
//! revision (tombstones included), exactly like etcd's `key` bucket. Reads and writes are in
//! [`super::kvstore_txn`], compaction in [`super::kvstore_compaction`]; watching sits above, in
//! [`super::watchable_store`], which wraps this store (no import runs back down to up).

use std::collections::BTreeMap;

use super::api::KeyValue;
use super::key_index::{CompactionRule, KeyIndex, TreeIndex};
use super::revision::Revision;

/// A small multiplicative hasher (FxHash-like) for the store's transient sets of keys: SipHash's
/// DoS resistance buys nothing there and costs most of the time.
#[derive(Default, Clone, Copy)]
pub(super) struct FastHash;

#[derive(Default)]
pub(super) struct FastHasher(u64);

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

/// What the backend holds at one revision: the key's value as written, or its tombstone
/// (whose `kv` carries only the key, as in etcd).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendRecord {
    pub kv: KeyValue,
    pub tombstone: bool,
}

/// The etcd release line the store behaves like (`set etcd 3.4|3.5|3.6`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EtcdVersion {
    /// etcd 3.4.23, the release of the local differential oracle (Debian's `etcd-server`).
    V3_4,
    /// etcd 3.5.16 and later 3.5 releases.
    V3_5,
    /// etcd 3.6.
    #[default]
    V3_6,
}

impl EtcdVersion {
    /// Parses `3.4`, `3.5` or `3.6`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "3.4" => Some(EtcdVersion::V3_4),
            "3.5" => Some(EtcdVersion::V3_5),
            "3.6" => Some(EtcdVersion::V3_6),
            _ => None,
        }
    }
    /// The version as it is written: `3.4`, `3.5`, `3.6`.
    pub fn as_str(self) -> &'static str {
        match self {
            EtcdVersion::V3_4 => "3.4",
            EtcdVersion::V3_5 => "3.5",
            EtcdVersion::V3_6 => "3.6",
        }
    }
    /// The release this version stands for, as the explanations name it.
    pub fn release(self) -> &'static str {
        match self {
            EtcdVersion::V3_4 => "3.4.23",
            EtcdVersion::V3_5 => "3.5.16+",
            EtcdVersion::V3_6 => "3.6",
        }
    }
    /// Its compaction rule.
    pub fn compaction_rule(self) -> CompactionRule {
        match self {
            EtcdVersion::V3_4 => CompactionRule::DropTombstoneAtCompactRev,
            EtcdVersion::V3_5 | EtcdVersion::V3_6 => CompactionRule::KeepTombstoneAtCompactRev,
        }
    }
}

/// The in-memory etcd store, without watchers (etcd's `store`).
#[derive(Debug, Clone)]
pub struct KvStore {
    /// etcd's `currentRev`: the revision of the last write txn (1 for a fresh store).
    pub(super) current_rev: i64,
    /// etcd's `compactMainRev`: -1 until the first compaction.
    pub(super) compact_rev: i64,
    /// etcd's `treeIndex`: key → keyIndex (generations of revisions).
    pub(super) index: TreeIndex,
    /// etcd's backend `key` bucket: revision → record.
    pub(super) backend: BTreeMap<Revision, BackendRecord>,
    /// The release whose rules the store follows.
    pub(super) version: EtcdVersion,
}

impl Default for KvStore {
    fn default() -> Self {
        Self::new()
    }
}

impl KvStore {
    /// A fresh store: current revision 1, nothing compacted, today's etcd.
    pub fn new() -> Self {
        KvStore {
            current_rev: 1,
            compact_rev: -1,
            index: TreeIndex::default(),
            backend: BTreeMap::new(),
            version: EtcdVersion::default(),
        }
    }
    pub fn current_revision(&self) -> i64 {
        self.current_rev
    }
    /// `None` until the first compaction.
    pub fn compact_revision(&self) -> Option<i64> {
        (self.compact_rev >= 0).then_some(self.compact_rev)
    }
    /// The etcd release the store behaves like.
    pub fn version(&self) -> EtcdVersion {
        self.version
    }
    /// Switches the rules from now on (what was compacted stays compacted).
    pub fn set_version(&mut self, version: EtcdVersion) {
        self.version = version;
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

    pub(super) fn kv_at(&self, key: &[u8], at_rev: i64) -> Option<KeyValue> {
        let e = self.index.get(key, at_rev)?;
        self.backend.get(&e.modified).map(|rec| rec.kv.clone())
    }
}
