//! The live view end to end: `rvlab serve --dist dist` serves the built playground; opened in
//! headless Chromium (through chromedriver's WebDriver protocol), the page follows the server's
//! log while kubectl creates a configmap and watches it, and a raw watch meets ERROR 410 — the
//! console, the watch cards and the timeline show them as they happen.
//!
//! Needs `dist/` (`./dev.sh build`; `./dev.sh test` builds it first), `/usr/bin/chromium`,
//! `/usr/bin/chromedriver` and kubectl, so it is `#[ignore]`d for a bare `cargo test`;
//! `./dev.sh test` runs it (`--include-ignored`), where a missing piece fails it.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const RVLAB: &str = env!("CARGO_BIN_EXE_rvlab");

struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let resp = read_response(&mut s);
    let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let head = String::from_utf8_lossy(&resp[..split]).to_string();
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut body = resp.get(split + 4..).unwrap_or_default().to_vec();
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    (code, body)
}

/// Reads one response: up to `Content-Length` when the server says it (chromedriver keeps the
/// connection open), else to the end of the stream.
fn read_response(s: &mut TcpStream) -> Vec<u8> {
    let mut resp = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = match s.read(&mut buf) {
            Ok(0) | Err(_) => return resp,
            Ok(n) => n,
        };
        resp.extend_from_slice(&buf[..n]);
        if let Some(split) = resp.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&resp[..split]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if let Some(len) = len
                && resp.len() >= split + 4 + len
            {
                return resp;
            }
        }
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = b.windows(2).position(|w| w == b"\r\n") {
        let n = usize::from_str_radix(std::str::from_utf8(&b[..i]).unwrap_or("0").trim(), 16).unwrap_or(0);
        if n == 0 || b.len() < i + 2 + n {
            break;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + n]);
        b = &b[i + 2 + n + 2..];
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A WebDriver session in headless Chromium.
struct Browser {
    driver: String,
    session: String,
    _chromedriver: Kill,
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let child = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("/usr/bin/chromedriver is needed (apt-get install chromium-driver)");
        let driver = format!("127.0.0.1:{port}");
        let t = Instant::now();
        while TcpStream::connect(&driver).is_err() {
            assert!(t.elapsed() < Duration::from_secs(30), "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]
        }}}});
        let (code, body) = http(&driver, "POST", "/session", Some(&caps));
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(code, 200, "{v}");
        let session = v["value"]["sessionId"].as_str().unwrap().to_string();
        Browser { driver, session, _chromedriver: Kill(child) }
    }

    fn goto(&self, url: &str) {
        let (code, body) =
            http(&self.driver, "POST", &format!("/session/{}/url", self.session), Some(&json!({"url": url})));
        assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    }

    fn eval(&self, script: &str) -> Value {
        let (code, body) = http(
            &self.driver,
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            Some(&json!({"script": script, "args": []})),
        );
        let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_eq!(code, 200, "{v}");
        v["value"].clone()
    }

    fn wait_for(&self, what: &str, script: &str) -> Value {
        let t = Instant::now();
        loop {
            let v = self.eval(script);
            if !v.is_null() && v != Value::Bool(false) {
                eprintln!("the page showed {what} after {:?}", t.elapsed());
                return v;
            }
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "the page never showed {what}; log: {}; watches: {}",
                self.eval("return (document.getElementById('log')||document.body).innerText"),
                self.eval("const w = document.querySelector('section.watches'); return w ? w.outerHTML.slice(0, 3000) : 'no watches panel'")
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(&self.driver, "DELETE", &format!("/session/{}", self.session), None);
    }
}

#[test]
#[ignore = "needs dist/ (./dev.sh build), chromium, chromedriver and kubectl: ./dev.sh test runs it"]
fn the_page_served_by_rvlab_serve_follows_kubectl_live() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    assert!(dist.join("index.html").is_file(), "dist/ is not built: run ./dev.sh build (./dev.sh test does)");
    let dir = std::env::temp_dir().join(format!("rvlab-serve-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("kubeconfig");
    let mut child = Command::new(RVLAB)
        .args(["serve", "--listen", "127.0.0.1:0", "--kubeconfig"])
        .arg(&kubeconfig)
        .arg("--dist")
        .arg(&dist)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let _server = Kill(child);
    // kubectl talks HTTPS with the kubeconfig as written; the browser opens the page over the
    // plain-HTTP listener beside it (no certificate to accept), which also serves the feed and
    // the control endpoint.
    let first = serde_json::from_str::<Value>(&first).unwrap();
    assert!(first["listening"].as_str().unwrap().starts_with("https://127.0.0.1:"), "{first}");
    let url = first["page"].as_str().unwrap().to_string();
    let addr = url.strip_prefix("http://").unwrap().to_string();
    let kubectl = |args: &[&str]| {
        let out = Command::new("kubectl")
            .args(args)
            .env("KUBECONFIG", &kubeconfig)
            .stdin(Stdio::null())
            .output()
            .expect("kubectl on PATH");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // Something real clients did before the page was opened comes as the backlog.
    assert_eq!(kubectl(&["create", "configmap", "before"]).trim(), "configmap/before created");

    let b = Browser::start();
    b.goto(&format!("{url}/"));
    b.wait_for(
        "the backlog",
        "const l = document.getElementById('log'); return !!l && l.innerText.includes('configmaps?fieldManager=kubectl-create')",
    );

    // kubectl watches; a write arrives; the page shows the watch with its frames.
    let mut w = Command::new("kubectl")
        .args(["get", "configmaps", "-w", "--output-watch-events"])
        .env("KUBECONFIG", &kubeconfig)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    b.wait_for("kubectl's watch", "return document.querySelectorAll('li.watch').length >= 1");
    assert_eq!(kubectl(&["create", "configmap", "after"]).trim(), "configmap/after created");
    b.wait_for(
        "the ADDED frame of the write",
        "const c = document.querySelector('li.watch[data-watch=\"w1\"]'); return !!c && c.innerText.includes('after')",
    );
    let _ = w.kill();
    let _ = w.wait();

    // A watch from a compacted revision with the watch cache off: ERROR 410, drawn on the page.
    let script = "set watch-cache off\nGET /api/v1/namespaces/default/configmaps";
    let (_, body) = raw_post(&addr, "/rvlab/v1/script", script);
    let rv = String::from_utf8_lossy(&body)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["body"]["metadata"]["resourceVersion"].as_str().map(str::to_string))
        .unwrap();
    raw_post(&addr, "/rvlab/v1/script", &format!("compact {rv}"));
    let frames =
        kubectl(&["get", "--raw", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1"]);
    assert!(frames.contains("\"code\":410"), "{frames}");
    b.wait_for(
        "the 410",
        "return [...document.querySelectorAll('li.watch')].some(c => c.innerText.includes('410'))",
    );
    // The timeline draws the watches it knows: a label inside the drawing, with a real size.
    let inside = b.eval(
        "const s = document.getElementById('timeline-svg'); const l = s && s.querySelector('.watch-label');
         if (!l) return 'no watch label';
         const a = s.getBoundingClientRect(), r = l.getBoundingClientRect();
         return r.width > 0 && r.left >= a.left && r.right <= a.right + 1 && r.top >= a.top && r.bottom <= a.bottom + 1;",
    );
    assert_eq!(inside, Value::Bool(true));
    let _ = std::fs::remove_dir_all(&dir);
}

fn raw_post(addr: &str, path: &str, text: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{text}",
        text.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = Vec::new();
    let _ = s.read_to_end(&mut resp);
    let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let code = String::from_utf8_lossy(&resp[..split])
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, resp.get(split + 4..).unwrap_or_default().to_vec())
}
