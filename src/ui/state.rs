//! The app's one piece of state: the command log and its outputs, in one `Reducible`.
//!
//! The log (script lines) is the truth; the engine `Session` is rebuilt by replaying it. Undo
//! and the scrubber rebuild a prefix from the nearest [`Checkpoints`] snapshot (not from the
//! first line) and undone lines go onto a redo stack. Every change of the log is saved to
//! localStorage under [`STORAGE_KEY`] when the browser is next idle, at once when the page is
//! hidden, left or unmounted ([`flush_save`]), and restored on load (format in [`super::model`]).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use super::browser::{load_saved, save_lines};
use super::i18n::K;
use super::lines::Seen;
pub use super::model::{Entry, Notice, Place};
use super::model::{Problem, STORAGE_KEY, Saved};
use crate::script::Session;
use crate::script::reply::Reply;
use crate::script::session::Checkpoints;

/// Where a saved sandbox that cannot be read is kept as it was (the next save would overwrite
/// [`STORAGE_KEY`]).
pub const UNREADABLE_KEY: &str = "rvlab.log.v1.unreadable";

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
    /// the sandbox it replaced when that was kept first (`true`: [`keep_for_restore`]).
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
    /// How the idle save went ([`flush_save`]): an error shows a notice, success clears it.
    Saved(Result<(), Problem>),
    /// Another tab saved its sandbox under [`STORAGE_KEY`]: this one stops saving (so neither
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

    /// The sandbox saved in localStorage, or an empty one with a notice saying why not. What
    /// cannot be read is never overwritten: it is copied to [`UNREADABLE_KEY`] first, or, when
    /// that fails, this sandbox is not saved.
    pub fn restore() -> Self {
        match load_saved(STORAGE_KEY) {
            Ok(Some((log, redo))) => Lab::replay(log, redo),
            Ok(None) => Lab::empty(),
            Err(msg) => {
                let mut lab = Lab::empty();
                let notice = if super::browser::keep_aside(STORAGE_KEY, UNREADABLE_KEY) {
                    Notice::error(K::NoticeRestoreFailedKept, vec![STORAGE_KEY.into()])
                        .arg(msg)
                        .arg(UNREADABLE_KEY)
                } else {
                    lab.persist = false;
                    Notice::error(K::NoticeRestoreFailedNotSaving, vec![STORAGE_KEY.into()]).arg(msg)
                };
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

    /// What the outputs up to the scrubber show: revisions, continue tokens, watches.
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
                    super::embed_port::ran(out);
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
            super::embed_port::ran(out);
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
        self.saved(save_lab(self));
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
                let lab = Rc::new(*lab);
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

// ---- saving: when the browser is idle, and at once when the page goes away

thread_local! {
    /// The sandbox as it is now: what the idle save writes and the panic hook saves and exports.
    static LATEST: RefCell<Option<Rc<Lab>>> = const { RefCell::new(None) };
    /// LATEST has changes that are not saved yet.
    static DIRTY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// An idle callback is pending.
    static SCHEDULED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Where a save's outcome goes (the mounted app's reducer).
    static REPORT: RefCell<Option<UseReducerDispatcher<Lab>>> = const { RefCell::new(None) };
}

/// How long a save may wait for the browser to be idle, in milliseconds.
pub const SAVE_IDLE_TIMEOUT_MS: u32 = 1000;

/// The reducer's new state: remembered as the latest, and (when `changed` and the sandbox
/// persists) saved once the browser is idle.
fn track(lab: &Rc<Lab>, changed: bool) {
    LATEST.with(|l| *l.borrow_mut() = Some(lab.clone()));
    super::safety::set_latest_source(|| (latest(), latest_persists()));
    if !(changed && lab.persist) {
        return;
    }
    DIRTY.with(|d| d.set(true));
    if SCHEDULED.with(|s| s.replace(true)) {
        return;
    }
    let scheduled = super::browser::when_idle(SAVE_IDLE_TIMEOUT_MS, || {
        SCHEDULED.with(|s| s.set(false));
        flush_save();
    });
    if !scheduled {
        SCHEDULED.with(|s| s.set(false));
        flush_save();
    }
}

/// The sandbox a mounted app starts with is the latest (nothing to save yet), and save
/// outcomes go to its reducer (until [`track_unmounted`]).
pub fn track_mounted(lab: &Lab, report: UseReducerDispatcher<Lab>) {
    track(&Rc::new(lab.copy()), false);
    REPORT.with(|r| *r.borrow_mut() = Some(report));
}

/// The app whose reducer is `report` unmounted (after its last save): save outcomes no longer
/// go to it and its sandbox is no longer the latest (what the panic hook would save), unless an
/// app mounted since took over.
pub fn track_unmounted(report: &UseReducerDispatcher<Lab>) {
    if REPORT.with(|r| r.borrow().as_ref() == Some(report)) {
        REPORT.with(|r| *r.borrow_mut() = None);
        LATEST.with(|l| *l.borrow_mut() = None);
    }
}

/// Saves the latest sandbox now if it has unsaved changes (on idle, `visibilitychange` to
/// hidden, `pagehide`, unmount); the outcome goes to the app as [`Action::Saved`]. Returns
/// whether it saved.
pub fn flush_save() -> bool {
    if !DIRTY.with(|d| d.replace(false)) {
        return false;
    }
    let Some(lab) = LATEST.with(|l| l.borrow().clone()).filter(|l| l.persist) else { return false };
    let result = save_lab(&lab);
    if result.is_err() || lab.save_warning() {
        let report = REPORT.with(|r| r.borrow().clone());
        if let Some(d) = report {
            d.dispatch(Action::Saved(result));
        }
    }
    true
}

/// Keeps the sandbox about to be replaced (by an example, an imported file, a lesson) under
/// [`super::model::BACKUP_KEY`], so a notice can offer it back. It is the one on screen — with
/// the lines still waiting for the idle save, and also in a tab that stopped saving because
/// another tab saved (localStorage then holds the other tab's) — or, before any app runs, the
/// saved one. Returns whether there was a non-empty sandbox and it was kept.
pub fn keep_for_restore() -> bool {
    flush_save();
    match LATEST.with(|l| l.try_borrow().ok().and_then(|l| l.clone())) {
        Some(lab) => super::browser::backup_lines(lab.entries.iter().map(|e| &*e.line), &lab.redo),
        None => super::browser::backup_saved(),
    }
}

/// Whether a change waits for the idle save.
pub fn save_pending() -> bool {
    DIRTY.with(|d| d.get())
}

/// The latest log and redo stack (for the panic hook; [`latest_persists`] says whether it is
/// saved).
pub fn latest() -> Option<Saved> {
    LATEST.with(|l| l.try_borrow().ok()?.as_ref().map(|lab| (lab.log(), lab.redo.clone())))
}

/// Whether the latest sandbox is saved to localStorage (not an embed).
pub fn latest_persists() -> bool {
    LATEST.with(|l| l.try_borrow().ok().and_then(|l| l.as_ref().map(|lab| lab.persist)).unwrap_or(false))
}

fn save_lab(lab: &Lab) -> Result<(), Problem> {
    save_lines(lab.entries.iter().map(|e| &*e.line), &lab.redo)
}
