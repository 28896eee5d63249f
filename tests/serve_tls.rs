//! `rvlab serve` over HTTPS, its default: kubectl and the official Python client connect with
//! the kubeconfig exactly as the server wrote it (`server: https://…`,
//! `certificate-authority-data`), the page is served over plain HTTP beside it, and hostile TLS
//! clients — bytes that are not a ClientHello, plain HTTP on the TLS port, a handshake that
//! stalls, a client that never reads — cost only their own connection while a witness watch on
//! another TLS connection keeps receiving events. The server's answers are Go's (`net/http`
//! `conn.serve`, `crypto/tls` `readRecordOrCCS`, go1.24; kube-apiserver `secure_serving.go`,
//! v1.32.0: `ReadHeaderTimeout` 32 s, which is also the TLS handshake timeout).
//! Without kubectl or a client library, a plain `cargo test` skips those tests with a message;
//! under `./dev.sh test` or CI they fail (`tests/support/external.rs`).
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use base64::Engine as _;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";

#[path = "support/serve.rs"]
mod serve;

#[path = "support/external.rs"]
mod external;

/// What net/http writes on the bare connection when plain HTTP reaches its TLS port.
const HTTP_TO_HTTPS: &str =
    "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n";

struct Server {
    process: serve::Process,
    tls: Arc<rustls::ClientConfig>,
    seq: u32,
}

type Tls = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

impl Server {
    fn start(name: &str) -> Server {
        let process = serve::start_https(&format!("tls-{name}"), &["--record", "DIR/record.rv"]);
        let tls = client_config(&ca_of(&process.dir.join("kubeconfig")));
        Server { process, tls, seq: 0 }
    }

    fn kubeconfig(&self) -> PathBuf {
        self.process.dir.join("kubeconfig")
    }

    /// A TLS connection to the API that trusts only the kubeconfig's CA.
    fn connect(&self, name: &str) -> Result<Tls, rustls::Error> {
        let tcp = TcpStream::connect(&self.process.addr).unwrap();
        tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let name = ServerName::try_from(name.to_string()).unwrap();
        let conn = rustls::ClientConnection::new(self.tls.clone(), name)?;
        let mut s = rustls::StreamOwned::new(conn, tcp);
        // The handshake, before anything is sent.
        while s.conn.is_handshaking() {
            s.conn.complete_io(&mut s.sock).map_err(|e| rustls::Error::General(e.to_string()))?;
        }
        Ok(s)
    }

    /// One request over HTTPS (Connection: close): status and body.
    fn https(&self, method: &str, target: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = self.connect("127.0.0.1").unwrap();
        s.write_all(&request(method, target, body)).unwrap();
        let mut resp = Vec::new();
        let _ = s.read_to_end(&mut resp);
        split(&resp)
    }

    /// One request to the page listener (plain HTTP): status and body.
    fn page(&self, method: &str, target: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(&self.process.page).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(&request(method, target, body)).unwrap();
        let mut resp = Vec::new();
        let _ = s.read_to_end(&mut resp);
        split(&resp)
    }

    fn recorded(&self) -> Vec<String> {
        let (_, body) = self.page("GET", "/rvlab/v1/script", b"");
        String::from_utf8(body).unwrap().lines().map(str::to_string).collect()
    }

    fn kubectl(&self, args: &[&str]) -> (String, String) {
        let out = Command::new(external::kubectl().unwrap_or_else(|| PathBuf::from("kubectl")))
            .args(args)
            .env("KUBECONFIG", self.kubeconfig())
            .env_remove("KUBERNETES_SERVICE_HOST")
            // kubectl asks on its terminal for a user and password when the kubeconfig has no
            // credentials for an HTTPS server: a test must not wait for that.
            .stdin(Stdio::null())
            .output()
            .expect("kubectl on PATH (see site/src/reference/serve.md, 'Tested with real clients')");
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// The record replayed by `rvlab run` prints exactly what the server answered.
    fn check_replay(&self) {
        let (_, live) = self.page("GET", "/rvlab/v1/script?output=jsonl", b"");
        let record = self.process.dir.join("record.rv");
        let out = Command::new(env!("CARGO_BIN_EXE_rvlab")).arg("run").arg(&record).output().unwrap();
        assert!(out.status.success(), "rvlab run: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), String::from_utf8(live).unwrap());
    }

    /// Writes a configmap over HTTPS and waits for `witness` to receive it.
    fn witness_receives(&mut self, witness: &mpsc::Receiver<String>) {
        self.seq += 1;
        let name = format!("witness-{}", self.seq);
        let body = json!({"metadata": {"name": name}}).to_string();
        let (code, resp) = self.https("POST", CM, body.as_bytes());
        assert_eq!(code, 201, "{}", String::from_utf8_lossy(&resp));
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match witness.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(n) if n == name => break,
                Ok(_) => continue,
                Err(e) => panic!("the witness watch did not receive {name}: {e}"),
            }
        }
        assert!(self.process.child.try_wait().unwrap().is_none(), "the server exited");
    }

    /// A watch over its own TLS connection, read by a thread: the names it receives.
    fn witness(&self) -> mpsc::Receiver<String> {
        let mut s = self.connect("127.0.0.1").unwrap();
        s.sock.set_read_timeout(None).unwrap();
        let req = format!("GET {CM}?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(s);
            let mut head = String::new();
            while r.read_line(&mut head).unwrap_or(0) > 2 && !head.ends_with("\r\n\r\n") {}
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            let mut pending = Vec::new();
            loop {
                let mut size = String::new();
                if r.read_line(&mut size).unwrap_or(0) == 0 {
                    return;
                }
                let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                if n == 0 {
                    return;
                }
                let mut chunk = vec![0; n + 2];
                if r.read_exact(&mut chunk).is_err() {
                    return;
                }
                pending.extend_from_slice(&chunk[..n]);
                while let Some(i) = pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=i).collect();
                    let v: Value = serde_json::from_slice(&line).unwrap();
                    let name = v["object"]["metadata"]["name"].as_str().unwrap_or("").to_string();
                    if tx.send(name).is_err() {
                        return;
                    }
                }
            }
        });
        rx
    }
}

fn request(method: &str, target: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

fn split(resp: &[u8]) -> (u16, Vec<u8>) {
    let at = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let code = String::from_utf8_lossy(&resp[..at]).split_whitespace().nth(1).and_then(|c| c.parse().ok());
    (code.unwrap_or(0), resp.get(at + 4..).unwrap_or_default().to_vec())
}

/// The CA the kubeconfig carries (`certificate-authority-data`, base64 of PEM).
fn ca_of(kubeconfig: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(kubeconfig).unwrap();
    let data = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("certificate-authority-data: "))
        .unwrap_or_else(|| panic!("no certificate-authority-data in\n{text}"));
    base64::engine::general_purpose::STANDARD.decode(data).unwrap()
}

fn client_config(ca_pem: &[u8]) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from_pem_slice(ca_pem).unwrap()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut c = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    c.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Arc::new(c)
}

/// The first flight of a real TLS client (its ClientHello records).
fn client_hello(cfg: &Arc<rustls::ClientConfig>) -> Vec<u8> {
    let mut c =
        rustls::ClientConnection::new(cfg.clone(), ServerName::try_from("127.0.0.1").unwrap()).unwrap();
    let mut out = Vec::new();
    while c.wants_write() {
        c.write_tls(&mut out).unwrap();
    }
    out
}

/// Sends `bytes` on a new TCP connection to `addr` and reads until it is closed (or `wait`
/// passes): what came back and whether it was closed.
fn raw(addr: &str, bytes: &[u8], wait: Duration) -> (Vec<u8>, bool) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (out, true),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return (out, true),
            Err(_) => return (out, false),
        }
    }
}

#[test]
fn the_kubeconfig_names_https_and_its_ca_and_the_first_line_both_urls() {
    let s = Server::start("kubeconfig");
    let text = std::fs::read_to_string(s.kubeconfig()).unwrap();
    assert!(text.contains(&format!("    server: https://{}\n", s.process.addr)), "{text}");
    assert!(text.contains("    certificate-authority-data: "), "{text}");
    assert!(text.contains("  user:\n    token: rvlab\n"), "{text}");
    assert_ne!(s.process.addr, s.process.page, "the page has its own listener");
    // The API over HTTPS, for the names the certificate carries, HTTP/1.1 by ALPN.
    for name in ["127.0.0.1", "localhost", "::1"] {
        let c = s.connect(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(c.conn.alpn_protocol(), Some(&b"http/1.1"[..]));
    }
    let wrong = s.connect("example.com").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(wrong.contains("certificate"), "a name the certificate does not carry is refused: {wrong:?}");
    let (code, body) = s.https("GET", "/version", b"");
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    // Another CA is not trusted: the certificate is the one the kubeconfig names.
    let other = serve::start_https("tls-other", &[]);
    let foreign =
        Server { tls: client_config(&ca_of(&other.dir.join("kubeconfig"))), process: other, seq: 0 };
    let tcp = TcpStream::connect(&s.process.addr).unwrap();
    let conn = rustls::ClientConnection::new(foreign.tls.clone(), ServerName::try_from("127.0.0.1").unwrap())
        .unwrap();
    let mut st = rustls::StreamOwned::new(conn, tcp);
    assert!(st.write_all(b"GET /version HTTP/1.1\r\n\r\n").and_then(|_| st.flush()).is_err());

    // The page listener: the playground's paths over plain HTTP, not the Kubernetes API.
    let (code, body) = s.page("GET", "/api/v1/namespaces/default/configmaps", b"");
    assert_eq!(code, 404);
    let status: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status["reason"], "NotFound");
    let (code, _) = s.page("GET", "/version", b"");
    assert_eq!(code, 404);
    let (code, body) = s.page("GET", "/rvlab/v1/script", b"");
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&body).starts_with("set clock.epoch "));
}

#[test]
fn kubectl_connects_with_the_kubeconfig_as_written() {
    let Some(_) = external::kubectl() else { return };
    let s = Server::start("kubectl");
    for name in ["a", "b", "c"] {
        let (out, err) = s.kubectl(&["create", "configmap", name, "--from-literal=k=v"]);
        assert_eq!(out.trim(), format!("configmap/{name} created"), "{err}");
    }
    let (out, err) = s.kubectl(&["get", "configmaps", "--chunk-size=1", "-o", "name"]);
    assert_eq!(out, "configmap/a\nconfigmap/b\nconfigmap/c\n", "{err}");
    let gets: Vec<String> = s.recorded().into_iter().filter(|l| l.starts_with("GET /api/v1/")).collect();
    assert_eq!(gets[0], "GET /api/v1/namespaces/default/configmaps?limit=1", "{gets:#?}");
    assert_eq!(gets.len(), 3, "three pages, following the continue tokens: {gets:#?}");

    // A watch over HTTPS across a write, then a delete.
    let mut w = Command::new("kubectl")
        .args(["get", "configmaps", "-w", "--output-watch-events"])
        .env("KUBECONFIG", s.kubeconfig())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let out = w.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    // EVENT NAME DATA AGE, then the listed objects as ADDED.
    let words = |l: &str| l.split_whitespace().take(2).map(str::to_string).collect::<Vec<_>>();
    let mut seen = Vec::new();
    while seen.len() < 4 {
        seen.push(words(&rx.recv_timeout(Duration::from_secs(20)).expect("kubectl's watch lists first")));
    }
    assert_eq!(seen, [["EVENT", "NAME"], ["ADDED", "a"], ["ADDED", "b"], ["ADDED", "c"]]);
    let (out, err) = s.kubectl(&["delete", "configmap", "b"]);
    assert_eq!(out.trim(), "configmap \"b\" deleted", "{err}");
    let line = rx.recv_timeout(Duration::from_secs(20)).expect("the DELETED event");
    assert_eq!(words(&line), ["DELETED", "b"]);
    let _ = w.kill();
    let _ = w.wait();
    // The server sees the watch's connection go (`cancel w1`) before the record is compared.
    let t = Instant::now();
    while !s.recorded().iter().any(|l| l.starts_with("cancel ")) {
        assert!(t.elapsed() < Duration::from_secs(20), "no cancel line: {:#?}", s.recorded());
        std::thread::sleep(Duration::from_millis(50));
    }
    s.check_replay();
}

#[test]
fn the_python_client_connects_with_the_kubeconfig_as_written() {
    let Some(py) = external::python() else { return };
    let s = Server::start("python");
    // The same script as tests/serve_clients.rs, over HTTPS; its control requests go to the
    // page listener, which serves /rvlab/v1/script over plain HTTP.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve_clients/python_client.py");
    let out = Command::new(&py)
        .arg(script)
        .arg(s.kubeconfig())
        .arg(format!("http://{}", s.process.page))
        .output()
        .unwrap_or_else(|e| panic!("{}: {e} (./dev.sh test makes it, or set RVLAB_PYTHON)", py.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let seen: Value = serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap();
    assert_eq!(seen["pages"], json!([["p1"], ["p2"], ["p3"]]));
    assert_eq!(seen["create_again"], json!([409, "AlreadyExists"]));
    assert_eq!(seen["stale_replace"], json!([409, "Conflict"]));
    assert_eq!(seen["watch_410"], json!([410, []]));
    assert_eq!(seen["watch_after_write"], json!([["ADDED", "p5"]]));
    s.check_replay();
}

#[test]
fn bytes_that_are_not_a_client_hello_cost_only_their_connection() {
    let mut s = Server::start("garbage");
    let witness = s.witness();
    s.witness_receives(&witness);
    // Plain HTTP on the TLS port: Go's answer on the bare connection, then closed.
    for http in
        [&b"GET /version HTTP/1.1\r\nHost: x\r\n\r\n"[..], b"POST /api/v1/namespaces HTTP/1.1\r\n\r\n"]
    {
        let (resp, closed) = raw(&s.process.addr, http, Duration::from_secs(20));
        assert_eq!(String::from_utf8_lossy(&resp), HTTP_TO_HTTPS);
        assert!(closed);
        s.witness_receives(&witness);
    }
    // Other bytes that are no TLS record: closed without a word (crypto/tls RecordHeaderError).
    for garbage in [&b"HELLO\r\n\r\n"[..], b"DELETE / HTTP/1.1\r\n\r\n", &[0x17, 3, 3, 0, 1, 0], &[0u8; 4096]]
    {
        let (resp, closed) = raw(&s.process.addr, garbage, Duration::from_secs(20));
        assert_eq!(resp, b"", "{garbage:?}");
        assert!(closed, "{garbage:?}");
        s.witness_receives(&witness);
    }
    // A handshake record holding a ClientHello whose body is garbage: a fatal decode_error
    // alert (level 2, description 50), then closed.
    let mut bad_hello = vec![22, 3, 1, 0, 64, 1, 0, 0, 60];
    bad_hello.extend_from_slice(&[0xAB; 60]);
    let (resp, closed) = raw(&s.process.addr, &bad_hello, Duration::from_secs(20));
    assert!(closed);
    assert_eq!(resp, [21, 3, 3, 0, 2, 2, 50], "an alert record");
    s.witness_receives(&witness);
    // A real ClientHello, then garbage instead of the rest of the handshake.
    let mut hello = client_hello(&s.tls);
    hello.extend_from_slice(&[0x16; 300]);
    let (_, closed) = raw(&s.process.addr, &hello, Duration::from_secs(20));
    assert!(closed);
    s.witness_receives(&witness);
    // The server still serves new TLS clients.
    let (code, _) = s.https("GET", "/version", b"");
    assert_eq!(code, 200);
}

#[test]
fn a_handshake_that_stalls_is_closed_after_the_handshake_timeout() {
    let mut s = Server::start("stall");
    let witness = s.witness();
    s.witness_receives(&witness);
    // Connect and send nothing; send half a ClientHello; send five bytes of a record header.
    let hello = client_hello(&s.tls);
    let stalls: Vec<Vec<u8>> = vec![Vec::new(), hello[..hello.len() / 2].to_vec(), hello[..5].to_vec()];
    let started = Instant::now();
    let stalled: Vec<std::thread::JoinHandle<(Vec<u8>, bool)>> = stalls
        .into_iter()
        .map(|bytes| {
            let addr = s.process.addr.clone();
            std::thread::spawn(move || raw(&addr, &bytes, Duration::from_secs(60)))
        })
        .collect();
    // A whole ClientHello, and then the client reads nothing (the server's flight waits in the
    // socket): the handshake cannot finish, the same timeout ends it.
    let deaf = {
        let addr = s.process.addr.clone();
        std::thread::spawn(move || {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.write_all(&hello).unwrap();
            std::thread::sleep(Duration::from_secs(36));
            c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            let mut out = Vec::new();
            match c.read_to_end(&mut out) {
                Ok(_) => true,
                Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
            }
        })
    };
    // Held while everyone else is served.
    for _ in 0..3 {
        s.witness_receives(&witness);
        let (code, _) = s.https("GET", CM, b"");
        assert_eq!(code, 200);
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(stalled.iter().all(|t| !t.is_finished()), "a stalled handshake is not closed at once");
    // net/http: the handshake has ReadHeaderTimeout (32 s) to finish; then the connection is
    // closed without an answer.
    for t in stalled {
        let (resp, closed) = t.join().unwrap();
        assert!(closed, "closed by the server, not by the client's 60 s wait");
        assert_eq!(resp, b"");
    }
    assert!(started.elapsed() >= Duration::from_secs(30), "closed after {:?}", started.elapsed());
    assert!(deaf.join().unwrap(), "the client that never read was closed by the server");
    s.witness_receives(&witness);
}

#[test]
fn a_tls_client_that_never_reads_costs_only_its_connection() {
    let mut s = Server::start("noread");
    let witness = s.witness();
    s.witness_receives(&witness);
    // A watch over TLS that reads nothing at all, not even its response head, on a small
    // receive buffer; large writes fill its socket and the server's queue for it.
    let rt = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let tcp = rt.block_on(sock.connect(s.process.addr.parse().unwrap())).unwrap().into_std().unwrap();
    tcp.set_nonblocking(false).unwrap();
    let conn =
        rustls::ClientConnection::new(s.tls.clone(), ServerName::try_from("127.0.0.1").unwrap()).unwrap();
    let mut sleeper = rustls::StreamOwned::new(conn, tcp);
    let req = format!("GET {CM}?watch=true&labelSelector=!never HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    sleeper.write_all(req.as_bytes()).unwrap();
    sleeper.flush().unwrap();
    let data = "x".repeat(16 * 1024);
    for i in 0..300 {
        let body = json!({"metadata": {"name": format!("big-{i}")}, "data": {"d": data}}).to_string();
        let (code, _) = s.https("POST", CM, body.as_bytes());
        assert_eq!(code, 201);
        if i % 100 == 0 {
            s.witness_receives(&witness);
        }
    }
    s.witness_receives(&witness);
    // The server noticed: it stopped reading that watch for its client (`pause wN`), and
    // served everyone else meanwhile.
    let (_, outs) = s.page("GET", "/rvlab/v1/script?output=jsonl", b"");
    let outs: Vec<Value> =
        String::from_utf8(outs).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let log = s.recorded();
    let at = log.iter().position(|l| l.contains("labelSelector=!never")).expect("the watch is recorded");
    let out = outs.iter().find(|o| o["line"] == at + 1).expect("the watch's output is kept");
    let id = out["watch"].as_str().unwrap_or_else(|| panic!("{out}")).to_string();
    assert!(log.contains(&format!("pause {id}")), "the watch of the client that never reads is paused");
    // Other clients are answered meanwhile (kubectl where it is installed).
    let (code, body) = s.https("GET", &format!("{CM}/big-299"), b"");
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    if external::kubectl().is_some() {
        let (out, err) = s.kubectl(&["get", "configmap", "big-299", "-o", "name"]);
        assert_eq!(out.trim(), "configmap/big-299", "{err}");
    }
    drop(sleeper);
    s.witness_receives(&witness);
}

#[test]
fn client_node_s_informer_ends_equal_to_the_server() {
    let Some(dir) = external::client_node() else { return };
    let s = Server::start("client-node");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve_clients/client_node.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg(&dir)
        .arg(s.kubeconfig())
        .arg(format!("http://{}", s.process.page))
        .output()
        .expect("node on PATH");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let seen: Value = serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap();
    // The informer's cache ends equal to the server's list: names, resourceVersions, data.
    assert_eq!(seen["cache"], seen["server"], "{seen}");
    assert_eq!(seen["server"], json!([["n1", "6", "changed"], ["n4", "5", "n4"], ["n5", "8", "n5"]]));
    // Before the restart, one event per write, in order, from the list and then the watch.
    let events = seen["events"].as_array().unwrap();
    assert_eq!(
        events[..6],
        [
            json!(["add", "n1", "2"]),
            json!(["add", "n2", "3"]),
            json!(["add", "n3", "4"]),
            json!(["add", "n4", "5"]),
            json!(["update", "n1", "6"]),
            json!(["delete", "n2", "7"]),
        ],
        "{seen}"
    );
    assert!(events.contains(&json!(["add", "n5", "8"])), "{seen}");
    assert!(events.iter().any(|e| e[0] == "delete" && e[1] == "n3"), "{seen}");
    // What it sent: a list, then a watch from the list's resourceVersion; after the restart,
    // watches from the last resourceVersion it saw.
    let log = s.recorded();
    let reads: Vec<&String> =
        log.iter().filter(|l| l.starts_with("GET /api/v1/namespaces/node/configmaps")).collect();
    assert_eq!(reads[0], "GET /api/v1/namespaces/node/configmaps", "{log:#?}");
    assert_eq!(reads[1], "GET /api/v1/namespaces/node/configmaps?watch=true&resourceVersion=4", "{log:#?}");
    let restart = log.iter().position(|l| l == "restart apiserver 1").unwrap();
    assert!(
        log[restart..].iter().any(|l| l.starts_with("GET /api/v1/namespaces/node/configmaps?watch=true")),
        "{log:#?}"
    );
    let t = Instant::now();
    let cancelled = |log: Vec<String>| {
        let last_watch = log.iter().rposition(|l| l.contains("watch=true")).unwrap_or(0);
        log[last_watch..].iter().any(|l| l.starts_with("cancel "))
    };
    while !cancelled(s.recorded()) {
        assert!(t.elapsed() < Duration::from_secs(20), "the informer's watch was not cancelled");
        std::thread::sleep(Duration::from_millis(50));
    }
    s.check_replay();
}
