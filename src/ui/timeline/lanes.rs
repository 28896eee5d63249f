//! The key lanes of the timeline: one per key with a bar per version and a ✕ per delete (per-
//! column counts when too many to draw one by one), and, for the keys beyond [`MAX_LANES`], one
//! folded lane of per-column counts: a button that gives each key it counts its lane
//! (`picture::lanes::key_lanes`).

#[allow(unused_imports)]
use super::*;
use crate::ui::picture::lanes::key_lanes;

/// Draws the key lanes from `y` down (moving it), appending them to `parts` and each lane's top
/// to `tops`. `keys_open`: the learner opened the fold (pressing it sets it).
pub(super) fn draw(
    tr: Tr,
    m: &Model,
    axis: &Axis,
    keys_open: &UseStateHandle<bool>,
    y: &mut f64,
    tops: &mut Vec<f64>,
    parts: &mut Vec<Html>,
) {
    let g = axis.g;
    // Which keys get a lane and which the fold counts (`picture::lanes`), then where each lane
    // and its label go: the keys, then the fold.
    // (The model holds the folded keys' lanes only once they are opened: it counts them.)
    let keys: Vec<&Lane> = m.lanes.iter().chain(&m.more_lanes).collect();
    let plan = key_lanes(m.lanes.len() + m.more_keys, **keys_open);
    let drawn: Vec<&Lane> = plan.drawn.iter().filter_map(|i| keys.get(*i).copied()).collect();
    let folded = plan.folded.len();
    let more = (folded > 0).then(|| tr.f(K::TlMoreKeys, &[&folded]));
    let names: Vec<(&str, bool)> =
        drawn.iter().map(|l| (l.short.as_str(), true)).chain(more.as_deref().map(|t| (t, false))).collect();
    let (laid, h) = crate::ui::picture::lanes::lanes(g, *y, &names, &text_width);
    tops.extend(laid.iter().map(|l| l.top));
    for (lane, at) in drawn.iter().zip(&laid) {
        parts.push(key_lane(tr, m, axis, lane, at));
    }
    if let (Some(l), Some(at)) = (more, laid.get(drawn.len())) {
        // Shut, the fold holds exactly the keys the model counts beyond the lanes.
        let title = tr.f(K::TlMoreKeysOpen, &[&folded, &m.more_changes]);
        // A button (a click, or Enter/Space through the marks' keyboard) that gives each key it
        // counts its lane; its hit area is the whole lane.
        let open = keys_open.clone();
        let onclick = Callback::from(move |_: MouseEvent| open.set(true));
        let cy = at.bar.t - 4.0 + LANE_H / 2.0;
        parts.push(html! {
            <g class="lane more" key="more-keys" id="tl-more" data-kind="key-fold" data-count={folded.to_string()}
                data-x={f(g.x0)} data-cy={f(cy)} data-nav="" tabindex="-1" role="button" aria-expanded="false" aria-label={title.clone()} {onclick}>
                <rect class="hit" x="0" y={f(at.top)} width={f(g.x1)} height={f(g.lane_h())} />
                { lane_label(g, &at.label, &title) }
                { buckets(tr, &l, &m.more, axis, at.bar.t - 4.0) }
            </g>
        });
    }
    *y += h;
}

/// One key's lane: its label and its bars and ✕s (or per-column counts).
fn key_lane(tr: Tr, m: &Model, axis: &Axis, lane: &Lane, at: &crate::ui::picture::lanes::LaneAt) -> Html {
    let g = axis.g;
    let x = |rev: f64| axis.x(rev);
    let clamp = |v: f64| v.clamp(g.x0, g.x1);
    let top = at.bar.t - 4.0;
    let body = match &lane.body {
        LaneBody::Segs { segs, tombs } => {
            let bars = segs.iter().map(|s| {
                let x1 = clamp(x(s.start as f64));
                let x2 = clamp(x(s.end as f64));
                let end_label = if s.open { tr.f(K::TlNow, &[&m.current]) } else { (s.end - 1).to_string() };
                let title = tr.f(K::TlVersion, &[&lane.key, &s.start, &end_label, &s.create, &s.version]);
                html! {
                    <rect class={classes!("seg", if s.version % 2 == 0 { "even" } else { "odd" }, s.open.then_some("open"))}
                        data-rev={s.start.to_string()} data-version={s.version.to_string()}
                        x={f(x1)} y={f(top + 4.0)} width={f((x2 - x1).max(1.0))} height={f(LANE_H - 8.0)} rx="2">
                        <title>{ title }</title>
                    </rect>
                }
            });
            let crosses = tombs.iter().map(|t| {
                let xt = x(*t as f64 + 0.5);
                let r = 5.0;
                let cy = top + LANE_H / 2.0;
                let d = format!("M{} {}L{} {}M{} {}L{} {}", f(xt - r), f(cy - r), f(xt + r), f(cy + r), f(xt - r), f(cy + r), f(xt + r), f(cy - r));
                html! { <path class="tomb" data-rev={t.to_string()} {d}><title>{ tr.f(K::TlTombstone, &[&lane.key, t]) }</title></path> }
            });
            html! { <>{ for bars }{ for crosses }</> }
        }
        LaneBody::Buckets(b) => buckets(tr, &lane.key, b, axis, top),
    };
    html! {
        <g class="lane" key={format!("lane-{}", lane.key)} data-key={lane.key.clone()}>
            { lane_label(g, &at.label, &lane.key) }
            { body }
        </g>
    }
}

/// A key lane's label where `picture::lanes` put it (cut with "…" if it had to be; its title
/// says it whole).
fn lane_label(g: Geom, l: &crate::ui::picture::rows::Label, title: &str) -> Html {
    html! {
        <text class={classes!("row-label", "lane-label", g.stacked().then_some("above"))} x={f(l.l)} y={f(l.baseline)} data-label-for="row">{ l.text.clone() }<title>{ title.to_string() }</title></text>
    }
}

fn buckets(tr: Tr, key: &str, b: &[u32], axis: &Axis, y: f64) -> Html {
    let w = axis.w;
    let max = b.iter().copied().max().unwrap_or(1).max(1) as f64;
    let cols = b.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| {
        let lo = w.lo + (i as i64 * w.span()) / BUCKETS as i64;
        let hi = (w.lo + ((i as i64 + 1) * w.span()) / BUCKETS as i64 - 1).max(lo);
        let (x1, x2) = (axis.x(lo as f64), axis.x(hi as f64 + 1.0));
        let op = 0.3 + 0.7 * (*n as f64 / max);
        html! {
            <rect class="bucket" x={f(x1)} y={f(y + 4.0)} width={f((x2 - x1).max(1.0))} height={f(LANE_H - 8.0)}
                style={format!("opacity:{}", f(op))}><title>{ tr.f(K::TlAggregate, &[&key, n, &lo, &hi]) }</title></rect>
        }
    });
    html! { <g class="dense">{ for cols }</g> }
}
