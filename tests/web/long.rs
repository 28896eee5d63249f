//! Long histories: scrubbing, undo, saving when idle, a long log.

use super::*;

pub(crate) fn seed_storage(lines: &[String]) {
    storage().set_item(STORAGE_KEY, &json!({"log": lines, "redo": []}).to_string()).unwrap();
}

/// Moves the scrubber with its slider.
pub(crate) async fn scrub_to(lab: &Lab, n: usize) {
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

pub(crate) fn window_event(target: &web_sys::EventTarget, kind: &str) {
    let ev = web_sys::Event::new(kind).unwrap();
    target.dispatch_event(&ev).unwrap();
}

pub(crate) fn saved_log() -> serde_json::Value {
    let s = storage().get_item(STORAGE_KEY).unwrap().expect("saved sandbox");
    serde_json::from_str::<serde_json::Value>(&s).expect("JSON")["log"].clone()
}

#[wasm_bindgen_test]
async fn changes_are_saved_when_idle_and_at_once_when_the_page_is_left_or_hidden() {
    use rvlab::ui::save::pending as save_pending;
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
