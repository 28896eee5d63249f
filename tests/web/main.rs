//! Browser tests: the real app mounted in headless Chromium (wasm-bindgen-test), driven through
//! the DOM like a person would. Each test clears localStorage and mounts (and unmounts) its own
//! root, so no state leaks between tests. Tests marked "engine" need the real engine behind
//! `Session`; the rest only need the UI. One module per feature (`tests/web/<feature>.rs`); the
//! harness they share (`Lab`, `settle`, `flush`, the roots and the style sheet) is here.
#![cfg(target_arch = "wasm32")]

use rvlab::ui::lines::{self, RequestSpec, Verb};
use rvlab::ui::model::{Problem, STORAGE_KEY};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use rvlab::script::why;
use rvlab::ui::config::Config;
use rvlab::ui::config::{FILES, Loader, index_of, slug_of};
use rvlab::ui::guided::{self, ACTIVE_KEY, PROGRESS_KEY};
use rvlab::ui::i18n::{self, K, Lang};
use rvlab::ui::timeline::{self, Window};
use std::rc::Rc;

mod axis;
mod clipboard;
mod console;
mod crossings;
mod embed;
mod engine;
mod explain;
mod flow;
mod key_folds;
mod keyboard;
mod lessons;
mod long;
mod marks;
mod no_lost_work;
mod persistence;
mod pictures;
mod pure;
mod sandbox;
mod seeing;
mod share;
mod shell;
mod sim;
mod truth;
mod watch_folds;
#[allow(unused_imports)]
use {
    axis::*, clipboard::*, console::*, crossings::*, embed::*, engine::*, explain::*, flow::*, key_folds::*,
    keyboard::*, lessons::*, long::*, marks::*, no_lost_work::*, persistence::*, pictures::*, pure::*,
    sandbox::*, seeing::*, share::*, shell::*, sim::*, truth::*, watch_folds::*,
};

wasm_bindgen_test_configure!(run_in_browser);

/// Lets the browser lay out and deliver ResizeObserver notifications (the pictures measure their
/// width), then Yew render what they changed.
async fn settle() {
    yew::platform::time::sleep(std::time::Duration::from_millis(100)).await;
    flush().await;
}

/// An element's scroll height once layout has settled: the same in two reads 100 ms apart
/// (a ResizeObserver reports after the first paint, and a slow machine may need more than one
/// round). Gives up after 3 s and returns the last value, which the caller's assert then judges.
async fn settled_height(el: &web_sys::Element) -> i32 {
    let mut last = el.scroll_height();
    for _ in 0..30 {
        settle().await;
        let now = el.scroll_height();
        if now == last {
            return now;
        }
        last = now;
    }
    last
}

/// Lets Yew's scheduler run its pending renders.
async fn flush() {
    for _ in 0..2 {
        yew::platform::time::sleep(std::time::Duration::ZERO).await;
    }
}

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().expect("localStorage")
}

/// A new root `div` at the end of the page's body.
fn new_root() -> Element {
    let doc = document();
    let root = doc.create_element("div").expect("create root");
    doc.body().expect("body").append_child(&root).expect("append root");
    root
}

/// Puts the page's style sheet in the document once (the test runner does not load it;
/// `Lab::unmount` takes it away again).
fn add_app_style() {
    let doc = document();
    if doc.get_element_by_id("rvlab-test-css").is_none() {
        let style = doc.create_element("style").unwrap();
        style.set_id("rvlab-test-css");
        style.set_text_content(Some(include_str!("../../www/style.css")));
        doc.head().unwrap().append_child(&style).unwrap();
        timeline::remeasure();
    }
}

/// One mounted app on its own root.
struct Lab {
    root: Element,
    handle: Option<yew::AppHandle<rvlab::ui::App>>,
}

impl Lab {
    /// Mounts a fresh app over a clean localStorage.
    async fn fresh() -> Lab {
        storage().remove_item(STORAGE_KEY).unwrap();
        storage().remove_item(rvlab::ui::guided::ACTIVE_KEY).unwrap();
        Lab::mount().await
    }

    /// Mounts an app over whatever localStorage holds.
    async fn mount() -> Lab {
        Lab::render_into(new_root(), None).await
    }

    /// Renders the app into `root` (already in the page), opened with `config` or, with None,
    /// from the page's own URL.
    async fn render_into(root: Element, config: Option<Config>) -> Lab {
        let props = rvlab::ui::AppProps { config: config.map(Rc::new) };
        let handle = yew::Renderer::<rvlab::ui::App>::with_root_and_props(root.clone(), props).render();
        flush().await;
        Lab { root, handle: Some(handle) }
    }

    fn unmount(mut self) {
        // The app saves what is pending when it unmounts, but Yew runs that only when its
        // scheduler next runs, which may be after the next test cleared localStorage: save now.
        rvlab::ui::save::flush();
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
        if let Some(css) = document().get_element_by_id("rvlab-test-css") {
            css.remove();
            rvlab::ui::timeline::remeasure();
        }
    }

    fn q(&self, sel: &str) -> Option<Element> {
        self.root.query_selector(sel).expect("valid selector")
    }

    fn el(&self, sel: &str) -> Element {
        self.q(sel).unwrap_or_else(|| panic!("{sel} not rendered"))
    }

    fn all(&self, sel: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(sel).expect("valid selector");
        (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.dyn_into().ok()).collect()
    }

    fn text(&self, sel: &str) -> String {
        self.el(sel).text_content().unwrap_or_default()
    }

    async fn click(&self, sel: &str) {
        let b: HtmlElement = self.el(sel).dyn_into().expect("an HTML element");
        b.click();
        flush().await;
    }

    async fn input(&self, sel: &str, value: &str) {
        let el = self.el(sel);
        if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
            i.set_value(value);
        } else if let Some(t) = el.dyn_ref::<HtmlTextAreaElement>() {
            t.set_value(value);
        } else {
            panic!("{sel} is not a text field");
        }
        fire(&el, "input");
        flush().await;
    }

    async fn select(&self, sel: &str, value: &str) {
        let el = self.el(sel);
        let s: &HtmlSelectElement = el.dyn_ref().expect("a select");
        s.set_value(value);
        assert_eq!(s.value(), value, "{sel} has no option {value:?}");
        fire(&el, "change");
        flush().await;
    }

    async fn check(&self, sel: &str, on: bool) {
        let el = self.el(sel);
        el.dyn_ref::<HtmlInputElement>().expect("a checkbox").set_checked(on);
        fire(&el, "change");
        flush().await;
    }

    /// Types a line into the console and presses Enter (submits its form).
    async fn console(&self, line: &str) {
        self.input("#console-input", line).await;
        self.click("#console-run").await;
    }

    /// The command log as the console shows it.
    fn log(&self) -> Vec<String> {
        self.all("#log li .cmd").iter().map(|e| e.text_content().unwrap_or_default()).collect()
    }

    fn request_line(&self) -> String {
        self.text("#request-line")
    }

    /// The saved sandbox, once the save that waits for the browser to be idle has run (at most
    /// `SAVE_IDLE_TIMEOUT_MS` later).
    async fn saved(&self) -> serde_json::Value {
        idle_saved().await;
        let s = storage().get_item(STORAGE_KEY).unwrap().expect("saved sandbox");
        serde_json::from_str(&s).expect("saved sandbox is JSON")
    }
}

/// Waits (bounded) until the idle save has written the latest change, then lets Yew render
/// what it reported.
async fn idle_saved() {
    let step = 20;
    for _ in 0..(2 * rvlab::ui::save::SAVE_IDLE_TIMEOUT_MS / step) {
        if !rvlab::ui::save::pending() {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(step.into())).await;
    }
    assert!(!rvlab::ui::save::pending(), "the idle save never ran");
    flush().await;
}

fn fire(el: &Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}
