//! Which watches the timeline gives a row of their own: all of them up to [`MAX_WATCH_ROWS`];
//! beyond, the first `MAX_WATCH_ROWS - FOLD_ROWS` and, for the rest, one summary row per
//! apiserver that counts its watches and opens them. A watch that does not get a row is behind
//! a visible count that shows it, never dropped: once the learner opens an apiserver's summary,
//! each of its watches has its row again.

/// Watch rows drawn in all; beyond it, `MAX_WATCH_ROWS - FOLD_ROWS` are drawn one by one and
/// the others fold into one row per apiserver.
pub const MAX_WATCH_ROWS: usize = 8;
/// The rows the summaries take the place of.
pub const FOLD_ROWS: usize = 3;

/// The watches of one apiserver counted in one summary row (their indices, in order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchFold {
    pub apiserver: usize,
    pub watches: Vec<usize>,
}

/// The watch rows: the watches drawn one by one (indices, in order), then the summaries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WatchRows {
    pub rows: Vec<usize>,
    pub folds: Vec<WatchFold>,
}

/// Lays out the watch rows for watches on `apiservers` (one entry per watch, in order), the
/// summaries of the apiservers in `opened` shown as rows. Every watch is in exactly one row or
/// one summary.
pub fn watch_rows(apiservers: &[usize], opened: &[usize]) -> WatchRows {
    let n = apiservers.len();
    if n <= MAX_WATCH_ROWS {
        return WatchRows { rows: (0..n).collect(), folds: Vec::new() };
    }
    let first = MAX_WATCH_ROWS - FOLD_ROWS;
    let mut rows: Vec<usize> = (0..first).collect();
    let mut servers: Vec<usize> = apiservers[first..].to_vec();
    servers.sort_unstable();
    servers.dedup();
    let mut folds = Vec::new();
    for a in servers {
        let of_a = (first..n).filter(|i| apiservers[*i] == a);
        if opened.contains(&a) {
            rows.extend(of_a);
        } else {
            folds.push(WatchFold { apiserver: a, watches: of_a.collect() });
        }
    }
    rows.sort_unstable();
    WatchRows { rows, folds }
}
