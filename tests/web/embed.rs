//! `<rv-playground>` (www/rv-playground.js), Play and speed in the simulation controls.

use super::*;

/// `el.style.<prop>` (no CssStyleDeclaration binding needed).
pub(crate) fn style_of(el: &Element, prop: &str) -> String {
    let style = js_sys::Reflect::get(el, &"style".into()).unwrap();
    js_sys::Reflect::get(&style, &prop.into()).unwrap().as_string().unwrap_or_default()
}

/// Dispatches a `message` event on the window whose source is `frame`'s window, from the app's
/// origin (here the page's own), or, where such an event cannot be built, hands the same object
/// to the element's exported handler.
pub(crate) fn post_from(frame: &wasm_bindgen::JsValue, height: f64) -> String {
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
    js_sys::eval(include_str!("../../www/rv-playground.js")).expect("rv-playground.js evaluates");
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
pub(crate) async fn wait_log(lab: &Lab, ok: impl Fn(&[String]) -> bool) {
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
