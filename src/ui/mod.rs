//! The Yew app (wasm32 only): the playground — request builder, console, response viewer,
//! watches, simulation controls and the etcd view. Everything a person does becomes a script
//! line appended to one log ([`state::Lab`]); the engine is reached only through
//! `rvlab::script::Session` and its JSON output objects.

pub mod builder;
pub mod config;
pub mod console;
pub mod guided;
pub mod i18n;
pub mod lessons;
pub mod lines;
pub mod live;
pub mod response;
pub mod safety;
pub mod scrubber;
pub mod share;
pub mod sim;
pub mod state;
pub mod system;
pub mod timeline;
pub mod watches;
pub mod why;

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use config::{Config, Theme};
use i18n::{K, Lang, Tr};
use state::{Action, Lab, Notice};

/// The handle every panel gets from context.
pub type LabHandle = UseReducerHandle<Lab>;

/// The request builder's form, shared so other panels can fill it (e.g. "use this token").
pub type SpecHandle = UseStateHandle<lines::RequestSpec>;

/// The log entry under the pointer (timeline marks and console rows highlight each other).
pub type HoverHandle = UseStateHandle<Option<usize>>;

/// The file name of an exported script.
pub const EXPORT_NAME: &str = "rvlab-script.txt";

/// The log as a script file.
pub fn script_text(log: &[String]) -> String {
    let mut s = log.join("\n");
    s.push('\n');
    s
}

fn download(name: &str, text: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| state::js_text(&e);
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(err)?;
    Ok(())
}

/// Shows a notice for a failed action.
fn fail(lab: &LabHandle, key: K, e: impl Into<String>) {
    lab.dispatch(Action::Notify(Notice::error(key, vec![e.into()])));
}

/// `navigator.clipboard.writeText(text)`, without waiting for it.
fn copy_text(text: &str) -> Result<(), String> {
    let w = web_sys::window().ok_or("no window")?;
    let clip = js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).map_err(|e| state::js_text(&e))?;
    let f: js_sys::Function = js_sys::Reflect::get(&clip, &"writeText".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("the Clipboard API is not available")?;
    f.call1(&clip, &text.into()).map(|_| ()).map_err(|e| state::js_text(&e))
}

/// The playground's own address (no query, no fragment).
pub fn base_url() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

/// The share link of a sandbox: `<base>#v1=…`.
pub fn share_url(lab: &Lab) -> String {
    let frag = share::encode(&share::Shared { log: lab.log(), at: lab.at });
    format!("{}#{frag}", base_url())
}

/// An `<iframe>` snippet embedding this log (as `script=`) in a documentation page.
pub fn embed_snippet(lab: &Lab) -> String {
    let script = script_text(&lab.log());
    format!(
        "<iframe src=\"{}?embed=1&amp;script={}\" style=\"width:100%;border:0\" height=\"420\" title=\"rvlab\"></iframe>",
        base_url(),
        config::percent_encode(&script)
    )
}

#[derive(Properties, PartialEq)]
struct ToolbarProps {
    importing: bool,
    on_import: Callback<()>,
    on_share: Callback<()>,
    on_lessons: Callback<()>,
}

#[function_component(Toolbar)]
fn toolbar(p: &ToolbarProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let act = |a: fn() -> Action| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(a()))
    };
    let on_export = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            if let Err(e) = download(EXPORT_NAME, &script_text(&lab.log())) {
                fail(&lab, K::NoticeExportFailed, e);
            }
        })
    };
    let on_import = p.on_import.reform(|_: MouseEvent| ());
    let on_share = p.on_share.reform(|_: MouseEvent| ());
    let on_lessons = p.on_lessons.reform(|_: MouseEvent| ());
    let on_lesson = {
        let lab = lab.clone();
        Callback::from(move |e: Event| {
            let sel = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            if let Some(ls) = lessons::lines_of(&sel.value()) {
                lab.dispatch(Action::Load(ls));
            }
            sel.set_value("");
        })
    };
    let n = lab.entries.len();
    let redo = if lab.redo.is_empty() {
        tr.t(K::Redo).to_string()
    } else {
        format!("{} ({})", tr.t(K::Redo), lab.redo.len())
    };
    let lesson_opts = lessons::menu(tr.0)
        .into_iter()
        .map(|(name, title)| html! { <option value={name}>{ title }</option> });
    html! {
        <nav class="toolbar" aria-label={tr.t(K::ToolbarLabel)}>
            <button id="lessons" type="button" class="primary-small" onclick={on_lessons} title={tr.t(K::LessonsTitle)}>{ tr.t(K::Lessons) }</button>
            <button id="undo" type="button" disabled={n == 0} onclick={act(|| Action::Undo)}
                title={tr.t(K::UndoTitle)}>{ tr.t(K::Undo) }</button>
            <button id="redo" type="button" disabled={lab.redo.is_empty()} onclick={act(|| Action::Redo)}
                title={tr.t(K::RedoTitle)}>{ redo }</button>
            <button id="reset" type="button" disabled={n == 0} onclick={act(|| Action::Reset)}
                title={tr.t(K::ResetTitle)}>{ tr.t(K::Reset) }</button>
            <button id="export" type="button" disabled={n == 0} onclick={on_export}
                title={tr.t(K::ExportTitle)}>{ tr.t(K::Export) }</button>
            <button id="import" type="button" disabled={p.importing} onclick={on_import}
                title={tr.t(K::ImportTitle)}>{ if p.importing { tr.t(K::Importing) } else { tr.t(K::Import) } }</button>
            <button id="share" type="button" onclick={on_share} title={tr.t(K::ShareTitle)}>{ tr.t(K::Share) }</button>
            <select id="lesson-pick" aria-label={tr.t(K::LessonLabel)} title={tr.t(K::LessonLabel)} onchange={on_lesson}>
                <option value="" selected=true>{ tr.t(K::LessonPick) }</option>
                { for lesson_opts }
            </select>
        </nav>
    }
}

#[derive(Properties, PartialEq)]
struct ShareBoxProps {
    on_close: Callback<()>,
}

/// The share link (and an embed snippet) of the sandbox as it is now.
#[function_component(ShareBox)]
fn share_box(p: &ShareBoxProps) -> Html {
    let tr = i18n::use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let url = share_url(&lab);
    let snippet = embed_snippet(&lab);
    let copy = |text: String| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| match copy_text(&text) {
            Ok(()) => lab.dispatch(Action::Notify(Notice::info(K::NoticeCopied, vec![]))),
            Err(e) => fail(&lab, K::NoticeCopyFailed, e),
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

/// The lines an embed starts from (its `script=` or `lesson=`), or the unknown lesson's name.
fn embed_lines(cfg: &Config) -> Result<Vec<String>, String> {
    if let Some(s) = &cfg.script {
        return Ok(lines::split_script(s));
    }
    match &cfg.lesson {
        None => Ok(Vec::new()),
        // The lesson panel fills the sandbox once the lesson is loaded.
        Some(_) if cfg.guided_lesson().is_some() => Ok(Vec::new()),
        Some(name) => lessons::lines_of(name).ok_or_else(|| name.clone()),
    }
}

/// What the lesson panel shows first: the guided lesson `?lesson=` names (resumed when it is the
/// one in progress), else the lesson in progress of the restored sandbox, else nothing.
fn initial_view(cfg: &Config) -> guided::View {
    let has_seed = cfg.seed.borrow().is_some();
    let share = cfg.fragment.as_deref().is_some_and(share::is_share_fragment);
    let saved = if cfg.embed || share || has_seed { None } else { guided::saved_active() };
    if let Some(file) = cfg.guided_lesson() {
        let resume = saved.filter(|(f, _, _)| *f == file).map(|(_, step, starts)| (step, starts));
        return guided::View::Waiting { file, resume };
    }
    if cfg.embed || cfg.script.is_some() {
        return guided::View::Closed;
    }
    match saved {
        Some((file, step, starts)) => guided::View::Waiting { file, resume: Some((step, starts)) },
        None => guided::View::Closed,
    }
}

/// The sandbox the app starts with: a seeded session, an embed's scenario, a share link, or
/// what localStorage holds.
fn initial_lab(cfg: &Config) -> Lab {
    if let Some((session, entries)) = cfg.seed.borrow_mut().take() {
        let mut lab = Lab::from_session(session, entries);
        lab.persist = false;
        lab.readonly = cfg.readonly();
        return lab;
    }
    if cfg.embed {
        let (lines, notice) = match embed_lines(cfg) {
            Ok(l) if safety::check_each(&l).is_err() => (Vec::new(), safety::check_each(&l).err()),
            Ok(l) => (l, None),
            Err(name) => (
                Vec::new(),
                Some(Notice::error(K::NoticeLessonUnknown, vec![name, lessons::names().join(", ")])),
            ),
        };
        let mut lab = Lab::replay(lines, Vec::new());
        lab.persist = false;
        lab.readonly = cfg.readonly();
        lab.notice = notice;
        return lab;
    }
    if let Some(fr) = cfg.fragment.as_deref().filter(|f| share::is_share_fragment(f)) {
        let backed_up = state::backup_saved();
        let mut lab = match share::decode(fr) {
            Ok(sh) if safety::check_each(&sh.log).is_err() => {
                let mut lab = Lab::empty();
                lab.notice = safety::check_each(&sh.log).err();
                lab
            }
            Ok(sh) => {
                let n = sh.log.len();
                let mut lab = Lab::replay(sh.log, Vec::new());
                if sh.at < n {
                    lab = lab.seek(sh.at);
                }
                lab.persist();
                lab.notice = Some(Notice::info(K::NoticeShareOpened, vec![n.to_string()]));
                lab
            }
            Err(e) => {
                let mut lab = Lab::empty();
                lab.notice = Some(match e {
                    share::ShareError::Version(v) => Notice::error(K::NoticeShareBadVersion, vec![v]),
                    share::ShareError::Encoding => Notice::error(K::NoticeShareBadEncoding, vec![]),
                    share::ShareError::Data(d) => Notice::error(K::NoticeShareBadData, vec![d]),
                });
                lab
            }
        };
        if let Some(n) = lab.notice.as_mut() {
            n.restore = backed_up;
        }
        return lab;
    }
    Lab::restore()
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// How the app was opened; None = read the page's URL.
    #[prop_or_default]
    pub config: Option<Rc<Config>>,
}

/// Posts the embed's height to the host page: `{type: "rvlab:height", height}`.
fn post_height(el: &web_sys::Element) {
    let Some(w) = web_sys::window() else { return };
    let height = el.scroll_height().max(el.get_bounding_client_rect().height().ceil() as i32);
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"rvlab:height".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
    let target = w.parent().ok().flatten().unwrap_or(w);
    let _ = target.post_message(&msg, "*");
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let cfg = use_memo((), {
        let c = props.config.clone();
        move |_| c.unwrap_or_else(|| Rc::new(Config::from_location()))
    });
    let cfg: Rc<Config> = (*cfg).clone();
    let lab = use_reducer({
        let cfg = cfg.clone();
        move || initial_lab(&cfg)
    });
    let lang = use_state({
        let l = cfg.lang;
        move || l.unwrap_or_else(Lang::from_browser)
    });
    let theme = use_state(|| cfg.theme);
    let spec = use_state(lines::RequestSpec::default);
    let hover = use_state(|| None::<usize>);
    let importing = use_state(|| false);
    let sharing = use_state(|| false);
    let file_ref = use_node_ref();
    let app_ref = use_node_ref();
    let tr = Tr(*lang);
    let embed = cfg.embed;
    let guide = use_reducer({
        let cfg = cfg.clone();
        move || guided::Guide::new(!cfg.embed, initial_view(&cfg))
    });
    let loader = guided::LoaderProp(cfg.loader.clone().unwrap_or_else(guided::fetch_loader));

    // A lesson that is wanted (or shown in the list) is fetched, and the address bar says which
    // guided lesson is open (so a reload or a copied link resumes it).
    use_effect_with(guide.view.clone(), {
        let guide = guide.clone();
        let loader = loader.0.clone();
        let cfg = cfg.clone();
        move |view| guided::on_view(view, &guide, &loader, &cfg)
    });

    // Opened from `rvlab serve`: follow the live log of what real clients do (ui::live).
    use_effect_with((), {
        let lab = lab.clone();
        move |_| {
            let following = live::live_url().and_then(|url| {
                live::follow(&url, move |ev| match ev {
                    live::LiveEvent::Backlog(lines) => lab.dispatch(Action::Replace(lines, None)),
                    live::LiveEvent::Line(line) => lab.dispatch(Action::Run(vec![line])),
                })
            });
            move || drop(following)
        }
    });

    // A consumed share link leaves the address bar, so a reload does not replay it again.
    use_effect_with((), {
        let cfg = cfg.clone();
        move |_| {
            if cfg.from_location
                && !cfg.embed
                && cfg.fragment.as_deref().is_some_and(share::is_share_fragment)
            {
                config::replace_url(&[], true);
            }
        }
    });
    // The document's language follows the switcher. The panic hook is installed (once) and
    // knows the language and the log as it is now.
    use_effect_with(*lang, {
        let lab = lab.clone();
        move |l| {
            safety::install();
            safety::set_lang(*l);
            safety::remember(&lab.log(), &lab.redo, lab.persist);
        }
    });
    use_effect_with(*lang, |l| {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", l.tag());
        }
    });
    // Embeds tell the host page how tall they are, after every render and on resize.
    {
        let app_ref = app_ref.clone();
        let fixed = cfg.height.is_some();
        use_effect(move || {
            if embed
                && !fixed
                && let Some(el) = app_ref.cast::<web_sys::Element>()
            {
                post_height(&el);
            }
        });
    }
    {
        let app_ref = app_ref.clone();
        use_effect_with((), move |_| {
            let listener = (embed).then(|| {
                let cb = Closure::<dyn Fn()>::new(move || {
                    if let Some(el) = app_ref.cast::<web_sys::Element>() {
                        post_height(&el);
                    }
                });
                if let Some(w) = web_sys::window() {
                    let _ = w.add_event_listener_with_callback("resize", cb.as_ref().unchecked_ref());
                }
                cb
            });
            move || {
                if let (Some(cb), Some(w)) = (listener, web_sys::window()) {
                    let _ = w.remove_event_listener_with_callback("resize", cb.as_ref().unchecked_ref());
                }
            }
        });
    }

    let on_import_click = {
        let file_ref = file_ref.clone();
        Callback::from(move |_| {
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
            read_script(file, lab.clone(), importing.clone());
        })
    };
    let on_share = {
        let sharing = sharing.clone();
        Callback::from(move |_| sharing.set(!*sharing))
    };
    let on_lessons = {
        let guide = guide.clone();
        Callback::from(move |_| guide.dispatch(guided::GuideAction::OpenList))
    };
    let on_lang = {
        let lang = lang.clone();
        let cfg = cfg.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(l) = Lang::parse(&v) {
                lang.set(l);
                if cfg.from_location {
                    config::replace_url(&[("lang", l.code())], false);
                }
            }
        })
    };
    let on_theme = {
        let theme = theme.clone();
        let cfg = cfg.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(t) = Theme::parse(&v) {
                theme.set(t);
                if cfg.from_location {
                    config::replace_url(&[("theme", t.code())], false);
                }
            }
        })
    };
    // Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z) undo and redo, except while typing in a field.
    let on_key = {
        let lab = lab.clone();
        Callback::from(move |e: KeyboardEvent| {
            if !(e.ctrl_key() || e.meta_key()) || lab.readonly {
                return;
            }
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
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
    };

    let notice = lab.notice.clone().map(|n| {
        let lab2 = lab.clone();
        let dismiss = Callback::from(move |_: MouseEvent| lab2.dispatch(Action::DismissNotice));
        let restore = n.restore.then(|| {
            let lab = lab.clone();
            let guide = guide.clone();
            let onclick = Callback::from(move |_: MouseEvent| match state::load_saved(state::BACKUP_KEY) {
                Ok(Some((log, _))) => {
                    guide.dispatch(guided::GuideAction::Close);
                    lab.dispatch(Action::Load(log));
                    lab.dispatch(Action::Notify(Notice::info(K::NoticeRestored, vec![])));
                }
                Ok(None) => {}
                Err(e) => fail(&lab, K::NoticeImportFailed, e),
            });
            html! { <button id="restore-backup" type="button" class="small" {onclick}>{ tr.t(K::RestoreBackup) }</button> }
        });
        let args: Vec<&dyn std::fmt::Display> = n.args.iter().map(|a| a as &dyn std::fmt::Display).collect();
        html! {
            <div id="notice" class={classes!("notice", n.error.then_some("err"))} role={if n.error { "alert" } else { "status" }}>
                <span>{ tr.f(n.key, &args) }</span>
                { for restore }
                <button type="button" class="small" aria-label={tr.t(K::Dismiss)} onclick={dismiss}>{ "×" }</button>
            </div>
        }
    });

    // What a screen reader hears after each step.
    let announce = lab.shown().and_then(|i| {
        let out = lab.entries[i].out.as_deref()?;
        Some(tr.f(K::Announce, &[&(i + 1), &console::summary(tr, out)]))
    });

    let header = if embed {
        let full = share_url(&lab);
        let reset = (!lab.readonly).then(|| {
            let lab = lab.clone();
            let cfg = cfg.clone();
            let guide = guide.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                if let Some(file) = cfg.guided_lesson() {
                    guide.dispatch(guided::GuideAction::Want(file));
                } else {
                    lab.dispatch(Action::Replace(embed_lines(&cfg).unwrap_or_default(), None));
                }
            });
            html! { <button id="reset" type="button" class="small" {onclick}>{ tr.t(K::ResetEmbed) }</button> }
        });
        html! {
            <header class="top compact">
                <a id="title" class="title" href={full} target="_blank" rel="noopener">{ "rvlab" }</a>
                if lab.readonly { <span class="badge off">{ tr.t(K::ReadOnly) }</span> }
                <span class="tagline">{ tr.t(K::Tagline) }</span>
                { for reset }
                <a id="open-full" class="small" href={share_url(&lab)} target="_blank" rel="noopener">{ tr.t(K::OpenFull) }</a>
            </header>
        }
    } else {
        let lang_opts = Lang::ALL
            .iter()
            .map(|l| html! { <option value={l.code()} selected={*l == *lang}>{ l.name() }</option> });
        let theme_opts = Theme::ALL.iter().map(|t| {
            let label = match t {
                Theme::Auto => tr.t(K::ThemeAuto),
                Theme::Light => tr.t(K::ThemeLight),
                Theme::Dark => tr.t(K::ThemeDark),
            };
            html! { <option value={t.code()} selected={*t == *theme}>{ label }</option> }
        });
        html! {
            <header class="top">
                <h1 id="title">{ "rvlab" }</h1>
                <span class="tagline">{ tr.t(K::Tagline) }</span>
                <Toolbar importing={*importing} on_import={on_import_click} on_share={on_share.clone()} {on_lessons} />
                <div class="prefs">
                    <select id="lang" aria-label={tr.t(K::LangLabel)} title={tr.t(K::LangLabel)} onchange={on_lang}>{ for lang_opts }</select>
                    <select id="theme" aria-label={tr.t(K::ThemeLabel)} title={tr.t(K::ThemeLabel)} onchange={on_theme}>{ for theme_opts }</select>
                </div>
                <input id="import-file" ref={file_ref} type="file" accept=".txt,.rvlab,text/plain"
                    class="visually-hidden" tabindex="-1" aria-hidden="true" onchange={on_file} />
            </header>
        }
    };

    let reduce_motion = cfg.reduced_motion();
    let panes = if embed {
        html! {
            <main class="panes embed-panes">
                <div class="col col-log"><console::Console /></div>
                <div class="col col-view">
                    <response::ResponseView />
                    if lab.visible().iter().any(|e| e.out.as_deref().is_some_and(|o| o.get("watch").is_some())) {
                        <watches::Watches />
                    }
                </div>
            </main>
        }
    } else {
        html! {
            <main class="panes">
                <div class="col col-build">
                    <builder::RequestBuilder />
                    <sim::SimControls reduce_motion={reduce_motion} tick_ms={cfg.tick_ms.unwrap_or(1000)} />
                </div>
                <div class="col col-log">
                    <console::Console />
                </div>
                <div class="col col-view">
                    <response::ResponseView />
                    <watches::Watches />
                    <sim::EtcdView />
                </div>
            </main>
        }
    };
    let style = cfg.height.map(|h| format!("height:{h}px;overflow:auto"));
    let lesson_open = guide.view != guided::View::Closed;
    let work = html! {
        <div class={classes!("work", lesson_open.then_some("with-lesson"))}>
            if lesson_open { <guided::LessonPanel guide={guide.clone()} loader={loader.clone()} {embed} /> }
            <div class="work-main">
                <scrubber::Scrubber />
                <timeline::Timeline />
                { panes }
            </div>
        </div>
    };

    html! {
        <ContextProvider<Lang> context={*lang}>
        <ContextProvider<LabHandle> context={lab.clone()}>
        <ContextProvider<SpecHandle> context={spec}>
        <ContextProvider<HoverHandle> context={hover}>
            <div class={classes!("app", embed.then_some("embed"), reduce_motion.then_some("reduce-motion"))} data-theme={theme.code()} lang={lang.tag()}
                ref={app_ref} onkeydown={on_key} {style}>
                { header }
                { for notice }
                if let Some(e) = guide.save_error.clone() {
                    <div id="progress-notice" class="notice err" role="alert"><span>{ tr.f(K::NoticeProgressNotSaved, &[&e]) }</span></div>
                }
                if *sharing && !embed { <ShareBox on_close={on_share} /> }
                { work }
                if !embed {
                    <footer class="foot">{ tr.f(K::Footer, &[&crate::VERSION]) }</footer>
                }
                <div id="announce" class="visually-hidden" aria-live="polite" aria-atomic="true">{ announce.unwrap_or_default() }</div>
            </div>
        </ContextProvider<HoverHandle>>
        </ContextProvider<SpecHandle>>
        </ContextProvider<LabHandle>>
        </ContextProvider<Lang>>
    }
}

/// Reads an imported script file and loads it (replacing the sandbox); errors become a notice.
fn read_script(file: web_sys::File, lab: LabHandle, importing: UseStateHandle<bool>) {
    let reader = match web_sys::FileReader::new() {
        Ok(r) => r,
        Err(e) => {
            fail(&lab, K::NoticeImportFailed, state::js_text(&e));
            return;
        }
    };
    importing.set(true);
    let fail_lab = lab.clone();
    let r2 = reader.clone();
    let onloadend = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        importing.set(false);
        match r2.result().ok().and_then(|v| v.as_string()) {
            Some(text) if r2.error().is_none() => {
                if let Err(n) = safety::check_text(&text) {
                    lab.dispatch(Action::Notify(n));
                    return;
                }
                let ls = lines::split_script(&text);
                if ls.is_empty() {
                    lab.dispatch(Action::Notify(Notice::error(K::NoticeImportEmpty, vec![])));
                } else {
                    lab.dispatch(Action::Load(ls));
                }
            }
            _ => {
                let why = r2.error().map(|e| e.message()).unwrap_or_else(|| "unreadable file".into());
                fail(&lab, K::NoticeImportFailed, why);
            }
        }
    });
    reader.set_onloadend(Some(onloadend.unchecked_ref()));
    if let Err(e) = reader.read_as_text(&file) {
        fail(&fail_lab, K::NoticeImportFailed, state::js_text(&e));
    }
}

/// Mounts the app on the page body.
pub fn start() {
    safety::install();
    yew::Renderer::<App>::new().render();
}
