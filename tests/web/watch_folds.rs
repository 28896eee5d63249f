//! The timeline's folded watches: beyond eight watches, the rest are counted in one summary row
//! per apiserver, and that summary is a button (a click, or Enter on it among the marks) that
//! gives each watch it counts its row again: a watch that does not fit is behind a visible
//! count that opens it, never dropped.

use super::*;

/// The ids of the watch rows drawn, in order.
fn watch_ids(lab: &Lab) -> Vec<String> {
    lab.all("#timeline-svg .watch-row[data-watch]")
        .iter()
        .map(|e| e.get_attribute("data-watch").unwrap())
        .collect()
}

/// (apiserver, count) of each summary row.
fn summaries(lab: &Lab) -> Vec<(String, String)> {
    lab.all("#timeline-svg [data-kind='watch-summary']")
        .iter()
        .map(|e| (e.get_attribute("data-apiserver").unwrap(), e.get_attribute("data-count").unwrap()))
        .collect()
}

/// Twelve watches on two apiservers (w1 on 1, w2 on 2, …): five rows and two summaries (w6, w8,
/// w10, w12 on apiserver 2; w7, w9, w11 on 1). Clicking apiserver 2's summary draws w6, w8,
/// w10 and w12; Enter on apiserver 1's (a button among the marks) draws the rest, and nothing
/// is counted any more; at 1280 and 390 px, and every label still legible.
#[wasm_bindgen_test]
async fn a_folded_watch_summary_opens_the_watches_it_counts() {
    let mut lines = vec!["set apiservers 2".to_string(), CM_A.to_string()];
    for i in 0..12 {
        lines.push(format!("apiserver {}", i % 2 + 1));
        lines.push("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2".to_string());
    }
    let script = lines.join("\n");
    let ids = |ns: &[usize]| ns.iter().map(|n| format!("w{n}")).collect::<Vec<_>>();
    for width in [1280, 390] {
        let lab =
            Lab::sized_as(width, &format!("?lang=en&embed=1&motion=reduce&script={}", query_value(&script)))
                .await;
        settle().await;
        assert_eq!(watch_ids(&lab), ids(&[1, 2, 3, 4, 5]), "{width}");
        let two = |a: &str, n: &str| (a.to_string(), n.to_string());
        assert_eq!(summaries(&lab), [two("1", "3"), two("2", "4")], "{width}");
        let summary = lab.el("#timeline-svg [data-kind='watch-summary'][data-apiserver='2']");
        assert_eq!(summary.get_attribute("role").as_deref(), Some("button"));
        assert_eq!(summary.get_attribute("aria-expanded").as_deref(), Some("false"));
        assert!(summary.has_attribute("data-nav"), "reachable among the marks by keyboard");
        let said = summary.get_attribute("aria-label").unwrap();
        assert!(said.contains("apiserver 2") && said.contains("show them"), "{said}");

        fire(&summary, "click");
        settle().await;
        assert_eq!(watch_ids(&lab), ids(&[1, 2, 3, 4, 5, 6, 8, 10, 12]), "{width}");
        let on_two: Vec<String> = lab
            .all("#timeline-svg .watch-row[data-watch][data-apiserver='2']")
            .iter()
            .map(|e| e.get_attribute("data-watch").unwrap())
            .collect();
        assert_eq!(on_two, ids(&[2, 4, 6, 8, 10, 12]), "{width}");
        assert_eq!(summaries(&lab), [two("1", "3")], "{width}");

        let summary = lab.el("#timeline-svg [data-kind='watch-summary'][data-apiserver='1']");
        key_on(&summary, "Enter");
        settle().await;
        assert_eq!(watch_ids(&lab), ids(&(1..=12).collect::<Vec<_>>()), "{width}");
        assert!(summaries(&lab).is_empty(), "{width}: {:?}", summaries(&lab));
        motionless(&lab).await;
        assert_legible(&lab, &format!("12 opened watches at {width}"));
        lab.unmount();
    }
}
