//! Entry point of the browser app (`web_build` in dev.sh bundles it into `dist/`). The module
//! also exports the embedding API's `Lab` (`rvlab::embed`); a page that only uses `Lab` says
//! `<meta name="rvlab-app" content="none">` and the app does not mount on it.
fn main() {
    #[cfg(target_arch = "wasm32")]
    if rvlab::embed::wants_app() {
        rvlab::ui::start();
    }
}
