//! Following a live `rvlab serve`: a page served by `rvlab serve` carries
//! `<meta name="rvlab-live" content="rvlab/v1/live">` (the server adds it to `index.html`), and
//! then the app subscribes to that server-sent-events feed: the first event
//! `{"backlog":[lines…]}` replaces the log with what real clients did so far, each later
//! `{"text":"<line>",…}` appends one line, so the timeline, system view and watches draw
//! kubectl's requests, watches and 410s as they happen (the browser's session replays the very
//! lines the server ran, and the engine is deterministic, so it shows the same answers). The
//! static playground has no such tag and never opens a connection.

use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// One event of the live feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveEvent {
    /// Everything recorded before this page subscribed.
    Backlog(Vec<String>),
    /// One new line.
    Line(String),
}

/// Parses one `data:` payload; anything else is ignored (`None`).
pub fn parse_event(data: &str) -> Option<LiveEvent> {
    let v: Value = serde_json::from_str(data).ok()?;
    if let Some(lines) = v.get("backlog").and_then(Value::as_array) {
        return Some(LiveEvent::Backlog(
            lines.iter().filter_map(|l| l.as_str().map(str::to_string)).collect(),
        ));
    }
    v.get("text").and_then(Value::as_str).map(|t| LiveEvent::Line(t.to_string()))
}

/// The live feed's URL when this page was served by `rvlab serve`.
pub fn live_url() -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let meta = doc.query_selector("meta[name=\"rvlab-live\"]").ok()??;
    meta.get_attribute("content").filter(|c| !c.is_empty())
}

/// An open subscription; dropping it closes the connection.
pub struct Following {
    source: web_sys::EventSource,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for Following {
    fn drop(&mut self) {
        self.source.close();
    }
}

/// Subscribes to `url`; `on_event` gets each parsed event.
pub fn follow(url: &str, on_event: impl Fn(LiveEvent) + 'static) -> Option<Following> {
    let source = web_sys::EventSource::new(url).ok()?;
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if let Some(ev) = e.data().as_string().as_deref().and_then(parse_event) {
            on_event(ev);
        }
    });
    source.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Following { source, _on_message: on_message })
}
