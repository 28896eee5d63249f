//! The app's one piece of state: the command log and its outputs, in one `Reducible`.
//!
//! The log (script lines) is the truth; the engine `Session` is rebuilt by replaying it. Undo
//! and the scrubber rebuild a prefix from the nearest [`Checkpoints`] snapshot (not from the
//! first line) and undone lines go onto a redo stack. Every new state is handed to
//! [`super::save`], which saves the log when the browser is next idle (and restores it on load);
//! the reducer only shows how saving went ([`Action::Saved`]).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use super::i18n::K;
use super::lines::Seen;
pub use super::model::{Entry, Notice, Place};
use super::model::{Problem, Saved};
use super::save;
use crate::script::Session;
use crate::script::reply::Reply;
use crate::script::session::Checkpoints;

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
    /// Lines the server behind this page already ran (`rvlab serve`'s live feed): appended at
    /// the end and run wherever the scrubber is and however long they are, so the page replays
    /// exactly what the server ran. Never refused, never a fork question.
    Append(Vec<String>),
    /// Drop the steps after the scrubber and run the pending lines.
    ConfirmFork,
    CancelFork,
    /// Move the scrubber: replay the first `n` steps.
    Seek(usize),
    Undo,
    Redo,
    /// Empty sandbox.
    Reset,
    /// Replace the whole log (import, example): says "Imported N lines", and offers to restore
    /// the sandbox it replaced when that was kept first (`true`: [`save::keep_for_restore`]).
    Load(Vec<String>, bool),
    /// Replace the whole log with these lines and show `notice` (a guided lesson's setup, an
    /// embed's "start over"). Allowed in read-only embeds.
    Replace(Vec<String>, Option<Notice>),
    /// Bring back a kept sandbox (its log and redo stack, as saved: no limit applies) and say
    /// so; `true` when the one it replaces was kept in turn (the notice offers that one back).
    Restore(Saved, bool),
    /// Show this entry (index into `entries`) in the response viewer; an entry after the
    /// scrubber moves the scrubber to it.
    Select(usize),
    Notify(Notice),
    DismissNotice,
    /// Replace the sandbox with this one (a share link opened while the app runs).
    Open(Box<Lab>),
    /// How the idle save went ([`save::flush`]): an error shows a notice, success clears it.
    Saved(Result<(), Problem>),
    /// Another tab saved its sandbox under [`save::STORAGE_KEY`]: this one stops saving (so neither
    /// overwrites the other without a word) and says so.
    SavedElsewhere,
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
    /// The element of an embed mounted in the page (`ui::mount`), told of every line that runs.
    pub host: Option<Rc<super::embed_port::Host>>,
    /// Changes whenever the session does (memo key for the timeline).
    pub stamp: u64,
    /// The entry the running Play session grows, and the seconds it holds.
    pub playing: Option<(usize, u64)>,
    session: Rc<RefCell<Session>>,
    /// Snapshots of the session along the log (valid for `entries`' lines).
    checkpoints: Checkpoints,
    /// What the panels read from the outputs up to the scrubber, folded as lines run.
    seen: Rc<Seen>,
    /// [`Seen`] after every [`SEEN_EVERY`] entries (the k-th after `(k + 1) * SEEN_EVERY`), so
    /// that `seen` for any prefix folds at most `SEEN_EVERY - 1` entries.
    seen_marks: Rc<Vec<Rc<Seen>>>,
}

/// The spacing of [`Lab`]'s `seen` marks, in entries.
const SEEN_EVERY: usize = 1024;

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
            host: None,
            stamp: next_stamp(),
            playing: None,
            session: Rc::new(RefCell::new(new_session())),
            checkpoints: Checkpoints::default(),
            seen: Rc::default(),
            seen_marks: Rc::default(),
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
        lab.session = Rc::new(RefCell::new(session));
        for e in entries {
            lab.entries.push(e);
            lab.fold_last();
        }
        lab.at = lab.entries.len();
        lab
    }

    /// The sandbox saved in localStorage, or an empty one with a notice saying why not (and,
    /// when what is saved could not be kept aside, not saving over it).
    pub fn restore() -> Self {
        match save::restore() {
            save::Restored::Saved(Some((log, redo))) => Lab::replay(log, redo),
            save::Restored::Saved(None) => Lab::empty(),
            save::Restored::Unreadable { notice, saving } => {
                let mut lab = Lab::empty();
                lab.persist = saving;
                lab.notice = Some(notice);
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
        self.entries.iter().map(|e| e.line.to_string()).collect()
    }

    /// The steps up to the scrubber: what the panels show.
    pub fn visible(&self) -> &[Entry] {
        &self.entries[..self.at.min(self.entries.len())]
    }

    pub fn in_past(&self) -> bool {
        self.at < self.entries.len()
    }

    /// The outputs up to the scrubber, each with its typed answer.
    pub fn answers(&self) -> impl DoubleEndedIterator<Item = (&Value, &Reply)> + Clone {
        self.visible().iter().filter_map(|e| Some((e.out.as_deref()?, &*e.reply)))
    }

    /// What the outputs up to the scrubber show: revisions and continue tokens.
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// [`Seen`] for the first `n` entries: from the nearest mark, folding the entries after it.
    fn seen_at(&self, n: usize) -> Rc<Seen> {
        let n = n.min(self.entries.len());
        if self.seen.len == n {
            return self.seen.clone();
        }
        let k = (n / SEEN_EVERY).min(self.seen_marks.len());
        let mark = k.checked_sub(1).and_then(|i| self.seen_marks.get(i)).filter(|m| m.len <= n);
        let mut seen = match mark {
            // A step forward: from the current prefix when it is nearer.
            _ if self.seen.len < n && mark.is_none_or(|m| m.len <= self.seen.len) => Seen::clone(&self.seen),
            Some(m) => Seen::clone(m),
            None => Seen::default(),
        };
        for e in &self.entries[seen.len..n] {
            seen.push(e);
        }
        Rc::new(seen)
    }

    /// Folds the last entry into `seen` (which holds the ones before it), keeping a mark on
    /// the spacing.
    fn fold_last(&mut self) {
        let Some(e) = self.entries.last() else { return };
        if self.seen.len + 1 != self.entries.len() {
            self.seen = self.seen_at(self.entries.len() - 1);
        }
        let seen = Rc::make_mut(&mut self.seen);
        seen.push(e);
        if seen.len.is_multiple_of(SEEN_EVERY) && self.seen_marks.len() < seen.len / SEEN_EVERY {
            let mark = self.seen.clone();
            Rc::make_mut(&mut self.seen_marks).push(mark);
        }
    }

    /// The log now has only its first `n` entries: forgets the marks after them.
    fn truncate_seen(&mut self, n: usize) {
        if self.seen_marks.len() > n / SEEN_EVERY {
            Rc::make_mut(&mut self.seen_marks).truncate(n / SEEN_EVERY);
        }
    }

    /// The index of the entry the response viewer shows.
    pub fn shown(&self) -> Option<usize> {
        let vis = self.visible();
        self.selected.filter(|i| *i < vis.len()).or_else(|| vis.iter().rposition(|e| e.out.is_some()))
    }

    fn run_lines(&mut self, lines: Vec<String>) {
        super::safety::running(&lines);
        {
            let session = self.session.clone();
            let mut session = session.borrow_mut();
            // One snapshot per batch at most (a copy costs about what the lines cost to run).
            let mark = self.checkpoints.mark_in(self.entries.len(), self.entries.len() + lines.len());
            for line in lines {
                let n = self.entries.len() + 1;
                let outcome = session.run_line_outcome(n, &line);
                self.entries.push(Entry::new(line, outcome));
                if let Some(out) = self.entries.last().and_then(|e| e.out.as_deref()) {
                    super::embed_port::ran(self.host.as_ref(), out);
                }
                self.fold_last();
                if Some(n) == mark {
                    self.checkpoints.offer(n, &session);
                }
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
        let outcome = self.session.borrow_mut().run_line_outcome(i + 1, &super::lines::tick_line(secs));
        super::safety::running(&[]);
        self.entries[i] = Entry::new(line, outcome);
        if let Some(out) = self.entries[i].out.as_deref() {
            super::embed_port::ran(self.host.as_ref(), out);
        }
        self.checkpoints.truncate(i);
        self.truncate_seen(i);
        self.seen = self.seen_at(i);
        self.fold_last();
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
            host: self.host.clone(),
            stamp: self.stamp,
            playing: self.playing,
            session: self.session.clone(),
            checkpoints: self.checkpoints.clone(),
            seen: self.seen.clone(),
            seen_marks: self.seen_marks.clone(),
        }
    }

    /// A fresh sandbox with this one's settings (persist, readonly).
    fn fresh_like(&self, lines: Vec<String>, redo: Vec<String>) -> Lab {
        let mut lab = Lab::replay(lines, redo);
        lab.persist = self.persist;
        lab.readonly = self.readonly;
        lab.host = self.host.clone();
        lab
    }

    /// Rebuilds the session after the first `n` entries (from the nearest checkpoint), keeping
    /// every entry's output.
    pub fn seek(&self, n: usize) -> Lab {
        let n = n.min(self.entries.len());
        let mut lab = self.copy();
        let session = lab.checkpoints.session_at(n, &self.entries, new_session);
        lab.session = Rc::new(RefCell::new(session));
        lab.seen = self.seen_at(n);
        lab.at = n;
        lab.selected = None;
        lab.pending = None;
        lab.playing = None;
        lab.stamp = next_stamp();
        lab
    }

    /// The same log and redo stack with only the first `n` entries (undo): the session after
    /// them comes from the nearest checkpoint, the outputs are kept; the scrubber is at the end.
    fn cut(&self, n: usize, redo: Vec<String>) -> Lab {
        let mut lab = self.seek(n);
        lab.entries.truncate(n);
        lab.checkpoints.truncate(n);
        lab.truncate_seen(n);
        lab.at = n;
        lab.redo = redo;
        lab.notice = lasting(&self.notice);
        lab
    }

    /// Saves now (not on idle): for a sandbox that replaces the saved one before the app runs
    /// (a share link).
    pub fn save_now(&mut self) {
        if !self.persist {
            return;
        }
        self.saved(save::write_sandbox(self));
    }

    /// Shows how saving went: an error as a notice; success clears an earlier save warning.
    fn saved(&mut self, result: Result<(), Problem>) {
        match result {
            Err(msg) => self.notice = Some(Notice::error(K::NoticeSaveFailed, vec![]).arg(msg)),
            Ok(()) if self.save_warning() => self.notice = None,
            Ok(()) => {}
        }
    }

    fn save_warning(&self) -> bool {
        self.notice.as_ref().is_some_and(|n| n.key == K::NoticeSaveFailed)
    }
}

/// What stays of a notice once lines run, are undone, redone or reset: the offer to restore a kept
/// sandbox (its only way back), and a standing error at the top (saving, restoring). A refusal
/// answered one action; after the next it is stale.
fn lasting(notice: &Option<Notice>) -> Option<Notice> {
    notice
        .clone()
        .filter(|n| n.restore || (n.error && n.at == Place::Top && !super::safety::is_refusal(n.key)))
}

impl Reducible for Lab {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
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
                lab.notice = lasting(&self.notice);
                lab.run_lines(lines);
                lab
            }
            Action::Append(lines) => {
                if lines.is_empty() {
                    return self;
                }
                let mut lab = if self.in_past() { self.seek(self.entries.len()) } else { self.copy() };
                lab.pending = None;
                lab.playing = None;
                lab.redo = Vec::new();
                lab.selected = None;
                lab.notice = lasting(&self.notice);
                lab.run_lines(lines);
                lab
            }
            Action::ConfirmFork => {
                let Some(lines) = self.pending.clone() else { return self };
                let mut lab = self.copy();
                lab.entries.truncate(self.at);
                lab.checkpoints.truncate(self.at);
                lab.truncate_seen(self.at);
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
                redo.push(last.line.to_string());
                self.cut(self.entries.len() - 1, redo)
            }
            Action::Redo => {
                let mut redo = self.redo.clone();
                let Some(line) = redo.pop() else { return self };
                let mut lab = if self.in_past() { self.seek(self.entries.len()) } else { self.copy() };
                lab.redo = redo;
                lab.notice = lasting(&self.notice);
                lab.selected = None;
                lab.pending = None;
                lab.playing = None;
                lab.run_lines(vec![line]);
                lab
            }
            Action::Reset => {
                // Undoable: the lines go onto the redo stack, first line on top.
                let mut redo = self.redo.clone();
                redo.extend(self.log().into_iter().rev());
                let mut lab = self.fresh_like(Vec::new(), redo);
                lab.notice = lasting(&self.notice);
                lab
            }
            Action::Load(lines, kept) => {
                if let Err(n) = super::safety::check_lines(&lines) {
                    let mut lab = self.copy();
                    lab.notice = Some(n);
                    return Rc::new(lab);
                }
                let n = lines.len();
                let mut lab = self.fresh_like(lines, Vec::new());
                let mut notice = Notice::info(K::NoticeImported, vec![n.to_string()]);
                notice.restore = kept;
                lab.notice = Some(notice);
                lab
            }
            Action::Replace(lines, notice) => {
                let mut lab = self.fresh_like(lines, Vec::new());
                lab.notice = notice;
                lab
            }
            Action::Restore((log, redo), kept) => {
                let mut lab = self.fresh_like(log, redo);
                let mut notice = Notice::info(K::NoticeRestored, vec![]);
                notice.restore = kept;
                lab.notice = Some(notice);
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
            Action::Open(lab) => {
                let mut lab = *lab;
                lab.host = self.host.clone();
                let lab = Rc::new(lab);
                track(&lab, false);
                return lab;
            }
            Action::Saved(result) => {
                if result.is_ok() && !self.save_warning() {
                    return self;
                }
                let mut lab = self.copy();
                lab.saved(result);
                let lab = Rc::new(lab);
                track(&lab, false);
                return lab;
            }
            Action::SavedElsewhere => {
                if !self.persist {
                    return self;
                }
                let mut lab = self.copy();
                lab.persist = false;
                lab.notice = Some(Notice::error(K::NoticeOtherTab, vec![]));
                let lab = Rc::new(lab);
                track(&lab, false);
                return lab;
            }
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
                // A played line stays one the engine runs on replay (`script::budget`).
                let limit = self.session.borrow().max_advance().0 / 1000;
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
        let next = Rc::new(next);
        track(&next, true);
        next
    }
}

// ---- saving (in `save`): each new state is the latest

impl save::Sandbox for Lab {
    fn log_lines(&self) -> Box<dyn ExactSizeIterator<Item = &str> + '_> {
        Box::new(self.entries.iter().map(|e| &*e.line))
    }

    fn redo_lines(&self) -> &[String] {
        &self.redo
    }

    fn persists(&self) -> bool {
        self.persist
    }

    fn shows_save_failure(&self) -> bool {
        self.save_warning()
    }
}

/// The reducer's new state: the latest for [`save`], saved once the browser is idle when
/// `changed`.
fn track(lab: &Rc<Lab>, changed: bool) {
    save::track(lab.clone(), changed);
}

impl Lab {
    /// The sandbox as a mounted app starts with it, for [`save::mounted`].
    pub fn for_saving(&self) -> Rc<dyn save::Sandbox> {
        Rc::new(self.copy())
    }
}
