//! What a line's output says when the line did not run: one typed value under its own key
//! (`"refused"` for [`super::refusal::Refusal`], `"syntax"` for [`super::syntax::ParseError`])
//! next to its English text in `"error"`, and its words in a language. The shape is the JSON
//! Lines interface the book documents (`site/src/reference/output.md`, `refusals.md`); the words
//! live with each type.

use serde::Serialize;
use serde_json::{Map, Value};

use super::why::Lang;

/// A typed reason a line did not run.
pub trait LineError: Serialize + std::fmt::Display {
    /// The output's key for the value.
    const KEY: &'static str;

    /// The words in 中文 (the English is `Display`).
    fn zh(&self) -> String;

    /// The output of the line: `{"error": <English>, KEY: {"kind": …, …fields}}`.
    fn output(&self) -> Value {
        let mut out = Map::new();
        out.insert("error".into(), Value::String(self.to_string()));
        out.insert(Self::KEY.into(), serde_json::to_value(self).unwrap_or(Value::Null));
        Value::Object(out)
    }

    /// The words in `lang`.
    fn render(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Zh => self.zh(),
        }
    }
}
