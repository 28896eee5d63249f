//! The timeline picture: every read drawn or behind a visible "+N" that opens the rest, the 410
//! mark where it was decided, the Why strip saying what the engine's `why` says, marks reachable
//! by keyboard, positions checked at 1280 and 390 px.

use super::*;

// =============================================================================================
// Issue 33 — the timeline picture: every read drawn or behind a visible "+N" that opens the
// rest, the 410 mark where it was decided, the Why strip saying what the engine's `why` says,
// marks reachable by keyboard, positions checked at 1280 and 390 px. (A block of its own.)

/// Lists with rv unset, "0" and `limit=1`, the first page's token followed, `compact 5`, the
/// same token followed again → 410 Expired (line 10): `scripts/shots/crowded-reads.rv`.
pub(crate) fn issue_33_lines() -> Vec<String> {
    include_str!("../../scripts/shots/crowded-reads.rv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The drawn shape of a read mark (not its invisible pointer target).
pub(crate) fn read_shape(mark: &Element) -> Box4 {
    let parts: Vec<Box4> = ["path", "rect.chip", "rect.more-pill", "text"]
        .iter()
        .filter_map(|s| mark.query_selector(s).ok().flatten())
        .map(|e| rect_of(&e))
        .collect();
    let mut b = Box4 { l: f64::INFINITY, t: f64::INFINITY, r: f64::NEG_INFINITY, b: f64::NEG_INFINITY };
    for p in &parts {
        b = Box4 { l: b.l.min(p.l), t: b.t.min(p.t), r: b.r.max(p.r), b: b.b.max(p.b) };
    }
    b
}

/// Every read mark of the row and every "+N": no two drawn shapes meet, each inside the plot.
pub(crate) fn assert_reads_apart(lab: &Lab, what: &str) {
    let marks = lab.all("#timeline-svg .reads g.mark");
    let (x0, x1) = (lab.num("#timeline-svg", "data-x0"), lab.num("#timeline-svg", "data-x1"));
    let left = rect_of(&lab.el("#timeline-svg")).l;
    let boxes: Vec<(String, Box4)> = marks
        .iter()
        .map(|m| {
            let name = format!(
                "{}@{} line {}",
                m.get_attribute("data-kind").unwrap_or_default(),
                m.get_attribute("data-rv").unwrap_or_default(),
                m.get_attribute("data-line").unwrap_or_default()
            );
            (name, read_shape(m))
        })
        .collect();
    for (n, b) in &boxes {
        assert!(b.l >= left + x0 - 1.0 && b.r <= left + x1 + 1.0, "{what}: {n} inside the plot");
    }
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            assert!(!overlaps(&boxes[i].1, &boxes[j].1), "{what}: {} meets {}", boxes[i].0, boxes[j].0);
        }
    }
}

#[wasm_bindgen_test]
async fn issue_33_every_read_and_the_410_are_drawn_at_1280_and_390() {
    // What the engine answers, from the engine itself: line 10's typed decision.
    let mut engine = rvlab::script::Session::with_explain(true);
    let lines = issue_33_lines();
    let outs: Vec<_> = lines.iter().enumerate().map(|(i, l)| engine.run_line(i + 1, l)).collect();
    let why = outs[9].as_ref().and_then(|o| o.get("why")).cloned().expect("line 10 explains itself");
    let field = |k: &str| why.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    assert_eq!(outs[9].as_ref().and_then(|o| o.get("code")).and_then(|c| c.as_u64()), Some(410));
    for width in [1280, 390] {
        let what = format!("issue 33 at {width}");
        let lab = Lab::sized(width).await;
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        run_all(&lab, &refs).await;
        settle().await;
        motionless(&lab).await;
        // Eight reads: four lists at 4, tokens p2 and p3 at 4, the 410 at 4, p3~ at the head.
        let drawn = lab.all("#timeline-svg .reads g.mark[data-line]").len();
        let behind: usize = lab
            .all("#timeline-svg .reads [data-kind='overflow']")
            .iter()
            .map(|o| o.get_attribute("data-count").unwrap_or_default().parse::<usize>().unwrap_or(0))
            .sum();
        assert_eq!(drawn + behind, 8, "{what}: every read drawn or counted in a +N");
        for o in lab.all("#timeline-svg .reads [data-kind='overflow']") {
            let n = o.get_attribute("data-count").unwrap_or_default();
            assert_eq!(
                o.query_selector(".more-text").unwrap().unwrap().text_content().unwrap(),
                format!("+{n}")
            );
        }
        let refused = lab.el("#timeline-svg [data-kind='request-error'][data-line='10']");
        assert_eq!(refused.get_attribute("data-rv").as_deref(), Some("4"), "{what}");
        assert_eq!(
            refused.query_selector(".refused-text").unwrap().unwrap().text_content().as_deref(),
            Some("410")
        );
        // The ✕ stands on revision 4's slot of the axis.
        let axis = lab.axis();
        let left = rect_of(&lab.el("#timeline-svg")).l;
        let cross = rect_of(&refused.query_selector(".end-x").unwrap().unwrap());
        let cx = (cross.l + cross.r) / 2.0 - left;
        assert!(cx >= axis.x(4.0) - 0.5 && cx <= axis.x(5.0) + 0.5, "{what}: ✕ at {cx} on slot 4");
        for (line, rv, text) in [("6", "4", "p2"), ("7", "4", "p3"), ("10", "5", "p3~")] {
            let chip = lab.el(&format!("#timeline-svg [data-kind='continue-token'][data-line='{line}']"));
            assert_eq!(chip.get_attribute("data-rv").as_deref(), Some(rv), "{what}: token of line {line}");
            assert_eq!(
                chip.query_selector(".chip-text").unwrap().unwrap().text_content().as_deref(),
                Some(text)
            );
        }
        assert_reads_apart(&lab, &what);
        // "compacted below 5" is there, in visible text, at both widths.
        let compacted: Vec<String> = lab
            .all("#timeline-svg [data-label-for='compaction']")
            .iter()
            .filter_map(|t| t.text_content())
            .collect();
        assert!(compacted.iter().any(|t| t == "compacted below 5"), "{what}: {compacted:?}");
        assert_legible(&lab, &what);
        // Selecting the 410 (a click on its mark): the Why strip names the rule, the outcome and
        // the path of line 10's typed decision, and the request path ends on etcd.
        fire(&refused, "click");
        flush().await;
        settle().await;
        let strip = lab.el("#sv-why");
        assert_eq!(strip.get_attribute("data-line").as_deref(), Some("10"), "{what}");
        assert_eq!(strip.get_attribute("data-rule").unwrap_or_default(), field("rule"), "{what}");
        assert_eq!(strip.get_attribute("data-outcome").unwrap_or_default(), field("outcome"), "{what}");
        assert_eq!(strip.get_attribute("data-path").unwrap_or_default(), field("path"), "{what}");
        assert_eq!(field("path"), "etcd");
        assert!(lab.text("#sv-why").contains(&field("outcome")), "{what}: {}", lab.text("#sv-why"));
        assert_eq!(lab.attr("#system-view [data-kind='request-path']", "data-path"), "etcd", "{what}");
        lab.unmount();
    }
}

#[wasm_bindgen_test]
async fn a_crowd_of_reads_is_behind_a_plus_n_that_opens_the_rest() {
    let lab = Lab::sized(390).await;
    lab.console(CM_A).await;
    let list = "GET /api/v1/namespaces/default/configmaps?resourceVersion=0";
    let n = 48;
    for _ in 0..n {
        lab.console(list).await;
    }
    settle().await;
    motionless(&lab).await;
    let more = lab.all("#timeline-svg .reads [data-kind='overflow']");
    assert_eq!(more.len(), 1, "one +N for the crowd at revision 2");
    let count: usize = more[0].get_attribute("data-count").unwrap().parse().unwrap();
    let drawn = lab.all("#timeline-svg .reads [data-kind='list-rv']").len();
    assert!(count > 0 && drawn + count == n, "{drawn} drawn + {count} behind +N");
    assert_eq!(
        more[0].query_selector(".more-text").unwrap().unwrap().text_content().unwrap(),
        format!("+{count}")
    );
    assert_eq!(more[0].get_attribute("role").as_deref(), Some("button"));
    let hit = rect_of(&more[0].query_selector(".hit").unwrap().unwrap());
    assert!(hit.r - hit.l >= 24.0 && hit.b - hit.t >= 24.0, "a 24 px target");
    assert_reads_apart(&lab, "crowded at 390");
    assert_legible(&lab, "crowded at 390");
    // Enter on the +N opens the row: every list drawn, nothing behind a +N, a "−" to close.
    key_on(&more[0], "Enter");
    flush().await;
    settle().await;
    motionless(&lab).await;
    assert_eq!(lab.all("#timeline-svg .reads [data-kind='list-rv']").len(), n);
    assert!(lab.q("#timeline-svg .reads [data-kind='overflow']").is_none());
    assert_reads_apart(&lab, "opened at 390");
    fire(&lab.el("#timeline-svg .reads [data-kind='overflow-close']"), "click");
    flush().await;
    settle().await;
    assert_eq!(lab.all("#timeline-svg .reads [data-kind='list-rv']").len(), drawn, "closed again");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn timeline_marks_are_one_tab_stop_with_arrows_and_enter() {
    let lab = Lab::sized(1280).await;
    let lines = issue_33_lines();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    run_all(&lab, &refs).await;
    settle().await;
    motionless(&lab).await;
    let stops: Vec<Element> = lab
        .all("#timeline-svg [data-nav]")
        .into_iter()
        .filter(|e| e.get_attribute("tabindex").as_deref() == Some("0"))
        .collect();
    assert_eq!(stops.len(), 1, "the marks are one Tab stop");
    let focused = || document().active_element();
    let first = stops[0].clone();
    js_sys::Reflect::get(&first, &"focus".into())
        .unwrap()
        .dyn_into::<js_sys::Function>()
        .unwrap()
        .call0(&first)
        .unwrap();
    assert!(focused().is_some_and(|f| f.is_same_node(Some(&first))));
    // → walks the marks left to right until the 410; each step moves the one Tab stop.
    let mut at = first.clone();
    let mut steps = 0;
    while at.get_attribute("data-kind").as_deref() != Some("request-error") {
        key_on(&at, "ArrowRight");
        flush().await;
        let next = focused().expect("a focused mark");
        assert!(next.has_attribute("data-nav"), "focus stays on the marks");
        let name = |e: &Element| {
            format!("{:?} line {:?}", e.get_attribute("data-kind"), e.get_attribute("data-line"))
        };
        assert!(!next.is_same_node(Some(&at)), "→ moves from {} (step {steps})", name(&at));
        assert_eq!(next.get_attribute("tabindex").as_deref(), Some("0"));
        assert_eq!(at.get_attribute("tabindex").as_deref(), Some("-1"));
        at = next;
        steps += 1;
        assert!(steps < 20, "the 410 is reachable by keyboard");
    }
    // ← goes back, → returns.
    key_on(&at, "ArrowLeft");
    flush().await;
    let back = focused().unwrap();
    assert!(!back.is_same_node(Some(&at)));
    key_on(&back, "ArrowRight");
    flush().await;
    let at = focused().unwrap();
    assert_eq!(at.get_attribute("data-kind").as_deref(), Some("request-error"));
    // A visible focus ring.
    let ring = at.query_selector(".hit").unwrap().unwrap();
    assert_ne!(computed(&ring, "stroke"), "none", "the focused mark wears a ring");
    // Enter selects its line, as a click does.
    key_on(&at, "Enter");
    flush().await;
    settle().await;
    assert_eq!(lab.attr("#sv-why", "data-line"), "10");
    let sel = lab.el("#timeline-svg [data-kind='request-error'][data-line='10']");
    assert!(sel.query_selector(".sel-ring").unwrap().is_some(), "the selected mark wears its ring");
    lab.unmount();
}
