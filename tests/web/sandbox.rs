//! The sandbox is never lost.

use super::*;

/// A share link for `log` with the scrubber at its end, as a URL fragment.
pub(crate) fn share_fragment(log: &[&str]) -> String {
    use rvlab::ui::share;
    let log: Vec<String> = log.iter().map(|l| l.to_string()).collect();
    let at = log.len();
    format!("#{}", share::encode(&share::Shared { log, at }))
}

/// Whether any notice on the page says `text`.
pub(crate) fn notices_say(lab: &Lab, text: &str) -> bool {
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
pub(crate) fn fake_event_source(on: bool) {
    let code = if on {
        "window.__rvlabRealES = window.EventSource; window.__rvlabLive = [];\
         window.EventSource = function (url) { this.url = url; this.onmessage = null; this.close = function () {}; window.__rvlabLive.push(this); };"
    } else {
        "window.EventSource = window.__rvlabRealES; delete window.__rvlabLive;"
    };
    js_sys::Function::new_no_args(code).call0(&wasm_bindgen::JsValue::NULL).unwrap();
}

/// Delivers one server-sent event to the last EventSource opened.
pub(crate) async fn live_event(data: &serde_json::Value) {
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
pub(crate) fn fill_storage() -> impl FnOnce() {
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
pub(crate) async fn heights_posted<F: std::future::Future<Output = ()>>(f: F) -> Vec<f64> {
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
    rvlab::ui::save::flush();
    assert_eq!(storage().get_item(STORAGE_KEY).unwrap().as_deref(), Some(other));
    lab.unmount();
    assert_eq!(storage().get_item(STORAGE_KEY).unwrap().as_deref(), Some(other));
    clean_slate();
}

/// Tells this tab, as the browser would, that another tab saved `text` as its sandbox.
pub(crate) fn other_tab_saves(text: &str) {
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
    assert!(rvlab::ui::save::latest().is_some());
    lab.unmount();
    flush().await;
    assert!(rvlab::ui::save::latest().is_none());
    clean_slate();
}
