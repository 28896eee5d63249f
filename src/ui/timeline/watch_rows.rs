//! The watch rows of the timeline: one per watch (○ start, frame ticks, ◇ bookmarks, ▶ cursor,
//! the end mark with its cause in words, the buffer of a paused consumer); beyond
//! [`MAX_WATCH_ROWS`], one summary row per apiserver with a cursor histogram, a button that
//! opens the watches it counts (`picture::watches`).

#[allow(unused_imports)]
use super::*;

/// Draws the watch rows from `y` down (moving it), appending them to `parts`.
/// `crossing`: the x of each line crossing every row (the compaction boundary, the folds' edges);
/// each row's top is pushed on `tops`. The summaries of the apiservers in `opened` are shown
/// as rows; pressing a summary emits its apiserver on `on_open`.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw(
    tr: Tr,
    m: &Model,
    axis: &Axis,
    p: &PictureProps,
    crossing: &[f64],
    (opened, on_open): (&[usize], &Callback<usize>),
    (y, tops): (&mut f64, &mut Vec<f64>),
    parts: &mut Vec<Html>,
) {
    let w = m.window;
    let g = axis.g;
    let x = |rev: f64| axis.x(rev);
    let clamp = |v: f64| v.clamp(g.x0, g.x1);
    let mark_attrs = |entry: usize| {
        let hl = p.selected == Some(entry) || p.hovered == Some(entry);
        let onclick = p.on_select.reform(move |_: MouseEvent| entry);
        let onmouseenter = p.on_hover.reform(move |_: MouseEvent| Some(entry));
        let onmouseleave = p.on_hover.reform(|_: MouseEvent| None);
        (hl, onclick, onmouseenter, onmouseleave)
    };
    let change = &*p.step;
    let fresh = change.fresh();
    // Watches: one row each; beyond [`MAX_WATCH_ROWS`], the first few and one summary row per
    // apiserver for the rest, until it is opened.
    let on: Vec<usize> = m.view.watches.iter().map(|w| w.apiserver).collect();
    let plan = crate::ui::picture::watches::watch_rows(&on, opened);
    for wr in plan.rows.iter().filter_map(|i| m.view.watches.get(*i)) {
        tops.push(*y);
        let cy = g.mid(*y);
        let row_name =
            fit(&format!("{} · {}", wr.id, tr.f(K::TlApiserver, &[&wr.apiserver])), g.x1 - g.x0, false);
        let in_w = |r: i64| r >= w.lo && r <= w.hi;
        let from = wr.start.unwrap_or(w.lo - 1);
        let to = wr.end.as_ref().map(|e| e.rv).or(wr.read.last_rv).unwrap_or(m.current);
        let xa = clamp(x(from as f64 + 1.0));
        let xb = clamp(x(to as f64 + 0.5));
        let (hl, onclick, onmouseenter, onmouseleave) = mark_attrs(wr.line.saturating_sub(1));
        let start = wr.start.filter(|r| in_w(*r)).map(|r| {
            let xs = x(r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "watch-start", change.started.contains(&wr.id).then_some(fresh))} data-kind="watch-start" data-rv={r.to_string()} data-line={wr.line.to_string()} data-apiserver={wr.apiserver.to_string()}>
                    <title>{ tr.f(K::TlWatchStart, &[&wr.id, &r]) }</title>
                    { hit(xs, cy) }
                    <circle cx={f(xs)} cy={f(cy)} r="5" />
                </g>
            }
        });
        let ticks = wr.events().filter(|r| in_w(*r)).map(|r| {
            let xt = x(r as f64 + 0.5);
            html! { <line class={classes!("frame", change.new_frame(&wr.id, r).then_some(fresh))} x1={f(xt)} x2={f(xt)} y1={f(cy - 6.0)} y2={f(cy + 6.0)} /> }
        });
        let bookmarks = wr.bookmarks().filter(|r| in_w(*r)).map(|r| {
            let xb = x(r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "bookmark", change.new_frame(&wr.id, r).then_some(fresh))} data-kind="bookmark" data-rv={r.to_string()} data-line={wr.line.to_string()}>
                    <title>{ tr.f(K::TlBookmark, &[&wr.id, &r]) }</title>
                    { hit(xb, cy) }
                    <path d={format!("M{} {}l5 5l-5 5l-5 -5z", f(xb), f(cy - 5.0))} />
                </g>
            }
        });
        let cursor = wr.read.last_rv.filter(|r| in_w(*r) && wr.end.is_none()).map(|r| {
            let xc = x(r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "watch", hl.then_some("hl"))} data-kind="watch-frame" data-rv={r.to_string()} data-line={wr.line.to_string()} data-x={f(xc)} data-cy={f(cy)} data-nav="" tabindex="-1" role="button"
                    onclick={onclick.clone()} onmouseenter={onmouseenter.clone()} onmouseleave={onmouseleave.clone()}>
                    <title>{ tr.f(K::TlWatchAt, &[&wr.id, &r]) }</title>
                    { hit(xc, cy) }
                    { for hl.then(|| sel_ring(xc - 9.0, cy - 9.0, 18.0, 18.0)) }
                    <path d={format!("M{} {}l8 5l-8 5z", f(xc - 3.0), f(cy - 5.0))} />
                </g>
            }
        });
        // Where the end's label and the buffer's text go: beside their mark, meeting no line,
        // mark or other label (`picture::rows`).
        let ended = wr.end.as_ref().map(|e| (e, clamp(x(e.rv as f64 + 0.5)), end_text(tr, e)));
        let ehl = ended.as_ref().is_some_and(|(e, _, _)| {
            p.selected == Some(e.line.saturating_sub(1)) || p.hovered == Some(e.line.saturating_sub(1))
        });
        // The selected line's labels are bold: measured so.
        let measure = |t: &str| if ehl { bold_width(t) } else { text_width(t) };
        let mark_xs: Vec<f64> = wr
            .start
            .filter(|r| in_w(*r))
            .into_iter()
            .chain(wr.events().chain(wr.bookmarks()).filter(|r| in_w(*r)))
            .chain(wr.read.last_rv.filter(|r| in_w(*r) && wr.end.is_none()))
            .map(|r| x(r as f64 + 0.5))
            .collect();
        let (buffered, buffer_limit) = wr.buffered();
        let buffer_text = (wr.end.is_none() && wr.held() && buffer_limit > 0)
            .then(|| tr.f(K::TlBuffer, &[&buffered, &buffer_limit]));
        let input = super::super::picture::rows::WatchIn {
            bar: (xa, xb.max(xa)),
            marks: mark_xs,
            end: ended.as_ref().map(|(_, xe, (_, text))| (*xe, text.clone())),
            buffer: buffer_text,
        };
        let laid = super::super::picture::rows::watch_row(
            g,
            *y,
            text_width(&row_name) + 12.0,
            crossing,
            &input,
            &measure,
        );
        let end = ended.map(|(e, xe, (error, text))| {
            let (_, eclick, eenter, eleave) = mark_attrs(e.line.saturating_sub(1));
            let lbl = laid.end.clone();
            html! {
                <g class={classes!("mark", "watch-end", if error { "error" } else { "clean" }, ehl.then_some("hl"), change.ended.contains(&wr.id).then_some(fresh))} data-kind="watch-end"
                    data-cause={e.cause.and_then(cause_name)} data-code={e.code.map(|c| c.to_string())}
                    data-apiserver={wr.apiserver.to_string()} data-rv={e.rv.to_string()} data-line={e.line.to_string()}
                    data-cx={f(xe)} data-cy={f(cy)} data-nav="" tabindex="-1" role="button" onclick={eclick} onmouseenter={eenter} onmouseleave={eleave}>
                    <title>{ tr.f(K::TlWatchEnded, &[&wr.id, &text]) }</title>
                    { hit(xe, cy) }
                    { for ehl.then(|| sel_ring(xe - 9.0, cy - 9.0, 18.0, 18.0)) }
                    { end_glyph(error, xe, cy) }
                    { for lbl.map(|l| placed_label("end-label", &l, "watch-end")) }
                </g>
            }
        });
        let buffer = laid.buffer.as_ref().map(|l| placed_label("buffer-label", l, "buffer"));
        parts.push(html! {
            <g class="row watch-row" key={format!("watch-{}", wr.id)} data-watch={wr.id.clone()} data-apiserver={wr.apiserver.to_string()} data-resource={wr.resource}>
                { gutter_label_as("watch-label", g, cy, &wr.id, Some(&tr.f(K::TlApiserver, &[&wr.apiserver])), &tr.f(K::TlWatchRow, &[&wr.id, &wr.apiserver, &wr.resource])) }
                <line class={classes!("bar", wr.end.is_some().then_some("ended"))} x1={f(xa)} x2={f(xb.max(xa))} y1={f(cy)} y2={f(cy)} />
                <g class="frames">{ for ticks }</g>
                <g>{ for start }</g>
                <g class="bookmarks">{ for bookmarks }</g>
                <g>{ for cursor }</g>
                <g>{ for end }</g>
                <g>{ for buffer }</g>
            </g>
        });
        *y += laid.h;
    }
    for fold in &plan.folds {
        let n = fold.apiserver;
        let group: Vec<&WatchView> = fold.watches.iter().filter_map(|i| m.view.watches.get(*i)).collect();
        let errors = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_some())).count();
        let clean = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_none())).count();
        tops.push(*y);
        let (rh, cy) = g.two_line_row(*y);
        let bars = cursor_bars(tr, axis, cy, &group);
        let first = tr.f(K::TlMoreWatchesOn, &[&group.len()]);
        let second = tr.f(K::TlApiserver, &[&n]);
        let title = tr.f(K::TlMoreWatches, &[&group.len(), &errors, &clean, &n]);
        let ends = (errors + clean > 0).then(|| tr.f(K::TlFoldedEnds, &[&errors, &clean]));
        let second = match &ends {
            Some(e) => format!("{second} · {e}"),
            None => second,
        };
        // A button (a click, or Enter/Space through the marks' keyboard) that gives each watch
        // it counts its row; its hit area is the whole row.
        let onclick = on_open.reform(move |_: MouseEvent| n);
        parts.push(html! {
            <g class="row watch-row more" key={format!("fold-{n}")} data-kind="watch-summary" data-apiserver={n.to_string()} data-count={group.len().to_string()}
                data-errors={errors.to_string()} data-clean={clean.to_string()}
                data-x={f(g.x0)} data-cy={f(cy)} data-nav="" tabindex="-1" role="button" aria-expanded="false" aria-label={title.clone()} {onclick}>
                <rect class="hit" x="0" y={f(*y)} width={f(g.x1)} height={f(rh)} />
                { gutter_label(g, cy, &first, Some(&second), &title) }
                { bars }
            </g>
        });
        *y += rh;
    }
}
