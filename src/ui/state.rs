//! The app's one piece of state: the command log and its outputs, in one `Reducible`.
//!
//! The log (script lines) is the truth; the engine `Session` is rebuilt by replaying it. Undo
//! replays a prefix and keeps the undone lines on a redo stack. Every change of the log is saved
//! to localStorage under [`STORAGE_KEY`] and restored on load.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Value, json};
use yew::prelude::*;

use crate::script::Session;

/// The localStorage key of the saved sandbox: `{"log":[lines…],"redo":[lines…]}`.
pub const STORAGE_KEY: &str = "rvlab.log.v1";

/// One script line and what the engine answered (None for blank lines and comments).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub line: String,
    pub out: Option<Rc<Value>>,
}

/// A message above the panels: information or an error that must not be silent.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub error: bool,
    pub text: String,
}

pub enum Action {
    /// Append and run these lines (a click, a console line, a pasted script).
    Run(Vec<String>),
    Undo,
    Redo,
    /// Empty sandbox.
    Reset,
    /// Replace the whole log (import).
    Load(Vec<String>),
    /// Show this entry (index into `entries`) in the response viewer.
    Select(usize),
    Notify(Notice),
    DismissNotice,
}

pub struct Lab {
    pub entries: Vec<Entry>,
    pub redo: Vec<String>,
    /// The entry the response viewer shows; None = the latest output.
    pub selected: Option<usize>,
    pub notice: Option<Notice>,
    session: Rc<RefCell<Session>>,
}

impl PartialEq for Lab {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.entries == other.entries
            && self.redo == other.redo
            && self.selected == other.selected
            && self.notice == other.notice
    }
}

impl Default for Lab {
    fn default() -> Self {
        Lab::empty()
    }
}

impl Lab {
    pub fn empty() -> Self {
        Lab {
            entries: Vec::new(),
            redo: Vec::new(),
            selected: None,
            notice: None,
            session: Rc::new(RefCell::new(Session::new())),
        }
    }

    /// A sandbox built by replaying `lines` into a fresh Session.
    pub fn replay(lines: Vec<String>, redo: Vec<String>) -> Self {
        let mut lab = Lab::empty();
        lab.redo = redo;
        lab.run_lines(lines);
        lab
    }

    /// The sandbox saved in localStorage, or an empty one with a notice saying why not.
    pub fn restore() -> Self {
        match load_saved() {
            Ok(Some((log, redo))) => Lab::replay(log, redo),
            Ok(None) => Lab::empty(),
            Err(msg) => {
                let mut lab = Lab::empty();
                lab.notice = Some(Notice { error: true, text: msg });
                lab
            }
        }
    }

    pub fn log(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.line.clone()).collect()
    }

    pub fn outputs(&self) -> impl DoubleEndedIterator<Item = &Value> + Clone {
        self.entries.iter().filter_map(|e| e.out.as_deref())
    }

    /// The index of the entry the response viewer shows.
    pub fn shown(&self) -> Option<usize> {
        self.selected.filter(|i| *i < self.entries.len()).or_else(|| self.entries.iter().rposition(|e| e.out.is_some()))
    }

    fn run_lines(&mut self, lines: Vec<String>) {
        let mut session = self.session.borrow_mut();
        for line in lines {
            let n = self.entries.len() + 1;
            let out = session.run_line(n, &line).map(Rc::new);
            self.entries.push(Entry { line, out });
        }
    }

    fn persist(&mut self) {
        let log = self.log();
        match save(&log, &self.redo) {
            Err(msg) => self.notice = Some(Notice { error: true, text: msg }),
            // Saving works again: the earlier warning is no longer true.
            Ok(()) if self.notice.as_ref().is_some_and(|n| n.text.starts_with(SAVE_FAILED)) => self.notice = None,
            Ok(()) => {}
        }
    }
}

impl Reducible for Lab {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = match action {
            Action::Run(lines) => {
                if lines.is_empty() {
                    return self;
                }
                let mut lab = Lab {
                    entries: self.entries.clone(),
                    redo: Vec::new(),
                    selected: None,
                    notice: self.notice.clone().filter(|n| n.error),
                    session: self.session.clone(),
                };
                lab.run_lines(lines);
                lab
            }
            Action::Undo => {
                let Some(last) = self.entries.last() else { return self };
                let mut redo = self.redo.clone();
                redo.push(last.line.clone());
                let mut log = self.log();
                log.pop();
                Lab::replay(log, redo)
            }
            Action::Redo => {
                let mut redo = self.redo.clone();
                let Some(line) = redo.pop() else { return self };
                let mut log = self.log();
                log.push(line);
                Lab::replay(log, redo)
            }
            Action::Reset => {
                // Undoable: the lines go onto the redo stack, first line on top.
                let mut lab = Lab::empty();
                lab.redo = self.redo.clone();
                lab.redo.extend(self.log().into_iter().rev());
                lab
            }
            Action::Load(lines) => {
                let n = lines.len();
                let mut lab = Lab::replay(lines, Vec::new());
                lab.notice = Some(Notice { error: false, text: format!("Imported {n} lines.") });
                lab
            }
            Action::Select(i) => {
                return Rc::new(Lab {
                    entries: self.entries.clone(),
                    redo: self.redo.clone(),
                    selected: Some(i),
                    notice: self.notice.clone(),
                    session: self.session.clone(),
                });
            }
            Action::Notify(n) => {
                return Rc::new(Lab {
                    entries: self.entries.clone(),
                    redo: self.redo.clone(),
                    selected: self.selected,
                    notice: Some(n),
                    session: self.session.clone(),
                });
            }
            Action::DismissNotice => {
                return Rc::new(Lab {
                    entries: self.entries.clone(),
                    redo: self.redo.clone(),
                    selected: self.selected,
                    notice: None,
                    session: self.session.clone(),
                });
            }
        };
        next.persist();
        Rc::new(next)
    }
}

fn storage() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or("no window")?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("localStorage is not available in this browser".into()),
        Err(e) => Err(format!("localStorage is blocked: {}", js_text(&e))),
    }
}

/// A readable text for a thrown JS value.
pub fn js_text(e: &wasm_bindgen::JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()).unwrap_or_else(|| format!("{e:?}"))
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

fn load_saved() -> Result<Option<Saved>, String> {
    let storage = storage().map_err(|e| format!("Could not restore the saved sandbox: {e}"))?;
    let text =
        storage.get_item(STORAGE_KEY).map_err(|e| format!("Could not read the saved sandbox: {}", js_text(&e)))?;
    let Some(text) = text else { return Ok(None) };
    parse_saved(&text).map(Some).map_err(|e| {
        format!("The saved sandbox ({STORAGE_KEY}) could not be read: {e}. Started with an empty sandbox.")
    })
}

const SAVE_FAILED: &str = "Your work is not being saved";

fn save(log: &[String], redo: &[String]) -> Result<(), String> {
    let storage = storage().map_err(|e| format!("{SAVE_FAILED}: {e}"))?;
    let text = json!({"log": log, "redo": redo}).to_string();
    storage
        .set_item(STORAGE_KEY, &text)
        .map_err(|e| format!("{SAVE_FAILED} ({}). Export the script to keep it.", js_text(&e)))
}
