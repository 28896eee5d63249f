//! The console embed: what a documentation page's `<rv-playground script="…">` shows first. The
//! engine runs the element's lines (and the reader's, in `mode=interactive`) in its own sandbox,
//! and the console renders the session's typed values: a log of the lines with a summary of each
//! answer, and the selected line's output object and the engine's reason, in English or 中文.
//! It is the `rvlab-embed` module (`src/bin/embed.rs`), built without the app and without the
//! language's extras (`script::extra`), so a page downloads a fraction of the playground. The
//! picture, the timeline and every panel are the full playground's: its button, and any line
//! the module does not run, load the full playground in the element's place with the same
//! lines (`www/rv-playground.js`). Documented in `site/src/reference/embedding.md`.

pub mod options;
pub mod shown;
pub mod words;

#[cfg(target_arch = "wasm32")]
mod mount;
#[cfg(target_arch = "wasm32")]
pub use mount::{Console, mount, needs_full_query, start};
