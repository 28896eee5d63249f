//! Host tests of the key lanes' fold: every key has its lane or is counted in the fold (never
//! both, never neither), and opening the fold gives every key its lane.

use proptest::prelude::*;

use super::lanes::{KeyLanes, MAX_LANES, key_lanes};

/// Where each key went: `true` drawn in its lane, `false` counted in the fold.
fn placement(l: &KeyLanes, n: usize) -> Result<Vec<bool>, TestCaseError> {
    let mut at: Vec<Option<bool>> = vec![None; n];
    for (list, drawn) in [(&l.drawn, true), (&l.folded, false)] {
        for i in list {
            prop_assert!(*i < n, "key {} of {} placed", i, n);
            prop_assert!(at[*i].is_none(), "key {} placed twice", i);
            at[*i] = Some(drawn);
        }
    }
    at.into_iter()
        .enumerate()
        .map(|(i, p)| p.ok_or_else(|| TestCaseError::fail(format!("key {i} dropped"))))
        .collect()
}

/// 20 keys: the first 14 drawn, the other 6 in the fold; opened, all 20 drawn in order.
#[test]
fn twenty_keys_fold_six_and_open_to_twenty() {
    let shut = key_lanes(20, false);
    assert_eq!(shut.drawn, (0..14).collect::<Vec<_>>());
    assert_eq!(shut.folded, (14..20).collect::<Vec<_>>());
    let open = key_lanes(20, true);
    assert_eq!(open, KeyLanes { drawn: (0..20).collect(), folded: Vec::new() });
}

/// Up to the limit nothing folds, opened or not.
#[test]
fn fourteen_keys_fold_nothing() {
    assert_eq!(MAX_LANES, 14);
    for opened in [false, true] {
        assert_eq!(key_lanes(14, opened), KeyLanes { drawn: (0..14).collect(), folded: Vec::new() });
    }
}

proptest! {
    /// Every key is drawn or behind the fold, the fold counts only keys beyond the drawn ones,
    /// a fold is never empty when shown, and opening it draws every key.
    #[test]
    fn every_key_is_drawn_or_folded_and_opening_shows_all(n in 0usize..200) {
        let shut = key_lanes(n, false);
        let at = placement(&shut, n)?;
        prop_assert_eq!(shut.drawn.len(), n.min(MAX_LANES));
        prop_assert_eq!(shut.folded.len(), n.saturating_sub(MAX_LANES));
        if let (Some(last), Some(first)) = (shut.drawn.last(), shut.folded.first()) {
            prop_assert!(last < first, "a folded key before a drawn one");
        }
        prop_assert_eq!(at.iter().filter(|d| !**d).count(), shut.folded.len());
        let open = key_lanes(n, true);
        prop_assert!(placement(&open, n)?.iter().all(|d| *d), "a key still folded once opened");
        prop_assert!(open.folded.is_empty());
        prop_assert_eq!(open.drawn, (0..n).collect::<Vec<_>>());
    }
}
