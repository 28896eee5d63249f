//! The reads row of the timeline: a glyph per read (◆ list, `p2` token chip, ✕ `410`) on the
//! slot of its revision, packed onto a few lines. Marks at one revision sit side by side while
//! the slot has room, then on the next line; what still does not fit is never dropped: it is
//! counted in a "+N" mark on the row's last line, at the revision of the marks it holds, and
//! that mark opens them (the row then takes as many lines as it needs).

use super::marks::{Mark, MarkKind};
use super::place::{GAP, Lines};

/// Lines the reads row takes before it folds marks into "+N".
pub const READ_LINES: usize = 3;

/// Where a revision's slot is on the axis: its left edge, its centre (where a point at that
/// revision is drawn) and its right edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    pub l: f64,
    pub c: f64,
    pub r: f64,
}

/// A mark drawn: the index of the mark in the slice laid out, its line, and its box.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub mark: usize,
    pub line: usize,
    pub l: f64,
    pub r: f64,
}

impl Placed {
    /// The centre of its glyph.
    pub fn cx(&self) -> f64 {
        (self.l + self.r) / 2.0
    }
}

/// A "+N" mark: the marks it holds (indices, in placing order), its text, its box and line,
/// and the revisions it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Overflow {
    pub marks: Vec<usize>,
    pub text: String,
    pub l: f64,
    pub r: f64,
    pub line: usize,
    pub lo: i64,
    pub hi: i64,
}

/// The reads row laid out: the marks drawn, the "+N" marks, and the lines it takes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadsLayout {
    pub placed: Vec<Placed>,
    pub overflow: Vec<Overflow>,
    pub lines: usize,
}

/// The text a mark carries inside it: `p2`, `p3~` (a token reading at the latest revision),
/// `410`; a list's ◆ has none.
pub fn chip_text(kind: MarkKind) -> Option<String> {
    match kind {
        MarkKind::List => None,
        MarkKind::Token { page, latest: true } => Some(format!("p{page}~")),
        MarkKind::Token { page, latest: false } => Some(format!("p{page}")),
        MarkKind::Refused { code } => Some(code.to_string()),
    }
}

/// The width of a mark's box: the ◆ is 12 px; a chip is its text plus 10 px; a refusal is a ✕
/// (18 px) before its code, plus 8 px.
pub fn mark_width(kind: MarkKind, measure: &dyn Fn(&str) -> f64) -> f64 {
    match (kind, chip_text(kind)) {
        (MarkKind::List, _) | (_, None) => 12.0,
        (MarkKind::Token { .. }, Some(t)) => measure(&t) + 10.0,
        (MarkKind::Refused { .. }, Some(t)) => measure(&t) + 26.0,
    }
}

/// The width of a "+N" mark's box.
pub fn overflow_width(text: &str, measure: &dyn Fn(&str) -> f64) -> f64 {
    measure(text) + 12.0
}

/// Lays out `marks` on a plot from `x0` to `x1`, `slot` giving each revision's place on the
/// axis and `measure` the width of a text. `max_lines` None: every mark gets a place (the row
/// was opened); else marks that do not fit on that many lines go into "+N" marks on one more
/// line.
pub fn layout_reads(
    marks: &[Mark],
    slot: &dyn Fn(i64) -> Slot,
    measure: &dyn Fn(&str) -> f64,
    (x0, x1): (f64, f64),
    max_lines: Option<usize>,
) -> ReadsLayout {
    let mut order: Vec<usize> = (0..marks.len()).collect();
    order.sort_by(|a, b| {
        let (ma, mb) = (&marks[*a], &marks[*b]);
        (ma.kind.rank(), ma.rv, ma.entry).cmp(&(mb.kind.rank(), mb.rv, mb.entry))
    });
    let mut lines = Lines::default();
    let mut out = ReadsLayout::default();
    let mut hidden: Vec<usize> = Vec::new();
    for i in order {
        let mk = &marks[i];
        let w = mark_width(mk.kind, measure);
        let s = slot(mk.rv);
        let max = max_lines.unwrap_or(usize::MAX);
        let mut done = false;
        for line in 0..max {
            if let Some(l) = spot(&lines, line, s, w, (x0, x1)) {
                lines.put(line, l, l + w);
                out.placed.push(Placed { mark: i, line, l, r: l + w });
                out.lines = out.lines.max(line + 1);
                done = true;
                break;
            }
        }
        if !done {
            hidden.push(i);
        }
    }
    out.lines = out.lines.max(1);
    if !hidden.is_empty() {
        let line = out.lines;
        out.overflow = overflow_groups(marks, &hidden, slot, measure, (x0, x1), line);
        out.lines += 1;
    }
    out
}

/// The left edge of the free place on `line` nearest to the slot's centre for a box `w` wide
/// whose centre stays inside the slot (or as near it as the plot's edges let it be).
fn spot(lines: &Lines, line: usize, s: Slot, w: f64, (x0, x1): (f64, f64)) -> Option<f64> {
    let inside = |l: f64| l.clamp(x0, (x1 - w).max(x0));
    let centred = inside(s.c - w / 2.0);
    let mut cands = vec![centred];
    if let Some(boxes) = lines.lines.get(line) {
        for (a, b) in boxes {
            cands.push(b + GAP);
            cands.push(a - GAP - w);
        }
    }
    let in_slot = |l: f64| {
        let c = l + w / 2.0;
        (l == centred || (c >= s.l && c <= s.r)) && l >= x0 - 0.01 && l + w <= x1.max(x0 + w) + 0.01
    };
    cands
        .into_iter()
        .filter(|l| in_slot(*l) && lines.free(line, *l, *l + w))
        .min_by(|a, b| (a - centred).abs().total_cmp(&(b - centred).abs()))
}

/// The "+N" marks for the `hidden` marks, on `line`: one per revision, centred on it; two that
/// would meet merge into one (standing for both revisions, centred between them), so none
/// overlaps and each counts exactly the marks it opens.
fn overflow_groups(
    marks: &[Mark],
    hidden: &[usize],
    slot: &dyn Fn(i64) -> Slot,
    measure: &dyn Fn(&str) -> f64,
    (x0, x1): (f64, f64),
    line: usize,
) -> Vec<Overflow> {
    let mut revs: Vec<i64> = hidden.iter().map(|i| marks[*i].rv).collect();
    revs.sort_unstable();
    revs.dedup();
    let make = |ms: Vec<usize>, lo: i64, hi: i64| {
        let text = format!("+{}", ms.len());
        let w = overflow_width(&text, measure);
        let c = (slot(lo).c + slot(hi).c) / 2.0;
        let l = (c - w / 2.0).clamp(x0, (x1 - w).max(x0));
        Overflow { marks: ms, text, l, r: l + w, line, lo, hi }
    };
    let mut groups: Vec<Overflow> = Vec::new();
    for rv in revs {
        let ms: Vec<usize> = hidden.iter().copied().filter(|i| marks[*i].rv == rv).collect();
        let mut g = make(ms, rv, rv);
        // Merge with the groups on its left while they meet.
        while let Some(prev) = groups.last() {
            if prev.r + GAP <= g.l {
                break;
            }
            let Some(prev) = groups.pop() else { break };
            let mut ms = prev.marks;
            ms.extend(g.marks);
            g = make(ms, prev.lo, g.hi);
        }
        groups.push(g);
    }
    groups
}
