//! Browser tests: the real app mounted in headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Lets Yew's scheduler run its pending renders.
async fn flush() {
    yew::platform::time::sleep(std::time::Duration::ZERO).await;
}

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

fn mount() -> web_sys::Element {
    let doc = document();
    let root = doc.create_element("div").expect("create root");
    doc.body().expect("body").append_child(&root).expect("append root");
    yew::Renderer::<rvlab::ui::App>::with_root(root.clone()).render();
    root
}

fn text_of(root: &web_sys::Element, selector: &str) -> String {
    root.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("{selector} not rendered"))
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn shell_renders_and_send_on_empty_form_shows_an_error() {
    let root = mount();
    flush().await;
    assert_eq!(text_of(&root, "#title"), "rvlab");
    assert!(text_of(&root, "#response").contains("No request sent yet"));
    let send: web_sys::HtmlElement = root
        .query_selector("#send").expect("selector").expect("send button")
        .dyn_into().expect("an HTML element");
    send.click();
    flush().await;
    assert!(text_of(&root, "#response").contains("Enter a request line"), "got {}", text_of(&root, "#response"));
}
