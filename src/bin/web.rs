//! Entry point of the browser app that Trunk builds.
fn main() {
    #[cfg(target_arch = "wasm32")]
    rvlab::ui::start();
}
