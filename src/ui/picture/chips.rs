//! The system view's timer chips: each a clock (unless it only counts others) and its text,
//! flowed from the right of a tier's heading to the picture's right edge, then on more lines
//! from the left. None overlaps another or the heading, none leaves the picture, and a chip too
//! wide for the room left on a line starts a new line; only a chip wider than a whole line wraps
//! its text (by [`super::text::wrap`]'s rules: no line starts with a comma). Which timers get a
//! chip is [`soonest`]'s choice: the others are counted in one chip that opens them.

use super::text::wrap;

/// The height of a line of chips.
pub const CHIP_LINE: f64 = 20.0;
/// The clock's width before a chip's text.
pub const ICON_W: f64 = 18.0;
/// The space between two chips on a line.
pub const CHIP_GAP: f64 = 14.0;

/// A chip to place: its text and whether it has a clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    pub text: String,
    pub clock: bool,
}

/// A chip placed: its left edge, the line its first text line is on, its text lines and its
/// width (clock and widest text line).
#[derive(Clone, Debug, PartialEq)]
pub struct ChipAt {
    pub x: f64,
    pub line: usize,
    pub lines: Vec<String>,
    pub w: f64,
}

impl ChipAt {
    /// The left edge of its text.
    pub fn text_x(&self, clock: bool) -> f64 {
        self.x + if clock { ICON_W } else { 0.0 }
    }
}

/// Flows `chips` from `start` (right of the heading, on line 0) within [`left`, `right`],
/// none crossing the vertical lines at `crossing` (the selected request's path, the folds'
/// edges): a chip goes in the first stretch between them where it fits, else on the next line;
/// one wider than every stretch of a line is broken into lines in the widest. Returns each
/// chip's place and the lines used (at least 1).
pub fn flow_chips(
    chips: &[Chip],
    start: f64,
    (left, right): (f64, f64),
    crossing: &[f64],
    measure: &dyn Fn(&str) -> f64,
) -> (Vec<ChipAt>, usize) {
    // The stretches of a line between the crossing lines.
    let mut xs: Vec<f64> = crossing.iter().copied().filter(|x| *x > left && *x < right).collect();
    xs.sort_by(f64::total_cmp);
    let mut stretches: Vec<(f64, f64)> = Vec::new();
    let mut from = left;
    for x in xs.iter().copied().chain([right + CROSS_GAP]) {
        if x - CROSS_GAP > from {
            stretches.push((from, x - CROSS_GAP));
        }
        from = from.max(x + CROSS_GAP);
    }
    let (mut cx, mut line) = (start, 0usize);
    let mut out = Vec::new();
    for c in chips {
        let icon = if c.clock { ICON_W } else { 0.0 };
        let one = measure(&c.text) + icon;
        // The first stretch from `cx` on this line where it fits whole, else on the next line.
        let fits = |cx: f64| {
            stretches.iter().find_map(|(a, b)| {
                let l = cx.max(*a);
                (l + one <= *b).then_some(l)
            })
        };
        let at = fits(cx).or_else(|| {
            (cx > left).then(|| {
                line += 1;
                fits(left)
            })?
        });
        let (x, lines) = match at {
            Some(x) => (x, vec![c.text.clone()]),
            None => {
                // Wider than every stretch: broken into lines in the widest, on a line of its own
                // (the line it was moved to is still empty).
                let (a, b) = stretches
                    .iter()
                    .copied()
                    .max_by(|p, q| (p.1 - p.0).total_cmp(&(q.1 - q.0)))
                    .unwrap_or((left, right));
                (a, wrap(&c.text, (b - a - icon).max(1.0), measure))
            }
        };
        let w = icon + lines.iter().map(|l| measure(l)).fold(0.0, f64::max);
        let n = lines.len().max(1);
        out.push(ChipAt { x, line, lines, w });
        if n > 1 {
            // The next chip starts under this one's last line.
            line += n;
            cx = left;
        } else {
            cx = x + w + CHIP_GAP;
        }
    }
    let used = if cx > left || chips.is_empty() { line + 1 } else { line };
    (out, used.max(1))
}

/// The space kept between a chip and a line crossing its line.
pub const CROSS_GAP: f64 = 4.0;

/// Which of `due` (each timer's due time) get a chip of their own: the soonest `max`, in order
/// of due time; the rest (their indices) are counted in one chip that opens them.
pub fn soonest(due: &[u64], max: usize) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..due.len()).collect();
    order.sort_by_key(|i| (due[*i], *i));
    let rest = order.split_off(max.min(order.len()));
    (order, rest)
}
