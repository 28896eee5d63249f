//! The wasm-bindgen glue of the embedding API (wasm32 only): the exported `Lab` class, the
//! conversion of output objects to plain JavaScript objects, and whether the page wants the app.

use js_sys::{Array, JsString, Reflect};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::json::AsJs;
#[cfg(feature = "sandbox")]
use crate::script::Session;
use crate::script::batch::{self, ScriptRefusal, Size};

/// A sandbox driven from JavaScript: `new Lab()` (or `new Lab({explain: true})`, as
/// `rvlab run --explain`), `lab.run(script)` → an Array of output objects, `lab.reset()`.
#[cfg(feature = "sandbox")]
#[wasm_bindgen]
pub struct Lab {
    session: Session,
    explain: bool,
    /// The number the next line gets (runs continue one script).
    next_line: usize,
}

#[cfg(feature = "sandbox")]
#[wasm_bindgen]
impl Lab {
    /// A fresh sandbox. `options` may be left out, or be `{explain: true|false}`; anything else
    /// is a `TypeError` (the only thing this API throws).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Lab, JsValue> {
        let explain = explain_option(&options)?;
        Ok(Lab { session: Session::with_explain(explain), explain, next_line: 1 })
    }

    /// Runs the script's lines in this sandbox; the output object of each line that runs, as
    /// `rvlab run` prints it. Never throws: a refused line is its refusal object, a script over
    /// the limits (or not a string) is ONE error object and runs nothing.
    pub fn run(&mut self, script: JsValue) -> Array {
        let out = Array::new();
        let text = match text_of(&script) {
            Ok(t) => t,
            Err(r) => {
                out.push(&to_js(&batch::refusal_output(self.next_line, &r)));
                return out;
            }
        };
        let ended = batch::run_text(&mut self.session, self.next_line, &text, |v| {
            out.push(&to_js(&v));
            Ok::<(), ()>(())
        });
        if let batch::Ended::Ran { lines } = ended {
            self.next_line += lines;
        }
        out
    }

    /// An empty sandbox again (the same `explain` option); line numbers start at 1.
    pub fn reset(&mut self) {
        self.session = Session::with_explain(self.explain);
        self.next_line = 1;
    }

    /// The number the next run's first line gets.
    #[wasm_bindgen(getter, js_name = nextLine)]
    pub fn next_line(&self) -> usize {
        self.next_line
    }

    /// The most lines one run takes.
    #[wasm_bindgen(js_name = maxLines)]
    pub fn max_lines() -> usize {
        batch::MAX_LINES
    }

    /// The most bytes (UTF-8) one run takes.
    #[wasm_bindgen(js_name = maxBytes)]
    pub fn max_bytes() -> usize {
        batch::MAX_BYTES
    }
}

#[cfg(feature = "sandbox")]
fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

#[cfg(feature = "sandbox")]
fn explain_option(options: &JsValue) -> Result<bool, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(false);
    }
    if !options.is_object() {
        return Err(type_error("new Lab(options): options must be an object such as {explain: true}"));
    }
    let explain = Reflect::get(options, &"explain".into()).unwrap_or(JsValue::UNDEFINED);
    if explain.is_undefined() {
        return Ok(false);
    }
    explain.as_bool().ok_or_else(|| type_error("new Lab(options): explain must be true or false"))
}

/// A message from the page around an embed, as `Reflect` reads it.
impl super::message::Message for JsValue {
    fn is_record(&self) -> bool {
        self.is_object() && !Array::is_array(self)
    }

    fn field(&self, key: &str) -> Option<JsValue> {
        if !self.is_object() {
            return None;
        }
        Reflect::get(self, &key.into()).ok().filter(|v| !v.is_undefined())
    }

    fn text(&self) -> Option<String> {
        self.as_string()
    }

    fn number(&self) -> Option<f64> {
        self.as_f64()
    }

    fn type_name(&self) -> String {
        type_name(self)
    }
}

/// JavaScript's name for the type of `v` (`null` and arrays by name).
fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if Array::is_array(v) {
        "array".into()
    } else {
        v.js_typeof().as_string().unwrap_or_else(|| "object".into())
    }
}

/// UTF-16 units measured per piece when a string is too long to copy.
const PIECE: u32 = 1 << 20;

/// The script as Rust text. A string with more UTF-16 units than one run takes bytes is
/// certainly too big: it is measured a piece at a time (its refusal says its lines and bytes)
/// and never copied whole into the wasm memory.
pub fn text_of(script: &JsValue) -> Result<String, ScriptRefusal> {
    let Some(js) = script.dyn_ref::<JsString>() else {
        return Err(ScriptRefusal::ScriptNotText { got: type_name(script) });
    };
    let len = js.length();
    if (len as usize) <= batch::MAX_BYTES {
        return script.as_string().ok_or_else(|| ScriptRefusal::ScriptNotText { got: type_name(script) });
    }
    let mut size = Size::default();
    let mut at = 0;
    while at < len {
        let mut end = at.saturating_add(PIECE).min(len);
        // A surrogate pair stays in one piece (each half alone would count as U+FFFD).
        if end < len && (0xD800..0xDC00).contains(&(js.char_code_at(end - 1) as u32)) {
            end -= 1;
        }
        size.push(&String::from(js.slice(at, end)));
        at = end;
    }
    Err(size.too_big())
}

/// An output object as a plain JavaScript object (what `JSON.parse` makes of its JSON text).
pub fn to_js(v: &Value) -> JsValue {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    AsJs(v).serialize(&ser).unwrap_or_else(|e| {
        // Not expected (AsJs only makes JSON values); never an exception.
        let o = js_sys::Object::new();
        let _ = Reflect::set(&o, &"error".into(), &format!("the output could not be converted: {e}").into());
        o.into()
    })
}

/// Whether this page wants the playground app mounted when the module starts: every page but
/// one that says `<meta name="rvlab-app" content="none">` (a page that only uses `Lab`) and one
/// whose `<rv-playground>` elements imported the module to mount their embeds in the page
/// (`rv-playground.js` sets `RvPlayground.inPage` before it imports it).
pub fn wants_app() -> bool {
    let Some(w) = web_sys::window() else { return false };
    let Some(doc) = w.document() else { return false };
    let in_page = Reflect::get(&w, &"RvPlayground".into())
        .ok()
        .filter(|c| c.is_function())
        .and_then(|c| Reflect::get(&c, &"inPage".into()).ok())
        .is_some_and(|v| v.is_truthy());
    !in_page && !matches!(doc.query_selector(r#"meta[name="rvlab-app"][content="none"]"#), Ok(Some(_)))
}
