//! The revision axis both pictures share: the window of revisions shown, the layout for the
//! container's width ([`Geom`]: gutter, plot, phone stacking) and the stretches folded into one
//! narrow mark each ([`Axis`]). One SVG unit is one CSS pixel.

/// Row heights.
pub const AXIS_H: f64 = 24.0;
pub const LANE_H: f64 = 22.0;
pub const ROW_H: f64 = 24.0;

/// The revisions shown, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub lo: i64,
    pub hi: i64,
}

impl Window {
    pub fn span(self) -> i64 {
        self.hi - self.lo + 1
    }
}

/// The layout for a container `width` CSS pixels wide: the label gutter and the plot. Below
/// [`STACKED_BELOW`] px (a phone) the picture is laid out vertically instead: each row's label
/// sits on its own line above the row and the plot takes the whole width, so nothing is squeezed
/// into a gutter and no text shrinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geom {
    pub width: f64,
    /// Left edge of the plot (row labels are left of it, or above it when stacked).
    pub x0: f64,
    /// Right edge of the plot.
    pub x1: f64,
}

/// Narrower than this, labels go above their rows.
pub const STACKED_BELOW: f64 = 520.0;
/// The line a stacked row's label takes above the row.
pub const LABEL_LINE: f64 = 15.0;

impl Geom {
    pub fn for_width(width: f64) -> Geom {
        let width = width.clamp(260.0, 4000.0).floor();
        let gutter = if width >= 760.0 {
            170.0
        } else if width >= STACKED_BELOW {
            120.0
        } else {
            8.0
        };
        Geom { width, x0: gutter, x1: width - 14.0 }
    }

    /// Row labels above their rows (phone width).
    pub fn stacked(self) -> bool {
        self.x0 < 100.0
    }

    /// The height of a row's drawing (its marks).
    pub fn content_h(self) -> f64 {
        if self.x0 >= 170.0 {
            ROW_H
        } else if self.stacked() {
            26.0
        } else {
            32.0
        }
    }

    /// The height of a row with a label: its drawing, plus the label's line when stacked.
    pub fn row_h(self) -> f64 {
        self.content_h() + self.label_line()
    }

    /// The label line above a stacked row (0 beside the plot).
    pub fn label_line(self) -> f64 {
        if self.stacked() { LABEL_LINE } else { 0.0 }
    }

    /// The vertical centre of the drawing of the row that starts at `y`.
    pub fn mid(self, y: f64) -> f64 {
        y + self.label_line() + self.content_h() / 2.0
    }

    /// A row whose gutter label takes two lines: its top-to-top height and its drawing's centre.
    pub fn two_line_row(self, y: f64) -> (f64, f64) {
        if self.stacked() {
            (self.row_h(), self.mid(y))
        } else {
            (self.row_h().max(32.0), y + self.row_h().max(32.0) / 2.0)
        }
    }

    /// The height of a key lane (its bar, and its label's line when stacked).
    pub fn lane_h(self) -> f64 {
        LANE_H + self.label_line()
    }
}

/// Where revision `rev` begins on an axis without folds (slot `rev` spans `x_of(rev)`..
/// `x_of(rev + 1)`; a point at a revision is drawn at its slot's centre, `x_of(rev + 0.5)`).
pub fn x_of(rev: f64, w: Window, g: Geom) -> f64 {
    Axis::new(w, g, Vec::new()).x(rev)
}

/// The width a revision needs to be drawn and pointed at on its own (a 24 px pointer target):
/// below it, stretches with nothing but writes are folded.
pub const COMFORT_PX: f64 = 24.0;
/// The width a fold takes on the axis.
pub const FOLD_W: f64 = 32.0;
/// The line above the axis ticks holding the folds' buttons.
pub const FOLD_LINE: f64 = 22.0;
/// Shorter stretches are never folded.
pub const MIN_FOLD: i64 = 4;
/// Stretches the learner opened may make the picture this many times wider than its panel
/// (then it scrolls sideways, and says so).
pub const MAX_GROW: f64 = 4.0;

/// The revision axis as both pictures draw it: the window, the layout, and the stretches of
/// revisions folded into one narrow mark each (`lo..=hi`, sorted). Open revisions share the rest
/// of the plot equally.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub w: Window,
    pub g: Geom,
    pub folds: Vec<(i64, i64)>,
    /// Pixels per open revision.
    pub per: f64,
    /// The learner opened a stretch that would have been folded.
    pub opened: bool,
}

impl Axis {
    /// An axis over `w` laid out in `g` with `folds` (each inside the window, disjoint).
    pub fn new(w: Window, g: Geom, mut folds: Vec<(i64, i64)>) -> Axis {
        folds.retain(|(a, b)| a <= b && *a >= w.lo && *b <= w.hi);
        folds.sort_unstable();
        let folded: i64 = folds.iter().map(|(a, b)| b - a + 1).sum();
        let open = (w.span() - folded).max(1) as f64;
        let per = ((g.x1 - g.x0) - folds.len() as f64 * FOLD_W).max(1.0) / open;
        Axis { w, g, folds, per, opened: false }
    }

    /// Lays out window `w` for a container `width` px wide, `busy` being the revisions at which
    /// something besides a key's write is drawn: when revisions would be narrower than
    /// [`COMFORT_PX`], the longest stretches with nothing but writes ([`quiet_stretches_in`]) are
    /// folded until they are not, except stretches the learner opened (`opened`); if those make
    /// revisions too narrow again, the picture grows (up to [`MAX_GROW`] × the width) and scrolls.
    pub fn plan_around(w: Window, busy: &[i64], width: f64, opened: &[(i64, i64)]) -> Axis {
        let g = Geom::for_width(width);
        let plot = g.x1 - g.x0;
        let span = w.span();
        if plot / span as f64 >= COMFORT_PX {
            return Axis::new(w, g, Vec::new());
        }
        let meets = |(a, b): (i64, i64)| opened.iter().any(|(c, d)| a <= *d && *c <= b);
        let mut cands = quiet_stretches_in(w, busy);
        let was_opened = cands.iter().any(|c| meets(*c));
        cands.retain(|c| !meets(*c));
        cands.sort_by_key(|(a, b)| (std::cmp::Reverse(b - a), *a));
        let mut folds = Vec::new();
        let mut folded = 0;
        for (a, b) in cands {
            let per = (plot - folds.len() as f64 * FOLD_W) / (span - folded).max(1) as f64;
            if per >= COMFORT_PX {
                break;
            }
            // Folding must leave the other revisions more room than it takes.
            if (b - a + 1) as f64 * per <= FOLD_W + per {
                continue;
            }
            folds.push((a, b));
            folded += b - a + 1;
        }
        let axis = Axis::new(w, g, folds);
        if !was_opened || axis.per >= COMFORT_PX {
            return axis;
        }
        let need = (span - folded) as f64 * COMFORT_PX + axis.folds.len() as f64 * FOLD_W;
        let grown = need.min(plot * MAX_GROW);
        let g2 = Geom { width: g.width + grown - plot, x0: g.x0, x1: g.x1 + grown - plot };
        Axis { opened: true, ..Axis::new(w, g2, axis.folds) }
    }

    /// Where revision slot `rev` (fractional) begins.
    pub fn x(&self, rev: f64) -> f64 {
        let lo = self.w.lo as f64;
        let mut x = self.g.x0 + (rev - lo) * self.per;
        for (a, b) in &self.folds {
            let (a, b1) = (*a as f64, *b as f64 + 1.0);
            if rev >= b1 {
                x += FOLD_W - (b1 - a) * self.per;
            } else if rev > a {
                x += (rev - a) / (b1 - a) * FOLD_W - (rev - a) * self.per;
            }
        }
        x
    }

    /// The fold holding revision `rev`, if one does.
    pub fn fold_of(&self, rev: i64) -> Option<(i64, i64)> {
        self.folds.iter().copied().find(|(a, b)| *a <= rev && rev <= *b)
    }

    /// The folds as the pictures' `data-folds` say them: `lo-hi` each, space separated.
    pub fn folds_attr(&self) -> String {
        self.folds.iter().map(|(a, b)| format!("{a}-{b}")).collect::<Vec<_>>().join(" ")
    }

    /// The slot of revision `rev`: its left edge, centre and right edge.
    pub fn slot(&self, rev: i64) -> super::reads::Slot {
        let r = rev as f64;
        super::reads::Slot { l: self.x(r), c: self.x(r + 0.5), r: self.x(r + 1.0) }
    }
}

/// The runs of at least [`MIN_FOLD`] revisions of `w` holding none of the `busy` revisions: the
/// stretches the axis may fold.
pub fn quiet_stretches_in(w: Window, busy: &[i64]) -> Vec<(i64, i64)> {
    let mut at: Vec<i64> = busy.iter().copied().filter(|r| *r >= w.lo && *r <= w.hi).collect();
    at.sort_unstable();
    at.dedup();
    let mut out = Vec::new();
    let mut from = w.lo;
    for r in at.into_iter().chain(std::iter::once(w.hi + 1)) {
        if r - from >= MIN_FOLD {
            out.push((from, r - 1));
        }
        from = r + 1;
    }
    out
}
