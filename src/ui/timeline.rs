//! The revision timeline: an SVG drawn by Yew, one SVG unit per CSS pixel (the picture is laid
//! out for the width its container has, so text is drawn at the size the style sheet says).
//! x = etcd's global revision. Rows, top to bottom, each owning its label lane so labels never
//! meet: the axis; the reads (every list answered, at its list RV, and every continue token, a
//! chip numbered by page at the revision it pins); one lane per key with a bar per version and
//! tombstones for deletes; the compaction row (compacted zone and every compactor round); one
//! row per watch cache window (named by apiserver and resource); one row per watch (start,
//! frames, bookmarks, cursor, and an end mark with its cause). Only the visible revision range
//! is drawn, and a lane with more changes than fit is drawn as per-column counts, so a
//! 100,000-revision history stays cheap. When revisions would be narrower than a pointer
//! target, stretches holding nothing but writes fold into one narrow mark each ([`Axis::plan`]),
//! whose button on the axis opens it; each new picture is drawn in stages from the one before
//! ([`Step`]).
//!
//! [`build`] is pure (session + log → [`Model`]); [`Axis`] is the one mapping from revisions to
//! x, shared with the system view (`ui::system`), which the browser tests use to check that
//! each element is where the state says. Every mark carries `data-kind`, `data-rv` and
//! `data-line` (issue 14's stable hooks).

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::i18n::{K, Tr, use_tr};
pub use super::picture::axis::*;
pub use super::picture::{Mark, MarkKind};

mod lanes;
mod measure;
mod model;
mod nav;
mod reads;
mod table;
mod timers;
mod watch_rows;

use super::model::Entry;
use crate::apiserver::cacher::FRESHNESS_TIMEOUT;
use crate::apiserver::decision::EndReason;
use crate::script::Session;
use crate::script::view::{View, WatchEnd, WatchView};
pub use measure::*;
pub use model::*;
use table::table;
pub use timers::*;

pub use super::picture::lanes::MAX_LANES;
pub use super::picture::watches::{FOLD_ROWS, MAX_WATCH_ROWS};
/// Columns of an aggregated lane.
pub const BUCKETS: usize = 180;
/// A lane with more changes than this in the window is aggregated.
pub const DENSE: usize = 120;
/// The compactor's bookkeeping key (one write per round), hidden from the lanes.
pub const COMPACT_KEY: &str = crate::apiserver::compactor::COMPACT_REV_KEY;

/// Every revision of the window at which something is drawn besides a key's write: reads
/// (lists, tokens, refusals), watch starts, frames, bookmarks, cursors and ends, each watch
/// cache's oldest startable RV, its RV and the revisions still on their way to it, the
/// compaction boundary and every round, informers' lastSyncRV, and etcd's head (a cache's
/// snapshot of a write is part of that write: it does not hold a stretch open). Runs of at least
/// [`MIN_FOLD`] revisions between them are the stretches the axis may fold.
pub fn quiet_stretches(m: &Model) -> Vec<(i64, i64)> {
    quiet_stretches_in(m.window, &busy_revisions(m))
}

/// The revisions [`quiet_stretches`] keeps open.
pub fn busy_revisions(m: &Model) -> Vec<i64> {
    let mut at: Vec<i64> = Vec::new();
    at.extend(m.marks.iter().map(|mk| mk.rv));
    for wr in &m.view.watches {
        at.extend(wr.start.iter().copied().chain(wr.events()).chain(wr.bookmarks()).chain(wr.read.last_rv));
        at.extend(wr.end.as_ref().map(|e| e.rv));
    }
    for c in m.view.apiservers.iter().flat_map(|a| a.caches.iter()) {
        at.extend([c.oldest_startable_rv, c.rv]);
        at.extend(c.in_flight_revs.iter().map(|(r, _)| *r));
    }
    at.extend(m.compact);
    at.extend(m.rounds.iter().map(|(_, r)| *r));
    at.extend(m.view.informers.iter().filter_map(|i| i.last_sync_revision));
    at.push(m.current);
    at
}

impl Axis {
    /// Lays out `m` for a container `width` px wide ([`Axis::plan_around`] its busy revisions).
    pub fn plan(m: &Model, width: f64, opened: &[(i64, i64)]) -> Axis {
        Axis::plan_around(m.window, &busy_revisions(m), width, opened)
    }
}

/// A tick step whose labels fit: at most one label per `min_px` pixels.
/// "4m48s", "5s", "1h2m".
pub fn duration_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    match (h, m, sec) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s}s"),
        (h, m, _) => format!("{h}h{m}m"),
    }
}

fn tick_step(span: i64, plot_px: f64, min_px: f64) -> i64 {
    let max_ticks = ((plot_px / min_px).floor() as i64).max(1);
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if span / (step * m) < max_ticks {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// A coordinate with one decimal, formatted with integer arithmetic only (float formatting
/// would pull a float printer into the wasm).
pub fn f(x: f64) -> String {
    let v = (x * 10.0).round() as i64;
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    format!("{sign}{}.{}", v / 10, v % 10)
}

/// Text drawn from its left edge at (`x`, baseline `y`), with its measured width recorded.
pub fn label(class: &str, x: f64, y: f64, text: String, for_kind: &str) -> Html {
    let w = text_width(&text);
    html! {
        <text class={classes!("lbl", class.to_string())} x={f(x)} y={f(y)} data-label-for={for_kind.to_string()} data-w={f(w)}>{ text }</text>
    }
}

/// A label laid out by `picture::rows`: one `<text>`, its lines (when broken under its row)
/// one `<tspan>` each.
pub fn placed_label(class: &str, l: &super::picture::rows::Label, for_kind: &str) -> Html {
    if l.lines.len() <= 1 {
        return label(class, l.l, l.baseline, l.text.clone(), for_kind);
    }
    let lines = l.lines.iter().enumerate().map(|(i, t)| {
        html! { <tspan x={f(l.l)} y={f(l.baseline + i as f64 * LABEL_LINE)}>{ t.clone() }</tspan> }
    });
    html! {
        <text class={classes!("lbl", class.to_string())} x={f(l.l)} y={f(l.baseline)} data-label-for={for_kind.to_string()} data-w={f(l.w)} data-lines={l.lines.len().to_string()}>{ for lines }</text>
    }
}

/// A row label in the gutter: one line, or two when the row names an owner and a thing.
pub fn gutter_label(g: Geom, y_mid: f64, first: &str, second: Option<&str>, title: &str) -> Html {
    gutter_label_as("", g, y_mid, first, second, title)
}

/// [`gutter_label`] with an extra class on the label (`watch-label` names a watch's row).
pub fn gutter_label_as(
    class: &'static str,
    g: Geom,
    y_mid: f64,
    first: &str,
    second: Option<&str>,
    title: &str,
) -> Html {
    let one = match second {
        Some(s) => format!("{first} · {s}"),
        None => first.to_string(),
    };
    let extra = (!class.is_empty()).then_some(class);
    if g.stacked() {
        // On its own line above the row's drawing, as wide as the picture.
        let t = fit(&one, g.x1 - g.x0, second.is_none());
        let y = y_mid - g.content_h() / 2.0 - 4.0;
        return html! {
            <text class={classes!("row-label", "above", extra)} x={f(g.x0)} y={f(y)} data-label-for="row">{ t }<title>{ title.to_string() }</title></text>
        };
    }
    let max = g.x0 - 12.0;
    if second.is_none() || text_width(&one) <= max {
        let t = fit(&one, max, second.is_none());
        return html! {
            <text class={classes!("row-label", extra)} x="6" y={f(y_mid + 4.0)} data-label-for="row">{ t }<title>{ title.to_string() }</title></text>
        };
    }
    let a = fit(first, max, false);
    let b = fit(second.unwrap_or_default(), max, false);
    html! {
        <text class={classes!("row-label", "two", extra)} x="6" y={f(y_mid - 3.0)} data-label-for="row">
            <tspan x="6" y={f(y_mid - 3.0)}>{ a }</tspan>
            <tspan x="6" y={f(y_mid + 11.0)}>{ b }</tspan>
            <title>{ title.to_string() }</title>
        </text>
    }
}

/// A vertical line at `x` from `y0` down to `y1` as path data, leaving out the stretches `gaps`
/// (the rows' label lines on a phone: no line runs through a label).
pub fn vline(x: f64, y0: f64, y1: f64, gaps: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let mut from = y0;
    let mut gaps: Vec<(f64, f64)> = gaps.iter().copied().filter(|(a, b)| *b > y0 && *a < y1).collect();
    gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (a, b) in gaps.into_iter().chain([(y1, y1)]) {
        if a > from {
            d.push_str(&format!("M{} {}V{}", f(x), f(from), f(a)));
        }
        from = from.max(b);
    }
    d
}

/// The selected line's marking around a mark, beyond colour: a dashed ring (its label turns bold).
fn sel_ring(x: f64, y: f64, w: f64, h: f64) -> Html {
    html! { <g class="sel"><rect class="sel-ring" x={f(x)} y={f(y)} width={f(w)} height={f(h)} rx={f(h.min(w) / 2.0)} /></g> }
}

/// An invisible 24 × 24 px pointer target around (`x`, `y`).
fn hit(x: f64, y: f64) -> Html {
    html! { <rect class="hit" x={f(x - 12.0)} y={f(y - 12.0)} width="24" height="24" /> }
}

/// How an ended watch is drawn: its glyph class, and the short text next to it.
fn end_text(tr: Tr, e: &WatchEnd) -> (bool, String) {
    use EndReason as R;
    match (e.code, e.cause) {
        (Some(code), Some(R::CacheWindow)) => (true, tr.f(K::TlEndCacheWindow, &[&code])),
        (Some(code), Some(R::EtcdCompacted)) => (true, tr.f(K::TlEndEtcdCompacted, &[&code])),
        (Some(code), Some(R::CacheNotFresh)) => {
            let wait = crate::script::why::span(FRESHNESS_TIMEOUT, super::why::lang(tr));
            (true, tr.f(K::TlEndNotFresh, &[&code, &wait]))
        }
        (Some(code), Some(R::PrevKvMissing)) => (true, tr.f(K::TlEndPrevKv, &[&code])),
        // Every cause by name (no wildcard): a new one must say how it is drawn.
        (Some(code), Some(R::SlowConsumer | R::Timeout | R::Cancelled | R::Restart | R::CacheOff) | None) => {
            (true, tr.f(K::TlEndError, &[&code]))
        }
        (None, Some(R::EtcdCompacted)) => (false, tr.t(K::TlEndRelisted).to_string()),
        (None, Some(R::CacheOff)) => (false, tr.t(K::TlEndCacheOff).to_string()),
        (None, Some(R::SlowConsumer)) => (false, tr.t(K::TlEndSlow).to_string()),
        (None, Some(R::Timeout)) => (false, tr.t(K::TlEndTimeout).to_string()),
        (None, Some(R::Cancelled)) => (false, tr.t(K::TlEndCancelled).to_string()),
        (None, Some(R::Restart)) => (false, tr.t(K::TlEndRestart).to_string()),
        (None, Some(R::CacheWindow | R::CacheNotFresh | R::PrevKvMissing) | None) => {
            (false, tr.t(K::TlEndClean).to_string())
        }
    }
}

/// The `ended` value as the JSON contract spells it (`data-cause`).
fn cause_name(c: EndReason) -> Option<String> {
    serde_json::to_value(c).ok().and_then(|v| v.as_str().map(str::to_string))
}

/// The glyph of a watch end at (`x`, `cy`): ✕ for an ERROR frame, a square for a clean close.
fn end_glyph(error: bool, x: f64, cy: f64) -> Html {
    if error {
        let r = 6.0;
        let d = format!(
            "M{} {}L{} {}M{} {}L{} {}",
            f(x - r),
            f(cy - r),
            f(x + r),
            f(cy + r),
            f(x - r),
            f(cy + r),
            f(x + r),
            f(cy - r)
        );
        html! { <path class="end-x" {d} /> }
    } else {
        html! { <rect class="end-sq" x={f(x - 5.0)} y={f(cy - 5.0)} width="10" height="10" /> }
    }
}

#[derive(Properties, PartialEq)]
pub struct PictureProps {
    pub model: std::rc::Rc<Model>,
    /// The revision axis (the layout for the container's width, and the folded stretches).
    pub axis: std::rc::Rc<Axis>,
    /// The entry shown in the response viewer (its marks are emphasised).
    #[prop_or_default]
    pub selected: Option<usize>,
    #[prop_or_default]
    pub hovered: Option<usize>,
    #[prop_or_default]
    pub on_select: Callback<usize>,
    #[prop_or_default]
    pub on_hover: Callback<Option<usize>>,
    /// What changed since the previous picture: those marks appear in the step's last stage.
    #[prop_or_default]
    pub step: std::rc::Rc<Step>,
    /// A fold's button was pressed: show that stretch.
    #[prop_or_default]
    pub on_open_fold: Callback<(i64, i64)>,
    /// Whether the learner opened the keys folded beyond `MAX_LANES`, and the table equivalent
    /// (held by the panel, whose model has the folded keys' lanes only while either is open).
    pub keys_open: UseStateHandle<bool>,
    pub table_open: UseStateHandle<bool>,
}

/// Each fold's button on the axis: (left, width, text, line). All say as much as fits on one
/// line without meeting another ("⋯ 37 revisions, writes only — show", "⋯ 37 — show", "⋯ 37");
/// when even the shortest do not, they take two lines. Returns them and the lines used.
fn fold_pills(tr: Tr, axis: &Axis) -> (Vec<(f64, f64, String, usize)>, usize) {
    let g = axis.g;
    let place = |k: K, rows: usize| -> Option<Vec<(f64, f64, String, usize)>> {
        let mut placed: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rows];
        axis.folds
            .iter()
            .map(|(a, b)| {
                let text = tr.f(k, &[&(b - a + 1)]);
                let tw = text_width(&text) + 12.0;
                let mid = axis.x(*a as f64) + FOLD_W / 2.0;
                let l = (mid - tw / 2.0).min(g.x1 - tw).max(g.x0.min(mid - tw / 2.0)).max(0.0);
                pack(&mut placed, l, l + tw).map(|row| (l, tw, text, row))
            })
            .collect()
    };
    if axis.folds.is_empty() {
        return (Vec::new(), 0);
    }
    for k in [K::TlFoldLong, K::TlFoldShort, K::TlFoldTiny] {
        if let Some(p) = place(k, 1) {
            return (p, 1);
        }
    }
    match place(K::TlFoldTiny, 2) {
        Some(p) => (p, 2),
        // Never overprinted: beyond two lines, each fold says only "⋯" (its title says more).
        None => (
            axis.folds
                .iter()
                .map(|(a, _)| (axis.x(*a as f64) + FOLD_W / 2.0 - 11.0, 22.0, "⋯".to_string(), 0))
                .collect(),
            1,
        ),
    }
}

/// Moves the keyboard focus to the `i`th fold of the picture `e` happened in.
fn focus_fold(e: &KeyboardEvent, i: usize) {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(next) = el
        .closest("svg")
        .ok()
        .flatten()
        .and_then(|svg| svg.query_selector(&format!("g.fold[data-i='{i}']")).ok().flatten())
    else {
        return;
    };
    if let Ok(focus) =
        js_sys::Reflect::get(&next, &"focus".into()).and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = focus.call0(&next);
    }
}

/// Interval packing: the first of `rows` sub-rows where [`a`, `b`] meets nothing placed.
fn pack(placed: &mut [Vec<(f64, f64)>], a: f64, b: f64) -> Option<usize> {
    for (i, row) in placed.iter_mut().enumerate() {
        if row.iter().all(|(x, y)| b + 2.0 <= *x || a >= *y + 2.0) {
            row.push((a, b));
            return Some(i);
        }
    }
    None
}

/// The SVG and its table equivalent, for a model.
#[function_component(Picture)]
pub fn picture(p: &PictureProps) -> Html {
    let tr = use_tr();
    let reads_open = use_state(|| false);
    // The apiservers whose folded watches the learner opened.
    let watches_open = use_state(Vec::<usize>::new);
    let (keys_open, table_open) = (&p.keys_open, &p.table_open);
    let svg_ref = use_node_ref();
    {
        let svg_ref = svg_ref.clone();
        use_effect(move || {
            if let Some(svg) = svg_ref.cast::<web_sys::Element>() {
                nav::ensure_tab_stop(&svg);
            }
        });
    }
    let m = &*p.model;
    let w = m.window;
    let axis = &*p.axis;
    let g = axis.g;
    let x = |rev: f64| axis.x(rev);
    let clamp = |v: f64| v.clamp(g.x0, g.x1);
    let mut y = 0.0;
    let mut parts: Vec<Html> = Vec::new();

    // Axis: tick labels at least their width + 16 px apart, never inside a fold; with folds, a
    // line above the ticks holds each fold's button.
    let widest = text_width(&w.hi.to_string()).max(text_width("8"));
    let min_gap = widest + 16.0;
    let folded: i64 = axis.folds.iter().map(|(a, b)| b - a + 1).sum();
    let step =
        tick_step((w.span() - folded).max(1), (g.x1 - g.x0) - axis.folds.len() as f64 * FOLD_W, min_gap);
    let first_tick = ((w.lo + step - 1) / step) * step;
    let (pills, pill_rows) = fold_pills(tr, axis);
    let fold_line = pill_rows as f64 * FOLD_LINE;
    let axis_y = AXIS_H + g.label_line() + fold_line;
    let mut last_tick = f64::NEG_INFINITY;
    let ticks: Vec<Html> = (0..)
        .map(|i| first_tick + i * step)
        .take_while(|r| *r <= w.hi)
        .filter(|r| axis.fold_of(*r).is_none())
        .filter_map(|r| {
            let xr = x(r as f64 + 0.5);
            if xr - last_tick < min_gap {
                return None;
            }
            last_tick = xr;
            Some(html! { <g class="tick"><line x1={f(xr)} x2={f(xr)} y1={f(axis_y - 4.0)} y2={f(axis_y)} />
            <text x={f(xr)} y={f(axis_y - 8.0)} data-label-for="axis">{ r }</text></g> })
        })
        .collect();
    parts.push(html! { <g class="axis" key="axis">
        if g.stacked() {
            <text class="row-label above" x={f(g.x0)} y="11" data-label-for="row">{ tr.t(K::TlRevision) }</text>
        } else {
            <text class="row-label" x="6" y={f(axis_y - 8.0)} data-label-for="row">{ tr.t(K::TlRevision) }</text>
        }
        { for ticks }
    </g> });
    let fold_top = g.label_line() + 2.0;
    y += axis_y + 4.0;
    let plot_top = y;

    // Reads: lists (◆), continue-token chips and refusals; a crowd behind "+N".
    let toggle_reads = {
        let open = reads_open.clone();
        Callback::from(move |()| open.set(!*open))
    };
    // Each row's top: on a phone its label has the line under it to itself, which the lines
    // crossing every row (the compaction boundary, the folds' edges) leave out.
    let mut tops: Vec<f64> = Vec::new();
    if let Some((row, h)) = reads::reads_row(tr, m, axis, y, p, *reads_open, toggle_reads) {
        tops.push(y);
        parts.push(row);
        y += h;
    }

    let mut zone_at: Option<(i64, f64, String)> = None;

    // The lines crossing every row: the compaction boundary and the folds' edges. Labels on the
    // rows meet none of them.
    let mut crossing: Vec<f64> =
        m.compact.filter(|c| *c > w.lo).map(|c| clamp(x(c as f64))).into_iter().collect();
    for (a, _) in &axis.folds {
        let xa = x(*a as f64);
        crossing.extend([xa, xa + FOLD_W]);
    }
    let open_watches = {
        let open = watches_open.clone();
        Callback::from(move |a: usize| {
            let mut now = (*open).clone();
            if !now.contains(&a) {
                now.push(a);
            }
            open.set(now);
        })
    };
    watch_rows::draw(
        tr,
        m,
        axis,
        p,
        &crossing,
        (&watches_open, &open_watches),
        (&mut y, &mut tops),
        &mut parts,
    );
    // Watch cache windows: one row each, named in the gutter, its numbers on or beside the band.
    for c in &m.caches {
        tops.push(y);
        let lo = c.oldest.max(w.lo);
        let hi = c.rv.min(w.hi);
        let name = tr.f(K::TlApiserver, &[&c.apiserver]);
        let title = tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest, &c.rv]);
        let name_w = text_width(&format!("{name} · {}", c.resource)) + 12.0;
        let text = if c.ready {
            tr.f(K::TlCacheBand, &[&c.oldest, &c.rv, &c.held, &c.capacity])
        } else {
            tr.t(K::TlCacheNotReady).to_string()
        };
        // An empty window (not ready yet, or outside the view) is a 2 px band at its RV.
        let (x1, x2) = if hi >= lo {
            (x(lo as f64), x(hi as f64 + 0.5))
        } else {
            let xr = clamp(x(c.rv.clamp(w.lo, w.hi) as f64 + 0.5));
            (xr - 1.0, xr + 1.0)
        };
        let laid = super::picture::rows::band_row(g, y, name_w, &crossing, (x1, x2), &text, &text_width);
        let cy = laid.cy;
        let band = html! { <>
            if hi >= lo {
                <rect class={classes!("band", (!c.ready).then_some("unready"))} x={f(x1)} y={f(cy - 8.0)} width={f((x2 - x1).max(2.0))} height="16" rx="3" />
            }
            { placed_label("band-label", &laid.label, "cache-window") }
        </> };
        parts.push(html! {
            <g class="row cache" key={format!("cache-{}-{}", c.apiserver, c.resource)} data-kind="cache-window" data-apiserver={c.apiserver.to_string()} data-resource={c.resource.clone()}
                data-rv={c.rv.to_string()} data-from={c.oldest.to_string()}>
                <title>{ title }</title>
                { gutter_label(g, cy, &name, Some(&c.resource), &tr.f(K::TlCacheRow, &[&c.apiserver, &c.resource])) }
                { band }
            </g>
        });
        y += laid.h;
    }

    // Compaction: the zone over the lanes and a row of rounds.
    if let Some(c) = m.compact {
        tops.push(y);
        let xe = clamp(x(c as f64));
        let label_c = tr.f(K::TlCompacted, &[&c]);
        zone_at = (c > w.lo).then_some((c, xe, label_c.clone()));
        let cy = g.mid(y);
        // Every ✂ first (marks are never covered), then the boundary's label, then each round's
        // label where it fits.
        let in_w: Vec<(usize, i64)> =
            m.rounds.iter().copied().filter(|(_, r)| *r >= w.lo && *r <= w.hi).collect();
        let round_xs: Vec<f64> = in_w.iter().map(|(_, r)| x(*r as f64)).collect();
        let round_texts: Vec<String> = in_w.iter().map(|(n, _)| tr.f(K::TlRound, &[n])).collect();
        let round_ws: Vec<f64> = round_texts.iter().map(|t| text_width(t)).collect();
        let boundary_x = Some(xe);
        let row = super::picture::compaction_row(
            boundary_x,
            text_width(&label_c),
            &round_xs,
            &round_ws,
            (g.x0, g.x1),
        );
        // Never left out: beside its ✂, or on the row's second line.
        let (lx, line) = row.boundary;
        let boundary_label = Some(label(
            "compact-label",
            lx,
            cy + 4.0 + line as f64 * g.content_h(),
            label_c.clone(),
            "compaction",
        ));
        let extra_lines = row.lines - 1;
        let rounds = in_w.iter().zip(round_texts).zip(&row.rounds).map(|(((n, r), text), at)| {
            let xr = x(*r as f64);
            let lbl = at.map(|lx| label("round-label", lx, cy + 4.0, text.clone(), "compaction"));
            html! {
                <g class="mark compaction" data-kind="compaction" data-rev={r.to_string()} data-rv={r.to_string()} data-round={n.to_string()}>
                    <title>{ tr.f(K::TlRoundTitle, &[n, r]) }</title>
                    { hit(xr, cy) }
                    <path class="scissors" d={format!("M{} {}l5 0l-5 5m5 -5l-5 -5", f(xr - 5.0), f(cy))} />
                    <circle class="scissors" cx={f(xr - 5.0)} cy={f(cy)} r="2.5" />
                    { for lbl }
                </g>
            }
        }).collect::<Vec<_>>();
        // A `compact` line (not a round) is still a compaction: one mark at its revision.
        let manual = (m.rounds.iter().all(|(_, r)| *r != c) && c >= w.lo && c <= w.hi).then(|| html! {
            <g class="mark compaction" data-kind="compaction" data-rev={c.to_string()} data-rv={c.to_string()}>
                <title>{ label_c.clone() }</title>
                { hit(xe, cy) }
                <path class="scissors" d={format!("M{} {}l5 0l-5 5m5 -5l-5 -5", f(xe - 5.0), f(cy))} />
                <circle class="scissors" cx={f(xe - 5.0)} cy={f(cy)} r="2.5" />
            </g>
        });
        parts.push(html! { <g class="row compacted" key="compaction">
            { gutter_label(g, cy, tr.t(K::TlCompaction), None, tr.t(K::TlCompaction)) }
            { for boundary_label }
            { for manual }
            { for rounds }
        </g> });
        y += g.row_h() + extra_lines as f64 * g.content_h();
    }

    lanes::draw(tr, m, axis, keys_open, &mut y, &mut tops, &mut parts);
    let label_lines: Vec<(f64, f64)> =
        if g.stacked() { tops.iter().map(|t| (*t, t + g.label_line())).collect() } else { Vec::new() };

    // The compacted zone over every plot row (it lets pointer events through to the marks).
    if let Some((c, xe, label_c)) = zone_at {
        parts.push(html! {
            <g class="compacted" key="zone">
                <rect id="tl-compacted" class="zone" data-rev={c.to_string()} x={f(g.x0)} y={f(plot_top)} width={f(xe - g.x0)} height={f((y - plot_top).max(0.0))}>
                    <title>{ label_c }</title>
                </rect>
                <path id="tl-compact-line" data-x={f(xe)} d={vline(xe, plot_top, y, &label_lines)} />
            </g>
        });
    }
    let height = y + 6.0;

    // The folds: a narrow strip over every row, and a button on the axis saying what it holds
    // (as long a text as fits between its neighbours). One Tab stop for all of them: the first
    // is tabbable, ← → move between them, Enter or Space shows the stretch.
    let folds = axis.folds.iter().zip(&pills).enumerate().map(|(i, ((a, b), (l, tw, text, row)))| {
        let (a, b, l, tw) = (*a, *b, *l, *tw);
        let text = text.clone();
        let n = b - a + 1;
        let xa = x(a as f64);
        let fold_top = fold_top + *row as f64 * FOLD_LINE;
        let title = tr.f(K::TlFoldTitle, &[&a, &b, &n]);
        let open = p.on_open_fold.reform(move |_: MouseEvent| (a, b));
        let on_key = {
            let open = p.on_open_fold.clone();
            Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
                "Enter" | " " => {
                    e.prevent_default();
                    open.emit((a, b));
                }
                "ArrowRight" | "ArrowLeft" => {
                    e.prevent_default();
                    let to = if e.key() == "ArrowRight" { i + 1 } else { i.wrapping_sub(1) };
                    focus_fold(&e, to);
                }
                _ => {}
            })
        };
        let strip_top = g.label_line() + 2.0 + fold_line - 2.0;
        // The strip lies under the rows (their labels and bars stay readable over it); the
        // button is drawn over everything.
        let strip = html! {
            <g class="fold-under" key={format!("strip-{a}-{b}")} data-from={a.to_string()} data-to={b.to_string()} onclick={open.clone()}>
                <rect class="fold-strip" x={f(xa)} y={f(strip_top)} width={f(FOLD_W)} height={f((height - 4.0 - strip_top).max(0.0))} />
                <path class="fold-edge" d={format!("{}{}", vline(xa, strip_top, height - 4.0, &label_lines), vline(xa + FOLD_W, strip_top, height - 4.0, &label_lines))} />
            </g>
        };
        let button = html! {
            <g class="fold" key={format!("fold-{a}-{b}")} data-kind="fold" data-i={i.to_string()} data-from={a.to_string()} data-to={b.to_string()}
                data-count={n.to_string()} role="button" tabindex={if i == 0 { "0" } else { "-1" }} aria-label={title.clone()}
                onclick={open} onkeydown={on_key}>
                <title>{ title }</title>
                <rect class="hit" x={f(l)} y={f(fold_top - 3.0)} width={f(tw)} height="24" />
                <rect class="fold-pill" x={f(l)} y={f(fold_top)} width={f(tw)} height="18" rx="9" />
                { label("fold-label", l + 6.0, fold_top + 13.0, text, "fold") }
            </g>
        };
        (strip, button)
    }).collect::<Vec<_>>();
    let (strips, folds): (Vec<Html>, Vec<Html>) = folds.into_iter().unzip();

    let img_label = tr.f(K::TlImgLabel, &[&w.lo, &w.hi, &m.keys, &m.current]);
    html! {
        <div class="tl-wrap">
            <svg id="timeline-svg" ref={svg_ref} class="timeline" role="group" aria-label={img_label} aria-describedby="tl-keys"
                width={f(g.width)} height={f(height)} viewBox={format!("0 0 {} {}", f(g.width), f(height))}
                data-lo={w.lo.to_string()} data-hi={w.hi.to_string()} data-x0={f(g.x0)} data-x1={f(g.x1)} data-width={f(g.width)}
                data-current={m.current.to_string()} data-folds={axis.folds_attr()}>
                <g class="fold-strips" aria-hidden="true">{ for strips }</g>
                <g class="rows" onkeydown={Callback::from(nav::on_key)}>{ for parts }</g>
                <g class="folds">{ for folds }</g>
            </svg>
            <p id="tl-keys" class="visually-hidden">{ tr.t(K::TlMarksKeys) }</p>
            { table(tr, m, table_open) }
        </div>
    }
}

/// A cursor histogram for watches drawn together: one bar per revision they stand at (where
/// they ended, else the newest RV read, else where they started), as tall as how many stand there.
pub fn cursor_bars(tr: Tr, axis: &Axis, cy: f64, group: &[&WatchView]) -> Html {
    let w = axis.w;
    let mut at: Vec<(i64, usize)> = Vec::new();
    for c in group
        .iter()
        .filter_map(|wr| wr.end.as_ref().map(|e| e.rv).or(wr.read.last_rv).or(wr.start))
        .filter(|r| *r >= w.lo && *r <= w.hi)
    {
        match at.iter_mut().find(|(r, _)| *r == c) {
            Some((_, k)) => *k += 1,
            None => at.push((c, 1)),
        }
    }
    let most = at.iter().map(|(_, k)| *k).max().unwrap_or(1) as f64;
    let bars = at.iter().map(|(r, k)| {
        let xr = axis.x(*r as f64 + 0.5);
        let h = 4.0 + 12.0 * (*k as f64 / most);
        html! { <rect class="cursor-bar" data-rv={r.to_string()} data-count={k.to_string()} x={f(xr - 2.0)} y={f(cy + 8.0 - h)} width="4" height={f(h)}>
            <title>{ tr.f(K::TlFoldedAt, &[k, r]) }</title></rect> }
    });
    html! { <g class="cursors">{ for bars }</g> }
}
