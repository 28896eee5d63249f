//! The console: Enter, history, pasted scripts, the log viewer.

use super::*;

#[wasm_bindgen_test]
async fn console_enter_runs_and_arrows_walk_history() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "# a comment", "advance 2s"]).await;
    assert_eq!(lab.log(), vec!["advance 1s", "# a comment", "advance 2s"]);
    let input: HtmlInputElement = lab.el("#console-input").dyn_into().unwrap();
    assert_eq!(input.value(), "", "the input is cleared after Enter");
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
    };
    input.dispatch_event(&key("ArrowUp")).unwrap();
    flush().await;
    assert_eq!(input.value(), "advance 2s");
    input.dispatch_event(&key("ArrowUp")).unwrap();
    input.dispatch_event(&key("ArrowUp")).unwrap();
    flush().await;
    assert_eq!(input.value(), "advance 1s");
    input.dispatch_event(&key("ArrowDown")).unwrap();
    flush().await;
    assert_eq!(input.value(), "# a comment");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn console_paste_of_a_script_runs_every_line() {
    let lab = Lab::fresh().await;
    paste(&lab.el("#console-input"), "advance 1s\n\n  advance 2s\r\n# done\n");
    flush().await;
    assert_eq!(lab.log(), vec!["advance 1s", "advance 2s", "# done"]);
    lab.unmount();
}

#[wasm_bindgen_test]
async fn clicking_a_log_entry_selects_it_in_the_viewer() {
    let lab = Lab::fresh().await;
    run_all(&lab, &["advance 1s", "advance 2s"]).await;
    assert!(lab.text(".resp-line").contains("advance 2s"));
    lab.click("#log li[data-line='1'] button").await;
    assert!(lab.text(".resp-line").contains("advance 1s"), "{}", lab.text(".resp-line"));
    assert!(lab.text(".resp-line").contains("not the latest"));
    lab.unmount();
}
