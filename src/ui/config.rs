//! How the page was opened: `?lang=`, `?theme=`, embed mode (`?embed=1&lesson=…|script=…
//! &mode=readonly|interactive&height=auto`) and a share link in the `#fragment`. Parsed from
//! text so tests can mount the app with any URL without touching the page's location. Also the
//! lesson files' index and slugs (what `?lesson=` names) and how a lesson file is loaded
//! ([`Loader`]), which `guided` uses.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Callback;

use super::i18n::Lang;
use super::model::{Entry, Problem};
use super::url::query_pairs;
use crate::script::Session;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];
    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    pub fn parse(s: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.code() == s)
    }
}

/// Everything the URL says.
#[derive(Default)]
pub struct Config {
    /// `?lang=`; None = the browser's language.
    pub lang: Option<Lang>,
    pub theme: Theme,
    pub embed: bool,
    /// `mode=interactive` (default for embeds: readonly, except for guided lessons).
    pub interactive: bool,
    /// `mode=readonly` given explicitly.
    pub mode_readonly: bool,
    /// `height=<px>`; None = auto (the embed posts its height to the host page).
    pub height: Option<u32>,
    pub lesson: Option<String>,
    /// `lesson-src=<URL>`: a guided lesson file fetched from that address (a documentation
    /// page's own lesson); it takes the place of `lesson=` as [`SRC`].
    pub lesson_src: Option<String>,
    pub script: Option<String>,
    /// `?motion=reduce`: behave as if the system asked for reduced motion (no animations, and
    /// Play in the simulation controls steps instead of running a timer).
    pub reduce_motion: bool,
    /// `?tick=<ms>` (tests): the wall-clock interval of Play's timer; None = one second.
    pub tick_ms: Option<u32>,
    /// The text after `#`, when there is one.
    pub fragment: Option<String>,
    /// The config came from the page's own URL: the app may rewrite it (clear a consumed share
    /// fragment, keep `?lang=` in step with the switcher).
    pub from_location: bool,
    /// A session that was already driven, with the lines it ran (tests, big histories).
    pub seed: RefCell<Option<(Session, Vec<Entry>)>>,
    /// How guided lessons are loaded; None = fetch `lessons/<file>` next to the page.
    pub loader: Option<Loader>,
    /// The element of an embed mounted in the page itself (`ui::mount`); None in a frame or on
    /// the playground's own page.
    pub host: Option<Rc<super::embed_port::Host>>,
}

// ---- the guided lessons a URL can name (`?lesson=<slug>`) and how their files are loaded

/// The lesson files, in order: `lessons/<file>` next to the app (the engine's one list).
pub use crate::lessons::NAMES as FILES;

/// A file's slug: `01-where-rv-comes-from.rv` → `where-rv-comes-from`.
pub fn slug_of(file: &str) -> &str {
    let f = file.strip_suffix(".rv").unwrap_or(file);
    match f.split_once('-') {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => f,
    }
}

/// The index in [`FILES`] of the lesson `id` names: its slug (`paging`) or its file name with or
/// without `.rv` (`05-paging`, `05-paging.rv`), as the book's chapters name them.
pub fn index_of(id: &str) -> Option<usize> {
    FILES.iter().position(|f| slug_of(f) == id || *f == id || f.strip_suffix(".rv") == Some(id))
}

/// The index [`Config::guided_lesson`] gives the lesson `lesson-src=` names: one past the files.
pub const SRC: usize = FILES.len();

/// Every guided lesson's slug.
pub fn slugs() -> Vec<String> {
    FILES.iter().map(|f| slug_of(f).to_string()).collect()
}

/// Loads a lesson file's text by file name and calls back with it or with why not.
pub type Loader = Rc<dyn Fn(&str, Callback<Result<String, Problem>>)>;

impl PartialEq for Config {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Config {
    /// Parses `location.search` and `location.hash` (each with or without `?` / `#`).
    pub fn parse(search: &str, hash: &str) -> Config {
        let mut c = Config::default();
        for (k, v) in query_pairs(search) {
            match k.as_str() {
                "lang" => c.lang = Lang::parse(&v),
                "theme" => c.theme = Theme::parse(&v).unwrap_or_default(),
                "embed" => c.embed = matches!(v.as_str(), "1" | "true" | "yes" | ""),
                "mode" => {
                    c.interactive = v == "interactive";
                    c.mode_readonly = v == "readonly";
                }
                "height" => c.height = v.parse().ok().filter(|h: &u32| *h >= 80),
                "lesson" if !v.is_empty() => c.lesson = Some(v),
                "lesson-src" if !v.is_empty() => c.lesson_src = Some(v),
                "script" if !v.is_empty() => c.script = Some(v),
                "motion" => c.reduce_motion = v == "reduce",
                "tick" => c.tick_ms = v.parse().ok().filter(|t: &u32| *t >= 5),
                _ => {}
            }
        }
        let h = hash.trim_start_matches('#');
        if !h.is_empty() {
            c.fragment = Some(h.to_string());
        }
        c
    }

    /// The page's own URL.
    pub fn from_location() -> Config {
        let loc = web_sys::window().map(|w| w.location());
        let search = loc.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
        let hash = loc.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
        let mut c = Config::parse(&search, &hash);
        c.from_location = true;
        c
    }

    /// A config carrying an already-driven session.
    pub fn with_session(mut self, session: Session, entries: Vec<Entry>) -> Config {
        self.seed = RefCell::new(Some((session, entries)));
        self
    }

    /// A guided lesson embed is interactive unless `mode=readonly` says otherwise (a lesson is
    /// something to do); other embeds are read-only unless `mode=interactive`.
    pub fn readonly(&self) -> bool {
        self.embed && !self.interactive && (self.mode_readonly || self.guided_lesson().is_none())
    }

    /// The index of the guided lesson `?lesson-src=` ([`SRC`]) or `?lesson=` names, if any.
    pub fn guided_lesson(&self) -> Option<usize> {
        if self.lesson_src.is_some() {
            return Some(SRC);
        }
        self.lesson.as_deref().and_then(index_of)
    }

    /// `?motion=reduce`, or the system's `prefers-reduced-motion: reduce`.
    pub fn reduced_motion(&self) -> bool {
        self.reduce_motion || super::browser::prefers_reduced_motion()
    }

    /// A config whose guided lessons come from `loader` (tests, host pages).
    pub fn with_loader(mut self, loader: Loader) -> Config {
        self.loader = Some(loader);
        self
    }
}
