//! The folded axis and the staged step, as pure functions, and the folds in the page.

use super::*;

/// The picture's model after running `lines` in a fresh session.
pub(crate) fn model_of(lines: &[String]) -> timeline::Model {
    model_with(lines, true)
}

/// [`model_of`], with the folded keys' lanes only if `every_lane`.
pub(crate) fn model_with(lines: &[String], every_lane: bool) -> timeline::Model {
    let mut s = rvlab::script::Session::new();
    let entries: Vec<rvlab::ui::state::Entry> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| rvlab::ui::state::Entry::new(l.as_str(), s.run_line_outcome(i + 1, l)))
        .collect();
    timeline::build(&s, &entries, None, every_lane)
}

pub(crate) fn create_line(name: &str) -> String {
    format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#)
}

pub(crate) const LIST_ALL: &str = "GET /api/v1/namespaces/default/configmaps?limit=500";

/// A list at 2, writes 3–12, a list at 12, writes 13–22, a list at 22.
pub(crate) fn two_quiet_stretches() -> timeline::Model {
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
pub(crate) fn creates(prefix: &str, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{prefix}{i}"}}}}"#)
        })
        .collect()
}

impl Lab {
    /// The revision axis both pictures are drawn on, read from the timeline's attributes
    /// (window, layout, folded stretches).
    pub(crate) fn axis(&self) -> timeline::Axis {
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

pub(crate) fn key_on(el: &Element, k: &str) {
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
    // One Tab stop for every fold (the marks are another, their own).
    let stops: Vec<Element> = lab.all(".pictures [tabindex]:not([data-nav])");
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
        (include_str!("../../scripts/shots/cache-window.rv"), "cache-window", Some("410")),
        (include_str!("../../scripts/shots/etcd-compacted.rv"), "etcd-compacted", Some("410")),
        (include_str!("../../scripts/shots/slow-consumer.rv"), "slow-consumer", None),
        (include_str!("../../scripts/shots/timeout.rv"), "timeout", None),
        (include_str!("../../scripts/shots/cancelled.rv"), "cancelled", None),
        (include_str!("../../scripts/shots/restart.rv"), "restart", None),
        (include_str!("../../scripts/shots/cache-not-fresh.rv"), "cache-not-fresh", Some("504")),
        (include_str!("../../scripts/shots/prev-kv-missing.rv"), "prev-kv-missing", Some("500")),
        (include_str!("../../scripts/shots/cache-off.rv"), "cache-off", None),
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
    let script = include_str!("../../scripts/shots/paging.rv");
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
