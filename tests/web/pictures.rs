//! The pictures: windows, timers, folded summaries, contrast, motion, endings, 390 px.

use super::*;

impl Lab {
    /// Mounts a fresh app inside a root `width` CSS pixels wide, with the page's style sheet
    /// (the test runner does not load it; `unmount` takes it away again).
    pub(crate) async fn sized(width: u32) -> Lab {
        Lab::sized_as(width, "?lang=en").await
    }

    /// [`Lab::sized`] opened with the URL query `query` (a `script=`, an embed, a theme…).
    pub(crate) async fn sized_as(width: u32, query: &str) -> Lab {
        add_app_style();
        storage().remove_item(STORAGE_KEY).unwrap();
        storage().remove_item(rvlab::ui::guided::ACTIVE_KEY).unwrap();
        let root = new_root();
        root.set_attribute("style", &format!("width:{width}px")).unwrap();
        Lab::render_into(root, Some(Config::parse(query, ""))).await
    }

    /// The timeline's horizontal layout, read from the SVG.
    pub(crate) fn geom(&self) -> timeline::Geom {
        timeline::Geom {
            width: self.num("#timeline-svg", "data-width"),
            x0: self.num("#timeline-svg", "data-x0"),
            x1: self.num("#timeline-svg", "data-x1"),
        }
    }
}

pub(crate) fn js_get(v: &wasm_bindgen::JsValue, name: &str) -> wasm_bindgen::JsValue {
    js_sys::Reflect::get(v, &name.into()).unwrap_or(wasm_bindgen::JsValue::UNDEFINED)
}

/// The font size of `el` as drawn on screen: its computed font-size × the SVG's screen scale.
pub(crate) fn rendered_font_px(el: &Element) -> f64 {
    let win: wasm_bindgen::JsValue = web_sys::window().unwrap().into();
    let gcs: js_sys::Function = js_get(&win, "getComputedStyle").dyn_into().unwrap();
    let style = gcs.call1(&win, el).unwrap();
    let size: f64 = js_get(&style, "fontSize").as_string().unwrap().trim_end_matches("px").parse().unwrap();
    let ctm_fn: js_sys::Function = js_get(el, "getScreenCTM").dyn_into().expect("an SVG element");
    let ctm = ctm_fn.call0(el).unwrap();
    let a = js_get(&ctm, "a").as_f64().unwrap();
    let b = js_get(&ctm, "b").as_f64().unwrap();
    size * (a * a + b * b).sqrt()
}

pub(crate) struct Box4 {
    pub(crate) l: f64,
    pub(crate) t: f64,
    pub(crate) r: f64,
    pub(crate) b: f64,
}

pub(crate) fn rect_of(el: &Element) -> Box4 {
    let r = el.get_bounding_client_rect();
    Box4 { l: r.left(), t: r.top(), r: r.right(), b: r.bottom() }
}

pub(crate) fn overlaps(a: &Box4, b: &Box4) -> bool {
    // Half a pixel of anti-aliasing either way is not an overlap.
    a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5
}

/// Every label in both pictures (once nothing moves any more: [`motionless`]): at least 11 px as
/// rendered, on screen inside its SVG, and no
/// label box meets another label or a mark's drawn shape.
pub(crate) fn assert_legible(lab: &Lab, what: &str) {
    let texts = lab.all("#system-view text, #timeline-svg text");
    assert!(texts.len() >= 10, "{what}: only {} labels", texts.len());
    for t in &texts {
        let px = rendered_font_px(t);
        assert!(px >= 11.0 - 1e-6, "{what}: {:?} is drawn at {px:.2} px", t.text_content());
    }
    for svg in ["#system-view", "#timeline-svg"] {
        let frame = rect_of(&lab.el(svg));
        let parent = rect_of(&lab.el(svg).parent_element().unwrap());
        assert!(
            frame.r <= parent.r + 0.5,
            "{what}: {svg} is wider than its container ({} > {})",
            frame.r,
            parent.r
        );
        for t in lab.all(&format!("{svg} text")) {
            let r = rect_of(&t);
            assert!(
                r.l >= frame.l - 0.5 && r.r <= frame.r + 0.5,
                "{what}: {:?} ({:.1}–{:.1}) sticks out of {svg} ({:.1}–{:.1})",
                t.text_content(),
                r.l,
                r.r,
                frame.l,
                frame.r
            );
        }
    }
    let boxes: Vec<(String, Box4)> =
        texts.iter().map(|t| (t.text_content().unwrap_or_default(), rect_of(t))).collect();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            assert!(
                !overlaps(&boxes[i].1, &boxes[j].1),
                "{what}: label {:?} meets label {:?}",
                boxes[i].0,
                boxes[j].0
            );
        }
    }
    // Marks' drawn shapes (not their invisible pointer targets) never sit under a label.
    let shapes = lab.all(
        "#timeline-svg g.mark > circle, #timeline-svg g.mark > path, #system-view g.mark > path, #system-view .head, #system-view g.timer > circle.clock",
    );
    for s in &shapes {
        let r = rect_of(s);
        for (text, b) in &boxes {
            assert!(
                !overlaps(&r, b),
                "{what}: label {text:?} ({:.1},{:.1})–({:.1},{:.1}) covers a {} mark ({:.1},{:.1})–({:.1},{:.1})",
                b.l,
                b.t,
                b.r,
                b.b,
                s.parent_element()
                    .and_then(|p| p.get_attribute("data-kind"))
                    .unwrap_or_else(|| s.get_attribute("class").unwrap_or_default()),
                r.l,
                r.t,
                r.r,
                r.b
            );
        }
    }
}

pub(crate) const TWO_APISERVERS: &[&str] = &[
    "set apiservers 2",
    "apiserver 2",
    "set cache.lag 5s",
    "apiserver 1",
    CM_A,
    CM_B,
    "GET /api/v1/namespaces/default/configmaps?limit=1",
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
    "events w1",
];

#[wasm_bindgen_test]
async fn pictures_name_every_cache_window_and_show_lag_on_two_apiservers() {
    let lab = Lab::sized(1280).await;
    run_all(&lab, TWO_APISERVERS).await;
    settle().await;
    // The timeline's cache rows name their owner in visible text.
    let rows = lab.all("#timeline-svg [data-kind='cache-window']");
    let owners: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r.get_attribute("data-apiserver").unwrap(), r.get_attribute("data-resource").unwrap()))
        .collect();
    assert_eq!(owners, [("1".into(), "configmaps".into()), ("2".into(), "configmaps".into())]);
    for r in &rows {
        let label = r.query_selector(".row-label").unwrap().expect("a row label").text_content().unwrap();
        let n = r.get_attribute("data-apiserver").unwrap();
        assert!(label.contains(&format!("apiserver {n}")) && label.contains("configmaps"), "{label}");
    }
    // apiserver 1 holds 2–3; apiserver 2 has heard nothing yet: 5 s of lag, two events in flight.
    let one = lab.el("#system-view [data-kind='cache-window'][data-apiserver='1']");
    assert_eq!(one.get_attribute("data-rv").as_deref(), Some("3"));
    let lag = lab.el("#system-view [data-kind='cache-window'][data-apiserver='2'] [data-kind='lag']");
    assert_eq!(lag.get_attribute("data-behind").as_deref(), Some("2"));
    assert_eq!(lag.get_attribute("data-in-flight").as_deref(), Some("2"));
    assert!(lag.text_content().unwrap().contains("lag 2 rev · 5s"), "{:?}", lag.text_content());
    assert_eq!(lab.all("#system-view [data-kind='cache-window'][data-apiserver='2'] .in-flight").len(), 2);
    // The list and its token, numbered by page.
    assert_eq!(lab.attr("#timeline-svg [data-kind='list-rv'][data-line='7']", "data-rv"), "3");
    let tok = lab.el("#timeline-svg [data-kind='continue-token'][data-line='7']");
    assert_eq!(tok.get_attribute("data-rv").as_deref(), Some("3"));
    assert_eq!(tok.query_selector("text").unwrap().unwrap().text_content().as_deref(), Some("p2"));
    // The watch: started after 1, read 2 and 3, still open on apiserver 1.
    let start = lab.el("#timeline-svg [data-kind='watch-start']");
    assert_eq!(
        (start.get_attribute("data-rv").as_deref(), start.get_attribute("data-line").as_deref()),
        (Some("1"), Some("8"))
    );
    assert_eq!(start.get_attribute("data-apiserver").as_deref(), Some("1"));
    assert_eq!(lab.attr("#timeline-svg [data-kind='watch-frame']", "data-rv"), "3");
    assert!(lab.q("#timeline-svg [data-kind='watch-end']").is_none(), "a running watch has no end mark");
    // The marks sit where the state says.
    let (w, g) = (lab.window(), lab.geom());
    let cursor = lab.num("#timeline-svg [data-kind='watch-frame']", "data-x");
    assert!(close(cursor, timeline::x_of(3.5, w, g)), "{cursor}");
    motionless(&lab).await;
    assert_legible(&lab, "two apiservers at 1280");
    // Selecting the list draws its path: you → apiserver 1's watch cache, as its why.path says,
    // and the Why strip names the rule.
    let list = lab.el("#timeline-svg [data-kind='list-rv'][data-line='7']");
    list.dispatch_event(&web_sys::MouseEvent::new("click").unwrap()).unwrap();
    flush().await;
    let path = lab.el("#system-view [data-kind='request-path']");
    assert_eq!(path.get_attribute("data-path").as_deref(), Some("watch-cache"));
    assert_eq!(path.get_attribute("data-apiserver").as_deref(), Some("1"));
    assert_eq!(path.get_attribute("data-line").as_deref(), Some("7"));
    assert_eq!(lab.attr("#sv-why", "data-rule"), "consistent-read-from-cache");
    // The path ends on apiserver 1's band, above etcd's row.
    let end = rect_of(&lab.el("#system-view [data-kind='request-path'] .path-end"));
    let band = rect_of(&lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band"));
    let etcd = rect_of(&lab.el("#system-view .row.etcd rect.tape"));
    assert!(end.t < band.b && end.b > band.t, "the path ends in the band");
    assert!(end.b < etcd.t, "the path stops above etcd");
    lab.unmount();
}

/// The timers a revision axis hides are drawn where and when the engine says: each response on
/// its way to the lagging apiserver 2 as a dot at the revision it carries, and countdown chips
/// for its arrival, the freshness wait a consistent read would have now (3 s in vain: the cache
/// is 5 s behind), a watch's deadline and its next bookmark, and the next compaction round.
#[wasm_bindgen_test]
async fn timers_are_drawn_where_and_when_the_engine_says() {
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, TWO_APISERVERS).await;
        run_all(
            &lab,
            &["GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=3&timeoutSeconds=30&allowWatchBookmarks=true"],
        )
        .await;
        settle().await;
        // Dots at revisions 2 and 3, due at 5 s, on apiserver 2's row.
        let dots =
            lab.all("#system-view [data-kind='cache-window'][data-apiserver='2'] [data-kind='in-flight']");
        let got: Vec<(String, String)> = dots
            .iter()
            .map(|d| (d.get_attribute("data-rv").unwrap(), d.get_attribute("data-due-ms").unwrap()))
            .collect();
        assert_eq!(got, [("2".into(), "5000".into()), ("3".into(), "5000".into())], "{width}");
        let (lo, hi) = (lab.num("#system-view", "data-lo") as i64, lab.num("#system-view", "data-hi") as i64);
        let g = timeline::Geom::for_width(lab.num("#timeline-svg", "data-width"));
        for d in &dots {
            let rv: f64 = d.get_attribute("data-rv").unwrap().parse().unwrap();
            let cx = lab_num(d, "cx");
            assert!(close(cx, timeline::x_of(rv + 0.5, Window { lo, hi }, g)), "{width}: dot at {cx}");
        }
        let chip = |kind: &str, owner: &str| {
            lab.el(&format!("#system-view [data-kind='timer'][data-timer='{kind}'][data-owner='{owner}']"))
        };
        let due = |e: &Element| e.get_attribute("data-due-ms").unwrap();
        // The visible text (a long chip wraps onto more lines, never cut).
        let shown = |e: &Element| {
            let lines = e.query_selector_all("text").unwrap();
            (0..lines.length()).filter_map(|i| lines.item(i)?.text_content()).collect::<Vec<_>>().join(" ")
        };
        let arrival = chip("arrival", "apiserver 2 · configmaps");
        assert_eq!(due(&arrival), "5000");
        assert_eq!(shown(&arrival), "apiserver 2 · configmaps: rv 2 arrives in 5s");
        let fresh = chip("fresh-wait", "apiserver 2 · configmaps");
        assert_eq!(due(&fresh), "3000");
        assert_eq!(
            shown(&fresh),
            "a consistent read on apiserver 2 · configmaps now waits 3s in vain, then goes to etcd"
        );
        assert!(
            lab.q("#system-view [data-timer='fresh-wait'][data-owner='apiserver 1 · configmaps']").is_none(),
            "apiserver 1 is fresh"
        );
        // w2 started at 0 s with timeoutSeconds=30: its deadline at 30 s, its bookmark 2 s before.
        assert_eq!(due(&chip("deadline", "w2")), "30000");
        assert_eq!(due(&chip("bookmark", "w2")), "28000");
        assert_eq!(shown(&chip("deadline", "w2")), "w2 ends in 30s (timeoutSeconds)");
        assert_eq!(due(&chip("compaction", "etcd")), "300000");
        // The table lists every timer too.
        assert_eq!(
            lab.all("#tl-table li[data-timer]").len(),
            lab.all("#system-view [data-kind='timer']").len()
        );
        motionless(&lab).await;
        assert_legible(&lab, &format!("timers at {width}"));
        lab.unmount();
    }
}

pub(crate) fn lab_num(el: &Element, name: &str) -> f64 {
    el.get_attribute(name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no numeric {name}"))
}

/// A script as a URL query value.
pub(crate) fn query_value(text: &str) -> String {
    js_sys::encode_uri_component(text).as_string().unwrap()
}

/// 50 watches on 3 apiservers (17, 17, 16), five of them cancelled: the timeline draws a few
/// rows and one summary row per apiserver for the rest, the system view sums up each
/// apiserver's watches; every count is the engine's, and no label meets another at 1280 or 390.
#[wasm_bindgen_test]
async fn fifty_watches_on_three_apiservers_fold_into_per_apiserver_summaries() {
    let mut lines = vec!["set apiservers 3".to_string(), CM_A.to_string(), CM_B.to_string()];
    for i in 0..50 {
        lines.push(format!("apiserver {}", i % 3 + 1));
        lines.push(format!(
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion={}",
            1 + i % 3
        ));
        if i % 10 == 9 {
            lines.push(format!("cancel w{}", i + 1));
        }
    }
    lines.push(CM_C.to_string());
    let script = lines.join("\n");
    for width in [1280, 390] {
        let lab =
            Lab::sized_as(width, &format!("?lang=en&embed=1&motion=reduce&script={}", query_value(&script)))
                .await;
        settle().await;
        assert_eq!(
            lab.all("#timeline-svg .watch-row[data-watch]").len(),
            timeline::MAX_WATCH_ROWS - timeline::FOLD_ROWS
        );
        let folded = lab.all("#timeline-svg [data-kind='watch-summary']");
        let count = |e: &Element, a: &str| e.get_attribute(a).unwrap().parse::<usize>().unwrap();
        assert_eq!(folded.iter().map(|e| count(e, "data-count")).sum::<usize>(), 50 - 5, "{width}");
        let owners: Vec<String> = folded.iter().map(|e| e.get_attribute("data-apiserver").unwrap()).collect();
        assert_eq!(owners, ["1", "2", "3"], "{width}");
        // w10, w20, … w50 were cancelled: w10 (apiserver 1), w20 (2), w30 (3), w40 (1), w50 (2).
        let per: Vec<(usize, usize, usize)> = lab
            .all("#system-view [data-kind='watch-summary']")
            .iter()
            .map(|e| (count(e, "data-count"), count(e, "data-errors"), count(e, "data-clean")))
            .collect();
        assert_eq!(per, [(17, 0, 2), (17, 0, 2), (16, 0, 1)], "{width}");
        let label = lab
            .el("#system-view [data-kind='watch-summary'][data-apiserver='1'] .row-label")
            .text_content()
            .unwrap();
        assert!(label.starts_with("17 watches") && label.contains("0 ✕ · 2 ■"), "{label}");
        // The cursor histogram: apiserver 3's 16 watches started after 3 and read nothing yet:
        // one bar at 3 that counts them all.
        let bars: Vec<(String, usize)> = lab
            .all("#system-view [data-kind='watch-summary'][data-apiserver='3'] .cursor-bar")
            .iter()
            .map(|b| (b.get_attribute("data-rv").unwrap(), count(b, "data-count")))
            .collect();
        assert_eq!(bars, [("3".to_string(), 16)], "{width}");
        motionless(&lab).await;
        assert_legible(&lab, &format!("50 watches at {width}"));
        lab.unmount();
    }
}

/// `prop` of `el`'s computed style.
pub(crate) fn computed(el: &Element, prop: &str) -> String {
    let f = js_sys::Function::new_with_args("el, p", "return getComputedStyle(el).getPropertyValue(p);");
    f.call2(&wasm_bindgen::JsValue::NULL, el, &prop.into()).unwrap().as_string().unwrap_or_default()
}

/// Lines of a script file (no comments, no blank lines).
pub(crate) fn script_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect()
}

/// WCAG 2.x contrast of every drawn text and mark in both pictures against what it is drawn
/// on, computed from the browser's computed styles: `[[selector-ish, ratio, is_text], …]`.
/// Colours are resolved by painting them on a 1 × 1 canvas over the panel's background (so
/// translucent fills are composited as the page shows them). A mark counts by the more
/// contrasting of its fill and its stroke (the part that identifies it, WCAG 1.4.11).
pub(crate) fn contrasts(root: &Element) -> Vec<(String, f64, bool)> {
    let f = js_sys::Function::new_with_args(
        "root",
        r#"
const cv = document.createElement('canvas'); cv.width = cv.height = 1;
const cx = cv.getContext('2d', { willReadFrequently: true });
const paint = (...layers) => { cx.clearRect(0, 0, 1, 1); for (const l of layers) { cx.fillStyle = '#000'; cx.fillStyle = l; cx.fillRect(0, 0, 1, 1); } return cx.getImageData(0, 0, 1, 1).data; };
const lum = d => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(d[0]) + 0.7152 * f(d[1]) + 0.0722 * f(d[2]); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const solid = c => c && c !== 'none' && !c.startsWith('url');
const panel = getComputedStyle(root.closest('section') || root).backgroundColor;
const out = [];
const name = el => (el.getAttribute('class') || el.tagName) + ' in ' + ((el.closest('[data-kind]') || el.parentElement).getAttribute('data-kind') || (el.parentElement.getAttribute('class') || ''));
for (const t of root.querySelectorAll('svg.timeline text')) {
  const st = getComputedStyle(t);
  if (st.visibility === 'hidden' || st.display === 'none') continue;
  const fg = st.fill;
  let bgs = [paint(panel)];
  const prev = t.previousElementSibling;
  if (t.classList.contains('chip-text') && prev) bgs = [paint(panel, getComputedStyle(prev).fill)];
  if (t.classList.contains('band-label')) { const band = t.parentElement.querySelector('rect.band'); if (band) bgs.push(paint(panel, getComputedStyle(band).fill)); }
  for (const bg of bgs) out.push([name(t) + ' "' + t.textContent + '"', ratio(paint(panel, fg), bg), true]);
}
const marks = '.diamond, .chip, .band, .snapshot, .bar, .watch-start circle, .frame, .mark.watch path, .bookmark path, .end-x, .end-sq, .scissors, .head, .lag-line, .in-flight, .off-line, .flag, .flag-pole, .path-line, .path-end, .seg, .tomb, .clock, .clock-arc, .clock-hand, .cursor-bar, .sel-ring, .hatch-line, #tl-compact-line, .tape';
for (const m of root.querySelectorAll(marks)) {
  if (!m.closest('svg.timeline')) continue;
  const st = getComputedStyle(m);
  const bg = paint(panel);
  let best = 0;
  if (solid(st.fill)) best = Math.max(best, ratio(paint(panel, st.fill), bg));
  if (solid(st.stroke) && parseFloat(st.strokeWidth) > 0) best = Math.max(best, ratio(paint(panel, st.stroke), bg));
  out.push([name(m), best, false]);
}
return out;
"#,
    );
    let arr: js_sys::Array = f.call1(&wasm_bindgen::JsValue::NULL, root).unwrap().unchecked_into();
    arr.iter()
        .map(|row| {
            let row: js_sys::Array = row.unchecked_into();
            (row.get(0).as_string().unwrap(), row.get(1).as_f64().unwrap(), row.get(2).as_bool().unwrap())
        })
        .collect()
}

/// Every text in the pictures reaches 4.5:1 and every mark 3:1 against its background, in the
/// light and the dark theme, over scenarios drawing every kind of mark (lag and dots in flight,
/// lists, tokens, a refused read, each kind of watch end, timers, the selected line's path and
/// ring).
#[wasm_bindgen_test]
async fn every_text_and_mark_has_enough_contrast_in_both_themes() {
    let scenarios: [(&str, Vec<&str>, usize); 3] = [
        ("two apiservers", TWO_APISERVERS.to_vec(), 7),
        ("endings", ENDINGS.to_vec(), 11),
        ("paging", script_lines(include_str!("../../scripts/shots/paging.rv")), 8),
    ];
    for theme in ["light", "dark"] {
        let mut kinds = std::collections::BTreeSet::new();
        for (what, lines, select) in &scenarios {
            let lab = Lab::sized_as(1280, &format!("?lang=en&theme={theme}")).await;
            run_all(&lab, lines).await;
            lab.click(&format!("#log li[data-line='{select}'] button")).await;
            settle().await;
            let all = contrasts(&lab.el("#timeline"));
            assert!(all.len() > 30, "{theme} {what}: only {} items", all.len());
            for (name, ratio, text) in &all {
                let need = if *text { 4.5 } else { 3.0 };
                assert!(*ratio >= need, "{theme} {what}: {name} has contrast {ratio:.2} < {need}");
                kinds.insert(
                    name.split(" in ")
                        .next()
                        .unwrap_or_default()
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                );
            }
            lab.unmount();
        }
        // The scenarios drew every kind of mark the check knows.
        for k in [
            "diamond",
            "chip",
            "band",
            "bar",
            "end-x",
            "end-sq",
            "head",
            "in-flight",
            "path-line",
            "path-end",
            "seg",
            "clock",
            "sel-ring",
            "lbl",
            "chip-text",
            "row-label",
        ] {
            assert!(kinds.contains(k), "{theme}: no {k} was checked: {kinds:?}");
        }
    }
}

/// What the pictures tell apart is told apart without colour: an ERROR end (✕), a close without
/// one (■) and a live watch (▶ on a solid bar; ended bars are dashed); a path to the watch cache
/// (solid, ● at its end) and one to etcd (dashed, ■); the selected line (a dashed ring and a bold
/// label) and the others (neither).
#[wasm_bindgen_test]
async fn distinctions_do_not_rely_on_colour() {
    let lab = Lab::sized(1280).await;
    run_all(&lab, ENDINGS).await;
    run_all(&lab, &["GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8", "advance 1s"])
        .await;
    settle().await;
    let end = |line: &str| lab.el(&format!("#timeline-svg [data-kind='watch-end'][data-line='{line}']"));
    let shape = |e: &Element| {
        let s = e.query_selector(".end-x, .end-sq").unwrap().expect("an end glyph");
        (s.tag_name(), s.get_attribute("class").unwrap())
    };
    assert_eq!(shape(&end("11")), ("path".to_string(), "end-x".to_string()));
    assert_eq!(shape(&end("19")), ("rect".to_string(), "end-sq".to_string()));
    let live = lab.el("#timeline-svg .watch-row[data-watch='w5']");
    assert!(live.query_selector("[data-kind='watch-end']").unwrap().is_none());
    let dash = |el: &Element| computed(el, "stroke-dasharray");
    assert_eq!(dash(&live.query_selector(".bar").unwrap().unwrap()), "none", "a live watch's bar is solid");
    let ended_bar = lab.el("#timeline-svg .watch-row[data-watch='w1'] .bar");
    assert_ne!(dash(&ended_bar), "none", "an ended watch's bar is dashed");
    lab.unmount();

    let lab = Lab::sized(1280).await;
    run_all(&lab, &script_lines(include_str!("../../scripts/shots/paging.rv"))).await;
    let path = || {
        let p = lab.el("#system-view [data-kind='request-path']");
        let end = p.query_selector(".path-end").unwrap().unwrap().tag_name();
        (p.get_attribute("data-path").unwrap(), dash(&p.query_selector(".path-line").unwrap().unwrap()), end)
    };
    lab.click("#log li[data-line='4'] button").await;
    let cache = path();
    lab.click("#log li[data-line='8'] button").await;
    let etcd = path();
    assert_eq!((cache.0.as_str(), cache.1.as_str(), cache.2.as_str()), ("watch-cache", "none", "circle"));
    assert_eq!((etcd.0.as_str(), etcd.2.as_str()), ("etcd", "rect"));
    assert_ne!(etcd.1, "none", "the path to etcd is dashed");
    // Line 8 is selected: its mark wears a dashed ring and a bold label; line 4's does not.
    let sel = lab.el("#timeline-svg [data-kind='request-error'][data-line='8']");
    let ring = sel.query_selector(".sel-ring").unwrap().expect("a ring on the selected mark");
    assert_ne!(dash(&ring), "none");
    assert_eq!(computed(&sel.query_selector("text").unwrap().unwrap(), "font-weight"), "700");
    let other = lab.el("#timeline-svg [data-kind='list-rv'][data-line='4']");
    assert!(other.query_selector(".sel-ring").unwrap().is_none());
    // The ring sits around the mark it marks.
    let (r, m) = (rect_of(&ring), rect_of(&sel.query_selector(".end-x").unwrap().unwrap()));
    assert!(r.l <= m.l && r.r >= m.r && r.t <= m.t && r.b >= m.b, "the ring encloses the ✕");
    lab.unmount();
}

/// Stepping animates: a step moves the same elements to their new places through CSS
/// transitions (etcd's head, a cache band), and with reduced motion nothing tweens.
#[wasm_bindgen_test]
async fn stepping_moves_the_same_marks_with_transitions_unless_motion_is_reduced() {
    for (query, reduced) in [("?lang=en", false), ("?lang=en&motion=reduce", true)] {
        let lab = Lab::sized_as(1280, query).await;
        run_all(&lab, &[CM_A, CM_B, CM_C]).await;
        settle().await;
        let head = lab.el("#system-view .head");
        let band = lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band");
        let (d0, w0) = (head.get_attribute("d").unwrap(), band.get_attribute("width").unwrap());
        lab.click("#scrub-back").await;
        settle().await;
        let (head2, band2) = (
            lab.el("#system-view .head"),
            lab.el("#system-view [data-kind='cache-window'][data-apiserver='1'] rect.band"),
        );
        assert!(
            head2.is_same_node(Some(&head)) && band2.is_same_node(Some(&band)),
            "{query}: the same elements move"
        );
        assert_ne!(head2.get_attribute("d").unwrap(), d0, "{query}: the head moved back");
        assert_ne!(band2.get_attribute("width").unwrap(), w0, "{query}: the band shrank");
        for (el, prop) in [(&head2, "d"), (&band2, "width")] {
            let props = computed(el, "transition-property");
            let dur = computed(el, "transition-duration");
            if reduced {
                assert!(dur.split(", ").all(|d| d == "0s"), "{query}: {props} {dur}");
            } else {
                let i = props
                    .split(", ")
                    .position(|p| p == prop)
                    .unwrap_or_else(|| panic!("{prop} not in {props}"));
                let d = dur.split(", ").nth(i).unwrap_or("0s");
                assert_eq!(d, "0.4s", "{query}: {prop} tweens");
            }
        }
        lab.unmount();
    }
}

/// The CSS animations (names) and transitions (properties) running or held on `el` and below.
pub(crate) fn animations(el: &Element) -> Vec<String> {
    let f = js_sys::Function::new_with_args(
        "el",
        "return el.getAnimations({subtree: true}).map(a => a.animationName || a.transitionProperty || '?');",
    );
    let arr: js_sys::Array = f.call1(&wasm_bindgen::JsValue::NULL, el).unwrap().dyn_into().unwrap();
    arr.iter().map(|v| v.as_string().unwrap_or_default()).collect()
}

/// Waits (bounded: ~5 s) until nothing in the pictures is still animating or tweening, so
/// positions read are the step's end state; the caller's asserts judge what was seen.
pub(crate) async fn motionless(lab: &Lab) {
    for _ in 0..250 {
        let running = js_sys::Function::new_with_args(
            "el",
            "return el.getAnimations({subtree: true}).filter(a => a.playState === 'running').length;",
        );
        let n = running
            .call1(&wasm_bindgen::JsValue::NULL, &lab.el(".pictures"))
            .unwrap()
            .as_f64()
            .unwrap_or(0.0);
        if n == 0.0 {
            return;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Play's steps are staged: the revisions that reach a lagging watch cache rise from etcd to its
/// band (stage 1) before the band grows (stage 2, a delayed transition); a scrubber step draws
/// the selected request's path with a dot travelling it, then pops its decision's mark, then the
/// new marks. With reduced motion (`data-motion="reduce"`, from `?motion=reduce` or the
/// system's setting) none of it runs: the end state is drawn at once.
#[wasm_bindgen_test]
async fn play_and_scrubbing_stage_each_step_unless_motion_is_reduced() {
    for (query, reduced) in [("?lang=en&tick=1500", false), ("?lang=en&tick=1500&motion=reduce", true)] {
        let lab = Lab::sized_as(1280, query).await;
        run_all(&lab, TWO_APISERVERS).await;
        settle().await;
        assert_eq!(lab.attr(".pictures", "data-motion"), if reduced { "reduce" } else { "full" });
        // apiserver 2's cache still waits for revisions 2 and 3 (lag 5 s).
        let band2 = "#system-view [data-kind='cache-window'][data-apiserver='2']";
        assert_eq!(lab.all(&format!("{band2} [data-kind='in-flight']")).len(), 2, "{query}");
        // Play at 10×: the first tick (one `advance 10s` line) lands them.
        lab.select("#sim-speed", "10").await;
        lab.click("#sim-play").await;
        wait_log(&lab, |l| l.len() == TWO_APISERVERS.len() + 1).await;
        flush().await;
        assert_eq!(lab.log().last().map(String::as_str), Some("advance 10s"), "{query}");
        assert_eq!(lab.attr(band2, "data-rv"), "3", "{query}: the cache caught up");
        let arrivals = lab.all("#system-view [data-kind='arrival']");
        let pictures = lab.el(".pictures");
        if reduced {
            assert!(arrivals.is_empty(), "{query}: nothing travels");
            assert_eq!(animations(&pictures), Vec::<String>::new(), "{query}");
        } else {
            let rvs: Vec<String> = arrivals.iter().map(|a| a.get_attribute("data-rv").unwrap()).collect();
            assert_eq!(rvs, ["2", "3"], "{query}: each arrival rises to apiserver 2's band");
            for a in &arrivals {
                let names = animations(a);
                assert!(names.iter().any(|n| n.starts_with("pic-travel-")), "{query}: {names:?}");
                // It starts at etcd's row (below the band) and ends on the band.
                let rise: f64 = computed(a, "--rise").trim().trim_end_matches("px").parse().unwrap();
                let tape = lab.el("#system-view .row.etcd .tape");
                let etcd_mid = lab_num(&tape, "y") + lab_num(&tape, "height") / 2.0;
                assert!(close(lab_num(a, "cy") + rise, etcd_mid), "{query}: rise {rise}");
            }
            // Stage 2 waits for stage 1: the band's growth is a delayed transition.
            let band = lab.el(&format!("{band2} rect.band"));
            assert!(computed(&band, "transition-delay").split(", ").all(|d| d == "0.25s"), "{query}");
            lab.click("#sim-play").await;
        }
        // A scrubber step onto a read: its path is drawn in stages (unless reduced).
        lab.click("#scrub-first").await;
        for _ in 0..7 {
            lab.click("#scrub-fwd").await;
        }
        settle().await;
        assert_eq!(lab.attr("#system-view [data-kind='request-path']", "data-line"), "7", "{query}");
        let path = lab.el("#system-view [data-kind='request-path']");
        let list = lab.el("#timeline-svg [data-kind='list-rv'][data-line='7']");
        if reduced {
            assert!(path.query_selector(".path-dot").unwrap().is_none());
            assert_eq!(animations(&pictures), Vec::<String>::new(), "{query}");
        } else {
            let names = animations(&path);
            for stage in ["pic-draw-", "pic-travel-", "pic-pop-"] {
                assert!(names.iter().any(|n| n.starts_with(stage)), "{query}: {stage} in {names:?}");
            }
            // The list this step answered appears last (a delayed pop-in).
            assert!(list.class_list().contains("fresh-a") || list.class_list().contains("fresh-b"));
            assert!(animations(&list).iter().any(|n| n.starts_with("pic-pop-")), "{query}");
            assert_eq!(computed(&list, "animation-delay"), "0.45s");
        }
        lab.unmount();
    }
}

/// Each way a watch ends, drawn where it happened with its code (or none) and its owner.
pub(crate) const ENDINGS: &[&str] = &[
    "set apiservers 2",
    "set cache.capacity 5",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o1\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o2\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o3\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o4\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o5\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o6\"}}",
    "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"o7\"}}",
    // line 10, w1: below apiserver 1's window (history after 3) → ERROR 410.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2",
    "events w1",
    // line 12, w2: a watch with a deadline → ends cleanly when it passes.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8&timeoutSeconds=5",
    // line 13, w3: cancelled by its client.
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8",
    "cancel w3",
    // line 15, w4 on apiserver 2, which restarts.
    "apiserver 2",
    "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=8",
    "restart apiserver 2",
    "advance 10s",
    "events w2",
    "events w3",
    "events w4",
];

#[wasm_bindgen_test]
async fn every_watch_ending_is_drawn_with_its_code_and_owner() {
    for width in [1280, 390] {
        let lab = Lab::sized(width).await;
        run_all(&lab, ENDINGS).await;
        settle().await;
        let ends = lab.all("#timeline-svg [data-kind='watch-end']");
        assert_eq!(ends.len(), 4, "{width}: {}", lab.text("#tl-table"));
        let end = |line: &str| lab.el(&format!("#timeline-svg [data-kind='watch-end'][data-line='{line}']"));
        let causes: Vec<String> = ["11", "19", "20", "21"]
            .iter()
            .map(|l| end(l).get_attribute("data-cause").unwrap_or_default())
            .collect();
        assert_eq!(causes, ["cache-window", "timeout", "cancelled", "restart"], "{width}");
        // The 410 is an ERROR frame: red ✕ at the RV it asked for, with the code.
        let e410 = end("11");
        assert_eq!(e410.get_attribute("data-code").as_deref(), Some("410"));
        assert_eq!(e410.get_attribute("data-rv").as_deref(), Some("2"));
        assert_eq!(e410.get_attribute("data-apiserver").as_deref(), Some("1"));
        assert!(e410.class_list().contains("error") && e410.query_selector(".end-x").unwrap().is_some());
        // The others closed without an ERROR frame: grey squares, no code, never drawn like a 410.
        for (line, apiserver) in [("19", "1"), ("20", "1"), ("21", "2")] {
            let e = end(line);
            assert_eq!(e.get_attribute("data-code"), None, "line {line}");
            assert_eq!(e.get_attribute("data-apiserver").as_deref(), Some(apiserver), "line {line}");
            assert!(
                e.class_list().contains("clean") && e.query_selector(".end-x").unwrap().is_none(),
                "line {line}"
            );
        }
        // The table says how each ended.
        let table = lab.text("#tl-table");
        assert!(table.contains("w1 ended: ERROR 410"), "{table}");
        assert_eq!(table.matches("ERROR 410").count(), 1, "{table}");
        for id in ["w2", "w3", "w4"] {
            assert!(table.contains(&format!("{id} ended: ")), "{table}");
        }
        motionless(&lab).await;
        assert_legible(&lab, &format!("watch endings at {width}"));
        lab.unmount();
    }
}

#[wasm_bindgen_test]
async fn the_pictures_fit_390_px_without_sideways_scrolling() {
    let lab = Lab::sized(390).await;
    run_all(&lab, TWO_APISERVERS).await;
    settle().await;
    let svg = lab.el("#timeline-svg");
    let wrap = svg.parent_element().unwrap();
    assert!(
        wrap.scroll_width() <= wrap.client_width() + 1,
        "{} > {}",
        wrap.scroll_width(),
        wrap.client_width()
    );
    assert!(lab.num("#timeline-svg", "data-width") <= 390.0);
    // One SVG unit per CSS pixel.
    assert!(close(svg.get_bounding_client_rect().width(), lab.num("#timeline-svg", "data-width")));
    motionless(&lab).await;
    assert_legible(&lab, "two apiservers at 390");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn the_chip_counting_the_watch_timers_not_shown_opens_them() {
    let lab = Lab::sized(1280).await;
    // Three watches with a deadline and a bookmark each: six timers, the soonest four drawn.
    let watch = "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1&timeoutSeconds=60&allowWatchBookmarks=true";
    run_all(&lab, &[CM_A, watch, watch, watch]).await;
    settle().await;
    let watch_timers = |lab: &Lab| {
        lab.all("#system-view g.timer[data-kind='timer']")
            .iter()
            .filter(|t| matches!(t.get_attribute("data-timer").as_deref(), Some("deadline" | "bookmark")))
            .count()
    };
    assert_eq!(watch_timers(&lab), rvlab::ui::timeline::MAX_WATCH_TIMERS);
    let more = lab.el("#system-view g.timer.more");
    assert_eq!(more.get_attribute("role").as_deref(), Some("button"));
    assert!(more.text_content().unwrap_or_default().contains("+2 more"), "{:?}", more.text_content());
    more.dispatch_event(&web_sys::MouseEvent::new("click").unwrap()).unwrap();
    settle().await;
    assert_eq!(watch_timers(&lab), 6, "every watch timer drawn once opened");
    assert!(lab.q("#system-view g.timer.more").is_none(), "nothing left to count");
    motionless(&lab).await;
    assert_legible(&lab, "six watch timers");
    lab.unmount();
}
