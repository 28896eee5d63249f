//! The Yew app (wasm32 only): the playground — request builder, console, response viewer,
//! watches, simulation controls and the etcd view. Everything a person does becomes a script
//! line appended to one log ([`state::Lab`], owned by [`hooks::use_lab`]); the engine is reached
//! only through `rvlab::script::Session` and its JSON output objects.
//!
//! The modules form layers, each using only those below it (as in Yew's `function_todomvc`):
//! [`app`] lays out the panels; [`header`] and the panels (one component per file, [`pictures`]
//! holding [`system`] over [`timeline`]) and [`hooks`]; [`state`], the one reducer (and the
//! context handles); [`safety`] (the panic hook) and [`config`]; [`save`] (everything that
//! saves and restores the sandbox); [`browser`] (the glue to the page: storage,
//! clipboard, address bar, document listeners); at the bottom the pure [`model`] (entries,
//! notices, the saved format), [`url`], [`lines`], [`i18n`] and [`share`].

pub mod app;
pub mod browser;
pub mod builder;
pub mod config;
pub mod console;
pub mod embed_api;
pub mod embed_port;
pub mod examples;
pub mod guided;
pub mod header;
pub mod hooks;
pub mod i18n;
pub mod lines;
pub mod live;
pub mod messages;
pub mod model;
pub mod picture;
pub mod pictures;
pub mod response;
pub mod safety;
pub mod save;
pub mod scrubber;
pub mod settings;
pub mod share;
pub mod sim;
pub mod state;
pub mod system;
pub mod timeline;
pub mod url;
pub mod watches;
pub mod welcome;
pub mod why;

pub use app::{App, AppProps};

use std::rc::Rc;

use wasm_bindgen::prelude::*;

/// Mounts the app on the page body, replacing the page's loading line (`#rvlab-boot`, shown by
/// `www/index.html` while the wasm loads).
pub fn start() {
    safety::install();
    if let Some(boot) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("rvlab-boot"))
    {
        boot.remove();
    }
    yew::Renderer::<App>::new().render();
}

/// An embed mounted in the page itself by the `<rv-playground>` element (`mountEmbed` in the
/// app's ES module): the app in embed mode, rendered into a node of the element's shadow root.
/// Every embed of a page shares the one module (one wasm download and compile); each has its
/// own sandbox, language and theme.
#[wasm_bindgen]
pub struct Mounted {
    app: Option<yew::AppHandle<App>>,
    host: Rc<embed_port::Host>,
}

#[wasm_bindgen]
impl Mounted {
    /// Runs `script` in this embed's sandbox as if typed in its console: the outputs of the
    /// lines that ran. Throws an `Error` (with the reason a framed embed's `rvlab:error` gives)
    /// when the embed runs no lines (mode=readonly) or is not ready or unmounted.
    pub fn run(&self, script: JsValue) -> Result<js_sys::Array, JsValue> {
        let runner = self.host.runner().ok_or_else(|| js_sys::Error::new("the embed is not running"))?;
        runner(&script).map_err(|text| js_sys::Error::new(&text).into())
    }

    /// Takes the app out of the page (its sandbox is dropped); later runs throw.
    pub fn unmount(&mut self) {
        self.host.set_runner(None);
        if let Some(app) = self.app.take() {
            app.destroy();
        }
    }
}

/// Mounts the app in embed mode into `root` (a node in the shadow root of `element`, the
/// `<rv-playground>` element); `measure` is a hidden element under a shadow root with the app's
/// stylesheet where the pictures measure their labels (the same one for every embed). `query` holds the element's attributes as the frame's address
/// would (`embed=1&script=…&mode=…&theme=…&lang=…&height=…`); `base` is the address of the
/// app's directory, where lesson files are fetched (`lessons/<file>`). Each line that runs calls
/// `on_output(output)`; `on_ready()` is called once the embed takes runs.
#[wasm_bindgen(js_name = mountEmbed)]
pub fn mount(
    element: web_sys::Element,
    root: web_sys::Element,
    measure: web_sys::Element,
    query: &str,
    base: &str,
    on_output: js_sys::Function,
    on_ready: js_sys::Function,
) -> Mounted {
    safety::install();
    timeline::measure_in(measure);
    let host = Rc::new(embed_port::Host::new(element, format!("{base}index.html"), on_output, on_ready));
    let mut cfg = config::Config::parse(query, "");
    cfg.embed = true;
    cfg.host = Some(host.clone());
    let base = base.to_string();
    let cfg = cfg.with_loader(Rc::new(move |file: &str, done| {
        if config::FILES.contains(&file) {
            guided::fetch_text(&format!("{base}{}{file}", guided::DIR), done)
        } else {
            guided::fetch_text(file, done)
        }
    }));
    let props = AppProps { config: Some(Rc::new(cfg)) };
    let app = yew::Renderer::<App>::with_root_and_props(root, props).render();
    Mounted { app: Some(app), host }
}
