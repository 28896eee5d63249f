//! "Why?" in both languages, from the typed decisions.

use super::*;

/// The rendering of an expected typed decision (`why`) in `lang`: the one function the UI uses.
pub(crate) fn rendered(expected: serde_json::Value, lang: why::Lang) -> String {
    let w = why::OutputWhy::from_json(&expected).expect("a typed decision");
    why::render(&w, lang)
}

/// `#explain` as its paragraphs.
pub(crate) fn explain_paragraphs(lab: &Lab) -> Vec<String> {
    lab.all("#explain p").iter().map(|p| p.text_content().unwrap_or_default()).collect()
}

/// Selects log line `n`, then checks that "Why?" shows the rendering of `expected` in English and
/// in 中文 (switching the UI language, and back).
pub(crate) async fn why_of_line_is(lab: &Lab, n: usize, expected: &serde_json::Value) {
    lab.select("#lang", "en").await;
    lab.click(&format!("#log li[data-line='{n}'] button")).await;
    assert_eq!(explain_paragraphs(lab), vec![rendered(expected.clone(), why::Lang::En)], "line {n}");
    assert!(lab.q("#why #explain").is_some(), "#explain sits inside #why");
    lab.select("#lang", "zh").await;
    assert_eq!(explain_paragraphs(lab), vec![rendered(expected.clone(), why::Lang::Zh)], "line {n} in 中文");
    assert_eq!(lab.el("#explain").get_attribute("lang").as_deref(), Some("zh"));
    lab.select("#lang", "en").await;
}

pub(crate) fn zh() -> i18n::Tr {
    i18n::Tr(Lang::Zh)
}

pub(crate) fn en() -> i18n::Tr {
    i18n::Tr(Lang::En)
}

// Issue 13: a list with resourceVersion=3&limit=1 and no resourceVersionMatch is the legacy Exact
// rule (not NotOlderThan), and "Why?" says so in both languages.
#[wasm_bindgen_test]
async fn why_legacy_exact_list_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(&lab, &[CM_A, CM_B, "GET /api/v1/namespaces/default/configmaps?resourceVersion=3&limit=1"]).await;
    let expected = json!({"apiserver": 1, "verb": "list", "path": "cache-snapshot", "semantics": "LegacyExact",
        "rule": "exact-from-cache-snapshot", "rv": 3, "snapshotRv": 3, "revision": 3});
    why_of_line_is(&lab, 3, &expected).await;
    assert!(lab.text("#explain").contains("legacy Exact"), "{}", lab.text("#explain"));
    assert!(!lab.text("#why").contains("NotOlderThan"), "{}", lab.text("#why"));
    lab.unmount();
}

// A watch below the watch cache's history window ends with 410 — from the window, not from
// compaction — and both the output that read it and its ERROR frame say so.
#[wasm_bindgen_test]
async fn why_watch_cache_window_410_frame_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            "set cache.capacity 2",
            CM_A,
            CM_B,
            CM_C,
            CM_D,
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2",
            "events w1",
        ],
    )
    .await;
    let opened = json!({"apiserver": 1, "verb": "watch", "path": "watch-cache", "semantics": "Exact",
        "rule": "watch-from-cache-history", "outcome": "cache-window", "rv": 2, "cacheRv": 5, "oldestStartableRv": 3});
    why_of_line_is(&lab, 6, &opened).await;
    assert!(!lab.text("#why").contains("queues every change"), "{}", lab.text("#why"));
    let ended = json!({"apiserver": 1, "ended": "cache-window", "path": "watch-cache", "oldestStartableRv": 3, "rv": 2});
    why_of_line_is(&lab, 7, &ended).await;
    let frame = lines::Frame {
        kind: rvlab::apiserver::watch::FrameType::Error,
        name: String::new(),
        rv: String::new(),
        detail: "410 Expired".into(),
        watch_why: why::OutputWhy::from_json(&opened),
        ended_why: why::OutputWhy::from_json(&ended),
    };
    let frame_why = || lab.all("#response-events .why-frame p")[0].text_content().unwrap();
    assert_eq!(frame_why(), rvlab::ui::why::frame(en(), &frame));
    assert!(frame_why().contains("etcd's compaction has nothing to do with it"), "{}", frame_why());
    assert!(!frame_why().contains("typically its position was compacted"));
    let panel = || lab.all("li.watch[data-watch='w1'] .why-frame p")[0].text_content().unwrap();
    assert_eq!(panel(), rvlab::ui::why::frame(en(), &frame));
    lab.select("#lang", "zh").await;
    assert_eq!(frame_why(), rvlab::ui::why::frame(zh(), &frame));
    assert_eq!(panel(), rvlab::ui::why::frame(zh(), &frame));
    lab.unmount();
}

// The initial ADDED events of a resourceVersion=0 watch come in key order (a@3 before b@2); each
// frame's "Why?" carries the watch's own decision, which says key order, not "the numbers only
// grow".
#[wasm_bindgen_test]
async fn why_initial_events_come_in_key_order_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[CM_B, CM_A, "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0", "events w1"],
    )
    .await;
    let opened = json!({"apiserver": 1, "verb": "watch", "path": "watch-cache", "semantics": "SendInitialEvents",
        "rule": "watch-list-from-cache", "rv": 0, "cacheRv": 3, "initialEvents": 2, "startRv": 3,
        "endBookmark": false, "keyOrder": true});
    why_of_line_is(&lab, 3, &opened).await;
    lab.click("#log li[data-line='4'] button").await;
    let rows: Vec<String> =
        lab.all("#response-events tbody tr").iter().map(|r| r.text_content().unwrap()).collect();
    assert!(rows[0].starts_with("ADDEDa3") && rows[1].starts_with("ADDEDb2"), "{rows:?}");
    for (i, (name, rv)) in [("a", "3"), ("b", "2")].into_iter().enumerate() {
        let frame = lines::Frame {
            kind: rvlab::apiserver::watch::FrameType::Added,
            name: name.into(),
            rv: rv.into(),
            detail: String::new(),
            watch_why: why::OutputWhy::from_json(&opened),
            ended_why: None,
        };
        let shown = lab.all("#response-events .why-frame p")[i].text_content().unwrap();
        assert_eq!(shown, rvlab::ui::why::frame(en(), &frame));
        assert!(shown.contains("in key order"), "{shown}");
        assert!(!shown.contains("only grow"), "{shown}");
        lab.select("#lang", "zh").await;
        let shown = lab.all("#response-events .why-frame p")[i].text_content().unwrap();
        assert_eq!(shown, rvlab::ui::why::frame(zh(), &frame));
        lab.select("#lang", "en").await;
    }
    lab.unmount();
}

// Continuing with the rv -1 token a 410 offers is an inconsistent continuation (ContinueLatest),
// not "one consistent snapshot".
#[wasm_bindgen_test]
async fn why_rv_minus_one_continuation_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            CM_B,
            CM_A,
            CM_C,
            "compact 4",
            "GET /api/v1/namespaces/default/configmaps?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiYVx1MDAwMCJ9",
        ],
    )
    .await;
    let expected = json!({"apiserver": 1, "verb": "list", "path": "watch-cache", "semantics": "ContinueLatest",
        "rule": "consistent-read-from-cache", "rv": -1, "etcdRevision": 4, "cacheRv": 4, "revision": 4});
    why_of_line_is(&lab, 5, &expected).await;
    assert!(lab.text("#explain").contains("inconsistent continuation"), "{}", lab.text("#explain"));
    // The request's token, decoded by the apiserver's own decoder.
    assert_eq!(
        lab.text("#request-continue-decoded .decoded"),
        r#"= {"v":"meta.k8s.io/v1","rv":-1,"start":"a\u0000"}"#
    );
    lab.unmount();
}

// An informer line: "Why?" is its typed decisions, one paragraph each, in the UI language.
#[wasm_bindgen_test]
async fn why_informer_line_in_both_languages() {
    use rvlab::client::trace::{Decision, ListMode};
    let lab = Lab::empty().await;
    run_all(&lab, &[CM_A, "informer start inf configmaps ns=default mode=legacy"]).await;
    lab.click("#log li[data-line='2'] button").await;
    let decisions = [
        Decision::Start {
            collection: "/api/v1/namespaces/default/configmaps".into(),
            mode: ListMode::Legacy,
            apiservers: vec![1],
        },
        Decision::ListAny { rv: "0".into(), limit: 500 },
        Decision::Listed { rv: "0".into(), items: 1, list_rv: "2".into(), requests: 1 },
    ];
    let shown = explain_paragraphs(&lab);
    assert_eq!(shown.len(), 4, "{shown:?}");
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(shown[i], why::informer::render(d, why::Lang::En));
    }
    assert!(shown[3].starts_with("watch from 2 (timeoutSeconds="), "{}", shown[3]);
    assert!(!lab.text("#why").contains("changes the simulation's settings"), "{}", lab.text("#why"));
    lab.select("#lang", "zh").await;
    let shown = explain_paragraphs(&lab);
    for (i, d) in decisions.iter().enumerate() {
        assert_eq!(shown[i], why::informer::render(d, why::Lang::Zh));
    }
    assert!(shown[3].starts_with("从 2 开始 watch（timeoutSeconds="), "{}", shown[3]);
    lab.unmount();
}

// Outputs without a decision explain what kind of line they were; a watch's frames say what
// they are in the UI's language.
#[wasm_bindgen_test]
async fn why_explains_outputs_without_a_decision_and_frames_in_both_languages() {
    let lab = Lab::empty().await;
    run_all(
        &lab,
        &[
            CM_A,
            "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
            CM_B,
            "events w1",
            "advance 1s",
        ],
    )
    .await;
    lab.click("#log li[data-line='4'] button").await;
    assert_eq!(lab.text("#why-text"), en().t(K::WhyEventsRead));
    let frame_why = lab.all("li.watch[data-watch='w1'] .why-frame p");
    assert_eq!(frame_why.len(), 2);
    assert!(frame_why[1].text_content().unwrap().starts_with("ADDED “b”: the object is new to this watch"));
    lab.click("#log li[data-line='5'] button").await;
    assert_eq!(lab.text("#why-text"), en().t(K::WhyAdvance));
    assert!(lab.q("#explain").is_none(), "advance carries no decision");
    lab.select("#lang", "zh").await;
    assert_eq!(lab.text("#why-text"), zh().t(K::WhyAdvance));
    assert!(
        lab.all("li.watch[data-watch='w1'] .why-frame p")[1]
            .text_content()
            .unwrap()
            .starts_with("ADDED “b”：这个对象"),
        "{}",
        lab.text("li.watch")
    );
    assert!(lab.text("#why").contains(zh().t(K::Why)), "{}", lab.text("#why"));
    lab.unmount();
}
