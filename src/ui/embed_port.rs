//! The embed's end of the embedding API's messages (the `<rv-playground>` element's `run()` and
//! `rv-output` events): which page the frame talks to, and the messages it posts there. Below
//! `state` (which reports every line it runs through [`ran`]); the commands are handled by
//! `embed_api`. The protocol is documented in `site/src/reference/embedding-api.md`.
//!
//! The frame takes commands only from its parent window; the origin of the last command it took
//! is where its outputs go (`postMessage` with that target origin, so no other page reads them).
//! Before any command nothing is posted but `rvlab:ready` and `rvlab:height`, which carry no
//! sandbox content.

use std::cell::RefCell;

use serde_json::Value;
use wasm_bindgen::JsValue;

thread_local! {
    /// The origin of the page that last sent this frame a command.
    static PEER: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The parent window, when this page runs in a frame.
pub fn parent() -> Option<web_sys::Window> {
    let w = web_sys::window()?;
    let p = w.parent().ok().flatten()?;
    (JsValue::from(&p) != JsValue::from(&w)).then_some(p)
}

/// A command from `origin` was taken: outputs go there from now on.
pub fn connect(origin: &str) {
    PEER.with(|p| *p.borrow_mut() = Some(origin.to_string()));
}

/// Whether a page has sent this frame a command.
pub fn connected() -> bool {
    PEER.with(|p| p.borrow().is_some())
}

/// A plain object `{type, …fields}`.
pub fn message(kind: &str, fields: &[(&str, &JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &"type".into(), &kind.into());
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
    }
    o.into()
}

/// Posts `msg` (structured clone) to the parent at `origin` (`"*"` for a page with an opaque
/// origin, `null`, which no target origin can name).
pub fn post(msg: &JsValue, origin: &str) {
    let Some(p) = parent() else { return };
    let target = if origin == "null" { "*" } else { origin };
    let _ = p.post_message(msg, target);
}

/// Posts `msg` to the connected page, if any.
pub fn post_to_peer(msg: &JsValue) {
    if let Some(origin) = PEER.with(|p| p.borrow().clone()) {
        post(msg, &origin);
    }
}

/// A line ran in this sandbox: the connected page gets `{type: "rvlab:output", output}`.
pub fn ran(out: &Value) {
    if !connected() {
        return;
    }
    post_to_peer(&message("rvlab:output", &[("output", &crate::embed::to_js(out))]));
}
