//! The timeline's rows of marks on a line: the watch rows (○ start, frame ticks, ◇ bookmarks,
//! ▶ cursor, the end mark and its label, the paused consumer's buffer) and the watch cache
//! window bands. A row's label goes beside its mark on the row's line, meeting none of the row's
//! lines (a watch's bar, a band's edges), marks or other labels, nor the lines that cross every
//! row (the compaction boundary, the folds' edges); on a phone, else on the row's label line
//! right of the row's name; else on a line of its own under the row, which the row then takes.
//! A label is never left out nor cut: where no stretch of that line has room for all of it, it
//! is broken into lines (by [`super::text::wrap`]'s rules) in the widest stretch, and the row
//! takes as many lines under it as the label needs.

use super::axis::{Geom, LABEL_LINE};
use super::place::{GAP, Lines};
use super::text::wrap;

/// A label's box reaches this far above its baseline and below it (12 px text).
pub const ASCENT: f64 = 11.0;
pub const DESCENT: f64 = 3.0;
/// The space between a mark and its label.
pub const PAD: f64 = 6.0;

/// Where a row's label went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    /// Beside its mark on the row's line.
    Beside,
    /// On the row's label line (phone), right-aligned after the row's name.
    Above,
    /// On a line of its own under the row.
    Below,
}

/// A label placed: its text, left edge, width, the baseline of its first line and where it
/// went. `lines` holds its text broken into lines when it is drawn under the row in a stretch
/// narrower than it (else the one line, `text`).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub text: String,
    pub lines: Vec<String>,
    pub l: f64,
    pub w: f64,
    pub baseline: f64,
    pub at: Where,
}

impl Label {
    /// Its box: left, top, right, bottom.
    pub fn rect(&self) -> Rect {
        let more = self.lines.len().saturating_sub(1) as f64 * LABEL_LINE;
        Rect { l: self.l, t: self.baseline - ASCENT, r: self.l + self.w, b: self.baseline + more + DESCENT }
    }
}

/// An axis-aligned box (a mark, a label, or a line as a thin box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub l: f64,
    pub t: f64,
    pub r: f64,
    pub b: f64,
}

impl Rect {
    /// Whether the two boxes share any area (touching edges do not).
    pub fn meets(&self, o: &Rect) -> bool {
        self.l < o.r && o.l < self.r && self.t < o.b && o.t < self.b
    }
}

/// The three lines a row's labels may use: 0 the row's line (its marks and lines are on it),
/// 1 the label line above it (phone), 2 a line of its own under it.
#[derive(Clone, Debug)]
pub struct RowSpace {
    pub g: Geom,
    /// The row's top.
    pub top: f64,
    pub lines: Lines,
    /// The lines under the row that labels took.
    pub below: usize,
}

impl RowSpace {
    /// The row starting at `top`, named by a label `name_w` px wide (on the label line when
    /// stacked), crossed by vertical lines at `crossing` (each on every line of the row).
    pub fn new(g: Geom, top: f64, name_w: f64, crossing: &[f64]) -> RowSpace {
        let mut lines = Lines::new(3);
        if g.stacked() {
            lines.put(1, g.x0, g.x0 + name_w);
        }
        for x in crossing {
            for i in 0..3 {
                lines.put(i, x - 0.5, x + 0.5);
            }
        }
        RowSpace { g, top, lines, below: 0 }
    }

    /// The centre of the row's drawing.
    pub fn cy(&self) -> f64 {
        self.g.mid(self.top)
    }

    /// The row's height: its drawing and label line, and the line under it if a label took it.
    pub fn h(&self) -> f64 {
        self.g.row_h() + self.below as f64 * LABEL_LINE
    }

    /// A mark or line on the row's line spanning [`l`, `r`].
    pub fn put(&mut self, l: f64, r: f64) {
        self.lines.put(0, l, r);
    }

    /// The baseline of a label on line `at`.
    pub fn baseline(&self, at: Where) -> f64 {
        match at {
            Where::Beside => self.cy() + 4.0,
            Where::Above => self.top + self.g.label_line() - 4.0,
            Where::Below => self.top + self.g.row_h() + LABEL_LINE - 4.0,
        }
    }

    /// Places `text` beside the mark spanning [`ml`, `mr`] on the row's line (right of it, else
    /// left of it), else on the label line (phone), else under the row (nearest the mark,
    /// broken into lines in the widest stretch if no stretch of that line is wide enough).
    pub fn label(&mut self, (ml, mr): (f64, f64), text: &str, measure: &dyn Fn(&str) -> f64) -> Label {
        let g = self.g;
        let w = measure(text);
        let free = |lines: &Lines, i: usize, l: f64| l >= g.x0 && l + w <= g.x1 && lines.free(i, l, l + w);
        let beside = [mr + PAD, ml - PAD - w].into_iter().find(|l| free(&self.lines, 0, *l));
        if let Some(l) = beside {
            return self.take(0, Where::Beside, text.to_string(), l, w);
        }
        if g.stacked() && free(&self.lines, 1, g.x1 - w) {
            return self.take(1, Where::Above, text.to_string(), g.x1 - w, w);
        }
        // Under the row: nearest the mark's centre where it meets no crossing line.
        let want = ((ml + mr) / 2.0 - w / 2.0).clamp(g.x0, (g.x1 - w).max(g.x0));
        let boxes = self.lines.lines.get(2).cloned().unwrap_or_default();
        let mut cands = vec![want];
        for (a, b) in &boxes {
            cands.push(b + GAP);
            cands.push(a - GAP - w);
        }
        let best = cands
            .into_iter()
            .filter(|l| free(&self.lines, 2, *l))
            .min_by(|a, b| (a - want).abs().total_cmp(&(b - want).abs()));
        if let Some(l) = best {
            return self.take(2, Where::Below, text.to_string(), l, w);
        }
        // No stretch wide enough: the text broken into lines in the widest one.
        let mut edges: Vec<(f64, f64)> = boxes;
        edges.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut gaps = Vec::new();
        let mut from = g.x0;
        for (a, b) in edges.iter().copied().chain([(g.x1 + GAP, g.x1 + GAP)]) {
            gaps.push((from, a - GAP));
            from = from.max(b + GAP);
        }
        let (a, b) =
            gaps.into_iter().max_by(|x, y| (x.1 - x.0).total_cmp(&(y.1 - y.0))).unwrap_or((g.x0, g.x1));
        let lines = wrap(text, (b - a).max(1.0), measure);
        let w = lines.iter().map(|l| measure(l)).fold(0.0, f64::max);
        let mut label = self.take(2, Where::Below, text.to_string(), a, w);
        self.below = self.below.max(lines.len());
        label.lines = lines;
        label
    }

    /// Places `text` on a band spanning [`x1`, `x2`] (between its edges, meeting nothing else on
    /// the row's line), else like [`RowSpace::label`] beside it; the band is then on the line.
    pub fn on_or_beside(&mut self, (x1, x2): (f64, f64), text: &str, measure: &dyn Fn(&str) -> f64) -> Label {
        let tw = measure(text);
        let l = x1 + PAD;
        let inside = x2 - x1 >= tw + 2.0 * PAD && self.lines.free(0, l, l + tw);
        self.put(x1, x2);
        if inside {
            let baseline = self.baseline(Where::Beside);
            return Label {
                text: text.to_string(),
                lines: vec![text.to_string()],
                l,
                w: tw,
                baseline,
                at: Where::Beside,
            };
        }
        self.label((x1, x2), text, measure)
    }

    fn take(&mut self, line: usize, at: Where, text: String, l: f64, w: f64) -> Label {
        self.lines.put(line, l, l + w);
        if at == Where::Below {
            self.below = self.below.max(1);
        }
        Label { lines: vec![text.clone()], text, l, w, baseline: self.baseline(at), at }
    }
}

/// One watch's row as the layout needs it: its bar on the row's line (from where it started to
/// where it stands), the x of each mark on it (start, frames, bookmarks, cursor), its end mark
/// and the end's text, and the buffer's text of a paused consumer.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchIn {
    pub bar: (f64, f64),
    pub marks: Vec<f64>,
    pub end: Option<(f64, String)>,
    pub buffer: Option<String>,
}

/// A watch row laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchLayout {
    pub cy: f64,
    pub h: f64,
    pub end: Option<Label>,
    pub buffer: Option<Label>,
    /// The boxes of its marks and lines (for checks): bar, marks, end glyph.
    pub boxes: Vec<Rect>,
}

/// Half the width of a mark on a watch row (○ ◇ ▶ ✕ ■ and frame ticks).
pub const MARK_HALF: f64 = 6.0;

/// Lays out a watch row starting at `top`, named by a label `name_w` px wide, crossed by the
/// vertical lines at `crossing`.
pub fn watch_row(
    g: Geom,
    top: f64,
    name_w: f64,
    crossing: &[f64],
    wi: &WatchIn,
    measure: &dyn Fn(&str) -> f64,
) -> WatchLayout {
    let mut row = RowSpace::new(g, top, name_w, crossing);
    let cy = row.cy();
    let mut boxes = Vec::new();
    let (xa, xb) = (wi.bar.0, wi.bar.1.max(wi.bar.0));
    row.put(xa, xb);
    boxes.push(Rect { l: xa, t: cy - 1.0, r: xb, b: cy + 1.0 });
    for x in wi.marks.iter().chain(wi.end.as_ref().map(|(x, _)| x)) {
        row.put(x - MARK_HALF, x + MARK_HALF);
        boxes.push(Rect { l: x - MARK_HALF, t: cy - MARK_HALF, r: x + MARK_HALF, b: cy + MARK_HALF });
    }
    let end = wi.end.as_ref().map(|(x, text)| row.label((x - MARK_HALF, x + MARK_HALF), text, measure));
    // The buffer's text goes right of the bar's end (or the cursor), like an end's label.
    let buffer = wi.buffer.as_ref().map(|text| {
        let at = wi.marks.iter().copied().fold(xb, f64::max);
        row.label((at - MARK_HALF, at + MARK_HALF), text, measure)
    });
    WatchLayout { cy, h: row.h(), end, buffer, boxes }
}

/// A watch cache window band on its row: from `x1` to `x2` (16 px tall), its text inside it if
/// it fits there, else placed like any row label.
#[derive(Clone, Debug, PartialEq)]
pub struct BandLayout {
    pub cy: f64,
    pub h: f64,
    pub label: Label,
    /// The band's box.
    pub band: Rect,
}

/// The band's height.
pub const BAND_H: f64 = 16.0;

/// Lays out a band row starting at `top`.
pub fn band_row(
    g: Geom,
    top: f64,
    name_w: f64,
    crossing: &[f64],
    (x1, x2): (f64, f64),
    text: &str,
    measure: &dyn Fn(&str) -> f64,
) -> BandLayout {
    let mut row = RowSpace::new(g, top, name_w, crossing);
    let cy = row.cy();
    let x2 = x2.max(x1 + 2.0);
    let band = Rect { l: x1, t: cy - BAND_H / 2.0, r: x2, b: cy + BAND_H / 2.0 };
    let label = row.on_or_beside((x1, x2), text, measure);
    BandLayout { cy, h: row.h(), label, band }
}
