//! The Yew app (wasm32 only): the playground shell — request form, console and response pane.
//! It reaches the engine only through the crate's public API.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the response pane shows.
#[derive(Clone, PartialEq)]
enum Pane {
    Empty,
    Error(String),
    Output(String),
}

#[function_component(App)]
pub fn app() -> Html {
    let line = use_state(String::new);
    let pane = use_state(|| Pane::Empty);

    let on_input = {
        let line = line.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            line.set(input.value());
        })
    };
    let on_submit = {
        let line = line.clone();
        let pane = pane.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = line.trim();
            if text.is_empty() {
                pane.set(Pane::Error(
                    "Enter a request line, e.g. GET /api/v1/namespaces/default/pods".into(),
                ));
            } else {
                pane.set(Pane::Output(format!("> {text}")));
            }
        })
    };

    let response = match &*pane {
        Pane::Empty => html! { <p class="empty">{ "No request sent yet. Build a request and press Send." }</p> },
        Pane::Error(msg) => html! { <p class="error" role="alert">{ msg.clone() }</p> },
        Pane::Output(text) => html! { <pre class="output">{ text.clone() }</pre> },
    };

    html! {
        <div class="app">
            <header class="top">
                <h1 id="title">{ "rvlab" }</h1>
                <span class="tagline">{ "how Kubernetes resourceVersion really works" }</span>
            </header>
            <main class="panes">
                <section class="request" aria-label="Request">
                    <h2>{ "Request" }</h2>
                    <form id="request-form" onsubmit={on_submit}>
                        <input id="request-line" type="text" spellcheck="false"
                            placeholder="GET /api/v1/namespaces/default/pods?limit=2"
                            value={(*line).clone()} oninput={on_input} />
                        <button id="send" type="submit">{ "Send" }</button>
                    </form>
                </section>
                <section class="response" aria-label="Response" aria-live="polite">
                    <h2>{ "Response" }</h2>
                    <div id="response">{ response }</div>
                </section>
            </main>
            <footer class="foot">{ format!("rvlab {}", crate::VERSION) }</footer>
        </div>
    }
}

/// Mounts the app on the page body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
