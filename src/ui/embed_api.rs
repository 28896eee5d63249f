//! The commands an embed takes from the page around it (the `<rv-playground>` element's `run()`):
//! `{type: "rvlab:hello"}` and `{type: "rvlab:run", id, script}`, from the parent window only.
//! A run appends the script's lines to the embed's log as its console would (blank lines
//! dropped) and wherever the scrubber is, within `script::batch`'s limits (the same object as
//! `Lab.run` for a script over them); each line's output goes to the page as it runs
//! ([`super::embed_port::ran`]), then the answer `{type: "rvlab:result", id, outputs}`. Anything
//! else from the parent gets `{type: "rvlab:error", id, message}` and changes nothing. What a
//! message says is decided in `crate::embed::message` (host-compiled, fuzzed). The messages are
//! documented in `site/src/reference/embedding-api.md`.

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::browser::{Listener, On};
use super::embed_port::{self, message, post};
use super::state::{Action, LabHandle};
use crate::embed::message::{self as decode, Command};
use crate::embed::{READ_ONLY, text_of, to_js};
use crate::script::batch::{self, Size};

/// The `id` of a message: a string or a finite number, else `null`.
fn id_of(data: &JsValue) -> JsValue {
    decode::id_of(data).unwrap_or(JsValue::NULL)
}

fn reply_error(id: JsValue, text: &str, origin: &str) {
    post(&message("rvlab:error", &[("id", &id), ("message", &text.into())]), origin);
}

/// Runs `script` as the console would; the outputs of the lines that ran.
fn run(lab: &LabHandle, script: &JsValue) -> Array {
    let out = Array::new();
    let next = lab.entries.len() + 1;
    let text = match text_of(script).and_then(|t| Size::of(&t).check().map(|()| t)) {
        Ok(t) => t,
        Err(r) => {
            out.push(&to_js(&batch::refusal_output(next, &r)));
            return out;
        }
    };
    let before = lab.entries.len();
    // Appended at the end and run at once (the reducer runs an action as it is dispatched).
    lab.dispatch(Action::Append(super::lines::split_script(&text)));
    for e in lab.entries.iter().skip(before) {
        if let Some(o) = e.out.as_deref() {
            out.push(&to_js(o));
        }
    }
    out
}

fn on_message(lab: &LabHandle, e: web_sys::Event) {
    let Ok(e) = e.dyn_into::<web_sys::MessageEvent>() else { return };
    let Some(parent) = embed_port::parent() else { return };
    // Only the page this embed is in may drive it.
    if e.source().map(JsValue::from) != Some(JsValue::from(parent)) {
        return;
    }
    let origin = e.origin();
    let data = e.data();
    match decode::command(&data) {
        Err(text) => reply_error(id_of_any(&data), &text, &origin),
        Ok(Command::Hello) => {
            embed_port::connect(&origin);
            let next = lab.entries.len() + 1;
            post(&message("rvlab:hello", &[("nextLine", &JsValue::from(next as f64))]), &origin);
            for o in lab.entries.iter().filter_map(|e| e.out.as_deref()) {
                embed_port::ran(None, o);
            }
        }
        Ok(Command::Run { id, script }) => {
            let id = id.unwrap_or(JsValue::NULL);
            let script = script.unwrap_or(JsValue::UNDEFINED);
            embed_port::connect(&origin);
            if lab.readonly {
                reply_error(id, READ_ONLY, &origin);
                return;
            }
            let outputs = run(lab, &script);
            post(&message("rvlab:result", &[("id", &id), ("outputs", &outputs)]), &origin);
        }
    }
}

/// [`id_of`] of a message that may not be an object.
fn id_of_any(data: &JsValue) -> JsValue {
    if data.is_object() { id_of(data) } else { JsValue::NULL }
}

/// The runner a mounted embed's element calls for `run()`: the same run as a framed embed's
/// `rvlab:run`, its refusal the same text as `rvlab:error`'s.
fn runner(lab: &LabHandle) -> embed_port::Runner {
    let lab = lab.clone();
    std::rc::Rc::new(move |script: &JsValue| {
        if lab.readonly {
            return Err(READ_ONLY.to_string());
        }
        Ok(run(&lab, script))
    })
}

/// In an embed framed by a page: takes the page's commands until unmounted, and says
/// `{type: "rvlab:ready"}` once mounted. The listener is made again whenever the sandbox changes
/// (a handle keeps every state it has read, so one kept for the app's lifetime would keep them
/// all). In an embed mounted in the page (`host`), the element's `run()` calls the runner of
/// the sandbox as it is now, and the element hears once that the embed is ready, after the
/// outputs of the lines it started with (as a framed embed sends them on `rvlab:hello`).
#[hook]
pub fn use_embed_api(embed: bool, host: Option<std::rc::Rc<embed_port::Host>>, lab: &LabHandle) {
    {
        let lab = lab.clone();
        use_effect_with((host.clone(), lab.stamp), move |(host, _)| {
            if let Some(h) = host {
                h.set_runner(Some(runner(&lab)));
            }
        });
    }
    {
        let lab = lab.clone();
        use_effect_with(host.clone(), move |host| {
            if let Some(h) = host {
                for o in lab.entries.iter().filter_map(|e| e.out.as_deref()) {
                    h.output(o);
                }
                h.ready();
            }
            let host = host.clone();
            move || {
                if let Some(h) = host {
                    h.set_runner(None);
                }
            }
        });
    }
    let framed = *use_memo(embed, |e| *e && embed_port::parent().is_some());
    {
        let lab = lab.clone();
        use_effect_with((framed, lab.stamp), move |(framed, _)| {
            let listener = framed.then(|| Listener::new(On::Window, "message", move |e| on_message(&lab, e)));
            move || drop(listener)
        });
    }
    use_effect_with(framed, |framed| {
        if *framed {
            post(&message("rvlab:ready", &[]), "*");
        }
    });
}
