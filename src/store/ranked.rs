//! A sorted set that also answers "how many elements are below this one" without walking them:
//! the elements live in sorted blocks of at most `2 * BLOCK`, so a rank is a binary search over
//! the blocks, a sum of block lengths (about `n / BLOCK` additions) and a binary search in one
//! block. The store uses it to count a Range (`RangeResponse.count`) in time that does not grow
//! with the key space walked; anything that pages through a big sorted collection and must
//! report how much is left (`remainingItemCount`) can use it the same way.

use std::borrow::Borrow;

const BLOCK: usize = 512;

#[derive(Debug, Clone)]
pub struct RankedSet<K> {
    blocks: Vec<Vec<K>>,
    len: usize,
}

impl<K> Default for RankedSet<K> {
    fn default() -> Self {
        RankedSet { blocks: Vec::new(), len: 0 }
    }
}

impl<K: Ord> RankedSet<K> {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The block that holds `key` or where it belongs.
    fn block_of<Q: Ord + ?Sized>(&self, key: &Q) -> usize
    where
        K: Borrow<Q>,
    {
        let i = self.blocks.partition_point(|b| b.last().is_some_and(|l| l.borrow() < key));
        i.min(self.blocks.len().saturating_sub(1))
    }
    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: K) -> bool {
        if self.blocks.is_empty() {
            self.blocks.push(Vec::new());
        }
        let bi = self.block_of(&key);
        let b = &mut self.blocks[bi];
        match b.binary_search(&key) {
            Ok(_) => return false,
            Err(pos) => b.insert(pos, key),
        }
        self.len += 1;
        if b.len() > 2 * BLOCK {
            let tail = b.split_off(BLOCK);
            // The full block had grown to 4 × BLOCK slots; keep what its half needs (appending
            // in order would otherwise leave every block three-quarters empty).
            b.shrink_to_fit();
            self.blocks.insert(bi + 1, tail);
        }
        true
    }
    /// Removes `key`; false if it was not there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        if self.blocks.is_empty() {
            return false;
        }
        let bi = self.block_of(key);
        let b = &mut self.blocks[bi];
        let Ok(pos) = b.binary_search_by(|k| k.borrow().cmp(key)) else { return false };
        b.remove(pos);
        self.len -= 1;
        if b.is_empty() {
            self.blocks.remove(bi);
        }
        true
    }
    pub fn contains<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.blocks
            .get(self.block_of(key))
            .is_some_and(|b| b.binary_search_by(|k| k.borrow().cmp(key)).is_ok())
    }
    /// The number of elements `< key`.
    pub fn rank<Q: Ord + ?Sized>(&self, key: &Q) -> usize
    where
        K: Borrow<Q>,
    {
        let bi = self.blocks.partition_point(|b| b.last().is_some_and(|l| l.borrow() < key));
        let before: usize = self.blocks[..bi].iter().map(Vec::len).sum();
        before + self.blocks.get(bi).map_or(0, |b| b.partition_point(|k| k.borrow() < key))
    }
    /// The number of elements in `[lo, hi)`.
    pub fn count_between<Q: Ord + ?Sized>(&self, lo: &Q, hi: &Q) -> usize
    where
        K: Borrow<Q>,
    {
        if hi <= lo { 0 } else { self.rank(hi) - self.rank(lo) }
    }
    /// Every element in order.
    pub fn iter(&self) -> impl Iterator<Item = &K> + '_ {
        self.blocks.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn ranks_match_a_btreeset_through_inserts_and_removes() {
        let mut r = RankedSet::new();
        let mut b = BTreeSet::new();
        let mut rng = crate::clock::Rng::new(88172645463325252);
        for _ in 0..20_000 {
            let x = rng.next_u64();
            let k = (x % 3000) as u32;
            if x.is_multiple_of(3) {
                assert_eq!(r.remove(&k), b.remove(&k));
            } else {
                assert_eq!(r.insert(k), b.insert(k));
            }
            let q = ((x >> 20) % 3100) as u32;
            assert_eq!(r.rank(&q), b.range(..q).count());
            assert_eq!(r.contains(&q), b.contains(&q));
            assert_eq!(r.len(), b.len());
        }
        assert!(r.iter().copied().eq(b.iter().copied()));
        assert_eq!(r.count_between(&100, &2000), b.range(100..2000).count());
    }
}
