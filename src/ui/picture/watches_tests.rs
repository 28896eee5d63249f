//! Host tests of the watch rows: every watch has its row or is counted in its apiserver's
//! summary (never both, never neither), and opening a summary gives each of its watches a row.

use proptest::prelude::*;

use super::watches::{FOLD_ROWS, MAX_WATCH_ROWS, WatchFold, WatchRows, watch_rows};

/// Each watch index and where it went: `Some(apiserver)` counted in that summary, `None` a row.
fn placement(r: &WatchRows, n: usize) -> Result<Vec<Option<usize>>, TestCaseError> {
    let mut at: Vec<Option<Option<usize>>> = vec![None; n];
    for i in &r.rows {
        prop_assert!(at[*i].is_none(), "watch {} placed twice", i);
        at[*i] = Some(None);
    }
    for fold in &r.folds {
        prop_assert!(!fold.watches.is_empty(), "a summary counting nothing: {:?}", fold);
        for i in &fold.watches {
            prop_assert!(at[*i].is_none(), "watch {} placed twice", i);
            at[*i] = Some(Some(fold.apiserver));
        }
    }
    at.into_iter()
        .enumerate()
        .map(|(i, p)| p.ok_or_else(|| TestCaseError::fail(format!("watch {i} dropped"))))
        .collect()
}

/// 50 watches on 3 apiservers, round robin: five rows, then one summary per apiserver counting
/// the rest; opening apiserver 2's summary gives its 15 folded watches their rows.
#[test]
fn fifty_watches_fold_per_apiserver_and_a_summary_opens_its_watches() {
    let on: Vec<usize> = (0..50).map(|i| i % 3 + 1).collect();
    let r = watch_rows(&on, &[]);
    assert_eq!(r.rows, (0..MAX_WATCH_ROWS - FOLD_ROWS).collect::<Vec<_>>());
    let counts: Vec<(usize, usize)> = r.folds.iter().map(|f| (f.apiserver, f.watches.len())).collect();
    assert_eq!(counts, [(1, 15), (2, 15), (3, 15)]);
    let opened = watch_rows(&on, &[2]);
    assert_eq!(opened.rows.len(), 5 + 15);
    assert!(opened.rows.windows(2).all(|p| p[0] < p[1]), "rows in the order the watches opened");
    assert!(opened.rows[5..].iter().all(|i| on[*i] == 2));
    assert_eq!(opened.folds.iter().map(|f| f.apiserver).collect::<Vec<_>>(), [1, 3]);
    let all = watch_rows(&on, &[1, 2, 3]);
    assert_eq!(all, WatchRows { rows: (0..50).collect(), folds: Vec::<WatchFold>::new() });
}

/// Up to [`MAX_WATCH_ROWS`] watches, each has its row: nothing is folded.
#[test]
fn eight_watches_each_have_a_row() {
    let on = [1, 2, 1, 2, 1, 2, 1, 2];
    assert_eq!(watch_rows(&on, &[]), WatchRows { rows: (0..8).collect(), folds: Vec::new() });
    let nine = [1; 9];
    let r = watch_rows(&nine, &[]);
    assert_eq!(r.rows.len(), MAX_WATCH_ROWS - FOLD_ROWS);
    assert_eq!(r.folds, [WatchFold { apiserver: 1, watches: (5..9).collect() }]);
}

proptest! {
    /// Any watches on any apiservers, any summaries opened: every watch is in one row or one
    /// summary of its own apiserver; no opened apiserver has a summary; with nothing opened at
    /// most [`MAX_WATCH_ROWS`] rows are drawn.
    #[test]
    fn every_watch_has_a_row_or_is_behind_its_summary(
        on in prop::collection::vec(1usize..5, 0..40),
        opened in prop::collection::vec(1usize..5, 0..3),
    ) {
        let r = watch_rows(&on, &opened);
        let at = placement(&r, on.len())?;
        for (i, p) in at.iter().enumerate() {
            if let Some(a) = p {
                prop_assert_eq!(*a, on[i], "watch {} counted on another apiserver", i);
                prop_assert!(!opened.contains(a), "an opened summary still counts watch {}", i);
            }
        }
        prop_assert!(r.rows.windows(2).all(|p| p[0] < p[1]));
        prop_assert!(r.folds.windows(2).all(|p| p[0].apiserver < p[1].apiserver));
        let closed = watch_rows(&on, &[]);
        prop_assert!(closed.rows.len() <= MAX_WATCH_ROWS);
        let mut servers = on.clone();
        servers.sort_unstable();
        servers.dedup();
        prop_assert!(closed.folds.len() <= servers.len());
    }
}
