//! `rvlab serve` as a child process for a test: on a free loopback port, with its files in a
//! temporary directory; the process is killed and the directory removed when dropped.
//! Included with `#[path]` by the tests that start a server.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct Process {
    pub child: Child,
    /// `127.0.0.1:PORT`, from the server's first output line (`{"listening":"http://…"}`, or
    /// `https://…` when serving HTTPS).
    #[allow(dead_code)]
    pub addr: String,
    /// The page's listener, `127.0.0.1:PORT` (`"page"` in the first line): beside HTTPS, the
    /// plain-HTTP listener for the playground; with `--http`, the same as `addr`.
    #[allow(dead_code)]
    pub page: String,
    pub dir: PathBuf,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `rvlab serve --http --listen 127.0.0.1:0 --dist /nonexistent --kubeconfig
/// DIR/kubeconfig` plus `extra`, where each argument beginning with `DIR/` names a file in the
/// directory.
#[allow(dead_code)]
pub fn start(tag: &str, extra: &[&str]) -> Process {
    let mut args = vec!["--http"];
    args.extend_from_slice(extra);
    spawn(tag, &args, "http://")
}

/// As [`start`], serving HTTPS (the default: no `--http`).
#[allow(dead_code)]
pub fn start_https(tag: &str, extra: &[&str]) -> Process {
    spawn(tag, extra, "https://")
}

fn spawn(tag: &str, extra: &[&str], scheme: &str) -> Process {
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
    let listening = v["listening"].as_str().unwrap_or_default();
    let addr = listening.strip_prefix(scheme).unwrap_or_else(|| panic!("{first}: not {scheme}")).to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let page = v["page"].as_str().unwrap_or_default().strip_prefix("http://").unwrap_or_default().to_string();
    assert!(page.starts_with("127.0.0.1:"), "{first}");
    Process { child, addr, page, dir }
}

/// The head of an HTTP response read from `r`, up to its blank line.
#[allow(dead_code)]
pub fn read_head(r: &mut impl BufRead) -> String {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            return head;
        }
        head.push_str(&line);
    }
}

/// One chunk of a chunked body; `None` at its end.
#[allow(dead_code)]
pub fn read_chunk(r: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut size = String::new();
    if r.read_line(&mut size).ok()? == 0 {
        return None;
    }
    let n = usize::from_str_radix(size.trim(), 16).ok()?;
    if n == 0 {
        return None;
    }
    let mut data = vec![0; n + 2];
    r.read_exact(&mut data).ok()?;
    data.truncate(n);
    Some(data)
}
