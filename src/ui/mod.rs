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
#[cfg(feature = "app")]
pub mod mount;
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
#[cfg(feature = "app")]
pub use mount::{Mounted, mount};

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
