//! rvlab — a faithful, deterministic model of how Kubernetes `resourceVersion` works.
//!
//! The engine is sans-IO: an etcd-like MVCC [`store`], the kube-apiserver read/write paths in
//! [`apiserver`], client-go style clients in [`client`], and the line language of [`script`]
//! that both the `rvlab` command and the browser console speak. Time comes from [`clock`], never
//! from the host, so the same script always gives the same output. The Yew app in `ui` is
//! compiled for `wasm32` only and reaches the engine only through its public API.

pub mod apiserver;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod embed;
pub mod script;
pub mod store;

#[cfg(not(target_arch = "wasm32"))]
pub mod serve;

/// `rvlab run --against`: a script against a real cluster and the simulation (host only).
#[cfg(not(target_arch = "wasm32"))]
pub mod against;
/// Where the real client programs the soak and the tests drive are found (the tests
/// compile for wasm32 too; nothing there calls it).
pub mod tools;

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// On the host, only the UI's plain-Rust parts (no Yew), so `cargo test` checks them.
#[cfg(not(target_arch = "wasm32"))]
pub mod ui {
    pub mod picture;
}

/// The version of rvlab, as printed by `rvlab --version` and shown in the UI footer.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub mod bench;
pub mod lessons;
