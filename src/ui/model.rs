//! The UI's plain data, below every component and the reducer: a log [`Entry`], a [`Notice`]
//! and the [`Place`] it shows at, what went wrong ([`Problem`]), the saved-sandbox format
//! (localStorage keys and [`parse_saved`]) and the log as an exported script file. Pure: no
//! DOM, no engine calls.

use std::fmt::Display;
use std::rc::Rc;

use serde_json::Value;

use super::i18n::{K, Tr};
use super::share::DataError;
use crate::client::trace::LogEntry;
use crate::script::parse::Command;
use crate::script::reply::Reply;
use crate::script::why::OutputWhy;
use crate::script::{LineFailure, LineOutcome};

/// The localStorage key of the saved sandbox: `{"log":[lines…],"redo":[lines…]}`.
pub const STORAGE_KEY: &str = "rvlab.log.v1";

/// Where the sandbox goes when a share link replaces it (same format).
pub const BACKUP_KEY: &str = "rvlab.log.v1.backup";

/// One script line and what the engine answered (None for blank lines and comments). Both are
/// shared, so a copy of the log (each state of the reducer holds one) copies pointers, not text.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub line: Rc<str>,
    pub out: Option<Rc<Value>>,
    /// Why the line did not run, as the session decided it (what the UI renders of an error).
    pub failure: Option<Rc<LineFailure>>,
    /// The line as the session parsed it (None for blank lines, comments and syntax errors): the
    /// UI never parses a line again to know what it was.
    pub command: Option<Rc<Command>>,
    /// The output's decision as its type.
    pub why: Option<Rc<OutputWhy>>,
    /// What the answer says, as the session typed it (what the panels draw).
    pub reply: Rc<Reply>,
    /// The client decisions of an `informer` or `pager` line, typed.
    pub client_log: Option<Rc<Vec<LogEntry>>>,
}

impl Entry {
    /// Script line `line` with what the session gave for it.
    pub fn new(line: impl Into<Rc<str>>, outcome: Option<LineOutcome>) -> Entry {
        let Some(o) = outcome else {
            let (out, failure, command, why, client_log) = (None, None, None, None, None);
            return Entry { line: line.into(), out, failure, command, why, reply: Rc::default(), client_log };
        };
        Entry {
            line: line.into(),
            out: Some(Rc::new(o.out)),
            failure: o.failure.map(Rc::new),
            command: o.command.map(Rc::new),
            why: o.why.map(Rc::new),
            reply: Rc::new(o.reply),
            client_log: o.client_log.map(Rc::new),
        }
    }
}

impl AsRef<str> for Entry {
    fn as_ref(&self) -> &str {
        &self.line
    }
}

/// Where the learner acted, so that what answers them (a refusal, the "fork here?" question)
/// shows next to it rather than at the top of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Place {
    /// The page's notice bar (imports, share links, lessons, panels without a message slot).
    #[default]
    Top,
    Console,
    Builder,
    Sim,
}

/// What went wrong in the browser (storage, clipboard, files) or in data read back (a saved
/// sandbox, a share link): one value per failure, rendered in the UI's language by
/// [`Problem::text`]. Only the browser's own words ([`Problem::Browser`],
/// [`Problem::StorageBlocked`]) stay as the browser wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The browser's own message for a failed call (an exception, a rejected promise).
    Browser(String),
    NoWindow,
    NoDocument,
    /// `window.localStorage` is null.
    StorageMissing,
    /// `window.localStorage` threw (private mode, blocked cookies): the browser's message.
    StorageBlocked(String),
    /// `navigator.clipboard.writeText` is missing.
    ClipboardMissing,
    /// A chosen file could not be read and the browser said nothing more.
    FileUnreadable,
    /// The sandbox could not be written as JSON.
    NotWritten,
    /// Text that is not JSON: where the parser stopped.
    NotJson {
        line: usize,
        column: usize,
    },
    /// JSON, but neither `{"log":[…],"redo":[…]}` nor a list of lines.
    NotSaved,
    /// `"log"` is not a list.
    LogNotList,
    /// `"redo"` is not a list.
    RedoNotList,
    /// A line of the log is not a string.
    LineNotText,
    /// A line of the redo stack is not a string.
    RedoLineNotText,
    /// A share link's data.
    Share(DataError),
    /// A fetch answered with an HTTP error: its status code and the server's reason phrase.
    Http {
        status: u16,
        status_text: String,
    },
    /// A fetch resolved to something that is not an HTTP response.
    NotResponse,
    /// A response body that is not text.
    NotText,
    /// A fetched lesson file that does not parse: the parser's message (English, as
    /// `rvlab test` prints it).
    LessonInvalid(String),
}

impl Problem {
    /// Where `e` stopped reading.
    pub fn not_json(e: &serde_json::Error) -> Problem {
        Problem::NotJson { line: e.line(), column: e.column() }
    }

    /// The text, in the language of `tr`.
    pub fn text(&self, tr: Tr) -> String {
        let key = match self {
            Problem::Browser(said) => return said.clone(),
            Problem::StorageBlocked(said) => return tr.f(K::ProblemStorageBlocked, &[said]),
            Problem::NotJson { line, column } => return tr.f(K::ProblemNotJson, &[line, column]),
            Problem::Share(d) => return share_text(*d, tr),
            Problem::Http { status, status_text } => return tr.f(K::ProblemHttp, &[status, status_text]),
            Problem::LessonInvalid(said) => return tr.f(K::ProblemLessonInvalid, &[said]),
            Problem::NotResponse => K::ProblemNotResponse,
            Problem::NotText => K::ProblemNotText,
            Problem::NoWindow => K::ProblemNoWindow,
            Problem::NoDocument => K::ProblemNoDocument,
            Problem::StorageMissing => K::ProblemStorageMissing,
            Problem::ClipboardMissing => K::ProblemClipboardMissing,
            Problem::FileUnreadable => K::ProblemFileUnreadable,
            Problem::NotWritten => K::ProblemNotWritten,
            Problem::NotSaved => K::ProblemNotSaved,
            Problem::LogNotList => K::ProblemLogNotList,
            Problem::RedoNotList => K::ProblemRedoNotList,
            Problem::LineNotText => K::ProblemLineNotText,
            Problem::RedoLineNotText => K::ProblemRedoLineNotText,
        };
        tr.t(key).to_string()
    }
}

/// What is wrong with a share link's data, in the language of `tr`.
fn share_text(d: DataError, tr: Tr) -> String {
    let key = match d {
        DataError::NotJson { line, column } => return tr.f(K::ProblemNotJson, &[&line, &column]),
        DataError::TooManyLines(n) => return tr.f(K::ProblemTooManyLines, &[&n]),
        DataError::TooBig(mb) => return tr.f(K::ProblemTooBig, &[&mb]),
        DataError::LineNotText => K::ProblemLineNotText,
        DataError::NoLog => K::ProblemNoLog,
        DataError::AtNotStep => K::ProblemAtNotStep,
        DataError::Empty => K::ProblemEmpty,
        DataError::CutShort => K::ProblemCutShort,
        DataError::LengthTooLong => K::ProblemLengthTooLong,
        DataError::BadReference => K::ProblemBadReference,
    };
    tr.t(key).to_string()
}

/// One argument of a [`Notice`]: text shown as it is, or a [`Problem`] rendered in the UI's
/// language when the notice is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Problem(Problem),
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}

impl From<Problem> for Arg {
    fn from(p: Problem) -> Arg {
        Arg::Problem(p)
    }
}

/// A message: information or an error that must not be silent. The text is a translation key
/// plus its arguments, so it follows the language switch.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub error: bool,
    pub key: K,
    pub args: Vec<Arg>,
    /// Offer to restore the sandbox saved under [`BACKUP_KEY`].
    pub restore: bool,
    /// Where it shows.
    pub at: Place,
}

impl Notice {
    pub fn error(key: K, args: Vec<String>) -> Self {
        Notice {
            error: true,
            key,
            args: args.into_iter().map(Arg::Text).collect(),
            restore: false,
            at: Place::Top,
        }
    }
    pub fn info(key: K, args: Vec<String>) -> Self {
        Notice {
            error: false,
            key,
            args: args.into_iter().map(Arg::Text).collect(),
            restore: false,
            at: Place::Top,
        }
    }
    /// The same notice with one more argument (the next placeholder).
    pub fn arg(mut self, a: impl Into<Arg>) -> Self {
        self.args.push(a.into());
        self
    }
    /// The notice's text in the language of `tr`.
    pub fn text(&self, tr: Tr) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match a {
                Arg::Text(t) => t.clone(),
                Arg::Problem(p) => p.text(tr),
            })
            .collect();
        let args: Vec<&dyn Display> = args.iter().map(|a| a as &dyn Display).collect();
        tr.f(self.key, &args)
    }
    /// The same notice, shown at `place`.
    pub fn at(mut self, place: Place) -> Self {
        self.at = place;
        self
    }
}

/// A saved sandbox: the log and the redo stack.
pub type Saved = (Vec<String>, Vec<String>);

/// Parses the saved form. Accepts `{"log":[…],"redo":[…]}` or a bare array of lines.
pub fn parse_saved(text: &str) -> Result<Saved, Problem> {
    let v: Value = serde_json::from_str(text).map_err(|e| Problem::not_json(&e))?;
    // A list of lines; else `not_list`, or `not_text` for an item that is not a string.
    let lines = |v: Option<&Value>, not_list: Problem, not_text: Problem| -> Result<Vec<String>, Problem> {
        match v {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => {
                a.iter().map(|l| l.as_str().map(String::from).ok_or_else(|| not_text.clone())).collect()
            }
            Some(_) => Err(not_list),
        }
    };
    let log = |v| lines(v, Problem::LogNotList, Problem::LineNotText);
    match &v {
        Value::Array(_) => Ok((log(Some(&v))?, Vec::new())),
        Value::Object(o) => {
            Ok((log(o.get("log"))?, lines(o.get("redo"), Problem::RedoNotList, Problem::RedoLineNotText)?))
        }
        _ => Err(Problem::NotSaved),
    }
}

/// The saved form, `{"log":[…],"redo":[…]}`, written straight from the lines.
pub fn saved_text<'a>(log: impl Iterator<Item = &'a str>, redo: &'a [String]) -> Result<String, Problem> {
    #[derive(serde::Serialize)]
    struct SavedRef<'a> {
        log: Vec<&'a str>,
        redo: &'a [String],
    }
    serde_json::to_string(&SavedRef { log: log.collect(), redo }).map_err(|_| Problem::NotWritten)
}

/// The file name of an exported script.
pub const EXPORT_NAME: &str = "rvlab-script.txt";

/// The log as a script file.
pub fn script_text(log: &[String]) -> String {
    let mut s = log.join("\n");
    s.push('\n');
    s
}

/// `s`, cut to `max` characters with "…".
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
