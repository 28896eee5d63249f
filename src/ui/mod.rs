//! The Yew app (wasm32 only): the playground — request builder, console, response viewer,
//! watches, simulation controls and the etcd view. Everything a person does becomes a script
//! line appended to one log ([`state::Lab`]); the engine is reached only through
//! `rvlab::script::Session` and its JSON output objects.

pub mod builder;
pub mod console;
pub mod lines;
pub mod response;
pub mod sim;
pub mod state;
pub mod watches;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use state::{Action, Lab, Notice};

/// The handle every panel gets from context.
pub type LabHandle = UseReducerHandle<Lab>;

/// The request builder's form, shared so other panels can fill it (e.g. "use this token").
pub type SpecHandle = UseStateHandle<lines::RequestSpec>;

/// The file name of an exported script.
pub const EXPORT_NAME: &str = "rvlab-script.txt";

/// The log as a script file.
pub fn script_text(log: &[String]) -> String {
    let mut s = log.join("\n");
    s.push('\n');
    s
}

fn download(name: &str, text: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| state::js_text(&e);
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(err)?;
    Ok(())
}

#[derive(Properties, PartialEq)]
struct ToolbarProps {
    importing: bool,
    on_import: Callback<()>,
}

#[function_component(Toolbar)]
fn toolbar(p: &ToolbarProps) -> Html {
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let act = |a: fn() -> Action| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(a()))
    };
    let on_export = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            if let Err(e) = download(EXPORT_NAME, &script_text(&lab.log())) {
                lab.dispatch(Action::Notify(Notice { error: true, text: format!("Export failed: {e}") }));
            }
        })
    };
    let on_import = {
        let cb = p.on_import.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let n = lab.entries.len();
    html! {
        <nav class="toolbar" aria-label="Sandbox">
            <button id="undo" type="button" disabled={n == 0} onclick={act(|| Action::Undo)}
                title="Undo the last line (Ctrl+Z outside text fields)">{ "Undo" }</button>
            <button id="redo" type="button" disabled={lab.redo.is_empty()} onclick={act(|| Action::Redo)}
                title="Redo (Ctrl+Y outside text fields)">{ format!("Redo{}", if lab.redo.is_empty() { String::new() } else { format!(" ({})", lab.redo.len()) }) }</button>
            <button id="reset" type="button" disabled={n == 0} onclick={act(|| Action::Reset)}
                title="Start an empty sandbox (Redo brings the lines back one by one)">{ "Reset" }</button>
            <button id="export" type="button" disabled={n == 0} onclick={on_export}
                title="Download the log as a script">{ "Export" }</button>
            <button id="import" type="button" disabled={p.importing} onclick={on_import}
                title="Load a script file: it replaces the sandbox">{ if p.importing { "Importing…" } else { "Import" } }</button>
        </nav>
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let lab = use_reducer(Lab::restore);
    let spec = use_state(lines::RequestSpec::default);
    let importing = use_state(|| false);
    let file_ref = use_node_ref();

    let on_import_click = {
        let file_ref = file_ref.clone();
        Callback::from(move |_| {
            if let Some(input) = file_ref.cast::<web_sys::HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_file = {
        let lab = lab.clone();
        let importing = importing.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            read_script(file, lab.clone(), importing.clone());
        })
    };
    // Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z) undo and redo, except while typing in a field.
    let on_key = {
        let lab = lab.clone();
        Callback::from(move |e: KeyboardEvent| {
            if !(e.ctrl_key() || e.meta_key()) {
                return;
            }
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
            if typing {
                return;
            }
            match e.key().to_lowercase().as_str() {
                "z" if e.shift_key() => lab.dispatch(Action::Redo),
                "z" => lab.dispatch(Action::Undo),
                "y" => lab.dispatch(Action::Redo),
                _ => return,
            }
            e.prevent_default();
        })
    };

    let notice = lab.notice.clone().map(|n| {
        let lab = lab.clone();
        let dismiss = Callback::from(move |_: MouseEvent| lab.dispatch(Action::DismissNotice));
        html! {
            <div id="notice" class={classes!("notice", n.error.then_some("err"))} role={if n.error { "alert" } else { "status" }}>
                <span>{ n.text }</span>
                <button type="button" class="small" aria-label="Dismiss" onclick={dismiss}>{ "×" }</button>
            </div>
        }
    });

    html! {
        <ContextProvider<LabHandle> context={lab.clone()}>
        <ContextProvider<SpecHandle> context={spec}>
            <div class="app" onkeydown={on_key}>
                <header class="top">
                    <h1 id="title">{ "rvlab" }</h1>
                    <span class="tagline">{ "how Kubernetes resourceVersion really works" }</span>
                    <Toolbar importing={*importing} on_import={on_import_click} />
                    <input id="import-file" ref={file_ref} type="file" accept=".txt,.rvlab,text/plain"
                        class="visually-hidden" tabindex="-1" aria-hidden="true" onchange={on_file} />
                </header>
                { for notice }
                <main class="panes">
                    <div class="col col-build">
                        <builder::RequestBuilder />
                        <sim::SimControls />
                    </div>
                    <div class="col col-log">
                        <console::Console />
                    </div>
                    <div class="col col-view">
                        <response::ResponseView />
                        <watches::Watches />
                        <sim::EtcdView />
                    </div>
                </main>
                <footer class="foot">{ format!("rvlab {} · every action is a script line: Export gives you the script", crate::VERSION) }</footer>
            </div>
        </ContextProvider<SpecHandle>>
        </ContextProvider<LabHandle>>
    }
}

/// Reads an imported script file and loads it (replacing the sandbox); errors become a notice.
fn read_script(file: web_sys::File, lab: LabHandle, importing: UseStateHandle<bool>) {
    let reader = match web_sys::FileReader::new() {
        Ok(r) => r,
        Err(e) => {
            lab.dispatch(Action::Notify(Notice {
                error: true,
                text: format!("Import failed: {}", state::js_text(&e)),
            }));
            return;
        }
    };
    importing.set(true);
    let fail = lab.clone();
    let r2 = reader.clone();
    let onloadend = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        importing.set(false);
        match r2.result().ok().and_then(|v| v.as_string()) {
            Some(text) if r2.error().is_none() => {
                let ls = lines::split_script(&text);
                if ls.is_empty() {
                    lab.dispatch(Action::Notify(Notice {
                        error: true,
                        text: "Import: the file holds no script lines.".into(),
                    }));
                } else {
                    lab.dispatch(Action::Load(ls));
                }
            }
            _ => {
                let why = r2.error().map(|e| e.message()).unwrap_or_else(|| "unreadable file".into());
                lab.dispatch(Action::Notify(Notice { error: true, text: format!("Import failed: {why}") }));
            }
        }
    });
    reader.set_onloadend(Some(onloadend.unchecked_ref()));
    if let Err(e) = reader.read_as_text(&file) {
        fail.dispatch(Action::Notify(Notice { error: true, text: format!("Import failed: {}", state::js_text(&e)) }));
    }
}

/// Mounts the app on the page body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
