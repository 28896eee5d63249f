//! The Yew app (wasm32 only): the playground — request builder, console, response viewer,
//! watches, simulation controls and the etcd view. Everything a person does becomes a script
//! line appended to one log ([`state::Lab`], owned by [`hooks::use_lab`]); the engine is reached
//! only through `rvlab::script::Session` and its JSON output objects.
//!
//! [`app`] lays out the panels (one component per file), [`browser`] is the glue to the page
//! (storage, clipboard, address bar, document listeners), [`state`] the one reducer.

pub mod app;
pub mod browser;
pub mod builder;
pub mod config;
pub mod console;
pub mod examples;
pub mod guided;
pub mod header;
pub mod hooks;
pub mod i18n;
pub mod lines;
pub mod live;
pub mod messages;
pub mod response;
pub mod safety;
pub mod scrubber;
pub mod share;
pub mod sim;
pub mod state;
pub mod system;
pub mod timeline;
pub mod watches;
pub mod welcome;
pub mod why;

use yew::prelude::*;

pub use app::{App, AppProps};
pub use header::{EXPORT_NAME, script_text};

/// The handle every panel gets from context.
pub type LabHandle = UseReducerHandle<state::Lab>;

/// The request builder's form, shared so other panels can fill it (e.g. "use this token").
pub type SpecHandle = UseStateHandle<lines::RequestSpec>;

/// The log entry under the pointer (timeline marks and console rows highlight each other).
pub type HoverHandle = UseStateHandle<Option<usize>>;

/// Mounts the app on the page body.
pub fn start() {
    safety::install();
    yew::Renderer::<App>::new().render();
}
