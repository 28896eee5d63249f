//! The app component: reads how it was opened ([`Config`]), owns the sandbox through
//! [`hooks::use_lab`], and lays out the panels. It holds no rule of its own: panels get state
//! from context and send `Action`s up.

use std::rc::Rc;

use yew::prelude::*;

use super::config::Config;
use super::i18n::{K, Lang, Tr};
use super::state::{HoverHandle, LabHandle, SpecHandle};
use super::{
    builder, console, guided, header, hooks, lines, pictures, response, scrubber, sim, watches, welcome,
};

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// How the app was opened; None = read the page's URL.
    #[prop_or_default]
    pub config: Option<Rc<Config>>,
}

/// What the lesson panel shows first: the guided lesson `?lesson=` names (resumed when it is the
/// one in progress), else the lesson in progress of the restored sandbox, else nothing. A seeded
/// app (`has_seed`, known before [`hooks::use_lab`] takes the seed) resumes none.
fn initial_view(cfg: &Config, has_seed: bool) -> guided::View {
    let share = cfg.fragment.as_deref().is_some_and(super::share::is_share_fragment);
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

#[derive(Properties, PartialEq)]
struct PanesProps {
    embed: bool,
    reduce_motion: bool,
    tick_ms: u32,
}

/// The request builder, simulation controls, console, response, watches and etcd view (an
/// embed shows the console, the response and its watches).
#[function_component(Panes)]
fn panes(p: &PanesProps) -> Html {
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    if p.embed {
        // A read-only embed's response already shows the frames it read; the watch cards (whose
        // buttons it could not press) would only repeat them.
        let watching = !lab.readonly && !lab.session().watches().is_empty();
        return html! {
            <main class="panes embed-panes">
                <div class="col col-log"><console::Console /></div>
                <div class="col col-view">
                    <response::ResponseView embed=true />
                    if watching { <watches::Watches /> }
                </div>
            </main>
        };
    }
    // The console comes first in the page's order, so the keyboard reaches it after the
    // header's one stop; the stylesheet still draws the builder's column first (`order`).
    html! {
        <main class="panes">
            <div class="col col-log">
                <console::Console />
            </div>
            <div class="col col-view">
                <response::ResponseView />
                <watches::Watches />
                <sim::EtcdView />
            </div>
            <div class="col col-build">
                <builder::RequestBuilder />
                <sim::SimControls reduce_motion={p.reduce_motion} tick_ms={p.tick_ms} />
            </div>
        </main>
    }
}

/// The page's first Tab stop, shown when focused: it puts the keyboard in the console's input
/// (the log's row when there is no input), past the header's toolbar.
#[function_component(SkipLink)]
fn skip_link() -> Html {
    let tr = super::i18n::use_tr();
    let onclick = Callback::from(|e: MouseEvent| {
        // The address bar's fragment is the share link's: the link moves focus, not the URL.
        e.prevent_default();
        let app = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|a| a.closest(".app").ok().flatten());
        let target = app.and_then(|app| {
            app.query_selector("#console-input")
                .ok()
                .flatten()
                .or_else(|| app.query_selector("#log button[tabindex='0']").ok().flatten())
        });
        if let Some(el) = target.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
        {
            let _ = el.focus();
        }
    });
    html! { <a id="skip-console" class="skip-link" href="#console-input" {onclick}>{ tr.t(K::SkipToConsole) }</a> }
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let cfg = use_memo((), {
        let c = props.config.clone();
        move |_| c.unwrap_or_else(|| Rc::new(Config::from_location()))
    });
    let cfg: Rc<Config> = (*cfg).clone();
    let lang = use_state({
        let l = cfg.lang;
        move || l.unwrap_or_else(Lang::from_browser)
    });
    // Read before `use_lab`, whose first state takes the seed.
    let has_seed = *use_state(|| cfg.seed.borrow().is_some());
    let lab = hooks::use_lab(&cfg, *lang);
    let theme = use_state(|| cfg.theme);
    let spec = use_state(lines::RequestSpec::default);
    let hover = use_state(|| None::<usize>);
    let sharing = use_state(|| false);
    let app_ref = use_node_ref();
    let tr = Tr(*lang);
    let embed = cfg.embed;
    let guide = use_reducer({
        let cfg = cfg.clone();
        move || guided::Guide::new(!cfg.embed, initial_view(&cfg, has_seed)).with_src(cfg.lesson_src.clone())
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
    hooks::use_live_log(&lab);
    hooks::use_share_links(&cfg, &lab, &guide);
    hooks::use_undo_keys(&lab);
    // Mounted in a host page, the embed is as tall as its content with no frame to fit.
    hooks::use_embed_height(&app_ref, embed && cfg.height.is_none() && cfg.host.is_none());
    super::embed_api::use_embed_api(embed, cfg.host.clone(), &lab);
    hooks::use_embed_lock(&app_ref, embed);

    let on_share = {
        let sharing = sharing.clone();
        Callback::from(move |_| sharing.set(!*sharing))
    };

    // What a screen reader hears after each step.
    let announce = lab.shown().and_then(|i| {
        let entry = &lab.entries[i];
        let out = entry.out.as_deref()?;
        Some(tr.f(K::Announce, &[&(i + 1), &console::summary(tr, entry, out)]))
    });

    let reduce_motion = cfg.reduced_motion();
    let style = cfg.height.map(|h| format!("height:{h}px;overflow:auto"));
    let lesson_open = guide.view != guided::View::Closed;
    let first_visit =
        !embed && !lesson_open && lab.entries.is_empty() && lab.redo.is_empty() && !lab.readonly;

    let panes = html! { <Panes {embed} {reduce_motion} tick_ms={cfg.tick_ms.unwrap_or(1000)} /> };
    let lesson = html! { <guided::LessonPanel guide={guide.clone()} loader={loader.clone()} {embed} /> };

    html! {
        <ContextProvider<Lang> context={*lang}>
        <ContextProvider<LabHandle> context={lab.clone()}>
        <ContextProvider<SpecHandle> context={spec}>
        <ContextProvider<HoverHandle> context={hover}>
            <div class={classes!("app", embed.then_some("embed"), lab.readonly.then_some("readonly"), reduce_motion.then_some("reduce-motion"))} data-theme={theme.code()} lang={lang.tag()}
                ref={app_ref} {style}>
                if !embed { <SkipLink /> }
                <header::Header cfg={cfg.clone()} lang={lang.clone()} theme={theme.clone()} guide={guide.clone()} on_share={on_share.clone()} />
                <header::NoticeBar guide={guide.clone()} />
                if *sharing && !embed { <header::ShareBox on_close={on_share} /> }
                <div class={classes!("work", lesson_open.then_some("with-lesson"))}>
                    if lesson_open && embed { {lesson.clone()} }
                    <div class="work-main">
                        // The full page's panes come first in its order (the console a few Tab
                        // stops from the top); the stylesheet draws them below the picture.
                        if !embed { {panes.clone()} }
                        // An empty sandbox has no history and no picture yet: "start here"
                        // takes their place until the first line runs.
                        if first_visit {
                            <welcome::Welcome guide={guide.clone()} />
                        } else {
                            <scrubber::Scrubber />
                            <pictures::Pictures {reduce_motion} />
                        }
                        if embed { {panes} }
                    </div>
                    // Drawn beside (or above) the work area, after it for the keyboard.
                    if lesson_open && !embed { {lesson} }
                </div>
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
