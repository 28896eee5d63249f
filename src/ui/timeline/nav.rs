//! The keyboard on the timeline's marks: the marks are one Tab stop (a roving `tabindex`: the
//! mark last moved to holds `tabindex="0"`, the others `-1`), ← → move between them in the
//! order they stand on the axis (left to right, then top to bottom), Home/End go to the first
//! and last, Enter or Space does what a click does (selects the mark's line; a "+N" opens).

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The marks of `svg` that take the keyboard, in axis order.
fn nav_marks(svg: &web_sys::Element) -> Vec<web_sys::Element> {
    let Ok(f) =
        js_sys::Reflect::get(svg, &"querySelectorAll".into()).and_then(|f| f.dyn_into::<js_sys::Function>())
    else {
        return Vec::new();
    };
    let Ok(list) = f.call1(svg, &"[data-nav]".into()) else { return Vec::new() };
    let mut els: Vec<(f64, f64, web_sys::Element)> = js_sys::Array::from(&list)
        .iter()
        .filter_map(|v| v.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            let r = el.get_bounding_client_rect();
            (r.left() + r.width() / 2.0, r.top(), el)
        })
        .collect();
    els.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    els.into_iter().map(|(_, _, el)| el).collect()
}

fn focus(el: &web_sys::Element) {
    if let Ok(f) = js_sys::Reflect::get(el, &"focus".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = f.call0(el);
    }
}

/// Gives the marks of `svg` their one Tab stop: keeps the mark that holds it, else the first.
pub fn ensure_tab_stop(svg: &web_sys::Element) {
    let marks = nav_marks(svg);
    if marks.iter().any(|m| m.get_attribute("tabindex").as_deref() == Some("0")) {
        return;
    }
    if let Some(first) = marks.first() {
        let _ = first.set_attribute("tabindex", "0");
    }
}

/// A key pressed in the timeline: moves between marks or activates one.
pub fn on_key(e: KeyboardEvent) {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    if !el.has_attribute("data-nav") {
        return;
    }
    let key = e.key();
    match key.as_str() {
        "Enter" | " " => {
            e.prevent_default();
            let init = web_sys::EventInit::new();
            init.set_bubbles(true);
            if let Ok(click) = web_sys::Event::new_with_event_init_dict("click", &init) {
                let _ = el.dispatch_event(&click);
            }
        }
        "ArrowRight" | "ArrowLeft" | "Home" | "End" => {
            e.prevent_default();
            let Some(svg) = el.closest("svg").ok().flatten() else { return };
            let marks = nav_marks(&svg);
            let Some(i) = marks.iter().position(|m| *m == el) else { return };
            let to = match key.as_str() {
                "ArrowRight" => (i + 1).min(marks.len().saturating_sub(1)),
                "ArrowLeft" => i.saturating_sub(1),
                "Home" => 0,
                _ => marks.len().saturating_sub(1),
            };
            if let Some(next) = marks.get(to) {
                for m in &marks {
                    let _ = m.set_attribute("tabindex", if m == next { "0" } else { "-1" });
                }
                focus(next);
            }
        }
        _ => {}
    }
}
