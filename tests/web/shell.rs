//! The shell, the request builder and the log (UI only).

use super::*;

#[wasm_bindgen_test]
async fn shell_renders_empty_states() {
    let lab = Lab::fresh().await;
    assert_eq!(lab.text("#title"), "rvlab");
    assert!(lab.text("#response").contains("No request sent yet"), "got {}", lab.text("#response"));
    assert!(lab.text("#log-empty").contains("Nothing has run yet"));
    assert!(lab.q("#watches-empty").is_some());
    assert!(lab.q("#etcd-empty").is_some());
    assert!(lab.q("#notice").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn send_appends_the_request_line_and_shows_its_output() {
    let lab = Lab::fresh().await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods");
    lab.click("#send").await;
    assert_eq!(lab.log(), vec!["GET /api/v1/namespaces/default/pods"]);
    assert!(lab.text("#response").contains("line 1"), "got {}", lab.text("#response"));
    assert!(lab.text("#response").contains("GET /api/v1/namespaces/default/pods"));
    assert!(lab.q("#log-empty").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_list_options_make_the_query() {
    let lab = Lab::fresh().await;
    lab.input("#rb-limit", "2").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods?limit=2");
    lab.select("#rb-rv-pick", "0").await;
    assert_eq!(lab.el("#rb-rv").dyn_into::<HtmlInputElement>().unwrap().value(), "0");
    lab.select("#rb-match", "NotOlderThan").await;
    lab.input("#rb-selector", "app=web").await;
    assert_eq!(
        lab.request_line(),
        "GET /api/v1/namespaces/default/pods?resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2&labelSelector=app%3Dweb"
    );
    assert_eq!(
        lab.text("#kubectl-line"),
        "kubectl get --raw '/api/v1/namespaces/default/pods?resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2&labelSelector=app%3Dweb'"
    );
    lab.check("#rb-allns", true).await;
    assert!(lab.request_line().starts_with("GET /api/v1/pods?"), "{}", lab.request_line());
    lab.check("#rb-allns", false).await;
    assert!(lab.request_line().starts_with("GET /api/v1/namespaces/default/pods?"));
    lab.select("#rb-resource", "configmaps").await;
    assert!(lab.request_line().starts_with("GET /api/v1/namespaces/default/configmaps?"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_watch_get_delete_lines() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "watch").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods?watch=true");
    lab.input("#rb-rv", "5").await;
    lab.check("#rb-bookmarks", true).await;
    lab.select("#rb-initial", "true").await;
    lab.input("#rb-timeout", "30").await;
    assert_eq!(
        lab.request_line(),
        "GET /api/v1/namespaces/default/pods?watch=true&resourceVersion=5&allowWatchBookmarks=true&sendInitialEvents=true&timeoutSeconds=30"
    );
    lab.select("#rb-verb", "get").await;
    lab.input("#rb-name", "a").await;
    assert_eq!(lab.request_line(), "GET /api/v1/namespaces/default/pods/a?resourceVersion=5");
    lab.select("#rb-verb", "delete").await;
    assert_eq!(lab.request_line(), "DELETE /api/v1/namespaces/default/pods/a");
    assert_eq!(lab.text("#kubectl-line"), "kubectl delete --raw '/api/v1/namespaces/default/pods/a'");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn builder_create_prefills_a_template_body() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "create").await;
    lab.input("#rb-name", "web-1").await;
    let body = lab.el("#rb-body").dyn_into::<HtmlTextAreaElement>().unwrap().value();
    let v: serde_json::Value = serde_json::from_str(&body).expect("template is JSON");
    assert_eq!(v["kind"], "Pod");
    assert_eq!(v["metadata"]["name"], "web-1");
    assert!(
        lab.request_line().starts_with(
            r#"POST /api/v1/namespaces/default/pods {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1""#
        ),
        "{}",
        lab.request_line()
    );
    // The body is editable; the line follows it.
    lab.input("#rb-body", r#"{"metadata":{"name":"x"}}"#).await;
    assert_eq!(lab.request_line(), r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"x"}}"#);
    lab.click("#send").await;
    assert_eq!(lab.log(), vec![r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"x"}}"#]);
    lab.unmount();
}
