//! The UI's plain data, below every component and the reducer: a log [`Entry`], a [`Notice`]
//! and the [`Place`] it shows at, the saved-sandbox format (localStorage keys and
//! [`parse_saved`]) and the log as an exported script file. Pure: no DOM, no engine calls.

use std::rc::Rc;

use serde_json::Value;

use super::i18n::K;

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

/// A message: information or an error that must not be silent. The text is a translation key
/// plus its arguments, so it follows the language switch.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub error: bool,
    pub key: K,
    pub args: Vec<String>,
    /// Offer to restore the sandbox saved under [`BACKUP_KEY`].
    pub restore: bool,
    /// Where it shows.
    pub at: Place,
}

impl Notice {
    pub fn error(key: K, args: Vec<String>) -> Self {
        Notice { error: true, key, args, restore: false, at: Place::Top }
    }
    pub fn info(key: K, args: Vec<String>) -> Self {
        Notice { error: false, key, args, restore: false, at: Place::Top }
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
pub fn parse_saved(text: &str) -> Result<Saved, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let lines = |v: Option<&Value>, what: &str| -> Result<Vec<String>, String> {
        match v {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a
                .iter()
                .map(|l| l.as_str().map(String::from).ok_or_else(|| format!("{what} holds a non-string")))
                .collect(),
            Some(_) => Err(format!("{what} is not a list of lines")),
        }
    };
    match &v {
        Value::Array(_) => Ok((lines(Some(&v), "the log")?, Vec::new())),
        Value::Object(o) => Ok((lines(o.get("log"), "\"log\"")?, lines(o.get("redo"), "\"redo\"")?)),
        _ => Err("not a saved sandbox".into()),
    }
}

/// The saved form, `{"log":[…],"redo":[…]}`, written straight from the lines.
pub fn saved_text<'a>(log: impl Iterator<Item = &'a str>, redo: &'a [String]) -> Result<String, String> {
    #[derive(serde::Serialize)]
    struct SavedRef<'a> {
        log: Vec<&'a str>,
        redo: &'a [String],
    }
    serde_json::to_string(&SavedRef { log: log.collect(), redo }).map_err(|e| e.to_string())
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
