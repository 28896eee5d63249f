//! Actions that need the real engine behind `Session`.

use super::*;

/// Creates objects named `names` through the builder.
pub(crate) async fn create_pods(lab: &Lab, names: &[&str]) {
    lab.select("#rb-verb", "create").await;
    for n in names {
        lab.input("#rb-name", n).await;
        lab.click("#send").await;
        assert!(lab.text("#status").starts_with("201"), "create {n}: {}", lab.text("#response"));
    }
}

#[wasm_bindgen_test]
async fn engine_a_create_shows_up_in_a_list() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.select("#rb-verb", "list").await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    assert!(lab.text("#list-summary").contains("default/a"), "{}", lab.text("#response"));
    // The revision is now offered by the resourceVersion picker.
    lab.select("#rb-rv-pick", "2").await;
    assert!(lab.request_line().contains("resourceVersion=2"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_a_stale_update_is_a_409_one_click_later() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.select("#rb-verb", "update").await;
    // The body editor holds the object from the create response (RV 2).
    let body = lab.el("#rb-body").dyn_into::<HtmlTextAreaElement>().unwrap().value();
    assert!(body.contains("\"resourceVersion\": \"2\""), "{body}");
    // An update must change something: an identical object is a no-op that keeps RV 2 (§B).
    lab.input("#rb-body", &body.replace("\"nginx\"", "\"nginx:1.27\"")).await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK", "{}", lab.text("#response"));
    lab.click("#send").await;
    assert!(lab.text("#status").starts_with("409 Conflict"), "{}", lab.text("#response"));
    assert!(lab.text("#status-error").contains("Conflict"));
    // Loading the latest object makes the update go through again.
    lab.click("#rb-fill").await;
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_paginate_with_the_continue_picker() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await;
    lab.select("#rb-verb", "list").await;
    lab.input("#rb-limit", "1").await;
    lab.click("#send").await;
    assert!(lab.text("#list-summary").contains("pod-1"), "{}", lab.text("#response"));
    assert!(lab.text("#continue-decoded").contains(r#""rv":4"#), "{}", lab.text("#continue-decoded"));
    let options = lab.all("#rb-continue-pick option");
    assert_eq!(options.len(), 2, "one token seen");
    let token = options[1].get_attribute("value").unwrap();
    lab.select("#rb-continue-pick", &token).await;
    assert!(lab.request_line().ends_with(&format!("limit=1&continue={token}")));
    assert!(
        lab.text("#rb-continue-decoded").contains(r#""start":"pod-1\u0000""#),
        "{}",
        lab.text("#rb-continue-decoded")
    );
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK");
    assert!(lab.text("#list-summary").contains("pod-2"), "{}", lab.text("#response"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_compaction_then_continue_is_410_with_an_inconsistent_token() {
    let lab = Lab::fresh().await;
    lab.input("#sim-count", "3").await;
    lab.click("#sim-create").await; // revisions 2, 3, 4
    lab.select("#rb-verb", "list").await;
    lab.input("#rb-limit", "1").await;
    lab.click("#send").await; // list RV 4, token rv 4
    let token = lab.all("#rb-continue-pick option")[1].get_attribute("value").unwrap();
    lab.input("#sim-count", "1").await;
    lab.click("#sim-create").await; // revision 5
    lab.input("#sim-compact-rev", "5").await;
    lab.click("#sim-compact").await;
    lab.select("#rb-continue-pick", &token).await;
    lab.click("#send").await;
    assert!(lab.text("#status").starts_with("410 Gone — Expired"), "{}", lab.text("#response"));
    assert!(lab.text("#status-error").contains("Expired"));
    assert!(lab.text("#continue-decoded").contains(r#""rv":-1"#), "{}", lab.text("#response"));
    // One click puts the inconsistent token in the builder; it reads the rest at the current revision.
    lab.click("#continue-decoded button.use-token").await;
    assert!(lab.text("#rb-continue-decoded").contains(r#""rv":-1"#), "{}", lab.text("#rb-continue-decoded"));
    lab.click("#send").await;
    assert_eq!(lab.text("#status"), "200 OK", "{}", lab.text("#response"));
    assert!(lab.text("#list-summary").contains("list RV 5"), "{}", lab.text("#list-summary"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_undo_redo_and_reload_replay_the_engine() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.console("GET /api/v1/namespaces/default/pods").await;
    assert!(lab.text("#list-summary").contains("1 item "));
    lab.click("#undo").await;
    lab.click("#undo").await;
    assert!(lab.log().is_empty());
    // The engine was rebuilt from the (empty) log: the pod is gone.
    lab.console("GET /api/v1/namespaces/default/pods").await;
    assert!(lab.text("#list-summary").contains("0 items"), "{}", lab.text("#response"));
    lab.unmount();

    let lab = Lab::fresh().await;
    create_pods(&lab, &["a", "b"]).await;
    lab.console("GET /api/v1/namespaces/default/pods").await;
    lab.click("#undo").await;
    lab.click("#undo").await;
    lab.click("#redo").await;
    lab.click("#redo").await;
    assert!(lab.text("#list-summary").contains("2 items"), "{}", lab.text("#response"));
    lab.unmount();
    let again = Lab::mount().await;
    assert!(again.text("#list-summary").contains("2 items"), "restored: {}", again.text("#response"));
    again.unmount();
}

#[wasm_bindgen_test]
async fn engine_pasted_script_runs_against_the_engine() {
    let lab = Lab::fresh().await;
    paste(
        &lab.el("#console-input"),
        "POST /api/v1/namespaces/default/configmaps {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\nGET /api/v1/namespaces/default/configmaps\n",
    );
    flush().await;
    assert_eq!(lab.log().len(), 2);
    assert!(lab.text("#list-summary").contains("default/a"), "{}", lab.text("#response"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_watch_frames_show_in_the_watches_panel() {
    let lab = Lab::fresh().await;
    lab.select("#rb-verb", "watch").await;
    lab.click("#send").await;
    assert!(lab.q("li.watch[data-watch='w1']").is_some(), "{}", lab.text("#response"));
    create_pods(&lab, &["a"]).await;
    lab.click("button[data-cmd='events w1']").await;
    let frames = lab.text("li.watch[data-watch='w1'] table");
    assert!(frames.contains("ADDED") && frames.contains("a"), "{frames}");
    lab.click("button[data-cmd='cancel w1']").await;
    assert!(lab.text("li.watch[data-watch='w1'] .badge").contains("cancelled"));
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_explain_toggle_is_a_set_line_and_shows_the_reason() {
    let lab = Lab::fresh().await;
    lab.check("#explain-toggle", true).await;
    assert_eq!(lab.log(), vec!["set explain on"]);
    lab.click("#send").await;
    assert!(!lab.text("#explain").is_empty(), "{}", lab.text("#response"));
    assert!(lab.el("#explain-toggle").dyn_into::<HtmlInputElement>().unwrap().checked());
    lab.check("#explain-toggle", false).await;
    assert_eq!(lab.log().last().unwrap(), "set explain off");
    lab.click("#send").await;
    assert!(lab.q("#explain").is_none());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn engine_etcd_view_shows_keys() {
    let lab = Lab::fresh().await;
    create_pods(&lab, &["a"]).await;
    lab.click("#etcd-read").await;
    assert!(lab.text("#etcd-kvs").contains("/registry/pods/default/a"), "{}", lab.text("#etcd"));
    lab.unmount();
}
