//! Saving the sandbox: the one module that writes the learner's work to localStorage and
//! reads it back. The reducer's every new state is remembered as the latest; a change is saved
//! when the browser is next idle, and at once when the page is hidden, left or unmounted
//! ([`flush_save`]); the sandbox about to be replaced is kept for a restore offer
//! ([`keep_for_restore`]); a saved sandbox this version cannot read is kept aside. The format is
//! in [`super::model`]; the panic hook's last save is [`super::safety`]'s.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::browser::{storage, thrown};
use super::model::{BACKUP_KEY, Problem, STORAGE_KEY, Saved, parse_saved, saved_text};
use super::state::{Action, Lab};

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
pub(super) fn track(lab: &Rc<Lab>, changed: bool) {
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
        Some(lab) => backup_lines(lab.entries.iter().map(|e| &*e.line), &lab.redo),
        None => backup_saved(),
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

pub(super) fn save_lab(lab: &Lab) -> Result<(), Problem> {
    save_lines(lab.entries.iter().map(|e| &*e.line), &lab.redo)
}

// ---- the saved sandbox (format in `model`)

/// Reads a saved sandbox from localStorage `key`; the error says what is wrong.
pub fn load_saved(key: &str) -> Result<Option<Saved>, Problem> {
    let storage = storage()?;
    let text = storage.get_item(key).map_err(thrown)?;
    let Some(text) = text else { return Ok(None) };
    parse_saved(&text).map(Some)
}

/// Copies the saved sandbox to [`BACKUP_KEY`] (before a share link replaces it, when no app
/// runs yet: the saved one is the learner's). Returns whether there was a non-empty sandbox
/// (lines, or only a redo stack) to keep.
pub fn backup_saved() -> bool {
    let Ok(storage) = storage() else { return false };
    let Ok(Some(text)) = storage.get_item(STORAGE_KEY) else { return false };
    let has_lines = parse_saved(&text).is_ok_and(|(log, redo)| !(log.is_empty() && redo.is_empty()));
    has_lines && storage.set_item(BACKUP_KEY, &text).is_ok()
}

/// Writes a sandbox (the one on screen) to [`BACKUP_KEY`]. Returns whether it was non-empty and
/// written.
pub fn backup_lines<'a>(log: impl ExactSizeIterator<Item = &'a str>, redo: &'a [String]) -> bool {
    if log.len() == 0 && redo.is_empty() {
        return false;
    }
    let Ok(storage) = storage() else { return false };
    let Ok(text) = saved_text(log, redo) else { return false };
    storage.set_item(BACKUP_KEY, &text).is_ok()
}

/// Saves the sandbox under [`STORAGE_KEY`].
pub fn save(log: &[String], redo: &[String]) -> Result<(), Problem> {
    save_lines(log.iter().map(String::as_str), redo)
}

/// [`save`], from borrowed lines (no copy of the log first).
pub fn save_lines<'a>(log: impl Iterator<Item = &'a str>, redo: &'a [String]) -> Result<(), Problem> {
    let storage = storage()?;
    let text = saved_text(log, redo)?;
    storage.set_item(STORAGE_KEY, &text).map_err(thrown)
}

/// Copies the text under localStorage `key` to `to` as it is (a saved sandbox this version
/// cannot read, before anything overwrites it). Returns whether there was one and it was copied.
pub fn keep_aside(key: &str, to: &str) -> bool {
    let Ok(storage) = storage() else { return false };
    let Ok(Some(text)) = storage.get_item(key) else { return false };
    storage.set_item(to, &text).is_ok()
}
