//! Browser tests: the real app mounted in headless Chromium (wasm-bindgen-test), driven through
//! the DOM like a person would. Each test clears localStorage and mounts (and unmounts) its own
//! root, so no state leaks between tests. Tests marked "engine" need the real engine behind
//! `Session`; the rest only need the UI.
#![cfg(target_arch = "wasm32")]

use rvlab::ui::lines::{self, RequestSpec, Verb};
use rvlab::ui::state::STORAGE_KEY;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

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

/// One mounted app on its own root.
struct Lab {
    root: Element,
    handle: Option<yew::AppHandle<rvlab::ui::App>>,
}

impl Lab {
    /// Mounts a fresh app over a clean localStorage.
    async fn fresh() -> Lab {
        storage().remove_item(STORAGE_KEY).unwrap();
        Lab::mount().await
    }

    /// Mounts an app over whatever localStorage holds.
    async fn mount() -> Lab {
        let doc = document();
        let root = doc.create_element("div").expect("create root");
        doc.body().expect("body").append_child(&root).expect("append root");
        let handle = yew::Renderer::<rvlab::ui::App>::with_root(root.clone()).render();
        flush().await;
        Lab { root, handle: Some(handle) }
    }

    fn unmount(mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
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

    fn saved(&self) -> serde_json::Value {
        let s = storage().get_item(STORAGE_KEY).unwrap().expect("saved sandbox");
        serde_json::from_str(&s).expect("saved sandbox is JSON")
    }
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
    lab.console("advance 1s").await;
    lab.console("# a comment").await;
    lab.console("advance 2s").await;
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
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.set_data("text/plain", "advance 1s\n\n  advance 2s\r\n# done\n").unwrap();
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&dt));
    let ev = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).unwrap();
    lab.el("#console-input").dispatch_event(&ev).unwrap();
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s", "# done"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn clicking_a_log_entry_selects_it_in_the_viewer() {
    let lab = Lab::fresh().await;
    lab.console("advance 1s").await;
    lab.console("advance 2s").await;
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
    lab.console("advance 1s").await;
    lab.console("advance 2s").await;
    lab.click("#undo").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    assert_eq!(lab.saved()["redo"], json!(["advance 2s"]));
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.click("#reset").await;
    assert!(lab.log().is_empty());
    assert_eq!(lab.saved()["log"], json!([]));
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
    lab.console("advance 1s").await;
    lab.console("advance 2s").await;
    let key = |k: &str, target: &Element| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_ctrl_key(true);
        init.set_bubbles(true);
        init.set_cancelable(true);
        let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        target.dispatch_event(&ev).unwrap();
    };
    // In a text field Ctrl+Z belongs to the field.
    key("z", &lab.el("#console-input"));
    flush().await;
    assert_eq!(lab.log().len(), 2);
    key("z", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    key("y", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn log_is_saved_and_restored_on_reload() {
    let lab = Lab::fresh().await;
    lab.console("advance 1s").await;
    lab.console("advance 10s").await;
    assert_eq!(lab.saved()["log"], json!(["advance 1s", "advance 10s"]));
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
    assert!(lab.q("#notice").is_none());
    assert_eq!(lab.saved()["log"].as_array().unwrap().len(), 2);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn import_replaces_the_sandbox_with_the_file_lines() {
    let lab = Lab::fresh().await;
    lab.console("advance 1s").await;
    let parts = js_sys::Array::of1(&"# imported\nadvance 1m\nadvance 5m\n".into());
    let file = web_sys::File::new_with_str_sequence(&parts, "s.txt").unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: HtmlInputElement = lab.el("#import-file").dyn_into().unwrap();
    input.set_files(dt.files().as_ref());
    fire(&input, "change");
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
    assert_eq!(rvlab::ui::script_text(&["a".into(), "b".into()]), "a\nb\n");
}

// ---------------------------------------------------------------------------------------------
// Simulation controls and etcd view: each appends its script line

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
    let v = lines::decode_continue("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0").unwrap();
    assert_eq!(v, json!({"v": "meta.k8s.io/v1", "rv": 4, "start": "a\u{0}"}));
    assert_eq!(
        lines::describe_token("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0"),
        r#"rv 4, start "a\u0000""#
    );
    assert!(lines::decode_continue("not base64!").unwrap_err().starts_with("not base64url"));
    assert!(lines::decode_continue("bm90IGpzb24").unwrap_err().starts_with("not JSON"));
}

#[wasm_bindgen_test]
fn status_lines_and_errors() {
    let gone = json!({"line": 3, "code": 410, "body": {"kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "message": "too old", "reason": "Expired", "code": 410}});
    assert_eq!(lines::status_line(&gone).unwrap(), "410 Gone — Expired");
    assert!(lines::is_error(&gone));
    let ok =
        json!({"line": 1, "code": 200, "body": {"kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": []}});
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
    let paused = json!({"line": 3});
    let entries =
        vec![("GET /api/v1/pods?watch=true", Some(&opened)), ("events w1", Some(&ev)), ("pause w1", Some(&paused))];
    let ws = lines::watches(entries);
    assert_eq!(ws.len(), 1);
    assert_eq!(ws[0].id, "w1");
    assert_eq!(ws[0].request, "GET /api/v1/pods?watch=true");
    assert_eq!(
        ws[0].frames[0],
        lines::Frame { kind: "ADDED".into(), name: "a".into(), rv: "2".into(), detail: String::new() }
    );
    assert_eq!(ws[0].frames[1].detail, "410 Expired");
    assert!(ws[0].closed && ws[0].paused && !ws[0].cancelled);
}

#[wasm_bindgen_test]
fn request_lines_for_every_verb() {
    let mut s =
        RequestSpec { verb: Verb::Update, name: "a".into(), body: "{\n \"a\": 1\n}".into(), ..RequestSpec::default() };
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
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.set_data(
        "text/plain",
        "POST /api/v1/namespaces/default/configmaps {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\nGET /api/v1/namespaces/default/configmaps\n",
    )
    .unwrap();
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&dt));
    let ev = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).unwrap();
    lab.el("#console-input").dispatch_event(&ev).unwrap();
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
