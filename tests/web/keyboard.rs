//! Keyboard and phone flow: the skip link, the response after Send, the phone's order, the empty
//! console's last words. Tab presses themselves (which synthetic events cannot make) are checked
//! in headless Chromium by tests/page/flow.mjs.

use super::*;

// ==== keyboard and phone flow (issue #33): the skip link, the response after Send, the phone's
// order, the empty console's last words. Tab presses themselves (which synthetic events cannot
// make) are checked in headless Chromium by tests/page/flow.mjs.

/// The boxes' tops of the panels, in the frame's page, named as the phone order names them.
pub(crate) fn panel_tops(s: &Sized) -> Vec<(&'static str, f64)> {
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
pub(crate) fn class_of(name: &str) -> &str {
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

/// The page's Tab stops in document order (what a plain Tab walks, without the browser's
/// chrome): ids, else tag names.
fn tab_stops(s: &Sized) -> Vec<String> {
    s.lab
        .all("a[href], button, input, select, textarea, [tabindex]")
        .into_iter()
        .map(|e| e.unchecked_into::<HtmlElement>())
        .filter(|e| {
            e.tab_index() >= 0
                && !e.has_attribute("disabled")
                && {
                    let r = e.get_bounding_client_rect();
                    r.width() > 0.0 || r.height() > 0.0
                }
                && e.closest("details:not([open])").ok().flatten().is_none()
        })
        .map(|e| if e.id().is_empty() { e.tag_name().to_lowercase() } else { format!("#{}", e.id()) })
        .collect()
}

#[wasm_bindgen_test]
async fn the_console_is_a_few_tab_stops_in_and_the_header_one_toolbar() {
    for (w, h) in [(1280, 800), (390, 844)] {
        for lesson in [false, true] {
            clean_slate();
            let q = if lesson { "?lesson=paging&lang=en" } else { "?lang=en" };
            let s = Sized::open(w, h, Config::parse(q, "").with_loader(inline_loader())).await;
            if lesson {
                s.lab.wait_for("#lesson-panel .lesson-goal").await;
            }
            let stops = tab_stops(&s);
            let at = stops.iter().position(|x| x == "#console-input");
            // The skip link, the toolbar, (when the log has lines, its one row stop,) the input.
            let before = if lesson { 3 } else { 2 };
            assert_eq!(at, Some(before), "{w}px lesson {lesson}: {:?}", &stops[..stops.len().min(6)]);
            assert_eq!(&stops[..2], ["#skip-console", "#lessons"], "{w}px lesson {lesson}");
            // The layout is kept: at 1280 px the builder's column is still left of the console.
            if w == 1280 && !lesson {
                assert!(s.rect("section.request").right() <= s.rect("section.console").left());
            }
            s.close();
        }
    }
    // One toolbar: one Tab stop; → and ← move between its enabled controls (wrapping), Home and
    // End to its ends, and the Tab stop follows.
    clean_slate();
    let s = Sized::open(1280, 800, Config::parse("?lang=zh", "")).await;
    let bar = s.lab.el("[role=toolbar]");
    assert_eq!(bar.get_attribute("aria-label").as_deref(), Some("沙盒"));
    let stops = |s: &Sized| -> Vec<String> {
        s.lab.all("[role=toolbar] [tabindex='0']").iter().map(|e| e.id()).collect::<Vec<_>>()
    };
    assert_eq!(stops(&s), ["lessons"]);
    let active =
        |s: &Sized| s.view().document().unwrap().active_element().map(|a| a.id()).unwrap_or_default();
    s.lab.el("#lessons").unchecked_ref::<HtmlElement>().focus().unwrap();
    // A first visit: undo, redo, reset and export are disabled and skipped.
    for want in ["import", "share", "lesson-pick", "lang", "theme", "lessons"] {
        super::axis::key_on(&s.view().document().unwrap().active_element().unwrap(), "ArrowRight");
        settle().await;
        assert_eq!(active(&s), want);
        assert_eq!(stops(&s), [want]);
    }
    super::axis::key_on(&s.lab.el("#lessons"), "ArrowLeft");
    settle().await;
    assert_eq!(active(&s), "theme");
    super::axis::key_on(&s.lab.el("#theme"), "Home");
    settle().await;
    assert_eq!(active(&s), "lessons");
    super::axis::key_on(&s.lab.el("#lessons"), "End");
    settle().await;
    assert_eq!(active(&s), "theme");
    // After a line, undo is enabled and on the way.
    s.console("GET /api/v1/namespaces/default/pods").await;
    super::axis::key_on(&s.lab.el("#theme"), "Home");
    super::axis::key_on(&s.lab.el("#lessons"), "ArrowRight");
    settle().await;
    assert_eq!(active(&s), "undo");
    s.close();
    clean_slate();
}
