//! Per-key generations (etcd's keyIndex): which revisions of a key exist, which one is visible at
//! a given revision, and what compaction keeps (§A.2, §A.4). Also the ordered index of all keys
//! (etcd's treeIndex) and the `key` / `range_end` conventions shared by Range, DeleteRange and
//! Watch.
//!
//! Like etcd, the index holds only [`Revision`]s; the values live in the backend (keyed by
//! revision) owned by [`super::kv::MvccStore`].
//!
//! A key's life is a list of generations. A generation starts with a create, collects every update
//! and ends with a tombstone (delete); after a tombstone an empty generation is appended, which
//! the next put (the re-create) fills. Example, for puts at 2, 4, a delete at 6 and a put at 8:
//! `generations = [{created 2, ver 3, revs [2, 4, 6]}, {created 8, ver 1, revs [8]}]`.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

use super::ranked::RankedSet;
use super::revision::Revision;

/// One life of a key: from its creation to its tombstone (etcd's `generation`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Generation {
    /// Number of puts (and the tombstone, if any) ever made in this generation, compaction or not.
    ver: i64,
    /// Revision of the put that created this generation.
    created: Revision,
    /// The revisions still stored, oldest first; for a closed generation the last is the tombstone.
    revs: VecDeque<Revision>,
}

impl Generation {
    pub fn is_empty(&self) -> bool {
        self.revs.is_empty()
    }
    /// etcd's `ver`: how many changes this generation has seen (the tombstone included).
    pub fn version(&self) -> i64 {
        self.ver
    }
    /// The revision of the put that created this generation.
    pub fn created(&self) -> Revision {
        self.created
    }
    /// The revisions of this generation that compaction has not removed, oldest first.
    pub fn revisions(&self) -> impl DoubleEndedIterator<Item = Revision> + '_ {
        self.revs.iter().copied()
    }
    fn first_main(&self) -> i64 {
        self.revs.front().map_or(i64::MAX, |r| r.main)
    }
    fn last_main(&self) -> i64 {
        self.revs.back().map_or(i64::MIN, |r| r.main)
    }
}

/// Every stored revision of one key, grouped in generations (etcd's `keyIndex`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyIndex {
    /// Shared with the tree's map key and the live-key counter (one allocation per key).
    key: Arc<[u8]>,
    /// The newest revision of this key (put or tombstone).
    modified: Revision,
    /// Never empty; only the last one may be empty (the key is currently deleted).
    generations: Vec<Generation>,
}

/// What [`KeyIndex::get`] finds: the visible revision plus the generation's create revision and
/// the version the key had at that revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexEntry {
    pub modified: Revision,
    pub created: Revision,
    pub version: i64,
}

impl KeyIndex {
    pub fn new(key: Vec<u8>) -> Self {
        Self::with_key(key.into())
    }
    fn with_key(key: Arc<[u8]>) -> Self {
        KeyIndex { key, modified: Revision::default(), generations: vec![Generation::default()] }
    }
    pub fn key(&self) -> &[u8] {
        &self.key
    }
    /// The newest revision of the key (a put or its tombstone).
    pub fn modified(&self) -> Revision {
        self.modified
    }
    pub fn generations(&self) -> &[Generation] {
        &self.generations
    }
    /// True when nothing of the key remains (only after compaction removed a tombstoned key).
    pub fn is_empty(&self) -> bool {
        self.generations.len() == 1 && self.generations[0].is_empty()
    }
    /// True when the key currently exists (its last generation is open and not empty).
    pub fn is_live(&self) -> bool {
        self.generations.last().is_some_and(|g| !g.is_empty())
    }

    /// Records a put at `rev` (creates a generation if the key is currently deleted).
    pub(crate) fn put(&mut self, rev: Revision) {
        if self.generations.is_empty() {
            self.generations.push(Generation::default());
        }
        let last = self.generations.len() - 1;
        let g = &mut self.generations[last];
        if g.revs.is_empty() {
            g.created = rev;
            // Most keys are written once: room for one revision, not the default four.
            g.revs.reserve_exact(1);
        }
        g.revs.push_back(rev);
        g.ver += 1;
        self.modified = rev;
    }

    /// Records a delete at `rev`: closes the current generation and opens an empty one.
    /// Returns false (and changes nothing) when the key does not currently exist.
    pub(crate) fn tombstone(&mut self, rev: Revision) -> bool {
        if !self.is_live() {
            return false;
        }
        self.put(rev);
        self.generations.push(Generation::default());
        true
    }

    /// The newest revision with `main <= at_rev`, unless the key was deleted (or not yet created)
    /// at `at_rev`. Binary search over generations and then over the generation's revisions.
    pub fn get(&self, at_rev: i64) -> Option<IndexEntry> {
        let n = self.generations.len();
        let non_empty = match self.generations.last() {
            Some(g) if g.is_empty() => n - 1,
            Some(_) => n,
            None => return None,
        };
        let p = self.generations[..non_empty].partition_point(|g| g.first_main() <= at_rev);
        if p == 0 {
            return None;
        }
        let gi = p - 1;
        let g = &self.generations[gi];
        if gi != n - 1 && g.last_main() <= at_rev {
            // The generation's tombstone is visible: the key is deleted at `at_rev`.
            return None;
        }
        let idx = g.revs.partition_point(|r| r.main <= at_rev).checked_sub(1)?;
        let modified = *g.revs.get(idx)?;
        let newer = (g.revs.len() - idx - 1) as i64;
        Some(IndexEntry { modified, created: g.created, version: g.ver - newer })
    }

    /// etcd's `keyIndex.compact`: drops every revision `<= at_rev` except the newest one. That
    /// one is a tombstone when the key was deleted at or before `at_rev`: a tombstone below
    /// `at_rev` goes with its generation; one at exactly `at_rev` stays under
    /// [`CompactionRule::KeepTombstoneAtCompactRev`] (`doCompact` stops at `tomb >= atRev`) and
    /// goes under [`CompactionRule::DropTombstoneAtCompactRev`] (etcd 3.4.23: `tomb > atRev`,
    /// then "remove any tombstone"). Pushes every dropped revision onto `removed`.
    pub(crate) fn compact(&mut self, at_rev: i64, rule: CompactionRule, removed: &mut Vec<Revision>) {
        if self.generations.is_empty() {
            return;
        }
        let last = self.generations.len() - 1;
        let passed = |tomb: i64| match rule {
            CompactionRule::KeepTombstoneAtCompactRev => tomb < at_rev,
            CompactionRule::DropTombstoneAtCompactRev => tomb <= at_rev,
        };
        // Skip whole generations whose tombstone the compaction passes.
        let mut gi = 0;
        while gi < last && passed(self.generations[gi].last_main()) {
            removed.extend(self.generations[gi].revs.iter().copied());
            gi += 1;
        }
        let g = &mut self.generations[gi];
        if !g.is_empty() {
            let at_or_below = g.revs.partition_point(|r| r.main <= at_rev);
            if at_or_below > 1 {
                removed.extend(g.revs.drain(..at_or_below - 1));
            }
            // etcd 3.4.23: a closed generation reduced to one revision holds only its tombstone
            // (at `at_rev`): drop it.
            if rule == CompactionRule::DropTombstoneAtCompactRev && g.revs.len() == 1 && gi != last {
                removed.extend(g.revs.iter().copied());
                gi += 1;
            }
        }
        self.generations.drain(..gi);
    }
}

/// Which etcd release's compaction rule the store follows for a tombstone at exactly the
/// compaction revision.
///
/// etcd-io/etcd#18089 (fixed on main by #18274, backported to 3.5 by #18474; released in v3.4.34,
/// v3.5.16 and v3.6.0): until then
/// `keyIndex.compact` dropped a generation's tombstone when its revision equalled the compaction
/// revision, so a watch started at the compaction revision missed that delete. Since then
/// `doCompact` skips only generations whose tombstone is *below* the compaction revision and
/// `compact` keeps the tombstone (`server/storage/mvcc/key_index.go`, etcd main).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompactionRule {
    /// etcd ≥ 3.4.34 / 3.5.16 / 3.6: the tombstone at the compaction revision is kept (until a
    /// later compaction passes it). What the clusters Kubernetes users run today do.
    #[default]
    KeepTombstoneAtCompactRev,
    /// etcd ≤ 3.4.33 / 3.5.15 (e.g. Debian's 3.4.23): it is dropped with its generation.
    DropTombstoneAtCompactRev,
}

/// A `key` / `range_end` pair resolved with etcd's conventions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyRange {
    /// `range_end` empty: exactly `key`.
    Single(Vec<u8>),
    /// `range_end == [0]`: every key `>= key`.
    From(Vec<u8>),
    /// `[key, range_end)`; empty when `range_end <= key`.
    Between(Vec<u8>, Vec<u8>),
}

impl KeyRange {
    pub fn new(key: &[u8], range_end: &[u8]) -> Self {
        match range_end {
            [] => KeyRange::Single(key.to_vec()),
            [0] => KeyRange::From(key.to_vec()),
            end => KeyRange::Between(key.to_vec(), end.to_vec()),
        }
    }
    pub fn contains(&self, k: &[u8]) -> bool {
        match self {
            KeyRange::Single(key) => k == key.as_slice(),
            KeyRange::From(key) => k >= key.as_slice(),
            KeyRange::Between(key, end) => k >= key.as_slice() && k < end.as_slice(),
        }
    }
    /// True for a `Between` whose end is not after its start (matches nothing).
    pub fn is_empty_interval(&self) -> bool {
        matches!(self, KeyRange::Between(key, end) if end <= key)
    }
}

/// The ordered index of all keys (etcd's `treeIndex`).
#[derive(Debug, Clone, Default)]
pub struct TreeIndex {
    tree: BTreeMap<Arc<[u8]>, KeyIndex>,
    /// The keys that currently exist, for counting a range without walking it.
    live: RankedSet<Arc<[u8]>>,
}

impl TreeIndex {
    pub fn len(&self) -> usize {
        self.tree.len()
    }
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }
    pub fn key_index(&self, key: &[u8]) -> Option<&KeyIndex> {
        self.tree.get(key)
    }
    /// Every key index in key order (live, deleted-but-not-compacted keys included).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &KeyIndex> + '_ {
        self.tree.values()
    }
    pub fn get(&self, key: &[u8], at_rev: i64) -> Option<IndexEntry> {
        self.tree.get(key).and_then(|ki| ki.get(at_rev))
    }
    /// Records a put of `key` at `rev`; returns the index's copy of the key, which the backend
    /// record shares (one allocation per key, however many versions it has).
    pub(crate) fn put(&mut self, key: &[u8], rev: Revision) -> Arc<[u8]> {
        match self.tree.get_mut(key) {
            Some(ki) => {
                if !ki.is_live() {
                    self.live.insert(ki.key.clone());
                }
                ki.put(rev);
                ki.key.clone()
            }
            None => {
                let k: Arc<[u8]> = key.into();
                let mut ki = KeyIndex::with_key(k.clone());
                ki.put(rev);
                self.live.insert(k.clone());
                self.tree.insert(k.clone(), ki);
                k
            }
        }
    }
    /// Records a delete of `key` at `rev`; returns the index's copy of the key, or `None` (and
    /// changes nothing) when the key does not currently exist.
    pub(crate) fn tombstone(&mut self, key: &[u8], rev: Revision) -> Option<Arc<[u8]>> {
        let ki = self.tree.get_mut(key)?;
        if !ki.tombstone(rev) {
            return None;
        }
        self.live.remove(key);
        Some(ki.key.clone())
    }
    /// How many keys in `range` currently exist (without walking the range).
    pub fn live_count(&self, range: &KeyRange) -> usize {
        match range {
            KeyRange::Single(k) => usize::from(self.tree.get(k.as_slice()).is_some_and(KeyIndex::is_live)),
            KeyRange::From(k) => self.live.len() - self.live.rank::<[u8]>(k),
            KeyRange::Between(k, end) => {
                if end <= k {
                    0
                } else {
                    self.live.rank::<[u8]>(end) - self.live.rank::<[u8]>(k)
                }
            }
        }
    }
    /// The key indexes whose keys fall in `range`, in key order (without allocating the range).
    pub fn range<'a>(&'a self, range: &'a KeyRange) -> Box<dyn Iterator<Item = &'a KeyIndex> + 'a> {
        match range {
            KeyRange::Single(key) => Box::new(self.tree.get(key.as_slice()).into_iter()),
            KeyRange::From(key) => Box::new(
                self.tree
                    .range::<[u8], _>((Bound::Included(key.as_slice()), Bound::Unbounded))
                    .map(|(_, ki)| ki),
            ),
            KeyRange::Between(key, end) => {
                if end <= key {
                    Box::new(std::iter::empty())
                } else {
                    Box::new(
                        self.tree
                            .range::<[u8], _>((
                                Bound::Included(key.as_slice()),
                                Bound::Excluded(end.as_slice()),
                            ))
                            .map(|(_, ki)| ki),
                    )
                }
            }
        }
    }
    /// The keys visible at `at_rev` in `range`, in key order, each with its index entry.
    pub fn revisions<'a>(
        &'a self,
        range: &'a KeyRange,
        at_rev: i64,
    ) -> impl Iterator<Item = (&'a [u8], IndexEntry)> + 'a {
        self.range(range).filter_map(move |ki| ki.get(at_rev).map(|e| (ki.key(), e)))
    }
    /// Compacts the given keys at `at_rev`; keys left empty leave the index. Returns the
    /// revisions the backend must delete.
    pub(crate) fn compact_keys<'k>(
        &mut self,
        keys: impl IntoIterator<Item = &'k [u8]>,
        at_rev: i64,
        rule: CompactionRule,
    ) -> Vec<Revision> {
        let mut removed = Vec::new();
        for key in keys {
            let empty = match self.tree.get_mut(key) {
                Some(ki) => {
                    ki.compact(at_rev, rule, &mut removed);
                    ki.is_empty()
                }
                None => false,
            };
            if empty {
                self.tree.remove(key);
            }
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(main: i64) -> Revision {
        Revision::new(main, 0)
    }

    #[test]
    fn get_across_generations() {
        let mut ki = KeyIndex::new(b"k".to_vec());
        ki.put(r(2));
        ki.put(r(4));
        assert!(ki.tombstone(r(6)));
        assert!(!ki.tombstone(r(7)));
        ki.put(r(8));
        assert_eq!(ki.get(1), None);
        assert_eq!(ki.get(2).map(|e| (e.modified, e.version)), Some((r(2), 1)));
        assert_eq!(ki.get(5).map(|e| (e.modified, e.version)), Some((r(4), 2)));
        assert_eq!(ki.get(6), None);
        assert_eq!(ki.get(7), None);
        let e = ki.get(100).unwrap();
        assert_eq!((e.modified, e.created, e.version), (r(8), r(8), 1));
    }

    #[test]
    fn compact_keeps_newest_and_drops_tombstones() {
        let mut ki = KeyIndex::new(b"k".to_vec());
        ki.put(r(2));
        ki.put(r(4));
        ki.tombstone(r(6));
        ki.put(r(8));
        ki.put(r(9));
        let mut removed = vec![];
        ki.compact(5, CompactionRule::DropTombstoneAtCompactRev, &mut removed);
        assert_eq!(removed, vec![r(2)]);
        assert_eq!(ki.get(5).map(|e| e.version), Some(2));
        removed.clear();
        ki.compact(8, CompactionRule::DropTombstoneAtCompactRev, &mut removed);
        assert_eq!(removed, vec![r(4), r(6)]);
        assert_eq!(ki.get(8).map(|e| e.modified), Some(r(8)));
        let mut ki = KeyIndex::new(b"k".to_vec());
        ki.put(r(2));
        ki.tombstone(r(3));
        removed.clear();
        ki.compact(3, CompactionRule::DropTombstoneAtCompactRev, &mut removed);
        assert!(ki.is_empty());
        assert_eq!(removed, vec![r(2), r(3)]);
    }

    /// etcd ≥ 3.4.34 / 3.5.16 / 3.6 (etcd-io/etcd#18274, `key_index.go` `doCompact`: the loop
    /// stops at the first generation with `tomb >= atRev`; `compact` no longer removes it): a
    /// tombstone at exactly the compaction revision stays, alone in its generation, until a
    /// later compaction passes it; one below the compaction revision goes as before.
    #[test]
    fn compact_keeps_a_tombstone_at_the_compaction_revision() {
        let keep = CompactionRule::KeepTombstoneAtCompactRev;
        let mut ki = KeyIndex::new(b"k".to_vec());
        ki.put(r(2));
        ki.put(r(4));
        ki.tombstone(r(6));
        ki.put(r(8));
        let mut removed = vec![];
        ki.compact(6, keep, &mut removed);
        assert_eq!(removed, vec![r(2), r(4)]);
        assert_eq!(ki.generations().len(), 2);
        assert_eq!(ki.generations()[0].revisions().collect::<Vec<_>>(), vec![r(6)]);
        assert_eq!(ki.get(6), None, "the key is deleted at its tombstone");
        assert_eq!(ki.get(8).map(|e| e.modified), Some(r(8)));
        removed.clear();
        ki.compact(7, keep, &mut removed);
        assert_eq!(removed, vec![r(6)]);
        assert_eq!(ki.generations().len(), 1);
        // A deleted key whose tombstone is the compaction revision is not empty (stays in the
        // tree index) until a later compaction.
        let mut ki = KeyIndex::new(b"k".to_vec());
        ki.put(r(2));
        ki.tombstone(r(3));
        removed.clear();
        ki.compact(3, keep, &mut removed);
        assert!(!ki.is_empty());
        assert_eq!(removed, vec![r(2)]);
        removed.clear();
        ki.compact(4, keep, &mut removed);
        assert!(ki.is_empty());
        assert_eq!(removed, vec![r(3)]);
    }
}
