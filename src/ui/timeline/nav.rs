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
            // Where the picture put it (not where an animation has it now): its glyph's centre.
            let x = ["data-cx", "data-x"]
                .iter()
                .find_map(|a| el.get_attribute(a).and_then(|v| v.parse::<f64>().ok()))
                .unwrap_or_default();
            let y = el.get_attribute("data-cy").and_then(|v| v.parse::<f64>().ok()).unwrap_or_default();
            (x, y, el)
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

/// Keeps the marks of `svg` one Tab stop: when a new picture left none or two (the one the
/// keyboard moved to and the one the picture starts with), the focused mark keeps it, else the
/// first.
pub fn ensure_tab_stop(svg: &web_sys::Element) {
    let marks = nav_marks(svg);
    let stops = marks.iter().filter(|m| m.get_attribute("tabindex").as_deref() == Some("0")).count();
    if stops == 1 {
        return;
    }
    // The focused element of the picture's own document or shadow root (an embed mounted in a
    // host page): the document's would be the shadow root's host.
    let active = js_sys::Reflect::get(&svg.get_root_node(), &"activeElement".into())
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::Element>().ok());
    let keep = marks.iter().find(|m| active.as_ref().is_some_and(|a| a == *m)).or(marks.first());
    for m in &marks {
        let _ = m.set_attribute("tabindex", if Some(m) == keep { "0" } else { "-1" });
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
