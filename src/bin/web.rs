//! Entry point of the browser app (Trunk bundles it into `dist/`: `trunk build --release`, see Trunk.toml).
fn main() {
    #[cfg(target_arch = "wasm32")]
    rvlab::ui::start();
}
