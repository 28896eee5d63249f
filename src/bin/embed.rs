//! Entry point of the console embed's module (`rvlab-embed`): Trunk builds it beside the app
//! (www/index.html, without the app and the language's extras: `--no-default-features`), and
//! `rv-playground.js` imports it for a documentation page's `<rv-playground script="…">`
//! elements. It exports `mountConsole` (`rvlab::embed::console`); starting it only installs the
//! panic hook. On the host its main is empty.
fn main() {
    #[cfg(target_arch = "wasm32")]
    rvlab::embed::console::start();
}
