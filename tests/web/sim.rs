//! The simulation controls, the settings and the etcd view.

use super::*;

#[wasm_bindgen_test]
async fn simulation_update_delete_and_compact_below_the_cache_window() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await; // pod-1..3 at revisions 2, 3, 4
    lab.input("#sim-count", "2").await;
    lab.click("#sim-update").await; // pod-1, pod-2 at 5, 6
    let log = lab.log();
    assert_eq!(log.len(), 5);
    assert!(log[3].starts_with("PUT /api/v1/namespaces/default/pods/pod-1 "), "{}", log[3]);
    assert!(log[3].contains(r#""labels":{"touched":"4"}"#), "{}", log[3]);
    assert!(log[4].starts_with("PUT /api/v1/namespaces/default/pods/pod-2 "), "{}", log[4]);
    lab.input("#sim-count", "1").await;
    lab.click("#sim-delete").await;
    assert_eq!(lab.log()[5], "DELETE /api/v1/namespaces/default/pods/pod-1");
    // The caches started at revision 1 and have evicted nothing: their window starts at 1, so
    // "below the cache window" compacts to 1.
    assert_eq!(lab.el("#sim-compact-window").get_attribute("data-cmd").as_deref(), Some("compact 1"));
    lab.click("#sim-compact-window").await;
    assert_eq!(lab.log()[6], "compact 1");
    assert!(lab.el("#sim-compact-window").has_attribute("disabled"));
    lab.unmount();
}

/// The settings offer the feature gates of the release the sandbox runs (kube-apiserver's
/// `--feature-gates`, spec §C.7), each away from its default, and follow `set kubernetes`.
#[wasm_bindgen_test]
async fn the_settings_offer_the_feature_gates_of_the_running_release() {
    let lab = Lab::fresh().await;
    let options = |lab: &Lab| -> Vec<String> {
        lab.all("#set-feature-gates option").iter().filter_map(|o| o.get_attribute("value")).collect()
    };
    // 1.37, the default: its new alpha gate is offered on; ConsistentListFromCache is gone (removed
    // in 1.37) and WatchCacheInitializationPostStartHook is locked (GA), so neither is offered.
    let at_37 = options(&lab);
    assert!(at_37.contains(&"ConsistentListFromCacheSkipTimeoutFallback=true".to_string()), "{at_37:?}");
    assert!(at_37.contains(&"WatchList=false".to_string()), "{at_37:?}");
    assert!(!at_37.iter().any(|o| o.starts_with("ConsistentListFromCache=")), "{at_37:?}");
    assert!(!at_37.iter().any(|o| o.starts_with("WatchCacheInitializationPostStartHook=")), "{at_37:?}");
    lab.select("#set-feature-gates", "WatchList=false").await;
    lab.click("button[data-cmd='set feature-gates WatchList=false']").await;
    assert_eq!(lab.log().last().map(String::as_str), Some("set feature-gates WatchList=false"));
    // 1.30: ConsistentListFromCache is a beta gate, off by default there.
    lab.console("set kubernetes 1.30").await;
    let at_30 = options(&lab);
    assert!(at_30.contains(&"ConsistentListFromCache=true".to_string()), "{at_30:?}");
    assert!(!at_30.iter().any(|o| o.starts_with("ConsistentListFromCacheSkipTimeoutFallback=")), "{at_30:?}");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn simulation_controls_append_their_lines() {
    let lab = Lab::fresh().await;
    lab.click("button[data-cmd='advance 1m']").await;
    lab.input("#sim-compact-rev", "7").await;
    lab.click("#sim-compact").await;
    lab.input("#sim-count", "2").await;
    lab.click("#sim-create").await;
    lab.select("#set-watch-cache", "off").await;
    lab.click("button[data-cmd='set watch-cache off']").await;
    lab.input("#set-cache-lag", "3s").await;
    lab.click("button[data-cmd='set cache.lag 3s']").await;
    lab.input("#sim-apiserver", "2").await;
    lab.click("#sim-route").await;
    lab.click("#sim-restart").await;
    lab.click("#etcd-read").await;
    let log = lab.log();
    assert_eq!(log[0], "advance 1m");
    assert_eq!(log[1], "compact 7");
    assert!(
        log[2].starts_with(
            r#"POST /api/v1/namespaces/default/pods {"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-1""#
        ),
        "{}",
        log[2]
    );
    assert!(log[3].contains(r#""name":"pod-2""#));
    assert_eq!(
        &log[4..],
        &[
            "set watch-cache off",
            "set cache.lag 3s",
            "apiserver 2",
            "restart apiserver 2",
            "etcd get /registry/ --prefix"
        ]
    );
    lab.select("#sim-informer-mode", "streaming").await;
    lab.click("#sim-informer-start").await;
    lab.click("#sim-informer-show").await;
    lab.click("#sim-informer-stop").await;
    assert_eq!(
        &lab.log()[9..],
        &["informer start inf1 pods mode=streaming", "informer show inf1", "informer stop inf1"]
    );
    // The next batch continues the numbering.
    lab.click("#sim-create").await;
    assert!(lab.log()[12].contains(r#""name":"pod-3""#), "{:?}", lab.log());
    lab.unmount();
}
