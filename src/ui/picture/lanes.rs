//! The key lanes of the timeline: one lane per key under one another, each with its label in
//! the gutter (or, on a phone, on a line of its own above the lane's bar) and its bar of
//! versions across the plot. A label never reaches into the plot nor under another lane's bar;
//! one too long for its place is cut with "…", keeping a key's end (its name); the lane's title
//! says it whole.

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
