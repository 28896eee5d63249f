//! Entry point of the browser app (Trunk bundles it into `dist/`: `trunk build --release`, see
//! Trunk.toml). The module also exports the embedding API's `Lab` (`rvlab::embed`); a page that only uses `Lab` says
//! `<meta name="rvlab-app" content="none">` and the app does not mount on it.
//!
//! Without the `app` feature (on by default) the app is left out and the binary holds the engine
//! and `Lab` only: `scripts/size/measure.sh --no-default-features --features sandbox` measures what
//! the app costs.
fn main() {
    #[cfg(target_arch = "wasm32")]
    if rvlab::embed::wants_app() {
        #[cfg(feature = "app")]
        rvlab::ui::start();
    }
}
