//! The embed's end of the embedding API's messages (the `<rv-playground>` element's `run()` and
//! `rv-output` events): which page the frame talks to, and the messages it posts there. Below
//! `state` (which reports every line it runs through [`ran`]); the commands are handled by
//! `embed_api`. The protocol is documented in `site/src/reference/embedding-api.md`.
//!
//! The frame takes commands only from its parent window; the origin of the last command it took
//! is where its outputs go (`postMessage` with that target origin, so no other page reads them).
//! Before any command nothing is posted but `rvlab:ready` and `rvlab:height`, which carry no
//! sandbox content.
//!
//! An embed mounted in the page itself (`ui::mount`, no frame) has a [`Host`] instead: the
//! element's own functions, called directly, so each of several embeds in one page reports to
//! its own element only.

use std::cell::RefCell;
use std::rc::Rc;

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

/// What runs a script in a mounted embed's sandbox: the outputs of the lines that ran, or why
/// it runs none (a read-only embed).
pub type Runner = Rc<dyn Fn(&JsValue) -> Result<js_sys::Array, String>>;

/// The element an embed mounted in the page belongs to (`ui::mount`): where its outputs go and
/// how its `run()` reaches the sandbox.
pub struct Host {
    /// The `<rv-playground>` element (the shadow root's host): events from inside the embed
    /// reach the document with it as their target.
    pub element: web_sys::Element,
    /// The playground's own address (`index.html` beside the module): where "open the full
    /// playground" goes, since the page's address is the host page's.
    pub app_url: String,
    /// Called with each output object, in order.
    on_output: js_sys::Function,
    /// Called once, when the embed takes runs.
    on_ready: js_sys::Function,
    runner: RefCell<Option<Runner>>,
}

impl Host {
    pub fn new(
        element: web_sys::Element,
        app_url: String,
        on_output: js_sys::Function,
        on_ready: js_sys::Function,
    ) -> Host {
        Host { element, app_url, on_output, on_ready, runner: RefCell::new(None) }
    }

    /// A line ran in this sandbox: the element hears of its output.
    pub fn output(&self, out: &Value) {
        let _ = self.on_output.call1(&JsValue::NULL, &crate::embed::to_js(out));
    }

    /// The sandbox as it is now takes runs (the element's queued runs go now).
    pub fn ready(&self) {
        let _ = self.on_ready.call0(&JsValue::NULL);
    }

    pub fn set_runner(&self, runner: Option<Runner>) {
        *self.runner.borrow_mut() = runner;
    }

    /// The runner of the sandbox as it is now; None before the embed is ready or after it
    /// unmounted.
    pub fn runner(&self) -> Option<Runner> {
        self.runner.borrow().clone()
    }
}

impl PartialEq for Host {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// A line ran in this sandbox: a mounted embed's element hears of it ([`Host::output`]); a
/// framed embed's connected page gets `{type: "rvlab:output", output}`.
pub fn ran(host: Option<&Rc<Host>>, out: &Value) {
    if let Some(h) = host {
        h.output(out);
        return;
    }
    if !connected() {
        return;
    }
    post_to_peer(&message("rvlab:output", &[("output", &crate::embed::to_js(out))]));
}
