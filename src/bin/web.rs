//! Entry point of the browser app (`web_build` in dev.sh bundles it into `dist/`).
fn main() {
    #[cfg(target_arch = "wasm32")]
    rvlab::ui::start();
}
