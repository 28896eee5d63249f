//! The reads row of the timeline, drawn from [`crate::ui::picture::reads`]'s layout: every list
//! (◆), continue token (`p2` chip, hollow `p3~` at the head) and refusal (✕ `410`) on its
//! revision's slot, and for marks that do not fit a "+N" mark that opens the row (it then takes
//! as many lines as its marks need) — never a mark left out.

use yew::prelude::*;

use super::{Mark, MarkKind, Model, PictureProps, end_glyph, f, gutter_label, hit, sel_ring, text_width};
use crate::ui::i18n::{K, Tr};
use crate::ui::picture::reads::{READ_LINES, chip_text, layout_reads, overflow_width};

/// The reads row at `y`, and its height; None when the window holds no read. `open`: the
/// learner opened it ("+N"), `on_toggle` opens or closes it.
pub fn reads_row(
    tr: Tr,
    m: &Model,
    axis: &super::Axis,
    y: f64,
    p: &PictureProps,
    open: bool,
    on_toggle: Callback<()>,
) -> Option<(Html, f64)> {
    let w = m.window;
    let g = axis.g;
    let reads: Vec<Mark> = m.marks.iter().filter(|mk| mk.rv >= w.lo && mk.rv <= w.hi).cloned().collect();
    if reads.is_empty() {
        return None;
    }
    let slot = |rv: i64| axis.slot(rv);
    let closed = layout_reads(&reads, &slot, &text_width, (g.x0, g.x1), Some(READ_LINES));
    let crowded = !closed.overflow.is_empty();
    let lay =
        if open && crowded { layout_reads(&reads, &slot, &text_width, (g.x0, g.x1), None) } else { closed };
    let change = &*p.step;
    let fresh = change.fresh();
    let line_y = |line: usize| g.mid(y) + line as f64 * g.content_h();
    // The marks' one Tab stop starts on the leftmost ("+N" marks included).
    let first = lay
        .placed
        .iter()
        .map(|pl| (pl.l, false, pl.mark))
        .chain(lay.overflow.iter().enumerate().map(|(i, o)| (o.l, true, i)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, more, i)| (more, i));
    let stop = |more: bool, i: usize| if first == Some((more, i)) { "0" } else { "-1" };
    let mut shapes: Vec<Html> = Vec::new();
    for pl in &lay.placed {
        let mk = &reads[pl.mark];
        let (cx, cy) = (pl.cx(), line_y(pl.line));
        let half = (pl.r - pl.l) / 2.0;
        let entry = mk.entry;
        let hl = p.selected == Some(entry) || p.hovered == Some(entry);
        let onclick = p.on_select.reform(move |_: MouseEvent| entry);
        let onmouseenter = p.on_hover.reform(move |_: MouseEvent| Some(entry));
        let onmouseleave = p.on_hover.reform(|_: MouseEvent| None);
        let (title, shape) = match (mk.kind, chip_text(mk.kind)) {
            (MarkKind::Token { page, latest }, Some(t)) => (
                if latest {
                    tr.f(K::TlTokenLatest, &[&(entry + 1), &page])
                } else {
                    tr.f(K::TlTokenAt, &[&(entry + 1), &mk.rv, &page])
                },
                html! { <>
                    <rect class={classes!("chip", latest.then_some("hollow"))} x={f(pl.l)} y={f(cy - 9.0)} width={f(2.0 * half)} height="18" rx="9" />
                    <text class="chip-text" x={f(cx)} y={f(cy + 4.0)} data-label-for="continue-token" data-w={f(2.0 * half - 10.0)}>{ t }</text>
                </> },
            ),
            (MarkKind::Refused { code }, Some(t)) => (
                tr.f(K::TlRefusedAt, &[&(entry + 1), &code, &mk.rv]),
                html! { <>
                    { end_glyph(true, pl.l + 7.0, cy) }
                    <text class="refused-text" x={f(pl.l + 18.0)} y={f(cy + 4.0)} data-label-for="request-error">{ t }</text>
                </> },
            ),
            // A token or refusal always has its chip text; were it without, a diamond still
            // marks the read.
            (MarkKind::List, _) | (MarkKind::Token { .. } | MarkKind::Refused { .. }, None) => (
                tr.f(K::TlListAt, &[&(entry + 1), &mk.rv]),
                html! { <path class="diamond" d={format!("M{} {}l6 6l-6 6l-6 -6z", f(cx), f(cy - 6.0))} /> },
            ),
        };
        let class = match mk.kind {
            MarkKind::List => "list",
            MarkKind::Refused { .. } => "refused",
            MarkKind::Token { .. } => "token",
        };
        let new = change.marks.contains(&(entry, mk.rv)).then_some(fresh);
        // `data-x` is the revision's place on the axis; the glyph sits on that slot, beside
        // the other reads of the same revision when they share it.
        let anchor = axis.x(mk.rv as f64 + 0.5);
        shapes.push(html! {
            <g class={classes!("mark", class, hl.then_some("hl"), new)} data-kind={mk.kind.data_kind()} data-rv={mk.rv.to_string()} data-line={(entry + 1).to_string()}
                data-x={f(anchor)} data-cx={f(cx)} data-cy={f(cy)} data-nav="" tabindex={stop(false, pl.mark)} role="button" aria-label={title.clone()} {onclick} {onmouseenter} {onmouseleave}>
                <title>{ title }</title>
                { hit(cx, cy) }
                { for hl.then(|| sel_ring(pl.l - 3.0, cy - 12.0, 2.0 * half + 6.0, 24.0)) }
                { shape }
            </g>
        });
    }
    for (i, o) in lay.overflow.iter().enumerate() {
        let cy = line_y(o.line);
        let lines: Vec<String> = o.marks.iter().map(|i| (reads[*i].entry + 1).to_string()).collect();
        let title = tr.f(K::TlMoreReads, &[&o.marks.len(), &lines.join(", ")]);
        shapes.push(overflow_chip(
            &o.text,
            (o.l, o.r, cy),
            (o.lo, o.hi),
            o.marks.len(),
            &title,
            stop(true, i),
            on_toggle.clone(),
        ));
    }
    if open && crowded {
        // Opened: a "−" on a line of its own closes it again.
        let line = lay.lines;
        let text = "−".to_string();
        let wd = overflow_width(&text, &text_width);
        let cy = line_y(line);
        let title = tr.t(K::TlFewerReads).to_string();
        shapes.push(overflow_chip(&text, (g.x1 - wd, g.x1, cy), (w.lo, w.hi), 0, &title, "-1", on_toggle));
    }
    let lines = lay.lines + usize::from(open && crowded);
    let h = g.row_h() + (lines.saturating_sub(1)) as f64 * g.content_h();
    let html = html! { <g class="row reads" key="reads" data-lines={lines.to_string()} data-open={open.to_string()}>
        { gutter_label(g, g.mid(y), tr.t(K::TlReads), None, tr.t(K::TlReads)) }
        { for shapes }
    </g> };
    Some((html, h))
}

/// A "+N" mark (or the "−" that closes the opened row): a button on the row, focusable, that
/// opens the marks it counts.
fn overflow_chip(
    text: &str,
    (l, r, cy): (f64, f64, f64),
    (lo, hi): (i64, i64),
    count: usize,
    title: &str,
    tabindex: &'static str,
    on_toggle: Callback<()>,
) -> Html {
    // The "−" of an opened row counts nothing.
    let opened = count == 0;
    let onclick = on_toggle.reform(|_: MouseEvent| ());
    let cx = (l + r) / 2.0;
    html! {
        <g class={classes!("mark", "overflow", opened.then_some("opened"))} data-kind={if opened { "overflow-close" } else { "overflow" }} data-rv={lo.to_string()} data-to={hi.to_string()}
            data-count={count.to_string()} data-x={f(cx)} data-cy={f(cy)} data-nav="" {tabindex} role="button" aria-expanded={opened.to_string()} aria-label={title.to_string()} {onclick}>
            <title>{ title.to_string() }</title>
            <rect class="hit" x={f(cx - (r - l).max(24.0) / 2.0)} y={f(cy - 12.0)} width={f((r - l).max(24.0))} height="24" />
            <rect class="more-pill" x={f(l)} y={f(cy - 9.0)} width={f(r - l)} height="18" rx="9" />
            <text class="more-text" x={f(cx)} y={f(cy + 4.0)} data-label-for="overflow">{ text.to_string() }</text>
        </g>
    }
}
