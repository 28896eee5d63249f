//! The timeline's folded keys: beyond fourteen key lanes, the other keys share one lane of
//! per-column counts, and that lane is a button ("+N more keys"; a click, or Enter on it among
//! the marks) that gives each key it counts its own lane: a key that does not fit is behind a
//! visible count that opens it, never dropped.

use super::*;

/// The keys drawn in a lane of their own, in order.
fn lane_keys(lab: &Lab) -> Vec<String> {
    lab.all("#timeline-svg .lane[data-key]").iter().map(|e| e.get_attribute("data-key").unwrap()).collect()
}

/// A box as text, for a failure's message.
fn at(b: &Box4) -> String {
    format!("[{:.1}, {:.1}]–[{:.1}, {:.1}]", b.l, b.t, b.r, b.b)
}

/// Shut, the fold's keys are counted, not given lanes the picture does not draw: the model
/// holds their lanes only when asked for every lane (the fold or the table opened), and counts
/// them the same either way.
#[wasm_bindgen_test]
fn the_model_counts_the_folded_keys_and_builds_their_lanes_only_when_asked() {
    let mut lines: Vec<String> = (1..=20).map(|i| create_line(&format!("k{i:02}"))).collect();
    lines.push("DELETE /api/v1/namespaces/default/configmaps/k20".into());
    let shut = model_with(&lines, false);
    let all = model_with(&lines, true);
    let counts =
        |m: &timeline::Model| (m.keys, m.lanes.len(), m.more_keys, m.more_changes, m.more_lanes.len());
    assert_eq!(counts(&shut), (20, 14, 6, 7, 0));
    assert_eq!(counts(&all), (20, 14, 6, 7, 6));
    assert_eq!(shut.lanes, all.lanes);
    assert_eq!(shut.more, all.more);
    assert_eq!(all.more_lanes.iter().map(|l| l.changes).sum::<usize>(), all.more_changes);
}

/// Twenty configmaps k01…k20: fourteen lanes and a fold counting six, its words in English and
/// 中文. Pressing the fold (a click at 1280 px, Enter at 390 px) draws all twenty lanes, one under another in key order,
/// each with its bar inside the plot and its label legible, and no fold is left.
#[wasm_bindgen_test]
async fn the_folded_keys_open_into_their_lanes() {
    let lines: Vec<String> = (1..=20)
        .map(|i| format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"k{i:02}"}}}}"#))
        .collect();
    let script = lines.join("\n");
    let key = |i: usize| format!("/registry/configmaps/default/k{i:02}");
    let cases = [
        (1280, "click", "en", "+6 more keys", "+6 more keys, 6 changes in the window — show their lanes"),
        (390, "Enter", "zh", "另外 6 个键", "另外 6 个键，窗口内共 6 次修改——显示它们的泳道"),
    ];
    for (width, press, lang, name, said_all) in cases {
        let lab = Lab::sized_as(
            width,
            &format!("?lang={lang}&embed=1&motion=reduce&script={}", query_value(&script)),
        )
        .await;
        settle().await;
        assert_eq!(lane_keys(&lab), (1..=14).map(key).collect::<Vec<_>>(), "{width}");
        let fold = lab.el("#timeline-svg [data-kind='key-fold']");
        assert_eq!(fold.get_attribute("data-count").as_deref(), Some("6"), "{width}");
        assert_eq!(fold.get_attribute("role").as_deref(), Some("button"));
        assert_eq!(fold.get_attribute("aria-expanded").as_deref(), Some("false"));
        assert!(fold.has_attribute("data-nav"), "reachable among the marks by keyboard");
        let said = fold.get_attribute("aria-label").unwrap();
        assert_eq!(said, said_all, "{width}");
        let label = lab.text("#tl-more .lane-label");
        assert!(label.starts_with(name), "{width}: {label}");
        let fold_top = rect_of(&fold).t;

        if press == "click" {
            fire(&fold, "click");
        } else {
            key_on(&fold, "Enter");
        }
        settle().await;
        assert_eq!(lane_keys(&lab), (1..=20).map(key).collect::<Vec<_>>(), "{width}");
        assert!(
            lab.q("#timeline-svg [data-kind='key-fold']").is_none(),
            "{width}: nothing is folded any more"
        );
        // Drawn: each opened lane has its bar, inside the plot, below the lane before it; the
        // first opened one where the fold was.
        let svg = rect_of(&lab.el("#timeline-svg"));
        let bars: Vec<Box4> = (1..=20)
            .map(|i| rect_of(&lab.el(&format!("#timeline-svg .lane[data-key='{}'] rect.seg", key(i)))))
            .collect();
        for (i, b) in bars.iter().enumerate() {
            assert!(b.r - b.l >= 1.0 && b.b - b.t >= 1.0, "{width}: k{:02} bar {}", i + 1, at(b));
            assert!(
                b.l >= svg.l - 0.5 && b.r <= svg.r + 0.5 && b.b <= svg.b + 0.5,
                "{width}: k{:02} {} in {}",
                i + 1,
                at(b),
                at(&svg)
            );
        }
        for w in bars.windows(2) {
            assert!(w[1].t >= w[0].b, "{width}: lanes overlap: {} then {}", at(&w[0]), at(&w[1]));
        }
        let k15 = rect_of(&lab.el(&format!("#timeline-svg .lane[data-key='{}']", key(15))));
        assert!(k15.t >= fold_top - 0.5, "{width}: k15 at {} above the fold's {fold_top}", k15.t);
        motionless(&lab).await;
        assert_legible(&lab, &format!("20 opened key lanes at {width}"));
        lab.unmount();
    }
}
