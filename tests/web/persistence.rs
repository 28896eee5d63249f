//! Undo, redo, reset, saving, restoring and importing the sandbox.

use super::*;

#[wasm_bindgen_test]
async fn undo_redo_and_reset() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    lab.click("#undo").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    assert_eq!(lab.saved().await["redo"], json!(["advance 2s"]));
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.click("#reset").await;
    assert!(lab.log().is_empty());
    assert_eq!(lab.saved().await["log"], json!([]));
    // Reset is undoable: Redo brings the lines back in order.
    lab.click("#redo").await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    // A new line clears the redo stack.
    lab.console("advance 5m").await;
    assert!(lab.el("#redo").dyn_into::<web_sys::HtmlButtonElement>().unwrap().disabled());
    lab.unmount();
}

#[wasm_bindgen_test]
async fn ctrl_z_and_ctrl_y_undo_and_redo_outside_text_fields() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    // In a text field Ctrl+Z belongs to the field.
    ctrl_key("z", &lab.el("#console-input"));
    flush().await;
    assert_eq!(lab.log().len(), 2);
    ctrl_key("z", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s"]);
    ctrl_key("y", &lab.el("#title"));
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn log_is_saved_and_restored_on_reload() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 10s"]).await;
    assert_eq!(lab.saved().await["log"], json!(["advance 1s", "advance 10s"]));
    lab.unmount();
    let again = Lab::mount().await;
    assert_eq!(again.log(), vec!["advance 1s", "advance 10s"]);
    assert!(again.text(".resp-line").contains("advance 10s"));
    again.unmount();
}

#[wasm_bindgen_test]
async fn malformed_saved_data_gives_an_empty_sandbox_and_a_message() {
    storage().set_item(STORAGE_KEY, "{not json").unwrap();
    let lab = Lab::mount().await;
    assert!(lab.log().is_empty());
    assert!(lab.text("#notice").contains("could not be read"), "{}", lab.text("#notice"));
    lab.click("#notice button").await;
    assert!(lab.q("#notice").is_none());
    lab.unmount();

    storage().set_item(STORAGE_KEY, r#"{"log":[1,2]}"#).unwrap();
    let lab = Lab::mount().await;
    assert!(lab.log().is_empty());
    assert!(lab.q("#notice").is_some());
    lab.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_full_storage_is_reported_not_silent() {
    let lab = Lab::fresh().await;
    // Fill localStorage to its quota with filler items.
    let chunk = "x".repeat(512 * 1024);
    let mut n = 0;
    while storage().set_item(&format!("rvlab.test.filler.{n}"), &chunk).is_ok() {
        n += 1;
        assert!(n < 200, "localStorage never filled up");
    }
    let small = "y".repeat(1024);
    let mut m = 0;
    while storage().set_item(&format!("rvlab.test.small.{m}"), &small).is_ok() {
        m += 1;
    }
    lab.console(&format!("# {}", "z".repeat(4096))).await;
    idle_saved().await;
    let notice = lab.text("#notice");
    for i in 0..n {
        storage().remove_item(&format!("rvlab.test.filler.{i}")).unwrap();
    }
    for i in 0..m {
        storage().remove_item(&format!("rvlab.test.small.{i}")).unwrap();
    }
    assert!(notice.contains("not being saved"), "{notice}");
    assert!(lab.el("#notice").get_attribute("role").as_deref() == Some("alert"));
    // With room again, the next line is saved and the warning goes away.
    lab.console("advance 1s").await;
    idle_saved().await;
    assert!(lab.q("#notice").is_none());
    assert_eq!(lab.saved().await["log"].as_array().unwrap().len(), 2);
    lab.unmount();
}

/// Chooses a file `name` holding `text` in the import button's file input (its `change` event).
pub(crate) fn choose_import_file(lab: &Lab, name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let file = web_sys::File::new_with_str_sequence(&parts, name).unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: HtmlInputElement = lab.el("#import-file").dyn_into().unwrap();
    input.set_files(dt.files().as_ref());
    fire(&input, "change");
}

#[wasm_bindgen_test]
async fn import_replaces_the_sandbox_with_the_file_lines() {
    let lab = Lab::fresh().await;
    lab.console("advance 1s").await;
    choose_import_file(&lab, "s.txt", "# imported\nadvance 1m\nadvance 5m\n");
    // FileReader is asynchronous: wait for it (bounded), not for wall-clock time.
    for _ in 0..200 {
        flush().await;
        if lab.log().len() == 3 {
            break;
        }
    }
    assert_eq!(lab.log(), vec!["# imported", "advance 1m", "advance 5m"]);
    assert!(lab.text("#notice").contains("Imported 3 lines"));
    lab.unmount();
}

#[wasm_bindgen_test]
fn export_text_is_the_log_one_line_each() {
    assert_eq!(rvlab::ui::model::script_text(&["a".into(), "b".into()]), "a\nb\n");
}
