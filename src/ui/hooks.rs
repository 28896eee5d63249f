//! The app's hooks: [`use_lab`] owns the one reducer (the sandbox: command log, outputs, redo
//! stack) and what keeps it in step with the page — where it starts (seed, embed scenario, share
//! link, localStorage), the panic hook's copy of the log, share links opened while the app runs
//! (`hashchange`) and Ctrl+Z / Ctrl+Y anywhere on the document.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::browser::{self, Listener, On};
use super::config::Config;
use super::i18n::{K, Lang};
use super::state::{Action, Lab, LabHandle, Notice};
use super::{examples, guided, lines, safety, save, share};

/// The lines an embed starts from (its `script=` or `lesson=`), checked line by line, both when
/// it opens and on "start over"; the error is the notice to show instead (a line too long, an
/// unknown lesson).
pub fn embed_lines(cfg: &Config) -> Result<Vec<String>, Notice> {
    let lines = match (&cfg.script, &cfg.lesson) {
        (Some(s), _) => lines::split_script(s),
        (None, None) => Vec::new(),
        // The lesson panel fills the sandbox once the lesson is loaded.
        (None, Some(_)) if cfg.guided_lesson().is_some() => Vec::new(),
        (None, Some(name)) => examples::lines_of(name).ok_or_else(|| {
            Notice::error(K::NoticeLessonUnknown, vec![name.clone(), examples::names().join(", ")])
        })?,
    };
    safety::check_each(&lines)?;
    Ok(lines)
}

/// The sandbox a share-link fragment (`v1=…`) opens, with a notice saying what happened; the
/// sandbox it replaces is backed up first (the notice offers to restore it).
pub fn open_share(fragment: &str) -> Lab {
    let backed_up = save::keep_for_restore();
    let mut lab = match share::decode(fragment).map(|sh| (safety::check_each(&sh.log), sh)) {
        Ok((Err(refused), _)) => {
            let mut lab = Lab::empty();
            lab.notice = Some(refused);
            lab
        }
        Ok((Ok(()), sh)) => {
            let n = sh.log.len();
            let mut lab = Lab::replay(sh.log, Vec::new());
            if sh.at < n {
                lab = lab.seek(sh.at);
            }
            lab.notice = Some(Notice::info(K::NoticeShareOpened, vec![n.to_string()]));
            // Saved now (the link leaves the address bar): if that fails, its notice wins, or a
            // reload would silently bring back the old sandbox.
            lab.save_now();
            lab
        }
        Err(e) => {
            let mut lab = Lab::empty();
            lab.notice = Some(match e {
                share::ShareError::Version(v) => Notice::error(K::NoticeShareBadVersion, vec![v]),
                share::ShareError::Encoding => Notice::error(K::NoticeShareBadEncoding, vec![]),
                share::ShareError::Data(d) => {
                    Notice::error(K::NoticeShareBadData, vec![]).arg(super::model::Problem::Share(d))
                }
            });
            lab
        }
    };
    if let Some(n) = lab.notice.as_mut() {
        n.restore = backed_up;
    }
    lab
}

/// The sandbox the app starts with: a seeded session, an embed's scenario, a share link, or
/// what localStorage holds.
fn initial_lab(cfg: &Config) -> Lab {
    if let Some((session, entries)) = cfg.seed.borrow_mut().take() {
        let mut lab = Lab::from_session(session, entries);
        lab.persist = false;
        lab.readonly = cfg.readonly();
        lab.host = cfg.host.clone();
        return lab;
    }
    if cfg.embed {
        let (lines, notice) = match embed_lines(cfg) {
            Ok(l) => (l, None),
            Err(n) => (Vec::new(), Some(n)),
        };
        let mut lab = Lab::replay(lines, Vec::new());
        lab.persist = false;
        lab.readonly = cfg.readonly();
        lab.host = cfg.host.clone();
        lab.notice = notice;
        return lab;
    }
    if let Some(fr) = cfg.fragment.as_deref().filter(|f| share::is_share_fragment(f)) {
        return open_share(fr);
    }
    Lab::restore()
}

/// The sandbox: one reducer over the command log, started from `cfg`. The panic hook always
/// knows the log as it is now, and a consumed share link leaves the address bar (so a reload
/// does not replay it again).
#[hook]
pub fn use_lab(cfg: &Rc<Config>, lang: Lang) -> LabHandle {
    let lab = use_reducer({
        let cfg = cfg.clone();
        move || initial_lab(&cfg)
    });
    use_effect_with((), {
        let cfg = cfg.clone();
        move |_| {
            if cfg.from_location
                && !cfg.embed
                && cfg.fragment.as_deref().is_some_and(share::is_share_fragment)
            {
                browser::replace_url(&[], true);
            }
        }
    });
    // An embed mounted in a host page leaves the page's own language alone (its element says
    // its language).
    let own_page = cfg.host.is_none();
    use_effect_with(lang, move |l| {
        safety::install();
        safety::set_lang(*l);
        if own_page {
            browser::set_document_lang(l.tag());
        }
    });
    use_autosave(&lab);
    lab
}

/// Changes are saved when the browser is idle ([`save::flush`]); what is not saved yet is
/// saved at once when the page is hidden (`visibilitychange`), left (`pagehide`) or the app
/// unmounts, so leaving never loses a line. Until the first change, the sandbox the app
/// started with is what the panic hook knows. When another tab saves its sandbox (`storage`),
/// this one stops saving ([`Action::SavedElsewhere`]) rather than overwrite it.
#[hook]
fn use_autosave(lab: &LabHandle) {
    let lab = lab.clone();
    use_effect_with((), move |_| {
        let report = lab.dispatcher();
        let mount = save::mounted(lab.for_saving(), move |r| report.dispatch(Action::Saved(r)));
        let hidden = Listener::new(On::Document, "visibilitychange", |_| {
            if browser::page_hidden() {
                save::flush();
            }
        });
        let left = Listener::new(On::Window, "pagehide", |_| {
            save::flush();
        });
        let other_tab = {
            let d = lab.dispatcher();
            Listener::new(On::Window, "storage", move |e| {
                let key = js_sys::Reflect::get(&e, &"key".into()).ok().and_then(|k| k.as_string());
                if key.as_deref() == Some(save::STORAGE_KEY) {
                    d.dispatch(Action::SavedElsewhere);
                }
            })
        };
        move || {
            drop((hidden, left, other_tab));
            save::flush();
            save::unmounted(mount);
        }
    });
}

/// A share link opened in a tab that already runs the app only changes the fragment: on
/// `hashchange` to a share fragment, the sandbox is replaced (the old one backed up, a notice
/// says so), any open lesson closes, and the fragment leaves the address bar again.
#[hook]
pub fn use_share_links(cfg: &Rc<Config>, lab: &LabHandle, guide: &guided::GuideHandle) {
    let on = cfg.from_location && !cfg.embed;
    let lab = lab.clone();
    let guide = guide.clone();
    use_effect_with(on, move |on| {
        let listener = on.then(|| {
            Listener::new(On::Window, "hashchange", move |e| {
                // The event's own new URL: another listener may already have cleaned the
                // address bar.
                let url = js_sys::Reflect::get(&e, &"newURL".into()).ok().and_then(|u| u.as_string());
                let fr = url
                    .as_deref()
                    .and_then(|u| u.split_once('#'))
                    .map(|(_, f)| f.to_string())
                    .unwrap_or_default();
                if !share::is_share_fragment(&fr) {
                    return;
                }
                guide.dispatch(guided::GuideAction::Close);
                lab.dispatch(Action::Open(Box::new(open_share(&fr))));
                browser::replace_url(&[], true);
            })
        });
        move || drop(listener)
    });
}

/// Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z, ⌘ on macOS) undo and redo from anywhere on the document,
/// except while typing in a field (where they edit the field) and in read-only embeds.
#[hook]
pub fn use_undo_keys(lab: &LabHandle) {
    let lab = lab.clone();
    use_effect_with((), move |_| {
        let listener =
            (!lab.readonly).then(|| {
                Listener::new(On::Document, "keydown", move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
                        return;
                    }
                    // An embed mounted in a host page takes only keys pressed inside it (their
                    // target at the document is its element); the others are the page's or
                    // another embed's.
                    if lab
                        .host
                        .as_ref()
                        .is_some_and(|h| e.target().map(JsValue::from) != Some(JsValue::from(&h.element)))
                    {
                        return;
                    }
                    // The element the key was pressed in (inside a shadow root, not its host).
                    let typing =
                        e.composed_path().get(0).dyn_into::<web_sys::Element>().ok().is_some_and(|el| {
                            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                        });
                    if typing {
                        return;
                    }
                    match e.key().to_lowercase().as_str() {
                        "z" if e.shift_key() => lab.dispatch(Action::Redo),
                        "z" => lab.dispatch(Action::Undo),
                        "y" => lab.dispatch(Action::Redo),
                        _ => return,
                    }
                    e.prevent_default();
                })
            });
        move || drop(listener)
    });
}

/// Opened from `rvlab serve`: follow the live log of what real clients do ([`super::live`]):
/// the backlog replaces the sandbox, then each new line is appended at the end and runs (the
/// server already ran it: no limit or fork question of the page's own actions applies).
#[hook]
pub fn use_live_log(lab: &LabHandle) {
    let lab = lab.clone();
    use_effect_with((), move |_| {
        let following = super::live::live_url().and_then(|url| {
            super::live::follow(&url, move |ev| match ev {
                super::live::LiveEvent::Backlog(lines) => lab.dispatch(Action::Replace(lines, None)),
                super::live::LiveEvent::Line(line) => lab.dispatch(Action::Append(vec![line])),
            })
        });
        move || drop(following)
    });
}

/// Embeds tell the host page how tall they are (unless `?height=` fixed it): after every render
/// of the app, and whenever the app's box changes size without one (a panel's own "show more",
/// a `<details>` opened, the window resized), which a ResizeObserver reports. A height is posted
/// only when it differs from the last one posted, so the host's frame is not set again (and its
/// page not laid out again) for every render of the same content.
#[hook]
pub fn use_embed_height(app_ref: &NodeRef, on: bool) {
    let last = use_mut_ref(|| None::<i32>);
    let post = move |el: &web_sys::Element| {
        let h = browser::content_height(el);
        if *last.borrow() != Some(h) {
            *last.borrow_mut() = Some(h);
            browser::post_height(h);
        }
    };
    {
        let app_ref = app_ref.clone();
        let post = post.clone();
        use_effect(move || {
            if on && let Some(el) = app_ref.cast::<web_sys::Element>() {
                post(&el);
            }
        });
    }
    let app_ref = app_ref.clone();
    use_effect_with(on, move |on| {
        let observer = on.then(|| app_ref.cast::<web_sys::Element>()).flatten().and_then(|el| {
            let target = el.clone();
            let cb = Closure::<dyn Fn()>::new(move || post(&target));
            let ro = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
            ro.observe(&el);
            Some((ro, cb))
        });
        move || {
            if let Some((ro, cb)) = observer {
                ro.disconnect();
                drop(cb);
            }
        }
    });
}

/// The areas of an embed whose content changes as the reader steps (the picture, the lesson's
/// text): at the reader's first touch, they keep the height they have then.
const LOCKED_AREAS: [&str; 2] = [".timeline-panel", ".lesson-panel"];

/// An embed's height is fixed once the reader starts using it. Until then it is laid out for
/// what it shows at load (a read-only replay shows its last, fullest step; the response, the
/// console and, in an interactive embed, the picture have reserved heights in the stylesheet).
/// At the first pointer press, key press, focus or message from the host page inside the embed,
/// the picture's and the lesson's areas are given their current height ([`LOCKED_AREAS`],
/// `data-locked` on the app): what the reader's steps show in them afterwards scrolls inside
/// them, so ◀ ▶, Show me, Check, Next or a typed line never change the frame's height.
#[hook]
pub fn use_embed_lock(app_ref: &NodeRef, on: bool) {
    let app_ref = app_ref.clone();
    use_effect_with(on, move |on| {
        let listeners = on.then(|| {
            let done = Rc::new(std::cell::Cell::new(false));
            let lock = move |e: web_sys::Event| {
                // The embed's own height messages (to itself when it is not in a frame) are not
                // the reader's doing.
                let own = e
                    .dyn_ref::<web_sys::MessageEvent>()
                    .and_then(web_sys::MessageEvent::source)
                    .zip(web_sys::window())
                    .is_some_and(|(from, w)| js_sys::Object::is(&from, &w));
                // An embed mounted in a host page (its app under a shadow root) shares the
                // document with the page and the other embeds: only the reader's own touches
                // inside it count (and no message drives it).
                let elsewhere = app_ref.cast::<web_sys::Element>().is_some_and(|app| {
                    let in_page = app.get_root_node().dyn_ref::<web_sys::Document>().is_none();
                    in_page
                        && (e.dyn_ref::<web_sys::MessageEvent>().is_some()
                            || !e.composed_path().includes(&app, 0))
                });
                if own || elsewhere || done.replace(true) {
                    return;
                }
                if let Some(app) = app_ref.cast::<web_sys::Element>() {
                    lock_areas(&app);
                }
            };
            let lock = Rc::new(lock);
            ["pointerdown", "keydown", "focusin", "message"].map(|event| {
                let lock = lock.clone();
                let on = if event == "message" { On::Window } else { On::Document };
                Listener::new(on, event, move |e| lock(e))
            })
        });
        move || drop(listeners)
    });
}

/// Gives each of the app's [`LOCKED_AREAS`] the height it has now.
fn lock_areas(app: &web_sys::Element) {
    for sel in LOCKED_AREAS {
        let Some(el) = app.query_selector(sel).ok().flatten() else { continue };
        // Exactly the height it has (not rounded): locking moves nothing.
        let h = el.get_bounding_client_rect().height();
        if h > 0.0 {
            // The app renders no style on these sections: this one is the only one they have.
            let _ = el.set_attribute("style", &format!("height:{h}px"));
        }
    }
    let _ = app.set_attribute("data-locked", "");
}
