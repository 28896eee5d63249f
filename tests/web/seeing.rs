//! Seeing it: i18n, the timeline, the scrubber.

use super::*;

impl Lab {
    /// Mounts an app opened with `cfg` (as if from that URL) over whatever localStorage holds.
    pub(crate) async fn with_config(cfg: Config) -> Lab {
        Lab::render_into(new_root(), Some(cfg)).await
    }

    /// A fresh sandbox (nothing saved) opened at the default URL: the "Why?" tests' setup.
    pub(crate) async fn empty() -> Lab {
        storage().remove_item(STORAGE_KEY).unwrap();
        Lab::with_config(Config::parse("", "")).await
    }

    pub(crate) fn attr(&self, sel: &str, name: &str) -> String {
        self.el(sel).get_attribute(name).unwrap_or_else(|| panic!("{sel} has no {name}"))
    }

    pub(crate) fn num(&self, sel: &str, name: &str) -> f64 {
        self.attr(sel, name).parse().unwrap_or_else(|_| panic!("{sel} {name} is not a number"))
    }

    /// The timeline's revision window, read from the SVG.
    pub(crate) fn window(&self) -> Window {
        Window {
            lo: self.attr("#timeline-svg", "data-lo").parse().unwrap(),
            hi: self.attr("#timeline-svg", "data-hi").parse().unwrap(),
        }
    }

    /// The panels that show the sandbox's state, as canonical text (elements with sorted
    /// attributes, so the order Yew happened to set them in does not matter).
    pub(crate) fn state_html(&self) -> String {
        ["#response", "#timeline-svg", "#tl-table", ".watches", "#etcd", "#log"]
            .iter()
            .map(|s| self.q(s).map(|e| canon(&e)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n----\n")
    }
}

pub(crate) fn canon(el: &Element) -> String {
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

pub(crate) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.11
}

pub(crate) const CM_A: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#;
pub(crate) const CM_B: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}"#;
pub(crate) const CM_C: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#;
pub(crate) const CM_D: &str = r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"}}"#;

/// Runs each line through the console.
pub(crate) async fn run_all(lab: &Lab, lines: &[&str]) {
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
pub(crate) fn ui_text(root: &Element) -> Vec<String> {
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
pub(crate) const TOUR: &[&str] = &[
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
    assert!(close(lab.num("#tl-compact-line", "data-x"), timeline::x_of(3.0, w, g)));
    // The list at its RV, its token pinned at the same revision, the watch at its last RV.
    let list = "g.mark.list[data-line='4']";
    assert_eq!(lab.attr(list, "data-rv"), "4");
    assert_eq!(lab.attr(list, "data-kind"), "list-rv");
    assert!(close(lab.num(list, "data-x"), timeline::x_of(4.5, w, g)));
    assert_eq!(lab.attr("g.mark.token[data-line='4']", "data-rv"), "4");
    let watch = "g.mark.watch[data-line='5']";
    assert_eq!(lab.attr(watch, "data-rv"), "5");
    assert!(close(lab.num(watch, "data-x"), timeline::x_of(5.5, w, g)));
    // The table equivalent says the same; its key rows are drawn once it is opened.
    assert!(lab.all("#tl-table tbody tr").is_empty());
    assert!(lab.text("#tl-table").contains("line 4: list at RV 4"), "{}", lab.text("#tl-table"));
    let step = lab.attr(".pictures", "data-step");
    lab.click("#tl-table summary").await;
    assert_eq!(lab.all("#tl-table tbody tr").len(), 3, "{}", lab.text("#tl-table"));
    // Opening it is no step of the sandbox: nothing replays.
    assert_eq!(lab.attr(".pictures", "data-step"), step);
    let table = lab.text("#tl-table");
    assert!(table.contains("/registry/configmaps/default/a") && table.contains("deleted at 5"), "{table}");
    assert!(table.contains("line 4: list at RV 4") && table.contains("w1: last delivered RV 5"), "{table}");
    lab.click("#tl-table summary").await;
    assert!(lab.all("#tl-table tbody tr").is_empty());
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
