//! Where the real client programs are found that `rvlab-soak` and the tests drive: `PATH`, and
//! the per-machine tool cache `./dev.sh` installs the pinned ones into. A lookup that finds
//! nothing says what is missing and why; the caller decides whether that skips or fails.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python client's pinned version (`./dev.sh` makes a virtualenv with it).
pub const PY_KUBERNETES: &str = "37.0.2";
/// `@kubernetes/client-node`, pinned (2.x needs Node 22).
pub const CLIENT_NODE: &str = "1.4.0";

/// A program that is not there, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    pub what: String,
    pub why: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.why)
    }
}

/// The per-machine tool cache `./dev.sh` installs into (`RVLAB_TOOLS`, else
/// `${XDG_CACHE_HOME:-$HOME/.cache}/rvlab/tools`).
pub fn tool_cache() -> PathBuf {
    if let Some(d) = std::env::var_os("RVLAB_TOOLS") {
        return PathBuf::from(d);
    }
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_default()
        .join("rvlab/tools")
}

/// `name` in a directory of `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A Python that imports `kubernetes` at [`PY_KUBERNETES`]: `given`, else `RVLAB_PYTHON`, else
/// the virtualenv in the tool cache.
pub fn python_client(given: Option<PathBuf>) -> Result<PathBuf, Missing> {
    let p = given.unwrap_or_else(|| {
        std::env::var_os("RVLAB_PYTHON").map_or_else(
            || tool_cache().join(format!("python-kubernetes-{PY_KUBERNETES}/bin/python")),
            PathBuf::from,
        )
    });
    let check = format!(
        "import kubernetes; assert kubernetes.__version__ == '{PY_KUBERNETES}', kubernetes.__version__"
    );
    if Command::new(&p).args(["-c", &check]).status().is_ok_and(|s| s.success()) {
        Ok(p)
    } else {
        Err(Missing {
            what: format!("the Python client kubernetes=={PY_KUBERNETES}"),
            why: format!("{} cannot import it (or set RVLAB_PYTHON)", p.display()),
        })
    }
}

/// The folder whose `node_modules` holds `@kubernetes/client-node` at [`CLIENT_NODE`], with
/// `node` on `PATH`: `given`, else `RVLAB_CLIENT_NODE`, else the tool cache.
pub fn client_node(given: Option<PathBuf>) -> Result<PathBuf, Missing> {
    let dir = given.unwrap_or_else(|| {
        std::env::var_os("RVLAB_CLIENT_NODE")
            .map_or_else(|| tool_cache().join(format!("client-node-{CLIENT_NODE}")), PathBuf::from)
    });
    let what = format!("@kubernetes/client-node {CLIENT_NODE}");
    if on_path("node").is_none() {
        return Err(Missing { what, why: "node is not on PATH".into() });
    }
    let pkg = dir.join("node_modules/@kubernetes/client-node/package.json");
    let version = std::fs::read_to_string(&pkg)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["version"].as_str().map(str::to_string));
    if version.as_deref() == Some(CLIENT_NODE) {
        Ok(dir)
    } else {
        Err(Missing { what, why: format!("{} has {version:?} (or set RVLAB_CLIENT_NODE)", pkg.display()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_the_pinned_client_node_is_missing_with_its_package_path() {
        let dir = std::env::temp_dir().join(format!("rvlab-no-client-node-{}", std::process::id()));
        let err = client_node(Some(dir.clone())).unwrap_err();
        assert_eq!(err.what, format!("@kubernetes/client-node {CLIENT_NODE}"));
        if on_path("node").is_some() {
            let pkg = dir.join("node_modules/@kubernetes/client-node/package.json");
            assert_eq!(err.why, format!("{} has None (or set RVLAB_CLIENT_NODE)", pkg.display()));
        } else {
            assert_eq!(err.why, "node is not on PATH");
        }
    }

    #[test]
    fn a_python_that_does_not_exist_is_missing() {
        let err = python_client(Some(PathBuf::from("/nonexistent/python"))).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the Python client kubernetes=={PY_KUBERNETES}: /nonexistent/python cannot import it (or set RVLAB_PYTHON)"
            )
        );
    }
}
