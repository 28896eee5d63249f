//! Host tests of the watch rows, the cache bands, the timer chips and line breaking: for random
//! rows, every label is drawn (whole, or cut with "…" only when no line has room) and its box
//! meets no line, mark or other label; timer chips never overlap and none is lost.

use proptest::prelude::*;

use super::axis::{Geom, LABEL_LINE};
use super::chips::{CHIP_LINE, Chip, ICON_W, flow_chips, soonest};
use super::estimate_width;
use super::lanes::lanes;
use super::rows::{Label, Rect, WatchIn, Where, band_row, watch_row};
use super::text::{no_line_end, no_line_start, wrap};

/// End texts as the timeline words them (English and 中文), and a long one.
const TEXTS: &[&str] = &[
    "watch cache switched off (no ERROR)",
    "410 Gone: too old for the watch cache",
    "closed (no ERROR)",
    "监视缓存已关闭（没有 ERROR）",
    "410：早于 etcd 压缩点",
    "buffer 3/100 (consumer paused)",
    "a consistent read on apiserver 2 · configmaps now waits 3s in vain, then goes to etcd",
];

/// A label says its whole text: on one line, or broken into lines (no line starting with
/// closing punctuation) that together say it.
fn whole(l: &Label, want: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(&l.text, want);
    let squashed = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    prop_assert_eq!(squashed(&l.lines.concat()), squashed(want), "{:?}", l.lines);
    prop_assert!(l.lines.iter().skip(1).all(|t| t.chars().next().is_some_and(|c| !no_line_start(c))));
    prop_assert!(l.lines.len() == 1 || l.at == Where::Below, "only a label under its row takes lines");
    Ok(())
}

/// Vertical lines at least 30 px apart (a fold's edges are 32 px apart).
fn crossing(x0: f64, x1: f64, raw: &[f64]) -> Vec<f64> {
    let mut xs: Vec<f64> = raw.iter().map(|t| x0 + t * (x1 - x0)).collect();
    xs.sort_by(f64::total_cmp);
    let mut out: Vec<f64> = Vec::new();
    for x in xs {
        if out.last().is_none_or(|l| x - l >= 30.0) {
            out.push(x);
        }
    }
    out
}

/// The boxes a row's labels must not meet: the crossing lines over the whole row, and the
/// row's name on its label line (phone).
fn row_obstacles(g: Geom, top: f64, h: f64, name_w: f64, cross: &[f64]) -> Vec<Rect> {
    let mut v: Vec<Rect> =
        cross.iter().map(|x| Rect { l: x - 0.5, t: top, r: x + 0.5, b: top + h }).collect();
    if g.stacked() {
        v.push(Rect { l: g.x0, t: top, r: g.x0 + name_w, b: top + g.label_line() });
    }
    v
}

fn inside_row(r: &Rect, g: Geom, top: f64, h: f64) -> Result<(), TestCaseError> {
    prop_assert!(r.l >= g.x0 - 0.01 && r.r <= g.x1 + 0.01, "inside the plot: {r:?} {g:?}");
    prop_assert!(r.t >= top - 0.01 && r.b <= top + h + 0.01, "inside its row: {r:?} top {top} h {h}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_watch_rows_labels_meet_no_line_mark_or_label(
        width in prop_oneof![Just(390.0), Just(1280.0), 260.0f64..2400.0],
        bar in (0.0f64..1.0, 0.0f64..1.0),
        marks in proptest::collection::vec(0.0f64..1.0, 0..12),
        end in proptest::option::of((0.0f64..1.0, 0usize..TEXTS.len())),
        buffer in proptest::option::of(0usize..TEXTS.len()),
        cross in proptest::collection::vec(0.0f64..1.0, 0..10),
        name_w in 20.0f64..200.0,
        top in 0.0f64..400.0,
    ) {
        let g = Geom::for_width(width);
        let at = |t: f64| g.x0 + t * (g.x1 - g.x0);
        let (a, b) = (at(bar.0.min(bar.1)), at(bar.0.max(bar.1)));
        let cross = crossing(g.x0, g.x1, &cross);
        let wi = WatchIn {
            bar: (a, b),
            marks: marks.iter().map(|t| at(*t)).collect(),
            end: end.map(|(t, i)| (at(t), TEXTS[i].to_string())),
            buffer: buffer.filter(|_| end.is_none()).map(|i| TEXTS[i].to_string()),
        };
        let r = watch_row(g, top, name_w, &cross, &wi, &estimate_width);
        let below = [&r.end, &r.buffer].iter().filter_map(|l| l.as_ref()).filter(|l| l.at == Where::Below).map(|l| l.lines.len()).max().unwrap_or(0);
        prop_assert_eq!(r.h, g.row_h() + below as f64 * LABEL_LINE, "the row takes the lines under it its labels need");
        // Never left out.
        prop_assert_eq!(r.end.is_some(), wi.end.is_some());
        prop_assert_eq!(r.buffer.is_some(), wi.buffer.is_some());
        let labels: Vec<(Rect, &Label, &str)> = r
            .end
            .iter()
            .zip(wi.end.iter().map(|(_, t)| t.as_str()))
            .chain(r.buffer.iter().zip(wi.buffer.iter().map(String::as_str)))
            .map(|(l, want)| (l.rect(), l, want))
            .collect();
        let mut walls = r.boxes.clone();
        walls.extend(row_obstacles(g, top, r.h, name_w, &cross));
        for (i, (rect, got, want)) in labels.iter().enumerate() {
            whole(got, want)?;
            let got = &got.text;
            inside_row(rect, g, top, r.h)?;
            for w in &walls {
                prop_assert!(!rect.meets(w), "label {got:?} {rect:?} meets {w:?}");
            }
            for (other, o, _) in &labels[i + 1..] {
                prop_assert!(!rect.meets(other), "label {got:?} meets label {:?}", o.text);
            }
        }
    }

    #[test]
    fn a_bands_label_is_on_it_or_meets_it_nowhere(
        width in prop_oneof![Just(390.0), Just(1280.0), 260.0f64..2400.0],
        band in (0.0f64..1.0, 0.0f64..1.0),
        text in 0usize..TEXTS.len(),
        cross in proptest::collection::vec(0.0f64..1.0, 0..10),
        name_w in 20.0f64..200.0,
    ) {
        let g = Geom::for_width(width);
        let at = |t: f64| g.x0 + t * (g.x1 - g.x0);
        let (x1, x2) = (at(band.0.min(band.1)), at(band.0.max(band.1)));
        let cross = crossing(g.x0, g.x1, &cross);
        let r = band_row(g, 10.0, name_w, &cross, (x1, x2), TEXTS[text], &estimate_width);
        let rect = r.label.rect();
        whole(&r.label, TEXTS[text])?;
        inside_row(&rect, g, 10.0, r.h)?;
        for w in row_obstacles(g, 10.0, r.h, name_w, &cross) {
            prop_assert!(!rect.meets(&w), "{rect:?} meets {w:?}");
        }
        // On the band, clear of its edges; or clear of the whole band.
        let b = r.band;
        let on = rect.l > b.l && rect.r < b.r && rect.t > b.t && rect.b < b.b;
        prop_assert!(on || !rect.meets(&b), "{rect:?} crosses the band's edge {b:?}");
    }

    #[test]
    fn timer_chips_never_overlap_and_keep_their_text(
        width in prop_oneof![Just(390.0), Just(1280.0), 260.0f64..2400.0],
        chips in proptest::collection::vec((0usize..TEXTS.len(), any::<bool>()), 0..10),
        heading in 30.0f64..120.0,
        cross in proptest::collection::vec(0.0f64..1.0, 0..4),
    ) {
        let chips: Vec<Chip> = chips.iter().map(|(i, c)| Chip { text: TEXTS[*i].to_string(), clock: *c }).collect();
        let (left, right) = (6.0, width - 6.0);
        let start = left + heading;
        let cross = crossing(left, right, &cross);
        let (placed, used) = flow_chips(&chips, start, (left, right), &cross, &estimate_width);
        prop_assert_eq!(placed.len(), chips.len());
        // Each chip's box: its lines from its first line down.
        let boxes: Vec<Rect> = placed
            .iter()
            .map(|p| Rect { l: p.x, t: p.line as f64 * CHIP_LINE, r: p.x + p.w, b: (p.line + p.lines.len()) as f64 * CHIP_LINE })
            .collect();
        let head = Rect { l: 0.0, t: 0.0, r: start - 1.0, b: CHIP_LINE };
        for (i, (p, c)) in placed.iter().zip(&chips).enumerate() {
            let squashed = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            prop_assert_eq!(squashed(&p.lines.concat()), squashed(&c.text), "no text lost");
            prop_assert!(p.lines.iter().skip(1).all(|l| l.chars().next().is_some_and(|c| !no_line_start(c))), "{:?}", p.lines);
            prop_assert!(p.x >= left - 0.01 && p.x + p.w <= right + 0.01, "inside: {p:?}");
            prop_assert!(p.line + p.lines.len() <= used, "{p:?} inside the {used} lines counted");
            prop_assert!(!boxes[i].meets(&head), "{p:?} meets the heading");
            for x in &cross {
                let line = Rect { l: x - 0.5, t: 0.0, r: x + 0.5, b: used as f64 * CHIP_LINE };
                prop_assert!(!boxes[i].meets(&line), "{p:?} crosses the line at {x}");
            }
            let icon = if c.clock { ICON_W } else { 0.0 };
            prop_assert!(p.w >= icon);
            for (j, o) in boxes.iter().enumerate().skip(i + 1) {
                prop_assert!(!boxes[i].meets(o), "{p:?} meets chip {j} {o:?}");
            }
        }
    }

    #[test]
    fn only_the_soonest_timers_get_a_chip_and_the_rest_are_counted(
        due in proptest::collection::vec(0u64..100_000, 0..20),
        max in 0usize..8,
    ) {
        let (shown, rest) = soonest(&due, max);
        prop_assert_eq!(shown.len(), max.min(due.len()));
        let mut all: Vec<usize> = shown.iter().chain(&rest).copied().collect();
        all.sort_unstable();
        prop_assert_eq!(all, (0..due.len()).collect::<Vec<_>>(), "each timer shown or counted once");
        prop_assert!(shown.windows(2).all(|w| due[w[0]] <= due[w[1]]), "in order of due time");
        for s in &shown {
            prop_assert!(rest.iter().all(|r| due[*s] <= due[*r]), "the soonest are shown");
        }
    }

    #[test]
    fn no_line_starts_with_closing_punctuation(
        words in proptest::collection::vec(
            prop_oneof![
                Just("etcd"), Just("apiserver"), Just("3s"), Just(","), Just("."), Just(";"), Just(":"),
                Just("，"), Just("、"), Just("。"), Just("然后"), Just("转到"), Just("（"), Just("）"),
                Just("("), Just(")"), Just("watch"), Just("缓存"), Just("·"), Just("\u{201c}"), Just("\u{201d}"),
            ],
            1..30,
        ),
        spaces in proptest::collection::vec(any::<bool>(), 30),
        max in 8.0f64..400.0,
    ) {
        let text: String = words.iter().zip(&spaces).map(|(w, s)| if *s { format!(" {w}") } else { w.to_string() }).collect();
        let lines = wrap(&text, max, &estimate_width);
        let squashed = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        prop_assert_eq!(squashed(&lines.concat()), squashed(&text), "nothing lost: {:?}", lines);
        for (i, l) in lines.iter().enumerate() {
            prop_assert!(!l.is_empty());
            if i > 0 {
                prop_assert!(l.chars().next().is_some_and(|c| !no_line_start(c)), "{lines:?}");
            }
            if i + 1 < lines.len() {
                prop_assert!(l.chars().last().is_some_and(|c| !no_line_end(c)), "{lines:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_lanes_label_meets_no_bar_and_no_other_label(
        width in prop_oneof![Just(390.0), Just(1280.0), 260.0f64..2400.0],
        names in proptest::collection::vec(("[a-z0-9/-]{1,60}", any::<bool>()), 0..16),
        top in 0.0f64..300.0,
    ) {
        let g = Geom::for_width(width);
        let named: Vec<(String, bool)> = names.iter().map(|(n, k)| (format!("configmaps/default/{n}"), *k)).collect();
        let refs: Vec<(&str, bool)> = named.iter().map(|(n, k)| (n.as_str(), *k)).collect();
        let (ls, h) = lanes(g, top, &refs, &estimate_width);
        prop_assert_eq!(ls.len(), refs.len());
        prop_assert!((h - refs.len() as f64 * g.lane_h()).abs() < 1e-9);
        for (i, (l, (name, keep_end))) in ls.iter().zip(&refs).enumerate() {
            let r = l.label.rect();
            // Whole, or cut with "…" keeping the end (a key's name) or the start.
            let t = &l.label.text;
            if t != name {
                let ok = if *keep_end {
                    t.strip_prefix('…').is_some_and(|k| !k.is_empty() && name.ends_with(k))
                } else {
                    t.strip_suffix('…').is_some_and(|k| !k.is_empty() && name.starts_with(k))
                };
                prop_assert!(ok, "{t:?} is not {name:?} cut");
            }
            if g.stacked() {
                prop_assert!(r.l >= g.x0 - 0.01 && r.r <= g.x1 + 0.01, "{r:?} inside the plot");
            } else {
                prop_assert!(r.l >= 0.0 && r.r <= g.x0 - 0.01, "{r:?} inside the gutter");
            }
            prop_assert!(r.t >= l.top - 0.01 && r.b <= l.top + g.lane_h() + 0.01, "{r:?} inside its lane");
            for (j, o) in ls.iter().enumerate() {
                prop_assert!(!r.meets(&o.bar), "lane {i}'s label meets lane {j}'s bar");
                if j != i {
                    prop_assert!(!r.meets(&o.label.rect()), "lane {i}'s label meets lane {j}'s");
                }
            }
        }
    }
}

#[test]
fn the_cache_off_end_label_is_crossed_by_no_line() {
    // `scripts/shots/cache-off.rv` at 1280 px: the bar from revision 1 to the end at 2, the
    // compaction line and a fold right of the end mark.
    let g = Geom::for_width(1280.0);
    let text = "watch cache switched off (no ERROR)";
    let xe = 900.0;
    let cross = [xe + 40.0, xe + 120.0, xe + 152.0];
    let wi =
        WatchIn { bar: (300.0, xe), marks: vec![300.0, 600.0], end: Some((xe, text.into())), buffer: None };
    let r = watch_row(g, 0.0, 80.0, &cross, &wi, &estimate_width);
    let l = r.end.expect("the end's label");
    assert_eq!(l.text, text, "whole");
    let rect = l.rect();
    for x in cross {
        assert!(rect.r < x - 0.5 || rect.l > x + 0.5, "{rect:?} crossed at {x}");
    }
    assert!(!rect.meets(&r.boxes[0]), "not over the bar");
}
