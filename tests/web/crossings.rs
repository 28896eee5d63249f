//! Labels that no line runs through: a watch ended by `set watch-cache off` (its end label
//! "watch cache switched off (no ERROR)"), with the compaction boundary drawn across the rows
//! right of the end mark, at 1280 and 390 px — measured with the elements' bounding boxes.

use super::*;

const CM: &str = "/api/v1/namespaces/default/configmaps";

/// `scripts/shots/cache-off.rv`, then ten more writes and a compaction at revision 5 (its line
/// crosses every row just right of where the watch ended).
fn cache_off_then_compacted() -> Vec<String> {
    let mut v: Vec<String> = vec![
        "set explain on".into(),
        format!("POST {CM} {{\"metadata\":{{\"name\":\"a\"}}}}"),
        format!("GET {CM}?watch=true&resourceVersion=1"),
        "set watch-cache off".into(),
        "events w1".into(),
    ];
    for n in 0..10 {
        v.push(format!("POST {CM} {{\"metadata\":{{\"name\":\"b{n}\"}}}}"));
    }
    v.push("compact 5".into());
    v
}

/// The lines drawn in an SVG: `line` elements, the folds' edges and the edges of the watch cache
/// bands (each edge as a zero-width box).
fn drawn_lines(lab: &Lab, svg: &str) -> Vec<(String, Box4)> {
    let mut out: Vec<(String, Box4)> = lab
        .all(&format!("{svg} line"))
        .iter()
        .map(|l| (l.get_attribute("class").unwrap_or_else(|| "line".into()), rect_of(l)))
        .collect();
    // The folds' edges and the compaction boundary are paths of vertical lines ("M x y V y2"…),
    // one SVG unit per CSS pixel.
    let frame = rect_of(&lab.el(svg));
    for e in lab.all(&format!("{svg} .fold-edge, {svg} #tl-compact-line")) {
        let d = e.get_attribute("d").unwrap_or_default();
        for seg in d.split('M').filter(|s| !s.is_empty()) {
            let nums: Vec<f64> = seg.split(['V', ' ']).filter_map(|n| n.trim().parse().ok()).collect();
            let [x, y0, y1] = nums[..] else { panic!("{svg}: not a vertical line: {seg:?} in {d:?}") };
            let (l, t, b) = (frame.l + x, frame.t + y0.min(y1), frame.t + y0.max(y1));
            out.push((
                e.get_attribute("class").unwrap_or_else(|| "compaction line".into()),
                Box4 { l, t, r: l, b },
            ));
        }
    }
    for b in lab.all(&format!("{svg} rect.band")) {
        let r = rect_of(&b);
        out.push(("band left edge".into(), Box4 { l: r.l, t: r.t, r: r.l, b: r.b }));
        out.push(("band right edge".into(), Box4 { l: r.r, t: r.t, r: r.r, b: r.b }));
        out.push(("band top edge".into(), Box4 { l: r.l, t: r.t, r: r.r, b: r.t }));
        out.push(("band bottom edge".into(), Box4 { l: r.l, t: r.b, r: r.r, b: r.b }));
    }
    out
}

#[wasm_bindgen_test]
async fn the_cache_off_end_label_meets_no_line_and_no_other_label() {
    let script = cache_off_then_compacted();
    let lines: Vec<&str> = script.iter().map(String::as_str).collect();
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, &lines).await;
        settle().await;
        motionless(&lab).await;
        let end = lab.el("#timeline-svg [data-kind='watch-end']");
        assert_eq!(end.get_attribute("data-cause").as_deref(), Some("cache-off"), "{width}");
        let label =
            end.query_selector(".end-label").unwrap().unwrap_or_else(|| panic!("{width}: no end label"));
        // Whole: on one line, or broken into lines under the row.
        let said: String = label.text_content().unwrap_or_default().split_whitespace().collect();
        assert_eq!(said, "watchcacheswitchedoff(noERROR)", "{width}: the whole text");
        let lb = rect_of(&label);
        // The compaction line is drawn, and crosses the watch's row.
        let compact = rect_of(&lab.el("#tl-compact-line"));
        let row = rect_of(&lab.el("#timeline-svg .watch-row"));
        let mark = rect_of(&end.query_selector(".end-sq").unwrap().expect("a clean end's square"));
        assert!(compact.t <= mark.t && compact.b >= row.b, "{width}: the compaction line crosses the row");
        for (what, l) in drawn_lines(&lab, "#timeline-svg") {
            assert!(
                !overlaps(&lb, &l),
                "{width}: the end label ({:.1},{:.1})–({:.1},{:.1}) meets a {what} ({:.1},{:.1})–({:.1},{:.1})",
                lb.l,
                lb.t,
                lb.r,
                lb.b,
                l.l,
                l.t,
                l.r,
                l.b
            );
        }
        for t in lab.all("#timeline-svg text") {
            if t == label {
                continue;
            }
            assert!(!overlaps(&lb, &rect_of(&t)), "{width}: the end label meets {:?}", t.text_content());
        }
        for s in lab.all("#timeline-svg g.mark > circle, #timeline-svg g.mark > path, #timeline-svg g.mark > rect:not(.hit)") {
            assert!(!overlaps(&lb, &rect_of(&s)), "{width}: the end label covers a mark");
        }
        assert_legible(&lab, &format!("cache off at {width}"));
        lab.unmount();
    }
}

#[wasm_bindgen_test]
async fn no_label_of_the_timeline_meets_a_line() {
    let script = cache_off_then_compacted();
    let mut lines: Vec<&str> = script.iter().map(String::as_str).collect();
    lines.extend(TWO_APISERVERS);
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, &lines).await;
        settle().await;
        motionless(&lab).await;
        let walls = drawn_lines(&lab, "#timeline-svg");
        // The rows' own labels too: on a phone the compaction boundary and the folds' edges cross
        // every row, and leave out each row's label line.
        for t in lab.all(
            "#timeline-svg .end-label, #timeline-svg .band-label, #timeline-svg .buffer-label, #timeline-svg .row-label",
        ) {
            let b = rect_of(&t);
            for (what, l) in &walls {
                assert!(!overlaps(&b, l), "{width}: {:?} meets a {what}", t.text_content());
            }
        }
        lab.unmount();
    }
}

/// The selected request's path in the system view: vertical lines ("M x y V y2"…), one SVG unit
/// per CSS pixel.
fn path_segments(lab: &Lab) -> Vec<(String, Box4)> {
    let frame = rect_of(&lab.el("#system-view"));
    let mut out = Vec::new();
    for p in lab.all("#system-view .path-line") {
        let d = p.get_attribute("d").unwrap_or_default();
        for seg in d.split('M').filter(|s| !s.is_empty()) {
            let nums: Vec<f64> = seg.split(['V', ' ']).filter_map(|n| n.trim().parse().ok()).collect();
            let [x, y0, y1] = nums[..] else { panic!("the path is not straight down: {seg:?} in {d:?}") };
            let (l, t, b) = (frame.l + x, frame.t + y0.min(y1), frame.t + y0.max(y1));
            out.push(("request path".to_string(), Box4 { l, t, r: l, b }));
        }
    }
    out
}

#[wasm_bindgen_test]
async fn no_label_of_the_system_view_meets_the_requests_path_or_a_line() {
    let cnf: Vec<&str> = include_str!("../../scripts/shots/cache-not-fresh.rv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("expect"))
        .collect();
    // Two apiservers, the second lagging; the last line a list whose path is drawn.
    let two: Vec<&str> = ["set explain on"]
        .into_iter()
        .chain(TWO_APISERVERS.iter().copied())
        .chain(["apiserver 2", "GET /api/v1/namespaces/default/configmaps?resourceVersion=0"])
        .collect();
    let relist: Vec<&str> = include_str!("../../scripts/shots/informer-relist.rv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("expect"))
        .chain(["GET /api/v1/namespaces/default/configmaps?resourceVersion=0"])
        .collect();
    for (what, lines) in [("cache not fresh", cnf), ("two apiservers", two), ("informer relist", relist)] {
        for width in [1280, 390] {
            let lab = Lab::sized(width).await;
            run_all(&lab, &lines).await;
            settle().await;
            motionless(&lab).await;
            let mut walls = path_segments(&lab);
            assert!(!walls.is_empty(), "{what} at {width}: the selected line draws its path");
            // A band's snapshot ticks lie under its words (which hide them): not lines to avoid.
            walls.extend(drawn_lines(&lab, "#system-view").into_iter().filter(|(c, _)| c != "snapshot"));
            for t in lab.all("#system-view text") {
                let b = rect_of(&t);
                for (kind, l) in &walls {
                    assert!(!overlaps(&b, l), "{what} at {width}: {:?} meets a {kind}", t.text_content());
                }
            }
            assert_legible(&lab, &format!("{what} at {width}"));
            lab.unmount();
        }
    }
}
