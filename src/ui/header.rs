//! The page's top: the title, the toolbar (lessons, undo/redo, reset, export, import, share,
//! examples, language, theme: one Tab stop, arrow keys inside), the share box, and the notice bar. An embed gets a compact
//! header instead (title, read-only badge, start over, open in the full playground).

use std::rc::Rc;

use yew::prelude::*;

use super::browser;
use super::config::{Config, Theme};
use super::i18n::{self, K, Lang};
use super::model::{EXPORT_NAME, Problem, script_text};
use super::state::{Action, Lab, LabHandle, Notice, Place};
use super::url::percent_encode;
use super::{examples, guided, hooks, lines, safety, save};

/// The share link of a sandbox: `<base>#v1=…`.
pub fn share_url(lab: &Lab) -> String {
    let frag = super::share::encode(&super::share::Shared { log: lab.log(), at: lab.at });
    // An embed mounted in a host page: the playground's address, not the page's.
    let base = lab.host.as_ref().map_or_else(browser::base_url, |h| h.app_url.clone());
    format!("{base}#{frag}")
}

/// An `<iframe>` snippet embedding this log (as `script=`) in a documentation page.
pub fn embed_snippet(lab: &Lab) -> String {
    let script = script_text(&lab.log());
    format!(
        "<iframe src=\"{}?embed=1&amp;script={}\" style=\"width:100%;border:0\" height=\"420\" title=\"rvlab\"></iframe>",
        browser::base_url(),
        percent_encode(&script)
    )
}

/// Shows a notice for a failed action.
pub fn fail(lab: &LabHandle, key: K, e: Problem) {
    lab.dispatch(Action::Notify(Notice::error(key, vec![]).arg(e)));
}

/// Replaces the sandbox with `lines` (an example, an imported file). The sandbox it replaces is
/// kept first (with the lines still waiting for the idle save), so the notice can offer it back:
/// an example picked by a stray arrow key loses nothing.
fn load(lab: &LabHandle, lines: Vec<String>) {
    if let Err(n) = safety::check_lines(&lines) {
        lab.dispatch(Action::Notify(n));
        return;
    }
    let kept = save::keep_for_restore();
    lab.dispatch(Action::Load(lines, kept));
}

/// Loads an imported script file (replacing the sandbox); errors become a notice.
fn import_file(file: web_sys::File, lab: LabHandle, importing: UseStateHandle<bool>) {
    importing.set(true);
    browser::read_file_text(file, move |res| {
        importing.set(false);
        match res {
            Ok(text) => {
                if let Err(n) = safety::check_text(&text) {
                    lab.dispatch(Action::Notify(n));
                    return;
                }
                let ls = lines::split_script(&text);
                if ls.is_empty() {
                    lab.dispatch(Action::Notify(Notice::error(K::NoticeImportEmpty, vec![])));
                } else {
                    load(&lab, ls);
                }
            }
            Err(why) => fail(&lab, K::NoticeImportFailed, why),
        }
    });
}

/// One control of the header's toolbar, in the order ← and → move through them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tool {
    Lessons,
    Undo,
    Redo,
    Reset,
    Export,
    Import,
    Share,
    Examples,
    Lang,
    Theme,
}

impl Tool {
    pub const ALL: [Tool; 10] = [
        Tool::Lessons,
        Tool::Undo,
        Tool::Redo,
        Tool::Reset,
        Tool::Export,
        Tool::Import,
        Tool::Share,
        Tool::Examples,
        Tool::Lang,
        Tool::Theme,
    ];

    /// The control's element id.
    pub fn id(self) -> &'static str {
        match self {
            Tool::Lessons => "lessons",
            Tool::Undo => "undo",
            Tool::Redo => "redo",
            Tool::Reset => "reset",
            Tool::Export => "export",
            Tool::Import => "import",
            Tool::Share => "share",
            Tool::Examples => "lesson-pick",
            Tool::Lang => "lang",
            Tool::Theme => "theme",
        }
    }

    fn of_id(id: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// `from` when it is enabled, else the next enabled control after it (wrapping).
fn next_enabled(from: Tool, enabled: impl Fn(Tool) -> bool) -> Tool {
    let i = Tool::ALL.iter().position(|t| *t == from).unwrap_or(0);
    (0..Tool::ALL.len())
        .map(|k| Tool::ALL[(i + k) % Tool::ALL.len()])
        .find(|t| enabled(*t))
        .unwrap_or(Tool::Lessons)
}

/// Puts the focus on toolbar control `t`.
fn focus_tool(bar: &NodeRef, t: Tool) {
    let el = bar
        .cast::<web_sys::Element>()
        .and_then(|bar| bar.query_selector(&format!("#{}", t.id())).ok().flatten())
        .map(wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>);
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// The toolbar control an event came from (an element: also one in another frame's document).
fn tool_of(target: Option<web_sys::EventTarget>) -> Option<Tool> {
    let el = wasm_bindgen::JsCast::unchecked_into::<web_sys::Element>(target?);
    Tool::of_id(&el.id())
}

/// Where a key moves the toolbar's focus from `from` (WAI-ARIA APG "Toolbar": ← and → to the
/// previous and next enabled control, wrapping; Home and End to the first and last), or None
/// for a key the toolbar leaves alone. `enabled` says which controls can take the focus.
pub fn tool_after(key: &str, from: Tool, enabled: impl Fn(Tool) -> bool) -> Option<Tool> {
    let on: Vec<Tool> = Tool::ALL.into_iter().filter(|t| enabled(*t)).collect();
    let n = on.len();
    let at = on.iter().position(|t| *t == from);
    match key {
        "Home" => on.first().copied(),
        "End" => on.last().copied(),
        "ArrowRight" if n > 0 => Some(on[at.map_or(0, |i| (i + 1) % n)]),
        "ArrowLeft" if n > 0 => Some(on[at.map_or(n - 1, |i| (i + n - 1) % n)]),
        _ => None,
    }
}

#[derive(Properties, PartialEq)]
struct ToolbarProps {
    on_share: Callback<()>,
    on_lessons: Callback<()>,
    from_location: bool,
    lang: UseStateHandle<Lang>,
    theme: UseStateHandle<Theme>,
}

/// The header's controls as one WAI-ARIA toolbar: a single Tab stop (the control last used,
/// else the first), ← → Home End inside it. The page's Tab order so reaches the console after
/// a few stops instead of after every control of the header.
#[function_component(Toolbar)]
fn toolbar(p: &ToolbarProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let importing = use_state(|| false);
    let file_ref = use_node_ref();
    let bar_ref = use_node_ref();
    let current = use_state(|| Tool::Lessons);
    let act = |a: fn() -> Action| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(a()))
    };
    let on_export = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            if let Err(e) = browser::download(EXPORT_NAME, &script_text(&lab.log())) {
                fail(&lab, K::NoticeExportFailed, e);
            }
        })
    };
    let on_import = {
        let file_ref = file_ref.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = file_ref.cast::<web_sys::HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_file = {
        let lab = lab.clone();
        let importing = importing.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            import_file(file, lab.clone(), importing.clone());
        })
    };
    let on_share = p.on_share.reform(|_: MouseEvent| ());
    let on_lessons = p.on_lessons.reform(|_: MouseEvent| ());
    let on_example = {
        let lab = lab.clone();
        Callback::from(move |e: Event| {
            let sel = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            if let Some(ls) = examples::lines_of(&sel.value()) {
                load(&lab, ls);
            }
            sel.set_value("");
        })
    };
    let n = lab.entries.len();
    let no_redo = lab.redo.is_empty();
    let busy = *importing;
    let enabled = move |t: Tool| match t {
        Tool::Undo | Tool::Reset | Tool::Export => n > 0,
        Tool::Redo => !no_redo,
        Tool::Import => !busy,
        Tool::Lessons | Tool::Share | Tool::Examples | Tool::Lang | Tool::Theme => true,
    };
    // The Tab stop: the control last used, else (when it is disabled now: Undo that undid the
    // last line, Reset) the next enabled one.
    let stop = next_enabled(*current, enabled);
    let tab = |t: Tool| if t == stop { "0" } else { "-1" };
    // A control that disabled itself with the focus on it (a disabled button drops the focus to
    // the page) hands the focus to the new Tab stop, so the keyboard stays in the toolbar.
    use_effect_with((stop, *current), {
        let bar_ref = bar_ref.clone();
        move |(stop, current)| {
            // Still on the disabled control (the browser moves the focus away later), or already
            // on the page's body.
            let lost = bar_ref.cast::<web_sys::Element>().and_then(|b| b.owner_document()).is_some_and(|d| {
                d.active_element().is_none_or(|a| a.id() == current.id() || d.body().is_some_and(|b| *b == a))
            });
            if stop != current && lost {
                focus_tool(&bar_ref, *stop);
            }
        }
    });
    let onkeydown = {
        let current = current.clone();
        let bar_ref = bar_ref.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.alt_key() || e.ctrl_key() || e.meta_key() || e.shift_key() {
                return;
            }
            let from = tool_of(e.target()).unwrap_or(stop);
            let Some(to) = tool_after(&e.key(), from, enabled) else { return };
            // Also on a <select>, whose value ← and → would change: in the toolbar they move.
            e.prevent_default();
            current.set(to);
            focus_tool(&bar_ref, to);
        })
    };
    let onfocusin = {
        let current = current.clone();
        Callback::from(move |e: FocusEvent| {
            if let Some(t) = tool_of(e.target()) {
                current.set(t);
            }
        })
    };
    let redo =
        if no_redo { tr.t(K::Redo).to_string() } else { format!("{} ({})", tr.t(K::Redo), lab.redo.len()) };
    let example_opts = examples::menu(tr.0)
        .into_iter()
        .map(|(name, title)| html! { <option value={name}>{ title }</option> });
    let on_lang = pref_select(p.lang.clone(), Lang::parse, Lang::code, "lang", p.from_location);
    let on_theme = pref_select(p.theme.clone(), Theme::parse, Theme::code, "theme", p.from_location);
    let lang = *p.lang;
    let theme = *p.theme;
    let lang_opts = Lang::ALL
        .iter()
        .map(|l| html! { <option value={l.code()} selected={*l == lang}>{ l.name() }</option> });
    let theme_opts = Theme::ALL.iter().map(|t| {
        let label = match t {
            Theme::Auto => tr.t(K::ThemeAuto),
            Theme::Light => tr.t(K::ThemeLight),
            Theme::Dark => tr.t(K::ThemeDark),
        };
        html! { <option value={t.code()} selected={*t == theme}>{ label }</option> }
    });
    html! {
        <div class="toolbar" role="toolbar" aria-label={tr.t(K::ToolbarLabel)} ref={bar_ref} {onkeydown} {onfocusin}>
            <button id="lessons" type="button" class="primary-small" tabindex={tab(Tool::Lessons)} onclick={on_lessons} title={tr.t(K::LessonsTitle)}>{ tr.t(K::Lessons) }</button>
            <button id="undo" type="button" disabled={n == 0} tabindex={tab(Tool::Undo)} onclick={act(|| Action::Undo)}
                title={tr.t(K::UndoTitle)}>{ tr.t(K::Undo) }</button>
            <button id="redo" type="button" disabled={no_redo} tabindex={tab(Tool::Redo)} onclick={act(|| Action::Redo)}
                title={tr.t(K::RedoTitle)}>{ redo }</button>
            <button id="reset" type="button" disabled={n == 0} tabindex={tab(Tool::Reset)} onclick={act(|| Action::Reset)}
                title={tr.t(K::ResetTitle)}>{ tr.t(K::Reset) }</button>
            <button id="export" type="button" disabled={n == 0} tabindex={tab(Tool::Export)} onclick={on_export}
                title={tr.t(K::ExportTitle)}>{ tr.t(K::Export) }</button>
            <button id="import" type="button" disabled={busy} tabindex={tab(Tool::Import)} onclick={on_import}
                title={tr.t(K::ImportTitle)}>{ if busy { tr.t(K::Importing) } else { tr.t(K::Import) } }</button>
            <button id="share" type="button" tabindex={tab(Tool::Share)} onclick={on_share} title={tr.t(K::ShareTitle)}>{ tr.t(K::Share) }</button>
            <select id="lesson-pick" tabindex={tab(Tool::Examples)} aria-label={tr.t(K::LessonLabel)} title={tr.t(K::LessonLabel)} onchange={on_example}>
                <option value="" selected=true>{ tr.t(K::LessonPick) }</option>
                { for example_opts }
            </select>
            <span class="prefs">
                <select id="lang" tabindex={tab(Tool::Lang)} aria-label={tr.t(K::LangLabel)} title={tr.t(K::LangLabel)} onchange={on_lang}>{ for lang_opts }</select>
                <select id="theme" tabindex={tab(Tool::Theme)} aria-label={tr.t(K::ThemeLabel)} title={tr.t(K::ThemeLabel)} onchange={on_theme}>{ for theme_opts }</select>
            </span>
            <input id="import-file" ref={file_ref} type="file" accept=".txt,.rvlab,text/plain"
                class="visually-hidden" tabindex="-1" aria-hidden="true" onchange={on_file} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    pub on_close: Callback<()>,
}

/// The share link (and an embed snippet) of the sandbox as it is now.
#[function_component(ShareBox)]
pub fn share_box(p: &ShareBoxProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let url = share_url(&lab);
    let snippet = embed_snippet(&lab);
    let copy = |text: String| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            let lab = lab.clone();
            browser::copy_text(&text, move |copied| match copied {
                Ok(()) => lab.dispatch(Action::Notify(Notice::info(K::NoticeCopied, vec![]))),
                Err(e) => fail(&lab, K::NoticeCopyFailed, e),
            })
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
            i.select();
        }
    });
    let long = url.len() > 8000;
    html! {
        <section id="share-box" class="share-box" aria-labelledby="share-h">
            <div class="row-head">
                <h2 id="share-h">{ tr.t(K::ShareHeading) }</h2>
                <button id="share-close" type="button" class="small" onclick={p.on_close.reform(|_: MouseEvent| ())}>{ tr.t(K::Close) }</button>
            </div>
            <p class="small muted">{ tr.t(K::ShareHint) }</p>
            <div class="pair">
                <input id="share-url" type="text" readonly=true value={url.clone()} aria-label={tr.t(K::ShareUrlLabel)} onfocus={select_all.clone()} />
                <button id="share-copy" type="button" class="small" onclick={copy(url.clone())}>{ tr.t(K::Copy) }</button>
            </div>
            if long { <p id="share-long" class="small warn">{ tr.f(K::ShareLong, &[&url.len()]) }</p> }
            <p class="small muted">{ tr.t(K::EmbedCodeLabel) }</p>
            <div class="pair">
                <input id="embed-code" type="text" readonly=true value={snippet.clone()} aria-label={tr.t(K::EmbedCodeLabel)} onfocus={select_all} />
                <button type="button" class="small" onclick={copy(snippet)}>{ tr.t(K::Copy) }</button>
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub cfg: Rc<Config>,
    pub lang: UseStateHandle<Lang>,
    pub theme: UseStateHandle<Theme>,
    pub guide: guided::GuideHandle,
    pub on_share: Callback<()>,
}

/// The playground's header (or an embed's compact one).
#[function_component(Header)]
pub fn header(p: &HeaderProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let cfg = &p.cfg;
    if cfg.embed {
        let full = share_url(&lab);
        let reset = (!lab.readonly).then(|| {
            let lab = lab.clone();
            let cfg = cfg.clone();
            let guide = p.guide.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                if let Some(file) = cfg.guided_lesson() {
                    guide.dispatch(guided::GuideAction::Want(file));
                } else {
                    let (lines, notice) = match hooks::embed_lines(&cfg) {
                        Ok(l) => (l, None),
                        Err(n) => (Vec::new(), Some(n)),
                    };
                    lab.dispatch(Action::Replace(lines, notice));
                }
            });
            html! { <button id="reset" type="button" class="small" {onclick}>{ tr.t(K::ResetEmbed) }</button> }
        });
        return html! {
            <header class="top compact">
                <a id="title" class="title" href={full.clone()} target="_blank" rel="noopener">{ "rvlab" }</a>
                if lab.readonly { <span class="badge off">{ tr.t(K::ReadOnly) }</span> }
                <span class="tagline">{ tr.t(K::Tagline) }</span>
                { for reset }
                <a id="open-full" class="small" href={full} target="_blank" rel="noopener">{ tr.t(K::OpenFull) }</a>
            </header>
        };
    }
    let on_lessons = {
        let guide = p.guide.clone();
        Callback::from(move |_| guide.dispatch(guided::GuideAction::OpenList))
    };
    html! {
        <header class="top">
            <h1 id="title">{ "rvlab" }</h1>
            <span class="tagline">{ tr.t(K::Tagline) }</span>
            <Toolbar on_share={p.on_share.clone()} {on_lessons} from_location={cfg.from_location} lang={p.lang.clone()} theme={p.theme.clone()} />
        </header>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoticeBarProps {
    pub guide: guided::GuideHandle,
}

/// The sandbox's notice (with "restore" when a share link replaced a saved sandbox) and the
/// lesson progress warning.
#[function_component(NoticeBar)]
pub fn notice_bar(p: &NoticeBarProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let notice = lab.notice.clone().filter(|n| n.at == Place::Top).map(|n| {
        let lab2 = lab.clone();
        let dismiss = Callback::from(move |_: MouseEvent| lab2.dispatch(Action::DismissNotice));
        let restore = n.restore.then(|| {
            let lab = lab.clone();
            let guide = p.guide.clone();
            let onclick =
                Callback::from(move |_: MouseEvent| match save::load(save::BACKUP_KEY) {
                    Ok(Some(saved)) => {
                        guide.dispatch(guided::GuideAction::Close);
                        // The sandbox shown now is kept in turn: a misclick loses nothing.
                        let kept = save::keep_for_restore();
                        lab.dispatch(Action::Restore(saved, kept));
                    }
                    Ok(None) => {}
                    Err(e) => fail(&lab, K::NoticeImportFailed, e),
                });
            html! { <button id="restore-backup" type="button" class="small" {onclick}>{ tr.t(K::RestoreBackup) }</button> }
        });
        html! {
            <div id="notice" class={classes!("notice", n.error.then_some("err"))} role={if n.error { "alert" } else { "status" }}>
                <span>{ n.text(tr) }</span>
                { for restore }
                <button type="button" class="small" aria-label={tr.t(K::Dismiss)} onclick={dismiss}>{ "×" }</button>
            </div>
        }
    });
    html! {
        <>
            { for notice }
            if let Some(e) = p.guide.save_error.clone() {
                <div id="progress-notice" class="notice err" role="alert"><span>{ tr.f(K::NoticeProgressNotSaved, &[&e.text(tr)]) }</span></div>
            }
        </>
    }
}

/// A preference `<select>` (language, theme): the chosen value is parsed, set, and written to
/// the address bar under `key` when the page's settings come from it.
fn pref_select<T: Copy + 'static>(
    state: UseStateHandle<T>,
    parse: fn(&str) -> Option<T>,
    code: fn(T) -> &'static str,
    key: &'static str,
    from_location: bool,
) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        if let Some(x) = parse(&v) {
            state.set(x);
            if from_location {
                browser::replace_url(&[(key, code(x))], false);
            }
        }
    })
}
