//! No lost work: bounds on what one action may run (so a pasted 10 MB script gives a clear
//! message instead of a frozen tab; how far one `advance` may go is the engine's own rule, an
//! error of that line), and the panic hook.
//!
//! Release builds use `panic = "abort"`: after a panic the wasm instance is dead and Yew can no
//! longer render. The hook therefore makes sure the log is in localStorage (`save` saves it when
//! the browser is idle after every change; the hook writes the last known log at once) and draws an
//! overlay with plain DOM calls: what happened, "Reload and restore" and an "Export the log" link (a `data:` URL with
//! the script, which needs no wasm to work).

use std::cell::{Cell, RefCell};

use super::i18n::{K, Lang};
use super::model::{EXPORT_NAME, Notice, script_text};

use crate::embed::console::options::{ActionRefusal, check_action, check_each_line, kb};
pub use crate::embed::console::options::{
    MAX_ACTION_BYTES as MAX_BYTES, MAX_ACTION_LINES as MAX_LINES, MAX_LINE_BYTES,
};

/// The notice of a refused action.
fn notice(r: ActionRefusal) -> Notice {
    match r {
        ActionRefusal::TooBig { lines, bytes } => Notice::error(
            K::NoticeScriptTooBig,
            vec![lines.to_string(), kb(bytes), MAX_LINES.to_string(), kb(MAX_BYTES)],
        ),
        ActionRefusal::LineTooLong { index, bytes } => {
            Notice::error(K::NoticeLineTooLong, vec![(index + 1).to_string(), kb(bytes), kb(MAX_LINE_BYTES)])
        }
    }
}

/// Checks the lines of one action before they run (the limits are the console embed's too);
/// the error is the notice to show.
pub fn check_lines(lines: &[String]) -> Result<(), Notice> {
    check_action(lines).map_err(notice)
}

/// The per-line check only (a line's length): for logs that are replayed (share links,
/// embeds), which may be long. What a line means (an `advance` too far, say) is the engine's to
/// judge: such a line runs and its output is the error.
pub fn check_each(lines: &[String]) -> Result<(), Notice> {
    check_each_line(lines).map_err(notice)
}

/// Whether a notice with this key is one of the refusals above (it answers one action only).
pub fn is_refusal(key: K) -> bool {
    matches!(key, K::NoticeScriptTooBig | K::NoticeLineTooLong)
}

/// Checks a whole script text before it is split (a 10 MB paste is refused without building
/// thousands of strings first).
pub fn check_text(text: &str) -> Result<(), Notice> {
    if text.len() > MAX_BYTES {
        let lines = text.lines().count();
        return Err(Notice::error(
            K::NoticeScriptTooBig,
            vec![lines.to_string(), kb(text.len()), MAX_LINES.to_string(), kb(MAX_BYTES)],
        ));
    }
    Ok(())
}

// ---- the panic hook

thread_local! {
    /// The lines being run right now (the likely cause of a panic).
    static RUNNING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
    static INSTALLED: Cell<bool> = const { Cell::new(false) };
}

/// Records the lines about to run (empty when done).
pub fn running(lines: &[String]) {
    RUNNING.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            r.clear();
            r.extend(lines.iter().cloned());
        }
    });
}

/// The language of the overlay.
pub fn set_lang(lang: Lang) {
    LANG.with(|l| l.set(lang));
}

/// Installs the panic hook once (keeping the previous hook, e.g. the test runner's, after ours).
pub fn install() {
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            s.to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "panic".to_string()
        };
        let place = info.location().map(|l| format!(" ({}:{})", l.file(), l.line())).unwrap_or_default();
        on_panic(&format!("{msg}{place}"));
        previous(info);
    }));
}

/// Whether [`install`] ran.
pub fn installed() -> bool {
    INSTALLED.with(|i| i.get())
}

/// What the hook does: save the log, draw the overlay. Never panics.
pub fn on_panic(message: &str) {
    // The log as of the last change (what "Reload and restore" brings back), and whether the
    // app saves it (off for embeds).
    let (log, redo) = super::save::latest().unwrap_or_default();
    let persist = super::save::latest_persists();
    let running = RUNNING.with(|r| r.try_borrow().map(|r| r.clone()).unwrap_or_default());
    let lang = LANG.with(|l| l.get());
    let saved = if persist { super::save::write(&log, &redo).err() } else { None };
    let saved = saved.map(|p| p.text(super::i18n::Tr(lang)));
    let mut script = script_text(&log);
    if !running.is_empty() {
        script.push_str("# rvlab stopped while running:\n");
        for l in &running {
            script.push_str(&format!("# {l}\n"));
        }
    }
    let _ = overlay(lang, message, &running, &script, saved.as_deref());
}

/// The id of the overlay element.
pub const OVERLAY_ID: &str = "rvlab-crash";

fn overlay(
    lang: Lang,
    message: &str,
    running: &[String],
    script: &str,
    not_saved: Option<&str>,
) -> Option<()> {
    let doc = web_sys::window()?.document()?;
    let body = doc.body()?;
    if let Some(old) = doc.get_element_by_id(OVERLAY_ID) {
        old.remove();
    }
    let el = |tag: &str, text: Option<&str>| -> Option<web_sys::Element> {
        let e = doc.create_element(tag).ok()?;
        if let Some(t) = text {
            e.set_text_content(Some(t));
        }
        Some(e)
    };
    let root = el("div", None)?;
    root.set_id(OVERLAY_ID);
    let _ = root.set_attribute("role", "alertdialog");
    let _ = root.set_attribute("aria-labelledby", "rvlab-crash-h");
    let _ = root.set_attribute(
        "style",
        "position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;font:15px/1.45 system-ui,sans-serif",
    );
    let card = el("div", None)?;
    let _ = card.set_attribute(
        "style",
        "background:#fff;color:#1d1f24;max-width:36em;margin:1em;padding:1.2em 1.4em;border-radius:8px;border:2px solid #b3261e",
    );
    let h = el("h2", Some(K::CrashTitle.get(lang)))?;
    h.set_id("rvlab-crash-h");
    let _ = h.set_attribute("style", "margin:0 0 .5em;font-size:1.2em;color:#b3261e");
    card.append_child(&h).ok()?;
    let body_p = el("p", Some(K::CrashBody.get(lang)))?;
    card.append_child(&body_p).ok()?;
    if let Some(why) = not_saved {
        let p = el("p", Some(&super::i18n::fill(K::CrashNotSaved.get(lang), &[&why])))?;
        p.set_id("rvlab-crash-not-saved");
        let _ = p.set_attribute("style", "color:#b3261e;font-weight:600");
        card.append_child(&p).ok()?;
    }
    if !running.is_empty() {
        let shown: String = running.join(" ⏎ ").chars().take(300).collect();
        let p = el("p", Some(&super::i18n::fill(K::CrashLine.get(lang), &[&shown])))?;
        p.set_id("rvlab-crash-line");
        card.append_child(&p).ok()?;
    }
    let pre = el("pre", Some(&message.chars().take(2000).collect::<String>()))?;
    pre.set_id("rvlab-crash-message");
    let _ = pre.set_attribute(
        "style",
        "white-space:pre-wrap;word-break:break-word;max-height:8em;overflow:auto;background:#f0f2f6;padding:.5em;font-size:12px",
    );
    card.append_child(&pre).ok()?;
    let row = el("p", None)?;
    let _ = row.set_attribute("style", "display:flex;gap:1em;align-items:center;flex-wrap:wrap");
    let btn = el("button", Some(K::CrashReload.get(lang)))?;
    btn.set_id("rvlab-crash-reload");
    let _ = btn.set_attribute("type", "button");
    let _ = btn.set_attribute("onclick", "location.reload()");
    let _ = btn.set_attribute(
        "style",
        "font:inherit;padding:.4em 1em;border:1px solid #2f6fdb;background:#2f6fdb;color:#fff;border-radius:4px;cursor:pointer",
    );
    row.append_child(&btn).ok()?;
    let a = el("a", Some(K::CrashExport.get(lang)))?;
    a.set_id("rvlab-crash-export");
    let _ = a.set_attribute(
        "href",
        &format!("data:text/plain;charset=utf-8,{}", super::url::percent_encode(script)),
    );
    let _ = a.set_attribute("download", EXPORT_NAME);
    row.append_child(&a).ok()?;
    card.append_child(&row).ok()?;
    root.append_child(&card).ok()?;
    body.append_child(&root).ok()?;
    let _ = btn.dyn_ref::<web_sys::HtmlElement>().map(|b| b.focus());
    Some(())
}

use wasm_bindgen::JsCast;
