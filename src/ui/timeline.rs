//! The revision timeline: an SVG drawn by Yew. x = etcd's global revision; one lane per key with
//! a bar per version (from its mod revision to the key's next change), tombstones for deletes;
//! overlays for the compacted zone, every list answered (at its list RV), every continue token
//! (at the revision it pins), every watch (at its last delivered RV) and every apiserver's watch
//! cache window. Only the visible revision range is drawn, and a lane with more changes than
//! fit is drawn as per-column counts, so a 100,000-revision history stays cheap.
//!
//! [`build`] is pure (session + log → [`Model`]); [`x_of`] is the one mapping from revisions to
//! x, which the browser tests use to check that each element is where the state says.

use serde_json::Value;
use yew::prelude::*;

use super::i18n::{K, Tr, use_tr};
use super::lines;
use super::state::{Action, Entry};
use super::{HoverHandle, LabHandle};
use crate::script::Session;

/// SVG user units.
pub const W: f64 = 900.0;
/// Left edge of the plot (lane labels are left of it).
pub const X0: f64 = 160.0;
/// Right edge of the plot.
pub const X1: f64 = 888.0;
pub const TOP: f64 = 30.0;
pub const LANE_H: f64 = 18.0;
/// Lanes drawn one by one; the other keys share one aggregate lane.
pub const MAX_LANES: usize = 14;
/// Columns of an aggregated lane.
pub const BUCKETS: usize = 180;
/// A lane with more changes than this in the window is aggregated.
pub const DENSE: usize = 120;

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

/// Where revision `rev` begins (slot `rev` spans `x_of(rev)`..`x_of(rev + 1)`; a point at a
/// revision is drawn at its slot's centre, `x_of(rev + 0.5)`).
pub fn x_of(rev: f64, w: Window) -> f64 {
    X0 + (rev - w.lo as f64) / (w.span() as f64) * (X1 - X0)
}

fn clamp_x(x: f64) -> f64 {
    x.clamp(X0, X1)
}

/// One version of a key: written at `start`, replaced (or deleted) at `end` (exclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct Seg {
    pub start: i64,
    pub end: i64,
    pub create: i64,
    pub version: i64,
    /// The last version, still current.
    pub open: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LaneBody {
    Segs {
        segs: Vec<Seg>,
        tombs: Vec<i64>,
    },
    /// Changes per column (too many to draw one by one).
    Buckets(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub key: String,
    pub body: LaneBody,
    /// Changes inside the window.
    pub changes: usize,
    /// The last few changes inside the window: (revision, version, is a tombstone).
    pub recent: Vec<(i64, i64, bool)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    List,
    Token,
    Watch,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub kind: MarkKind,
    pub rv: i64,
    /// The log entry (0-based) it comes from.
    pub entry: usize,
    /// The watch id for watches.
    pub label: String,
}

/// One apiserver's watch cache window.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheBand {
    pub apiserver: usize,
    pub resource: String,
    pub oldest: i64,
    pub rv: i64,
    pub ready: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub window: Window,
    pub current: i64,
    pub compact: Option<i64>,
    pub keys: usize,
    pub lanes: Vec<Lane>,
    /// Keys beyond [`MAX_LANES`] that change in the window, and their changes per column.
    pub more_keys: usize,
    pub more: Vec<u32>,
    pub marks: Vec<Mark>,
    pub caches: Vec<CacheBand>,
}

fn bucket(rev: i64, w: Window) -> usize {
    (((rev - w.lo) as f64 / w.span() as f64) * BUCKETS as f64).clamp(0.0, (BUCKETS - 1) as f64) as usize
}

/// The marks the log's outputs carry (lists, continue tokens, watches).
pub fn marks(entries: &[Entry]) -> Vec<Mark> {
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let Some(o) = e.out.as_deref() else { continue };
        let Some(body) = o.get("body") else { continue };
        if o.get("code").and_then(Value::as_u64) == Some(200)
            && body.get("items").is_some()
            && let Some(rv) =
                body.pointer("/metadata/resourceVersion").and_then(Value::as_str).and_then(lines::rv_number)
        {
            out.push(Mark { kind: MarkKind::List, rv, entry: i, label: String::new() });
        }
        if let Some(tok) =
            body.pointer("/metadata/continue").and_then(Value::as_str).filter(|t| !t.is_empty())
            && let Some(rv) =
                lines::decode_continue(tok).ok().and_then(|v| v.get("rv").and_then(Value::as_i64))
            && rv > 0
        {
            out.push(Mark { kind: MarkKind::Token, rv, entry: i, label: String::new() });
        }
    }
    for w in lines::watches(entries.iter().map(|e| (e.line.as_str(), e.out.as_deref()))) {
        let last = w.frames.iter().rev().find_map(|f| lines::rv_number(&f.rv));
        let start = lines::query_param(&w.request, "resourceVersion")
            .and_then(|r| lines::rv_number(&r))
            .filter(|r| *r > 0);
        if let Some(rv) = last.or(start) {
            out.push(Mark { kind: MarkKind::Watch, rv, entry: w.entry, label: w.id.clone() });
        }
    }
    out
}

/// The watch cache windows of every apiserver.
pub fn caches(session: &Session) -> Vec<CacheBand> {
    session
        .cache_windows()
        .into_iter()
        .map(|c| CacheBand {
            apiserver: c.apiserver + 1,
            resource: c.resource.to_string(),
            oldest: c.oldest_startable_rv,
            rv: c.rv,
            ready: c.ready,
        })
        .collect()
}

/// The whole range of revisions, `1..=current`.
pub fn full_window(session: &Session) -> Window {
    Window { lo: 1, hi: session.revision().max(1) }
}

/// Builds the picture's data for `window` (None = every revision).
pub fn build(session: &Session, entries: &[Entry], window: Option<Window>) -> Model {
    let current = session.revision().max(1);
    let w = match window {
        None => Window { lo: 1, hi: current },
        Some(w) => {
            let hi = w.hi.clamp(1, current);
            Window { lo: w.lo.clamp(1, hi), hi }
        }
    };
    let mut lanes = Vec::new();
    let mut more = vec![0u32; BUCKETS];
    let mut more_keys = 0;
    let mut keys = 0;
    for lane in session.revision_lanes() {
        keys += 1;
        let revs = &lane.changes;
        // First revision whose version reaches into the window.
        let first = revs.partition_point(|r| r.rev < w.lo).saturating_sub(1);
        let in_window: Vec<usize> = (first..revs.len()).take_while(|&i| revs[i].rev <= w.hi).collect();
        let visible = in_window.iter().any(|&i| {
            let (rev, tomb) = (revs[i].rev, revs[i].deleted);
            let end = revs.get(i + 1).map_or(current + 1, |n| n.rev);
            if tomb { rev >= w.lo } else { end > w.lo }
        });
        if !visible {
            continue;
        }
        let changes: Vec<usize> = in_window.iter().copied().filter(|&i| revs[i].rev >= w.lo).collect();
        if lanes.len() >= MAX_LANES {
            more_keys += 1;
            for &i in &changes {
                more[bucket(revs[i].rev, w)] += 1;
            }
            continue;
        }
        let key = lane.key;
        let recent = changes
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|&i| (revs[i].rev, revs[i].version, revs[i].deleted))
            .collect();
        let body = if changes.len() > DENSE {
            let mut b = vec![0u32; BUCKETS];
            for &i in &changes {
                b[bucket(revs[i].rev, w)] += 1;
            }
            LaneBody::Buckets(b)
        } else {
            let mut segs = Vec::new();
            let mut tombs = Vec::new();
            for &i in &in_window {
                let c = revs[i];
                let (rev, create, version, tomb) = (c.rev, c.create_rev, c.version, c.deleted);
                if tomb {
                    if rev >= w.lo {
                        tombs.push(rev);
                    }
                    continue;
                }
                let next = revs.get(i + 1).map(|n| n.rev);
                let end = next.unwrap_or(current + 1);
                if end > w.lo {
                    segs.push(Seg { start: rev, end, create, version, open: next.is_none() });
                }
            }
            LaneBody::Segs { segs, tombs }
        };
        lanes.push(Lane { key, body, changes: changes.len(), recent });
    }
    Model {
        window: w,
        current,
        compact: session.view().compacted,
        keys,
        lanes,
        more_keys,
        more,
        marks: marks(entries),
        caches: caches(session),
    }
}

/// A short label for a key lane.
fn short_key(k: &str) -> String {
    let k = k.strip_prefix("/registry/").unwrap_or(k);
    if k.chars().count() > 24 {
        format!("…{}", k.chars().rev().take(23).collect::<Vec<_>>().into_iter().rev().collect::<String>())
    } else {
        k.to_string()
    }
}

/// A tick step with at most ~10 ticks over `span` revisions.
fn tick_step(span: i64) -> i64 {
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if span / (step * m) <= 10 {
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

#[derive(Properties, PartialEq)]
pub struct PictureProps {
    pub model: std::rc::Rc<Model>,
    /// The entry shown in the response viewer (its marks are emphasised).
    #[prop_or_default]
    pub selected: Option<usize>,
    #[prop_or_default]
    pub hovered: Option<usize>,
    #[prop_or_default]
    pub on_select: Callback<usize>,
    #[prop_or_default]
    pub on_hover: Callback<Option<usize>>,
}

/// The SVG and its table equivalent, for a model.
#[function_component(Picture)]
pub fn picture(p: &PictureProps) -> Html {
    let tr = use_tr();
    let m = &*p.model;
    let w = m.window;
    let n_lanes = m.lanes.len() + usize::from(m.more_keys > 0);
    let lanes_h = (n_lanes.max(1) as f64) * LANE_H;
    let cache_h = m.caches.len() as f64 * 8.0;
    let height = TOP + lanes_h + cache_h + 22.0;
    let bottom = TOP + lanes_h;

    // Axis.
    let step = tick_step(w.span());
    let first_tick = ((w.lo + step - 1) / step) * step;
    let ticks = (0..)
        .map(|i| first_tick + i * step)
        .take_while(|r| *r <= w.hi)
        .map(|r| {
            let x = x_of(r as f64 + 0.5, w);
            html! { <g class="tick"><line x1={f(x)} x2={f(x)} y1={f(TOP - 4.0)} y2={f(bottom)} /><text x={f(x)} y={f(TOP - 8.0)}>{ r }</text></g> }
        });

    // Lanes.
    let lane_html = m.lanes.iter().enumerate().map(|(li, lane)| {
        let y = TOP + li as f64 * LANE_H;
        let label = short_key(&lane.key);
        let body = match &lane.body {
            LaneBody::Segs { segs, tombs } => {
                let bars = segs.iter().map(|s| {
                    let x1 = clamp_x(x_of(s.start as f64, w));
                    let x2 = clamp_x(x_of(s.end as f64, w));
                    let end_label = if s.open { tr.f(K::TlNow, &[&m.current]) } else { (s.end - 1).to_string() };
                    let title = tr.f(K::TlVersion, &[&lane.key, &s.start, &end_label, &s.create, &s.version]);
                    html! {
                        <rect class={classes!("seg", if s.version % 2 == 0 { "even" } else { "odd" }, s.open.then_some("open"))}
                            data-rev={s.start.to_string()} data-version={s.version.to_string()}
                            x={f(x1)} y={f(y + 3.0)} width={f((x2 - x1).max(1.0))} height={f(LANE_H - 6.0)} rx="2">
                            <title>{ title }</title>
                        </rect>
                    }
                });
                let crosses = tombs.iter().map(|t| {
                    let x = x_of(*t as f64 + 0.5, w);
                    let r = (LANE_H / 2.0 - 4.0).min(5.0);
                    let cy = y + LANE_H / 2.0;
                    let d = format!("M{} {}L{} {}M{} {}L{} {}", f(x - r), f(cy - r), f(x + r), f(cy + r), f(x - r), f(cy + r), f(x + r), f(cy - r));
                    html! { <path class="tomb" data-rev={t.to_string()} {d}><title>{ tr.f(K::TlTombstone, &[&lane.key, t]) }</title></path> }
                });
                html! { <>{ for bars }{ for crosses }</> }
            }
            LaneBody::Buckets(b) => buckets(tr, &lane.key, b, w, y),
        };
        html! {
            <g class="lane" data-key={lane.key.clone()}>
                <text class="lane-label" x={f(X0 - 6.0)} y={f(y + LANE_H / 2.0 + 4.0)}>{ label }<title>{ lane.key.clone() }</title></text>
                { body }
            </g>
        }
    });
    let more_lane = (m.more_keys > 0).then(|| {
        let y = TOP + m.lanes.len() as f64 * LANE_H;
        let label = tr.f(K::TlMoreKeys, &[&m.more_keys]);
        html! {
            <g class="lane more" id="tl-more">
                <text class="lane-label" x={f(X0 - 6.0)} y={f(y + LANE_H / 2.0 + 4.0)}>{ label.clone() }</text>
                { buckets(tr, &label, &m.more, w, y) }
            </g>
        }
    });

    // Compacted zone: revisions below the compact revision can no longer be read.
    let compacted = m.compact.filter(|c| *c > w.lo).map(|c| {
        let xe = clamp_x(x_of(c as f64, w));
        let label = tr.f(K::TlCompacted, &[&c]);
        html! {
            <g class="compacted">
                <rect id="tl-compacted" data-rev={c.to_string()} x={f(X0)} y={f(TOP)} width={f(xe - X0)} height={f(lanes_h)}>
                    <title>{ label.clone() }</title>
                </rect>
                <line id="tl-compact-line" x1={f(xe)} x2={f(xe)} y1={f(TOP - 2.0)} y2={f(bottom + 2.0)} />
                <text x={f(xe - 3.0)} y={f(bottom + 14.0)} class="compact-label">{ label }</text>
            </g>
        }
    });

    // Cache windows.
    let cache_html = m.caches.iter().enumerate().filter_map(|(i, c)| {
        let lo = c.oldest.max(w.lo);
        let hi = c.rv.min(w.hi);
        if hi < lo {
            return None;
        }
        let y = bottom + 18.0 + i as f64 * 8.0;
        let x1 = x_of(lo as f64, w);
        let x2 = x_of(hi as f64 + 1.0, w);
        let title = tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest, &c.rv]);
        Some(html! {
            <rect class={classes!("cache", (!c.ready).then_some("unready"))} data-apiserver={c.apiserver.to_string()}
                data-from={c.oldest.to_string()} data-rv={c.rv.to_string()}
                x={f(x1)} y={f(y)} width={f((x2 - x1).max(1.0))} height="5"><title>{ title }</title></rect>
        })
    });

    // Marks.
    let mark_html = m.marks.iter().filter(|mk| mk.rv >= w.lo && mk.rv <= w.hi).map(|mk| {
        let x = x_of(mk.rv as f64 + 0.5, w);
        let entry = mk.entry;
        let hl = p.selected == Some(entry) || p.hovered == Some(entry);
        let onclick = p.on_select.reform(move |_: MouseEvent| entry);
        let onmouseenter = p.on_hover.reform(move |_: MouseEvent| Some(entry));
        let onmouseleave = p.on_hover.reform(|_: MouseEvent| None);
        let (class, title, shape) = match mk.kind {
            MarkKind::List => (
                "list",
                tr.f(K::TlListAt, &[&(entry + 1), &mk.rv]),
                html! { <>
                    <line class="hit" x1={f(x)} x2={f(x)} y1={f(TOP - 2.0)} y2={f(bottom)} />
                    <line class="vis" x1={f(x)} x2={f(x)} y1={f(TOP - 2.0)} y2={f(bottom)} />
                </> },
            ),
            MarkKind::Token => (
                "token",
                tr.f(K::TlTokenAt, &[&(entry + 1), &mk.rv]),
                html! { <>
                    <line class="pin" x1={f(x)} x2={f(x)} y1={f(TOP - 1.0)} y2={f(TOP + 6.0)} />
                    <circle cx={f(x)} cy={f(TOP - 2.0)} r="4" />
                </> },
            ),
            MarkKind::Watch => (
                "watch",
                tr.f(K::TlWatchAt, &[&mk.label, &mk.rv]),
                html! { <>
                    <path d={format!("M{} {}l5 8h-10z", f(x), f(bottom + 1.0))} />
                    <text x={f(x + 6.0)} y={f(bottom + 9.0)} class="watch-label">{ mk.label.clone() }</text>
                </> },
            ),
        };
        html! {
            <g class={classes!("mark", class, hl.then_some("hl"))} data-rv={mk.rv.to_string()} data-line={(entry + 1).to_string()}
                data-x={f(x)} {onclick} {onmouseenter} {onmouseleave}>
                <title>{ title }</title>
                { shape }
            </g>
        }
    });

    let label = tr.f(K::TlImgLabel, &[&w.lo, &w.hi, &m.keys, &m.current]);
    html! {
        <div class="tl-wrap">
            <svg id="timeline-svg" class="timeline" role="img" aria-label={label} viewBox={format!("0 0 {} {}", f(W), f(height))}
                preserveAspectRatio="xMinYMin meet"
                data-lo={w.lo.to_string()} data-hi={w.hi.to_string()} data-x0={f(X0)} data-x1={f(X1)}
                data-current={m.current.to_string()}>
                <g class="axis">{ for ticks }</g>
                { for lane_html }
                { for more_lane }
                { for compacted }
                { for cache_html }
                { for mark_html }
            </svg>
            { table(tr, m) }
        </div>
    }
}

fn buckets(tr: Tr, key: &str, b: &[u32], w: Window, y: f64) -> Html {
    let max = b.iter().copied().max().unwrap_or(1).max(1) as f64;
    let cols = b.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| {
        let lo = w.lo + (i as i64 * w.span()) / BUCKETS as i64;
        let hi = (w.lo + ((i as i64 + 1) * w.span()) / BUCKETS as i64 - 1).max(lo);
        let x1 = X0 + i as f64 * (X1 - X0) / BUCKETS as f64;
        let op = 0.3 + 0.7 * (*n as f64 / max);
        html! {
            <rect class="bucket" x={f(x1)} y={f(y + 3.0)} width={f((X1 - X0) / BUCKETS as f64)} height={f(LANE_H - 6.0)}
                style={format!("opacity:{}", f(op))}><title>{ tr.f(K::TlAggregate, &[&key, n, &lo, &hi]) }</title></rect>
        }
    });
    html! { <g class="dense">{ for cols }</g> }
}

/// The table equivalent of the picture (for screen readers and for copying).
fn table(tr: Tr, m: &Model) -> Html {
    let rows = m.lanes.iter().map(|l| {
        let mut parts: Vec<String> = l
            .recent
            .iter()
            .map(|(r, v, tomb)| if *tomb { tr.f(K::TlDeletedAt, &[r]) } else { format!("{r}: v{v}") })
            .collect();
        if l.changes > l.recent.len() {
            parts.insert(0, "…".into());
        }
        html! { <tr><td class="mono">{ l.key.clone() }</td><td class="mono">{ parts.join(", ") }</td></tr> }
    });
    let marks = m.marks.iter().map(|mk| {
        let text = match mk.kind {
            MarkKind::List => tr.f(K::TlListAt, &[&(mk.entry + 1), &mk.rv]),
            MarkKind::Token => tr.f(K::TlTokenAt, &[&(mk.entry + 1), &mk.rv]),
            MarkKind::Watch => tr.f(K::TlWatchAt, &[&mk.label, &mk.rv]),
        };
        html! { <li>{ text }</li> }
    });
    let caches = m
        .caches
        .iter()
        .map(|c| html! { <li>{ tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest, &c.rv]) }</li> });
    let compact = m.compact.map(|c| html! { <li>{ tr.f(K::TlCompacted, &[&c]) }</li> });
    html! {
        <details id="tl-table" class="tl-table">
            <summary>{ tr.t(K::TlTable) }</summary>
            <table class="grid">
                <thead><tr><th>{ tr.t(K::TlColKey) }</th><th>{ tr.t(K::TlColChanges) }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="small muted">{ tr.t(K::TlMarks) }</p>
            if m.marks.is_empty() && m.caches.is_empty() && m.compact.is_none() {
                <p class="small muted">{ tr.t(K::TlNoMarks) }</p>
            } else {
                <ul class="small">{ for compact }{ for marks }{ for caches }</ul>
            }
        </details>
    }
}

fn input_i64(e: &Event) -> Option<i64> {
    e.target_unchecked_into::<web_sys::HtmlInputElement>().value().trim().parse().ok()
}

/// The timeline panel: window controls and the picture of the sandbox at the scrubber.
#[function_component(Timeline)]
pub fn timeline() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let hover = use_context::<HoverHandle>();
    let window = use_state(|| None::<Window>);
    let model = {
        let lab = lab.clone();
        use_memo((lab.stamp, lab.at, *window), move |(_, _, win)| build(&lab.session(), lab.visible(), *win))
    };
    let full = Window { lo: 1, hi: model.current };
    let w = model.window;
    let set = {
        let window = window.clone();
        move |lo: i64, hi: i64| {
            let span = (hi - lo).max(0);
            let (lo, hi) = if lo < 1 { (1, 1 + span) } else { (lo, hi) };
            let hi = hi.min(full.hi);
            let lo = lo.min(hi).max(1);
            window.set(if lo <= 1 && hi >= full.hi { None } else { Some(Window { lo, hi }) });
        }
    };
    let half = (w.span() / 2).max(1);
    let btn = |id: &'static str, k: K, lo: i64, hi: i64, disabled: bool| {
        let set = set.clone();
        let onclick = Callback::from(move |_: MouseEvent| set(lo, hi));
        html! { <button {id} type="button" class="small" {disabled} {onclick}>{ tr.t(k) }</button> }
    };
    let centre = (w.lo + w.hi) / 2;
    let on_from = {
        let set = set.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = input_i64(&e) {
                set(v, w.hi.max(v));
            }
        })
    };
    let on_to = {
        let set = set.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = input_i64(&e) {
                set(w.lo.min(v), v);
            }
        })
    };
    let on_select = {
        let lab = lab.clone();
        Callback::from(move |i: usize| lab.dispatch(Action::Select(i)))
    };
    let on_hover = {
        let hover = hover.clone();
        Callback::from(move |h: Option<usize>| {
            if let Some(hv) = &hover {
                hv.set(h);
            }
        })
    };
    let dense = model.lanes.iter().any(|l| matches!(l.body, LaneBody::Buckets(_))) || model.more_keys > 0;
    let writes = model.keys > 0 || model.current > 1;
    html! {
        <section class="timeline-panel" aria-labelledby="tl-h" id="timeline">
            <div class="row-head">
                <h2 id="tl-h">{ tr.t(K::TimelineHeading) }</h2>
                <span id="tl-showing" class="muted small">{ tr.f(K::TlShowing, &[&w.lo, &w.hi, &model.current]) }
                    if dense { { format!(" · {}", tr.t(K::TlDense)) } }</span>
            </div>
            <div class="tl-controls">
                <label class="small">{ tr.t(K::TlFrom) }
                    <input id="tl-from" type="number" min="1" class="num" value={w.lo.to_string()} onchange={on_from} /></label>
                <label class="small">{ tr.t(K::TlTo) }
                    <input id="tl-to" type="number" min="1" class="num" value={w.hi.to_string()} onchange={on_to} /></label>
                { btn("tl-earlier", K::TlEarlier, w.lo - half, w.hi - half, w.lo <= 1) }
                { btn("tl-later", K::TlLater, w.lo + half, w.hi + half, w.hi >= full.hi) }
                { btn("tl-zoom-in", K::TlZoomIn, centre - w.span() / 4, centre + w.span() / 4, w.span() <= 4) }
                { btn("tl-zoom-out", K::TlZoomOut, centre - w.span(), centre + w.span(), window.is_none()) }
                { btn("tl-all", K::TlAll, 1, full.hi, window.is_none()) }
            </div>
            <p class="small muted tl-desc">{ tr.t(K::TlDesc) }</p>
            if !writes {
                <p id="tl-empty" class="empty">{ tr.f(K::TlEmpty, &[&model.current]) }</p>
            }
            <Picture model={model.clone()} selected={lab.shown()} hovered={hover.as_ref().and_then(|h| **h)} {on_select} {on_hover} />
            <ul class="tl-legend small muted" aria-hidden="true">
                <li><span class="sw compacted"></span>{ tr.t(K::TlLegendCompacted) }</li>
                <li><span class="sw list"></span>{ tr.t(K::TlLegendList) }</li>
                <li><span class="sw token"></span>{ tr.t(K::TlLegendToken) }</li>
                <li><span class="sw watch"></span>{ tr.t(K::TlLegendWatch) }</li>
                <li><span class="sw cache"></span>{ tr.t(K::TlLegendCache) }</li>
            </ul>
        </section>
    }
}
