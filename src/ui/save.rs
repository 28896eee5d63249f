//! Saving the sandbox, in one place: what localStorage holds ([`STORAGE_KEY`], the backup under
//! [`BACKUP_KEY`], an unreadable save kept under [`UNREADABLE_KEY`]; the format in
//! [`super::model`]), reading it back when the app starts ([`restore`]), the save when the
//! browser is idle and at once when the page goes away ([`flush`]), the sandbox kept before
//! something replaces it ([`keep_for_restore`]), and the latest sandbox the panic hook writes
//! ([`latest`]). A failed write (a full quota, blocked storage) is a [`Problem`] the reducer shows.
//!
//! Dependencies go one way: this module knows only plain data ([`super::model`], the
//! [`Sandbox`] trait) and the page's storage ([`super::browser`]). The reducer (`state`)
//! implements [`Sandbox`] and calls in here; so do the panic hook (`safety`), the hooks that
//! listen to the page and the header's "restore" button. Nothing here names them.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::browser::{storage, thrown, when_idle};
use super::i18n::K;
pub use super::model::{BACKUP_KEY, STORAGE_KEY};
use super::model::{Notice, Problem, Saved, parse_saved, saved_text};

/// Where a saved sandbox that cannot be read is kept as it was (the next save would overwrite
/// [`STORAGE_KEY`]).
pub const UNREADABLE_KEY: &str = "rvlab.log.v1.unreadable";

/// How long a save may wait for the browser to be idle, in milliseconds.
pub const SAVE_IDLE_TIMEOUT_MS: u32 = 1000;

/// What saving needs of a sandbox (the reducer's state implements it).
pub trait Sandbox {
    /// The log's lines, oldest first (borrowed: a save copies no line).
    fn log_lines(&self) -> Box<dyn ExactSizeIterator<Item = &str> + '_>;
    /// The redo stack.
    fn redo_lines(&self) -> &[String];
    /// Whether it is saved at all (an embed's is not).
    fn persists(&self) -> bool;
    /// Whether it shows that an earlier save failed (a save that works is then reported, so the
    /// warning goes away).
    fn shows_save_failure(&self) -> bool;
}

// ---- localStorage

/// Reads a saved sandbox from localStorage `key`; the error says what is wrong.
pub fn load(key: &str) -> Result<Option<Saved>, Problem> {
    let storage = storage()?;
    let text = storage.get_item(key).map_err(thrown)?;
    let Some(text) = text else { return Ok(None) };
    parse_saved(&text).map(Some)
}

/// Saves a log and redo stack under [`STORAGE_KEY`].
pub fn write(log: &[String], redo: &[String]) -> Result<(), Problem> {
    write_lines(log.iter().map(String::as_str), redo)
}

/// [`write`], from borrowed lines (no copy of the log first).
fn write_lines<'a>(log: impl Iterator<Item = &'a str>, redo: &'a [String]) -> Result<(), Problem> {
    let storage = storage()?;
    let text = saved_text(log, redo)?;
    storage.set_item(STORAGE_KEY, &text).map_err(thrown)
}

/// Saves `lab` under [`STORAGE_KEY`] now.
pub fn write_sandbox(lab: &dyn Sandbox) -> Result<(), Problem> {
    write_lines(lab.log_lines(), lab.redo_lines())
}

/// Copies the saved sandbox to [`BACKUP_KEY`] (before a share link replaces it, when no app
/// runs yet: the saved one is the learner's). Returns whether there was a non-empty sandbox
/// (lines, or only a redo stack) to keep.
fn backup_saved() -> bool {
    let Ok(storage) = storage() else { return false };
    let Ok(Some(text)) = storage.get_item(STORAGE_KEY) else { return false };
    let has_lines = parse_saved(&text).is_ok_and(|(log, redo)| !(log.is_empty() && redo.is_empty()));
    has_lines && storage.set_item(BACKUP_KEY, &text).is_ok()
}

/// Writes a sandbox (the one on screen) to [`BACKUP_KEY`]. Returns whether it was non-empty and
/// written.
fn backup_sandbox(lab: &dyn Sandbox) -> bool {
    let (log, redo) = (lab.log_lines(), lab.redo_lines());
    if log.len() == 0 && redo.is_empty() {
        return false;
    }
    let Ok(storage) = storage() else { return false };
    let Ok(text) = saved_text(log, redo) else { return false };
    storage.set_item(BACKUP_KEY, &text).is_ok()
}

/// Copies the text under localStorage `key` to `to` as it is (a saved sandbox this version
/// cannot read, before anything overwrites it). Returns whether there was one and it was copied.
fn keep_aside(key: &str, to: &str) -> bool {
    let Ok(storage) = storage() else { return false };
    let Ok(Some(text)) = storage.get_item(key) else { return false };
    storage.set_item(to, &text).is_ok()
}

// ---- at load

/// What the app starts from when nothing else (a share link, an embed, a seed) says.
#[derive(Debug, PartialEq)]
pub enum Restored {
    /// The saved sandbox (None: nothing saved).
    Saved(Option<Saved>),
    /// What is saved cannot be read: the notice says why and where it was kept; when it could
    /// not be kept (`saving` false) the app must not save over it.
    Unreadable { notice: Notice, saving: bool },
}

/// Reads the saved sandbox. What cannot be read is never overwritten: it is copied to
/// [`UNREADABLE_KEY`] first, or, when that fails, the app does not save.
pub fn restore() -> Restored {
    match load(STORAGE_KEY) {
        Ok(saved) => Restored::Saved(saved),
        Err(msg) if keep_aside(STORAGE_KEY, UNREADABLE_KEY) => Restored::Unreadable {
            notice: Notice::error(K::NoticeRestoreFailedKept, vec![STORAGE_KEY.into()])
                .arg(msg)
                .arg(UNREADABLE_KEY),
            saving: true,
        },
        Err(msg) => Restored::Unreadable {
            notice: Notice::error(K::NoticeRestoreFailedNotSaving, vec![STORAGE_KEY.into()]).arg(msg),
            saving: false,
        },
    }
}

// ---- when the browser is idle, and at once when the page goes away

/// Where a save's outcome goes (the mounted app), and which mount that is.
struct Report {
    mount: u64,
    to: Rc<dyn Fn(Result<(), Problem>)>,
}

thread_local! {
    /// The sandbox as it is now: what the idle save writes and the panic hook saves and exports.
    static LATEST: RefCell<Option<Rc<dyn Sandbox>>> = const { RefCell::new(None) };
    /// LATEST has changes that are not saved yet.
    static DIRTY: Cell<bool> = const { Cell::new(false) };
    /// An idle callback is pending.
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
    static REPORT: RefCell<Option<Report>> = const { RefCell::new(None) };
    static MOUNTS: Cell<u64> = const { Cell::new(0) };
}

/// The sandbox as it is now: remembered as the latest, and (when `changed` and it persists)
/// saved once the browser is idle.
pub fn track(lab: Rc<dyn Sandbox>, changed: bool) {
    let persists = lab.persists();
    LATEST.with(|l| *l.borrow_mut() = Some(lab));
    if !(changed && persists) {
        return;
    }
    DIRTY.with(|d| d.set(true));
    if SCHEDULED.with(|s| s.replace(true)) {
        return;
    }
    let scheduled = when_idle(SAVE_IDLE_TIMEOUT_MS, || {
        SCHEDULED.with(|s| s.set(false));
        flush();
    });
    if !scheduled {
        SCHEDULED.with(|s| s.set(false));
        flush();
    }
}

/// A mounted app: the sandbox it starts with is the latest (nothing to save yet), and save
/// outcomes go to `report` until [`unmounted`] with the id this returns.
pub fn mounted(lab: Rc<dyn Sandbox>, report: impl Fn(Result<(), Problem>) + 'static) -> u64 {
    track(lab, false);
    let mount = MOUNTS.with(|m| {
        m.set(m.get() + 1);
        m.get()
    });
    REPORT.with(|r| *r.borrow_mut() = Some(Report { mount, to: Rc::new(report) }));
    mount
}

/// The app mounted as `mount` unmounted (after its last save): save outcomes no longer go to it
/// and its sandbox is no longer the latest (what the panic hook would save), unless an app
/// mounted since took over.
pub fn unmounted(mount: u64) {
    if REPORT.with(|r| r.borrow().as_ref().is_some_and(|r| r.mount == mount)) {
        REPORT.with(|r| *r.borrow_mut() = None);
        LATEST.with(|l| *l.borrow_mut() = None);
    }
}

/// Saves the latest sandbox now if it has unsaved changes (on idle, `visibilitychange` to
/// hidden, `pagehide`, unmount); a failure, or a success after one, goes to the mounted app.
/// Returns whether it saved.
pub fn flush() -> bool {
    if !DIRTY.with(|d| d.replace(false)) {
        return false;
    }
    let Some(lab) = LATEST.with(|l| l.borrow().clone()).filter(|l| l.persists()) else { return false };
    let result = write_sandbox(&*lab);
    if result.is_err() || lab.shows_save_failure() {
        let report = REPORT.with(|r| r.borrow().as_ref().map(|r| r.to.clone()));
        if let Some(to) = report {
            to(result);
        }
    }
    true
}

/// Keeps the sandbox about to be replaced (by an example, an imported file, a lesson, a share
/// link) under [`BACKUP_KEY`], so a notice can offer it back. It is the one on screen — with
/// the lines still waiting for the idle save, and also in a tab that stopped saving because
/// another tab saved (localStorage then holds the other tab's) — or, before any app runs, the
/// saved one. Returns whether there was a non-empty sandbox and it was kept.
pub fn keep_for_restore() -> bool {
    flush();
    match LATEST.with(|l| l.try_borrow().ok().and_then(|l| l.clone())) {
        Some(lab) => backup_sandbox(&*lab),
        None => backup_saved(),
    }
}

/// Whether a change waits for the idle save.
pub fn pending() -> bool {
    DIRTY.with(|d| d.get())
}

/// The latest log and redo stack (for the panic hook; [`latest_persists`] says whether it is
/// saved).
pub fn latest() -> Option<Saved> {
    LATEST.with(|l| {
        l.try_borrow()
            .ok()?
            .as_ref()
            .map(|lab| (lab.log_lines().map(str::to_string).collect(), lab.redo_lines().to_vec()))
    })
}

/// Whether the latest sandbox is saved to localStorage (not an embed).
pub fn latest_persists() -> bool {
    LATEST.with(|l| l.try_borrow().ok().and_then(|l| l.as_ref().map(|lab| lab.persists())).unwrap_or(false))
}
