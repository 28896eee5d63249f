//! `rvlab serve` as a child process for a test: on a free loopback port, with its files in a
//! temporary directory; the process is killed and the directory removed when dropped.
//! Included with `#[path]` by the tests that start a server.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct Process {
    pub child: Child,
    /// `127.0.0.1:PORT`, from the server's first output line (`{"listening":"http://…"}`).
    pub addr: String,
    pub dir: PathBuf,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `rvlab serve --listen 127.0.0.1:0 --dist /nonexistent --kubeconfig DIR/kubeconfig`
/// plus `extra`, where each argument beginning with `DIR/` names a file in the directory.
pub fn start(tag: &str, extra: &[&str]) -> Process {
    let dir = std::env::temp_dir().join(format!("rvlab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let in_dir = |a: &str| a.strip_prefix("DIR/").map_or_else(|| a.into(), |f| dir.join(f).into_os_string());
    let mut child = Command::new(env!("CARGO_BIN_EXE_rvlab"))
        .args(["serve", "--listen", "127.0.0.1:0", "--dist", "/nonexistent", "--kubeconfig"])
        .arg(dir.join("kubeconfig"))
        .args(extra.iter().map(|a| in_dir(a)))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start rvlab serve");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&first).unwrap_or_else(|e| panic!("first line {first:?}: {e}"));
    let addr = v["listening"].as_str().unwrap_or_default().trim_start_matches("http://").to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    Process { child, addr, dir }
}
