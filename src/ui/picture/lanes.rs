//! The key lanes of the timeline: one lane per key under one another, each with its label in
//! the gutter (or, on a phone, on a line of its own above the lane's bar) and its bar of
//! versions across the plot. A label never reaches into the plot nor under another lane's bar;
//! one too long for its place is cut with "…", keeping a key's end (its name); the lane's title
//! says it whole.
//!
//! Beyond [`MAX_LANES`] keys, the rest fold into one lane of per-column counts: a button that
//! says how many keys it holds and, once pressed, gives each of them its lane ([`key_lanes`]).
//! A key that does not get a lane is behind that visible count, never dropped.

use super::axis::{Geom, LANE_H};
use super::rows::{Label, Rect, Where};
use super::text::fit;

/// A lane laid out: its top, its label, and the box its bar of versions may take.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneAt {
    pub top: f64,
    pub label: Label,
    pub bar: Rect,
}

/// Key lanes drawn one by one; beyond, the other keys share one folded lane until it is opened.
pub const MAX_LANES: usize = 14;

/// Which of `keys` key lanes (in order) are drawn: all of them up to [`MAX_LANES`] or once the
/// fold is `opened`; else the first [`MAX_LANES`], and the rest counted in the fold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLanes {
    /// The keys drawn in a lane of their own (indices, in order).
    pub drawn: Vec<usize>,
    /// The keys the folded lane counts (indices, in order); empty: no folded lane.
    pub folded: Vec<usize>,
}

/// Lays out `keys` key lanes, the fold `opened` or not. Every key is drawn or folded, never
/// both, never neither.
pub fn key_lanes(keys: usize, opened: bool) -> KeyLanes {
    if opened || keys <= MAX_LANES {
        return KeyLanes { drawn: (0..keys).collect(), folded: Vec::new() };
    }
    KeyLanes { drawn: (0..MAX_LANES).collect(), folded: (MAX_LANES..keys).collect() }
}

/// The space between the gutter's labels and the plot.
pub const GUTTER_PAD: f64 = 12.0;

/// Lays out the lanes named `names` from `top` down (`keep_end`: cut a name keeping its end).
/// Returns each lane and the height they take.
pub fn lanes(g: Geom, top: f64, names: &[(&str, bool)], measure: &dyn Fn(&str) -> f64) -> (Vec<LaneAt>, f64) {
    let mut y = top;
    let mut out = Vec::new();
    for (name, keep_end) in names {
        let (x, baseline, max, at) = if g.stacked() {
            (g.x0, y + g.label_line() - 4.0, g.x1 - g.x0, Where::Above)
        } else {
            (6.0, y + LANE_H / 2.0 + 4.0, g.x0 - GUTTER_PAD, Where::Beside)
        };
        let text = fit(name, max, *keep_end, measure);
        let w = measure(&text);
        let bar_top = y + g.label_line();
        out.push(LaneAt {
            top: y,
            label: Label { lines: vec![text.clone()], text, l: x, w, baseline, at },
            bar: Rect { l: g.x0, t: bar_top + 4.0, r: g.x1, b: bar_top + LANE_H - 4.0 },
        });
        y += g.lane_h();
    }
    (out, y - top)
}
