//! Why a line did not run: [`LineFailure`], the session's typed value for it (a syntax error or a
//! refusal), which the UI renders in its language, and the output it becomes for JSON Lines
//! readers: the value under its own key (`"refused"` for [`Refusal`], `"syntax"` for
//! [`ParseError`]) next to its English text in `"error"`. The shape is the interface the README
//! documents; the words live with each type.

use serde::Serialize;
use serde_json::{Map, Value};

use super::refusal::Refusal;
use super::syntax::ParseError;
use super::why::Lang;

/// Why a line did not run, as the session decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineFailure {
    /// The line does not parse.
    Syntax(ParseError),
    /// The line parsed, and the session refused it.
    Refused(Refusal),
}

impl LineFailure {
    /// The words in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            LineFailure::Syntax(e) => e.render(lang),
            LineFailure::Refused(r) => r.render(lang),
        }
    }

    /// The output of the line (without its `"line"` number).
    pub fn output(&self) -> Value {
        match self {
            LineFailure::Syntax(e) => e.output(),
            LineFailure::Refused(r) => r.output(),
        }
    }
}

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
