//! Host tests of the pictures' layout: the issue-33 sequence (lists with rv unset, "0" and
//! `limit=1`, a followed page, `compact 5`, the token followed again → 410 Expired) and
//! properties over random scripts and random crowds of marks.

use proptest::prelude::*;
use serde_json::Value;

use super::axis::{Axis, Geom, Window};
use super::marks::{Mark, MarkKind, marks};
use super::place::{GAP, compaction_row, estimate_width};
use super::reads::{READ_LINES, ReadsLayout, layout_reads};
use crate::script::reply::Reply;
use crate::script::{LineOutcome, Session};

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// Runs `lines` in a session that explains (as the playground's does): each line and its output.
fn run(lines: &[String]) -> (Session, Vec<(String, Option<LineOutcome>)>) {
    let mut s = Session::with_explain(true);
    let out = lines.iter().enumerate().map(|(i, l)| (l.clone(), s.run_line_outcome(i + 1, l))).collect();
    (s, out)
}

fn marks_of(log: &[(String, Option<LineOutcome>)], head: i64) -> Vec<Mark> {
    static NONE: Reply = Reply::Other;
    marks(log.iter().map(|(_, o)| o.as_ref().map_or((&NONE, None), |o| (&o.reply, o.why.as_ref()))), head)
}

/// The reads row of `ms` at a container `width` px wide over revisions 1..=head.
fn lay(ms: &[Mark], head: i64, width: f64, max: Option<usize>) -> (Axis, ReadsLayout) {
    let w = Window { lo: 1, hi: head.max(1) };
    let busy: Vec<i64> = ms.iter().map(|m| m.rv).chain([head]).collect();
    let axis = Axis::plan_around(w, &busy, width, &[]);
    let g = axis.g;
    let r = layout_reads(ms, &|rv| axis.slot(rv), &estimate_width, (g.x0, g.x1), max);
    (axis, r)
}

/// Every mark is drawn once or counted once in a "+N" that says how many it holds; no two
/// boxes on a line meet; every box is inside the plot; "+N" marks have a line of their own.
fn check(ms: &[Mark], r: &ReadsLayout, g: Geom, max: Option<usize>) -> Result<(), TestCaseError> {
    let mut seen = vec![0usize; ms.len()];
    for p in &r.placed {
        seen[p.mark] += 1;
        prop_assert!(p.l >= g.x0 - 0.01 && p.r <= g.x1 + 0.01, "inside the plot: {p:?} {g:?}");
        prop_assert!(p.line < r.lines);
    }
    for o in &r.overflow {
        prop_assert_eq!(&o.text, &format!("+{}", o.marks.len()));
        prop_assert!(!o.marks.is_empty());
        prop_assert!(o.l >= g.x0 - 0.01 && o.r <= g.x1 + 0.01, "+N inside the plot: {o:?}");
        prop_assert_eq!(o.line + 1, r.lines);
        prop_assert!(r.placed.iter().all(|p| p.line != o.line), "+N has its line to itself");
        for i in &o.marks {
            seen[*i] += 1;
            prop_assert!(ms[*i].rv >= o.lo && ms[*i].rv <= o.hi, "a +N stands at its marks' revisions");
        }
    }
    prop_assert!(seen.iter().all(|n| *n == 1), "each mark drawn or in a +N exactly once: {seen:?}");
    let boxes: Vec<(usize, f64, f64)> = r
        .placed
        .iter()
        .map(|p| (p.line, p.l, p.r))
        .chain(r.overflow.iter().map(|o| (o.line, o.l, o.r)))
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            prop_assert!(
                a.0 != b.0 || a.2 + GAP <= b.1 + 0.01 || b.2 + GAP <= a.1 + 0.01,
                "{a:?} meets {b:?}"
            );
        }
    }
    match max {
        Some(m) => prop_assert!(r.lines <= m + 1),
        None => prop_assert!(r.overflow.is_empty(), "an opened row holds every mark"),
    }
    Ok(())
}

/// The issue's sequence (`scripts/shots/crowded-reads.rv`, which the browser tests draw too).
fn issue_33() -> Vec<String> {
    include_str!("../../../scripts/shots/crowded-reads.rv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_410_and_every_read_of_issue_33_are_drawn_or_behind_a_plus_n() {
    let (s, log) = run(&issue_33());
    let out = &log[9].1.as_ref().expect("an output").out;
    assert_eq!(out.get("code").and_then(Value::as_u64), Some(410), "{out}");
    let head = s.revision();
    let ms = marks_of(&log, head);
    let kinds: Vec<(MarkKind, i64, usize)> = ms.iter().map(|m| (m.kind, m.rv, m.entry + 1)).collect();
    for want in [
        (MarkKind::List, 4, 4),
        (MarkKind::List, 4, 5),
        (MarkKind::List, 4, 6),
        (MarkKind::List, 4, 7),
        (MarkKind::Token { page: 2, latest: false }, 4, 6),
        (MarkKind::Token { page: 3, latest: false }, 4, 7),
        (MarkKind::Refused { code: 410 }, 4, 10),
        (MarkKind::Token { page: 3, latest: true }, 5, 10),
    ] {
        assert!(kinds.contains(&want), "{want:?} in {kinds:?}");
    }
    assert_eq!(ms.len(), 8, "{kinds:?}");
    for width in [1280.0, 390.0] {
        let (axis, r) = lay(&ms, head, width, Some(READ_LINES));
        check(&ms, &r, axis.g, Some(READ_LINES)).map_err(|e| format!("{width}: {e}")).unwrap();
        // The moment that matters and the tokens are drawn, never folded away.
        for (i, m) in ms.iter().enumerate() {
            if m.kind != MarkKind::List {
                assert!(r.placed.iter().any(|p| p.mark == i), "{width}: {m:?} drawn: {r:?}");
            }
        }
        let refused =
            ms.iter().position(|m| matches!(m.kind, MarkKind::Refused { .. })).unwrap_or(usize::MAX);
        let p = r.placed.iter().find(|p| p.mark == refused).expect("the 410 drawn");
        let s4 = axis.slot(4);
        assert!(p.cx() >= s4.l && p.cx() <= s4.r, "{width}: the 410 on revision 4's slot");
    }
    // At 1280 the slot of revision 4 is wide: all eight fit without a "+N".
    let (_, r) = lay(&ms, head, 1280.0, Some(READ_LINES));
    assert!(r.overflow.is_empty(), "{r:?}");
}

#[test]
fn a_crowd_at_one_revision_shows_plus_n_and_opens() {
    let ms: Vec<Mark> = (0..30).map(|i| Mark { kind: MarkKind::List, rv: 3, entry: i }).collect();
    let (axis, r) = lay(&ms, 40, 390.0, Some(READ_LINES));
    check(&ms, &r, axis.g, Some(READ_LINES)).unwrap();
    assert_eq!(r.overflow.len(), 1);
    let hidden = r.overflow[0].marks.len();
    assert_eq!(r.placed.len() + hidden, 30);
    assert!(hidden > 0);
    let (axis, open) = lay(&ms, 40, 390.0, None);
    check(&ms, &open, axis.g, None).unwrap();
    assert_eq!(open.placed.len(), 30);
}

#[test]
fn compacted_below_n_has_a_place_at_390_and_1280() {
    for width in [390.0, 1280.0] {
        let w = Window { lo: 1, hi: 5 };
        let axis = Axis::plan_around(w, &[5], width, &[]);
        let g = axis.g;
        let text = "compacted below 5";
        let bw = estimate_width(text);
        let row = compaction_row(Some(axis.x(5.0)), bw, &[], &[], (g.x0, g.x1));
        let (l, line) = row.boundary;
        assert!(l >= g.x0 && l + bw <= g.x1, "{width}: {row:?}");
        if line == 0 {
            assert!(row.glyphs.iter().all(|(a, b)| l + bw + GAP <= *a || l >= b + GAP), "{width}: {row:?}");
        }
    }
}

/// A script step of the random sessions.
#[derive(Clone, Debug)]
enum Op {
    Create(u8),
    Delete(u8),
    List { rv0: bool, limit: Option<u8> },
    Follow { back: u8, limit: u8 },
    Compact,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..8).prop_map(Op::Create),
        1 => (0u8..8).prop_map(Op::Delete),
        3 => (any::<bool>(), proptest::option::of(1u8..4)).prop_map(|(rv0, limit)| Op::List { rv0, limit }),
        3 => (0u8..3, 1u8..4).prop_map(|(back, limit)| Op::Follow { back, limit }),
        1 => Just(Op::Compact),
    ]
}

/// Runs `ops` one line at a time (a followed token is one the session gave earlier).
fn session_of(ops: &[Op]) -> (Session, Vec<(String, Option<LineOutcome>)>) {
    let mut s = Session::with_explain(true);
    let mut log: Vec<(String, Option<LineOutcome>)> = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    for op in ops {
        let line = match op {
            Op::Create(n) => format!("POST {CM} {{\"metadata\":{{\"name\":\"o{n}\"}}}}"),
            Op::Delete(n) => format!("DELETE {CM}/o{n}"),
            Op::List { rv0, limit } => {
                let mut q = Vec::new();
                if *rv0 {
                    q.push("resourceVersion=0".to_string());
                }
                if let Some(l) = limit {
                    q.push(format!("limit={l}"));
                }
                if q.is_empty() { format!("GET {CM}") } else { format!("GET {CM}?{}", q.join("&")) }
            }
            Op::Follow { back, limit } => match tokens.iter().rev().nth(usize::from(*back)) {
                Some(t) => format!("GET {CM}?limit={limit}&continue={t}"),
                None => format!("GET {CM}?limit={limit}"),
            },
            Op::Compact => format!("compact {}", s.revision()),
        };
        let out = s.run_line_outcome(log.len() + 1, &line);
        if let Some(t) =
            out.as_ref().and_then(|o| o.out.pointer("/body/metadata/continue")).and_then(Value::as_str)
            && !t.is_empty()
        {
            tokens.push(t.to_string());
        }
        log.push((line, out));
    }
    (s, log)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_read_of_a_random_session_is_drawn_or_behind_plus_n(
        ops in proptest::collection::vec(op(), 1..40),
        width in prop_oneof![Just(390.0), Just(800.0), Just(1280.0), 260.0f64..2400.0],
    ) {
        let (s, log) = session_of(&ops);
        let head = s.revision();
        let ms = marks_of(&log, head);
        for max in [Some(READ_LINES), None] {
            let (axis, r) = lay(&ms, head, width, max);
            check(&ms, &r, axis.g, max)?;
            // Refusals are placed first: one is folded only when a whole line of them is full.
            let refused = ms.iter().filter(|m| matches!(m.kind, MarkKind::Refused { .. })).count();
            if refused <= 1 {
                for (i, m) in ms.iter().enumerate() {
                    if matches!(m.kind, MarkKind::Refused { .. }) {
                        prop_assert!(r.placed.iter().any(|p| p.mark == i), "the refusal is drawn");
                    }
                }
            }
        }
    }

    #[test]
    fn a_random_crowd_is_drawn_or_behind_plus_n(
        raw in proptest::collection::vec((1i64..60, 0u8..4, 1u16..12), 0..160),
        head in 1i64..60,
        width in 260.0f64..2400.0,
    ) {
        let ms: Vec<Mark> = raw
            .iter()
            .enumerate()
            .map(|(i, (rv, k, n))| {
                let kind = match k {
                    0 => MarkKind::List,
                    1 => MarkKind::Token { page: usize::from(*n), latest: false },
                    2 => MarkKind::Token { page: usize::from(*n), latest: true },
                    _ => MarkKind::Refused { code: 400 + *n * 10 },
                };
                Mark { kind, rv: (*rv).min(head), entry: i }
            })
            .collect();
        for max in [Some(READ_LINES), Some(1), None] {
            let (axis, r) = lay(&ms, head, width, max);
            check(&ms, &r, axis.g, max)?;
        }
    }

    #[test]
    fn the_compaction_label_always_has_a_place(
        c in 1i64..200, head_extra in 0i64..200, rounds in proptest::collection::vec(1i64..200, 0..6),
        width in 260.0f64..2400.0,
    ) {
        let head = c + head_extra;
        let w = Window { lo: 1, hi: head };
        let rs: Vec<i64> = rounds.into_iter().filter(|r| *r <= head).collect();
        let busy: Vec<i64> = rs.iter().copied().chain([c, head]).collect();
        let axis = Axis::plan_around(w, &busy, width, &[]);
        let g = axis.g;
        let text = format!("compacted below {c}");
        let bw = estimate_width(&text);
        let xs: Vec<f64> = rs.iter().map(|r| axis.x(*r as f64)).collect();
        let ws: Vec<f64> = rs.iter().enumerate().map(|(i, _)| estimate_width(&format!("round {}", i + 1))).collect();
        let row = compaction_row(Some(axis.x(c as f64)), bw, &xs, &ws, (g.x0, g.x1));
        let (l, line) = row.boundary;
        prop_assert!(l >= g.x0 - 0.01 && l + bw <= g.x1 + 0.01, "inside: {row:?}");
        // Labels on line 0 meet no ✂ and no other label.
        let mut boxes: Vec<(f64, f64)> = row.glyphs.clone();
        if line == 0 {
            boxes.push((l, l + bw));
        }
        for (rl, rw) in row.rounds.iter().zip(&ws) {
            if let Some(rl) = rl {
                boxes.push((*rl, rl + rw));
            }
        }
        let labels = boxes.len() - row.glyphs.len();
        for (i, a) in boxes.iter().enumerate().skip(row.glyphs.len()) {
            for (j, b) in boxes.iter().enumerate() {
                if i != j {
                    prop_assert!(a.1 + GAP <= b.0 + 0.01 || b.1 + GAP <= a.0 + 0.01, "{a:?} meets {b:?} ({labels} labels)");
                }
            }
        }
    }
}
