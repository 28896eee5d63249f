//! The app's one piece of state: the command log and its outputs, in one `Reducible`.
//!
//! The log (script lines) is the truth; the engine `Session` is rebuilt by replaying it. Undo
//! replays a prefix and keeps the undone lines on a redo stack. Every change of the log is saved
//! to localStorage under [`STORAGE_KEY`] (format in [`super::model`]) and restored on load.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use super::browser::{load_saved, save};
use super::i18n::K;
use super::model::STORAGE_KEY;
pub use super::model::{Entry, Notice, Place};
use crate::script::Session;

/// The handle every panel gets from context.
pub type LabHandle = UseReducerHandle<Lab>;

/// The request builder's form, shared so other panels can fill it (e.g. "use this token").
pub type SpecHandle = UseStateHandle<super::lines::RequestSpec>;

/// The log entry under the pointer (timeline marks and console rows highlight each other).
pub type HoverHandle = UseStateHandle<Option<usize>>;

pub enum Action {
    /// Append and run these lines (a click, a console line, a pasted script). While the scrubber
    /// is in the past this only asks for confirmation ([`Lab::pending`]).
    Run(Vec<String>),
    /// [`Action::Run`] from a panel with its own message slot: a refusal or the fork question
    /// shows there.
    RunAt(Place, Vec<String>),
    /// Drop the steps after the scrubber and run the pending lines.
    ConfirmFork,
    CancelFork,
    /// Move the scrubber: replay the first `n` steps.
    Seek(usize),
    Undo,
    Redo,
    /// Empty sandbox.
    Reset,
    /// Replace the whole log (import, example): says "Imported N lines".
    Load(Vec<String>),
    /// Replace the whole log with these lines and show `notice` (a guided lesson's setup, an
    /// embed's "start over"). Allowed in read-only embeds.
    Replace(Vec<String>, Option<Notice>),
    /// Show this entry (index into `entries`) in the response viewer; an entry after the
    /// scrubber moves the scrubber to it.
    Select(usize),
    Notify(Notice),
    DismissNotice,
    /// Replace the sandbox with this one (a share link opened while the app runs).
    Open(Box<Lab>),
    /// One tick of Play: `secs` more simulated seconds. The first tick of a Play session appends
    /// `advance <secs>s`; later ones grow that same line (`advance <total>s`), so two minutes of
    /// Play are one line in the log, the undo history and share links. Moving the clock in one
    /// step or in many leaves the sandbox in the same state (tests/play_advance.rs).
    PlayTick(u64),
    /// Play paused (or its timer stopped): the next tick starts a new line.
    PlayEnd,
}

thread_local! {
    static STAMP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn next_stamp() -> u64 {
    STAMP.with(|s| {
        s.set(s.get() + 1);
        s.get()
    })
}

pub struct Lab {
    /// The whole log, including steps after the scrubber.
    pub entries: Vec<Entry>,
    /// How many entries the session has run (the scrubber position); `entries.len()` = now.
    pub at: usize,
    pub redo: Vec<String>,
    /// The entry the response viewer shows; None = the latest output before the scrubber.
    pub selected: Option<usize>,
    pub notice: Option<Notice>,
    /// Lines waiting for "fork here" while the scrubber is in the past, and where they came from.
    pub pending: Option<Vec<String>>,
    pub pending_at: Place,
    /// Save to localStorage (off for embeds).
    pub persist: bool,
    /// No new lines may be run (embed mode=readonly).
    pub readonly: bool,
    /// Changes whenever the session does (memo key for the timeline).
    pub stamp: u64,
    /// The entry the running Play session grows, and the seconds it holds.
    pub playing: Option<(usize, u64)>,
    session: Rc<RefCell<Session>>,
}

impl PartialEq for Lab {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.stamp == other.stamp
            && self.at == other.at
            && self.entries == other.entries
            && self.redo == other.redo
            && self.selected == other.selected
            && self.notice == other.notice
            && self.pending == other.pending
            && self.pending_at == other.pending_at
    }
}

impl Default for Lab {
    fn default() -> Self {
        Lab::empty()
    }
}

/// The UI's session: explanations on, so every answer can say why.
pub fn new_session() -> Session {
    Session::with_explain(true)
}

impl Lab {
    pub fn empty() -> Self {
        Lab {
            entries: Vec::new(),
            at: 0,
            redo: Vec::new(),
            selected: None,
            notice: None,
            pending: None,
            pending_at: Place::Top,
            persist: true,
            readonly: false,
            stamp: next_stamp(),
            playing: None,
            session: Rc::new(RefCell::new(new_session())),
        }
    }

    /// A sandbox built by replaying `lines` into a fresh Session.
    pub fn replay(lines: Vec<String>, redo: Vec<String>) -> Self {
        let mut lab = Lab::empty();
        lab.redo = redo;
        lab.run_lines(lines);
        lab
    }

    /// A sandbox over a session that was already driven (tests, big histories): `entries` are
    /// the lines it ran and their outputs.
    pub fn from_session(session: Session, entries: Vec<Entry>) -> Self {
        let mut lab = Lab::empty();
        lab.at = entries.len();
        lab.entries = entries;
        lab.session = Rc::new(RefCell::new(session));
        lab
    }

    /// The sandbox saved in localStorage, or an empty one with a notice saying why not.
    pub fn restore() -> Self {
        match load_saved(STORAGE_KEY) {
            Ok(Some((log, redo))) => Lab::replay(log, redo),
            Ok(None) => Lab::empty(),
            Err(msg) => {
                let mut lab = Lab::empty();
                lab.notice = Some(Notice::error(K::NoticeRestoreFailed, vec![STORAGE_KEY.into(), msg]));
                lab
            }
        }
    }

    /// The engine session at the scrubber position.
    pub fn session(&self) -> std::cell::Ref<'_, Session> {
        self.session.borrow()
    }

    /// The whole log (every step, also after the scrubber).
    pub fn log(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.line.clone()).collect()
    }

    /// The steps up to the scrubber: what the panels show.
    pub fn visible(&self) -> &[Entry] {
        &self.entries[..self.at.min(self.entries.len())]
    }

    pub fn in_past(&self) -> bool {
        self.at < self.entries.len()
    }

    pub fn outputs(&self) -> impl DoubleEndedIterator<Item = &Value> + Clone {
        self.visible().iter().filter_map(|e| e.out.as_deref())
    }

    /// The index of the entry the response viewer shows.
    pub fn shown(&self) -> Option<usize> {
        let vis = self.visible();
        self.selected.filter(|i| *i < vis.len()).or_else(|| vis.iter().rposition(|e| e.out.is_some()))
    }

    fn run_lines(&mut self, lines: Vec<String>) {
        super::safety::running(&lines);
        {
            let mut session = self.session.borrow_mut();
            for line in lines {
                let n = self.entries.len() + 1;
                let out = session.run_line(n, &line).map(Rc::new);
                self.entries.push(Entry { line, out });
            }
        }
        super::safety::running(&[]);
        self.at = self.entries.len();
        self.stamp = next_stamp();
    }

    /// Moves the clock `secs` further and makes entry `i` (the last, Play's line holding
    /// `total` seconds) say `advance <total + secs>s`, with the output that line gives.
    fn grow_play(&mut self, i: usize, total: u64, secs: u64) {
        let line = super::lines::tick_line(total + secs);
        super::safety::running(std::slice::from_ref(&line));
        let out = self.session.borrow_mut().run_line(i + 1, &super::lines::tick_line(secs)).map(Rc::new);
        super::safety::running(&[]);
        self.entries[i] = Entry { line, out };
        self.playing = Some((i, total + secs));
        self.redo = Vec::new();
        self.selected = None;
        self.stamp = next_stamp();
    }

    /// A copy sharing the session (for changes that do not touch it).
    fn copy(&self) -> Lab {
        Lab {
            entries: self.entries.clone(),
            at: self.at,
            redo: self.redo.clone(),
            selected: self.selected,
            notice: self.notice.clone(),
            pending: self.pending.clone(),
            pending_at: self.pending_at,
            persist: self.persist,
            readonly: self.readonly,
            stamp: self.stamp,
            playing: self.playing,
            session: self.session.clone(),
        }
    }

    /// A fresh sandbox with this one's settings (persist, readonly).
    fn fresh_like(&self, lines: Vec<String>, redo: Vec<String>) -> Lab {
        let mut lab = Lab::replay(lines, redo);
        lab.persist = self.persist;
        lab.readonly = self.readonly;
        lab
    }

    /// Rebuilds the session from the first `n` entries, keeping every entry's output.
    pub fn seek(&self, n: usize) -> Lab {
        let n = n.min(self.entries.len());
        let mut session = new_session();
        for (i, e) in self.entries[..n].iter().enumerate() {
            session.run_line(i + 1, &e.line);
        }
        let mut lab = self.copy();
        lab.session = Rc::new(RefCell::new(session));
        lab.at = n;
        lab.selected = None;
        lab.pending = None;
        lab.playing = None;
        lab.stamp = next_stamp();
        lab
    }

    pub fn persist(&mut self) {
        let log = self.log();
        // What the panic hook saves and exports, also for embeds.
        super::safety::remember(&log, &self.redo, self.persist);
        if !self.persist {
            return;
        }
        match save(&log, &self.redo) {
            Err(msg) => self.notice = Some(Notice::error(K::NoticeSaveFailed, vec![msg])),
            // Saving works again: the earlier warning is no longer true.
            Ok(()) if self.notice.as_ref().is_some_and(|n| n.key == K::NoticeSaveFailed) => {
                self.notice = None
            }
            Ok(()) => {}
        }
    }
}

impl Reducible for Lab {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = match action {
            Action::Run(lines) => return self.reduce(Action::RunAt(Place::Top, lines)),
            Action::RunAt(place, lines) => {
                if lines.is_empty() || self.readonly {
                    return self;
                }
                if let Err(n) = super::safety::check_lines(&lines) {
                    let mut lab = self.copy();
                    lab.notice = Some(n.at(place));
                    return Rc::new(lab);
                }
                if self.in_past() {
                    let mut lab = self.copy();
                    lab.pending = Some(lines);
                    lab.pending_at = place;
                    return Rc::new(lab);
                }
                let mut lab = self.copy();
                lab.redo = Vec::new();
                lab.selected = None;
                lab.notice = self.notice.clone().filter(|n| n.error);
                lab.run_lines(lines);
                lab
            }
            Action::ConfirmFork => {
                let Some(lines) = self.pending.clone() else { return self };
                let mut lab = self.copy();
                lab.entries.truncate(self.at);
                lab.pending = None;
                lab.redo = Vec::new();
                lab.selected = None;
                lab.run_lines(lines);
                lab
            }
            Action::CancelFork => {
                let mut lab = self.copy();
                lab.pending = None;
                return Rc::new(lab);
            }
            Action::Seek(n) => {
                if n.min(self.entries.len()) == self.at {
                    return self;
                }
                return Rc::new(self.seek(n));
            }
            Action::Undo => {
                let Some(last) = self.entries.last() else { return self };
                let mut redo = self.redo.clone();
                redo.push(last.line.clone());
                let mut log = self.log();
                log.pop();
                self.fresh_like(log, redo)
            }
            Action::Redo => {
                let mut redo = self.redo.clone();
                let Some(line) = redo.pop() else { return self };
                let mut log = self.log();
                log.push(line);
                self.fresh_like(log, redo)
            }
            Action::Reset => {
                // Undoable: the lines go onto the redo stack, first line on top.
                let mut redo = self.redo.clone();
                redo.extend(self.log().into_iter().rev());
                self.fresh_like(Vec::new(), redo)
            }
            Action::Load(lines) => {
                if let Err(n) = super::safety::check_lines(&lines) {
                    let mut lab = self.copy();
                    lab.notice = Some(n);
                    return Rc::new(lab);
                }
                let n = lines.len();
                let mut lab = self.fresh_like(lines, Vec::new());
                lab.notice = Some(Notice::info(K::NoticeImported, vec![n.to_string()]));
                lab
            }
            Action::Replace(lines, notice) => {
                let mut lab = self.fresh_like(lines, Vec::new());
                lab.notice = notice;
                lab
            }
            Action::Select(i) => {
                let mut lab =
                    if i >= self.at && i < self.entries.len() { self.seek(i + 1) } else { self.copy() };
                lab.selected = Some(i);
                return Rc::new(lab);
            }
            Action::Notify(n) => {
                let mut lab = self.copy();
                lab.notice = Some(n);
                return Rc::new(lab);
            }
            Action::Open(lab) => return Rc::new(*lab),
            Action::PlayEnd => {
                if self.playing.is_none() {
                    return self;
                }
                let mut lab = self.copy();
                lab.playing = None;
                return Rc::new(lab);
            }
            Action::PlayTick(secs) => {
                if self.readonly || self.in_past() || secs == 0 {
                    return self;
                }
                let last = self.entries.len().checked_sub(1);
                let limit = super::safety::MAX_ADVANCE.0 / 1000;
                match self.playing {
                    Some((i, total)) if Some(i) == last && total + secs <= limit => {
                        let mut lab = self.copy();
                        lab.grow_play(i, total, secs);
                        lab
                    }
                    _ => {
                        let mut lab = self.copy();
                        lab.redo = Vec::new();
                        lab.selected = None;
                        lab.run_lines(vec![super::lines::tick_line(secs)]);
                        lab.playing = Some((lab.entries.len() - 1, secs));
                        lab
                    }
                }
            }
            Action::DismissNotice => {
                let mut lab = self.copy();
                lab.notice = None;
                return Rc::new(lab);
            }
        };
        next.persist();
        Rc::new(next)
    }
}
