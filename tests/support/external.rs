//! The programs nobody here wrote that some tests drive: kubectl, etcd, the official Python
//! client and `@kubernetes/client-node`. `./dev.sh test` installs them (kubectl must be on
//! `PATH`). Under `./dev.sh test` or CI (`RVLAB_REQUIRE_TOOLS` or `CI` set) a missing one fails
//! the test that needs it; under a plain `cargo test` that test says `SKIPPED`, names what is
//! missing and `./dev.sh test`, and passes.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use rvlab::tools::on_path;

/// Whether a missing program is a failure (under `./dev.sh test` or CI) rather than a skip.
pub fn required() -> bool {
    std::env::var_os("RVLAB_REQUIRE_TOOLS").is_some() || std::env::var_os("CI").is_some()
}

/// `None` after saying why the test is skipped; a failure when [`required`].
fn missing<T>(what: &str, why: String) -> Option<T> {
    let text = format!("{what} is needed: {why}; `./dev.sh test` installs it");
    assert!(!required(), "{text} (RVLAB_REQUIRE_TOOLS or CI is set: a missing program is a failure)");
    // Straight to the process's stderr, past the test harness's capture: a skip is seen.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {text}");
    None
}

/// kubectl on `PATH`.
pub fn kubectl() -> Option<PathBuf> {
    on_path("kubectl").or_else(|| {
        missing(
            "kubectl",
            "it is not on PATH (see site/src/reference/serve.md, 'Tested with real clients')".into(),
        )
    })
}

/// etcd (Debian's etcd-server, or `RVLAB_ETCD`).
pub fn etcd() -> Option<PathBuf> {
    let bin = std::env::var_os("RVLAB_ETCD").map_or_else(|| PathBuf::from("/usr/bin/etcd"), PathBuf::from);
    if bin.is_file() {
        Some(bin)
    } else {
        missing("etcd", format!("{} does not exist (install etcd-server or set RVLAB_ETCD)", bin.display()))
    }
}

/// A Python with the pinned `kubernetes` (`RVLAB_PYTHON`, or the virtualenv in the tool cache).
pub fn python() -> Option<PathBuf> {
    rvlab::tools::python_client(None).map_or_else(|m| missing(&m.what, m.why), Some)
}

/// The folder whose `node_modules` holds the pinned `@kubernetes/client-node`
/// (`RVLAB_CLIENT_NODE`, or the tool cache), with `node` on `PATH`.
pub fn client_node() -> Option<PathBuf> {
    rvlab::tools::client_node(None).map_or_else(|m| missing(&m.what, m.why), Some)
}

/// The kube-rs example (`examples/controller.rs`), built beside the test binaries (`target/<profile>/examples/controller`) by
/// `cargo build --example controller` once per run: `cargo test` builds examples only as test
/// harnesses when targets are named (`--all-targets`, `--test serve_kube_rs`), and cargo holds no
/// lock on the build directory while tests run.
pub fn kube_controller() -> PathBuf {
    static BUILT: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let bin = PathBuf::from(env!("CARGO_BIN_EXE_rvlab"));
        let dir = bin.parent().ok_or("no directory for the rvlab binary")?;
        let path = dir.join("examples").join("controller");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--quiet", "--example", "controller"]).current_dir(env!("CARGO_MANIFEST_DIR"));
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let out = cmd.output().map_err(|e| format!("cargo build --example controller: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo build --example controller: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if !path.is_file() {
            return Err(format!("{} is missing after cargo build --example controller", path.display()));
        }
        Ok(path)
    });
    built.clone().unwrap_or_else(|e| panic!("{e}"))
}
