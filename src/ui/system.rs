//! The system view (`#system-view`): the actors of the sandbox stacked over the timeline's
//! revision axis (the same [`Axis`]: width, folds): the clients (you, each informer with ⚑ at its
//! lastSyncRV and its watch), each apiserver's watch cache per resource as a window band (oldest
//! startable RV → its RV, events held / capacity, snapshot ticks, lag with the events still in
//! flight, "not ready" while it initialises), and etcd (its head, the compacted zone, the
//! compactor's next round). The selected line's request draws its path — client → apiserver N →
//! watch cache / cache snapshot / etcd — from the `why.path` the engine gave that line; lines
//! without one draw none. Everything comes from the session's read model (`script::view`).

use std::rc::Rc;

use yew::prelude::*;

use crate::apiserver::decision::Path;
use crate::script::why::OutputWhy;

use super::i18n::{K, Tr, use_tr};
use super::picture::chips::{CHIP_LINE, Chip, ChipAt, flow_chips};
use super::picture::rows::{RowSpace, Where};
use super::timeline::{
    Axis, FOLD_W, Geom, MAX_WATCH_TIMERS, Model, Step, Tier, Timer, Window, duration_text, f, gutter_label,
    label, placed_label, text_width, timer_list,
};

#[derive(Properties, PartialEq)]
pub struct SystemProps {
    pub model: Rc<Model>,
    /// The revision axis shared with the timeline (layout, folds).
    pub axis: Rc<Axis>,
    /// The entry shown in the response viewer, and its output.
    #[prop_or_default]
    pub selected: Option<usize>,
    /// The selected line's decision, as the session typed it.
    #[prop_or_default]
    pub selected_why: Option<Rc<OutputWhy>>,
    /// What changed since the previous picture (staged: travel, decision, answer).
    #[prop_or_default]
    pub step: Rc<Step>,
    /// Reduced motion: the end state at once, nothing travels.
    #[prop_or_default]
    pub reduce: bool,
}

/// Where the selected line's decision says it was served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathTier {
    WatchCache,
    CacheSnapshot,
    Etcd,
}

impl PathTier {
    /// The tier of a decision's path (exhaustive: a new path does not compile without a tier).
    pub fn of(p: Path) -> PathTier {
        match p {
            Path::WatchCache => PathTier::WatchCache,
            Path::CacheSnapshot => PathTier::CacheSnapshot,
            Path::Etcd => PathTier::Etcd,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            PathTier::WatchCache => "watch-cache",
            PathTier::CacheSnapshot => "cache-snapshot",
            PathTier::Etcd => "etcd",
        }
    }
}

/// The typed decision of an output (`"why"`), the fields the system view draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathOf {
    pub tier: PathTier,
    pub apiserver: usize,
    /// The revision it was decided at (snapshot, requested RV or list RV), if the decision says.
    pub rv: Option<i64>,
}

/// The path, apiserver and revision of a typed decision; `None` for decisions without a path.
pub fn path_of(why: &OutputWhy) -> Option<PathOf> {
    // Where on the axis it was decided: the snapshot it read, the RV it asked for (rv −1, "the
    // latest", is the head), or the revision it answered at.
    let (path, apiserver, rvs) = match why {
        OutputWhy::Request(w) => (w.path?, w.apiserver, [w.snapshot_rv, w.rv, w.revision, w.cache_rv]),
        OutputWhy::Ended(e) => (e.path?, e.apiserver, [None, e.rv, None, e.cache_rv]),
        OutputWhy::Setting(_) | OutputWhy::Etcd(_) => return None,
    };
    let rv = rvs.into_iter().flatten().find(|r| *r > 0);
    Some(PathOf { tier: PathTier::of(path), apiserver: apiserver.max(1), rv })
}

fn hatch_defs() -> Html {
    html! {
        <defs>
            <pattern id="sv-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <line class="hatch-line" x1="0" y1="0" x2="0" y2="6" />
            </pattern>
        </defs>
    }
}

/// A tier's heading line, with the countdowns of that tier flowed to its right (wrapping onto
/// more lines only when they do not fit); returns the drawing and its height.
/// `crossing`: the vertical lines through the heading (the folds' edges, the selected request's
/// path), which no chip meets.
fn tier_label(
    g: Geom,
    y: f64,
    text: &str,
    timers: &[&Timer],
    on_more: &Callback<()>,
    crossing: &[f64],
) -> (Html, f64) {
    let (heading, chips, lines) = timer_chips(g, text, y, timers, on_more, crossing);
    let h = 18.0 + (lines - 1.0).max(0.0) * CHIP_LINE;
    let hy = y + 13.0 + heading.line as f64 * CHIP_LINE;
    let html = html! {
        <g class="tier" key={format!("tier-{text}")}>
            <line class="tier-rule" x1="0" x2={f(g.width)} y1={f(y)} y2={f(y)} />
            <text class="tier-label" x={f(heading.x)} y={f(hy)} data-label-for="tier">{ text.to_string() }</text>
            { chips }
        </g>
    };
    (html, h)
}

#[function_component(SystemView)]
pub fn system_view(p: &SystemProps) -> Html {
    let tr = use_tr();
    let m = &*p.model;
    let v = &m.view;
    let w: Window = m.window;
    let axis = &*p.axis;
    let g = axis.g;
    let x = |rev: f64| axis.x(rev).clamp(g.x0, g.x1);
    let head_x = x(m.current as f64 + 0.5);
    let mut y = 0.0;
    let mut parts: Vec<Html> = Vec::new();
    let path = p.selected_why.as_deref().and_then(path_of);
    let mut path_points: Vec<(f64, f64)> = Vec::new();
    // Revisions that reached a watch cache this step: where they land (x, the band's centre).
    let mut landings: Vec<(i64, f64, f64)> = Vec::new();
    // Each row's top: on a phone its label has the line under it to itself, which the request's
    // path and the folds' edges leave out.
    let mut tops: Vec<f64> = Vec::new();

    // Clients.
    let drawn: Vec<&str> = m.caches.iter().map(|c| c.resource.as_str()).collect();
    // The chip counting the watch timers not shown opens them all.
    let timers_open = use_state(|| false);
    let on_more = {
        let open = timers_open.clone();
        Callback::from(move |()| open.set(true))
    };
    let timers = timer_list(tr, v, &drawn, if *timers_open { usize::MAX } else { MAX_WATCH_TIMERS });
    let of_tier = |t: Tier| timers.iter().filter(|x| x.tier == t).collect::<Vec<_>>();
    // The lines crossing the tiers' headings: the folds' edges over the whole view, and the
    // selected request's path from "you" down to where it was served.
    let fold_edges: Vec<f64> =
        axis.folds.iter().flat_map(|(a, _)| [axis.x(*a as f64), axis.x(*a as f64) + FOLD_W]).collect();
    let path_x = path
        .as_ref()
        .map(|pth| pth.rv.filter(|r| *r >= w.lo && *r <= w.hi).map_or(head_x, |r| x(r as f64 + 0.5)));
    let through = |tier: PathTier| -> Vec<f64> {
        let on_path = path.as_ref().is_some_and(|pth| tier != PathTier::Etcd || pth.tier == PathTier::Etcd);
        fold_edges.iter().copied().chain(path_x.filter(|_| on_path)).collect()
    };
    let (heading, h) = tier_label(g, y, tr.t(K::SvClients), &of_tier(Tier::Clients), &on_more, &fold_edges);
    parts.push(heading);
    y += h;
    tops.push(y);
    let you_y = g.mid(y);
    parts.push(
        html! { <g class="row you" key="you">{ gutter_label(g, you_y, tr.t(K::SvYou), None, tr.t(K::SvYou)) }</g> },
    );
    if let Some(px) = path_x {
        path_points.push((px, you_y));
    }
    y += g.row_h();
    for inf in &v.informers {
        tops.push(y);
        let cy = g.mid(y);
        let sync = inf.last_sync_revision;
        let to = tr.f(K::SvToApiserver, &[&inf.apiserver]);
        // The flag's words beside it, meeting no line crossing the row (`picture::rows`).
        let crossing: Vec<f64> = fold_edges.iter().copied().chain(path_x).collect();
        let mut row = RowSpace::new(g, y, text_width(&format!("{} · {to}", inf.name)) + 12.0, &crossing);
        let flag = sync.filter(|r| *r >= w.lo && *r <= w.hi).map(|r| {
            let xf = x(r as f64 + 0.5);
            let text = tr.f(K::SvLastSync, &[&r]);
            let words = row.label((xf - 1.0, xf + 9.0), &text, &text_width);
            html! {
                <g class="mark last-sync" data-kind="last-sync" data-rv={r.to_string()}>
                    <title>{ tr.f(K::SvInformerTitle, &[&inf.name, &inf.state, &r]) }</title>
                    <line class="flag-pole" x1={f(xf)} x2={f(xf)} y1={f(cy - 8.0)} y2={f(cy + 8.0)} />
                    <path class="flag" d={format!("M{} {}l8 3l-8 3z", f(xf), f(cy - 8.0))} />
                    { placed_label("sync-label", &words, "last-sync") }
                </g>
            }
        });
        parts.push(html! {
            <g class="row informer" key={format!("inf-{}", inf.name)} data-informer={inf.name.clone()} data-apiserver={inf.apiserver.to_string()}>
                { gutter_label(g, cy, &inf.name, Some(&to), &tr.f(K::SvInformerRow, &[&inf.name, &inf.resource, &inf.apiserver])) }
                { for flag }
            </g>
        });
        y += row.h();
    }

    // Apiservers: a band per watch cache.
    let (heading, h) = tier_label(
        g,
        y,
        tr.t(K::SvApiservers),
        &of_tier(Tier::Apiservers),
        &on_more,
        &through(PathTier::WatchCache),
    );
    parts.push(heading);
    y += h;
    for a in &v.apiservers {
        let on_path =
            path.as_ref().is_some_and(|pth| pth.apiserver == a.number && pth.tier != PathTier::Etcd);
        if !a.watch_cache || m.caches.iter().all(|c| c.apiserver != a.number) {
            tops.push(y);
            let cy = g.mid(y);
            let text = if a.watch_cache { tr.t(K::SvNoCacheYet) } else { tr.t(K::SvCacheOff) };
            // The words at the start of the row's line, the line going on after them; where the
            // request's path or a fold's edge crosses them there, on the label line or under the
            // row (`picture::rows`), and the line is whole.
            let name = text_width(&tr.f(K::TlApiserver, &[&a.number]));
            let crossing: Vec<f64> = fold_edges.iter().copied().chain(path_x).collect();
            let mut row = RowSpace::new(g, y, name + 12.0, &crossing);
            let words = row.label((g.x0 - 6.0, g.x0 - 6.0), text, &text_width);
            let on_line = words.at == Where::Beside;
            let line_from = if on_line { (words.l + words.w + 6.0).min(g.x1) } else { g.x0 };
            let row_h = row.h();
            parts.push(html! {
                <g class="row apiserver" key={format!("as-{}", a.number)} data-apiserver={a.number.to_string()}>
                    <title>{ text.to_string() }</title>
                    { gutter_label(g, cy, &tr.f(K::TlApiserver, &[&a.number]), None, &tr.f(K::TlApiserver, &[&a.number])) }
                    <line class="off-line" x1={f(line_from)} x2={f(g.x1)} y1={f(cy)} y2={f(cy)} />
                    { placed_label("off-label", &words, "cache-window") }
                </g>
            });
            if path.as_ref().is_some_and(|pth| pth.apiserver == a.number)
                && let Some((px, _)) = path_points.first().copied()
            {
                path_points.push((px, cy));
            }
            y += row_h;
            continue;
        }
        for c in v.apiservers.iter().filter(|x| x.number == a.number).flat_map(|a| a.caches.iter()) {
            if !m.caches.iter().any(|b| b.apiserver == c.apiserver && b.resource == c.resource) {
                continue;
            }
            tops.push(y);
            let cy = g.mid(y);
            if !p.reduce {
                for (_, _, r) in
                    p.step.landed.iter().filter(|(a, res, r)| {
                        *a == c.apiserver && res == c.resource && *r >= w.lo && *r <= w.hi
                    })
                {
                    landings.push((*r, x(*r as f64 + 0.5), cy));
                }
            }
            let lo = c.oldest_startable_rv.max(w.lo);
            let hi = c.rv.min(w.hi);
            let (x1, x2) = (x(lo as f64), x(hi as f64 + 0.5));
            let text = if c.ready {
                tr.f(K::SvHistory, &[&c.oldest_startable_rv, &c.rv, &c.history_len, &c.capacity])
            } else {
                tr.t(K::TlCacheNotReady).to_string()
            };
            // Every label of the row meets no line (the request's path, the folds' edges), mark
            // or other label (`picture::rows`): the head's, then the band's (on it, else beside
            // it), then the lag's.
            let name = text_width(&format!("{} · {}", tr.f(K::TlApiserver, &[&c.apiserver]), c.resource));
            let crossing: Vec<f64> = fold_edges.iter().copied().chain(path_x).collect();
            let mut row = RowSpace::new(g, y, name + 12.0, &crossing);
            let head_label = {
                let t = tr.f(K::SvRv, &[&c.rv]);
                let tw2 = text_width(&t);
                let lx = x2 + 6.0;
                (c.rv >= v.revision && lx + tw2 <= g.x1 && row.lines.free(0, lx, lx + tw2)).then(|| {
                    row.put(lx, lx + tw2);
                    label("head-label", lx, cy + 4.0, t, "cache-window")
                })
            };
            let lagging = c.rv < v.revision && (c.in_flight > 0 || c.lag_ms > 0);
            let xa = x(c.rv as f64 + 0.5);
            if lagging {
                row.put(xa, head_x + 4.0);
            }
            let band_label = row.on_or_beside((x1, x2.max(x1 + 2.0)), &text, &text_width);
            // At most one snapshot tick per pixel (the newest there), drawn at that pixel and
            // keyed by it: a cache holds one snapshot per revision, and thousands of ticks on one
            // row would otherwise all be redrawn at every step as the scale moves.
            let mut last_px = i64::MIN;
            let snaps = c.snapshots.iter().rev().filter(|r| **r >= w.lo && **r <= w.hi).filter_map(|r| {
                let px = x(*r as f64 + 0.5).floor() as i64;
                let xs = px as f64 + 0.5;
                (std::mem::replace(&mut last_px, px) != px).then(|| html! { <line class="snapshot" key={px} data-kind="snapshot" data-rv={r.to_string()} x1={f(xs)} x2={f(xs)} y1={f(cy - 8.0)} y2={f(cy - 3.0)} /> })
            }).collect::<Vec<_>>().into_iter().rev();
            let lag = lagging.then(|| {
                let behind = v.revision - c.rv;
                let text = tr.f(K::SvLag, &[&behind, &duration_text(c.lag_ms)]);
                // Right of etcd's head; else on a phone on the row's label line right of the
                // row's name; else under the row.
                let placed = row.label((xa, head_x), &text, &text_width);
                let lx = Some((placed.l, placed.baseline));
                // Each response still on its way, at the newest revision it carries.
                let dots = c.in_flight_revs.iter().filter(|(r, _)| *r >= w.lo && *r <= w.hi).map(|(r, at)| {
                    let xd = x(*r as f64 + 0.5);
                    html! { <circle class="in-flight" data-kind="in-flight" data-rv={r.to_string()} data-due-ms={at.to_string()}
                        cx={f(xd)} cy={f(cy + 5.0)} r="3" /> }
                });
                html! {
                    <g class="lag" data-kind="lag" data-rv={v.revision.to_string()} data-behind={behind.to_string()} data-in-flight={c.in_flight.to_string()}>
                        <title>{ tr.f(K::SvLagTitle, &[&c.apiserver, &c.resource, &behind, &c.in_flight, &duration_text(c.lag_ms)]) }</title>
                        <line class="lag-line" x1={f(xa)} x2={f(head_x)} y1={f(cy + 5.0)} y2={f(cy + 5.0)} />
                        <g class="dots">{ for dots }</g>
                        { for lx.map(|(lx, ly)| label("lag-label", lx, ly, text.clone(), "lag")) }
                    </g>
                }
            });
            let row_h = row.h();
            if on_path
                && path.as_ref().is_some_and(|pth| pth.apiserver == c.apiserver)
                && path_points.len() == 1
            {
                let (px, _) = path_points[0];
                path_points.push((px, cy));
            }
            parts.push(html! {
                <g class="row cache" key={format!("cache-{}-{}", c.apiserver, c.resource)} data-kind="cache-window" data-apiserver={c.apiserver.to_string()} data-resource={c.resource.to_string()}
                    data-rv={c.rv.to_string()} data-from={c.oldest_startable_rv.to_string()} data-ready={c.ready.to_string()}>
                    <title>{ tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest_startable_rv, &c.rv]) }</title>
                    { gutter_label(g, cy, &tr.f(K::TlApiserver, &[&c.apiserver]), Some(c.resource), &tr.f(K::TlCacheRow, &[&c.apiserver, &c.resource])) }
                    // Always the same element (an empty window is 0 wide), so a step tweens it.
                    <rect class={classes!("band", (!c.ready).then_some("unready"))} x={f(x1)} y={f(cy - 9.0)}
                        width={f(if hi >= lo { (x2 - x1).max(2.0) } else { 0.0 })} height="18" rx="3" />
                    <g class="snaps">{ for snaps }</g>
                    <g>{ placed_label("band-label", &band_label, "cache-window") }</g>
                    <g>{ for head_label }</g>
                    <g>{ for lag }</g>
                </g>
            });
            y += row_h;
        }
        // When the timeline folds its watch rows: the watches on this apiserver, summed up: how many, how many ended (✕ with an ERROR,
        // ■ without), and where their cursors stand.
        let group: Vec<&crate::script::view::WatchView> =
            m.view.watches.iter().filter(|wr| wr.apiserver == a.number).collect();
        if m.view.watches.len() > super::timeline::MAX_WATCH_ROWS && !group.is_empty() {
            tops.push(y);
            let (rh, cy) = g.two_line_row(y);
            let errors = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_some())).count();
            let clean = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_none())).count();
            let first = tr.f(K::SvWatches, &[&group.len()]);
            let second = tr.f(K::TlFoldedEnds, &[&errors, &clean]);
            let title = tr.f(
                K::SvWatchesTitle,
                &[&a.number, &group.len(), &(group.len() - errors - clean), &errors, &clean],
            );
            parts.push(html! {
                <g class="row watches" key={format!("watches-{}", a.number)} data-kind="watch-summary" data-apiserver={a.number.to_string()} data-count={group.len().to_string()}
                    data-errors={errors.to_string()} data-clean={clean.to_string()}>
                    <title>{ title.clone() }</title>
                    { gutter_label(g, cy, &first, Some(&second), &title) }
                    { super::timeline::cursor_bars(tr, axis, cy, &group) }
                </g>
            });
            y += rh;
        }
        if path.as_ref().is_some_and(|pth| pth.apiserver == a.number && pth.tier == PathTier::Etcd)
            && path_points.len() == 1
        {
            let (px, _) = path_points[0];
            path_points.push((px, y - g.content_h() / 2.0));
        }
    }

    // etcd.
    let (heading, h) = tier_label(g, y, "etcd", &of_tier(Tier::Etcd), &on_more, &through(PathTier::Etcd));
    parts.push(heading);
    y += h;
    tops.push(y);
    let cy = g.mid(y);
    let tape_x1 = x(w.lo as f64);
    let zone = v.compacted.filter(|c| *c > w.lo).map(|c| {
        let xe = x(c as f64);
        html! { <rect class="zone hatched" data-kind="compacted-zone" data-rev={c.to_string()} x={f(g.x0)} y={f(cy - 9.0)} width={f(xe - g.x0)} height="18">
            <title>{ tr.f(K::TlCompacted, &[&c]) }</title></rect> }
    });
    // The head's words beside its ▼, meeting no line crossing the row (`picture::rows`).
    let head_text = tr.f(K::SvHead, &[&v.revision]);
    let crossing: Vec<f64> = fold_edges
        .iter()
        .copied()
        .chain(path_x.filter(|_| path.as_ref().is_some_and(|pth| pth.tier == PathTier::Etcd)))
        .collect();
    let mut row = RowSpace::new(g, y, text_width("etcd") + 12.0, &crossing);
    // The ▼ above the tape reaches up into the row's label line.
    row.lines.put(1, head_x - 6.0, head_x + 6.0);
    let etcd_label = row.label((head_x - 2.0, head_x + 2.0), &head_text, &text_width);
    let etcd_h = row.h();
    if path.as_ref().is_some_and(|pth| pth.tier == PathTier::Etcd)
        && let Some((px, _)) = path_points.first().copied()
    {
        path_points.push((px, cy));
    }
    parts.push(html! {
        <g class="row etcd" key="etcd" data-rev={v.revision.to_string()}>
            { gutter_label(g, cy, "etcd", None, "etcd") }
            <rect class="tape" x={f(tape_x1)} y={f(cy - 9.0)} width={f((head_x - tape_x1).max(2.0))} height="18" rx="2" />
            <g>{ for zone }</g>
            <path class="head" data-kind="head" data-rv={v.revision.to_string()} d={format!("M{} {}l-5 -7h10z", f(head_x), f(cy - 9.0))} />
            { placed_label("etcd-label", &etcd_label, "etcd") }
        </g>
    });
    y += etcd_h;
    // Each revision that reached a lagging cache this step rises from etcd to its band.
    let fresh = p.step.fresh();
    let landing_html = landings.iter().map(|(r, lx, ly)| {
        html! { <circle class={classes!("landing", fresh)} key={format!("land-{}-{r}-{}", p.step.n, f(*ly))} data-kind="arrival" data-rv={r.to_string()}
            cx={f(*lx)} cy={f(*ly)} r="3.5" style={format!("--rise:{}px", f(cy - ly))} /> }
    });

    let label_lines: Vec<(f64, f64)> =
        if g.stacked() { tops.iter().map(|t| (*t, t + g.label_line())).collect() } else { Vec::new() };
    // The selected request's path.
    let path_html = path.as_ref().filter(|_| path_points.len() >= 2).map(|pth| {
        // Straight down (every point at one x), leaving out the rows' label lines.
        let d: String = path_points
            .windows(2)
            .map(|p| super::timeline::vline(p[0].0, p[0].1, p[1].1, &label_lines))
            .collect();
        let (ex, ey) = path_points.last().copied().unwrap_or_default();
        let (_, sy) = path_points.first().copied().unwrap_or_default();
        // A new element each step, so its stages run again: the path is drawn from the client
        // down while a dot travels it, then the decision's mark pops in.
        html! {
            <g class={classes!("request-path", (!p.reduce).then_some(fresh))} key={format!("path-{}", p.step.n)} data-kind="request-path" data-path={pth.tier.as_str()} data-apiserver={pth.apiserver.to_string()}
                data-line={p.selected.map(|s| (s + 1).to_string())} data-rv={pth.rv.map(|r| r.to_string())}>
                <title>{ tr.f(K::SvPathTitle, &[&pth.apiserver, &tier_name(tr, pth.tier)]) }</title>
                <path class="path-line" {d} />
                if !p.reduce {
                    <circle class="path-dot" cx={f(ex)} cy={f(ey)} r="5" style={format!("--rise:{}px", f(sy - ey))} />
                }
                // Where it was decided, by shape too: ● the watch cache, ◆ a cache snapshot, ■ etcd.
                { match pth.tier {
                    PathTier::WatchCache => html! { <circle class="path-end" cx={f(ex)} cy={f(ey)} r="5" /> },
                    PathTier::CacheSnapshot => html! { <path class="path-end" d={format!("M{} {}l6 6l-6 6l-6 -6z", f(ex), f(ey - 6.0))} /> },
                    PathTier::Etcd => html! { <rect class="path-end" x={f(ex - 5.0)} y={f(ey - 5.0)} width="10" height="10" /> },
                } }
            </g>
        }
    });
    let height = y + 4.0;
    // The timeline's folds continue up through the actors (its axis holds their buttons).
    let fold_strips = axis.folds.iter().map(|(a, b)| {
        let xa = axis.x(*a as f64);
        html! { <g class="fold-under" data-from={a.to_string()} data-to={b.to_string()}>
            <rect class="fold-strip" x={f(xa)} y="0" width={f(FOLD_W)} height={f(height)} />
            <path class="fold-edge" d={format!("{}{}", super::timeline::vline(xa, 0.0, height, &label_lines), super::timeline::vline(xa + FOLD_W, 0.0, height, &label_lines))} />
        </g> }
    });
    let aria = match &path {
        Some(pth) => tr.f(K::SvAria, &[&v.apiservers.len(), &v.revision, &tier_name(tr, pth.tier)]),
        None => tr.f(K::SvAriaNoPath, &[&v.apiservers.len(), &v.revision]),
    };
    // The Why strip: the rule that decided the selected line, rendered from its typed `why`.
    let (rule, outcome) = match p.selected_why.as_deref() {
        Some(OutputWhy::Request(w)) => (Some(w.rule.id()), w.outcome.map(|o| o.id())),
        Some(OutputWhy::Ended(_) | OutputWhy::Setting(_) | OutputWhy::Etcd(_)) | None => (None, None),
    };
    let why_text = p.selected_why.as_deref().map(|w| crate::script::why::render(w, super::why::lang(tr)));
    let strip = why_text.map(|t| html! {
        <p id="sv-why" class={classes!("sv-why", "small", (!p.reduce).then_some(fresh))} data-rule={rule.clone()} data-outcome={outcome.clone()}
            data-path={path.as_ref().map(|pth| pth.tier.as_str())} data-line={p.selected.map(|s| (s + 1).to_string())}>
            if let Some(r) = rule.clone() { <code class="rule-chip">{ r }</code>{ " " } }
            if let Some(o) = outcome.clone() { { "→ " }<code class="rule-chip outcome">{ o }</code>{ " " } }
            { t }
        </p>
    });
    html! {
        <div class="tl-wrap sv-wrap">
            <svg id="system-view" class="timeline system" role="img" aria-label={aria}
                width={f(g.width)} height={f(height)} viewBox={format!("0 0 {} {}", f(g.width), f(height))}
                data-lo={w.lo.to_string()} data-hi={w.hi.to_string()} data-x0={f(g.x0)} data-x1={f(g.x1)} data-folds={axis.folds_attr()}>
                { hatch_defs() }
                <g class="fold-strips" aria-hidden="true">{ for fold_strips }</g>
                <g class="rows">{ for parts }</g>
                <g class="landings">{ for landing_html }</g>
                { for path_html }
            </svg>
            { for strip }
        </div>
    }
}

fn tier_name(tr: Tr, t: PathTier) -> String {
    match t {
        PathTier::WatchCache => tr.t(K::SvPathCache).to_string(),
        PathTier::CacheSnapshot => tr.t(K::SvPathSnapshot).to_string(),
        PathTier::Etcd => "etcd".to_string(),
    }
}

/// A tier's `heading` and its timer chips (a clock whose arc is the part of the period left, and
/// the text) flowed from the left on the line at `top`, then on more lines
/// (`picture::chips::flow_chips`): none overlaps, none meets a `crossing` line, none is cut off,
/// no line of a wrapped chip starts with a comma. The chip counting the timers not shown opens
/// them (`on_more`). Returns where the heading goes, the chips' drawing and the lines used.
fn timer_chips(
    g: Geom,
    heading: &str,
    top: f64,
    timers: &[&Timer],
    on_more: &Callback<()>,
    crossing: &[f64],
) -> (ChipAt, Html, f64) {
    // The heading flows first, like a chip without a clock (so no crossing line meets it either).
    let chips: Vec<Chip> = std::iter::once(Chip { text: heading.to_string(), clock: false })
        .chain(timers.iter().map(|t| Chip { text: t.text.clone(), clock: !t.owner.is_empty() }))
        .collect();
    let (mut placed, used) = flow_chips(&chips, 6.0, (6.0, g.width - 6.0), crossing, &text_width);
    let head = placed.remove(0);
    let drawn = timers.iter().zip(&placed).map(|(tm, at)| {
        let counted = tm.owner.is_empty();
        let cx = at.x;
        let cy = top + at.line as f64 * CHIP_LINE + 9.0;
        let arc = tm.period_ms.filter(|p| *p > 0).map(|p| {
            let frac = (tm.in_ms as f64 / p as f64).clamp(0.0, 1.0);
            let circ = 2.0 * std::f64::consts::PI * 6.0;
            format!("{} {}", f(frac * circ), f(circ))
        });
        let texts = at.lines.iter().enumerate().map(|(i, l)| {
            label("timer-label", at.text_x(!counted), cy + 4.0 + i as f64 * CHIP_LINE, l.clone(), "timer")
        });
        let onclick = counted.then(|| on_more.reform(|_: MouseEvent| ()));
        let onkeydown = counted.then(|| {
            let more = on_more.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    more.emit(());
                }
            })
        });
        html! {
            <g class={classes!("timer", counted.then_some("more"))} data-kind={(!counted).then_some("timer")} data-timer={(!counted).then(|| tm.kind.as_str())}
                data-owner={(!counted).then(|| tm.owner.clone())} data-due-ms={(!counted).then(|| tm.due_ms.to_string())}
                data-in-ms={(!counted).then(|| tm.in_ms.to_string())}
                role={counted.then_some("button")} tabindex={counted.then_some("0")} {onclick} {onkeydown}>
                <title>{ tm.text.clone() }</title>
                if counted {
                    <rect class="hit" x={f(cx)} y={f(cy - 10.0)} width={f(at.w.max(24.0))} height="20" />
                } else {
                    <circle class="clock" cx={f(cx + 7.0)} cy={f(cy)} r="6" />
                    if let Some(a) = arc {
                        <circle class="clock-arc" cx={f(cx + 7.0)} cy={f(cy)} r="6" stroke-dasharray={a}
                            transform={format!("rotate(-90 {} {})", f(cx + 7.0), f(cy))} />
                    }
                    <path class="clock-hand" d={format!("M{} {}v-4M{} {}h3", f(cx + 7.0), f(cy), f(cx + 7.0), f(cy))} />
                }
                { for texts }
            </g>
        }
    });
    (head, html! { <g class="timers">{ for drawn }</g> }, used as f64)
}
