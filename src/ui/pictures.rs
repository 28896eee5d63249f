//! The pictures panel (`#timeline`): the window controls (from/to, earlier/later, zoom), the
//! system view ([`super::system`]) over the revision timeline ([`super::timeline`]), both drawn
//! from one [`Model`] for the sandbox at the scrubber at the width the panel has, the legend and
//! the text table.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::state::{Action, HoverHandle, LabHandle};
use super::system::SystemView;
use super::timeline::{Axis, LaneBody, MarkKind, Model, Picture, Step, Window, build};

fn input_i64(e: &Event) -> Option<i64> {
    e.target_unchecked_into::<web_sys::HtmlInputElement>().value().trim().parse().ok()
}

/// Measures `node`'s width now and whenever it changes (a ResizeObserver: the window, a lesson
/// panel opening, an embed's frame). A width that grows by less than a scrollbar is ignored, so a
/// scrollbar that the picture's own height brings and takes away cannot make it oscillate.
#[hook]
pub fn use_width(node: NodeRef) -> f64 {
    let width = use_state(|| 0.0_f64);
    let current = use_mut_ref(|| 0.0_f64);
    {
        let width = width.clone();
        use_effect_with((), move |_| {
            let node2 = node.clone();
            let measure = move || {
                // Unchecked: an element of another document (an iframe the app was mounted
                // in) fails the `instanceof Element` check of a checked cast.
                if let Some(el) = node2.get().map(|n| n.unchecked_into::<web_sys::Element>()) {
                    let w = f64::from(el.client_width());
                    let old = *current.borrow();
                    if w > 0.0 && (old == 0.0 || w < old - 0.5 || w > old + 20.0) {
                        *current.borrow_mut() = w;
                        width.set(w);
                    }
                }
            };
            measure();
            let el = node.get().map(|n| n.unchecked_into::<web_sys::Element>());
            let cb = Closure::<dyn Fn()>::new(measure);
            let ro = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok();
            if let (Some(ro), Some(el)) = (&ro, &el) {
                ro.observe(el);
            }
            move || {
                if let Some(ro) = ro {
                    ro.disconnect();
                }
                drop(cb);
            }
        });
    }
    if *width > 0.0 { *width } else { 900.0 }
}

#[derive(Properties, PartialEq)]
pub struct PicturesProps {
    /// Reduced motion (`prefers-reduced-motion` or `?motion=reduce`): each step's end state is
    /// drawn at once, nothing travels or tweens (`data-motion="reduce"` on `.pictures`).
    #[prop_or_default]
    pub reduce_motion: bool,
}

/// The timeline panel: window controls, the system view and the picture of the sandbox at the
/// scrubber. Each new picture (a scrubber step, a new line, a Play tick) is drawn as a [`Step`]
/// from the one before.
#[function_component(Pictures)]
pub fn pictures(props: &PicturesProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let hover = use_context::<HoverHandle>();
    let window = use_state(|| None::<Window>);
    let node = use_node_ref();
    let width = use_width(node.clone());
    // The previous picture: what it was built from, its model and its step.
    type Built = ((u64, usize, Option<Window>), Rc<Model>, Rc<Step>);
    let prev = use_mut_ref(|| None::<Built>);
    // The learner opened the keys folded beyond the lane limit, or the table equivalent: only
    // then does the model hold every key's lane.
    let keys_open = use_state(|| false);
    let table_open = use_state(|| false);
    let every_lane = *keys_open || *table_open;
    let built = {
        let lab = lab.clone();
        use_memo((lab.stamp, lab.at, *window, every_lane), move |&(stamp, at, win, every_lane)| {
            let model = Rc::new(build(&lab.session(), lab.visible(), win, every_lane));
            let mut prev = prev.borrow_mut();
            let of = (stamp, at, win);
            // The same picture with the folded keys' lanes added or dropped is no step: nothing
            // replays.
            let step = match prev.as_ref() {
                Some((was, _, step)) if *was == of => step.clone(),
                p => {
                    let n = p.map_or(0, |(_, _, s)| s.n + 1);
                    Rc::new(Step::between(p.map(|(_, m, _)| &**m), &model, n))
                }
            };
            *prev = Some((of, model.clone(), step.clone()));
            (model, step)
        })
    };
    let (model, step) = (built.0.clone(), built.1.clone());
    // Stretches of the axis the learner opened (folded ones stay folded otherwise).
    let opened = use_state(Vec::<(i64, i64)>::new);
    let axis = {
        let model = model.clone();
        use_memo((model.clone(), width.to_bits(), (*opened).clone()), move |(_, _, opened)| {
            Rc::new(Axis::plan(&model, width, opened))
        })
    };
    let axis: Rc<Axis> = (*axis).clone();
    let on_open_fold = {
        let opened = opened.clone();
        use_callback((*opened).clone(), move |fold: (i64, i64), was| {
            let mut v = was.clone();
            v.push(fold);
            opened.set(v);
        })
    };
    let on_refold = {
        let opened = opened.clone();
        Callback::from(move |_: MouseEvent| opened.set(Vec::new()))
    };
    // Wider than the panel (stretches opened): it scrolls sideways, with a fade on each edge
    // that has more picture beyond it and a hint saying so.
    let overflows = axis.g.width > width + 0.5;
    let edges = use_state(|| (false, true));
    let on_scroll = {
        let edges = edges.clone();
        Callback::from(move |e: Event| {
            let el = e.target_unchecked_into::<web_sys::Element>();
            let left = el.scroll_left() > 1;
            let right = el.scroll_left() + el.client_width() < el.scroll_width() - 1;
            if *edges != (left, right) {
                edges.set((left, right));
            }
        })
    };
    let (more_left, more_right) = if overflows { *edges } else { (false, false) };
    let reduce = props.reduce_motion;
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
    // Stable callbacks: the picture is drawn again only when its model, size or highlight change.
    let on_select = {
        let d = lab.dispatcher();
        use_callback((), move |i: usize, _| d.dispatch(Action::Select(i)))
    };
    let on_hover = {
        let set = hover.as_ref().map(|h| h.setter());
        use_callback(set.is_some(), move |h: Option<usize>, _| {
            if let Some(set) = &set {
                set.set(h);
            }
        })
    };
    let dense = model.lanes.iter().any(|l| matches!(l.body, LaneBody::Buckets(_))) || model.more_keys > 0;
    let selected = lab.shown();
    let selected_why = selected.and_then(|i| lab.visible().get(i)).and_then(|e| e.why.clone());
    let kinds_present = {
        let m = &*model;
        let mut k = Vec::new();
        if m.compact.is_some() {
            k.push((K::TlLegendCompacted, "compacted"));
        }
        if m.marks.iter().any(|mk| mk.kind == MarkKind::List) {
            k.push((K::TlLegendList, "list"));
        }
        if m.marks.iter().any(|mk| matches!(mk.kind, MarkKind::Token { .. })) {
            k.push((K::TlLegendToken, "token"));
        }
        if !m.caches.is_empty() {
            k.push((K::TlLegendCache, "cache"));
        }
        if !m.view.watches.is_empty() {
            k.push((K::TlLegendWatch, "watch"));
        }
        if m.view.watches.iter().any(|w| w.end.as_ref().is_some_and(|e| e.code.is_some())) {
            k.push((K::TlLegendError, "end-error"));
        }
        if m.view.watches.iter().any(|w| w.end.as_ref().is_some_and(|e| e.code.is_none())) {
            k.push((K::TlLegendClean, "end-clean"));
        }
        k
    };
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
            if model.is_empty() {
                <p id="tl-empty" class="empty">{ tr.f(K::TlEmpty, &[&model.current]) }{ " " }{ tr.t(K::TlEmptyHint) }</p>
            }
            if overflows {
                <p id="tl-scroll-hint" class="scroll-hint small">
                    <span aria-hidden="true">{ "⇆ " }</span>{ tr.t(K::TlScrollHint) }{ " " }
                    <button id="tl-refold" type="button" class="small" onclick={on_refold.clone()}>{ tr.t(K::TlRefold) }</button>
                </p>
            } else if !opened.is_empty() {
                <p id="tl-folds-opened" class="small muted">
                    <button id="tl-refold" type="button" class="small" onclick={on_refold.clone()}>{ tr.t(K::TlRefold) }</button>
                </p>
            }
            <div class={classes!("pictures", overflows.then_some("scrolls"), more_left.then_some("more-left"), more_right.then_some("more-right"))}
                ref={node} onscroll={on_scroll} data-motion={if reduce { "reduce" } else { "full" }} data-step={step.n.to_string()}>
                if !model.is_empty() {
                    <SystemView model={model.clone()} axis={axis.clone()} selected={selected} selected_why={selected_why} step={step.clone()} {reduce} />
                }
                <Picture model={model.clone()} axis={axis.clone()} selected={selected} hovered={hover.as_ref().and_then(|h| **h)} {on_select} {on_hover} step={step.clone()} {on_open_fold} keys_open={keys_open.clone()} table_open={table_open.clone()} />
            </div>
            <ul class="tl-legend small muted" aria-hidden="true">
                { for kinds_present.iter().map(|(k, class)| html! { <li><span class={classes!("sw", *class)}></span>{ tr.t(*k) }</li> }) }
                if !axis.folds.is_empty() {
                    <li id="tl-folds-note">{ tr.t(K::TlFoldsNote) }</li>
                }
                if model.compact_key_writes > 0 {
                    <li id="tl-compact-key">{ tr.f(K::TlCompactKey, &[&model.compact_key_writes]) }</li>
                }
            </ul>
        </section>
    }
}
