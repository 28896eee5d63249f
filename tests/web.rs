//! Browser tests: the real app mounted in headless Chromium (wasm-bindgen-test), driven through
//! the DOM like a person would. Each test clears localStorage and mounts (and unmounts) its own
//! root, so no state leaks between tests. Tests marked "engine" need the real engine behind
//! `Session`; the rest only need the UI.
#![cfg(target_arch = "wasm32")]

use rvlab::ui::lines::{self, RequestSpec, Verb};
use rvlab::ui::model::{Problem, STORAGE_KEY};
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

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
        style.set_text_content(Some(include_str!("../www/style.css")));
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
        rvlab::ui::state::flush_save();
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
    for _ in 0..(2 * rvlab::ui::state::SAVE_IDLE_TIMEOUT_MS / step) {
        if !rvlab::ui::state::save_pending() {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(step.into())).await;
    }
    assert!(!rvlab::ui::state::save_pending(), "the idle save never ran");
    flush().await;
}

fn fire(el: &Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    el.dispatch_event(&ev).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Shell, builder and log (UI only)

#[wasm_bindgen_test]
async fn shell_renders_empty_states() {
    let lab = Lab::fresh().await;
    assert_eq!(lab.text("#title"), "rvlab");
    assert!(lab.text("#response").contains("No request sent yet"), "got {}", lab.text("#response"));
    assert!(lab.text("#log-empty").contains("Nothing has run yet"));
    assert!(lab.q("#watches-empty").is_some());
    assert!(lab.q("#etcd-empty").is_some());
    assert!(lab.q("#notice").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn send_appends_the_request_line_and_shows_its_output() {
    let lab = Lab::fresh().await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods");
    lab.click("#send").await;
    assert_eq!(lab.log(), vec!["GET /api/v1/namespaces/default/pods"]);
    assert!(lab.text("#response").contains("line 1"), "got {}", lab.text("#response"));
    assert!(lab.text("#response").contains("GET /api/v1/namespaces/default/pods"));
    assert!(lab.q("#log-empty").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_list_options_make_the_query() {
    let lab = Lab::fresh().await;
    lab.input("#rb-limit", "2").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods?limit=2");
    lab.select("#rb-rv-pick", "0").await;
    assert_eq!(lab.el("#rb-rv").dyn_into::<HtmlInputElement>().unwrap().value(), "0");
    lab.select("#rb-match", "NotOlderThan").await;
    lab.input("#rb-selector", "app=web").await;
    assert_eq!(
        lab.request_line(),
        "GET /api/v1/namespaces/default/pods?resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2&labelSelector=app%3Dweb"
    );
    assert_eq!(
        lab.text("#kubectl-line"),
        "kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2&labelSelector=app%3Dweb'"
    );
    lab.check("#rb-allns", true).await;
    assert!(lab.request_line().starts_with("GET /api/v1/pods?"), "{}", lab.request_line());
    lab.check("#rb-allns", false).await;
    assert!(lab.request_line().starts_with("GET /api/v1/namespaces/default/pods?"));
    lab.select("#rb-resource", "configmaps").await;
    assert!(lab.request_line().starts_with("GET /api/v1/namespaces/default/configmaps?"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_watch_get_delete_lines() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "watch").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods?watch=true");
    lab.input("#rb-rv", "5").await;
    lab.check("#rb-bookmarks", true).await;
    lab.select("#rb-initial", "true").await;
    lab.input("#rb-timeout", "30").await;
    assert_eq!(
        lab.request_line(),
        "GET /api/v1/namespaces/default/pods?watch=true&resourceVersion=5&allowWatchBookmarks=true&sendInitialEvents=true&timeoutSeconds=30"
    );
    lab.select("#rb-verb", "get").await;
    lab.input("#rb-name", "a").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods/a?resourceVersion=5");
    lab.select("#rb-verb", "delete").await;
    assert_eq!(lab.request_line(), "DELETE /api/v1/namespaces/default/pods/a");
    assert_eq!(lab.text("#kubectl-line"), "kubectl delete --raw '/api/v1/namespaces/default/pods/a'");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_create_prefills_a_template_body() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "create").await;
    lab.input("#rb-name", "web-1").await;
    let body = lab.el("#rb-body").dyn_into::<HtmlTextAreaElement>().unwrap().value();
    let v: serde_json::Value = serde_json::from_str(&body).expect("template is JSON");
    assert_eq!(v["kind"], "Pod");
    assert_eq!(v["metadata"]["name"], "web-1");
    assert!(
        lab.request_line().starts_with(
            r#"POST /api/v1/namespaces/default/pods {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1""#
        ),
        "{}",
        lab.request_line()
    );
    // The body is editable; the line follows it.
    lab.input("#rb-body", r#"{"metadata":{"name":"x"}}"#).await;
    assert_eq!(lab.request_line(), r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"x"}}"#);
    lab.click("#send").await;
    assert_eq!(lab.log(), vec![r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"x"}}"#]);
    lab.unmount();
}

// ---------------------------------------------------------------------------------------------
// Console

#[wasm_bindgen_test]
async fn console_enter_runs_and_arrows_walk_history() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "# a comment", "advance 2s"]).await;
    assert_eq!(lab.log(), vec!["advance 1s", "# a comment", "advance 2s"]);
    let input: HtmlInputElement = lab.el("#console-input").dyn_into().unwrap();
    assert_eq!(input.value(), "", "the input is cleared after Enter");
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
    };
    input.dispatch_event(&key("ArrowUp")).unwrap();
    flush().await;
    assert_eq!(input.value(), "advance 2s");
    input.dispatch_event(&key("ArrowUp")).unwrap();
    input.dispatch_event(&key("ArrowUp")).unwrap();
    flush().await;
    assert_eq!(input.value(), "advance 1s");
    input.dispatch_event(&key("ArrowDown")).unwrap();
    flush().await;
    assert_eq!(input.value(), "# a comment");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn console_paste_of_a_script_runs_every_line() {
    let lab = Lab::fresh().await;
    paste(&lab.el("#console-input"), "advance 1s\n\n  advance 2s\r\n# done\n");
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s", "# done"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn clicking_a_log_entry_selects_it_in_the_viewer() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    assert!(lab.text(".resp-line").contains("advance 2s"));
    lab.click("#log li[data-line='1'] button").await;
    assert!(lab.text(".resp-line").contains("advance 1s"), "{}", lab.text(".resp-line"));
    assert!(lab.text(".resp-line").contains("not the latest"));
    lab.unmount();
}

// ---------------------------------------------------------------------------------------------
// Undo / redo / reset / persistence / import

#[wasm_bindgen_test]
async fn undo_redo_and_reset() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    lab.click("#undo").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    assert_eq!(lab.saved().await["redo"], json!(["advance 2s"]));
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.click("#reset").await;
    assert!(lab.log().is_empty());
    assert_eq!(lab.saved().await["log"], json!([]));
    // Reset is undoable: Redo brings the lines back in order.
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    // A new line clears the redo stack.
    lab.console("advance 5m").await;
    assert!(lab.el("#redo").dyn_into::<web_sys::HtmlButtonElement>().unwrap().disabled());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn ctrl_z_and_ctrl_y_undo_and_redo_outside_text_fields() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    // In a text field Ctrl+Z belongs to the field.
    ctrl_key("z", &lab.el("#console-input"));
    flush().await;
    assert_eq!(lab.log().len(), 2);
    ctrl_key("z", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    ctrl_key("y", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn log_is_saved_and_restored_on_reload() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 10s"]).await;
    assert_eq!(lab.saved().await["log"], json!(["advance 1s", "advance 10s"]));
    lab.unmount();
    let again = Lab::mount().await;
    assert_eq!(again.log(), vec!["advance 1s", "advance 10s"]);
    assert!(again.text(".resp-line").contains("advance 10s"));
    again.unmount();
}

#[wasm_bindgen_test]
async fn malformed_saved_data_gives_an_empty_sandbox_and_a_message() {
    storage().set_item(STORAGE_KEY, "{not json").unwrap();
    let lab = Lab::mount().await;
    assert!(lab.log().is_empty());
    assert!(lab.text("#notice").contains("could not be read"), "{}", lab.text("#notice"));
    lab.click("#notice button").await;
    assert!(lab.q("#notice").is_none());
    lab.unmount();

    storage().set_item(STORAGE_KEY, r#"{"log":[1,2]}"#).unwrap();
    let lab = Lab::mount().await;
    assert!(lab.log().is_empty());
    assert!(lab.q("#notice").is_some());
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_full_storage_is_reported_not_silent() {
    let lab = Lab::fresh().await;
    // Fill localStorage to its quota with filler items.
    let chunk = "x".repeat(512 * 1024);
    let mut n = 0;
    while storage().set_item(&format!("rvlab.test.filler.{n}"), &chunk).is_ok() {
        n += 1;
        assert!(n < 200, "localStorage never filled up");
    }
    let small = "y".repeat(1024);
    let mut m = 0;
    while storage().set_item(&format!("rvlab.test.small.{m}"), &small).is_ok() {
        m += 1;
    }
    lab.console(&format!("# {}", "z".repeat(4096))).await;
    idle_saved().await;
    let notice = lab.text("#notice");
    for i in 0..n {
        storage().remove_item(&format!("rvlab.test.filler.{i}")).unwrap();
    }
    for i in 0..m {
        storage().remove_item(&format!("rvlab.test.small.{i}")).unwrap();
    }
    assert!(notice.contains("not being saved"), "{notice}");
    assert!(lab.el("#notice").get_attribute("role").as_deref() == Some("alert"));
    // With room again, the next line is saved and the warning goes away.
    lab.console("advance 1s").await;
    idle_saved().await;
    assert!(lab.q("#notice").is_none());
    assert_eq!(lab.saved().await["log"].as_array().unwrap().len(), 2);
    lab.unmount();
}

/// Chooses a file `name` holding `text` in the import button's file input (its `change` event).
fn choose_import_file(lab: &Lab, name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let file = web_sys::File::new_with_str_sequence(&parts, name).unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: HtmlInputElement = lab.el("#import-file").dyn_into().unwrap();
    input.set_files(dt.files().as_ref());
    fire(&input, "change");
}

#[wasm_bindgen_test]
async fn import_replaces_the_sandbox_with_the_file_lines() {
    let lab = Lab::fresh().await;
    lab.console("advance 1s").await;
    choose_import_file(&lab, "s.txt", "# imported\nadvance 1m\nadvance 5m\n");
    // FileReader is asynchronous: wait for it (bounded), not for wall-clock time.
    for _ in 0..200 {
        flush().await;
        if lab.log().len() == 3 {
            break;
        }
    }
    assert_eq!(lab.log(), vec!["# imported", "advance 1m", "advance 5m"]);
    assert!(lab.text("#notice").contains("Imported 3 lines"));
    lab.unmount();
}

#[wasm_bindgen_test]
fn export_text_is_the_log_one_line_each() {
    assert_eq!(rvlab::ui::model::script_text(&["a".into(), "b".into()]), "a\nb\n");
}

// ---------------------------------------------------------------------------------------------
// Simulation controls and etcd view: each appends its script line

#[wasm_bindgen_test]
async fn simulation_update_delete_and_compact_below_the_cache_window() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await; // pod-1..3 at revisions 2, 3, 4
    lab.input("#sim-count", "2").await;
    lab.click("#sim-update").await; // pod-1, pod-2 at 5, 6
    let log = lab.log();
    assert_eq!(log.len(), 5);
    assert!(log[3].starts_with("PUT /api/v1/namespaces/default/pods/pod-1 "), "{}", log[3]);
    assert!(log[3].contains(r#""labels":{"touched":"4"}"#), "{}", log[3]);
    assert!(log[4].starts_with("PUT /api/v1/namespaces/default/pods/pod-2 "), "{}", log[4]);
    lab.input("#sim-count", "1").await;
    lab.click("#sim-delete").await;
    assert_eq!(lab.log()[5], "DELETE /api/v1/namespaces/default/pods/pod-1");
    // The caches started at revision 1 and have evicted nothing: their window starts at 1, so
    // "below the cache window" compacts to 1.
    assert_eq!(lab.el("#sim-compact-window").get_attribute("data-cmd").as_deref(), Some("compact 1"));
    lab.click("#sim-compact-window").await;
    assert_eq!(lab.log()[6], "compact 1");
    assert!(lab.el("#sim-compact-window").has_attribute("disabled"));
    lab.unmount();
}

/// The settings offer the feature gates of the release the sandbox runs (kube-apiserver's
/// `--feature-gates`, spec §C.7), each away from its default, and follow `set kubernetes`.
#[wasm_bindgen_test]
async fn the_settings_offer_the_feature_gates_of_the_running_release() {
    let lab = Lab::fresh().await;
    let options = |lab: &Lab| -> Vec<String> {
        lab.all("#set-feature-gates option").iter().filter_map(|o| o.get_attribute("value")).collect()
    };
    // 1.37, the default: its new alpha gate is offered on; ConsistentListFromCache is gone (removed
    // in 1.37) and WatchCacheInitializationPostStartHook is locked (GA), so neither is offered.
    let at_37 = options(&lab);
    assert!(at_37.contains(&"ConsistentListFromCacheSkipTimeoutFallback=true".to_string()), "{at_37:?}");
    assert!(at_37.contains(&"WatchList=false".to_string()), "{at_37:?}");
    assert!(!at_37.iter().any(|o| o.starts_with("ConsistentListFromCache=")), "{at_37:?}");
    assert!(!at_37.iter().any(|o| o.starts_with("WatchCacheInitializationPostStartHook=")), "{at_37:?}");
    lab.select("#set-feature-gates", "WatchList=false").await;
    lab.click("button[data-cmd='set feature-gates WatchList=false']").await;
    assert_eq!(lab.log().last().map(String::as_str), Some("set feature-gates WatchList=false"));
    // 1.30: ConsistentListFromCache is a beta gate, off by default there.
    lab.console("set kubernetes 1.30").await;
    let at_30 = options(&lab);
    assert!(at_30.contains(&"ConsistentListFromCache=true".to_string()), "{at_30:?}");
    assert!(!at_30.iter().any(|o| o.starts_with("ConsistentListFromCacheSkipTimeoutFallback=")), "{at_30:?}");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn simulation_controls_append_their_lines() {
    let lab = Lab::fresh().await;
    lab.click("button[data-cmd='advance 1m']").await;
    lab.input("#sim-compact-rev", "7").await;
    lab.click("#sim-compact").await;
    lab.input("#sim-count", "2").await;
    lab.click("#sim-create").await;
    lab.select("#set-watch-cache", "off").await;
    lab.click("button[data-cmd='set watch-cache off']").await;
    lab.input("#set-cache-lag", "3s").await;
    lab.click("button[data-cmd='set cache.lag 3s']").await;
    lab.input("#sim-apiserver", "2").await;
    lab.click("#sim-route").await;
    lab.click("#sim-restart").await;
    lab.click("#etcd-read").await;
    let log = lab.log();
    assert_eq!(log[0], "advance 1m");
    assert_eq!(log[1], "compact 7");
    assert!(
        log[2].starts_with(
            r#"POST /api/v1/namespaces/default/pods {"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-1""#
        ),
        "{}",
        log[2]
    );
    assert!(log[3].contains(r#""name":"pod-2""#));
    assert_eq!(
        &log[4..],
        &[
            "set watch-cache off",
            "set cache.lag 3s",
            "apiserver 2",
            "restart apiserver 2",
            "etcd get /registry/ --prefix"
        ]
    );
    lab.select("#sim-informer-mode", "streaming").await;
    lab.click("#sim-informer-start").await;
    lab.click("#sim-informer-show").await;
    lab.click("#sim-informer-stop").await;
    assert_eq!(
        &lab.log()[9..],
        &["informer start inf1 pods mode=streaming", "informer show inf1", "informer stop inf1"]
    );
    // The next batch continues the numbering.
    lab.click("#sim-create").await;
    assert!(lab.log()[12].contains(r#""name":"pod-3""#), "{:?}", lab.log());
    lab.unmount();
}

// ---------------------------------------------------------------------------------------------
// Pure helpers (no DOM)

#[wasm_bindgen_test]
fn continue_token_decodes_as_the_spec_example() {
    let v =
        lines::decode_continue("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0").unwrap();
    assert_eq!(v, json!({"v": "meta.k8s.io/v1", "rv": 4, "start": "a\u{0}"}));
    assert_eq!(
        lines::describe_token("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0"),
        r#"rv 4, start "a\u0000""#
    );
    // The viewer's decoder is the apiserver's: on any token it says what the server says.
    for tok in ["ab!c", "bm90IGpzb24", "eyJ2IjoieCJ9", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NH0", "YQ="] {
        let out = rvlab::script::Session::new()
            .run_line(1, &format!("GET /api/v1/namespaces/default/configmaps?limit=1&continue={tok}"))
            .unwrap();
        assert_eq!(out["code"], 400, "{out}");
        assert_eq!(
            lines::decode_continue(tok).unwrap_err(),
            out["body"]["message"].as_str().unwrap(),
            "{tok}"
        );
    }
    assert_eq!(
        lines::decode_continue("ab!c").unwrap_err(),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 2"
    );
}

#[wasm_bindgen_test]
fn status_lines_and_errors() {
    let gone = json!({"line": 3, "code": 410, "body": {"kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "message": "too old", "reason": "Expired", "code": 410}});
    assert_eq!(lines::status_line(&gone).unwrap(), "410 Gone — Expired");
    assert!(lines::is_error(&gone));
    let ok = json!({"line": 1, "code": 200, "body": {"kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": []}});
    assert_eq!(lines::status_line(&ok).unwrap(), "200 OK");
    assert!(!lines::is_error(&ok));
    assert!(lines::is_error(&json!({"line": 2, "error": "mvcc: required revision has been compacted"})));
}

#[wasm_bindgen_test]
fn revisions_tokens_and_latest_object_are_read_from_outputs() {
    let outs = [
        json!({"line": 1, "code": 201, "body": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "default", "resourceVersion": "2"}}}),
        json!({"line": 2, "code": 200, "body": {"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "3", "continue": "T1"},
            "items": [{"metadata": {"name": "a", "namespace": "default", "resourceVersion": "3"}}]}}),
        json!({"line": 3, "header": {"revision": 9}, "kvs": [{"key": "/registry/pods/default/a", "mod_revision": 3, "create_revision": 2}]}),
        json!({"line": 4, "code": 200, "body": {"kind": "PodList", "metadata": {"resourceVersion": "3", "continue": "T2"}, "items": []}}),
    ];
    assert_eq!(lines::revisions_seen(outs.iter()), vec![9, 3, 2]);
    assert_eq!(lines::tokens_seen(outs.iter()), vec!["T2", "T1"]);
    let a = lines::latest_object(outs.iter(), "Pod", "default", "a").unwrap();
    assert_eq!(a["metadata"]["resourceVersion"], "3");
    assert_eq!(a["kind"], "Pod", "items get their kind back for an update body");
    assert!(lines::latest_object(outs.iter(), "ConfigMap", "default", "a").is_none());
}

#[wasm_bindgen_test]
fn watches_are_followed_through_the_log() {
    let opened = json!({"line": 1, "code": 200, "watch": "w1"});
    let ev = json!({"line": 2, "events": [
        {"type": "ADDED", "object": {"metadata": {"name": "a", "resourceVersion": "2"}}},
        {"type": "ERROR", "object": {"kind": "Status", "code": 410, "reason": "Expired"}}], "closed": true});
    let paused = json!({"line": 3, "paused": "w1"}); // the engine's answer to `pause w1`
    let entries = vec![
        ("GET /api/v1/pods?watch=true", Some(&opened)),
        ("events w1", Some(&ev)),
        ("pause w1", Some(&paused)),
    ];
    let ws = lines::watches(entries);
    assert_eq!(ws.len(), 1);
    assert_eq!(ws[0].id, "w1");
    assert_eq!(ws[0].request, "GET /api/v1/pods?watch=true");
    assert_eq!(
        ws[0].frames[0],
        lines::Frame {
            kind: "ADDED".into(),
            name: "a".into(),
            rv: "2".into(),
            detail: String::new(),
            watch_why: None,
            ended_why: None
        }
    );
    assert_eq!(ws[0].frames[1].detail, "410 Expired");
    assert!(ws[0].closed && ws[0].paused && !ws[0].cancelled);
}

/// The sandbox keeps what its outputs show (revisions, continue tokens, watches) folded as lines
/// run, with marks every 1,024 entries; after every kind of change it must equal the fold of the
/// entries up to the scrubber.
#[wasm_bindgen_test]
fn the_sandbox_keeps_what_its_outputs_show_in_step_with_the_scrubber() {
    use rvlab::ui::state::{Action, Lab as Sandbox};
    use yew::functional::Reducible;
    let line = |i: usize| match i % 300 {
        7 => "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0".to_string(),
        11 | 150 => "events w1".to_string(),
        40 => "pause w1".to_string(),
        90 => "GET /api/v1/namespaces/default/configmaps?limit=1".to_string(),
        200 => "# a comment".to_string(),
        _ => format!(
            r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"c{i}"}},"data":{{"k":"v"}}}}"#
        ),
    };
    let check = |lab: &Sandbox, what: &str| {
        let vis = &lab.entries[..lab.at];
        let want = lines::Seen::of(vis.iter().map(|e| (&*e.line, e.out.as_deref())));
        assert_eq!(lab.seen(), &want, "{what}: at {} of {}", lab.at, lab.entries.len());
    };
    let mut start = Sandbox::replay((0..2000).map(line).collect(), Vec::new());
    start.persist = false;
    let lab = Rc::new(start);
    check(&lab, "replayed");
    assert!(lab.seen().revisions().count() > 1000 && lab.seen().tokens().count() > 0);
    assert!(!lab.seen().watches.is_empty() && !lab.seen().watches[0].frames.is_empty());
    let lab = lab.reduce(Action::Run((2000..2100).map(line).collect()));
    check(&lab, "ran");
    let mut lab = lab;
    for n in [1500, 1025, 1024, 1023, 3, 4, 2048, 2100, 0, 2100] {
        lab = lab.reduce(Action::Seek(n));
        assert_eq!(lab.at, n);
        check(&lab, "seek");
    }
    let lab = lab.reduce(Action::Undo);
    check(&lab, "undo");
    let lab = lab.reduce(Action::Redo);
    check(&lab, "redo");
    let lab = lab.reduce(Action::Seek(1030)).reduce(Action::Run(vec![line(7)])).reduce(Action::ConfirmFork);
    assert_eq!(lab.entries.len(), 1031);
    check(&lab, "fork");
    let lab = lab.reduce(Action::Seek(1024)).reduce(Action::Run(vec![line(91)])).reduce(Action::ConfirmFork);
    assert_eq!(lab.entries.len(), 1025);
    check(&lab, "fork at a mark");
    let lab = lab.reduce(Action::PlayTick(2)).reduce(Action::PlayTick(3));
    assert_eq!(lab.entries.last().map(|e| &*e.line), Some("advance 5s"));
    check(&lab, "play");
    let lab = lab.reduce(Action::Seek(1025));
    check(&lab, "seek after play");
}

#[wasm_bindgen_test]
fn request_lines_for_every_verb() {
    let mut s = RequestSpec {
        verb: Verb::Update,
        name: "a".into(),
        body: "{\n \"a\": 1\n}".into(),
        ..RequestSpec::default()
    };
    assert_eq!(lines::request_line(&s), r#"PUT /api/v1/namespaces/default/pods/a {"a":1}"#);
    s.verb = Verb::List;
    s.namespace = String::new();
    s.continue_token = "abc".into();
    assert_eq!(lines::request_line(&s), "GET /api/v1/pods?continue=abc");
    assert_eq!(lines::shell_quote("it's"), r"'it'\''s'");
    assert_eq!(lines::split_script("a\r\n\n b \n"), vec!["a", "b"]);
    assert_eq!(
        lines::next_names(&[r#"POST /x {"metadata":{"name":"pod-4"}}"#.into()], "pod", 2),
        vec!["pod-5", "pod-6"]
    );
}

// ---------------------------------------------------------------------------------------------
// Lessons that need the real engine (they fail until it lands)

/// Creates objects named `names` through the builder.
async fn create_pods(lab: &Lab, names: &[&str]) {
    lab.select("#rb-verb", "create").await;
    for n in names {
        lab.input("#rb-name", n).await;
        lab.click("#send").await;
        assert!(lab.text("#status").starts_with("201"), "create {n}: {}", lab.text("#response"));
    }
}

#[wasm_bindgen_test]
async fn engine_a_create_shows_up_in_a_list() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.select("#rb-verb", "list").await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    assert!(lab.text("#list-summary").contains("default/a"), "{}", lab.text("#response"));
    // The revision is now offered by the resourceVersion picker.
    lab.select("#rb-rv-pick", "2").await;
    assert!(lab.request_line().contains("resourceVersion=2"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_a_stale_update_is_a_409_one_click_later() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.select("#rb-verb", "update").await;
    // The body editor holds the object from the create response (RV 2).
    let body = lab.el("#rb-body").dyn_into::<HtmlTextAreaElement>().unwrap().value();
    assert!(body.contains("\"resourceVersion\": \"2\""), "{body}");
    // An update must change something: an identical object is a no-op that keeps RV 2 (§B).
    lab.input("#rb-body", &body.replace("\"nginx\"", "\"nginx:1.27\"")).await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK", "{}", lab.text("#response"));
    lab.click("#send").await;
    assert!(lab.text("#status").starts_with("409 Conflict"), "{}", lab.text("#response"));
    assert!(lab.text("#status-error").contains("Conflict"));
    // Loading the latest object makes the update go through again.
    lab.click("#rb-fill").await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_paginate_with_the_continue_picker() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await;
    lab.select("#rb-verb", "list").await;
    lab.input("#rb-limit", "1").await;
    lab.click("#send").await;
    assert!(lab.text("#list-summary").contains("pod-1"), "{}", lab.text("#response"));
    assert!(lab.text("#continue-decoded").contains(r#""rv":4"#), "{}", lab.text("#continue-decoded"));
    let options = lab.all("#rb-continue-pick option");
    assert_eq!(options.len(), 2, "one token seen");
    let token = options[1].get_attribute("value").unwrap();
    lab.select("#rb-continue-pick", &token).await;
    assert!(lab.request_line().ends_with(&format!("limit=1&continue={token}")));
    assert!(
        lab.text("#rb-continue-decoded").contains(r#""start":"pod-1\u0000""#),
        "{}",
        lab.text("#rb-continue-decoded")
    );
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    assert!(lab.text("#list-summary").contains("pod-2"), "{}", lab.text("#response"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_compaction_then_continue_is_410_with_an_inconsistent_token() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await; // revisions 2, 3, 4
    lab.select("#rb-verb", "list").await;
    lab.input("#rb-limit", "1").await;
    lab.click("#send").await; // list RV 4, token rv 4
    let token = lab.all("#rb-continue-pick option")[1].get_attribute("value").unwrap();
    lab.input("#sim-count", "1").await;
    lab.click("#sim-create").await; // revision 5
    lab.input("#sim-compact-rev", "5").await;
    lab.click("#sim-compact").await;
    lab.select("#rb-continue-pick", &token).await;
    lab.click("#send").await;
    assert!(lab.text("#status").starts_with("410 Gone — Expired"), "{}", lab.text("#response"));
    assert!(lab.text("#status-error").contains("Expired"));
    assert!(lab.text("#continue-decoded").contains(r#""rv":-1"#), "{}", lab.text("#response"));
    // One click puts the inconsistent token in the builder; it reads the rest at the current revision.
    lab.click("#continue-decoded button.use-token").await;
    assert!(lab.text("#rb-continue-decoded").contains(r#""rv":-1"#), "{}", lab.text("#rb-continue-decoded"));
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK", "{}", lab.text("#response"));
    assert!(lab.text("#list-summary").contains("list RV 5"), "{}", lab.text("#list-summary"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_undo_redo_and_reload_replay_the_engine() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.console("GET /api/v1/namespaces/default/pods").await;
    assert!(lab.text("#list-summary").contains("1 item "));
    lab.click("#undo").await;
    lab.click("#undo").await;
    assert!(lab.log().is_empty());
    // The engine was rebuilt from the (empty) log: the pod is gone.
    lab.console("GET /api/v1/namespaces/default/pods").await;
    assert!(lab.text("#list-summary").contains("0 items"), "{}", lab.text("#response"));
    lab.unmount();

    let lab = Lab::fresh().await;
    create_pods(&lab, &["a", "b"]).await;
    lab.console("GET /api/v1/namespaces/default/pods").await;
    lab.click("#undo").await;
    lab.click("#undo").await;
    lab.click("#redo").await;
    lab.click("#redo").await;
    assert!(lab.text("#list-summary").contains("2 items"), "{}", lab.text("#response"));
    lab.unmount();
    let again = Lab::mount().await;
    assert!(again.text("#list-summary").contains("2 items"), "restored: {}", again.text("#response"));
    again.unmount();
}

#[wasm_bindgen_test]
async fn engine_pasted_script_runs_against_the_engine() {
    let lab = Lab::fresh().await;
    paste(
        &lab.el("#console-input"),
        "POST /api/v1/namespaces/default/configmaps {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\nGET /api/v1/namespaces/default/configmaps\n",
    );
    flush().await;
    assert_eq!(lab.log().len(), 2);
    assert!(lab.text("#list-summary").contains("default/a"), "{}", lab.text("#response"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_watch_frames_show_in_the_watches_panel() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "watch").await;
    lab.click("#send").await;
    assert!(lab.q("li.watch[data-watch='w1']").is_some(), "{}", lab.text("#response"));
    create_pods(&lab, &["a"]).await;
    lab.click("button[data-cmd='events w1']").await;
    let frames = lab.text("li.watch[data-watch='w1'] table");
    assert!(frames.contains("ADDED") && frames.contains("a"), "{frames}");
    lab.click("button[data-cmd='cancel w1']").await;
    assert!(lab.text("li.watch[data-watch='w1'] .badge").contains("cancelled"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_explain_toggle_is_a_set_line_and_shows_the_reason() {
    let lab = Lab::fresh().await;
    lab.check("#explain-toggle", true).await;
    assert_eq!(lab.log(), vec!["set explain on"]);
    lab.click("#send").await;
    assert!(!lab.text("#explain").is_empty(), "{}", lab.text("#response"));
    assert!(lab.el("#explain-toggle").dyn_into::<HtmlInputElement>().unwrap().checked());
    lab.check("#explain-toggle", false).await;
    assert_eq!(lab.log().last().unwrap(), "set explain off");
    lab.click("#send").await;
    assert!(lab.q("#explain").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_etcd_view_shows_keys() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.click("#etcd-read").await;
    assert!(lab.text("#etcd-kvs").contains("/registry/pods/default/a"), "{}", lab.text("#etcd"));
    lab.unmount();
}

// ---------------------------------------------------------------------------------------------
// Seeing it: i18n, timeline, scrubber, why, share links, embeds, big histories

use rvlab::script::why;
use rvlab::ui::config::Config;
use rvlab::ui::i18n::{self, K, Lang};
use rvlab::ui::timeline::{self, Window};
use std::rc::Rc;

impl Lab {
    /// Mounts an app opened with `cfg` (as if from that URL) over whatever localStorage holds.
    async fn with_config(cfg: Config) -> Lab {
        Lab::render_into(new_root(), Some(cfg)).await
    }

    /// A fresh sandbox (nothing saved) opened at the default URL: the "Why?" tests' setup.
    async fn empty() -> Lab {
        storage().remove_item(STORAGE_KEY).unwrap();
        Lab::with_config(Config::parse("", "")).await
    }

    fn attr(&self, sel: &str, name: &str) -> String {
        self.el(sel).get_attribute(name).unwrap_or_else(|| panic!("{sel} has no {name}"))
    }

    fn num(&self, sel: &str, name: &str) -> f64 {
        self.attr(sel, name).parse().unwrap_or_else(|_| panic!("{sel} {name} is not a number"))
    }

    /// The timeline's revision window, read from the SVG.
    fn window(&self) -> Window {
        Window {
            lo: self.attr("#timeline-svg", "data-lo").parse().unwrap(),
            hi: self.attr("#timeline-svg", "data-hi").parse().unwrap(),
        }
    }

    /// The panels that show the sandbox's state, as canonical text (elements with sorted
    /// attributes, so the order Yew happened to set them in does not matter).
    fn state_html(&self) -> String {
        ["#response", "#timeline-svg", "#tl-table", ".watches", "#etcd", "#log"]
            .iter()
            .map(|s| self.q(s).map(|e| canon(&e)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n----\n")
    }
}

fn canon(el: &Element) -> String {
    let mut out = String::new();
    let kids = el.child_nodes();
    for i in 0..kids.length() {
        let n = kids.item(i).unwrap();
        match n.dyn_ref::<Element>() {
            Some(e) => {
                let mut attrs: Vec<String> = e
                    .get_attribute_names()
                    .iter()
                    .filter_map(|a| a.as_string())
                    .map(|a| {
                        let v = e.get_attribute(&a).unwrap_or_default();
                        // Which marks the last step animated depends on the step, not the state.
                        let v = if a == "class" {
                            v.split(' ')
                                .filter(|c| *c != "fresh-a" && *c != "fresh-b")
                                .collect::<Vec<_>>()
                                .join(" ")
                        } else {
                            v
                        };
                        format!("{a}={v:?}")
                    })
                    .collect();
                attrs.sort();
                out.push_str(&format!("<{} {}>{}</>", e.tag_name(), attrs.join(" "), canon(e)));
            }
            None => out.push_str(&n.text_content().unwrap_or_default()),
        }
    }
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.11
}

const CM_A: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#;
const CM_B: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}"#;
const CM_C: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#;
const CM_D: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"}}"#;

/// Runs each line through the console.
async fn run_all(lab: &Lab, lines: &[&str]) {
    for l in lines {
        lab.console(l).await;
    }
}

#[wasm_bindgen_test]
fn i18n_every_key_has_both_translations() {
    assert!(K::ALL.len() > 150, "{} keys", K::ALL.len());
    for k in K::ALL {
        for lang in Lang::ALL {
            let s = k.get(lang);
            assert!(!s.trim().is_empty(), "{k:?} has no {lang:?} text");
            assert!(!s.contains("TODO") && !s.contains("FIXME"), "{k:?} {lang:?}: {s}");
        }
        assert_eq!(
            i18n::placeholders(k.en()),
            i18n::placeholders(k.zh()),
            "{k:?}: en and zh use different placeholders"
        );
        // Chinese text is Chinese unless it is a term (resourceVersion, etcd, …) or a format.
        let zh = k.zh();
        let has_cjk = zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let latin_words = zh.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() > 3).count();
        assert!(has_cjk || latin_words <= 3, "{k:?} looks untranslated: {zh}");
    }
    assert_eq!(i18n::fill("{0} of {1}", &[&3, &"x"]), "3 of x");
    assert_eq!(i18n::fill("{0} {5} {", &[&1]), "1 {5} {");
    assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
    assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
    assert_eq!(Lang::parse("fr"), None);
}

/// Visible UI text (outside code, JSON, key names and the engine's English explanation).
fn ui_text(root: &Element) -> Vec<String> {
    let mut out = Vec::new();
    let walker = document().create_tree_walker_with_what_to_show(root, 4 /* SHOW_TEXT */).unwrap();
    while let Ok(Some(n)) = walker.next_node() {
        let text = n.text_content().unwrap_or_default();
        if text.trim().is_empty() {
            continue;
        }
        let parent = n.parent_element().unwrap();
        if parent
            .closest(".mono, code, pre, .engine-text, .lane-label, svg, option, .sum, .status, .reason, .message, .error-box, #announce")
            .unwrap()
            .is_some()
        {
            continue;
        }
        out.push(text);
    }
    out
}

/// A script that brings up every view: objects, a paginated list, a watch and its frames, an etcd
/// read, compaction, a 410, an error line.
const TOUR: &[&str] = &[
    CM_A,
    CM_B,
    CM_C,
    "GET /api/v1/namespaces/default/configmaps?limit=1",
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2",
    "events w1",
    "etcd get /registry/ --prefix",
    "compact 4",
    "GET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact",
    "nonsense line",
];

#[wasm_bindgen_test]
async fn both_languages_render_every_view_without_missing_keys() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let lab = Lab::with_config(Config::parse("?lang=zh", "")).await;
    run_all(&lab, TOUR).await;
    lab.click("#share").await;
    lab.el("#tl-table").set_attribute("open", "").unwrap();
    for d in lab.all("details") {
        d.set_attribute("open", "").unwrap();
    }
    lab.select("#rb-verb", "watch").await;
    lab.click("#scrub-back").await;
    flush().await;
    assert!(lab.text("#console-h").starts_with("控制台"), "{}", lab.text("#console-h"));
    // No English UI sentence is left in the Chinese page.
    let english: Vec<&str> = K::ALL
        .iter()
        .filter(|k| k.en() != k.zh())
        .map(|k| k.en())
        .filter(|s| s.len() >= 12 && !s.contains('{') && s.contains(' '))
        .collect();
    let texts = ui_text(&lab.root);
    for t in &texts {
        for e in &english {
            assert!(!t.contains(e), "English text {e:?} in the Chinese page: {t:?}");
        }
        let words: Vec<&str> = t.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 3).collect();
        let run = t
            .split(|c: char| !(c.is_ascii_alphabetic() || c == ' '))
            .map(|seg| seg.split_whitespace().filter(|w| w.len() >= 2).count())
            .max()
            .unwrap_or(0);
        assert!(
            run < 4 || words.iter().all(|w| w.contains("resourceVersion")),
            "untranslated text in zh: {t:?}"
        );
    }
    // The language switch keeps the sandbox.
    let log = lab.log();
    lab.select("#lang", "en").await;
    assert_eq!(lab.log(), log);
    assert!(lab.text("#console-h").starts_with("Console"));
    for t in ui_text(&lab.root) {
        assert!(
            !t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "Chinese text in the English page: {t:?}"
        );
    }
    // The theme switch too, and it is what the page draws with.
    for theme in ["dark", "light", "auto"] {
        lab.select("#theme", theme).await;
        assert_eq!(lab.attr(".app", "data-theme"), theme);
        assert_eq!(lab.log(), log);
    }
    lab.unmount();
}

#[wasm_bindgen_test]
async fn timeline_draws_keys_compaction_lists_tokens_and_watches_where_the_state_says() {
    // An empty interactive embed shows the empty timeline (the playground's first visit shows
    // "start here" in its place).
    let empty = Lab::with_config(Config::parse("?embed=1&mode=interactive", "")).await;
    assert!(empty.q("#tl-empty").is_some());
    empty.unmount();
    let lab = Lab::fresh().await;
    assert!(lab.q("#welcome").is_some() && lab.q("#tl-empty").is_none());
    run_all(
        &lab,
        &[
            CM_A,                                                                     // rev 2
            CM_B,                                                                     // rev 3
            CM_C,                                                                     // rev 4
            "GET /api/v1/namespaces/default/configmaps?limit=1", // line 4: list RV 4, token rv 4
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2", // line 5: w1
            "DELETE /api/v1/namespaces/default/configmaps/a",    // rev 5
            "events w1",                                         // b@3, c@4, a deleted@5
            "compact 3",
        ],
    )
    .await;
    let w = lab.window();
    let g = lab.geom();
    assert_eq!(w, Window { lo: 1, hi: 5 });
    assert_eq!(lab.all("#timeline-svg g.lane").len(), 3);
    // Key a: one version from 2 to its delete at 5, then a tombstone.
    let seg = "g.lane[data-key='/registry/configmaps/default/a'] rect.seg";
    assert_eq!(lab.attr(seg, "data-rev"), "2");
    assert!(close(lab.num(seg, "x"), timeline::x_of(2.0, w, g)));
    assert!(close(lab.num(seg, "x") + lab.num(seg, "width"), timeline::x_of(5.0, w, g)));
    assert!(lab.q("g.lane[data-key='/registry/configmaps/default/a'] path.tomb[data-rev='5']").is_some());
    assert!(lab.text(seg).contains("version 1"), "{}", lab.text(seg));
    // The compacted zone ends at the compact revision.
    assert_eq!(lab.attr("#tl-compacted", "data-rev"), "3");
    assert!(close(lab.num("#tl-compacted", "x"), g.x0));
    assert!(close(
        lab.num("#tl-compacted", "x") + lab.num("#tl-compacted", "width"),
        timeline::x_of(3.0, w, g)
    ));
    assert!(close(lab.num("#tl-compact-line", "x1"), timeline::x_of(3.0, w, g)));
    // The list at its RV, its token pinned at the same revision, the watch at its last RV.
    let list = "g.mark.list[data-line='4']";
    assert_eq!(lab.attr(list, "data-rv"), "4");
    assert_eq!(lab.attr(list, "data-kind"), "list-rv");
    assert!(close(lab.num(list, "data-x"), timeline::x_of(4.5, w, g)));
    assert_eq!(lab.attr("g.mark.token[data-line='4']", "data-rv"), "4");
    let watch = "g.mark.watch[data-line='5']";
    assert_eq!(lab.attr(watch, "data-rv"), "5");
    assert!(close(lab.num(watch, "data-x"), timeline::x_of(5.5, w, g)));
    // The table equivalent says the same.
    let table = lab.text("#tl-table");
    assert!(table.contains("/registry/configmaps/default/a") && table.contains("deleted at 5"), "{table}");
    assert!(table.contains("line 4: list at RV 4") && table.contains("w1: last delivered RV 5"), "{table}");
    // Clicking a mark shows its line; hovering highlights the log entry.
    let g = lab.el(list);
    g.dispatch_event(&web_sys::MouseEvent::new("click").unwrap()).unwrap();
    flush().await;
    assert!(lab.text(".resp-line").contains("limit=1"), "{}", lab.text(".resp-line"));
    assert!(lab.el(list).class_list().contains("hl"));
    let enter = web_sys::MouseEvent::new("mouseenter").unwrap();
    lab.el(watch).dispatch_event(&enter).unwrap();
    flush().await;
    assert!(lab.el("#log li[data-line='5']").class_list().contains("hl"));
    // Every response is announced.
    assert!(lab.text("#announce").contains("line 4"), "{}", lab.text("#announce"));
    // Zooming narrows the window and keeps the geometry consistent.
    lab.click("#tl-zoom-in").await;
    let z = lab.window();
    assert!(z.span() < 5, "{z:?}");
    lab.click("#tl-all").await;
    assert_eq!(lab.window(), Window { lo: 1, hi: 5 });
    lab.unmount();
}

#[wasm_bindgen_test]
async fn scrubbing_back_and_forward_restores_the_exact_state_and_forking_asks() {
    let lab = Lab::fresh().await;
    let lines = [
        CM_A,
        CM_B,
        "GET /api/v1/namespaces/default/configmaps?limit=1",
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
        "events w1",
        "compact 3",
        "etcd get /registry/ --prefix",
    ];
    let mut snaps = vec![lab.state_html()];
    for l in lines {
        lab.console(l).await;
        snaps.push(lab.state_html());
    }
    let n = lines.len();
    assert_eq!(lab.text("#scrub-pos"), format!("step {n} of {n}"));
    lab.click("#scrub-back").await;
    lab.click("#scrub-back").await;
    assert_eq!(lab.text("#scrub-pos"), format!("step {} of {n}", n - 2));
    assert!(lab.q("#scrub-past").is_some());
    let past = lab.state_html();
    let strip = |s: &str| s.replace(" future", "");
    // The panels show exactly what they showed at that step (the log marks the later lines).
    for (a, b) in past.split("\n----\n").zip(snaps[n - 2].split("\n----\n")).take(5) {
        assert_eq!(a, b);
    }
    assert_eq!(lab.all("#log li.future").len(), 2);
    // Jump to the start, then anywhere with the slider, then forward to now.
    lab.click("#scrub-first").await;
    assert!(lab.q("#tl-empty").is_some());
    let range = lab.el("#scrub-range");
    range.dyn_ref::<HtmlInputElement>().unwrap().set_value("3");
    fire(&range, "input");
    flush().await;
    assert_eq!(lab.text("#scrub-pos"), format!("step 3 of {n}"));
    assert_eq!(lab.state_html().split("\n----\n").next(), snaps[3].split("\n----\n").next());
    lab.click("#scrub-last").await;
    assert_eq!(strip(&lab.state_html()), strip(&snaps[n]));
    // Running a line in the past asks first; "keep" changes nothing.
    lab.click("#scrub-back").await;
    lab.console("advance 1s").await;
    assert!(lab.q("#fork").is_some());
    assert_eq!(lab.log().len(), n);
    lab.click("#fork-cancel").await;
    assert!(lab.q("#fork").is_none());
    assert_eq!(lab.log().len(), n);
    // "Fork" drops the future after the scrubber and runs the line.
    lab.console("advance 1s").await;
    lab.click("#fork-confirm").await;
    assert_eq!(lab.log().len(), n);
    assert_eq!(lab.log().last().unwrap(), "advance 1s");
    assert_eq!(lab.text("#scrub-pos"), format!("step {n} of {n}"));
    assert_eq!(lab.saved().await["log"].as_array().unwrap().len(), n);
    // Clicking a later log line jumps there.
    lab.click("#scrub-first").await;
    lab.click("#log li[data-line='2'] button").await;
    assert_eq!(lab.text("#scrub-pos"), format!("step 2 of {n}"));
    assert!(lab.text(".resp-line").contains("\"b\""));
    lab.unmount();
}

/// The rendering of an expected typed decision (`why`) in `lang`: the one function the UI uses.
fn rendered(expected: serde_json::Value, lang: why::Lang) -> String {
    let w = why::OutputWhy::from_json(&expected).expect("a typed decision");
    why::render(&w, lang)
}

/// `#explain` as its paragraphs.
fn explain_paragraphs(lab: &Lab) -> Vec<String> {
    lab.all("#explain p").iter().map(|p| p.text_content().unwrap_or_default()).collect()
}

/// Selects log line `n`, then checks that "Why?" shows the rendering of `expected` in English and
/// in 中文 (switching the UI language, and back).
async fn why_of_line_is(lab: &Lab, n: usize, expected: &serde_json::Value) {
    lab.select("#lang", "en").await;
    lab.click(&format!("#log li[data-line='{n}'] button")).await;
    assert_eq!(explain_paragraphs(lab), vec![rendered(expected.clone(), why::Lang::En)], "line {n}");
    assert!(lab.q("#why #explain").is_some(), "#explain sits inside #why");
    lab.select("#lang", "zh").await;
    assert_eq!(explain_paragraphs(lab), vec![rendered(expected.clone(), why::Lang::Zh)], "line {n} in 中文");
    assert_eq!(lab.el("#explain").get_attribute("lang").as_deref(), Some("zh"));
    lab.select("#lang", "en").await;
}

fn zh() -> i18n::Tr {
    i18n::Tr(Lang::Zh)
}

fn en() -> i18n::Tr {
    i18n::Tr(Lang::En)
}

// Issue 13: a list with resourceVersion=3&limit=1 and no resourceVersionMatch is the legacy Exact
// rule (not NotOlderThan), and "Why?" says so in both languages.
#[wasm_bindgen_test]
async fn why_legacy_exact_list_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(&lab, &[CM_A, CM_B, "GET /api/v1/namespaces/default/configmaps?resourceVersion=3&limit=1"]).await;
    let expected = json!({"apiserver": 1, "verb": "list", "path": "cache-snapshot", "semantics": "LegacyExact",
        "rule": "exact-from-cache-snapshot", "rv": 3, "snapshotRv": 3, "revision": 3});
    why_of_line_is(&lab, 3, &expected).await;
    assert!(lab.text("#explain").contains("legacy Exact"), "{}", lab.text("#explain"));
    assert!(!lab.text("#why").contains("NotOlderThan"), "{}", lab.text("#why"));
    lab.unmount();
}

// A watch below the watch cache's history window ends with 410 — from the window, not from
// compaction — and both the output that read it and its ERROR frame say so.
#[wasm_bindgen_test]
async fn why_watch_cache_window_410_frame_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            "set cache.capacity 2",
            CM_A,
            CM_B,
            CM_C,
            CM_D,
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2",
            "events w1",
        ],
    )
    .await;
    let opened = json!({"apiserver": 1, "verb": "watch", "path": "watch-cache", "semantics": "Exact",
        "rule": "watch-from-cache-history", "outcome": "cache-window", "rv": 2, "cacheRv": 5, "oldestStartableRv": 3});
    why_of_line_is(&lab, 6, &opened).await;
    assert!(!lab.text("#why").contains("queues every change"), "{}", lab.text("#why"));
    let ended = json!({"apiserver": 1, "ended": "cache-window", "path": "watch-cache", "oldestStartableRv": 3, "rv": 2});
    why_of_line_is(&lab, 7, &ended).await;
    let frame = lines::Frame {
        kind: "ERROR".into(),
        name: String::new(),
        rv: String::new(),
        detail: "410 Expired".into(),
        watch_why: Some(opened),
        ended_why: Some(ended),
    };
    let frame_why = || lab.all("#response-events .why-frame p")[0].text_content().unwrap();
    assert_eq!(frame_why(), rvlab::ui::why::frame(en(), &frame));
    assert!(frame_why().contains("etcd's compaction has nothing to do with it"), "{}", frame_why());
    assert!(!frame_why().contains("typically its position was compacted"));
    let panel = || lab.all("li.watch[data-watch='w1'] .why-frame p")[0].text_content().unwrap();
    assert_eq!(panel(), rvlab::ui::why::frame(en(), &frame));
    lab.select("#lang", "zh").await;
    assert_eq!(frame_why(), rvlab::ui::why::frame(zh(), &frame));
    assert_eq!(panel(), rvlab::ui::why::frame(zh(), &frame));
    lab.unmount();
}

// The initial ADDED events of a resourceVersion=0 watch come in key order (a@3 before b@2); each
// frame's "Why?" carries the watch's own decision, which says key order, not "the numbers only
// grow".
#[wasm_bindgen_test]
async fn why_initial_events_come_in_key_order_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[CM_B, CM_A, "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0", "events w1"],
    )
    .await;
    let opened = json!({"apiserver": 1, "verb": "watch", "path": "watch-cache", "semantics": "SendInitialEvents",
        "rule": "watch-list-from-cache", "rv": 0, "cacheRv": 3, "initialEvents": 2, "startRv": 3,
        "endBookmark": false, "keyOrder": true});
    why_of_line_is(&lab, 3, &opened).await;
    lab.click("#log li[data-line='4'] button").await;
    let rows: Vec<String> =
        lab.all("#response-events tbody tr").iter().map(|r| r.text_content().unwrap()).collect();
    assert!(rows[0].starts_with("ADDEDa3") && rows[1].starts_with("ADDEDb2"), "{rows:?}");
    for (i, (name, rv)) in [("a", "3"), ("b", "2")].into_iter().enumerate() {
        let frame = lines::Frame {
            kind: "ADDED".into(),
            name: name.into(),
            rv: rv.into(),
            detail: String::new(),
            watch_why: Some(opened.clone()),
            ended_why: None,
        };
        let shown = lab.all("#response-events .why-frame p")[i].text_content().unwrap();
        assert_eq!(shown, rvlab::ui::why::frame(en(), &frame));
        assert!(shown.contains("in key order"), "{shown}");
        assert!(!shown.contains("only grow"), "{shown}");
        lab.select("#lang", "zh").await;
        let shown = lab.all("#response-events .why-frame p")[i].text_content().unwrap();
        assert_eq!(shown, rvlab::ui::why::frame(zh(), &frame));
        lab.select("#lang", "en").await;
    }
    lab.unmount();
}

// Continuing with the rv -1 token a 410 offers is an inconsistent continuation (ContinueLatest),
// not "one consistent snapshot".
#[wasm_bindgen_test]
async fn why_rv_minus_one_continuation_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            CM_B,
            CM_A,
            CM_C,
            "compact 4",
            "GET /api/v1/namespaces/default/configmaps?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiYVx1MDAwMCJ9",
        ],
    )
    .await;
    let expected = json!({"apiserver": 1, "verb": "list", "path": "watch-cache", "semantics": "ContinueLatest",
        "rule": "consistent-read-from-cache", "rv": -1, "etcdRevision": 4, "cacheRv": 4, "revision": 4});
    why_of_line_is(&lab, 5, &expected).await;
    assert!(lab.text("#explain").contains("inconsistent continuation"), "{}", lab.text("#explain"));
    // The request's token, decoded by the apiserver's own decoder.
    assert_eq!(
        lab.text("#request-continue-decoded .decoded"),
        r#"= {"v":"meta.k8s.io/v1","rv":-1,"start":"a\u0000"}"#
    );
    lab.unmount();
}

// An informer line: "Why?" is its typed decisions, one paragraph each, in the UI language.
#[wasm_bindgen_test]
async fn why_informer_line_in_both_languages() {
    use rvlab::client::trace::{Decision, ListMode};
    let lab = Lab::empty().await;
    run_all(&lab, &[CM_A, "informer start inf configmaps ns=default mode=legacy"]).await;
    lab.click("#log li[data-line='2'] button").await;
    let decisions = [
        Decision::Start {
            collection: "/api/v1/namespaces/default/configmaps".into(),
            mode: ListMode::Legacy,
            apiservers: vec![1],
        },
        Decision::ListAny { rv: "0".into(), limit: 500 },
        Decision::Listed { rv: "0".into(), items: 1, list_rv: "2".into(), requests: 1 },
    ];
    let shown = explain_paragraphs(&lab);
    assert_eq!(shown.len(), 4, "{shown:?}");
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(shown[i], why::informer::render(d, why::Lang::En));
    }
    assert!(shown[3].starts_with("watch from 2 (timeoutSeconds="), "{}", shown[3]);
    assert!(!lab.text("#why").contains("changes the simulation's settings"), "{}", lab.text("#why"));
    lab.select("#lang", "zh").await;
    let shown = explain_paragraphs(&lab);
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(shown[i], why::informer::render(d, why::Lang::Zh));
    }
    assert!(shown[3].starts_with("从 2 开始 watch（timeoutSeconds="), "{}", shown[3]);
    lab.unmount();
}

// Outputs without a decision explain what kind of line they were; a watch's frames say what
// they are in the UI's language.
#[wasm_bindgen_test]
async fn why_explains_outputs_without_a_decision_and_frames_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            CM_A,
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
            CM_B,
            "events w1",
            "advance 1s",
        ],
    )
    .await;
    lab.click("#log li[data-line='4'] button").await;
    assert_eq!(lab.text("#why-text"), en().t(K::WhyEventsRead));
    let frame_why = lab.all("li.watch[data-watch='w1'] .why-frame p");
    assert_eq!(frame_why.len(), 2);
    assert!(frame_why[1].text_content().unwrap().starts_with("ADDED “b”: the object is new to this watch"));
    lab.click("#log li[data-line='5'] button").await;
    assert_eq!(lab.text("#why-text"), en().t(K::WhyAdvance));
    assert!(lab.q("#explain").is_none(), "advance carries no decision");
    lab.select("#lang", "zh").await;
    assert_eq!(lab.text("#why-text"), zh().t(K::WhyAdvance));
    assert!(
        lab.all("li.watch[data-watch='w1'] .why-frame p")[1]
            .text_content()
            .unwrap()
            .starts_with("ADDED “b”：这个对象"),
        "{}",
        lab.text("li.watch")
    );
    assert!(lab.text("#why").contains(zh().t(K::Why)), "{}", lab.text("#why"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn a_share_link_round_trips_the_sandbox_and_the_scrubber() {
    use rvlab::ui::share;
    let s =
        share::Shared { log: vec!["advance 1s".into(), CM_A.into(), "# ünïcødé 中文".into()], at: 2 };
    let frag = share::encode(&s);
    assert!(frag.starts_with("v1="));
    assert!(frag[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{frag}");
    assert_eq!(share::decode(&frag).unwrap(), s);
    assert_eq!(share::decode(&format!("#{frag}")).unwrap(), s);
    // The packer round-trips and actually packs a realistic log.
    let log: Vec<String> =
        (0..200).map(|i| format!("{CM_A}\nGET /api/v1/namespaces/default/configmaps?limit={i}")).collect();
    let text = log.join("\n");
    let packed = share::pack(text.as_bytes());
    assert_eq!(share::unpack(&packed, usize::MAX).unwrap(), text.as_bytes());
    assert!(packed.len() * 5 < text.len(), "{} -> {}", text.len(), packed.len());
    for sample in ["", "a", "aaaaaaaaaaaaaaaaaaaaaaaa", "abcabcabcabd", "中文中文中文中文"] {
        assert_eq!(share::unpack(&share::pack(sample.as_bytes()), 1 << 20).unwrap(), sample.as_bytes());
    }

    // Through the DOM: the share box holds the link; opening it replays the sandbox.
    let lab = Lab::fresh().await;
    run_all(&lab, &[CM_A, CM_B, "GET /api/v1/namespaces/default/configmaps?limit=1", "compact 3"]).await;
    lab.click("#scrub-back").await;
    lab.click("#share").await;
    let url = lab.el("#share-url").dyn_into::<HtmlInputElement>().unwrap().value();
    let (_, fragment) = url.split_once('#').expect("a fragment");
    let log = lab.log();
    assert!(
        lab.el("#embed-code").dyn_into::<HtmlInputElement>().unwrap().value().contains("embed=1&amp;script=")
    );
    lab.unmount();
    // The same sandbox as a reload mounts it (the picture measures its width when it is first
    // drawn, and this one was first drawn over the empty sandbox's "start here").
    let again = Lab::mount().await;
    again.click("#scrub-back").await;
    let before = again.state_html();
    again.unmount();

    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    let opened = Lab::with_config(Config::parse("", &format!("#{fragment}"))).await;
    assert_eq!(opened.log(), log);
    assert_eq!(opened.text("#scrub-pos"), "step 3 of 4");
    assert_eq!(opened.state_html(), before);
    assert!(
        opened.text("#notice").contains("Opened a shared sandbox (4 lines)"),
        "{}",
        opened.text("#notice")
    );
    // The previous sandbox is kept and can come back.
    assert_eq!(opened.saved().await["log"].as_array().unwrap().len(), 4);
    opened.click("#restore-backup").await;
    assert_eq!(opened.log(), vec!["advance 5m"]);
    opened.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_corrupt_or_hostile_share_fragment_gives_a_message_and_an_empty_sandbox() {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
    let deflate = |b: &[u8]| rvlab::ui::share::pack(b);
    let bomb = deflate(&vec![b'['; 9 * 1024 * 1024]);
    assert!(bomb.len() < 2000, "{}", bomb.len());
    let cases = [
        ("v1=%%%not-base64%%%".to_string(), "not valid base64url"),
        (format!("v1={}", b64(b"\x00\x01garbage that is not packed")), "points outside"),
        (format!("v1={}", b64(b"\x7f\x01abc")), "cut short"),
        (format!("v1={}", b64(&deflate(b"{not json"))), "not JSON"),
        (format!("v1={}", b64(&deflate(br#"{"log":[1,2,3]}"#))), "a line is not text"),
        (format!("v1={}", b64(&deflate(br#"{"log":["a"],"at":-4}"#))), "cannot be unpacked"),
        (format!("v1={}", b64(&bomb)), "more than 8 MB"),
        ("v7=abc".to_string(), "newer rvlab"),
        ("v1=".to_string(), "cannot be unpacked"),
    ];
    for (frag, says) in cases {
        storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
        let lab = Lab::with_config(Config::parse("?lang=en", &format!("#{frag}"))).await;
        assert!(lab.log().is_empty(), "{frag}: {:?}", lab.log());
        let notice = lab.el("#notice");
        assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
        assert!(
            lab.text("#notice").contains(says),
            "{}: {}",
            &frag[..frag.len().min(40)],
            lab.text("#notice")
        );
        assert!(lab.text("#notice").contains("empty sandbox"));
        // The saved sandbox is untouched until something runs, and kept as a backup.
        assert_eq!(lab.saved().await["log"], json!(["advance 5m"]));
        assert!(lab.q("#restore-backup").is_some());
        lab.unmount();
    }
    // Not one of ours: ignored.
    let lab = Lab::with_config(Config::parse("", "#section-2")).await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    assert!(lab.q("#notice").is_none());
    lab.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn embed_mode_takes_its_parameters_posts_its_height_and_never_touches_the_saved_sandbox() {
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    // Listen for the height message.
    let got: Rc<std::cell::RefCell<Vec<(String, f64)>>> = Rc::default();
    let got2 = got.clone();
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MessageEvent)>::new(
        move |e: web_sys::MessageEvent| {
            let d = e.data();
            let t =
                js_sys::Reflect::get(&d, &"type".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
            let h = js_sys::Reflect::get(&d, &"height".into()).ok().and_then(|v| v.as_f64()).unwrap_or(-1.0);
            got2.borrow_mut().push((t, h));
        },
    );
    let win = web_sys::window().unwrap();
    win.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();

    let script = rvlab::ui::url::percent_encode(&format!(
        "{CM_A}\n{CM_B}\nGET /api/v1/namespaces/default/configmaps?limit=1\n"
    ));
    let ro = Lab::with_config(Config::parse(
        &format!("?embed=1&mode=readonly&theme=dark&lang=zh&script={script}"),
        "",
    ))
    .await;
    assert!(ro.el(".app").class_list().contains("embed"));
    assert_eq!(ro.attr(".app", "data-theme"), "dark");
    assert_eq!(ro.log().len(), 3);
    assert!(ro.q("#console-input").is_none() && ro.q("#request-form").is_none() && ro.q("#share").is_none());
    assert!(ro.text("#console-h").starts_with("控制台"));
    assert!(ro.q("g.mark.token[data-rv='3']").is_some());
    // Read-only still scrubs.
    ro.click("#scrub-back").await;
    assert!(ro.text("#scrub-pos").contains("第 2 步"));
    // Several embeds on one page are independent.
    let it = Lab::with_config(Config::parse("?embed=1&mode=interactive&lesson=compaction", "")).await;
    assert!(it.log().len() >= 6);
    assert!(it.text("#status").starts_with("410"), "{}", it.text("#response"));
    it.console("advance 1s").await;
    assert_eq!(it.log().last().unwrap(), "advance 1s");
    assert_eq!(ro.log().len(), 3);
    it.click("#reset").await;
    assert_ne!(it.log().last().unwrap(), "advance 1s");
    assert_eq!(
        it.saved().await["log"],
        json!(["advance 5m"]),
        "embeds do not write the playground's sandbox"
    );
    let unknown = Lab::with_config(Config::parse("?embed=1&lesson=nope", "")).await;
    assert!(unknown.text("#notice").contains("nope") && unknown.text("#notice").contains("pagination"));
    for _ in 0..20 {
        yew::platform::time::sleep(std::time::Duration::from_millis(10)).await;
        if got.borrow().len() >= 2 {
            break;
        }
    }
    let msgs = got.borrow().clone();
    assert!(msgs.iter().any(|(t, h)| t == "rvlab:height" && *h > 100.0), "{msgs:?}");
    win.remove_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();
    ro.unmount();
    it.unmount();
    unknown.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

/// A watch cache keeps a snapshot per revision; the system view draws at most one tick per
/// pixel of its row (the newest there), so thousands of snapshots are not thousands of elements.
#[wasm_bindgen_test]
async fn thousands_of_cache_snapshots_are_one_tick_per_pixel() {
    let mut session = rvlab::ui::state::new_session();
    let mut entries = Vec::new();
    for i in 0..3000usize {
        let line = format!(
            r#"etcd put /registry/configmaps/default/cm-{i} {{"kind":"ConfigMap","apiVersion":"v1","metadata":{{"name":"cm-{i}","namespace":"default"}}}}"#
        );
        let outcome = session.run_line_outcome(i + 1, &line);
        entries.push(rvlab::ui::state::Entry::new(line, outcome));
    }
    let view = session.view();
    let snapshots: Vec<i64> =
        view.apiservers.iter().flat_map(|a| &a.caches).flat_map(|c| c.snapshots.clone()).collect();
    assert!(snapshots.len() > 2000, "{} snapshots held", snapshots.len());
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_session(session, entries)).await;
    settle().await;
    let ticks = lab.all(".pictures line.snapshot");
    let width = lab.el(".pictures").get_bounding_client_rect().width();
    // The stretches with only writes (and their snapshots) are folded: their ticks share the
    // fold's few pixels, one per pixel.
    assert!(!lab.attr("#system-view", "data-folds").is_empty());
    assert!(ticks.len() > 20 && ticks.len() as f64 <= width, "{} ticks in {width} px", ticks.len());
    let xs: Vec<f64> = ticks.iter().map(|t| t.get_bounding_client_rect().x().floor()).collect();
    assert!(xs.windows(2).all(|p| p[0] < p[1]), "one tick per pixel, in revision order");
    let rvs: Vec<i64> = ticks.iter().filter_map(|t| t.get_attribute("data-rv")?.parse().ok()).collect();
    assert_eq!(rvs.last(), snapshots.iter().max(), "the newest snapshot is drawn");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn a_100000_revision_history_renders_without_freezing() {
    let t0 = js_sys::Date::now();
    let mut session = rvlab::ui::state::new_session();
    let mut entries = Vec::new();
    for i in 0..100_000usize {
        let line = format!("etcd put /registry/configmaps/default/k{} v{i}", i % 40);
        let outcome = session.run_line_outcome(i + 1, &line);
        entries.push(rvlab::ui::state::Entry::new(line, outcome));
    }
    entries.push(rvlab::ui::state::Entry::new(
        "compact 50000",
        session.run_line_outcome(100_001, "compact 50000"),
    ));
    let built = js_sys::Date::now();
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_session(session, entries)).await;
    let rendered = js_sys::Date::now();
    assert_eq!(lab.window(), Window { lo: 1, hi: 100_001 });
    assert!(lab.text("#tl-showing").contains("of 100001"), "{}", lab.text("#tl-showing"));
    // Windowed and aggregated: a bounded number of SVG elements.
    let shapes = lab.all("#timeline-svg rect, #timeline-svg path, #timeline-svg line").len();
    assert!(shapes < 4000, "{shapes} shapes");
    assert!(lab.q("#tl-more").is_some(), "keys beyond the lane limit are aggregated");
    assert!(close(lab.num("#tl-compacted", "x") + lab.num("#tl-compacted", "width"), lab.axis().x(50_000.0)));
    assert!(lab.all("#log li").len() <= rvlab::ui::console::MAX_ROWS);
    assert!(lab.text("#log-more").contains("99701"), "{}", lab.text("#log-more"));
    // Zoom to a small range: single versions are drawn again.
    // The pictures lay out for the width they measure (a ResizeObserver): let that settle before
    // typing, as a person would be slower than that.
    settle().await;
    lab.input("#tl-from", "99990").await;
    fire(&lab.el("#tl-from"), "change");
    flush().await;
    assert_eq!(lab.window().lo, 99_990);
    assert!(lab.all("#timeline-svg rect.seg").len() >= 12);
    let done = js_sys::Date::now();
    web_sys::console::log_1(
        &format!(
            "100k: build {:.0} ms, first render {:.0} ms, zoom {:.0} ms",
            built - t0,
            rendered - built,
            done - rendered
        )
        .into(),
    );

    lab.unmount();
}

#[wasm_bindgen_test]
fn built_in_lessons_run_cleanly() {
    for l in rvlab::ui::examples::all() {
        let mut s = rvlab::ui::state::new_session();
        let outs: Vec<serde_json::Value> = rvlab::ui::examples::lines(&l)
            .iter()
            .enumerate()
            .filter_map(|(i, line)| s.run_line(i + 1, line))
            .collect();
        assert!(outs.iter().all(|o| o.get("error").is_none()), "{}: {outs:?}", l.name);
        let codes: Vec<u64> = outs.iter().filter_map(|o| o.get("code").and_then(|c| c.as_u64())).collect();
        match l.name {
            "pagination" => assert_eq!(codes.last(), Some(&200), "{outs:?}"),
            "compaction" => assert_eq!(codes.last(), Some(&410), "{outs:?}"),
            "conflict" => assert_eq!(codes[codes.len() - 2], 409, "{outs:?}"),
            "watch" => {
                assert!(outs.last().unwrap()["events"].as_array().is_some_and(|e| e.len() >= 2), "{outs:?}")
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Guided lessons (the lesson files come from the engine's `sources()`, linked into the TEST wasm
// only; the app fetches them from `lessons/` next to the page)

use rvlab::ui::config::{FILES, Loader, index_of, slug_of};
use rvlab::ui::guided::{self, ACTIVE_KEY, PROGRESS_KEY};

/// A loader that answers from the engine's embedded texts, asynchronously like fetch.
fn inline_loader() -> Loader {
    Rc::new(|file: &str, done: yew::Callback<Result<String, Problem>>| {
        let text = rvlab::lessons::sources()
            .iter()
            .find(|(f, _)| *f == file)
            .map(|(_, t)| t.to_string())
            .ok_or_else(|| Problem::Http { status: 404, status_text: "Not Found".into() });
        yew::platform::spawn_local(async move { done.emit(text) });
    })
}

fn clear_lessons() {
    for k in [STORAGE_KEY, ACTIVE_KEY, PROGRESS_KEY, rvlab::ui::model::BACKUP_KEY] {
        storage().remove_item(k).unwrap();
    }
}

impl Lab {
    /// Flushes until `sel` is rendered (bounded).
    async fn wait_for(&self, sel: &str) {
        for _ in 0..200 {
            if self.q(sel).is_some() {
                return;
            }
            yew::platform::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        panic!(
            "{sel} never rendered; panel: {}",
            self.q("#lesson-panel").and_then(|p| p.text_content()).unwrap_or_default()
        );
    }
}

#[wasm_bindgen_test]
fn every_lesson_file_has_a_slug_the_ui_finds() {
    for (file, text) in rvlab::lessons::sources() {
        let l = rvlab::lessons::parse(text).unwrap();
        assert_eq!(slug_of(file), l.slug, "{file}: the file name is NN-<slug>.rv");
        assert_eq!(index_of(&l.slug), FILES.iter().position(|f| f == file));
        // The book names lessons by file: `05-paging` and `05-paging.rv` find the same lesson.
        assert_eq!(index_of(file.trim_end_matches(".rv")), index_of(&l.slug), "{file}");
        assert_eq!(index_of(file), index_of(&l.slug), "{file}");
        assert!(l.missing_translations().is_empty(), "{file}: {:?}", l.missing_translations());
    }
    // Guided slugs and the built-in examples do not clash.
    for ex in rvlab::ui::examples::all() {
        assert!(index_of(ex.name).is_none(), "{} is both an example and a lesson", ex.name);
    }
    for not_a_lesson in ["05-pagin", "05", "paging.rv", "99-paging", ""] {
        assert_eq!(index_of(not_a_lesson), None, "{not_a_lesson:?}");
    }
}

#[wasm_bindgen_test]
async fn every_lesson_completes_through_the_dom_in_both_languages() {
    for (lang, passed) in [("en", "Goal reached."), ("zh", "目标已达成。")] {
        for (f, file) in FILES.iter().enumerate() {
            clear_lessons();
            let slug = slug_of(file);
            let cfg = Config::parse(&format!("?lang={lang}&lesson={slug}"), "").with_loader(inline_loader());
            let lab = Lab::with_config(cfg).await;
            lab.wait_for("#lesson-title").await;
            let lesson = rvlab::lessons::parse(rvlab::lessons::sources()[f].1).unwrap();
            assert_eq!(lab.text("#lesson-title"), lesson.title.get(lang));
            assert_eq!(lab.log(), lesson.setup, "{slug}: the sandbox starts with the setup");
            let n = lesson.steps.len();
            for (k, step) in lesson.steps.iter().enumerate() {
                assert_eq!(lab.attr("#lesson-panel", "data-step"), k.to_string());
                assert!(
                    lab.text("#lesson-goal").contains(&step.goal.get(lang).replace('`', "")),
                    "{slug} step {}",
                    k + 1
                );
                let before = lab.log().len();
                lab.click("#lesson-show").await;
                assert_eq!(
                    lab.log().len(),
                    before + step.solution.len(),
                    "{slug} step {}: Show me goes into the log",
                    k + 1
                );
                assert_eq!(&lab.log()[before..], &step.solution[..]);
                lab.click("#lesson-check").await;
                let result = lab.text("#lesson-result");
                assert!(
                    lab.el("#lesson-result").class_list().contains("ok") && result.contains(passed),
                    "{lang} {slug} step {}: {result}",
                    k + 1
                );
                if k + 1 < n {
                    lab.click("#lesson-next").await;
                }
            }
            assert!(lab.q("#lesson-complete").is_some(), "{lang} {slug}");
            let progress: serde_json::Value =
                serde_json::from_str(&storage().get_item(PROGRESS_KEY).unwrap().unwrap()).unwrap();
            assert_eq!(progress[slug].as_array().map(|a| a.len()), Some(n), "{slug}: {progress}");
            lab.unmount();
        }
    }
    clear_lessons();
}

/// A loader that answers `text` for the address `url` only (and 404 otherwise), recording what
/// it was asked for.
fn src_loader(url: &'static str, text: String, asked: Rc<std::cell::RefCell<Vec<String>>>) -> Loader {
    Rc::new(move |file: &str, done: yew::Callback<Result<String, Problem>>| {
        asked.borrow_mut().push(file.to_string());
        let r = if file == url {
            Ok(text.clone())
        } else {
            Err(Problem::Http { status: 404, status_text: "Not Found".into() })
        };
        yew::platform::spawn_local(async move { done.emit(r) });
    })
}

#[wasm_bindgen_test]
async fn a_lesson_named_by_lesson_src_is_fetched_from_its_address_and_runs() {
    clear_lessons();
    const URL: &str = "https://docs.example/book/my-lesson.rv";
    let text = rvlab::lessons::sources()[4].1;
    let lesson = rvlab::lessons::parse(text).unwrap();
    let asked: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
    let search = format!("?embed=1&lang=en&lesson-src={}", rvlab::ui::url::percent_encode(URL));
    let cfg = Config::parse(&search, "").with_loader(src_loader(URL, text.to_string(), asked.clone()));
    assert_eq!(cfg.lesson_src.as_deref(), Some(URL));
    assert_eq!(cfg.guided_lesson(), Some(FILES.len()), "lesson-src takes the slot after the files");
    assert!(!cfg.readonly(), "a guided lesson embed is interactive");
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-title").await;
    assert_eq!(*asked.borrow(), vec![URL.to_string()], "fetched from its address, once");
    assert_eq!(lab.text("#lesson-title"), lesson.title.en);
    assert_eq!(lab.log(), lesson.setup, "the sandbox starts with the lesson's setup");
    lab.click("#lesson-show").await;
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("ok"), "{}", lab.text("#lesson-result"));
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn a_lesson_src_that_is_not_a_lesson_says_so_and_keeps_the_page() {
    clear_lessons();
    const URL: &str = "https://docs.example/book/not-a-lesson.rv";
    let asked: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
    let search = format!("?embed=1&lang=en&lesson-src={}", rvlab::ui::url::percent_encode(URL));
    let cfg = Config::parse(&search, "").with_loader(src_loader(
        URL,
        "GET /api/v1/namespaces\n".to_string(),
        asked.clone(),
    ));
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-panel .lesson-error").await;
    let msg = lab.text("#lesson-panel .lesson-error");
    assert!(msg.contains(URL) && msg.contains("a script line before `#: setup` or `#: step`"), "{msg}");
    assert_eq!(lab.text("#lesson-panel h2"), URL);
    assert!(lab.q("#console-input").is_some() || lab.q(".app.embed").is_some(), "the app is still there");
    lab.unmount();
    // Not found: the HTTP status is named.
    let cfg = Config::parse("?embed=1&lang=en&lesson-src=elsewhere.rv", "").with_loader(src_loader(
        URL,
        String::new(),
        asked.clone(),
    ));
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-panel .lesson-error").await;
    assert!(
        lab.text("#lesson-panel .lesson-error").contains("404"),
        "{}",
        lab.text("#lesson-panel .lesson-error")
    );
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn check_says_what_is_still_missing_after_a_wrong_action() {
    clear_lessons();
    let cfg = Config::parse("?lang=en&lesson=where-rv-comes-from", "").with_loader(inline_loader());
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-title").await;
    // Nothing done yet.
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("missing"));
    assert!(
        lab.text("#lesson-missing").contains("nothing has run in this step yet"),
        "{}",
        lab.text("#lesson-missing")
    );
    // The wrong object: the name check says what it expected and what it saw.
    lab.console(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}"#).await;
    lab.click("#lesson-check").await;
    let missing = lab.text("#lesson-missing");
    assert!(missing.contains(r#"body.metadata.name == "a""#) && missing.contains(r#""b""#), "{missing}");
    assert!(!missing.contains("code 201"), "the code check holds: {missing}");
    // In Chinese too.
    lab.select("#lang", "zh").await;
    assert!(lab.text("#lesson-result").contains("还没有完成"), "{}", lab.text("#lesson-result"));
    lab.select("#lang", "en").await;
    // A later change makes the result stale.
    lab.console("advance 1s").await;
    assert!(lab.text("#lesson-result").contains("press Check again"));
    // Undo the wrong line; the right one passes (any correct way counts, not only Show me).
    lab.click("#undo").await;
    lab.click("#undo").await;
    lab.console(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"},"data":{"mine":"yes"}}"#,
    )
    .await;
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("ok"), "{}", lab.text("#lesson-result"));
    assert!(lab.text("#lesson-after").contains("resourceVersion is \"2\""), "{}", lab.text("#lesson-after"));
    lab.unmount();
    clear_lessons();
}

/// The lessons inline, except that fetching `failing` answers HTTP 503 while `fails` counts down.
fn failing_once(failing: &'static str, fails: Rc<std::cell::Cell<u32>>) -> Loader {
    let inner = inline_loader();
    Rc::new(move |file: &str, done: yew::Callback<Result<String, Problem>>| {
        if file == failing && fails.get() > 0 {
            fails.set(fails.get() - 1);
            let e = Problem::Http { status: 503, status_text: "Service Unavailable".into() };
            yew::platform::spawn_local(async move { done.emit(Err(e)) });
        } else {
            inner(file, done);
        }
    })
}

/// A line the session refuses, or that does not parse, gives the UI its typed reason; the
/// response's error box, its "Why?" and the console's summary render it in the UI's language.
#[wasm_bindgen_test]
async fn a_refused_line_is_told_in_the_learners_language() {
    use rvlab::script::line_error::LineError;
    use rvlab::script::refusal::Refusal;
    let lab = Lab::fresh().await;
    lab.console("events w9").await;
    lab.console("advance 169h").await;
    let no_watch = Refusal::NoWatch { watch: "w9".into(), hint: true };
    let too_long = Refusal::AdvanceTooLong { max: "168h".into() };
    assert_eq!(lab.text("#line-error"), "advance is at most 168h per line; repeat the line to go further");
    lab.select("#lang", "zh").await;
    assert_eq!(lab.text("#line-error"), too_long.render(why::Lang::Zh));
    assert_eq!(lab.text("#line-error"), "一行 advance 最多 168h；要走得更远，请重复这一行");
    let row = lab.text("#log li[data-line='1']");
    assert!(row.contains(&no_watch.render(why::Lang::Zh)), "{row}");
    assert!(!row.contains("no watch named"), "{row}");
    assert!(lab.text("#why-text").starts_with("这一行没有运行"), "{}", lab.text("#why-text"));
    lab.console("set compactor maybe").await;
    assert_eq!(lab.text("#line-error"), "compactor 只接受 on 或 off，而不是 \"maybe\"");
    // A bad duration says what is wrong with it, as the English does.
    lab.console("set cache.lag 5").await;
    assert_eq!(lab.text("#line-error"), "cache.lag：无效的时长 \"5\"：缺少单位；可用 ms、s、m 或 h");
    // A line that does not parse: its syntax error is a value too, told in 中文; the script words
    // (the command, its usage) stay as written.
    lab.console("frobnicate now").await;
    let unknown = rvlab::script::parse::parse_line("frobnicate now").unwrap_err();
    assert_eq!(lab.text("#line-error"), unknown.render(why::Lang::Zh));
    assert!(
        lab.text("#line-error").starts_with("未知命令 \"frobnicate\"；应为 GET、POST、PUT、"),
        "{}",
        lab.text("#line-error")
    );
    assert!(lab.text("#why-text").starts_with("这一行不符合脚本语言的写法"), "{}", lab.text("#why-text"));
    lab.console("compact x").await;
    assert_eq!(lab.text("#line-error"), "compact：修订号（revision）必须是数字，而不是 \"x\"");
    assert!(
        lab.text("#log li[data-line='6']").contains("修订号（revision）必须是数字"),
        "{}",
        lab.text("#log li[data-line='6']")
    );
    lab.select("#lang", "en").await;
    assert_eq!(lab.text("#line-error"), "compact: revision must be a number, got \"x\"");
    assert!(lab.text("#log li[data-line='1']").contains(&no_watch.to_string()));
    // etcd's own error is not a refusal of the session: its words stay etcd's, and "Why?" says so.
    lab.console("compact 99").await;
    assert_eq!(lab.text("#line-error"), "mvcc: required revision is a future revision");
    assert!(
        lab.text("#why-text").starts_with("This line ended in the error above"),
        "{}",
        lab.text("#why-text")
    );
    lab.select("#lang", "zh").await;
    lab.console("pager list /apis/x").await;
    assert_eq!(
        lab.text("#line-error"),
        "pager list：\"/apis/x\" 不是集合路径；应为 /api/v1/namespaces/<ns>/<resource> 或 /api/v1/<resource>"
    );
    assert!(lab.text("#why-text").starts_with("这一行没有运行"), "{}", lab.text("#why-text"));
    // The language lives in the page's URL: later tests start in English.
    lab.select("#lang", "en").await;
    lab.unmount();
}

#[wasm_bindgen_test]
async fn a_failed_lesson_fetch_is_reported_in_the_learners_language() {
    clear_lessons();
    let loader = failing_once(FILES[2], Rc::new(std::cell::Cell::new(1)));
    let lab = Lab::with_config(Config::parse("?lang=zh", "").with_loader(loader)).await;
    lab.click("#lessons").await;
    lab.wait_for("#lesson-list li .lesson-retry").await;
    let row = lab.text("#lesson-list li[data-slug='list-rv']");
    assert!(row.contains("无法加载 03-list-rv.rv：服务器返回 HTTP 503 Service Unavailable"), "{row}");
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn lesson_list_progress_failed_fetch_retry_leave_and_resume() {
    clear_lessons();
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    // The third file fails once, then loads.
    let fails = Rc::new(std::cell::Cell::new(1));
    let loader = failing_once(FILES[2], fails.clone());
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_loader(loader.clone())).await;
    assert!(lab.q("#lesson-panel").is_none());
    lab.click("#lessons").await;
    lab.wait_for("#lesson-list li[data-slug='myths'] .lesson-progress").await;
    assert_eq!(lab.all("#lesson-list li").len(), FILES.len());
    let row = lab.text("#lesson-list li[data-slug='list-rv']");
    assert!(row.contains("Could not load 03-list-rv.rv") && row.contains("503"), "{row}");
    lab.click("#lesson-list li[data-slug='list-rv'] .lesson-retry").await;
    lab.wait_for("#lesson-list li[data-slug='list-rv'] .lesson-progress").await;
    assert!(lab.text("#lesson-list li[data-slug='where-rv-comes-from']").contains("0/6 steps"));
    // Open lesson 1: the old sandbox is backed up, and can come back.
    lab.click("#lesson-list li[data-slug='where-rv-comes-from'] button").await;
    lab.wait_for("#lesson-title").await;
    assert!(lab.log().is_empty());
    assert!(lab.text("#notice").contains("Your previous sandbox was kept"), "{}", lab.text("#notice"));
    lab.click("#lesson-show").await;
    lab.click("#lesson-check").await;
    lab.click("#lesson-next").await;
    assert_eq!(lab.text("#lesson-pos"), "Step 2 of 6");
    lab.click("#lesson-all").await;
    assert!(lab.text("#lesson-list li[data-slug='where-rv-comes-from']").contains("1/6 steps"));
    lab.click("#lesson-list li[data-slug='where-rv-comes-from'] button").await;
    lab.wait_for("#lesson-title").await;
    // Reopening from the list starts the lesson again.
    assert!(lab.log().is_empty());
    lab.click("#lesson-show").await;
    lab.click("#lesson-next").await;
    let log = lab.log();
    lab.unmount();
    // A reload resumes the lesson at its step over the restored sandbox.
    let again = Lab::with_config(Config::parse("?lang=en", "").with_loader(loader.clone())).await;
    again.wait_for("#lesson-title").await;
    assert_eq!(again.log(), log);
    assert_eq!(again.text("#lesson-pos"), "Step 2 of 6");
    again.click("#lesson-show").await;
    again.click("#lesson-check").await;
    assert!(again.el("#lesson-result").class_list().contains("ok"), "{}", again.text("#lesson-result"));
    // Leave: the panel goes, the sandbox stays and stays playable.
    let log = again.log();
    again.click("#lesson-leave").await;
    assert!(again.q("#lesson-panel").is_none());
    assert_eq!(again.log(), log);
    again.console("advance 1s").await;
    assert_eq!(again.log().len(), log.len() + 1);
    assert!(storage().get_item(ACTIVE_KEY).unwrap().is_none());
    again.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn the_app_fetches_lessons_next_to_the_page_and_reports_a_failed_fetch() {
    clear_lessons();
    // The test runner serves the crate directory, so `lessons/<file>` (relative) is found as it
    // is next to dist/index.html: the real fetch path loads and parses it.
    let lab = Lab::with_config(Config::parse("?lang=en&lesson=paging", "")).await;
    lab.wait_for("#lesson-title").await;
    assert!(lab.text("#lesson-title").starts_with("Paging"), "{}", lab.text("#lesson-title"));
    lab.unmount();
    // A file that is not there: an error that says why.
    let got: Rc<std::cell::RefCell<Option<Result<String, Problem>>>> = Rc::default();
    let g = got.clone();
    guided::fetch_text("lessons/99-not-there.rv", yew::Callback::from(move |r| *g.borrow_mut() = Some(r)));
    for _ in 0..200 {
        if got.borrow().is_some() {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let r = got.borrow().clone().expect("fetch answered");
    assert!(matches!(r, Err(Problem::Http { status: 404, .. })), "{r:?}");
    clear_lessons();
}

#[wasm_bindgen_test]
async fn lessons_open_in_embeds_interactive_or_as_a_read_only_replay() {
    clear_lessons();
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    let it =
        Lab::with_config(Config::parse("?embed=1&lang=zh&lesson=paging", "").with_loader(inline_loader()))
            .await;
    it.wait_for("#lesson-title").await;
    assert!(it.q("#console-input").is_some(), "a lesson embed is interactive by default");
    it.click("#lesson-show").await;
    it.click("#lesson-check").await;
    assert!(it.text("#lesson-result").contains("目标已达成"), "{}", it.text("#lesson-result"));
    assert!(it.q("#lesson-all").is_some());
    // Read-only: every solution is in the log; the steps move the scrubber.
    let l = rvlab::lessons::parse(rvlab::lessons::sources()[0].1).unwrap();
    let ro = Lab::with_config(
        Config::parse("?embed=1&mode=readonly&lang=en&lesson=where-rv-comes-from", "")
            .with_loader(inline_loader()),
    )
    .await;
    ro.wait_for("#lesson-title").await;
    assert!(ro.q("#console-input").is_none() && ro.q("#lesson-show").is_none());
    let total: usize = l.setup.len() + l.steps.iter().map(|s| s.solution.len()).sum::<usize>();
    assert_eq!(ro.log().len(), total);
    assert_eq!(ro.text("#scrub-pos"), format!("step {} of {total}", guided::replay_end(&l, 0)));
    ro.click("#lesson-next").await;
    assert_eq!(ro.text("#scrub-pos"), format!("step {} of {total}", guided::replay_end(&l, 1)));
    assert!(ro.text("#lesson-after").contains("mod_revision"), "{}", ro.text("#lesson-after"));
    // Embeds keep nothing: the playground's sandbox and progress are untouched.
    assert_eq!(it.saved().await["log"], json!(["advance 5m"]));
    assert!(storage().get_item(PROGRESS_KEY).unwrap().is_none());
    assert!(storage().get_item(ACTIVE_KEY).unwrap().is_none());
    it.unmount();
    ro.unmount();
    clear_lessons();
}

// ---------------------------------------------------------------------------------------------
// No lost work: the panic hook, storage, hostile and oversized input

#[wasm_bindgen_test]
async fn the_panic_overlay_saves_the_log_and_offers_reload_and_export() {
    use rvlab::ui::safety;
    clear_lessons();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    assert!(safety::installed(), "mounting the app installs the panic hook");
    run_all(&lab, &["advance 1s", CM_A]).await;
    // Someone wiped the storage after the last save: the hook writes the log again.
    storage().remove_item(STORAGE_KEY).unwrap();
    safety::running(&["etcd put /registry/boom x".to_string()]);
    safety::on_panic("index out of bounds (src/store/kv.rs:1)");
    safety::running(&[]);
    let doc = document();
    let overlay = doc.get_element_by_id(safety::OVERLAY_ID).expect("the overlay");
    let text = overlay.text_content().unwrap();
    assert!(text.contains("rvlab stopped working") && text.contains("index out of bounds"), "{text}");
    assert!(text.contains("etcd put /registry/boom x"), "the running line is named: {text}");
    assert_eq!(overlay.get_attribute("role").as_deref(), Some("alertdialog"));
    let reload = doc.get_element_by_id("rvlab-crash-reload").unwrap();
    assert_eq!(reload.get_attribute("onclick").as_deref(), Some("location.reload()"));
    // The restored log is the last good one (without the line that crashed).
    assert_eq!(lab.saved().await["log"], json!(["advance 1s", CM_A]));
    let href = doc.get_element_by_id("rvlab-crash-export").unwrap().get_attribute("href").unwrap();
    let script =
        js_sys::decode_uri_component(href.strip_prefix("data:text/plain;charset=utf-8,").unwrap()).unwrap();
    let script: String = script.into();
    assert!(script.starts_with(&format!("advance 1s\n{CM_A}\n")), "{script}");
    assert!(script.contains("# etcd put /registry/boom x"), "{script}");
    overlay.remove();
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

const HOSTILE: &str = "<img src=x onerror=window.__rvpwned=1>\u{202E}evil\u{200B}\u{200D}👩‍👩‍👧e\u{301}\u{301}";

#[wasm_bindgen_test]
async fn hostile_names_labels_and_values_render_as_text_everywhere() {
    clear_lessons();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    let value = serde_json::to_string(HOSTILE).unwrap();
    let long = "x".repeat(20_000);
    let lines = vec![
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1".to_string(),
        format!(
            r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"a","labels":{{"app":"web"}},"annotations":{{"x":{value}}}}},"data":{{"k":{value},"long":"{long}"}}}}"#
        ),
        format!(
            "etcd put {} {value}",
            serde_json::to_string(&format!("/registry/configmaps/default/{HOSTILE}")).unwrap()
        ),
        format!("POST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":{value}}}}}"),
        "events w1".to_string(),
        "etcd get /registry/ --prefix".to_string(),
        format!("# {HOSTILE}"),
        format!("GET /api/v1/namespaces/default/configmaps/{HOSTILE}"),
    ];
    for l in &lines {
        lab.console(l).await;
    }
    lab.click("#log li[data-line='2'] button").await;
    assert!(lab.text("#response-json").contains(HOSTILE), "the value is shown as it is");
    lab.click("#log li[data-line='6'] button").await;
    assert!(lab.text("#response-kvs").contains(HOSTILE));
    lab.click("#log li[data-line='5'] button").await;
    // Nothing became markup anywhere: console, viewer, timeline, watches, etcd view.
    assert!(lab.root.query_selector("img").unwrap().is_none(), "an <img> was created");
    let pwned = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__rvpwned".into()).unwrap();
    assert!(pwned.is_undefined());
    let all = lab.root.text_content().unwrap();
    assert!(all.contains(HOSTILE), "the console shows the line as typed");
    // The timeline lane of the hostile key exists and its label is plain text.
    let lane = lab
        .all("#timeline-svg g.lane")
        .into_iter()
        .find(|g| g.get_attribute("data-key").is_some_and(|k| k.contains("<img")))
        .expect("a lane for the hostile key");
    assert!(lane.query_selector("img").unwrap().is_none());
    assert!(lab.text("#log li[data-line='7'] .cmd").contains('\u{202E}'));
    // The style sheet (not loaded by the test runner) isolates bidi controls and wraps long words
    // in code and console text.
    let css = include_str!("../www/style.css");
    assert!(css.contains(".mono, code, pre, .cmd, .sum, .lane-label, .message, .reason, td { unicode-bidi: isolate; overflow-wrap: anywhere; }"));
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

fn paste(el: &Element, text: &str) {
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.set_data("text/plain", text).unwrap();
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&dt));
    el.dispatch_event(&web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).unwrap()).unwrap();
}

#[wasm_bindgen_test]
async fn oversized_input_is_refused_with_a_message_not_a_frozen_page() {
    use rvlab::ui::safety;
    clear_lessons();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 1s").await;
    // A pasted 10 MB script.
    let big = "etcd put /registry/k v\n".repeat(10 * 1024 * 1024 / 23);
    let t0 = js_sys::Date::now();
    paste(&lab.el("#console-input"), &big);
    flush().await;
    web_sys::console::log_1(&format!("refusing a 10 MB paste: {:.0} ms", js_sys::Date::now() - t0).into());
    assert_eq!(lab.log(), vec!["advance 1s"]);
    let notice = lab.text("#notice");
    assert!(
        notice.contains("Not run") && notice.contains("5000 lines") && notice.contains("512 KB"),
        "{notice}"
    );
    assert_eq!(lab.el("#notice").get_attribute("role").as_deref(), Some("alert"));
    // Many short lines: the line limit.
    let many: Vec<String> = (0..safety::MAX_LINES + 1).map(|i| format!("# {i}")).collect();
    paste(&lab.el("#console-input"), &many.join("\n"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    assert!(lab.text("#notice").contains("5001 lines"), "{}", lab.text("#notice"));
    // Just under the limits runs.
    paste(&lab.el("#console-input"), &many[..200].join("\n"));
    flush().await;
    assert_eq!(lab.log().len(), 201);
    lab.click("#reset").await;
    // One line that is too long.
    lab.console(&format!("# {}", "y".repeat(100_000))).await;
    assert!(lab.text("#notice").contains("one line may be at most 64 KB"), "{}", lab.text("#notice"));
    assert!(lab.log().is_empty());
    // An import of a 10 MB file.
    choose_import_file(&lab, "big.txt", &big);
    for _ in 0..200 {
        flush().await;
        if lab.text("#notice").contains("10240 KB") {
            break;
        }
    }
    assert!(lab.text("#notice").contains("Not run: this script has"), "{}", lab.text("#notice"));
    assert!(lab.log().is_empty());
    // One advance is at most 168h: the engine's error for that line.
    lab.console("advance 1000h").await;
    assert_eq!(lab.log(), vec!["advance 1000h"]);
    assert!(lab.text("#response").contains("advance is at most 168h"), "{}", lab.text("#response"));
    lab.click("#undo").await;
    let t0 = js_sys::Date::now();
    run_all(
        &lab,
        &[
            "GET /api/v1/namespaces/default/configmaps?watch=true",
            "informer start inf configmaps ns=default",
            "advance 24h",
        ],
    )
    .await;
    let took = js_sys::Date::now() - t0;
    web_sys::console::log_1(&format!("advance 24h with a watch and an informer: {took:.0} ms").into());

    assert_eq!(lab.log().last().unwrap(), "advance 24h");
    lab.unmount();
    // A share link holding `advance 1000h` opens, with the same error on that line.
    let frag =
        rvlab::ui::share::encode(&rvlab::ui::share::Shared { log: vec!["advance 1000h".into()], at: 1 });
    let opened = Lab::with_config(Config::parse("?lang=en", &format!("#{frag}"))).await;
    assert_eq!(opened.log(), vec!["advance 1000h"]);
    assert!(opened.text("#response").contains("advance is at most 168h"));
    opened.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_huge_list_is_rendered_in_parts_with_show_more() {
    let mut session = rvlab::ui::state::new_session();
    let mut entries = Vec::new();
    let mut lines: Vec<String> = (0..600)
        .map(|i| format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"cm-{i:04}"}},"data":{{"v":"{}"}}}}"#, "z".repeat(100)))
        .collect();
    lines.push("GET /api/v1/namespaces/default/configmaps".into());
    for (i, line) in lines.into_iter().enumerate() {
        let outcome = session.run_line_outcome(i + 1, &line);
        entries.push(rvlab::ui::state::Entry::new(line, outcome));
    }
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_session(session, entries)).await;
    assert_eq!(lab.all("#list-summary ul.items li").len(), rvlab::ui::response::ROWS_SHOWN);
    assert!(lab.text("#items-more").contains("400 more"), "{}", lab.text("#items-more"));
    let json_len = lab.text("#response-json").len();
    assert!(json_len <= rvlab::ui::response::JSON_SHOWN + 4, "{json_len}");
    assert!(lab.text("#json-cut").contains("Showing the first 64 KB"), "{}", lab.text("#json-cut"));
    lab.click("#items-more").await;
    assert_eq!(lab.all("#list-summary ul.items li").len(), 400);
    assert!(lab.text("#response-json").len() > json_len);
    lab.click("#items-more").await;
    assert_eq!(lab.all("#list-summary ul.items li").len(), 600);
    assert!(lab.q("#items-more").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn disabled_or_failing_storage_is_reported() {
    // A full storage: both the log and the lesson progress say they are not saved.
    clear_lessons();
    let lab = Lab::with_config(
        Config::parse("?lang=en&lesson=where-rv-comes-from", "").with_loader(inline_loader()),
    )
    .await;
    lab.wait_for("#lesson-title").await;
    let chunk = "x".repeat(256 * 1024);
    let mut n = 0;
    while storage().set_item(&format!("rvlab.test.f.{n}"), &chunk).is_ok() {
        n += 1;
        assert!(n < 400);
    }
    let mut m = 0;
    while storage().set_item(&format!("rvlab.test.s.{m}"), "y").is_ok() {
        m += 1;
        assert!(m < 1_000_000);
    }
    lab.click("#lesson-show").await;
    lab.click("#lesson-check").await;
    idle_saved().await;
    let notice = lab.text("#notice");
    let progress =
        lab.q("#progress-notice").map(|e| e.text_content().unwrap_or_default()).unwrap_or_default();
    for i in 0..n {
        storage().remove_item(&format!("rvlab.test.f.{i}")).unwrap();
    }
    for i in 0..m {
        storage().remove_item(&format!("rvlab.test.s.{i}")).unwrap();
    }
    assert!(notice.contains("not being saved"), "{notice}");
    assert!(progress.contains("Lesson progress is not being saved"), "{progress}");
    lab.unmount();
    clear_lessons();
}

// ---------------------------------------------------------------------------------------------
// <rv-playground> (www/rv-playground.js) and Play / speed in the simulation controls

/// `el.style.<prop>` (no CssStyleDeclaration binding needed).
fn style_of(el: &Element, prop: &str) -> String {
    let style = js_sys::Reflect::get(el, &"style".into()).unwrap();
    js_sys::Reflect::get(&style, &prop.into()).unwrap().as_string().unwrap_or_default()
}

/// Dispatches a `message` event on the window whose source is `frame`'s window, from the app's
/// origin (here the page's own), or, where such an event cannot be built, hands the same object
/// to the element's exported handler.
fn post_from(frame: &wasm_bindgen::JsValue, height: f64) -> String {
    let f = js_sys::Function::new_with_args(
        "frame, height",
        "var data = {type: 'rvlab:height', height: height};
         var source = frame ? frame.contentWindow : window;
         var origin = location.origin;
         var ev;
         try { ev = new MessageEvent('message', {data: data, source: source, origin: origin}); } catch (e) { ev = null; }
         if (ev && ev.source === source) { window.dispatchEvent(ev); return 'event'; }
         window.RvPlayground.handleMessage({data: data, source: source, origin: origin});
         return 'handler';",
    );
    f.call2(&wasm_bindgen::JsValue::NULL, frame, &height.into()).unwrap().as_string().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn rv_playground_elements_make_their_own_frames_and_fit_only_their_own_height() {
    js_sys::eval(include_str!("../www/rv-playground.js")).expect("rv-playground.js evaluates");
    assert!(js_sys::eval("!!customElements.get('rv-playground')").unwrap().as_bool().unwrap());
    let doc = document();
    let host = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&host).unwrap();
    let script_a = "advance 1s\ncompact 3";
    let script_b = "GET /api/v1/pods?limit=1&resourceVersion=0 #ü";
    let a = doc.create_element("rv-playground").unwrap();
    a.set_attribute("script", script_a).unwrap();
    a.set_attribute("mode", "interactive").unwrap();
    let b = doc.create_element("rv-playground").unwrap();
    b.set_attribute("script", script_b).unwrap();
    b.set_attribute("lang", "zh").unwrap();
    b.set_attribute("theme", "dark").unwrap();
    host.append_child(&a).unwrap();
    host.append_child(&b).unwrap();
    let enc = |s: &str| String::from(js_sys::encode_uri_component(s));
    let frame = |el: &Element| el.query_selector("iframe").unwrap().expect("the element made an iframe");
    let (fa, fb) = (frame(&a), frame(&b));
    let (src_a, src_b) = (fa.get_attribute("src").unwrap(), fb.get_attribute("src").unwrap());
    for src in [&src_a, &src_b] {
        assert!(src.contains("index.html?embed=1&"), "{src}");
        assert!(src.contains("height=auto"), "{src}");
    }
    assert!(src_a.contains(&format!("script={}", enc(script_a))), "{src_a}");
    assert!(!src_a.contains(&enc(script_b)) && !src_b.contains(&enc(script_a)));
    assert!(src_b.contains(&format!("script={}", enc(script_b))) && src_b.contains("lang=zh"), "{src_b}");
    // The app reads back exactly what the element was given.
    let ca = Config::parse(src_a.split_once('?').unwrap().1, "");
    assert!(ca.embed && ca.interactive && ca.height.is_none());
    assert_eq!(ca.script.as_deref(), Some(script_a));
    let cb = Config::parse(src_b.split_once('?').unwrap().1, "");
    assert_eq!(cb.script.as_deref(), Some(script_b));
    assert_eq!(cb.lang, Some(Lang::Zh));
    // Resolved against the script's URL (here: no currentScript, so the page's base).
    let expected =
        web_sys::Url::new_with_base("index.html", &document().base_uri().unwrap().unwrap()).unwrap().href();
    assert!(src_a.starts_with(&format!("{expected}?")), "{src_a} vs {expected}");

    // A height message from the first frame resizes only the first element.
    let hb = style_of(&fb, "height");
    // Chromium builds a MessageEvent with a window as its source, so the real listener runs.
    assert_eq!(post_from(&fa.clone().into(), 321.0), "event");
    assert_eq!(style_of(&fa, "height"), "321px");
    assert_eq!(style_of(&fb, "height"), hb);
    // Messages from elsewhere (the page itself) change nothing.
    post_from(&wasm_bindgen::JsValue::NULL, 900.0);
    assert_eq!(style_of(&fa, "height"), "321px");
    assert_eq!(style_of(&fb, "height"), hb);
    post_from(&fb.clone().into(), 500.0);
    assert_eq!(style_of(&fb, "height"), "500px");
    assert_eq!(style_of(&fa, "height"), "321px");

    // Attribute changes reload the frame with the new parameters; the frame is reused.
    a.set_attribute("script", "advance 9s").unwrap();
    a.set_attribute("mode", "readonly").unwrap();
    let src = frame(&a).get_attribute("src").unwrap();
    assert!(src.contains(&format!("script={}", enc("advance 9s"))) && src.contains("mode=readonly"), "{src}");
    assert_eq!(a.query_selector_all("iframe").unwrap().length(), 1);
    // A fixed height is passed on and not overridden by messages.
    b.set_attribute("height", "300").unwrap();
    assert!(frame(&b).get_attribute("src").unwrap().contains("height=300"));
    assert_eq!(style_of(&fb, "height"), "300px");
    post_from(&fb.clone().into(), 700.0);
    assert_eq!(style_of(&fb, "height"), "300px");
    host.remove();
}

/// Waits (a bounded number of short sleeps, up to ~10 s on a loaded machine) until `ok` holds
/// for the log; the assertions after it say what was seen if it never did.
async fn wait_log(lab: &Lab, ok: impl Fn(&[String]) -> bool) {
    for _ in 0..1000 {
        if ok(&lab.log()) {
            return;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[wasm_bindgen_test]
async fn play_grows_one_advance_line_per_play_session() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let lab = Lab::with_config(Config::parse("?tick=15&lang=en", "")).await;
    lab.console(CM_A).await;
    assert_eq!(lab.attr("#sim-play", "aria-pressed"), "false");
    lab.select("#sim-speed", "10").await;
    lab.click("#sim-play").await;
    assert_eq!(lab.attr("#sim-play", "aria-pressed"), "true");
    assert!(lab.el("#sim-play").class_list().contains("playing"));
    assert!(lab.text("#sim-play").contains("Pause"));
    let secs = |l: &str| {
        l.strip_prefix("advance ").and_then(|d| d.strip_suffix('s')).and_then(|n| n.parse::<u64>().ok())
    };
    // Several ticks, one line: `advance <10 · ticks>s`.
    wait_log(&lab, |l| l.len() == 2 && secs(&l[1]).is_some_and(|s| s >= 30)).await;
    let log = lab.log();
    assert_eq!(log.len(), 2, "{log:?}");
    let first = secs(&log[1]).expect("an advance line");
    assert!(first >= 30 && first % 10 == 0, "{log:?}");
    // Pause stops it; the line's output says the time it reached.
    lab.click("#sim-play").await;
    flush().await;
    assert_eq!(lab.attr("#sim-play", "aria-pressed"), "false");
    let paused = lab.log();
    for _ in 0..6 {
        yew::platform::time::sleep(std::time::Duration::from_millis(15)).await;
    }
    assert_eq!(lab.log(), paused);
    let first = secs(&paused[1]).unwrap();
    assert!(
        lab.text("#log li[data-line='2'] .sum").contains(&format!("{first}s")),
        "{}",
        lab.text("#log li[data-line='2']")
    );
    // The next Play session is a new line, at its own speed.
    lab.select("#sim-speed", "60").await;
    lab.click("#sim-play").await;
    wait_log(&lab, |l| l.len() == 3 && secs(&l[2]).is_some_and(|s| s >= 120)).await;
    lab.click("#sim-play").await;
    let log = lab.log();
    assert_eq!(log.len(), 3, "{log:?}");
    assert_eq!(log[1], paused[1]);
    assert!(secs(&log[2]).is_some_and(|s| s >= 120 && s % 60 == 0), "{log:?}");
    // Replaying the log (a reload) gives exactly the state Play built tick by tick.
    let before = lab.state_html();
    let saved = lab.log();
    lab.unmount();
    let again = Lab::with_config(Config::parse("?tick=15&lang=en", "")).await;
    assert_eq!(again.log(), saved);
    // The pictures lay out for the width they measure (a ResizeObserver, after the first paint).
    settle().await;
    assert_eq!(again.state_html(), before);
    // One undo takes the whole Play session back.
    again.click("#undo").await;
    assert_eq!(again.log(), saved[..2].to_vec());
    // "instant" stops the timer and disables Play; the advance buttons still apply at once.
    again.select("#sim-speed", "instant").await;
    assert!(again.el("#sim-play").has_attribute("disabled"));
    again.click("button[data-cmd='advance 1m']").await;
    assert_eq!(again.log().last().unwrap(), "advance 1m");
    // Scrubbing into the past holds the timer (a new line would ask to fork).
    again.select("#sim-speed", "1").await;
    again.click("#scrub-back").await;
    again.click("#sim-play").await;
    let held = again.log();
    for _ in 0..6 {
        yew::platform::time::sleep(std::time::Duration::from_millis(15)).await;
    }
    assert_eq!(again.log(), held);
    assert!(again.q("#sim-play.playing").is_none());
    // Unmounting while playing clears the timer (no panic from a dead component).
    again.click("#scrub-fwd").await;
    again.unmount();
    for _ in 0..4 {
        yew::platform::time::sleep(std::time::Duration::from_millis(15)).await;
    }
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn reduced_motion_makes_play_a_single_step_per_click() {
    storage().remove_item(STORAGE_KEY).unwrap();
    let lab = Lab::with_config(Config::parse("?motion=reduce&tick=15&lang=en", "")).await;
    assert!(lab.el(".app").class_list().contains("reduce-motion"));
    assert!(lab.text("#sim-play").contains("Step"), "{}", lab.text("#sim-play"));
    assert!(lab.q("#sim-play[aria-pressed]").is_none());
    lab.click("#sim-play").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    for _ in 0..6 {
        yew::platform::time::sleep(std::time::Duration::from_millis(15)).await;
    }
    assert_eq!(lab.log(), vec!["advance 1s"], "no timer with reduced motion");
    assert!(lab.q("#sim-play.playing").is_none());
    lab.select("#sim-speed", "10").await;
    lab.click("#sim-play").await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 10s"]);
    lab.select("#sim-speed", "instant").await;
    assert!(lab.el("#sim-play").has_attribute("disabled"));
    lab.unmount();
    // Without the parameter (and a browser that does not ask for reduced motion) Play toggles.
    assert!(!Config::parse("?motion=no", "").reduce_motion);
    assert!(Config::parse("?motion=reduce", "").reduce_motion);
    storage().remove_item(STORAGE_KEY).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The pictures (issue 14): marks with kinds, causes and owners; legible at 1280 and 390 px

impl Lab {
    /// Mounts a fresh app inside a root `width` CSS pixels wide, with the page's style sheet
    /// (the test runner does not load it; `unmount` takes it away again).
    async fn sized(width: u32) -> Lab {
        Lab::sized_as(width, "?lang=en").await
    }

    /// [`Lab::sized`] opened with the URL query `query` (a `script=`, an embed, a theme…).
    async fn sized_as(width: u32, query: &str) -> Lab {
        add_app_style();
        storage().remove_item(STORAGE_KEY).unwrap();
        storage().remove_item(rvlab::ui::guided::ACTIVE_KEY).unwrap();
        let root = new_root();
        root.set_attribute("style", &format!("width:{width}px")).unwrap();
        Lab::render_into(root, Some(Config::parse(query, ""))).await
    }

    /// The timeline's horizontal layout, read from the SVG.
    fn geom(&self) -> timeline::Geom {
        timeline::Geom {
            width: self.num("#timeline-svg", "data-width"),
            x0: self.num("#timeline-svg", "data-x0"),
            x1: self.num("#timeline-svg", "data-x1"),
        }
    }
}

fn js_get(v: &wasm_bindgen::JsValue, name: &str) -> wasm_bindgen::JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(wasm_bindgen::JsValue::UNDEFINED)
}

/// The font size of `el` as drawn on screen: its computed font-size × the SVG's screen scale.
fn rendered_font_px(el: &Element) -> f64 {
    let win: wasm_bindgen::JsValue = web_sys::window().unwrap().into();
    let gcs: js_sys::Function = js_get(&win, "getComputedStyle").dyn_into().unwrap();
    let style = gcs.call1(&win, el).unwrap();
    let size: f64 = js_get(&style, "fontSize").as_string().unwrap().trim_end_matches("px").parse().unwrap();
    let ctm_fn: js_sys::Function = js_get(el, "getScreenCTM").dyn_into().expect("an SVG element");
    let ctm = ctm_fn.call0(el).unwrap();
    let a = js_get(&ctm, "a").as_f64().unwrap();
    let b = js_get(&ctm, "b").as_f64().unwrap();
    size * (a * a + b * b).sqrt()
}

struct Box4 {
    l: f64,
    t: f64,
    r: f64,
    b: f64,
}

fn rect_of(el: &Element) -> Box4 {
    let r = el.get_bounding_client_rect();
    Box4 { l: r.left(), t: r.top(), r: r.right(), b: r.bottom() }
}

fn overlaps(a: &Box4, b: &Box4) -> bool {
    // Half a pixel of anti-aliasing either way is not an overlap.
    a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5
}

/// Every label in both pictures (once nothing moves any more: [`motionless`]): at least 11 px as
/// rendered, on screen inside its SVG, and no
/// label box meets another label or a mark's drawn shape.
fn assert_legible(lab: &Lab, what: &str) {
    let texts = lab.all("#system-view text, #timeline-svg text");
    assert!(texts.len() >= 10, "{what}: only {} labels", texts.len());
    for t in &texts {
        let px = rendered_font_px(t);
        assert!(px >= 11.0 - 1e-6, "{what}: {:?} is drawn at {px:.2} px", t.text_content());
    }
    for svg in ["#system-view", "#timeline-svg"] {
        let frame = rect_of(&lab.el(svg));
        let parent = rect_of(&lab.el(svg).parent_element().unwrap());
        assert!(
            frame.r <= parent.r + 0.5,
            "{what}: {svg} is wider than its container ({} > {})",
            frame.r,
            parent.r
        );
        for t in lab.all(&format!("{svg} text")) {
            let r = rect_of(&t);
            assert!(
                r.l >= frame.l - 0.5 && r.r <= frame.r + 0.5,
                "{what}: {:?} ({:.1}–{:.1}) sticks out of {svg} ({:.1}–{:.1})",
                t.text_content(),
                r.l,
                r.r,
                frame.l,
                frame.r
            );
        }
    }
    let boxes: Vec<(String, Box4)> =
        texts.iter().map(|t| (t.text_content().unwrap_or_default(), rect_of(t))).collect();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            assert!(
                !overlaps(&boxes[i].1, &boxes[j].1),
                "{what}: label {:?} meets label {:?}",
                boxes[i].0,
                boxes[j].0
            );
        }
    }
    // Marks' drawn shapes (not their invisible pointer targets) never sit under a label.
    let shapes = lab.all(
        "#timeline-svg g.mark > circle, #timeline-svg g.mark > path, #system-view g.mark > path, #system-view .head, #system-view g.timer > circle.clock",
    );
    for s in &shapes {
        let r = rect_of(s);
        for (text, b) in &boxes {
            assert!(
                !overlaps(&r, b),
                "{what}: label {text:?} ({:.1},{:.1})–({:.1},{:.1}) covers a {} mark ({:.1},{:.1})–({:.1},{:.1})",
                b.l,
                b.t,
                b.r,
                b.b,
                s.parent_element()
                    .and_then(|p| p.get_attribute("data-kind"))
                    .unwrap_or_else(|| s.get_attribute("class").unwrap_or_default()),
                r.l,
                r.t,
                r.r,
                r.b
            );
        }
    }
}

const TWO_APISERVERS: &[&str] = &[
    "set apiservers 2",
    "apiserver 2",
    "set cache.lag 5s",
    "apiserver 1",
    CM_A,
    CM_B,
    "GET /api/v1/namespaces/default/configmaps?limit=1",
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
    "events w1",
];

#[wasm_bindgen_test]
async fn pictures_name_every_cache_window_and_show_lag_on_two_apiservers() {
    let lab = Lab::sized(1280).await;
    run_all(&lab, TWO_APISERVERS).await;
    settle().await;
    // The timeline's cache rows name their owner in visible text.
    let rows = lab.all("#timeline-svg [data-kind='cache-window']");
    let owners: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r.get_attribute("data-apiserver").unwrap(), r.get_attribute("data-resource").unwrap()))
        .collect();
    assert_eq!(owners, [("1".into(), "configmaps".into()), ("2".into(), "configmaps".into())]);
    for r in &rows {
        let label = r.query_selector(".row-label").unwrap().expect("a row label").text_content().unwrap();
        let n = r.get_attribute("data-apiserver").unwrap();
        assert!(label.contains(&format!("apiserver {n}")) && label.contains("configmaps"), "{label}");
    }
    // apiserver 1 holds 2–3; apiserver 2 has heard nothing yet: 5 s of lag, two events in flight.
    let one = lab.el("#system-view [data-kind='cache-window'][data-apiserver='1']");
    assert_eq!(one.get_attribute("data-rv").as_deref(), Some("3"));
    let lag = lab.el("#system-view [data-kind='cache-window'][data-apiserver='2'] [data-kind='lag']");
    assert_eq!(lag.get_attribute("data-behind").as_deref(), Some("2"));
    assert_eq!(lag.get_attribute("data-in-flight").as_deref(), Some("2"));
    assert!(lag.text_content().unwrap().contains("lag 2 rev · 5s"), "{:?}", lag.text_content());
    assert_eq!(lab.all("#system-view [data-kind='cache-window'][data-apiserver='2'] .in-flight").len(), 2);
    // The list and its token, numbered by page.
    assert_eq!(lab.attr("#timeline-svg [data-kind='list-rv'][data-line='7']", "data-rv"), "3");
    let tok = lab.el("#timeline-svg [data-kind='continue-token'][data-line='7']");
    assert_eq!(tok.get_attribute("data-rv").as_deref(), Some("3"));
    assert_eq!(tok.query_selector("text").unwrap().unwrap().text_content().as_deref(), Some("p2"));
    // The watch: started after 1, read 2 and 3, still open on apiserver 1.
    let start = lab.el("#timeline-svg [data-kind='watch-start']");
    assert_eq!(
        (start.get_attribute("data-rv").as_deref(), start.get_attribute("data-line").as_deref()),
        (Some("1"), Some("8"))
    );
    assert_eq!(start.get_attribute("data-apiserver").as_deref(), Some("1"));
    assert_eq!(lab.attr("#timeline-svg [data-kind='watch-frame']", "data-rv"), "3");
    assert!(lab.q("#timeline-svg [data-kind='watch-end']").is_none(), "a running watch has no end mark");
    // The marks sit where the state says.
    let (w, g) = (lab.window(), lab.geom());
    let cursor = lab.num("#timeline-svg [data-kind='watch-frame']", "data-x");
    assert!(close(cursor, timeline::x_of(3.5, w, g)), "{cursor}");
    motionless(&lab).await;
    assert_legible(&lab, "two apiservers at 1280");
    // Selecting the list draws its path: you → apiserver 1's watch cache, as its why.path says,
    // and the Why strip names the rule.
    let list = lab.el("#timeline-svg [data-kind='list-rv'][data-line='7']");
    list.dispatch_event(&web_sys::MouseEvent::new("click").unwrap()).unwrap();
    flush().await;
    let path = lab.el("#system-view [data-kind='request-path']");
    assert_eq!(path.get_attribute("data-path").as_deref(), Some("watch-cache"));
    assert_eq!(path.get_attribute("data-apiserver").as_deref(), Some("1"));
    assert_eq!(path.get_attribute("data-line").as_deref(), Some("7"));
    assert_eq!(lab.attr("#sv-why", "data-rule"), "consistent-read-from-cache");
    // The path ends on apiserver 1's band, above etcd's row.
    let end = rect_of(&lab.el("#system-view [data-kind='request-path'] .path-end"));
    let band = rect_of(&lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band"));
    let etcd = rect_of(&lab.el("#system-view .row.etcd rect.tape"));
    assert!(end.t < band.b && end.b > band.t, "the path ends in the band");
    assert!(end.b < etcd.t, "the path stops above etcd");
    lab.unmount();
}

/// The timers a revision axis hides are drawn where and when the engine says: each response on
/// its way to the lagging apiserver 2 as a dot at the revision it carries, and countdown chips
/// for its arrival, the freshness wait a consistent read would have now (3 s in vain: the cache
/// is 5 s behind), a watch's deadline and its next bookmark, and the next compaction round.
#[wasm_bindgen_test]
async fn timers_are_drawn_where_and_when_the_engine_says() {
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, TWO_APISERVERS).await;
        run_all(
            &lab,
            &["GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=3&timeoutSeconds=30&allowWatchBookmarks=true"],
        )
        .await;
        settle().await;
        // Dots at revisions 2 and 3, due at 5 s, on apiserver 2's row.
        let dots =
            lab.all("#system-view [data-kind='cache-window'][data-apiserver='2'] [data-kind='in-flight']");
        let got: Vec<(String, String)> = dots
            .iter()
            .map(|d| (d.get_attribute("data-rv").unwrap(), d.get_attribute("data-due-ms").unwrap()))
            .collect();
        assert_eq!(got, [("2".into(), "5000".into()), ("3".into(), "5000".into())], "{width}");
        let (lo, hi) = (lab.num("#system-view", "data-lo") as i64, lab.num("#system-view", "data-hi") as i64);
        let g = timeline::Geom::for_width(lab.num("#timeline-svg", "data-width"));
        for d in &dots {
            let rv: f64 = d.get_attribute("data-rv").unwrap().parse().unwrap();
            let cx = lab_num(d, "cx");
            assert!(close(cx, timeline::x_of(rv + 0.5, Window { lo, hi }, g)), "{width}: dot at {cx}");
        }
        let chip = |kind: &str, owner: &str| {
            lab.el(&format!("#system-view [data-kind='timer'][data-timer='{kind}'][data-owner='{owner}']"))
        };
        let due = |e: &Element| e.get_attribute("data-due-ms").unwrap();
        // The visible text (a long chip wraps onto more lines, never cut).
        let shown = |e: &Element| {
            let lines = e.query_selector_all("text").unwrap();
            (0..lines.length()).filter_map(|i| lines.item(i)?.text_content()).collect::<Vec<_>>().join(" ")
        };
        let arrival = chip("arrival", "apiserver 2 · configmaps");
        assert_eq!(due(&arrival), "5000");
        assert_eq!(shown(&arrival), "apiserver 2 · configmaps: rv 2 arrives in 5s");
        let fresh = chip("fresh-wait", "apiserver 2 · configmaps");
        assert_eq!(due(&fresh), "3000");
        assert_eq!(
            shown(&fresh),
            "a consistent read on apiserver 2 · configmaps now waits 3s in vain, then goes to etcd"
        );
        assert!(
            lab.q("#system-view [data-timer='fresh-wait'][data-owner='apiserver 1 · configmaps']").is_none(),
            "apiserver 1 is fresh"
        );
        // w2 started at 0 s with timeoutSeconds=30: its deadline at 30 s, its bookmark 2 s before.
        assert_eq!(due(&chip("deadline", "w2")), "30000");
        assert_eq!(due(&chip("bookmark", "w2")), "28000");
        assert_eq!(shown(&chip("deadline", "w2")), "w2 ends in 30s (timeoutSeconds)");
        assert_eq!(due(&chip("compaction", "etcd")), "300000");
        // The table lists every timer too.
        assert_eq!(
            lab.all("#tl-table li[data-timer]").len(),
            lab.all("#system-view [data-kind='timer']").len()
        );
        motionless(&lab).await;
        assert_legible(&lab, &format!("timers at {width}"));
        lab.unmount();
    }
}

fn lab_num(el: &Element, name: &str) -> f64 {
    el.get_attribute(name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no numeric {name}"))
}

/// A script as a URL query value.
fn query_value(text: &str) -> String {
    js_sys::encode_uri_component(text).as_string().unwrap()
}

/// 50 watches on 3 apiservers (17, 17, 16), five of them cancelled: the timeline draws a few
/// rows and one summary row per apiserver for the rest, the system view sums up each
/// apiserver's watches; every count is the engine's, and no label meets another at 1280 or 390.
#[wasm_bindgen_test]
async fn fifty_watches_on_three_apiservers_fold_into_per_apiserver_summaries() {
    let mut lines = vec!["set apiservers 3".to_string(), CM_A.to_string(), CM_B.to_string()];
    for i in 0..50 {
        lines.push(format!("apiserver {}", i % 3 + 1));
        lines.push(format!(
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion={}",
            1 + i % 3
        ));
        if i % 10 == 9 {
            lines.push(format!("cancel w{}", i + 1));
        }
    }
    lines.push(CM_C.to_string());
    let script = lines.join("\n");
    for width in [1280, 390] {
        let lab =
            Lab::sized_as(width, &format!("?lang=en&embed=1&motion=reduce&script={}", query_value(&script)))
                .await;
        settle().await;
        assert_eq!(
            lab.all("#timeline-svg .watch-row[data-watch]").len(),
            timeline::MAX_WATCH_ROWS - timeline::FOLD_ROWS
        );
        let folded = lab.all("#timeline-svg [data-kind='watch-summary']");
        let count = |e: &Element, a: &str| e.get_attribute(a).unwrap().parse::<usize>().unwrap();
        assert_eq!(folded.iter().map(|e| count(e, "data-count")).sum::<usize>(), 50 - 5, "{width}");
        let owners: Vec<String> = folded.iter().map(|e| e.get_attribute("data-apiserver").unwrap()).collect();
        assert_eq!(owners, ["1", "2", "3"], "{width}");
        // w10, w20, … w50 were cancelled: w10 (apiserver 1), w20 (2), w30 (3), w40 (1), w50 (2).
        let per: Vec<(usize, usize, usize)> = lab
            .all("#system-view [data-kind='watch-summary']")
            .iter()
            .map(|e| (count(e, "data-count"), count(e, "data-errors"), count(e, "data-clean")))
            .collect();
        assert_eq!(per, [(17, 0, 2), (17, 0, 2), (16, 0, 1)], "{width}");
        let label = lab
            .el("#system-view [data-kind='watch-summary'][data-apiserver='1'] .row-label")
            .text_content()
            .unwrap();
        assert!(label.starts_with("17 watches") && label.contains("0 ✕ · 2 ■"), "{label}");
        // The cursor histogram: apiserver 3's 16 watches started after 3 and read nothing yet:
        // one bar at 3 that counts them all.
        let bars: Vec<(String, usize)> = lab
            .all("#system-view [data-kind='watch-summary'][data-apiserver='3'] .cursor-bar")
            .iter()
            .map(|b| (b.get_attribute("data-rv").unwrap(), count(b, "data-count")))
            .collect();
        assert_eq!(bars, [("3".to_string(), 16)], "{width}");
        motionless(&lab).await;
        assert_legible(&lab, &format!("50 watches at {width}"));
        lab.unmount();
    }
}

/// `prop` of `el`'s computed style.
fn computed(el: &Element, prop: &str) -> String {
    let f = js_sys::Function::new_with_args("el, p", "return getComputedStyle(el).getPropertyValue(p);");
    f.call2(&wasm_bindgen::JsValue::NULL, el, &prop.into()).unwrap().as_string().unwrap_or_default()
}

/// Lines of a script file (no comments, no blank lines).
fn script_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect()
}

/// WCAG 2.x contrast of every drawn text and mark in both pictures against what it is drawn
/// on, computed from the browser's computed styles: `[[selector-ish, ratio, is_text], …]`.
/// Colours are resolved by painting them on a 1 × 1 canvas over the panel's background (so
/// translucent fills are composited as the page shows them). A mark counts by the more
/// contrasting of its fill and its stroke (the part that identifies it, WCAG 1.4.11).
fn contrasts(root: &Element) -> Vec<(String, f64, bool)> {
    let f = js_sys::Function::new_with_args(
        "root",
        r#"
const cv = document.createElement('canvas'); cv.width = cv.height = 1;
const cx = cv.getContext('2d', { willReadFrequently: true });
const paint = (...layers) => { cx.clearRect(0, 0, 1, 1); for (const l of layers) { cx.fillStyle = '#000'; cx.fillStyle = l; cx.fillRect(0, 0, 1, 1); } return cx.getImageData(0, 0, 1, 1).data; };
const lum = d => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(d[0]) + 0.7152 * f(d[1]) + 0.0722 * f(d[2]); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const solid = c => c && c !== 'none' && !c.startsWith('url');
const panel = getComputedStyle(root.closest('section') || root).backgroundColor;
const out = [];
const name = el => (el.getAttribute('class') || el.tagName) + ' in ' + ((el.closest('[data-kind]') || el.parentElement).getAttribute('data-kind') || (el.parentElement.getAttribute('class') || ''));
for (const t of root.querySelectorAll('svg.timeline text')) {
  const st = getComputedStyle(t);
  if (st.visibility === 'hidden' || st.display === 'none') continue;
  const fg = st.fill;
  let bgs = [paint(panel)];
  const prev = t.previousElementSibling;
  if (t.classList.contains('chip-text') && prev) bgs = [paint(panel, getComputedStyle(prev).fill)];
  if (t.classList.contains('band-label')) { const band = t.parentElement.querySelector('rect.band'); if (band) bgs.push(paint(panel, getComputedStyle(band).fill)); }
  for (const bg of bgs) out.push([name(t) + ' "' + t.textContent + '"', ratio(paint(panel, fg), bg), true]);
}
const marks = '.diamond, .chip, .band, .snapshot, .bar, .watch-start circle, .frame, .mark.watch path, .bookmark path, .end-x, .end-sq, .scissors, .head, .lag-line, .in-flight, .off-line, .flag, .flag-pole, .path-line, .path-end, .seg, .tomb, .clock, .clock-arc, .clock-hand, .cursor-bar, .sel-ring, .hatch-line, #tl-compact-line, .tape';
for (const m of root.querySelectorAll(marks)) {
  if (!m.closest('svg.timeline')) continue;
  const st = getComputedStyle(m);
  const bg = paint(panel);
  let best = 0;
  if (solid(st.fill)) best = Math.max(best, ratio(paint(panel, st.fill), bg));
  if (solid(st.stroke) && parseFloat(st.strokeWidth) > 0) best = Math.max(best, ratio(paint(panel, st.stroke), bg));
  out.push([name(m), best, false]);
}
return out;
"#,
    );
    let arr: js_sys::Array = f.call1(&wasm_bindgen::JsValue::NULL, root).unwrap().unchecked_into();
    arr.iter()
        .map(|row| {
            let row: js_sys::Array = row.unchecked_into();
            (row.get(0).as_string().unwrap(), row.get(1).as_f64().unwrap(), row.get(2).as_bool().unwrap())
        })
        .collect()
}

/// Every text in the pictures reaches 4.5:1 and every mark 3:1 against its background, in the
/// light and the dark theme, over scenarios drawing every kind of mark (lag and dots in flight,
/// lists, tokens, a refused read, each kind of watch end, timers, the selected line's path and
/// ring).
#[wasm_bindgen_test]
async fn every_text_and_mark_has_enough_contrast_in_both_themes() {
    let scenarios: [(&str, Vec<&str>, usize); 3] = [
        ("two apiservers", TWO_APISERVERS.to_vec(), 7),
        ("endings", ENDINGS.to_vec(), 11),
        ("paging", script_lines(include_str!("../scripts/shots/paging.rv")), 8),
    ];
    for theme in ["light", "dark"] {
        let mut kinds = std::collections::BTreeSet::new();
        for (what, lines, select) in &scenarios {
            let lab = Lab::sized_as(1280, &format!("?lang=en&theme={theme}")).await;
            run_all(&lab, lines).await;
            lab.click(&format!("#log li[data-line='{select}'] button")).await;
            settle().await;
            let all = contrasts(&lab.el("#timeline"));
            assert!(all.len() > 30, "{theme} {what}: only {} items", all.len());
            for (name, ratio, text) in &all {
                let need = if *text { 4.5 } else { 3.0 };
                assert!(*ratio >= need, "{theme} {what}: {name} has contrast {ratio:.2} < {need}");
                kinds.insert(
                    name.split(" in ")
                        .next()
                        .unwrap_or_default()
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                );
            }
            lab.unmount();
        }
        // The scenarios drew every kind of mark the check knows.
        for k in [
            "diamond",
            "chip",
            "band",
            "bar",
            "end-x",
            "end-sq",
            "head",
            "in-flight",
            "path-line",
            "path-end",
            "seg",
            "clock",
            "sel-ring",
            "lbl",
            "chip-text",
            "row-label",
        ] {
            assert!(kinds.contains(k), "{theme}: no {k} was checked: {kinds:?}");
        }
    }
}

/// What the pictures tell apart is told apart without colour: an ERROR end (✕), a close without
/// one (■) and a live watch (▶ on a solid bar; ended bars are dashed); a path to the watch cache
/// (solid, ● at its end) and one to etcd (dashed, ■); the selected line (a dashed ring and a bold
/// label) and the others (neither).
#[wasm_bindgen_test]
async fn distinctions_do_not_rely_on_colour() {
    let lab = Lab::sized(1280).await;
    run_all(&lab, ENDINGS).await;
    run_all(&lab, &["GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8", "advance 1s"])
        .await;
    settle().await;
    let end = |line: &str| lab.el(&format!("#timeline-svg [data-kind='watch-end'][data-line='{line}']"));
    let shape = |e: &Element| {
        let s = e.query_selector(".end-x, .end-sq").unwrap().expect("an end glyph");
        (s.tag_name(), s.get_attribute("class").unwrap())
    };
    assert_eq!(shape(&end("11")), ("path".to_string(), "end-x".to_string()));
    assert_eq!(shape(&end("19")), ("rect".to_string(), "end-sq".to_string()));
    let live = lab.el("#timeline-svg .watch-row[data-watch='w5']");
    assert!(live.query_selector("[data-kind='watch-end']").unwrap().is_none());
    let dash = |el: &Element| computed(el, "stroke-dasharray");
    assert_eq!(dash(&live.query_selector(".bar").unwrap().unwrap()), "none", "a live watch's bar is solid");
    let ended_bar = lab.el("#timeline-svg .watch-row[data-watch='w1'] .bar");
    assert_ne!(dash(&ended_bar), "none", "an ended watch's bar is dashed");
    lab.unmount();

    let lab = Lab::sized(1280).await;
    run_all(&lab, &script_lines(include_str!("../scripts/shots/paging.rv"))).await;
    let path = || {
        let p = lab.el("#system-view [data-kind='request-path']");
        let end = p.query_selector(".path-end").unwrap().unwrap().tag_name();
        (p.get_attribute("data-path").unwrap(), dash(&p.query_selector(".path-line").unwrap().unwrap()), end)
    };
    lab.click("#log li[data-line='4'] button").await;
    let cache = path();
    lab.click("#log li[data-line='8'] button").await;
    let etcd = path();
    assert_eq!((cache.0.as_str(), cache.1.as_str(), cache.2.as_str()), ("watch-cache", "none", "circle"));
    assert_eq!((etcd.0.as_str(), etcd.2.as_str()), ("etcd", "rect"));
    assert_ne!(etcd.1, "none", "the path to etcd is dashed");
    // Line 8 is selected: its mark wears a dashed ring and a bold label; line 4's does not.
    let sel = lab.el("#timeline-svg [data-kind='request-error'][data-line='8']");
    let ring = sel.query_selector(".sel-ring").unwrap().expect("a ring on the selected mark");
    assert_ne!(dash(&ring), "none");
    assert_eq!(computed(&sel.query_selector("text").unwrap().unwrap(), "font-weight"), "700");
    let other = lab.el("#timeline-svg [data-kind='list-rv'][data-line='4']");
    assert!(other.query_selector(".sel-ring").unwrap().is_none());
    // The ring sits around the mark it marks.
    let (r, m) = (rect_of(&ring), rect_of(&sel.query_selector(".end-x").unwrap().unwrap()));
    assert!(r.l <= m.l && r.r >= m.r && r.t <= m.t && r.b >= m.b, "the ring encloses the ✕");
    lab.unmount();
}

/// Stepping animates: a step moves the same elements to their new places through CSS
/// transitions (etcd's head, a cache band), and with reduced motion nothing tweens.
#[wasm_bindgen_test]
async fn stepping_moves_the_same_marks_with_transitions_unless_motion_is_reduced() {
    for (query, reduced) in [("?lang=en", false), ("?lang=en&motion=reduce", true)] {
        let lab = Lab::sized_as(1280, query).await;
        run_all(&lab, &[CM_A, CM_B, CM_C]).await;
        settle().await;
        let head = lab.el("#system-view .head");
        let band = lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band");
        let (d0, w0) = (head.get_attribute("d").unwrap(), band.get_attribute("width").unwrap());
        lab.click("#scrub-back").await;
        settle().await;
        let (head2, band2) = (
            lab.el("#system-view .head"),
            lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band"),
        );
        assert!(
            head2.is_same_node(Some(&head)) && band2.is_same_node(Some(&band)),
            "{query}: the same elements move"
        );
        assert_ne!(head2.get_attribute("d").unwrap(), d0, "{query}: the head moved back");
        assert_ne!(band2.get_attribute("width").unwrap(), w0, "{query}: the band shrank");
        for (el, prop) in [(&head2, "d"), (&band2, "width")] {
            let props = computed(el, "transition-property");
            let dur = computed(el, "transition-duration");
            if reduced {
                assert!(dur.split(", ").all(|d| d == "0s"), "{query}: {props} {dur}");
            } else {
                let i = props
                    .split(", ")
                    .position(|p| p == prop)
                    .unwrap_or_else(|| panic!("{prop} not in {props}"));
                let d = dur.split(", ").nth(i).unwrap_or("0s");
                assert_eq!(d, "0.4s", "{query}: {prop} tweens");
            }
        }
        lab.unmount();
    }
}

/// The CSS animations (names) and transitions (properties) running or held on `el` and below.
fn animations(el: &Element) -> Vec<String> {
    let f = js_sys::Function::new_with_args(
        "el",
        "return el.getAnimations({subtree: true}).map(a => a.animationName || a.transitionProperty || '?');",
    );
    let arr: js_sys::Array = f.call1(&wasm_bindgen::JsValue::NULL, el).unwrap().dyn_into().unwrap();
    arr.iter().map(|v| v.as_string().unwrap_or_default()).collect()
}

/// Waits (bounded: ~5 s) until nothing in the pictures is still animating or tweening, so
/// positions read are the step's end state; the caller's asserts judge what was seen.
async fn motionless(lab: &Lab) {
    for _ in 0..250 {
        let running = js_sys::Function::new_with_args(
            "el",
            "return el.getAnimations({subtree: true}).filter(a => a.playState === 'running').length;",
        );
        let n = running
            .call1(&wasm_bindgen::JsValue::NULL, &lab.el(".pictures"))
            .unwrap()
            .as_f64()
            .unwrap_or(0.0);
        if n == 0.0 {
            return;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Play's steps are staged: the revisions that reach a lagging watch cache rise from etcd to its
/// band (stage 1) before the band grows (stage 2, a delayed transition); a scrubber step draws
/// the selected request's path with a dot travelling it, then pops its decision's mark, then the
/// new marks. With reduced motion (`data-motion="reduce"`, from `?motion=reduce` or the
/// system's setting) none of it runs: the end state is drawn at once.
#[wasm_bindgen_test]
async fn play_and_scrubbing_stage_each_step_unless_motion_is_reduced() {
    for (query, reduced) in [("?lang=en&tick=1500", false), ("?lang=en&tick=1500&motion=reduce", true)] {
        let lab = Lab::sized_as(1280, query).await;
        run_all(&lab, TWO_APISERVERS).await;
        settle().await;
        assert_eq!(lab.attr(".pictures", "data-motion"), if reduced { "reduce" } else { "full" });
        // apiserver 2's cache still waits for revisions 2 and 3 (lag 5 s).
        let band2 = "#system-view [data-kind='cache-window'][data-apiserver='2']";
        assert_eq!(lab.all(&format!("{band2} [data-kind='in-flight']")).len(), 2, "{query}");
        // Play at 10×: the first tick (one `advance 10s` line) lands them.
        lab.select("#sim-speed", "10").await;
        lab.click("#sim-play").await;
        wait_log(&lab, |l| l.len() == TWO_APISERVERS.len() + 1).await;
        flush().await;
        assert_eq!(lab.log().last().map(String::as_str), Some("advance 10s"), "{query}");
        assert_eq!(lab.attr(band2, "data-rv"), "3", "{query}: the cache caught up");
        let arrivals = lab.all("#system-view [data-kind='arrival']");
        let pictures = lab.el(".pictures");
        if reduced {
            assert!(arrivals.is_empty(), "{query}: nothing travels");
            assert_eq!(animations(&pictures), Vec::<String>::new(), "{query}");
        } else {
            let rvs: Vec<String> = arrivals.iter().map(|a| a.get_attribute("data-rv").unwrap()).collect();
            assert_eq!(rvs, ["2", "3"], "{query}: each arrival rises to apiserver 2's band");
            for a in &arrivals {
                let names = animations(a);
                assert!(names.iter().any(|n| n.starts_with("pic-travel-")), "{query}: {names:?}");
                // It starts at etcd's row (below the band) and ends on the band.
                let rise: f64 = computed(a, "--rise").trim().trim_end_matches("px").parse().unwrap();
                let tape = lab.el("#system-view .row.etcd .tape");
                let etcd_mid = lab_num(&tape, "y") + lab_num(&tape, "height") / 2.0;
                assert!(close(lab_num(a, "cy") + rise, etcd_mid), "{query}: rise {rise}");
            }
            // Stage 2 waits for stage 1: the band's growth is a delayed transition.
            let band = lab.el(&format!("{band2} rect.band"));
            assert!(computed(&band, "transition-delay").split(", ").all(|d| d == "0.25s"), "{query}");
            lab.click("#sim-play").await;
        }
        // A scrubber step onto a read: its path is drawn in stages (unless reduced).
        lab.click("#scrub-first").await;
        for _ in 0..7 {
            lab.click("#scrub-fwd").await;
        }
        settle().await;
        assert_eq!(lab.attr("#system-view [data-kind='request-path']", "data-line"), "7", "{query}");
        let path = lab.el("#system-view [data-kind='request-path']");
        let list = lab.el("#timeline-svg [data-kind='list-rv'][data-line='7']");
        if reduced {
            assert!(path.query_selector(".path-dot").unwrap().is_none());
            assert_eq!(animations(&pictures), Vec::<String>::new(), "{query}");
        } else {
            let names = animations(&path);
            for stage in ["pic-draw-", "pic-travel-", "pic-pop-"] {
                assert!(names.iter().any(|n| n.starts_with(stage)), "{query}: {stage} in {names:?}");
            }
            // The list this step answered appears last (a delayed pop-in).
            assert!(list.class_list().contains("fresh-a") || list.class_list().contains("fresh-b"));
            assert!(animations(&list).iter().any(|n| n.starts_with("pic-pop-")), "{query}");
            assert_eq!(computed(&list, "animation-delay"), "0.45s");
        }
        lab.unmount();
    }
}

/// Each way a watch ends, drawn where it happened with its code (or none) and its owner.
const ENDINGS: &[&str] = &[
    "set apiservers 2",
    "set cache.capacity 5",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o1\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o2\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o3\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o4\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o5\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o6\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o7\"}}",
    // line 10, w1: below apiserver 1's window (history after 3) → ERROR 410.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2",
    "events w1",
    // line 12, w2: a watch with a deadline → ends cleanly when it passes.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8&timeoutSeconds=5",
    // line 13, w3: cancelled by its client.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8",
    "cancel w3",
    // line 15, w4 on apiserver 2, which restarts.
    "apiserver 2",
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8",
    "restart apiserver 2",
    "advance 10s",
    "events w2",
    "events w3",
    "events w4",
];

#[wasm_bindgen_test]
async fn every_watch_ending_is_drawn_with_its_code_and_owner() {
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, ENDINGS).await;
        settle().await;
        let ends = lab.all("#timeline-svg [data-kind='watch-end']");
        assert_eq!(ends.len(), 4, "{width}: {}", lab.text("#tl-table"));
        let end = |line: &str| lab.el(&format!("#timeline-svg [data-kind='watch-end'][data-line='{line}']"));
        let causes: Vec<String> = ["11", "19", "20", "21"]
            .iter()
            .map(|l| end(l).get_attribute("data-cause").unwrap_or_default())
            .collect();
        assert_eq!(causes, ["cache-window", "timeout", "cancelled", "restart"], "{width}");
        // The 410 is an ERROR frame: red ✕ at the RV it asked for, with the code.
        let e410 = end("11");
        assert_eq!(e410.get_attribute("data-code").as_deref(), Some("410"));
        assert_eq!(e410.get_attribute("data-rv").as_deref(), Some("2"));
        assert_eq!(e410.get_attribute("data-apiserver").as_deref(), Some("1"));
        assert!(e410.class_list().contains("error") && e410.query_selector(".end-x").unwrap().is_some());
        // The others closed without an ERROR frame: grey squares, no code, never drawn like a 410.
        for (line, apiserver) in [("19", "1"), ("20", "1"), ("21", "2")] {
            let e = end(line);
            assert_eq!(e.get_attribute("data-code"), None, "line {line}");
            assert_eq!(e.get_attribute("data-apiserver").as_deref(), Some(apiserver), "line {line}");
            assert!(
                e.class_list().contains("clean") && e.query_selector(".end-x").unwrap().is_none(),
                "line {line}"
            );
        }
        // The table says how each ended.
        let table = lab.text("#tl-table");
        assert!(table.contains("w1 ended: ERROR 410"), "{table}");
        assert_eq!(table.matches("ERROR 410").count(), 1, "{table}");
        for id in ["w2", "w3", "w4"] {
            assert!(table.contains(&format!("{id} ended: ")), "{table}");
        }
        motionless(&lab).await;
        assert_legible(&lab, &format!("watch endings at {width}"));
        lab.unmount();
    }
}

#[wasm_bindgen_test]
async fn the_pictures_fit_390_px_without_sideways_scrolling() {
    let lab = Lab::sized(390).await;
    run_all(&lab, TWO_APISERVERS).await;
    settle().await;
    let svg = lab.el("#timeline-svg");
    let wrap = svg.parent_element().unwrap();
    assert!(
        wrap.scroll_width() <= wrap.client_width() + 1,
        "{} > {}",
        wrap.scroll_width(),
        wrap.client_width()
    );
    assert!(lab.num("#timeline-svg", "data-width") <= 390.0);
    // One SVG unit per CSS pixel.
    assert!(close(svg.get_bounding_client_rect().width(), lab.num("#timeline-svg", "data-width")));
    motionless(&lab).await;
    assert_legible(&lab, "two apiservers at 390");
    lab.unmount();
}

// ---- the folded axis and the staged step, as pure functions
/// The picture's model after running `lines` in a fresh session.
fn model_of(lines: &[String]) -> timeline::Model {
    let mut s = rvlab::script::Session::new();
    let entries: Vec<rvlab::ui::state::Entry> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| rvlab::ui::state::Entry::new(l.as_str(), s.run_line_outcome(i + 1, l)))
        .collect();
    timeline::build(&s, &entries, None)
}

fn create_line(name: &str) -> String {
    format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#)
}

const LIST_ALL: &str = "GET /api/v1/namespaces/default/configmaps?limit=500";

/// A list at 2, writes 3–12, a list at 12, writes 13–22, a list at 22.
fn two_quiet_stretches() -> timeline::Model {
    let mut lines = vec![create_line("a"), LIST_ALL.to_string()];
    lines.extend((1..=10).map(|i| create_line(&format!("p{i}"))));
    lines.push(LIST_ALL.into());
    lines.extend((1..=10).map(|i| create_line(&format!("q{i}"))));
    lines.push(LIST_ALL.into());
    model_of(&lines)
}

#[wasm_bindgen_test]
fn an_axis_without_folds_is_linear_and_folds_keep_it_continuous_from_x0_to_x1() {
    let w = Window { lo: 1, hi: 20 };
    let g = timeline::Geom { width: 420.0, x0: 8.0, x1: 406.0 };
    let lin = timeline::Axis::new(w, g, Vec::new());
    assert!((lin.x(1.0) - 8.0).abs() < 1e-9 && (lin.x(21.0) - 406.0).abs() < 1e-9);
    assert!((lin.x(11.0) - 207.0).abs() < 1e-9);
    let folded = timeline::Axis::new(w, g, vec![(12, 18), (3, 9)]);
    assert_eq!(folded.folds, [(3, 9), (12, 18)], "sorted");
    assert!((folded.x(1.0) - 8.0).abs() < 1e-9 && (folded.x(21.0) - 406.0).abs() < 1e-9);
    // Each fold takes timeline::FOLD_W whatever it holds; the 6 open revisions share the rest.
    assert!((folded.per - (398.0 - 2.0 * timeline::FOLD_W) / 6.0).abs() < 1e-9);
    assert!((folded.x(10.0) - folded.x(3.0) - timeline::FOLD_W).abs() < 1e-9);
    // Monotonic and continuous across fold edges.
    let mut last = f64::NEG_INFINITY;
    for i in 0..=200 {
        let r = 1.0 + f64::from(i) * 0.1;
        let x = folded.x(r);
        assert!(x >= last - 1e-9, "x({r}) = {x} < {last}");
        last = x;
    }
    assert_eq!(folded.fold_of(5), Some((3, 9)));
    assert_eq!(folded.fold_of(11), None);
    assert_eq!(folded.folds_attr(), "3-9 12-18");
}

#[wasm_bindgen_test]
fn only_stretches_of_plain_writes_fold_and_only_when_revisions_are_too_narrow() {
    let m = two_quiet_stretches();
    // Lists at 2, 12 and 22, the cache window 1–22 and etcd's head 22 are drawn; the rest
    // are writes only.
    assert_eq!(timeline::quiet_stretches(&m), [(3, 11), (13, 21)]);
    // 1280 px: 22 revisions fit at ≥ 24 px each, nothing folds.
    assert!(timeline::Axis::plan(&m, 1280.0, &[]).folds.is_empty());
    // 390 px: both fold, and the open revisions get a pointer target each.
    let narrow = timeline::Axis::plan(&m, 360.0, &[]);
    assert_eq!(narrow.folds, [(3, 11), (13, 21)]);
    assert!(narrow.per >= timeline::COMFORT_PX && narrow.g.width <= 360.0);
    assert!(!narrow.opened);
    // A stretch the learner opened stays open; the picture grows (at most timeline::MAX_GROW ×) so
    // its revisions keep their width, and says it was opened.
    let opened = timeline::Axis::plan(&m, 360.0, &[(13, 21)]);
    assert_eq!(opened.folds, [(3, 11)]);
    assert!(opened.opened && opened.g.width > 360.0 && opened.per >= timeline::COMFORT_PX - 1e-9);
    assert!(opened.g.width <= 360.0 + (narrow.g.x1 - narrow.g.x0) * (timeline::MAX_GROW - 1.0) + 1e-9);
}

#[wasm_bindgen_test]
fn a_step_names_what_arrived_what_was_read_and_which_marks_are_new() {
    let mut lines = vec![
        "set cache.lag 5s".to_string(),
        create_line("a"),
        create_line("b"),
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1".into(),
    ];
    let before = model_of(&lines);
    lines.push("advance 6s".into());
    lines.push("events w1".into());
    lines.push(LIST_ALL.into());
    let after = model_of(&lines);
    let step = timeline::Step::between(Some(&before), &after, 7);
    assert_eq!(step.n, 7);
    assert_eq!(step.fresh(), "fresh-b");
    assert_eq!(step.landed, [(1, "configmaps".to_string(), 2), (1, "configmaps".to_string(), 3)]);
    assert_eq!(step.frames, [("w1".to_string(), 2), ("w1".to_string(), 3)]);
    assert!(step.started.is_empty() && step.ended.is_empty());
    assert_eq!(step.marks, [(6, 3)], "the list of line 7, at RV 3");
    // Backwards (the scrubber stepping back) nothing arrives and nothing is new.
    let back = timeline::Step::between(Some(&after), &before, 8);
    assert!(back.landed.is_empty() && back.frames.is_empty() && back.marks.is_empty());
    // The first picture has nothing to stage.
    assert_eq!(timeline::Step::between(None, &after, 0), timeline::Step::default());
}

/// `n` configmap creates named `{prefix}1`…
fn creates(prefix: &str, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{prefix}{i}"}}}}"#)
        })
        .collect()
}

impl Lab {
    /// The revision axis both pictures are drawn on, read from the timeline's attributes
    /// (window, layout, folded stretches).
    fn axis(&self) -> timeline::Axis {
        let folds = self
            .attr("#timeline-svg", "data-folds")
            .split_whitespace()
            .map(|f| {
                let (a, b) = f.split_once('-').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        timeline::Axis::new(self.window(), self.geom(), folds)
    }
}

fn key_on(el: &Element, k: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    el.dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
}

/// Issue 14 at 390 px: stretches of revisions with nothing but writes fold into a visible fold
/// mark that says what it holds and opens on a press (one Tab stop for all folds, ← → between
/// them, a 24 px target); both pictures share the folded axis; a stretch the learner opened
/// widens the picture past the panel, which then scrolls sideways with a fade on the edge that
/// has more and a hint saying so, until "fold again". The same at 1280 px for a long history.
#[wasm_bindgen_test]
async fn quiet_stretches_fold_into_one_tab_stop_and_opened_ones_scroll_with_a_hint() {
    let lab = Lab::sized(390).await;
    let list = "GET /api/v1/namespaces/default/configmaps?limit=500";
    let mut lines: Vec<String> = vec![CM_A.into(), list.into()];
    lines.extend(creates("p", 10)); // revisions 3–12
    lines.push(list.into()); // list RV 12
    lines.extend(creates("q", 10)); // revisions 13–22
    lines.push(list.into()); // list RV 22
    for l in &lines {
        lab.console(l).await;
    }
    settle().await;
    // Revisions 3–11 and 13–21 hold only writes: at 390 px they fold, the longest first.
    assert_eq!(lab.attr("#timeline-svg", "data-folds"), "3-11 13-21");
    assert_eq!(lab.attr("#system-view", "data-folds"), "3-11 13-21", "one axis for both pictures");
    let folds = lab.all("#timeline-svg [data-kind='fold']");
    assert_eq!(folds.len(), 2);
    for (f, (from, to)) in folds.iter().zip([("3", "11"), ("13", "21")]) {
        assert_eq!(f.get_attribute("data-from").as_deref(), Some(from));
        assert_eq!(f.get_attribute("data-to").as_deref(), Some(to));
        assert_eq!(f.get_attribute("data-count").as_deref(), Some("9"));
        assert_eq!(f.get_attribute("role").as_deref(), Some("button"));
        let label = f.get_attribute("aria-label").unwrap();
        assert!(label.contains(&format!("{from}–{to}")) && label.contains("but key writes"), "{label}");
        // Its visible text says how many revisions it holds and that it opens.
        let text = f.query_selector(".fold-label").unwrap().unwrap().text_content().unwrap();
        assert!(text.starts_with("⋯ 9") && text.ends_with("show"), "{text}");
        let hit = rect_of(&f.query_selector(".hit").unwrap().unwrap());
        assert!(hit.r - hit.l >= 24.0 && hit.b - hit.t >= 24.0, "a 24 px target");
    }
    assert!(lab.q("#tl-folds-note").is_some(), "the legend says what a fold is");
    // One Tab stop for every fold (and none for the marks).
    let stops: Vec<Element> = lab.all(".pictures [tabindex]");
    let tabbable: Vec<&Element> =
        stops.iter().filter(|e| e.get_attribute("tabindex").as_deref() == Some("0")).collect();
    assert_eq!(tabbable.len(), 1);
    assert!(tabbable[0].is_same_node(Some(&folds[0])));
    assert_eq!(folds[1].get_attribute("tabindex").as_deref(), Some("-1"));
    // Every mark is where the folded axis puts it, in both pictures.
    let axis = lab.axis();
    assert!(axis.per >= timeline::COMFORT_PX, "{} px per open revision", axis.per);
    for rv in ["12", "22"] {
        let mark = lab.el(&format!("#timeline-svg [data-kind='list-rv'][data-rv='{rv}']"));
        assert!(close(lab_num(&mark, "data-x"), axis.x(rv.parse::<f64>().unwrap() + 0.5)), "list at {rv}");
    }
    let head = lab.el("#system-view .head").get_attribute("d").unwrap();
    let head_x: f64 = head[1..].split(' ').next().unwrap().parse().unwrap();
    assert!(close(head_x, axis.x(22.5)), "{head}");
    motionless(&lab).await;
    assert_legible(&lab, "folds at 390");
    let wrap = lab.el(".pictures");
    assert!(wrap.scroll_width() <= wrap.client_width() + 1, "folded, nothing scrolls sideways");
    assert!(lab.q("#tl-scroll-hint").is_none());
    // ← → move the focus between folds; Enter opens the focused one.
    let focus = |e: &Element| {
        let f: js_sys::Function = js_get(e, "focus").dyn_into().unwrap();
        f.call0(e).unwrap();
    };
    focus(&folds[0]);
    key_on(&folds[0], "ArrowRight");
    let active = document().active_element().unwrap();
    assert!(active.is_same_node(Some(&folds[1])), "focus moved to the second fold");
    key_on(&folds[1], "Enter");
    flush().await;
    settle().await;
    assert_eq!(lab.attr("#timeline-svg", "data-folds"), "3-11", "only the opened stretch shows");
    // 13 open revisions no longer fit 390 px at 24 px each: the picture grows and scrolls.
    let svg_w = lab.num("#timeline-svg", "data-width");
    assert!(svg_w > f64::from(wrap.client_width()) + 1.0, "{svg_w}");
    assert!(close(lab.num("#system-view", "width"), svg_w), "both pictures grow together");
    assert!(wrap.scroll_width() > wrap.client_width());
    assert!(lab.text("#tl-scroll-hint").contains("scroll sideways"), "{}", lab.text("#tl-scroll-hint"));
    assert!(wrap.class_list().contains("more-right") && !wrap.class_list().contains("more-left"));
    assert_ne!(computed(&wrap, "mask-image"), "none", "a fade on the edge with more");
    wrap.set_scroll_left(100_000);
    fire(&wrap, "scroll");
    flush().await;
    assert!(wrap.class_list().contains("more-left") && !wrap.class_list().contains("more-right"));
    lab.click("#tl-refold").await;
    settle().await;
    assert_eq!(lab.attr("#timeline-svg", "data-folds"), "3-11 13-21");
    assert!(lab.q("#tl-scroll-hint").is_none() && lab.q("#tl-refold").is_none());
    assert!(wrap.scroll_width() <= wrap.client_width() + 1);
    lab.unmount();

    // 1280 px, a long history: the same, with the long text on the fold.
    let lab = Lab::sized(1280).await;
    let mut lines: Vec<String> = vec![CM_A.into(), list.into()];
    lines.extend(creates("p", 60)); // revisions 3–62
    lines.push(list.into());
    for l in &lines {
        lab.console(l).await;
    }
    settle().await;
    assert_eq!(lab.attr("#timeline-svg", "data-folds"), "3-61");
    assert_eq!(
        lab.text("#timeline-svg [data-kind='fold'] .fold-label"),
        "⋯ 59 revisions, writes only — show"
    );
    motionless(&lab).await;
    assert_legible(&lab, "a fold at 1280");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn an_empty_sandbox_shows_one_sentence_and_no_unexplained_bars() {
    // The playground's first visit shows "start here" instead of an empty picture.
    let first = Lab::sized(1280).await;
    assert!(first.q("#welcome").is_some() && first.q("#timeline-svg").is_none());
    first.unmount();
    // An empty interactive embed draws the empty picture.
    let lab = Lab::with_config(Config::parse("?embed=1&mode=interactive&lang=en", "")).await;
    assert!(lab.q("#tl-empty").is_some());
    assert!(lab.q("#system-view").is_none());
    assert!(lab.all("#timeline-svg rect.band, #timeline-svg [data-kind]").is_empty());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn compaction_rounds_are_marked_and_compact_rev_key_is_explained_not_drawn() {
    let lab = Lab::sized(1280).await;
    run_all(&lab, &[CM_A, "advance 5m", CM_B, "advance 5m"]).await;
    settle().await;
    let rounds = lab.all("#timeline-svg [data-kind='compaction'][data-round]");
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].get_attribute("data-round").as_deref(), Some("1"));
    let rev = rounds[0].get_attribute("data-rev").unwrap();
    assert_eq!(lab.attr("#tl-compacted", "data-rev"), rev);
    assert!(lab.q("#timeline-svg g.lane[data-key='compact_rev_key']").is_none());
    assert!(lab.text("#tl-compact-key").contains("compact_rev_key"), "{}", lab.text("#tl-compact-key"));
    motionless(&lab).await;
    assert_legible(&lab, "compaction at 1280");
    lab.unmount();
}

/// One scenario per `ended` value of the typed decision (the scripts `./dev.sh shots` draws,
/// each checked by `rvlab test`): each watch end is drawn with that cause, its code only when an
/// ERROR frame ended it, and legibly.
#[wasm_bindgen_test]
async fn each_ended_cause_is_drawn_with_its_cause_and_code() {
    let cases: [(&str, &str, Option<&str>); 9] = [
        (include_str!("../scripts/shots/cache-window.rv"), "cache-window", Some("410")),
        (include_str!("../scripts/shots/etcd-compacted.rv"), "etcd-compacted", Some("410")),
        (include_str!("../scripts/shots/slow-consumer.rv"), "slow-consumer", None),
        (include_str!("../scripts/shots/timeout.rv"), "timeout", None),
        (include_str!("../scripts/shots/cancelled.rv"), "cancelled", None),
        (include_str!("../scripts/shots/restart.rv"), "restart", None),
        (include_str!("../scripts/shots/cache-not-fresh.rv"), "cache-not-fresh", Some("504")),
        (include_str!("../scripts/shots/prev-kv-missing.rv"), "prev-kv-missing", Some("500")),
        (include_str!("../scripts/shots/cache-off.rv"), "cache-off", None),
    ];
    for (script, cause, code) in cases {
        let lab = Lab::sized(1280).await;
        let lines: Vec<&str> =
            script.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
        run_all(&lab, &lines).await;
        settle().await;
        let ends = lab.all("#timeline-svg [data-kind='watch-end']");
        assert_eq!(ends.len(), 1, "{cause}");
        let e = &ends[0];
        assert_eq!(e.get_attribute("data-cause").as_deref(), Some(cause));
        assert_eq!(e.get_attribute("data-code").as_deref(), code, "{cause}");
        assert_eq!(e.get_attribute("data-apiserver").as_deref(), Some("1"), "{cause}");
        // Red ✕ only for an ERROR frame; a stream that just stopped is a grey square.
        assert_eq!(e.query_selector(".end-x").unwrap().is_some(), code.is_some(), "{cause}");
        assert_eq!(e.query_selector(".end-sq").unwrap().is_some(), code.is_none(), "{cause}");
        assert!(e.query_selector("text").unwrap().is_some(), "{cause}: the end says why in visible text");
        motionless(&lab).await;
        assert_legible(&lab, cause);
        lab.unmount();
    }
}

/// A refused read is drawn where its decision says: the continue token pinned at 4 meets
/// compaction at 5 → a red ✕ "410" at 4, its rv −1 token hollow at the head (lesson 06's story).
#[wasm_bindgen_test]
async fn a_refused_continue_is_drawn_at_its_token_revision() {
    let lab = Lab::sized(1280).await;
    let script = include_str!("../scripts/shots/paging.rv");
    let lines: Vec<&str> = script.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    run_all(&lab, &lines).await;
    settle().await;
    let refused = lab.el("#timeline-svg [data-kind='request-error']");
    assert_eq!(refused.get_attribute("data-rv").as_deref(), Some("4"));
    let text = refused.query_selector(".refused-text").unwrap().expect("the code in visible text");
    assert_eq!(text.text_content().as_deref(), Some("410"));
    assert!(refused.query_selector(".end-x").unwrap().is_some());
    let hollow = lab.el("#timeline-svg [data-kind='continue-token'] rect.hollow").parent_element().unwrap();
    assert_eq!(hollow.get_attribute("data-rv").as_deref(), Some("5"));
    motionless(&lab).await;
    assert_legible(&lab, "paging at 1280");
    lab.unmount();
}

// ---------------------------------------------------------------------------------------------
// First use and flow: layout measured in a real viewport (an iframe of the given size with the
// app's style sheet), keyboard, messages where the learner acted, share links in a running tab

/// The app mounted in an iframe of `width` × `height` CSS pixels that carries www/style.css, so
/// media queries and positions are those of a real viewport of that size. Elements of another
/// document fail `instanceof` checks, so this harness only uses unchecked casts.
struct Sized {
    frame: Element,
    lab: Lab,
}

impl Sized {
    async fn open(width: u32, height: u32, cfg: Config) -> Sized {
        let doc = document();
        let frame = doc.create_element("iframe").unwrap();
        frame
            .set_attribute("style", &format!("width:{width}px;height:{height}px;border:0;display:block"))
            .unwrap();
        doc.body().unwrap().append_child(&frame).unwrap();
        let fdoc: web_sys::Document =
            js_sys::Reflect::get(&frame, &"contentDocument".into()).unwrap().unchecked_into();
        // The initial about:blank document is there at once; give it the app's style sheet.
        let style = fdoc.create_element("style").unwrap();
        style.set_text_content(Some(include_str!("../www/style.css")));
        fdoc.head().unwrap().append_child(&style).unwrap();
        let root = fdoc.create_element("div").unwrap();
        fdoc.body().unwrap().append_child(&root).unwrap();
        let props = rvlab::ui::AppProps { config: Some(Rc::new(cfg)) };
        let handle = yew::Renderer::<rvlab::ui::App>::with_root_and_props(root.clone(), props).render();
        flush().await;
        Sized { frame, lab: Lab { root, handle: Some(handle) } }
    }

    fn view(&self) -> web_sys::Window {
        js_sys::Reflect::get(&self.frame, &"contentWindow".into()).unwrap().unchecked_into()
    }

    fn height(&self) -> f64 {
        self.view().inner_height().unwrap().as_f64().unwrap()
    }

    fn width(&self) -> f64 {
        self.view().inner_width().unwrap().as_f64().unwrap()
    }

    /// `sel`'s box in the frame's viewport.
    fn rect(&self, sel: &str) -> web_sys::DomRect {
        self.lab.el(sel).get_bounding_client_rect()
    }

    /// Whether `sel` lies wholly inside the viewport (nothing to scroll to see it).
    fn in_view(&self, sel: &str) -> bool {
        let r = self.rect(sel);
        r.height() > 0.0
            && r.top() >= 0.0
            && r.bottom() <= self.height() + 0.5
            && r.right() <= self.width() + 0.5
    }

    async fn click(&self, sel: &str) {
        self.lab.el(sel).unchecked_into::<HtmlElement>().click();
        flush().await;
    }

    async fn input(&self, sel: &str, value: &str) {
        let el = self.lab.el(sel);
        el.unchecked_ref::<HtmlInputElement>().set_value(value);
        fire(&el, "input");
        flush().await;
    }

    async fn console(&self, line: &str) {
        self.input("#console-input", line).await;
        self.click("#console-run").await;
    }

    fn close(self) {
        self.lab.unmount();
        self.frame.remove();
    }
}

/// Clears what a test could leave for the next one.
fn clean_slate() {
    storage().remove_item(STORAGE_KEY).unwrap();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn first_visit_shows_where_to_start_and_the_first_result_without_scrolling() {
    for (w, lang) in [(1280, "en"), (390, "en"), (1280, "zh")] {
        clean_slate();
        let s = Sized::open(w, 800, Config::parse(&format!("?lang={lang}"), "")).await;
        // Where to start: the first lesson and one-click lines, on the first screen.
        for sel in ["#welcome", "#welcome-lesson", "#welcome .examples li:first-child button"] {
            assert!(s.in_view(sel), "{w}px {lang}: {sel} at {:?}", (s.rect(sel).top(), s.rect(sel).bottom()));
        }
        // The first action's result is on screen without scrolling.
        s.click("#welcome .examples li:nth-child(2) button").await;
        assert_eq!(s.lab.log(), vec!["GET /api/v1/namespaces/default/configmaps?limit=1"]);
        assert!(s.lab.q("#welcome").is_none(), "the start card makes room for the result");
        for sel in ["#response .status", "#log li[data-line='1']"] {
            assert!(
                s.in_view(sel),
                "{w}px {lang}: {sel} at {:?} in a {}px viewport",
                (s.rect(sel).top(), s.rect(sel).bottom()),
                s.height()
            );
        }
        assert_eq!(s.view().scroll_y().unwrap(), 0.0, "nothing scrolled");
        s.close();
    }
    // Start lesson 1 opens the first guided lesson.
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_loader(inline_loader())).await;
    lab.click("#welcome-lesson").await;
    lab.wait_for("#lesson-panel .lesson-goal").await;
    assert!(lab.q("#welcome").is_none());
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn lesson_mode_keeps_the_lesson_the_action_its_response_and_the_picture_on_one_screen() {
    clean_slate();
    let cfg = Config::parse("?lesson=paging&lang=en", "").with_loader(inline_loader());
    let s = Sized::open(1280, 800, cfg).await;
    s.lab.wait_for("#lesson-panel .lesson-goal").await;
    s.console("GET /api/v1/namespaces/default/configmaps?limit=1").await;
    assert!(s.lab.text("#response").contains("limit=1"), "{}", s.lab.text("#response"));
    for sel in ["#lesson-panel .lesson-goal", "#console-input", "#response .status", "#timeline-svg"] {
        let r = s.rect(sel);
        assert!(
            s.in_view(sel),
            "{sel} at top {} bottom {} in a {}px viewport",
            r.top(),
            r.bottom(),
            s.height()
        );
    }
    assert_eq!(s.view().scroll_y().unwrap(), 0.0);
    s.close();
    clean_slate();
}

#[wasm_bindgen_test]
async fn refusals_and_the_fork_question_show_where_the_learner_acted_and_keep_the_input() {
    clean_slate();
    let s = Sized::open(1280, 800, Config::parse("?lang=en", "")).await;
    let inside = |sel: &str, panel: &str| {
        let (a, b) = (s.rect(sel), s.rect(panel));
        a.top() >= b.top() && a.bottom() <= b.bottom() && a.left() >= b.left() && a.right() <= b.right()
    };
    let input = || s.lab.el("#console-input").unchecked_into::<HtmlInputElement>().value();
    // A refused line: the message sits in the console, below the input, which keeps the line.
    let long = format!("# {}", "y".repeat(70_000));
    s.console(&long).await;
    assert!(s.lab.text("#notice").contains("Not run"), "{}", s.lab.text("#notice"));
    assert!(inside("#notice", "section.console"), "the refusal is shown in the console");
    assert!(s.in_view("#notice"));
    assert_eq!(input(), long);
    assert!(s.lab.log().is_empty());
    // A line that runs clears the input.
    s.console("advance 1s").await;
    s.console("advance 2s").await;
    assert_eq!(input(), "");
    assert_eq!(s.lab.log(), vec!["advance 1s", "advance 2s"]);
    // In the past, the fork question appears in the console too; the input waits for the answer.
    s.click("#scrub-back").await;
    s.console("advance 3s").await;
    assert!(inside("#fork", "section.console"), "the fork question is shown in the console");
    assert!(s.lab.q(".scrubber #fork").is_none(), "and only there");
    assert_eq!(input(), "advance 3s");
    s.click("#fork-cancel").await;
    assert_eq!(input(), "advance 3s", "cancelled: the line is still there to run later");
    s.click("#console-run").await;
    s.click("#fork-confirm").await;
    assert_eq!(s.lab.log(), vec!["advance 1s", "advance 3s"]);
    assert_eq!(input(), "");
    // The request builder's Send in the past asks next to the builder.
    s.click("#scrub-back").await;
    s.click("#send").await;
    assert!(inside("#fork", "section.request"), "the fork question is shown in the request builder");
    s.click("#fork-cancel").await;
    // The simulation's buttons ask in the simulation panel.
    s.click("button[data-cmd='advance 1s']").await;
    assert!(inside("#fork", "section.sim"), "the fork question is shown in the simulation panel");
    s.click("#fork-cancel").await;
    s.close();
    clean_slate();
}

#[wasm_bindgen_test]
async fn switching_verbs_clears_what_the_new_verb_cannot_take_and_says_why() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.select("#rb-verb", "list").await;
    lab.input("#rb-rv", "5").await;
    lab.select("#rb-match", "Exact").await;
    lab.input("#rb-limit", "2").await;
    assert!(lab.request_line().contains("resourceVersionMatch=Exact"));
    lab.select("#rb-verb", "watch").await;
    let line = lab.request_line();
    assert!(!line.contains("resourceVersionMatch"), "{line}");
    assert!(line.contains("resourceVersion=5") && line.contains("limit=2"), "{line}");
    assert_eq!(lab.text("#rb-cleared"), "Cleared resourceVersionMatch: not accepted by a watch request.");
    assert!(lab.el("#rb-match").has_attribute("disabled"));
    assert!(lab.text("#rb-match-hint").contains("sendInitialEvents"), "{}", lab.text("#rb-match-hint"));
    // With sendInitialEvents a watch takes resourceVersionMatch (NotOlderThan) again.
    lab.select("#rb-initial", "true").await;
    assert!(!lab.el("#rb-match").has_attribute("disabled"));
    lab.select("#rb-match", "NotOlderThan").await;
    let line = lab.request_line();
    assert!(
        line.contains("resourceVersionMatch=NotOlderThan") && line.contains("sendInitialEvents=true"),
        "{line}"
    );
    lab.check("#rb-bookmarks", true).await;
    // A create takes none of the read options.
    lab.select("#rb-verb", "create").await;
    assert_eq!(
        lab.text("#rb-cleared"),
        "Cleared resourceVersion, resourceVersionMatch, limit, sendInitialEvents, allowWatchBookmarks: not accepted by a create request."
    );
    assert!(!lab.request_line().contains('?'), "{}", lab.request_line());
    // A get (one object) has no resourceVersionMatch.
    lab.select("#rb-verb", "get").await;
    assert!(lab.el("#rb-match").has_attribute("disabled"));
    assert!(lab.text("#rb-match-hint").contains("GetOptions"));
    // The simulation's name prefix follows the resource unless it was typed over.
    let prefix = || lab.el("#sim-prefix").dyn_into::<HtmlInputElement>().unwrap().value();
    assert_eq!(prefix(), "pod");
    lab.select("#sim-resource", "configmaps").await;
    assert_eq!(prefix(), "configmap");
    lab.click("#sim-create").await;
    assert!(lab.log()[0].contains(r#""name":"configmap-1""#), "{:?}", lab.log());
    lab.input("#sim-prefix", "web").await;
    lab.select("#sim-resource", "pods").await;
    assert_eq!(prefix(), "web");
    lab.unmount();
    clean_slate();
}

/// Presses Ctrl+`k` on `target` (a bubbling, cancelable keydown).
fn ctrl_key(k: &str, target: &web_sys::EventTarget) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_ctrl_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn ctrl_z_and_ctrl_y_work_when_nothing_in_the_app_has_focus() {
    clean_slate();
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    if let Some(el) = document().active_element() {
        el.unchecked_into::<HtmlElement>().blur().unwrap();
    }
    // Nothing focused: the key goes to the body, outside the app's element.
    let body = document().body().unwrap();
    ctrl_key("z", &body);
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    ctrl_key("y", &body);
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    ctrl_key("z", &document());
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    // Unmounted, the app no longer listens.
    lab.unmount();
    let other = Lab::with_config(Config::parse("?embed=1&mode=readonly&script=advance%201s", "")).await;
    ctrl_key("z", &body);
    flush().await;
    assert_eq!(other.log(), vec!["advance 1s"], "a read-only embed ignores undo");
    other.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn a_share_link_opened_in_a_running_tab_replaces_the_sandbox() {
    use rvlab::ui::share;
    clean_slate();
    let lab = Lab::mount().await;
    lab.console("advance 5m").await;
    let frag = share::encode(&share::Shared { log: vec![CM_A.into(), "advance 1s".into()], at: 2 });
    let loc = web_sys::window().unwrap().location();
    loc.set_hash(&frag).unwrap();
    // hashchange is dispatched asynchronously.
    for _ in 0..100 {
        if lab.log().len() == 2 {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    flush().await;
    assert_eq!(lab.log(), vec![CM_A.to_string(), "advance 1s".to_string()]);
    assert!(lab.text("#notice").contains("Opened a shared sandbox (2 lines)"), "{}", lab.text("#notice"));
    assert_eq!(loc.hash().unwrap(), "", "the consumed link leaves the address bar");
    // The sandbox it replaced can come back.
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    // A fragment that is not a share link changes nothing.
    loc.set_hash("section-2").unwrap();
    for _ in 0..10 {
        yew::platform::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(lab.log(), vec!["advance 5m"]);
    loc.set_hash("").unwrap();
    lab.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
    clean_slate();
}

#[wasm_bindgen_test]
async fn the_console_log_is_one_tab_stop_with_arrow_keys_inside() {
    clean_slate();
    let lab = Lab::fresh().await;
    for i in 1..=5 {
        lab.console(&format!("advance {i}s")).await;
    }
    let stops = |lab: &Lab| {
        lab.all("#log li button")
            .iter()
            .filter(|b| b.get_attribute("tabindex").as_deref() != Some("-1"))
            .count()
    };
    assert_eq!(stops(&lab), 1, "one Tab stop for the whole log");
    assert_eq!(lab.attr("#log li[data-line='5'] button", "tabindex"), "0", "the newest row holds it");
    let key = |k: &str, target: &Element| key_on(target, k);
    let focused = || {
        document()
            .active_element()
            .and_then(|e| e.closest("li").ok().flatten())
            .and_then(|li| li.get_attribute("data-line"))
    };
    lab.el("#log li[data-line='5'] button").dyn_into::<HtmlElement>().unwrap().focus().unwrap();
    key("ArrowUp", &lab.el("#log li[data-line='5'] button"));
    assert_eq!(focused().as_deref(), Some("4"));
    key("Home", &lab.el("#log li[data-line='4'] button"));
    assert_eq!(focused().as_deref(), Some("1"));
    key("ArrowDown", &lab.el("#log li[data-line='1'] button"));
    assert_eq!(focused().as_deref(), Some("2"));
    key("End", &lab.el("#log li[data-line='2'] button"));
    assert_eq!(focused().as_deref(), Some("5"));
    // Selecting a row moves the Tab stop to it.
    lab.click("#log li[data-line='2'] button").await;
    assert_eq!(stops(&lab), 1);
    assert_eq!(lab.attr("#log li[data-line='2'] button", "tabindex"), "0");
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn small_things_line_counts_favicon_tooltip_and_unbroken_frame_types() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 1s").await;
    assert!(lab.text("#console-h").ends_with(" · 1 line"), "{}", lab.text("#console-h"));
    lab.console("advance 1s").await;
    assert!(lab.text("#console-h").ends_with(" · 2 lines"), "{}", lab.text("#console-h"));
    let title = lab.attr("#sim-compact-window", "title");
    assert!(title.contains("watch cache") && title.len() > 40, "{title}");
    lab.unmount();
    let zh = Lab::with_config(Config::parse("?lang=zh", "")).await;
    assert!(zh.text("#console-h").ends_with(" · 共 2 行"), "{}", zh.text("#console-h"));
    zh.unmount();
    // The page names its icon (relative, so it works under a sub-path): no /favicon.ico request.
    let index = include_str!("../www/index.html");
    assert!(index.contains(r#"<link rel="icon" type="image/svg+xml" href="favicon.svg" />"#));
    assert!(include_str!("../www/favicon.svg").starts_with("<svg"));
    // In 中文, at 390 px, an ERROR frame's type stays on one line.
    clean_slate();
    let s = Sized::open(390, 800, Config::parse("?lang=zh", "")).await;
    let mut lines = vec!["set cache.capacity 5".to_string()];
    lines.extend(
        (1..=7).map(|i| {
            format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"o{i}"}}}}"#)
        }),
    );
    lines.push("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2".into());
    lines.push("events w1".into());
    for l in &lines {
        s.console(l).await;
    }
    let cell = s.lab.el(".watches tr.ev-error td:first-child");
    assert_eq!(cell.text_content().unwrap(), "ERROR");
    // One line of text: the cell's text makes a single line box.
    let line_boxes = js_sys::Function::new_with_args(
        "el",
        "const r = el.ownerDocument.createRange(); r.selectNodeContents(el); return r.getClientRects().length;",
    );
    let n = line_boxes.call1(&wasm_bindgen::JsValue::NULL, &cell).unwrap().as_f64().unwrap();
    assert_eq!(n, 1.0, "ERROR is laid out on one line");
    s.close();
    clean_slate();
}

#[wasm_bindgen_test]
async fn a_short_read_only_embed_is_compact_and_sized_to_its_content() {
    clean_slate();
    let script = "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"a\"}}\nPOST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"b\"}}\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2\nevents w1";
    let q = format!("?embed=1&mode=readonly&lang=en&script={}", rvlab::ui::url::percent_encode(script));
    // A tall frame: whatever the app measures is its own content, not the frame's height.
    let s = Sized::open(800, 2000, Config::parse(&q, "")).await;
    assert_eq!(s.lab.log().len(), 4);
    let app = s.rect(".app");
    assert!(app.height() < 800.0, "a 4-line read-only example is {}px tall at 800px", app.height());
    // The picture, the steps and the selected response are all there, one under the other or
    // side by side, with no column left empty beside another.
    for sel in ["#timeline-svg", "#log", "#response-events"] {
        assert!(s.rect(sel).bottom() <= app.bottom() + 0.5, "{sel} inside the app");
    }
    let (log, resp) = (s.rect("section.console"), s.rect("#response"));
    if (log.top() - resp.top()).abs() < 1.0 {
        // Side by side: neither column is mostly empty.
        let (a, b) = (log.height(), resp.height());
        assert!(a.min(b) / a.max(b) > 0.35, "columns {a}px and {b}px");
    }
    // The height posted to the host is the content's, and it does not grow with the frame.
    // The pictures are laid out for their container's width once its ResizeObserver reports
    // it (asynchronously, after the first paint): measure after that.
    let h1 = settled_height(&s.lab.el(".app")).await;
    s.frame.set_attribute("style", "width:800px;height:3000px;border:0;display:block").unwrap();
    let h2 = settled_height(&s.lab.el(".app")).await;
    assert_eq!(h1, h2, "the app's height depends on its content only");
    s.close();
    clean_slate();
}

// ---------------------------------------------------------------------------------------------
// Long histories: checkpoints, saving when idle, the log's rows

fn seed_storage(lines: &[String]) {
    storage().set_item(STORAGE_KEY, &json!({"log": lines, "redo": []}).to_string()).unwrap();
}

/// Moves the scrubber with its slider.
async fn scrub_to(lab: &Lab, n: usize) {
    let range = lab.el("#scrub-range");
    range.dyn_ref::<HtmlInputElement>().unwrap().set_value(&n.to_string());
    fire(&range, "input");
    settle().await;
}

#[wasm_bindgen_test]
async fn scrubbing_and_undo_in_a_long_history_match_a_sandbox_that_ran_only_that_prefix() {
    // 150 lines: the scrubber and undo start from a checkpoint (one every 64 lines), not from
    // line 1; a watch opened early and read late, lists with continue tokens in between.
    let mut lines: Vec<String> = (0..150)
        .map(|i| match i % 10 {
            9 => "GET /api/v1/namespaces/default/configmaps?limit=3".to_string(),
            _ => rvlab::bench::console_line(i),
        })
        .collect();
    lines[2] = "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0".into();
    lines[100] = "events w1".into();
    lines[130] = "compact 50".into();
    seed_storage(&lines);
    let long = Lab::mount().await;
    settle().await;
    assert_eq!(long.text("#scrub-pos"), "step 150 of 150");
    scrub_to(&long, 101).await;
    assert_eq!(long.text("#scrub-pos"), "step 101 of 150");
    let at_101 = long.state_html();
    scrub_to(&long, 70).await;
    let at_70 = long.state_html();
    long.click("#scrub-last").await;
    long.click("#undo").await;
    settle().await;
    assert_eq!(long.log().len(), 149);
    let undone = long.state_html();
    long.unmount();
    for (n, got) in [(101, at_101), (70, at_70), (149, undone)] {
        seed_storage(&lines[..n]);
        let short = Lab::mount().await;
        settle().await;
        let want = short.state_html();
        short.unmount();
        // Every panel but the log (which also lists the later lines) shows the same.
        for (i, (a, b)) in got.split("\n----\n").zip(want.split("\n----\n")).take(5).enumerate() {
            assert_eq!(a, b, "panel {i} after {n} of 150 lines");
        }
    }
    storage().remove_item(STORAGE_KEY).unwrap();
}

fn window_event(target: &web_sys::EventTarget, kind: &str) {
    let ev = web_sys::Event::new(kind).unwrap();
    target.dispatch_event(&ev).unwrap();
}

fn saved_log() -> serde_json::Value {
    let s = storage().get_item(STORAGE_KEY).unwrap().expect("saved sandbox");
    serde_json::from_str::<serde_json::Value>(&s).expect("JSON")["log"].clone()
}

#[wasm_bindgen_test]
async fn changes_are_saved_when_idle_and_at_once_when_the_page_is_left_or_hidden() {
    use rvlab::ui::state::save_pending;
    let lab = Lab::fresh().await;
    let run = |line: &str| {
        lab.el("#console-input").dyn_ref::<HtmlInputElement>().unwrap().set_value(line);
        fire(&lab.el("#console-input"), "input");
    };
    // The reducer runs within the click; the save waits for the browser to be idle.
    run("advance 1s");
    flush().await;
    lab.el("#console-run").dyn_ref::<HtmlElement>().unwrap().click();
    assert!(save_pending(), "a command does not write localStorage itself");
    assert!(storage().get_item(STORAGE_KEY).unwrap().is_none());
    // Leaving the page writes it at once.
    let window: web_sys::EventTarget = web_sys::window().unwrap().into();
    window_event(&window, "pagehide");
    assert!(!save_pending());
    assert_eq!(saved_log(), json!(["advance 1s"]));
    // So does the page being hidden (another tab, a closed laptop lid, a phone's app switcher).
    run("advance 2s");
    flush().await;
    lab.el("#console-run").dyn_ref::<HtmlElement>().unwrap().click();
    assert!(save_pending());
    let doc = document();
    let hidden = js_sys::Object::new();
    js_sys::Reflect::set(&hidden, &"value".into(), &"hidden".into()).unwrap();
    js_sys::Reflect::set(&hidden, &"configurable".into(), &true.into()).unwrap();
    js_sys::Reflect::define_property(&doc, &"visibilityState".into(), &hidden).unwrap();
    window_event(&doc, "visibilitychange");
    js_sys::Reflect::delete_property(&doc, &"visibilityState".into()).unwrap();
    assert!(!save_pending());
    assert_eq!(saved_log(), json!(["advance 1s", "advance 2s"]));
    // Otherwise the browser's next idle moment saves it.
    lab.console("advance 3s").await;
    assert_eq!(lab.saved().await["log"], json!(["advance 1s", "advance 2s", "advance 3s"]));
    // Unmounting with a change pending saves it too.
    run("advance 4s");
    flush().await;
    lab.el("#console-run").dyn_ref::<HtmlElement>().unwrap().click();
    assert!(save_pending());
    let mut lab = lab;
    lab.handle.take().unwrap().destroy();
    flush().await;
    assert!(!save_pending());
    assert_eq!(saved_log().as_array().unwrap().len(), 4);
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_long_log_shows_its_newest_row_and_its_rows_stay_findable_copyable_and_keyboard_reachable() {
    let lines: Vec<String> = (1..=400).map(|i| format!("advance {i}ms")).collect();
    seed_storage(&lines);
    // With the app's style sheet (the log is a scrolling box); `unmount` takes it away again.
    add_app_style();
    let lab = Lab::mount().await;
    settle().await;
    let rows = lab.all("#log li");
    assert_eq!(rows.len(), rvlab::ui::console::MAX_ROWS, "the newest rows are drawn");
    assert_eq!(rows[0].get_attribute("data-line").as_deref(), Some("101"));
    // Rows off screen skip layout and paint ...
    let cv = js_sys::eval(
        "getComputedStyle(document.querySelector('#log li')).getPropertyValue('content-visibility')",
    )
    .unwrap();
    assert_eq!(cv.as_string().as_deref(), Some("auto"));
    // ... the newest is in view inside the log's box ...
    let inside = |li: &Element| {
        let (log, r) = (lab.el("#log").get_bounding_client_rect(), li.get_bounding_client_rect());
        r.top() >= log.top() - 1.0 && r.bottom() <= log.bottom() + 1.0 && r.height() > 0.0
    };
    assert!(inside(&rows[299]), "the newest row is in view");
    assert!(!inside(&rows[0]), "the oldest drawn row is scrolled away");
    // ... find in page reaches a row far above ...
    let found = js_sys::eval(
        "(() => { getSelection().removeAllRanges(); const ok = window.find('advance 117ms', true, false, true); \
         const n = getSelection().anchorNode; return ok && n ? n.parentElement.closest('li').dataset.line : 'not found'; })()",
    )
    .unwrap();
    assert_eq!(found.as_string().as_deref(), Some("117"));
    // ... copying the log copies every drawn row's text ...
    let copied = js_sys::eval(
        "(() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('log')); \
         const s = getSelection(); s.removeAllRanges(); s.addRange(r); const t = s.toString(); s.removeAllRanges(); return t; })()",
    )
    .unwrap()
    .as_string()
    .unwrap();
    assert!(copied.contains("advance 101ms") && copied.contains("advance 400ms"), "{}", &copied[..200]);
    // ... and Home moves the focus to the first drawn row and scrolls it into view.
    let last: HtmlElement = rows[299].query_selector("button").unwrap().unwrap().dyn_into().unwrap();
    last.focus().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Home");
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    last.dispatch_event(&ev).unwrap();
    settle().await;
    let first = lab.all("#log li")[0].clone();
    let focused = document().active_element().unwrap();
    assert_eq!(focused.closest("li").unwrap().unwrap().get_attribute("data-line").as_deref(), Some("101"));
    assert!(inside(&first), "the focused row was scrolled into view");
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Copying to the clipboard waits for the browser's answer; what went wrong is told in the
// page's language.

/// Puts a `navigator.clipboard` whose `writeText` answers with `answer` (a JS expression) in
/// front of the browser's own; [`unstub_clipboard`] takes it away.
fn stub_clipboard(answer: &str) {
    js_sys::eval(&format!(
        "Object.defineProperty(navigator, 'clipboard', {{ configurable: true, value: {{ writeText: () => {answer} }} }})"
    ))
    .unwrap();
}

fn unstub_clipboard() {
    js_sys::eval("delete navigator.clipboard").unwrap();
}

#[wasm_bindgen_test]
async fn a_refused_clipboard_write_says_the_copy_failed_in_the_pages_language() {
    let refuse = "Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))";
    for (lang, failed, copied) in [
        (
            "en",
            "Could not copy (Write permission denied.): select the link and copy it by hand.",
            "Link copied to the clipboard.",
        ),
        ("zh", "复制失败（Write permission denied.）：请手动选中链接并复制。", "链接已复制到剪贴板。"),
    ] {
        storage().remove_item(STORAGE_KEY).unwrap();
        let lab = Lab::with_config(Config::parse(&format!("?lang={lang}"), "")).await;
        lab.console("advance 1s").await;
        lab.click("#share").await;
        stub_clipboard(refuse);
        lab.click("#share-copy").await;
        settle().await;
        // The notice's message (its dismiss button's "×" is not part of it).
        let message = |lab: &Lab| lab.q("#notice > span").and_then(|n| n.text_content());
        let refused = message(&lab).map(|m| (m, lab.q("#notice").and_then(|n| n.get_attribute("role"))));
        stub_clipboard("Promise.resolve()");
        lab.click("#share-copy").await;
        settle().await;
        let done = message(&lab);
        unstub_clipboard();
        lab.unmount();
        assert_eq!(refused, Some((failed.to_string(), Some("alert".to_string()))), "{lang}");
        assert_eq!(done.as_deref(), Some(copied), "{lang}");
    }
    storage().remove_item(STORAGE_KEY).unwrap();
}

/// What went wrong (`model::Problem`) in both languages: the browser's own words stay as they
/// came, everything else is the page's language; a notice renders it when drawn.
#[wasm_bindgen_test]
fn problems_are_told_in_english_and_chinese() {
    use rvlab::ui::i18n::Tr;
    use rvlab::ui::model::{Notice, Problem, parse_saved};
    use rvlab::ui::share::DataError;
    let (en, zh) = (Tr(Lang::En), Tr(Lang::Zh));
    let cases = [
        (Problem::NoWindow, "no window", "没有 window 对象"),
        (
            Problem::StorageMissing,
            "localStorage is not available in this browser",
            "此浏览器不提供 localStorage",
        ),
        (
            Problem::StorageBlocked("The operation is insecure.".into()),
            "localStorage is blocked: The operation is insecure.",
            "localStorage 被阻止：The operation is insecure.",
        ),
        (Problem::ClipboardMissing, "the Clipboard API is not available", "浏览器不提供剪贴板 API"),
        (Problem::FileUnreadable, "unreadable file", "文件无法读取"),
        (Problem::Browser("QuotaExceededError".into()), "QuotaExceededError", "QuotaExceededError"),
        (Problem::Share(DataError::TooManyLines(200_000)), "more than 200000 lines", "超过 200000 行"),
        (Problem::Share(DataError::TooBig(8)), "more than 8 MB", "超过 8 MB"),
        (Problem::Share(DataError::CutShort), "cut short", "数据被截断"),
    ];
    for (p, e, z) in cases {
        assert_eq!((p.text(en), p.text(zh)), (e.to_string(), z.to_string()));
    }
    assert_eq!(parse_saved("{"), Err(Problem::NotJson { line: 1, column: 1 }));
    assert_eq!(parse_saved(r#"{"log":[1]}"#), Err(Problem::LineNotText));
    assert_eq!(parse_saved(r#"{"log":[],"redo":3}"#), Err(Problem::RedoNotList));
    assert_eq!(parse_saved("7"), Err(Problem::NotSaved));
    assert_eq!(Problem::NotJson { line: 1, column: 1 }.text(zh), "不是 JSON（第 1 行第 1 列出错）");
    let n = Notice::error(K::NoticeRestoreFailedNotSaving, vec![STORAGE_KEY.into()]).arg(Problem::NotSaved);
    assert_eq!(
        n.text(en),
        "The saved sandbox (rvlab.log.v1) could not be read: not a saved sandbox. Started with an empty sandbox that this tab does not save, so the saved text stays as it was."
    );
    assert_eq!(
        n.text(zh),
        "无法读取已保存的沙盒（rvlab.log.v1）：不是保存下来的沙盒。已从空沙盒开始；这个标签页不会保存它，已保存的内容保持原样。"
    );
}

/// Play's title and the timeline's not-fresh label, in both languages; the label's wait is the
/// cacher's own constant.
#[wasm_bindgen_test]
fn play_and_the_freshness_wait_are_told_as_they_are() {
    assert_eq!(
        K::PlayTitle.get(Lang::En),
        "While playing, the clock moves every second by the chosen speed (10× = 10 simulated seconds); the whole Play session is one advance line that grows as it plays, and Pause ends it"
    );
    assert_eq!(
        K::PlayTitle.get(Lang::Zh),
        "播放时，时钟每秒按所选速度推进一次（10× 即 10 秒模拟时间）；整个播放过程只是一行 advance，随播放不断增长，按暂停即结束这一行"
    );
    let s = rvlab::apiserver::cacher::FRESHNESS_TIMEOUT.as_millis() / 1000;
    let wait = |l| rvlab::script::why::span(rvlab::apiserver::cacher::FRESHNESS_TIMEOUT, l);
    let fill = |k: K, l: Lang, w: String| i18n::fill(k.get(l), &[&504, &w]);
    assert_eq!(
        fill(K::TlEndNotFresh, Lang::En, wait(rvlab::script::why::Lang::En)),
        format!("ERROR 504: cache not fresh within {s} s")
    );
    assert_eq!(
        fill(K::TlEndNotFresh, Lang::Zh, wait(rvlab::script::why::Lang::Zh)),
        format!("ERROR 504：cache 在 {s} 秒内没有追上")
    );
}

// ---------------------------------------------------------------------------------------------
// The sandbox is never lost: restore offers, replacing loads, live lines, embeds' scripts, saving

/// A share link for `log` with the scrubber at its end, as a URL fragment.
fn share_fragment(log: &[&str]) -> String {
    use rvlab::ui::share;
    let log: Vec<String> = log.iter().map(|l| l.to_string()).collect();
    let at = log.len();
    format!("#{}", share::encode(&share::Shared { log, at }))
}

/// Whether any notice on the page says `text`.
fn notices_say(lab: &Lab, text: &str) -> bool {
    lab.all("#notice").iter().any(|n| n.text_content().unwrap_or_default().contains(text))
}

#[wasm_bindgen_test]
async fn the_restore_offer_outlives_later_lines_and_stale_refusals_go() {
    clean_slate();
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&[CM_A]))).await;
    assert!(lab.q("#restore-backup").is_some());
    // Running, undoing and redoing lines keeps the way back to the kept sandbox.
    lab.console("advance 1s").await;
    assert_eq!(lab.log().len(), 2);
    assert!(
        lab.q("#restore-backup").is_some(),
        "a line ran: {:?}",
        lab.q("#notice").and_then(|n| n.text_content())
    );
    lab.click("#undo").await;
    assert!(lab.q("#restore-backup").is_some(), "undo");
    lab.click("#redo").await;
    assert!(lab.q("#restore-backup").is_some(), "redo");
    lab.click("#reset").await;
    assert!(lab.q("#restore-backup").is_some(), "reset");
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    // A refusal goes once a later line has run.
    lab.console(&format!("# {}", "y".repeat(70_000))).await;
    assert!(notices_say(&lab, "at most 64 KB"));
    lab.console("advance 1s").await;
    assert_eq!(lab.log(), vec!["advance 5m", "advance 1s"]);
    assert!(!notices_say(&lab, "at most 64 KB"), "the refusal is stale");
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn an_example_or_an_import_keeps_the_sandbox_it_replaces() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 5m").await;
    let name = rvlab::ui::examples::menu(Lang::En)[0].0.clone();
    lab.select("#lesson-pick", &name).await;
    assert_ne!(lab.log(), vec!["advance 5m"]);
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    // An imported file the same way.
    let parts = js_sys::Array::of1(&"# imported\nadvance 1m\n".into());
    let file = web_sys::File::new_with_str_sequence(&parts, "s.txt").unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: HtmlInputElement = lab.el("#import-file").dyn_into().unwrap();
    input.set_files(dt.files().as_ref());
    fire(&input, "change");
    for _ in 0..200 {
        flush().await;
        if lab.log().len() == 2 {
            break;
        }
    }
    assert_eq!(lab.log(), vec!["# imported", "advance 1m"]);
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn restoring_brings_back_the_redo_stack_and_a_sandbox_of_any_size() {
    clean_slate();
    // The redo stack comes back with the log.
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":["advance 2s"]}"#).unwrap();
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&[CM_A]))).await;
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    assert!(lab.text("#redo").contains("(1)"), "{}", lab.text("#redo"));
    lab.unmount();
    // A sandbox that holds only a redo stack (right after Reset) is kept too.
    storage().set_item(STORAGE_KEY, r#"{"log":[],"redo":["advance 5m"]}"#).unwrap();
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&[CM_A]))).await;
    lab.click("#restore-backup").await;
    assert!(lab.log().is_empty());
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    lab.unmount();
    // More lines than one action may run: restored all the same, and the notice says so only
    // then.
    let many: Vec<String> = (0..rvlab::ui::safety::MAX_LINES + 1).map(|i| format!("# {i}")).collect();
    seed_storage(&many);
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&[CM_A]))).await;
    lab.click("#restore-backup").await;
    assert!(notices_say(&lab, "Restored"), "{:?}", lab.q("#notice").and_then(|n| n.text_content()));
    assert_eq!(lab.saved().await["log"].as_array().unwrap().len(), many.len());
    // The sandbox it replaced is kept in turn.
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec![CM_A]);
    lab.unmount();
    clean_slate();
}

/// Stands in for the browser's EventSource: each one opened is kept in `window.__rvlabLive`.
fn fake_event_source(on: bool) {
    let code = if on {
        "window.__rvlabRealES = window.EventSource; window.__rvlabLive = [];\
         window.EventSource = function (url) { this.url = url; this.onmessage = null; this.close = function () {}; window.__rvlabLive.push(this); };"
    } else {
        "window.EventSource = window.__rvlabRealES; delete window.__rvlabLive;"
    };
    js_sys::Function::new_no_args(code).call0(&wasm_bindgen::JsValue::NULL).unwrap();
}

/// Delivers one server-sent event to the last EventSource opened.
async fn live_event(data: &serde_json::Value) {
    let f = js_sys::Function::new_with_args(
        "d",
        "const s = window.__rvlabLive[window.__rvlabLive.length - 1]; s.onmessage({ data: d });",
    );
    f.call1(&wasm_bindgen::JsValue::NULL, &data.to_string().into()).unwrap();
    flush().await;
}

#[wasm_bindgen_test]
async fn live_lines_append_at_the_end_whatever_the_scrubber_or_their_size() {
    clean_slate();
    let doc = document();
    let meta = doc.create_element("meta").unwrap();
    meta.set_attribute("name", "rvlab-live").unwrap();
    meta.set_attribute("content", "rvlab/v1/live").unwrap();
    doc.head().unwrap().append_child(&meta).unwrap();
    fake_event_source(true);
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    live_event(&json!({"backlog": [CM_A, CM_B, "advance 1s"]})).await;
    assert_eq!(lab.log().len(), 3);
    lab.click("#scrub-back").await;
    lab.click("#scrub-back").await;
    live_event(&json!({"text": "advance 2s"})).await;
    live_event(&json!({"text": "advance 3s"})).await;
    let big = format!("# {}", "y".repeat(70_000));
    live_event(&json!({"text": big})).await;
    meta.remove();
    fake_event_source(false);
    assert!(lab.q("#fork").is_none(), "a server line is not a question");
    assert_eq!(lab.text("#scrub-pos"), "step 6 of 6");
    let log = lab.log();
    assert_eq!(log.len(), 6, "{:?}", &log[..log.len().min(5)]);
    assert_eq!(log[3..5], ["advance 2s", "advance 3s"]);
    assert!(!notices_say(&lab, "64 KB"));
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn a_seeded_app_does_not_resume_the_saved_lesson() {
    clean_slate();
    storage()
        .set_item(ACTIVE_KEY, &json!({"file": FILES[0], "step": 1, "starts": [0, 2]}).to_string())
        .unwrap();
    let cfg = Config::parse("?lang=en", "")
        .with_session(rvlab::ui::state::new_session(), Vec::new())
        .with_loader(inline_loader());
    let lab = Lab::with_config(cfg).await;
    settle().await;
    assert!(lab.q("#lesson-panel").is_none(), "{:?}", lab.q("#lesson-panel").and_then(|p| p.text_content()));
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn an_embeds_start_over_checks_its_script_as_loading_it_does() {
    let script = format!("advance 1s\n# {}\n", "y".repeat(70_000));
    let q = format!("?embed=1&mode=interactive&lang=en&script={}", rvlab::ui::url::percent_encode(&script));
    let lab = Lab::with_config(Config::parse(&q, "")).await;
    assert!(lab.log().is_empty());
    assert!(notices_say(&lab, "at most 64 KB"));
    lab.console("advance 2s").await;
    assert_eq!(lab.log(), vec!["advance 2s"]);
    lab.click("#reset").await;
    assert!(lab.log().is_empty(), "{}", lab.log().len());
    assert!(notices_say(&lab, "at most 64 KB"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn an_advance_beyond_the_engines_limit_is_that_lines_error_not_a_lost_log() {
    clean_slate();
    let log = [CM_A, "advance 1000h", "advance 1s"];
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&log))).await;
    assert_eq!(lab.log(), log);
    assert!(notices_say(&lab, "Opened a shared sandbox (3 lines)"));
    lab.click("#log li[data-line='2'] button").await;
    assert!(lab.text("#response").contains("advance is at most 168h"), "{}", lab.text("#response"));
    lab.unmount();
    let script = rvlab::ui::url::percent_encode(&log.join("\n"));
    let embed = Lab::with_config(Config::parse(&format!("?embed=1&lang=en&script={script}"), "")).await;
    assert_eq!(embed.log(), log);
    embed.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
    clean_slate();
}

#[wasm_bindgen_test]
async fn an_interactive_embed_shows_watch_cards_only_once_a_watch_is_open() {
    let q = |script: &str| {
        format!("?embed=1&mode=interactive&lang=en&script={}", rvlab::ui::url::percent_encode(script))
    };
    let lab = Lab::with_config(Config::parse(&q(CM_A), "")).await;
    assert!(lab.q(".watches").is_none());
    lab.console("GET /api/v1/namespaces/default/configmaps?watch=true").await;
    assert!(lab.q(".watches").is_some());
    lab.unmount();
    let ro = Lab::with_config(Config::parse(
        &format!(
            "?embed=1&lang=en&script={}",
            rvlab::ui::url::percent_encode("GET /api/v1/namespaces/default/configmaps?watch=true")
        ),
        "",
    ))
    .await;
    assert!(ro.q(".watches").is_none(), "a read-only embed's response shows the frames");
    ro.unmount();
}

/// Fills localStorage to its quota; returns how to empty it again.
fn fill_storage() -> impl FnOnce() {
    let chunk = "x".repeat(512 * 1024);
    let mut n = 0;
    while storage().set_item(&format!("rvlab.test.filler.{n}"), &chunk).is_ok() {
        n += 1;
        assert!(n < 200, "localStorage never filled up");
    }
    let mut m = 0;
    while storage().set_item(&format!("rvlab.test.small.{m}"), &"y".repeat(256)).is_ok() {
        m += 1;
    }
    move || {
        for i in 0..n {
            storage().remove_item(&format!("rvlab.test.filler.{i}")).unwrap();
        }
        for i in 0..m {
            storage().remove_item(&format!("rvlab.test.small.{i}")).unwrap();
        }
    }
}

#[wasm_bindgen_test]
async fn a_share_link_that_cannot_be_saved_says_so() {
    clean_slate();
    let big = format!("# {}", "z".repeat(8192));
    let empty = fill_storage();
    let lab = Lab::with_config(Config::parse("?lang=en", &share_fragment(&[&big, "advance 1s"]))).await;
    let notice = lab.q("#notice").and_then(|n| n.text_content()).unwrap_or_default();
    empty();
    assert_eq!(lab.log().len(), 2);
    assert!(notice.contains("not being saved"), "{notice}");
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn an_unreadable_saved_sandbox_is_kept_aside_not_overwritten() {
    clean_slate();
    let side = format!("{STORAGE_KEY}.unreadable");
    storage().remove_item(&side).unwrap();
    storage().set_item(STORAGE_KEY, "{not json").unwrap();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    assert!(notices_say(&lab, "could not be read"));
    assert!(notices_say(&lab, &side), "{:?}", lab.q("#notice").and_then(|n| n.text_content()));
    lab.console("advance 1s").await;
    assert_eq!(lab.saved().await["log"], json!(["advance 1s"]));
    assert_eq!(storage().get_item(&side).unwrap().as_deref(), Some("{not json"));
    lab.unmount();
    storage().remove_item(&side).unwrap();
    clean_slate();
}

/// The `height` of every `rvlab:height` message posted while `f` runs (and shortly after).
async fn heights_posted<F: std::future::Future<Output = ()>>(f: F) -> Vec<f64> {
    let got: Rc<std::cell::RefCell<Vec<f64>>> = Rc::default();
    let got2 = got.clone();
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MessageEvent)>::new(
        move |e: web_sys::MessageEvent| {
            let d = e.data();
            if js_sys::Reflect::get(&d, &"type".into()).ok().and_then(|v| v.as_string()).as_deref()
                == Some("rvlab:height")
            {
                let h = js_sys::Reflect::get(&d, &"height".into()).ok().and_then(|v| v.as_f64());
                got2.borrow_mut().push(h.unwrap_or(-1.0));
            }
        },
    );
    let win = web_sys::window().unwrap();
    win.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();
    f.await;
    for _ in 0..10 {
        settle().await;
    }
    win.remove_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();
    got.take()
}

#[wasm_bindgen_test]
async fn an_interactive_embed_keeps_its_height_from_the_readers_first_touch() {
    let q = format!("?embed=1&mode=interactive&lang=en&script={}", rvlab::ui::url::percent_encode(CM_A));
    let lab = Lab::sized_as(800, &q).await;
    let app = lab.el(".app");
    let before = settled_height(&app).await;
    // Its own height messages (posted to itself: this page is not a frame) lock nothing.
    assert!(!app.has_attribute("data-locked"));
    assert!(lab.el(".timeline-panel").get_attribute("style").is_none());
    // The reader's first touch: the picture's area keeps the height it has then ...
    let panel = lab.el(".timeline-panel");
    let panel_h = panel.get_bounding_client_rect().height();
    fire(&app, "pointerdown");
    assert!(app.has_attribute("data-locked"));
    assert_eq!(panel.get_bounding_client_rect().height(), panel_h);
    // ... and the lines the reader runs draw inside it: new keys' lanes, a watch, its frames.
    for name in ["b", "c", "d", "e", "f"] {
        lab.console(&format!(
            r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#
        ))
        .await;
    }
    lab.console("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2").await;
    lab.console("events w1").await;
    assert_eq!(lab.log().len(), 8);
    let pictures = lab.el(".timeline-panel");
    assert!(pictures.scroll_height() as f64 > panel_h + 1.0, "the picture grew: it scrolls inside its area");
    assert_eq!(pictures.get_bounding_client_rect().height(), panel_h);
    assert_eq!(settled_height(&app).await, before, "the frame's height did not change");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn an_embed_keeps_its_height_when_a_panel_shows_more_and_posts_it_when_its_content_reflows() {
    let mut script: Vec<String> = (0..rvlab::ui::response::ROWS_SHOWN + 50)
        .map(|i| {
            format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"cm-{i:04}"}}}}"#)
        })
        .collect();
    script.push("GET /api/v1/namespaces/default/configmaps".into());
    let q = format!("?embed=1&lang=en&script={}", rvlab::ui::url::percent_encode(&script.join("\n")));
    let lab = Lab::sized_as(800, &q).await;
    let before = settled_height(&lab.el(".app")).await;
    // "Show more" adds rows to the response, which scrolls inside its reserved area: the host
    // page's frame keeps its height, and the same height is not posted again.
    let col = lab.el(".embed-panes .col-view");
    let rows_before = col.scroll_height();
    let posted = heights_posted(lab.click("#items-more")).await;
    assert!(col.scroll_height() > rows_before, "{rows_before} -> {}", col.scroll_height());
    assert_eq!(settled_height(&lab.el(".app")).await, before);
    assert!(posted.is_empty(), "nothing new to post: {posted:?}");
    // A narrower frame lays the content out again without a new state: its height is posted.
    let root = lab.el(".app").parent_element().unwrap();
    let posted = heights_posted(async {
        root.set_attribute("style", "width:420px").unwrap();
    })
    .await;
    let after = settled_height(&lab.el(".app")).await;
    assert_ne!(after, before, "the content reflowed");
    // What the frame needs: the content's height, a fractional one rounded up.
    let needed = f64::from(after).max(lab.el(".app").get_bounding_client_rect().height().ceil());
    assert_eq!(posted.last().copied(), Some(needed), "{before} -> {after}: posted {posted:?}");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn another_tab_saving_the_sandbox_stops_this_one_overwriting_it() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 1s").await;
    assert_eq!(lab.saved().await["log"], json!(["advance 1s"]));
    // The other tab writes its sandbox; the browser tells this one.
    let other = r#"{"log":["advance 9m"],"redo":[]}"#;
    other_tab_saves(other);
    flush().await;
    assert!(
        notices_say(&lab, "Another tab saved its sandbox"),
        "{:?}",
        lab.q("#notice").and_then(|n| n.text_content())
    );
    lab.console("advance 2s").await;
    idle_saved().await;
    rvlab::ui::state::flush_save();
    assert_eq!(storage().get_item(STORAGE_KEY).unwrap().as_deref(), Some(other));
    lab.unmount();
    assert_eq!(storage().get_item(STORAGE_KEY).unwrap().as_deref(), Some(other));
    clean_slate();
}

/// Tells this tab, as the browser would, that another tab saved `text` as its sandbox.
fn other_tab_saves(text: &str) {
    storage().set_item(STORAGE_KEY, text).unwrap();
    js_sys::Function::new_with_args(
        "k, v",
        "window.dispatchEvent(new StorageEvent('storage', { key: k, newValue: v, storageArea: localStorage }));",
    )
    .call2(&wasm_bindgen::JsValue::NULL, &STORAGE_KEY.into(), &text.into())
    .unwrap();
}

#[wasm_bindgen_test]
async fn a_tab_that_stopped_saving_keeps_its_own_sandbox_when_an_example_replaces_it() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 1s").await;
    other_tab_saves(r#"{"log":["advance 9m"],"redo":[]}"#);
    flush().await;
    assert!(notices_say(&lab, "Another tab saved its sandbox"));
    lab.console("advance 2s").await;
    let name = rvlab::ui::examples::menu(Lang::En)[0].0.clone();
    lab.select("#lesson-pick", &name).await;
    assert_ne!(lab.log(), vec!["advance 1s", "advance 2s"]);
    // What comes back is this tab's sandbox (what the learner saw), not the other tab's save.
    lab.click("#restore-backup").await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.unmount();
    clean_slate();
}

#[wasm_bindgen_test]
async fn an_unmounted_app_leaves_no_latest_sandbox_behind() {
    clean_slate();
    let lab = Lab::with_config(Config::parse("?lang=en", "")).await;
    lab.console("advance 1s").await;
    assert!(rvlab::ui::state::latest().is_some());
    lab.unmount();
    flush().await;
    assert!(rvlab::ui::state::latest().is_none());
    clean_slate();
}

// ==== keyboard and phone flow (issue #33): the skip link, the response after Send, the phone's
// order, the empty console's last words. Tab presses themselves (which synthetic events cannot
// make) are checked in headless Chromium by tests/page/flow.mjs.

/// The boxes' tops of the panels, in the frame's page, named as the phone order names them.
fn panel_tops(s: &Sized) -> Vec<(&'static str, f64)> {
    let sel = [
        ("console", "section.console"),
        ("response", "section.response"),
        ("picture", "section.timeline-panel"),
        ("scrubber", "section.scrubber"),
        ("watches", "section.watches"),
        ("etcd", "section.etcd"),
        ("builder", "section.request"),
        ("sim", "section.sim"),
    ];
    let mut tops: Vec<(&'static str, f64)> =
        sel.iter().filter(|(_, q)| s.lab.q(q).is_some()).map(|(k, q)| (*k, s.rect(q).top())).collect();
    tops.sort_by(|a, b| a.1.total_cmp(&b.1));
    tops
}

#[wasm_bindgen_test]
async fn at_390_px_the_picture_comes_right_after_the_console_and_the_response() {
    for lang in ["en", "zh"] {
        clean_slate();
        let s = Sized::open(390, 844, Config::parse(&format!("?lang={lang}"), "")).await;
        s.console("GET /api/v1/namespaces/default/configmaps?limit=1").await;
        settle().await;
        let tops = panel_tops(&s);
        let order: Vec<&str> = tops.iter().map(|t| t.0).collect();
        assert_eq!(
            order,
            ["console", "response", "picture", "scrubber", "watches", "etcd", "builder", "sim"],
            "{lang}: {tops:?}"
        );
        // One column, no overlaps: each panel starts below the one before it ends.
        for w in order.windows(2) {
            let above = s.lab.el(&format!("section.{}", class_of(w[0]))).get_bounding_client_rect();
            let below = s.lab.el(&format!("section.{}", class_of(w[1]))).get_bounding_client_rect();
            assert!(below.top() >= above.bottom() - 0.5, "{lang}: {} overlaps {}", w[1], w[0]);
            assert!(below.right() <= s.width() + 0.5, "{lang}: {} wider than the window", w[1]);
        }
        s.close();
    }
    // At 1280 px the panes keep their three columns: the picture above them.
    clean_slate();
    let s = Sized::open(1280, 800, Config::parse("?lang=en", "")).await;
    s.console("GET /api/v1/namespaces/default/configmaps?limit=1").await;
    settle().await;
    let (pic, console, builder) =
        (s.rect("section.timeline-panel"), s.rect("section.console"), s.rect("section.request"));
    assert!(pic.bottom() <= console.top() && (console.top() - builder.top()).abs() < 1.0);
    s.close();
    clean_slate();
}

/// The section class of a name [`panel_tops`] gives.
fn class_of(name: &str) -> &str {
    match name {
        "picture" => "timeline-panel",
        "builder" => "request",
        n => n,
    }
}

#[wasm_bindgen_test]
async fn after_send_in_a_lesson_the_response_is_in_view() {
    for (w, h) in [(1280, 800), (390, 844)] {
        clean_slate();
        let cfg = Config::parse("?lesson=paging&lang=en", "").with_loader(inline_loader());
        let s = Sized::open(w, h, cfg).await;
        s.lab.wait_for("#lesson-panel .lesson-goal").await;
        // The learner scrolls down to the builder and presses Send.
        s.lab.el("#send").scroll_into_view();
        assert!(s.in_view("#send"), "{w}px: Send in view");
        assert!(!s.in_view("section.response"), "{w}px: the response is out of view before Send");
        let before = s.lab.log().len();
        s.click("#send").await;
        settle().await;
        assert_eq!(s.lab.log().len(), before + 1, "{w}px: Send ran the line");
        let r = s.rect("section.response");
        assert!(
            r.top() >= -1.0 && (r.bottom() <= s.height() + 0.5 || r.top() <= 1.0),
            "{w}px: the response at {}..{} in a {}px window",
            r.top(),
            r.bottom(),
            s.height()
        );
        s.close();
    }
    clean_slate();
}

#[wasm_bindgen_test]
async fn the_skip_link_is_the_first_control_and_takes_the_keyboard_to_the_console() {
    for (lang, text) in [("en", "Skip to console"), ("zh", "跳到控制台")] {
        clean_slate();
        let s = Sized::open(1280, 800, Config::parse(&format!("?lang={lang}"), "")).await;
        let first = s.lab.el(".app > *:first-child");
        assert_eq!(first.id(), "skip-console", "{lang}: the app's first element");
        assert_eq!(first.text_content().unwrap_or_default(), text);
        assert!(s.rect("#skip-console").bottom() <= 0.0, "{lang}: out of sight until focused");
        first.unchecked_ref::<HtmlElement>().focus().unwrap();
        assert!(s.in_view("#skip-console"), "{lang}: in sight when focused");
        s.click("#skip-console").await;
        let fdoc = s.view().document().unwrap();
        let active = fdoc.active_element().map(|a| a.id()).unwrap_or_default();
        assert_eq!(active, "console-input", "{lang}");
        assert_eq!(s.view().location().hash().unwrap(), "", "{lang}: the fragment is the share link's");
        s.close();
    }
    // An embed has none (its console is at its top).
    clean_slate();
    let s = Sized::open(800, 600, Config::parse("?lang=en&embed=1&mode=interactive", "")).await;
    assert!(s.lab.q("#skip-console").is_none());
    s.close();
    clean_slate();
}

#[wasm_bindgen_test]
async fn the_empty_console_never_ends_on_try_one() {
    // A first visit: the welcome panel has the lines; the console's "Try one:" goes with its own.
    for (lang, try_one) in [("en", "Try one:"), ("zh", "试试这些：")] {
        clean_slate();
        let s = Sized::open(1280, 800, Config::parse(&format!("?lang={lang}"), "")).await;
        assert!(s.lab.q("#welcome").is_some());
        let shown = s.lab.el("#log-empty").unchecked_into::<HtmlElement>().inner_text();
        let shown = shown.trim();
        assert!(!shown.is_empty() && !shown.ends_with(':') && !shown.ends_with('：'), "{lang}: {shown:?}");
        s.close();
        // An embed has no welcome panel: "Try one:" is followed by its lines, below it, and they run.
        clean_slate();
        let s =
            Sized::open(800, 600, Config::parse(&format!("?lang={lang}&embed=1&mode=interactive"), "")).await;
        assert_eq!(s.lab.text("#log-empty .log-try p"), try_one);
        let p = s.rect("#log-empty .log-try p");
        let first = s.rect("#log-empty .log-try .examples li:first-child button");
        assert!(first.height() > 0.0 && first.top() >= p.bottom() - 0.5, "{lang}: the lines are below it");
        let line = s.lab.text("#log-empty .log-try .examples li:first-child button");
        s.click("#log-empty .log-try .examples li:first-child button").await;
        assert_eq!(s.lab.log(), vec![line]);
        s.close();
    }
    clean_slate();
}
