//! The app mounted in a host page by `<rv-playground render="page">` (`www/rv-playground.js`):
//! `mountEmbed`, exported by the app's ES module, renders the app in embed mode into a node of
//! the element's shadow root. Only with the `app` feature (a build without the app exports none
//! of it, so keeps none of the UI). Documented in `site/src/reference/embedding-api.md`.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::{App, AppProps, config, embed_port, guided, safety, timeline};

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
