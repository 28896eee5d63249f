//! First use and flow: sizes (with the app's style sheet), keyboard, messages where the
//! learner acted, share links in a running tab.

use super::*;

/// The app mounted in an iframe of `width` × `height` CSS pixels that carries www/style.css, so
/// media queries and positions are those of a real viewport of that size. Elements of another
/// document fail `instanceof` checks, so this harness only uses unchecked casts.
pub(crate) struct Sized {
    pub(crate) frame: Element,
    pub(crate) lab: Lab,
}

impl Sized {
    pub(crate) async fn open(width: u32, height: u32, cfg: Config) -> Sized {
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
        style.set_text_content(Some(include_str!("../../www/style.css")));
        fdoc.head().unwrap().append_child(&style).unwrap();
        let root = fdoc.create_element("div").unwrap();
        fdoc.body().unwrap().append_child(&root).unwrap();
        let props = rvlab::ui::AppProps { config: Some(Rc::new(cfg)) };
        let handle = yew::Renderer::<rvlab::ui::App>::with_root_and_props(root.clone(), props).render();
        flush().await;
        Sized { frame, lab: Lab { root, handle: Some(handle) } }
    }

    pub(crate) fn view(&self) -> web_sys::Window {
        js_sys::Reflect::get(&self.frame, &"contentWindow".into()).unwrap().unchecked_into()
    }

    pub(crate) fn height(&self) -> f64 {
        self.view().inner_height().unwrap().as_f64().unwrap()
    }

    pub(crate) fn width(&self) -> f64 {
        self.view().inner_width().unwrap().as_f64().unwrap()
    }

    /// `sel`'s box in the frame's viewport.
    pub(crate) fn rect(&self, sel: &str) -> web_sys::DomRect {
        self.lab.el(sel).get_bounding_client_rect()
    }

    /// Whether `sel` lies wholly inside the viewport (nothing to scroll to see it).
    pub(crate) fn in_view(&self, sel: &str) -> bool {
        let r = self.rect(sel);
        r.height() > 0.0
            && r.top() >= 0.0
            && r.bottom() <= self.height() + 0.5
            && r.right() <= self.width() + 0.5
    }

    pub(crate) async fn click(&self, sel: &str) {
        self.lab.el(sel).unchecked_into::<HtmlElement>().click();
        flush().await;
    }

    pub(crate) async fn input(&self, sel: &str, value: &str) {
        let el = self.lab.el(sel);
        el.unchecked_ref::<HtmlInputElement>().set_value(value);
        fire(&el, "input");
        flush().await;
    }

    pub(crate) async fn console(&self, line: &str) {
        self.input("#console-input", line).await;
        self.click("#console-run").await;
    }

    pub(crate) fn close(self) {
        self.lab.unmount();
        self.frame.remove();
    }
}

/// Clears what a test could leave for the next one.
pub(crate) fn clean_slate() {
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
pub(crate) fn ctrl_key(k: &str, target: &web_sys::EventTarget) {
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
    let index = include_str!("../../www/index.html");
    assert!(index.contains(r#"<link rel="icon" type="image/svg+xml" href="favicon.svg" />"#));
    assert!(include_str!("../../www/favicon.svg").starts_with("<svg"));
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
