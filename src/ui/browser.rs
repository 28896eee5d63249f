//! Browser glue: everything the app asks of the page around it — localStorage, the clipboard,
//! file download and upload, the address bar (query, fragment, history), media queries,
//! document- and window-level event listeners, and the embed's height message to its host.
//!
//! Components never call `web_sys::window()` for these themselves; each need has one helper
//! here, and each returns what went wrong as a [`Problem`] (shown in a notice, in the UI's
//! language) instead of panicking.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::model::Problem;
use super::url::{percent_encode, query_pairs};

/// A readable text for a thrown JS value.
pub fn js_text(e: &wasm_bindgen::JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A failed browser call, in the browser's own words.
pub fn thrown(e: wasm_bindgen::JsValue) -> Problem {
    Problem::Browser(js_text(&e))
}

/// The page's localStorage, or why it cannot be used.
pub fn storage() -> Result<web_sys::Storage, Problem> {
    let window = web_sys::window().ok_or(Problem::NoWindow)?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(Problem::StorageMissing),
        Err(e) => Err(Problem::StorageBlocked(js_text(&e))),
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), Problem> {
    let err = thrown;
    let doc = web_sys::window().and_then(|w| w.document()).ok_or(Problem::NoDocument)?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(err)?;
    Ok(())
}

/// `navigator.clipboard.writeText(text)`; `done` gets how it went once the browser has settled
/// its promise (a rejection — no permission, the page not focused — is a failure).
pub fn copy_text(text: &str, done: impl FnOnce(Result<(), Problem>) + 'static) {
    let started = (|| {
        let w = web_sys::window().ok_or(Problem::NoWindow)?;
        let clip = js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).map_err(thrown)?;
        let f: js_sys::Function = js_sys::Reflect::get(&clip, &"writeText".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or(Problem::ClipboardMissing)?;
        f.call1(&clip, &text.into()).map_err(thrown)
    })();
    match started {
        Ok(answer) => settled(&answer, done),
        Err(p) => done(Err(p)),
    }
}

/// Calls `done` once `promise` settles: `Ok` when it resolves, the browser's reason when it
/// rejects; at once with `Ok` when it is not a promise.
fn settled(promise: &wasm_bindgen::JsValue, done: impl FnOnce(Result<(), Problem>) + 'static) {
    let then = js_sys::Reflect::get(promise, &"then".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(then) = then else { return done(Ok(())) };
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let d2 = done.clone();
    let ok = Closure::once_into_js(move |_: wasm_bindgen::JsValue| {
        if let Some(done) = done.borrow_mut().take() {
            done(Ok(()));
        }
    });
    let fail = Closure::once_into_js(move |e: wasm_bindgen::JsValue| {
        if let Some(done) = d2.borrow_mut().take() {
            done(Err(thrown(e)));
        }
    });
    let _ = then.call2(promise, &ok, &fail);
}

/// Reads a chosen file as text and calls `done` with it or with why not.
pub fn read_file_text(file: web_sys::File, done: impl FnOnce(Result<String, Problem>) + 'static) {
    let reader = match web_sys::FileReader::new() {
        Ok(r) => r,
        Err(e) => return done(Err(thrown(e))),
    };
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let r2 = reader.clone();
    let d2 = done.clone();
    let onloadend = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        let Some(done) = d2.borrow_mut().take() else { return };
        match r2.result().ok().and_then(|v| v.as_string()) {
            Some(text) if r2.error().is_none() => done(Ok(text)),
            _ => done(Err(r2.error().map_or(Problem::FileUnreadable, |e| Problem::Browser(e.message())))),
        }
    });
    reader.set_onloadend(Some(onloadend.unchecked_ref()));
    if let Err(e) = reader.read_as_text(&file)
        && let Some(done) = done.borrow_mut().take()
    {
        done(Err(thrown(e)));
    }
}

/// The playground's own address (no query, no fragment).
pub fn base_url() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

/// Rewrites the page URL (no reload, no history entry): the query parameters in `set` replaced
/// (an empty value removes one), the others kept, the fragment dropped when `drop_hash`.
pub fn replace_url(set: &[(&str, &str)], drop_hash: bool) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let search = loc.search().unwrap_or_default();
    let mut pairs: Vec<(String, String)> =
        query_pairs(&search).into_iter().filter(|(k, _)| !set.iter().any(|(s, _)| s == k)).collect();
    for (k, v) in set.iter().filter(|(_, v)| !v.is_empty()) {
        pairs.push((k.to_string(), v.to_string()));
    }
    let q: Vec<String> =
        pairs.iter().map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v))).collect();
    let mut url = loc.pathname().unwrap_or_default();
    if !q.is_empty() {
        url.push('?');
        url.push_str(&q.join("&"));
    }
    if !drop_hash {
        url.push_str(&loc.hash().unwrap_or_default());
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// `matchMedia("(prefers-reduced-motion: reduce)").matches`, false when it cannot be asked.
pub fn prefers_reduced_motion() -> bool {
    let Some(w) = web_sys::window() else { return false };
    let Ok(f) = js_sys::Reflect::get(&w, &"matchMedia".into()) else { return false };
    let Ok(f) = f.dyn_into::<js_sys::Function>() else { return false };
    f.call1(&w, &"(prefers-reduced-motion: reduce)".into())
        .ok()
        .and_then(|mq| js_sys::Reflect::get(&mq, &"matches".into()).ok())
        .and_then(|m| m.as_bool())
        .unwrap_or(false)
}

/// Sets `lang` on the document's root element.
pub fn set_document_lang(tag: &str) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", tag);
    }
}

/// The height of the embed's content (the app's element): what its frame needs to show it all.
pub fn content_height(el: &web_sys::Element) -> i32 {
    el.scroll_height().max(el.get_bounding_client_rect().height().ceil() as i32)
}

/// Posts the embed's height to the host page: `{type: "rvlab:height", height}`.
pub fn post_height(height: i32) {
    let Some(w) = web_sys::window() else { return };
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"rvlab:height".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
    let target = w.parent().ok().flatten().unwrap_or(w);
    let _ = target.post_message(&msg, "*");
}

/// Calls `f` once when the browser is next idle (`requestIdleCallback`, at the latest after
/// `timeout_ms`), or after a short `setTimeout` where there is no `requestIdleCallback`.
/// Returns false (and never calls `f`) when neither could be scheduled.
pub fn when_idle(timeout_ms: u32, f: impl FnOnce() + 'static) -> bool {
    let Some(w) = web_sys::window() else { return false };
    let cb = Closure::once_into_js(f);
    let call = |name: &str, arg: wasm_bindgen::JsValue| {
        js_sys::Reflect::get(&w, &name.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .is_some_and(|f| f.call2(&w, &cb, &arg).is_ok())
    };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"timeout".into(), &timeout_ms.into());
    call("requestIdleCallback", opts.into()) || call("setTimeout", 50.into())
}

/// Whether the page is hidden (`document.visibilityState == "hidden"`).
pub fn page_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| js_sys::Reflect::get(&d, &"visibilityState".into()).ok())
        .and_then(|v| v.as_string())
        .is_some_and(|v| v == "hidden")
}

/// Where a [`Listener`] listens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Window,
    Document,
}

/// An event listener on the window or the document, removed when dropped (return it from a
/// `use_effect` cleanup).
pub struct Listener {
    on: On,
    event: &'static str,
    cb: Closure<dyn Fn(web_sys::Event)>,
}

impl Listener {
    /// Calls `f` for every `event` on `on`.
    pub fn new(on: On, event: &'static str, f: impl Fn(web_sys::Event) + 'static) -> Listener {
        let l = Listener { on, event, cb: Closure::<dyn Fn(web_sys::Event)>::new(f) };
        if let Some(t) = l.target() {
            let _ = t.add_event_listener_with_callback(event, l.cb.as_ref().unchecked_ref());
        }
        l
    }

    fn target(&self) -> Option<web_sys::EventTarget> {
        let w = web_sys::window()?;
        match self.on {
            On::Window => Some(w.into()),
            On::Document => w.document().map(Into::into),
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(t) = self.target() {
            let _ = t.remove_event_listener_with_callback(self.event, self.cb.as_ref().unchecked_ref());
        }
    }
}
