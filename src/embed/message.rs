//! The messages an embed takes from the page around it (the `<rv-playground>` element's
//! `run()`): `{type: "rvlab:hello"}` and `{type: "rvlab:run", id, script}`. What a message says is
//! decided here, in plain Rust over [`Message`] (what the embed reads of a message: whether it is
//! a plain object, a field, a string, a number), so the same decisions run on a JavaScript value
//! in the browser (`ui::embed_api`) and on a JSON value on the host (the `embed_api` fuzz target,
//! `fuzz/common/surfaces.rs`). Documented in `site/src/reference/embedding-api.md`. No upstream
//! counterpart.

use serde_json::Value;

use crate::script::batch::ScriptRefusal;

/// What the embed reads of a message (a JavaScript value in the browser, a JSON value on the
/// host).
pub trait Message: Sized {
    /// An object that is not an array.
    fn is_record(&self) -> bool;
    /// The field `key` of a record (`None`: absent, or not a record).
    fn field(&self, key: &str) -> Option<Self>;
    /// The text of a string.
    fn text(&self) -> Option<String>;
    /// The value of a number.
    fn number(&self) -> Option<f64>;
    /// JavaScript's name for its type (`null` and arrays by name), as a refusal says it.
    fn type_name(&self) -> String;
}

/// What the parent asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<M> {
    Hello,
    /// `id`: the message's `id` when it is a string or a finite number (else the answer's `id`
    /// is `null`); `script`: its `script` field, if any.
    Run {
        id: Option<M>,
        script: Option<M>,
    },
}

/// The words of a message that is not an object.
pub const NOT_AN_OBJECT: &str =
    "a message to the embed is an object such as {type: \"rvlab:run\", id: 1, script: \"…\"}";

/// The `id` of a message: a string or a finite number, else none (`null` in the answer).
pub fn id_of<M: Message>(data: &M) -> Option<M> {
    let id = data.field("id")?;
    let ok = id.text().is_some() || id.number().is_some_and(f64::is_finite);
    ok.then_some(id)
}

/// The command a message carries, or the words of the error to answer it with.
pub fn command<M: Message>(data: &M) -> Result<Command<M>, String> {
    if !data.is_record() {
        return Err(NOT_AN_OBJECT.into());
    }
    match data.field("type").and_then(|t| t.text()).as_deref() {
        Some("rvlab:hello") => Ok(Command::Hello),
        Some("rvlab:run") => Ok(Command::Run { id: id_of(data), script: data.field("script") }),
        Some(other) => {
            Err(format!("unknown message type {other:?}; the embed takes \"rvlab:hello\" and \"rvlab:run\""))
        }
        None => Err("the message has no \"type\"; the embed takes \"rvlab:hello\" and \"rvlab:run\"".into()),
    }
}

/// The script of a run as text, or why it is none (`script` absent reads as `undefined`).
pub fn script_text<M: Message>(script: Option<&M>) -> Result<String, ScriptRefusal> {
    match script {
        Some(s) => s.text().ok_or_else(|| ScriptRefusal::ScriptNotText { got: s.type_name() }),
        None => Err(ScriptRefusal::ScriptNotText { got: "undefined".into() }),
    }
}

/// A message as the structured clone of a JSON value: what a page posts when it posts parsed
/// JSON.
impl Message for Value {
    fn is_record(&self) -> bool {
        self.is_object()
    }

    fn field(&self, key: &str) -> Option<Value> {
        self.as_object().and_then(|m| m.get(key)).cloned()
    }

    fn text(&self) -> Option<String> {
        self.as_str().map(str::to_string)
    }

    fn number(&self) -> Option<f64> {
        self.as_f64()
    }

    fn type_name(&self) -> String {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_decode_to_commands_or_their_errors() {
        assert_eq!(command(&json!({"type": "rvlab:hello"})), Ok(Command::Hello));
        assert_eq!(
            command(&json!({"type": "rvlab:run", "id": 7, "script": "advance 1s"})),
            Ok(Command::Run { id: Some(json!(7)), script: Some(json!("advance 1s")) })
        );
        assert_eq!(
            command(&json!({"type": "rvlab:run", "id": {"a": 1}})),
            Ok(Command::Run { id: None, script: None })
        );
        assert_eq!(command(&json!([1])), Err(NOT_AN_OBJECT.to_string()));
        assert_eq!(command(&json!("rvlab:run")), Err(NOT_AN_OBJECT.to_string()));
        assert_eq!(
            command(&json!({"type": "rvlab:go"})),
            Err("unknown message type \"rvlab:go\"; the embed takes \"rvlab:hello\" and \"rvlab:run\"".into())
        );
        assert_eq!(
            command(&json!({"type": 3})),
            Err("the message has no \"type\"; the embed takes \"rvlab:hello\" and \"rvlab:run\"".into())
        );
        assert_eq!(script_text(Some(&json!("x"))), Ok("x".into()));
        assert_eq!(script_text(Some(&json!(null))), Err(ScriptRefusal::ScriptNotText { got: "null".into() }));
        assert_eq!(script_text::<Value>(None), Err(ScriptRefusal::ScriptNotText { got: "undefined".into() }));
    }
}
