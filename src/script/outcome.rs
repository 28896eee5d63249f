//! What one script line gave: its output object (the JSON Lines contract) and, as typed values
//! made where the session decided them, the line as parsed, the answer's facts ([`Reply`]), the
//! decision behind it and, when the line did not run, why ([`LineFailure`]: a syntax error or a
//! refusal). The CLI prints the output; the UI renders the typed values, in its language, and
//! never reads them back out of the output. No upstream counterpart.

use serde_json::Value;

use super::line_error::LineError;
use super::parse::Command;
use super::refusal::Refusal;
use super::reply::Reply;
use super::syntax::ParseError;
use super::why::{Lang, OutputWhy};
use crate::client::trace::LogEntry;

/// What one line gave.
#[derive(Debug, Clone, PartialEq)]
pub struct LineOutcome {
    pub out: Value,
    pub failure: Option<LineFailure>,
    /// The line as parsed, once (None when it does not parse): what the UI reads the line as.
    pub command: Option<Command>,
    /// The output's decision as its type (the `"why"`, when the output carries one).
    pub why: Option<OutputWhy>,
    /// What the answer says (code, Status reason, list, watch, frames, etcd keys).
    pub reply: Reply,
    /// The client decisions the output carries (`why.log` of `informer` and `pager` lines).
    pub client_log: Option<Vec<LogEntry>>,
}

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
