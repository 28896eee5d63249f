//! Guided lessons (`lessons/*.rv`, parsed by `crate::lessons::parse`) in the browser.
//!
//! The lesson files are not compiled into the wasm (their bilingual text is ~105 KB): the build
//! (Trunk's `copy-dir` in www/index.html) copies `lessons/` next to the app (`dist/lessons/`) and the panel fetches
//! `lessons/<file>` with a relative URL when it needs a lesson, so sub-path hosting works. The
//! index is [`FILES`], the engine's file list. A page can also name a lesson file by its address
//! (`?lesson-src=<URL>`, slot [`SRC`] after the files): it is fetched from there, parsed and
//! checked like the others, and neither resumed nor named in the address bar. Tests (and
//! any host page) can inject another [`Loader`].
//!
//! A lesson run starts a fresh sandbox with the lesson's setup lines. "Show me" runs the
//! current step's reference solution through the normal command path (so it is in the log),
//! "Check" runs `check_step` over the outputs produced since the step began and shows what is
//! still missing. Progress (steps done per lesson) and the lesson in progress are kept in
//! localStorage, except in embeds. In a read-only embed the sandbox holds the setup and every
//! reference solution, and Previous/Next move the history to the end of each step.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use super::browser::{js_text, storage, thrown};
use super::config::{FILES, Loader, SRC, slug_of};
use super::i18n::{K, Tr, use_tr};
use super::model::Problem;
use super::state::{self, Action, LabHandle, Notice};
use crate::lessons::{Lesson, check_step};
use crate::script::expect::ExpectFailure;

/// Where the files are fetched from, relative to the page.
pub const DIR: &str = "lessons/";

/// localStorage: `{"slug":[steps done…]}`.
pub const PROGRESS_KEY: &str = "rvlab.lessons.progress.v1";
/// localStorage: the lesson in progress, `{"file":…,"step":n,"starts":[…]}`.
pub const ACTIVE_KEY: &str = "rvlab.lessons.active.v1";

thread_local! {
    static FETCH: Loader = Rc::new(|file: &str, done: Callback<Result<String, Problem>>| {
        if FILES.contains(&file) { fetch_text(&format!("{DIR}{file}"), done) } else { fetch_text(file, done) }
    });
}

/// The loader of the app: `fetch("lessons/<file>")` for a lesson file, `fetch(<URL>)` for the
/// address `lesson-src=` gave (one shared instance).
pub fn fetch_loader() -> Loader {
    FETCH.with(Rc::clone)
}

/// What a change of the panel's view starts: loading the wanted lesson (or all of them for the
/// list), and, on the playground's own page, `?lesson=<slug>` in the address bar.
pub fn on_view(view: &View, guide: &GuideHandle, loader: &Loader, cfg: &super::config::Config) {
    match view {
        View::Waiting { file, .. } => ensure_loaded(guide, loader, *file),
        View::List => (0..FILES.len()).for_each(|i| ensure_loaded(guide, loader, i)),
        _ => {}
    }
    if cfg.from_location && !cfg.embed {
        match view {
            View::Lesson(r) if r.file < FILES.len() => {
                super::browser::replace_url(&[("lesson", slug_of(FILES[r.file]))], false)
            }
            View::Closed | View::List if super::config::Config::from_location().lesson.is_some() => {
                super::browser::replace_url(&[("lesson", "")], false)
            }
            _ => {}
        }
    }
}

fn js_then(
    p: &js_sys::Promise,
    ok: impl FnOnce(wasm_bindgen::JsValue) + 'static,
    err: Callback<Result<String, Problem>>,
) {
    let ok = Closure::once_into_js(ok);
    let fail =
        Closure::once_into_js(move |e: wasm_bindgen::JsValue| err.emit(Err(Problem::Browser(js_text(&e)))));
    let then =
        js_sys::Reflect::get(p, &"then".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(then) = then {
        let _ = then.call2(p, &ok, &fail);
    }
}

/// `fetch(url)` → the response text, or an error saying why (network, HTTP status).
pub fn fetch_text(url: &str, done: Callback<Result<String, Problem>>) {
    let Some(w) = web_sys::window() else {
        done.emit(Err(Problem::NoWindow));
        return;
    };
    let p = w.fetch_with_str(url);
    let d2 = done.clone();
    js_then(
        &p,
        move |resp: wasm_bindgen::JsValue| {
            let Ok(resp) = resp.dyn_into::<web_sys::Response>() else {
                d2.emit(Err(Problem::NotResponse));
                return;
            };
            if !resp.ok() {
                d2.emit(Err(Problem::Http { status: resp.status(), status_text: resp.status_text() }));
                return;
            }
            match resp.text() {
                Ok(t) => {
                    let d3 = d2.clone();
                    js_then(&t, move |v| d3.emit(v.as_string().ok_or(Problem::NotText)), d2);
                }
                Err(e) => d2.emit(Err(Problem::Browser(js_text(&e)))),
            }
        },
        done,
    );
}

/// One lesson file's loading state.
#[derive(Clone)]
pub enum Slot {
    Idle,
    Loading,
    Ready(Rc<Lesson>),
    Failed(Problem),
}

impl PartialEq for Slot {
    fn eq(&self, o: &Self) -> bool {
        match (self, o) {
            (Slot::Idle, Slot::Idle) | (Slot::Loading, Slot::Loading) => true,
            (Slot::Ready(a), Slot::Ready(b)) => Rc::ptr_eq(a, b),
            (Slot::Failed(a), Slot::Failed(b)) => a == b,
            _ => false,
        }
    }
}

/// The result of pressing Check.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The session stamp it was computed at (a later change makes it stale).
    pub stamp: u64,
    /// Every check that does not hold yet: its index in the step and how it failed.
    pub missing: Vec<(usize, ExpectFailure)>,
}

/// A lesson being followed.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub file: usize,
    pub step: usize,
    /// The log length when each visited step began (its outputs are the ones after it).
    pub starts: Vec<usize>,
    pub check: Option<Checked>,
    /// Read-only embed: the log holds every solution; steps move the scrubber.
    pub replay: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum View {
    Closed,
    List,
    /// Waiting for lesson `file` to load; then start it fresh, or resume at `(step, starts)`.
    Waiting {
        file: usize,
        resume: Option<(usize, Vec<usize>)>,
    },
    Lesson(Run),
}

#[derive(Clone, PartialEq)]
pub struct Guide {
    pub slots: Vec<Slot>,
    pub view: View,
    /// Steps done, per slug.
    pub progress: BTreeMap<String, Vec<usize>>,
    /// Keep progress and the lesson in progress in localStorage (off for embeds).
    pub persist: bool,
    /// Why saving failed, if it did.
    pub save_error: Option<Problem>,
    /// The address of the lesson in slot [`SRC`] (`lesson-src=`), if any.
    pub src: Option<String>,
}

pub enum GuideAction {
    OpenList,
    Close,
    Loading(usize),
    Loaded(usize, Result<Rc<Lesson>, Problem>),
    /// Open lesson `file` (fresh, once loaded).
    Want(usize),
    /// The lesson's sandbox is ready: step 0 starts at log length `start`.
    Started {
        file: usize,
        start: usize,
        replay: bool,
    },
    Resumed {
        file: usize,
        step: usize,
        starts: Vec<usize>,
    },
    /// Go to `step`; `len` = the log length now (the start of a step not visited before).
    Goto {
        step: usize,
        len: usize,
    },
    Checked(Checked, bool),
}

impl Guide {
    pub fn new(persist: bool, view: View) -> Guide {
        let progress = if persist { load_progress() } else { BTreeMap::new() };
        Guide {
            slots: vec![Slot::Idle; FILES.len() + 1],
            view,
            progress,
            persist,
            save_error: None,
            src: None,
        }
    }

    /// The same guide with the lesson of slot [`SRC`] at `src`.
    pub fn with_src(mut self, src: Option<String>) -> Guide {
        self.src = src;
        self
    }

    /// What the loader is asked for: the file name of lesson `file`, or the `lesson-src` address.
    pub fn source(&self, file: usize) -> Option<&str> {
        FILES.get(file).copied().or_else(|| self.src.as_deref().filter(|_| file == SRC))
    }

    /// How a lesson is named while it loads or when it fails: its slug, or its address.
    pub fn label(&self, file: usize) -> String {
        match FILES.get(file) {
            Some(f) => slug_of(f).to_string(),
            None => self.source(file).unwrap_or_default().to_string(),
        }
    }

    pub fn run(&self) -> Option<&Run> {
        match &self.view {
            View::Lesson(r) => Some(r),
            _ => None,
        }
    }

    pub fn lesson(&self, file: usize) -> Option<Rc<Lesson>> {
        match self.slots.get(file) {
            Some(Slot::Ready(l)) => Some(l.clone()),
            _ => None,
        }
    }

    pub fn done(&self, slug: &str) -> &[usize] {
        self.progress.get(slug).map(Vec::as_slice).unwrap_or(&[])
    }

    fn save(&mut self) {
        if !self.persist {
            return;
        }
        let progress = serde_json::to_string(&self.progress).unwrap_or_default();
        let active = match &self.view {
            View::Lesson(r) if !r.replay && r.file < FILES.len() => {
                Some(json!({"file": FILES[r.file], "step": r.step, "starts": r.starts}).to_string())
            }
            View::Waiting { .. } => return,
            _ => None,
        };
        let res = (|| -> Result<(), Problem> {
            let s = storage()?;
            s.set_item(PROGRESS_KEY, &progress).map_err(thrown)?;
            match active {
                Some(a) => s.set_item(ACTIVE_KEY, &a).map_err(thrown),
                None => s.remove_item(ACTIVE_KEY).map_err(thrown),
            }
        })();
        self.save_error = res.err();
    }
}

fn load_progress() -> BTreeMap<String, Vec<usize>> {
    storage()
        .ok()
        .and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The lesson in progress saved in localStorage: `(file index, step, starts)`.
pub fn saved_active() -> Option<(usize, usize, Vec<usize>)> {
    let text = storage().ok()?.get_item(ACTIVE_KEY).ok()??;
    let v: Value = serde_json::from_str(&text).ok()?;
    let file = FILES.iter().position(|f| Some(*f) == v.get("file").and_then(Value::as_str))?;
    let step = v.get("step")?.as_u64()? as usize;
    let starts: Vec<usize> =
        v.get("starts")?.as_array()?.iter().filter_map(|s| s.as_u64().map(|s| s as usize)).collect();
    (!starts.is_empty()).then_some((file, step, starts))
}

impl Reducible for Guide {
    type Action = GuideAction;
    fn reduce(self: Rc<Self>, action: GuideAction) -> Rc<Self> {
        let mut g = (*self).clone();
        match action {
            GuideAction::OpenList => g.view = View::List,
            GuideAction::Close => g.view = View::Closed,
            GuideAction::Loading(i) => {
                g.slots[i] = Slot::Loading;
                return Rc::new(g);
            }
            GuideAction::Loaded(i, r) => {
                g.slots[i] = match r {
                    Ok(l) => Slot::Ready(l),
                    Err(e) => Slot::Failed(e),
                };
                return Rc::new(g);
            }
            GuideAction::Want(file) => {
                g.view = View::Waiting { file, resume: None };
                return Rc::new(g);
            }
            GuideAction::Started { file, start, replay } => {
                g.view = View::Lesson(Run { file, step: 0, starts: vec![start], check: None, replay });
            }
            GuideAction::Resumed { file, step, starts } => {
                let n = g.lesson(file).map(|l| l.steps.len()).unwrap_or(1);
                let step = step.min(n.saturating_sub(1)).min(starts.len() - 1);
                g.view = View::Lesson(Run { file, step, starts, check: None, replay: false });
            }
            GuideAction::Goto { step, len } => {
                let View::Lesson(r) = &mut g.view else { return self };
                r.step = step;
                r.check = None;
                if r.starts.len() <= step {
                    r.starts.resize(step + 1, len);
                }
            }
            GuideAction::Checked(c, done) => {
                let View::Lesson(r) = &mut g.view else { return self };
                r.check = Some(c);
                let (file, step) = (r.file, r.step);
                if done && let Some(l) = g.lesson(file) {
                    let d = g.progress.entry(l.slug.clone()).or_default();
                    if let Err(at) = d.binary_search(&step) {
                        d.insert(at, step);
                    }
                }
            }
        }
        g.save();
        Rc::new(g)
    }
}

pub type GuideHandle = UseReducerHandle<Guide>;

/// Starts loading lesson `file` unless it is loaded or loading.
pub fn ensure_loaded(guide: &GuideHandle, loader: &Loader, file: usize) {
    if matches!(guide.slots.get(file), None | Some(Slot::Ready(_) | Slot::Loading)) {
        return;
    }
    guide.dispatch(GuideAction::Loading(file));
    let d = guide.dispatcher();
    let Some(name) = guide.source(file) else {
        d.dispatch(GuideAction::Loaded(file, Err(Problem::LessonInvalid("no lesson-src address".into()))));
        return;
    };
    loader(
        name,
        Callback::from(move |r: Result<String, Problem>| {
            let r = r.and_then(|text| {
                crate::lessons::parse(&text).map(Rc::new).map_err(|e| Problem::LessonInvalid(e.to_string()))
            });
            d.dispatch(GuideAction::Loaded(file, r));
        }),
    );
}

/// Lesson text with `backticks` as code and blank lines as paragraphs.
pub fn rich(text: &str) -> Html {
    let paras = text.split("\n\n").filter(|p| !p.trim().is_empty()).map(|p| {
        let parts = p.split('`').enumerate().map(|(i, t)| {
            if i % 2 == 1 {
                html! { <code>{ t.to_string() }</code> }
            } else {
                html! { { t.to_string() } }
            }
        });
        html! { <p>{ for parts }</p> }
    });
    html! { <>{ for paras }</> }
}

/// The log length after step `k`'s reference solution when every solution ran in order.
pub fn replay_end(l: &Lesson, k: usize) -> usize {
    l.setup.len() + l.steps.iter().take(k + 1).map(|s| s.solution.len()).sum::<usize>()
}

/// The lines a lesson's sandbox starts with: its setup, plus every solution in a replay.
pub fn start_lines(l: &Lesson, replay: bool) -> Vec<String> {
    let mut v = l.setup.clone();
    if replay {
        for s in &l.steps {
            v.extend(s.solution.iter().cloned());
        }
    }
    v
}

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub guide: GuideHandle,
    pub loader: LoaderProp,
    /// Embedded (no backup of the playground's sandbox, no progress saved).
    pub embed: bool,
}

/// A [`Loader`] as a property (compared by pointer).
#[derive(Clone)]
pub struct LoaderProp(pub Loader);

impl PartialEq for LoaderProp {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &PanelProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let guide = p.guide.clone();
    let loader = p.loader.0.clone();

    // A requested lesson starts (or resumes) once it is loaded.
    {
        let guide = guide.clone();
        let lab = lab.clone();
        let embed = p.embed;
        let lang = tr.0.code();
        use_effect(move || {
            if let View::Waiting { file, resume } = &guide.view
                && let Some(l) = guide.lesson(*file)
            {
                match resume {
                    Some((step, starts)) => guide.dispatch(GuideAction::Resumed {
                        file: *file,
                        step: *step,
                        starts: starts.clone(),
                    }),
                    None => {
                        let replay = lab.readonly;
                        let backed_up = !embed && super::save::keep_for_restore();
                        let notice = backed_up.then(|| {
                            let mut n =
                                Notice::info(K::NoticeLessonStarted, vec![l.title.get(lang).to_string()]);
                            n.restore = true;
                            n
                        });
                        lab.dispatch(Action::Replace(start_lines(&l, replay), notice));
                        if replay {
                            lab.dispatch(Action::Seek(replay_end(&l, 0)));
                        }
                        guide.dispatch(GuideAction::Started { file: *file, start: l.setup.len(), replay });
                    }
                }
            }
        });
    }

    // The lesson's text scrolls on its own when the panel has a fixed height (an embed): a new
    // step shows from its top, a check's result (at the end of the text) comes into view.
    let body_ref = use_node_ref();
    {
        let body_ref = body_ref.clone();
        let key = match &guide.view {
            View::Lesson(r) => Some((r.file, r.step, r.check.as_ref().map(|c| c.stamp))),
            _ => None,
        };
        use_effect_with(key, move |key| {
            if let Some(el) = body_ref.cast::<web_sys::Element>() {
                let checked = key.as_ref().is_some_and(|k| k.2.is_some());
                el.set_scroll_top(if checked { el.scroll_height() } else { 0 });
            }
        });
    }

    let close = {
        let guide = guide.clone();
        Callback::from(move |_: MouseEvent| guide.dispatch(GuideAction::Close))
    };
    let leave_btn = html! {
        <button id="lesson-leave" type="button" class="small" title={tr.t(K::LeaveTitle)} onclick={close}>{ tr.t(K::LeaveLesson) }</button>
    };

    match &guide.view {
        View::Closed => html! {},
        View::List => list_view(tr, &guide, &loader, leave_btn),
        View::Waiting { file, .. } => {
            let file = *file;
            let body = match guide.slots.get(file).unwrap_or(&Slot::Idle) {
                Slot::Failed(e) => failed(tr, &guide, &loader, file, e),
                _ => {
                    html! { <p id="lesson-loading" class="muted" role="status">{ tr.t(K::LessonLoading) }</p> }
                }
            };
            html! {
                <aside id="lesson-panel" class="lesson-panel" aria-label={tr.t(K::LessonsHeading)}>
                    <div class="row-head"><h2>{ guide.label(file) }</h2>{ leave_btn }</div>
                    { body }
                </aside>
            }
        }
        View::Lesson(run) => match guide.lesson(run.file) {
            Some(l) => lesson_view(tr, &guide, &lab, run, &l, leave_btn, body_ref),
            None => html! {},
        },
    }
}

fn failed(tr: Tr, guide: &GuideHandle, loader: &Loader, file: usize, why: &Problem) -> Html {
    let retry = {
        let guide = guide.clone();
        let loader = loader.clone();
        Callback::from(move |_: MouseEvent| ensure_loaded(&guide, &loader, file))
    };
    html! {
        <div class="lesson-error error-box" role="alert">
            <span>{ tr.f(K::LessonLoadFailed, &[&guide.source(file).unwrap_or_default(), &why.text(tr)]) }</span>
            <button type="button" class="small lesson-retry" data-file={guide.source(file).unwrap_or_default().to_string()} onclick={retry}>{ tr.t(K::Retry) }</button>
        </div>
    }
}

fn list_view(tr: Tr, guide: &GuideHandle, loader: &Loader, leave: Html) -> Html {
    let lang = tr.0.code();
    let rows = FILES.iter().enumerate().map(|(i, file)| {
        let slug = slug_of(file);
        let open = {
            let guide = guide.clone();
            let loader = loader.clone();
            Callback::from(move |_: MouseEvent| {
                ensure_loaded(&guide, &loader, i);
                guide.dispatch(GuideAction::Want(i));
            })
        };
        let (title, status) = match &guide.slots[i] {
            Slot::Ready(l) => {
                let done = guide.done(&l.slug).len();
                let n = l.steps.len();
                let status = if done >= n {
                    html! { <span class="lesson-progress ok">{ tr.t(K::LessonDoneMark) }</span> }
                } else {
                    html! { <span class="lesson-progress muted">{ tr.f(K::LessonProgress, &[&done, &n]) }</span> }
                };
                (l.title.get(lang).to_string(), status)
            }
            Slot::Failed(e) => (slug.to_string(), failed(tr, guide, loader, i, e)),
            _ => (slug.to_string(), html! { <span class="muted small">{ tr.t(K::LessonLoading) }</span> }),
        };
        html! {
            <li data-slug={slug.to_string()}>
                <button type="button" class="link lesson-open" onclick={open}>{ format!("{}. {title}", i + 1) }</button>
                { status }
            </li>
        }
    });
    html! {
        <aside id="lesson-panel" class="lesson-panel" aria-labelledby="lessons-h">
            <div class="row-head"><h2 id="lessons-h">{ tr.t(K::LessonsHeading) }</h2>{ leave }</div>
            <p class="small muted">{ tr.t(K::LessonsIntro) }</p>
            <ol id="lesson-list" class="lesson-list">{ for rows }</ol>
        </aside>
    }
}

/// The outputs produced since log position `start` (up to the scrubber).
pub fn outputs_since(lab: &state::Lab, start: usize) -> Vec<Value> {
    let vis = lab.visible();
    vis[start.min(vis.len())..].iter().filter_map(|e| e.out.as_deref().cloned()).collect()
}

fn lesson_view(
    tr: Tr,
    guide: &GuideHandle,
    lab: &LabHandle,
    run: &Run,
    l: &Rc<Lesson>,
    leave: Html,
    body_ref: NodeRef,
) -> Html {
    let lang = tr.0.code();
    let n = l.steps.len();
    let k = run.step.min(n - 1);
    let step = &l.steps[k];
    let done = guide.done(&l.slug);
    let goto = |to: usize| {
        let guide = guide.clone();
        let lab = lab.clone();
        let replay = run.replay;
        let l = l.clone();
        Callback::from(move |_: MouseEvent| {
            if replay {
                lab.dispatch(Action::Seek(replay_end(&l, to)));
            }
            guide.dispatch(GuideAction::Goto { step: to, len: lab.entries.len() });
        })
    };
    let show = {
        let lab = lab.clone();
        let lines = step.solution.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::Run(lines.clone())))
    };
    let check = {
        let lab = lab.clone();
        let guide = guide.clone();
        let start = run.starts.get(k).copied().unwrap_or(0);
        let step = step.clone();
        Callback::from(move |_: MouseEvent| {
            let outs = outputs_since(&lab, start);
            let results = check_step(&step, &outs);
            let missing: Vec<(usize, ExpectFailure)> =
                results.into_iter().filter_map(|(i, r)| r.err().map(|f| (i, f))).collect();
            let ok = missing.is_empty();
            guide.dispatch(GuideAction::Checked(Checked { stamp: lab.stamp, missing }, ok));
        })
    };
    let dots = (0..n).map(|i| {
        let cls = classes!("dot", (i == k).then_some("current"), done.contains(&i).then_some("done"));
        let label = tr.f(K::LessonStepOf, &[&(i + 1), &n]);
        html! { <li><button type="button" class={cls} aria-label={label.clone()} title={label} aria-current={(i == k).then_some("step")} onclick={goto(i)}>{ if done.contains(&i) { "✓".to_string() } else { (i + 1).to_string() } }</button></li> }
    });
    let result = run.check.as_ref().map(|c| {
        let stale = c.stamp != lab.stamp;
        if c.missing.is_empty() {
            html! {
                <div id="lesson-result" class="lesson-result ok" role="status">
                    <p><strong>{ tr.t(K::CheckPassed) }</strong></p>
                    <div id="lesson-after">{ rich(step.after.get(lang)) }</div>
                    if k + 1 == n { <p id="lesson-complete"><strong>{ tr.t(K::LessonComplete) }</strong></p> }
                </div>
            }
        } else {
            let items = c.missing.iter().filter_map(|(i, f)| {
                let words = crate::lessons::still_missing(step.checks.get(*i)?, f, super::why::lang(tr));
                Some(html! { <li>{ words }</li> })
            });
            html! {
                <div id="lesson-result" class="lesson-result missing" role="status">
                    <p><strong>{ tr.t(K::CheckMissing) }</strong></p>
                    <ul id="lesson-missing">{ for items }</ul>
                    if stale { <p class="small muted">{ tr.t(K::CheckStale) }</p> }
                </div>
            }
        }
    });
    let after_replay = run.replay.then(
        || html! { <div id="lesson-after" class="lesson-result ok">{ rich(step.after.get(lang)) }</div> },
    );
    let to_list = {
        let guide = guide.clone();
        Callback::from(move |_: MouseEvent| guide.dispatch(GuideAction::OpenList))
    };
    html! {
        <aside id="lesson-panel" class="lesson-panel" aria-labelledby="lesson-title" data-slug={l.slug.clone()} data-step={k.to_string()}>
            <div class="row-head">
                if !run.replay { <button id="lesson-all" type="button" class="small" onclick={to_list}>{ tr.t(K::AllLessons) }</button> }
                { leave }
            </div>
            <h2 id="lesson-title">{ l.title.get(lang).to_string() }</h2>
            <p id="lesson-pos" class="small muted">{ tr.f(K::LessonStepOf, &[&(k + 1), &n]) }</p>
            <ol class="lesson-dots">{ for dots }</ol>
            // The text (what to do, the goal, a check's result) and, after it, the controls.
            <div class="lesson-body" ref={body_ref}>
                <div id="lesson-say" class="lesson-say">{ rich(step.say.get(lang)) }</div>
                <div id="lesson-goal" class="lesson-goal"><strong>{ tr.t(K::LessonGoal) }</strong>{ " " }{ rich(step.goal.get(lang)) }</div>
                if run.replay {
                    <p class="small muted">{ tr.t(K::LessonReplay) }</p>
                    { for after_replay }
                } else {
                    { for result }
                }
            </div>
            if !run.replay {
                <div class="buttons">
                    <button id="lesson-show" type="button" title={tr.t(K::ShowMeTitle)} onclick={show}>{ tr.t(K::ShowMe) }</button>
                    <button id="lesson-check" type="button" title={tr.t(K::CheckTitle)} onclick={check}>{ tr.t(K::CheckStep) }</button>
                </div>
            }
            <div class="lesson-nav">
                <button id="lesson-prev" type="button" class="small" disabled={k == 0} onclick={goto(k.saturating_sub(1))}>{ tr.t(K::PrevStep) }</button>
                <button id="lesson-next" type="button" class="small" disabled={k + 1 >= n} onclick={goto(k + 1)}>{ tr.t(K::NextStep) }</button>
            </div>
        </aside>
    }
}
