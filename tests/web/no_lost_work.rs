//! No lost work: the panic overlay, hostile text, oversized input, failing storage.

use super::*;

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

pub(crate) const HOSTILE: &str =
    "<img src=x onerror=window.__rvpwned=1>\u{202E}evil\u{200B}\u{200D}👩‍👩‍👧e\u{301}\u{301}";

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
    let css = include_str!("../../www/style.css");
    assert!(css.contains(".mono, code, pre, .cmd, .sum, .lane-label, .message, .reason, td { unicode-bidi: isolate; overflow-wrap: anywhere; }"));
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

pub(crate) fn paste(el: &Element, text: &str) {
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
