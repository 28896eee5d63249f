//! Interval packing on lines of a row, and placing a label beside its mark.

/// The space kept between two boxes on one line (px).
pub const GAP: f64 = 2.0;

/// The boxes placed on each line of a row: `(left, right)` per box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lines {
    pub lines: Vec<Vec<(f64, f64)>>,
}

impl Lines {
    /// `n` empty lines.
    pub fn new(n: usize) -> Lines {
        Lines { lines: vec![Vec::new(); n] }
    }

    /// Whether [`a`, `b`] meets nothing on line `i` (a line not made yet is empty).
    pub fn free(&self, i: usize, a: f64, b: f64) -> bool {
        self.lines.get(i).is_none_or(|l| l.iter().all(|(x, y)| b + GAP <= *x || a >= *y + GAP))
    }

    /// Puts [`a`, `b`] on line `i` (made if needed).
    pub fn put(&mut self, i: usize, a: f64, b: f64) {
        if self.lines.len() <= i {
            self.lines.resize(i + 1, Vec::new());
        }
        self.lines[i].push((a, b));
    }

    /// The first of the first `max` lines where [`a`, `b`] meets nothing; it is put there.
    pub fn pack(&mut self, max: usize, a: f64, b: f64) -> Option<usize> {
        let i = (0..max).find(|i| self.free(*i, a, b))?;
        self.put(i, a, b);
        Some(i)
    }
}

/// Where a label `width` px wide goes on line `line` beside a mark spanning [`ml`, `mr`]: right
/// of it, else left of it, inside [`lo`, `hi`] and meeting nothing on that line. The left edge.
pub fn beside(
    lines: &Lines,
    line: usize,
    (ml, mr): (f64, f64),
    width: f64,
    (lo, hi): (f64, f64),
) -> Option<f64> {
    let pad = 4.0;
    let right = mr + pad;
    let left = ml - pad - width;
    [right, left].into_iter().find(|l| *l >= lo && *l + width <= hi && lines.free(line, *l, *l + width))
}

/// A generous width for `text` where no browser measures it (the host, tests): 7.5 px per
/// ASCII character, a full 12.5 px em for any other (中文).
pub fn estimate_width(text: &str) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 7.5 } else { 12.5 }).sum()
}

/// The compaction row laid out: each ✂'s box, where the boundary's label goes (left edge and
/// line: 0 beside the marks, 1 the row's second line, which it then takes) and where each
/// round's label goes, if it fits beside its ✂ (its title says it otherwise).
#[derive(Clone, Debug, PartialEq)]
pub struct CompactionRow {
    pub glyphs: Vec<(f64, f64)>,
    pub boundary: (f64, usize),
    pub rounds: Vec<Option<f64>>,
    pub lines: usize,
}

/// Lays out the compaction row: ✂ at `boundary_x` (the boundary, when drawn) and at each of
/// `round_xs`; the boundary's label (`boundary_w` px) is never left out: right of its ✂, else
/// left, else on a second line starting under it; then each round's label (`round_ws`) right
/// of its ✂ where it meets nothing.
pub fn compaction_row(
    boundary_x: Option<f64>,
    boundary_w: f64,
    round_xs: &[f64],
    round_ws: &[f64],
    (x0, x1): (f64, f64),
) -> CompactionRow {
    let glyph = |x: f64| (x - 8.0, x + 1.0);
    let glyphs: Vec<(f64, f64)> = round_xs.iter().copied().chain(boundary_x).map(glyph).collect();
    let mut lines = Lines::new(1);
    for (a, b) in &glyphs {
        lines.put(0, *a, *b);
    }
    let bx = boundary_x.unwrap_or(x0);
    let bl = beside(&lines, 0, glyph(bx), boundary_w, (x0, x1));
    let boundary = match bl {
        Some(l) => {
            lines.put(0, l, l + boundary_w);
            (l, 0)
        }
        None => ((bx - boundary_w / 2.0).clamp(x0, (x1 - boundary_w).max(x0)), 1),
    };
    let rounds = round_xs
        .iter()
        .zip(round_ws)
        .map(|(x, w)| {
            let l = x + 9.0;
            (l + w <= x1 && lines.free(0, l, l + w)).then(|| {
                lines.put(0, l, l + w);
                l
            })
        })
        .collect();
    CompactionRow { glyphs, boundary, rounds, lines: boundary.1 + 1 }
}
