//! The JavaScript embedding API: the `Lab` class the playground's ES module exports
//! (`new Lab()`, `lab.run(script)`, `lab.reset()`), for pages that drive a sandbox themselves.
//! Each `run` hands back the output objects `rvlab run` prints for the same lines, as plain
//! JavaScript objects ([`json`]); the limits and line numbering are `script::batch`'s, so a
//! `Lab` and `rvlab run` always agree. The `<rv-playground>` element's `run()` reaches the same
//! runner inside the app's frame (`ui::embed_api`). Documented in
//! `site/src/reference/embedding-api.md`. No upstream counterpart. The console embed a
//! documentation page shows first is [`console`] (its own, smaller module).

pub mod console;
pub mod json;
pub mod message;
pub mod query;

#[cfg(target_arch = "wasm32")]
mod lab;
#[cfg(target_arch = "wasm32")]
#[cfg(feature = "sandbox")]
pub use lab::Lab;
#[cfg(target_arch = "wasm32")]
pub use lab::{text_of, to_js, wants_app};

/// What an embed's `run()` throws when it runs no lines (the app's and the console's alike).
pub const READ_ONLY: &str = "this embed is read-only (mode=readonly) and runs no lines; use mode=interactive";
