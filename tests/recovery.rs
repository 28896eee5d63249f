//! Real client libraries under the same five faults (issue #32 §2): the Python client
//! (`kubernetes==37.0.2`, `tests/serve_clients/python_watch.py`), `@kubernetes/client-node`
//! 1.4.0 (`tests/serve_clients/node_informer.mjs`) and kube-rs 5.0.0 (`examples/controller.rs`,
//! `--page-size 2`) keep a cache of the ConfigMaps of one
//! namespace against `rvlab serve` (HTTPS, `--record`) while the control endpoint injects a
//! dropped connection, a window moved past their resourceVersion, an apiserver restart, a
//! compaction while they page a list, and a lagging second apiserver behind a load balancer.
//! Each run must end with the library's cache equal to the server's state (names and
//! resourceVersions), and the requests it sent after the fault must have the shapes the
//! committed data (`site/src/data/recovery/`) says. The client-go column is the project's
//! reflector model under the same schedule, run by `rvlab run`.
//!
//! `RVLAB_WRITE_RECOVERY=1 cargo test --test recovery` (`./dev.sh recovery`) writes the data
//! and each run's recorded session, and the chapter
//! `site/src/concepts/client-libraries.md` rendered from them; without it, the committed chapter
//! must be exactly that rendering. A missing library or driver is a failure, not a skip.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/serve.rs"]
mod serve;

#[path = "support/external.rs"]
mod external;

#[path = "support/recovery.rs"]
mod recovery;

use recovery::{Fault, Lib, NS, Summary};

/// The runs share two cores with everything else: one at a time keeps their timing honest.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Objects at the start: with the Python driver's `--page-size 2`, a list is three pages.
const SEED: [&str; 5] = ["c1", "c2", "c3", "c4", "c5"];
const RECOVERY_TIMEOUT: Duration = Duration::from_secs(60);

/// `RVLAB_WRITE_RECOVERY=1`: the runs write their data instead of checking it;
/// `RVLAB_WRITE_RECOVERY=chapter`: the chapter is rendered from the data and written.
fn writing() -> bool {
    std::env::var_os("RVLAB_WRITE_RECOVERY").is_some_and(|v| v == "1")
}

fn writing_chapter() -> bool {
    std::env::var_os("RVLAB_WRITE_RECOVERY").is_some_and(|v| v == "chapter")
}

/// The driver's command: `<program> … KUBECONFIG NAMESPACE`.
fn driver(lib: Lib, kubeconfig: &Path) -> Command {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve_clients");
    match lib {
        Lib::Python => {
            let python = external::python().unwrap_or_else(|| PathBuf::from("python3"));
            let mut c = Command::new(python);
            c.arg(dir.join("python_watch.py")).args(["--page-size", "2"]).arg(kubeconfig).arg(NS);
            c
        }
        Lib::ClientNode => {
            let modules = external::client_node().unwrap_or_default();
            let mut c = Command::new("node");
            c.arg(dir.join("node_informer.mjs")).arg(modules).arg(kubeconfig).arg(NS);
            c
        }
        Lib::KubeRs => {
            let mut c = Command::new(external::kube_controller());
            c.arg("--kubeconfig").arg(kubeconfig).args(["--namespace", NS, "--page-size", "2"]);
            c
        }
        Lib::ClientGo => unreachable!("client-go is the model, run by `rvlab run`"),
    }
}

/// One HTTP/1.1 request to the page listener (plain HTTP): status and body.
fn page(addr: &str, method: &str, target: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect to the page listener");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let mut req = format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    s.write_all(&req).expect("send");
    let mut resp = Vec::new();
    let _ = s.read_to_end(&mut resp);
    let at = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let head = String::from_utf8_lossy(&resp[..at]).to_ascii_lowercase();
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut body = resp.get(at + 4..).unwrap_or_default().to_vec();
    if head.contains("transfer-encoding: chunked") {
        let mut r = BufReader::new(&body[..]);
        let mut out = Vec::new();
        while let Some(chunk) = serve::read_chunk(&mut r) {
            out.extend(chunk);
        }
        body = out;
    }
    (code, body)
}

struct Run {
    lib: Lib,
    fault: Fault,
    server: serve::Process,
    driver: Option<Child>,
    lines: Option<mpsc::Receiver<String>>,
    /// Every line the driver printed, in order.
    seen: Vec<String>,
    /// The driver's last `cache`.
    cache: Option<Value>,
    /// What the server holds, from the answers to the writes: name → resourceVersion.
    expected: BTreeMap<String, String>,
}

impl Run {
    fn start(lib: Lib, fault: Fault) -> Run {
        let server = serve::start_https(
            &format!("recovery-{}-{}", lib.id(), fault.id()),
            &["--record", "DIR/record.rv"],
        );
        let mut run = Run {
            lib,
            fault,
            server,
            driver: None,
            lines: None,
            seen: vec![],
            cache: None,
            expected: BTreeMap::new(),
        };
        for name in SEED {
            run.create(name);
        }
        run
    }

    /// Script lines through the control endpoint; their output objects.
    fn control(&self, text: &str) -> Vec<Value> {
        let (code, body) = page(&self.server.page, "POST", "/rvlab/v1/script", text.as_bytes());
        let body = String::from_utf8_lossy(&body).into_owned();
        assert_eq!(code, 200, "{text}: {body}");
        body.lines()
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or(json!({"raw": l})))
            .collect()
    }

    fn write(&mut self, line: &str, name: &str) {
        let out = self.control(line);
        let o = out.last().cloned().unwrap_or_default();
        let code = o["code"].as_u64().unwrap_or(0);
        assert!((200..300).contains(&code), "{line}: {o}");
        if line.starts_with("DELETE ") {
            self.expected.remove(name);
        } else {
            let rv = o["body"]["metadata"]["resourceVersion"].as_str().unwrap_or_default().to_string();
            self.expected.insert(name.to_string(), rv);
        }
    }

    fn create(&mut self, name: &str) {
        let line = format!(
            r#"POST /api/v1/namespaces/{NS}/configmaps {{"metadata":{{"name":"{name}"}},"data":{{"k":"{name}"}}}}"#
        );
        self.write(&line, name);
    }

    fn update(&mut self, name: &str) {
        let line = format!(r#"PATCH /api/v1/namespaces/{NS}/configmaps/{name} {{"data":{{"k":"changed"}}}}"#);
        self.write(&line, name);
    }

    fn delete(&mut self, name: &str) {
        self.write(&format!("DELETE /api/v1/namespaces/{NS}/configmaps/{name}"), name);
    }

    /// The three writes after every fault: a create, an update, a delete.
    fn writes_after(&mut self) {
        self.create("x2");
        self.update("c1");
        self.delete("c2");
    }

    fn record(&self) -> Vec<String> {
        let (_, body) = page(&self.server.page, "GET", "/rvlab/v1/script", b"");
        String::from_utf8_lossy(&body).lines().map(str::to_string).collect()
    }

    fn outputs(&self) -> Vec<Value> {
        let (_, body) = page(&self.server.page, "GET", "/rvlab/v1/script?output=jsonl", b"");
        String::from_utf8_lossy(&body).lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }

    fn spawn_driver(&mut self) {
        let stderr = std::fs::File::create(self.server.dir.join("driver.stderr")).expect("stderr file");
        let mut child = driver(self.lib, &self.server.dir.join("kubeconfig"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| panic!("start the {} driver: {e}", self.lib.id()));
        let out = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.driver = Some(child);
        self.lines = Some(rx);
    }

    fn expected_cache(&self) -> Value {
        json!(self.expected.iter().map(|(n, rv)| json!([n, rv])).collect::<Vec<_>>())
    }

    /// Waits until the driver's cache equals the server's state; fails with what it printed,
    /// its stderr and the recorded script.
    fn wait_equal(&mut self, what: &str) -> Duration {
        let t = Instant::now();
        let want = self.expected_cache();
        loop {
            if self.cache.as_ref() == Some(&want) {
                return t.elapsed();
            }
            let left = RECOVERY_TIMEOUT.checked_sub(t.elapsed()).unwrap_or_default();
            let got = self.lines.as_ref().map(|rx| rx.recv_timeout(left.min(Duration::from_millis(500))));
            match got {
                Some(Ok(line)) => {
                    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                        self.fail(&format!("the driver printed {line:?}, not JSON: {e}"))
                    });
                    if let Some(c) = v.get("cache") {
                        self.cache = Some(c.clone());
                    } else if v.get("error").and_then(Value::as_str).is_none()
                        && !(self.lib == Lib::KubeRs && v.get("reconciled").is_some())
                    {
                        self.fail(&format!("the driver printed {line}: neither cache nor error"));
                    }
                    self.seen.push(line);
                }
                Some(Err(mpsc::RecvTimeoutError::Timeout)) if !left.is_zero() => {}
                _ => self.fail(&format!("{what}: the cache is not {want} after {:?}", t.elapsed())),
            }
        }
    }

    fn fail(&self, why: &str) -> ! {
        let stderr = std::fs::read_to_string(self.server.dir.join("driver.stderr")).unwrap_or_default();
        panic!(
            "{} under {}: {why}\n--- driver stdout:\n{}\n--- driver stderr:\n{stderr}\n--- recorded script:\n{}",
            self.lib.id(),
            self.fault.id(),
            self.seen.join("\n"),
            self.record().join("\n")
        )
    }

    /// The watch the driver holds now: the last watch on the namespace's configmaps that the
    /// server answered with a stream.
    fn current_watch(&self) -> String {
        let t = Instant::now();
        loop {
            let record = self.record();
            let found = self.outputs().iter().rev().find_map(|o| {
                let id = o["watch"].as_str()?;
                let n = o["line"].as_u64()? as usize;
                let text = record.get(n - 1)?;
                (text.starts_with(&format!("GET {}?", recovery::collection())) && text.contains("watch="))
                    .then(|| id.to_string())
            });
            let cancelled = |id: &str| record.iter().any(|l| l == &format!("cancel {id}"));
            match found {
                Some(id) if !cancelled(&id) => return id,
                _ if t.elapsed() > Duration::from_secs(20) => self.fail("no open watch to drop"),
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Waits (at most 20 s: a library that lists no more goes on) for the first page of a list
    /// sent after record line `from`.
    fn wait_first_page(&self, from: usize) {
        let t = Instant::now();
        let coll = recovery::collection();
        while t.elapsed() < Duration::from_secs(20) {
            let found = self.record().iter().skip(from).any(|l| {
                l.strip_prefix("GET ").is_some_and(|target| {
                    target.starts_with(&coll) && !target.contains("watch=") && !target.contains("continue=")
                })
            });
            if found {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The server's state read from etcd (an `etcd get`, not an API request).
    fn etcd_state(&self) -> Value {
        let out = self.control(&format!("etcd get /registry/configmaps/{NS}/ --prefix"));
        let kvs = out.last().map(|o| o["kvs"].clone()).unwrap_or_default();
        let mut pairs: Vec<(String, String)> = kvs
            .as_array()
            .into_iter()
            .flatten()
            .map(|kv| {
                let key = kv["key"].as_str().unwrap_or_default();
                let name = key.rsplit('/').next().unwrap_or_default().to_string();
                (name, kv["mod_revision"].to_string())
            })
            .collect();
        pairs.sort();
        json!(pairs.into_iter().map(|(n, rv)| json!([n, rv])).collect::<Vec<_>>())
    }

    /// Closes the driver's stdin: it must exit 0.
    fn finish(&mut self) {
        let mut child = self.driver.take().expect("driver");
        drop(child.stdin.take());
        let t = Instant::now();
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    if !status.success() {
                        self.fail(&format!("the driver exited {status} at the end of its stdin"));
                    }
                    return;
                }
                _ if t.elapsed() > Duration::from_secs(10) => {
                    let _ = child.kill();
                    self.fail("the driver did not exit at the end of its stdin");
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if let Some(mut c) = self.driver.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// One library under one fault: returns the summary after the fault and the recovery time.
fn run_library(lib: Lib, fault: Fault) {
    // Without the Python client or client-node a plain `cargo test` skips (a failure under
    // `./dev.sh test` and CI: tests/support/external.rs).
    let present = match lib {
        Lib::Python => external::python().is_some(),
        Lib::ClientNode => external::client_node().is_some(),
        Lib::KubeRs | Lib::ClientGo => true,
    };
    if !present {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut r = Run::start(lib, fault);
    match fault {
        Fault::Expired => {
            r.control("set cache.capacity 2");
        }
        Fault::CompactWhilePaging => {
            r.control("set watch-cache off\nnetwork continue-delay 2s");
        }
        Fault::LaggingApiserver => {
            r.control("set apiservers 2");
        }
        Fault::Drop | Fault::Restart => {}
    }
    r.spawn_driver();
    r.wait_equal("first cache");
    r.create("x1");
    r.wait_equal("the create before the fault");
    let from = r.record().len();
    let t = Instant::now();
    match fault {
        Fault::Drop => {
            let w = r.current_watch();
            r.control(&format!("drop {w}"));
            r.writes_after();
        }
        Fault::Expired => {
            let w = r.current_watch();
            r.control(&format!("network watch-delay 3s\ndrop {w}"));
            r.writes_after();
            r.create("x3");
            std::thread::sleep(Duration::from_millis(3500));
            r.control("network watch-delay 0s");
        }
        Fault::Restart => {
            r.control("restart apiserver 1");
            r.writes_after();
        }
        Fault::CompactWhilePaging => {
            let w = r.current_watch();
            r.control(&format!("network watch-delay 2s\ndrop {w}"));
            // Two writes, then a compaction past the revision its re-watch starts from.
            r.create("x2");
            r.create("x3");
            let rv = r.expected["x3"].clone();
            r.control(&format!("compact {rv}"));
            std::thread::sleep(Duration::from_millis(2500));
            r.control("network watch-delay 0s");
            // The relist's first page is answered; its continuation is held on the wire.
            r.wait_first_page(from);
            // A create, not an update: with the watch cache off, a watch that replays an update
            // whose previous version was compacted meets etcd3's `PrevKv=nil` 500 instead.
            r.create("x4");
            let rv = r.expected["x4"].clone();
            r.control(&format!("compact {rv}"));
            r.update("c1");
            r.delete("c2");
        }
        Fault::LaggingApiserver => {
            r.control("apiserver 2\nset cache.lag 5s");
            r.create("x2");
            r.wait_equal("the create before the drop");
            let w = r.current_watch();
            r.control(&format!("drop {w}"));
            r.update("c1");
            r.delete("c2");
        }
    }
    let waited = r.wait_equal("after the fault");
    let recovered = t.elapsed().max(waited);
    let state = r.etcd_state();
    assert_eq!(
        r.cache.clone().unwrap_or_default(),
        state,
        "{} under {}: the cache is not etcd's state",
        lib.id(),
        fault.id()
    );
    r.finish();
    let summary = recovery::summarise_record(&r.record(), &r.outputs(), from);
    let errors: Vec<String> = r
        .seen
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok()?.get("error")?.as_str().map(str::to_string))
        .collect();
    let record = r.record().join("\n") + "\n";
    conclude(lib, fault, &summary, Some(recovered.as_millis()), &errors, &record);
}

/// Writes the run's data (`RVLAB_WRITE_RECOVERY=1`) or checks it against the committed data.
fn conclude(
    lib: Lib,
    fault: Fault,
    s: &Summary,
    recovered_ms: Option<u128>,
    errors: &[String],
    session: &str,
) {
    assert!(!s.before.is_empty(), "{} under {}: sent nothing before the fault", lib.id(), fault.id());
    assert!(!s.after.is_empty(), "{} under {}: sent nothing after the fault", lib.id(), fault.id());
    let stem = format!("{}-{}", lib.id(), fault.id());
    if writing() {
        let dir = recovery::data_dir();
        std::fs::create_dir_all(&dir).expect("data dir");
        let v = recovery::run_json(lib, fault, s, recovered_ms, errors);
        std::fs::write(
            dir.join(format!("{stem}.json")),
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n",
        )
        .expect("write data");
        std::fs::write(dir.join(format!("{stem}.rv")), session).expect("write session");
        return;
    }
    let committed = recovery::committed(lib, fault)
        .unwrap_or_else(|| panic!("site/src/data/recovery/{stem}.json is missing: run ./dev.sh recovery"));
    let was = recovery::summary_of(&committed);
    assert_eq!(
        s.shapes(),
        was.shapes(),
        "{stem}: the requests after the fault no longer have the committed shapes (./dev.sh recovery rewrites them)\nnow: {:#?}",
        s.after
    );
}

/// The client-go model under the same schedule, as a script run by `rvlab run`.
fn model_script(fault: Fault) -> String {
    let cm = |name: &str| {
        format!(
            r#"POST /api/v1/namespaces/{NS}/configmaps {{"metadata":{{"name":"{name}"}},"data":{{"k":"{name}"}}}}"#
        )
    };
    let update = format!(r#"PATCH /api/v1/namespaces/{NS}/configmaps/c1 {{"data":{{"k":"changed"}}}}"#);
    let delete = format!("DELETE /api/v1/namespaces/{NS}/configmaps/c2");
    let mut s: Vec<String> = SEED.iter().map(|n| cm(n)).collect();
    match fault {
        Fault::Expired => s.push("set cache.capacity 2".into()),
        Fault::CompactWhilePaging => s.push("set watch-cache off".into()),
        Fault::LaggingApiserver => s.push("set apiservers 2".into()),
        Fault::Drop | Fault::Restart => {}
    }
    let lb = if fault == Fault::LaggingApiserver { " apiservers=1,2" } else { "" };
    s.push(format!("informer start inf configmaps ns={NS}{lb}"));
    s.push("advance 2s".into());
    s.push(cm("x1"));
    s.push("advance 2s".into());
    s.push("informer show inf".into());
    match fault {
        Fault::Drop => {
            s.push("drop informer inf".into());
            s.extend([cm("x2"), update, delete]);
        }
        Fault::Expired => {
            // The model has no network to hold a re-watch: a second drop within a second of the
            // first makes a "very short watch", and client-go backs off before it relists —
            // the writes land meanwhile.
            s.push("drop informer inf".into());
            s.push("drop informer inf".into());
            s.extend([cm("x2"), update, delete, cm("x3")]);
        }
        Fault::Restart => {
            s.push("restart apiserver 1".into());
            s.extend([cm("x2"), update, delete]);
        }
        Fault::CompactWhilePaging => {
            s.push("drop informer inf".into());
            s.push("drop informer inf".into());
            s.extend([cm("x2"), cm("x3")]);
            s.push("compact 9".into());
            s.extend([update, delete]);
        }
        Fault::LaggingApiserver => {
            s.push("apiserver 2".into());
            s.push("set cache.lag 5s".into());
            s.push("apiserver 1".into());
            s.push(cm("x2"));
            s.push("drop informer inf".into());
            s.extend([update, delete]);
        }
    }
    s.push("advance 30s".into());
    s.push("informer show inf".into());
    s.push(format!("etcd get /registry/configmaps/{NS}/ --prefix"));
    s.join("\n") + "\n"
}

fn run_model(fault: Fault) {
    let script = model_script(fault);
    let dir =
        std::env::temp_dir().join(format!("rvlab-recovery-model-{}-{}", fault.id(), std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("model.rv");
    std::fs::write(&file, &script).expect("write script");
    let out = Command::new(env!("CARGO_BIN_EXE_rvlab")).arg("run").arg(&file).output().expect("rvlab run");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "rvlab run:\n{script}\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let outputs: Vec<Value> = stdout.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let shows: Vec<&Value> =
        outputs.iter().filter(|o| o.get("informer").is_some() && o.get("log").is_some()).collect();
    let (before, end) = (shows[shows.len() - 2], shows[shows.len() - 1]);
    // The model's store ends equal to etcd's state.
    let etcd = outputs.last().cloned().unwrap_or_default();
    let mut state: Vec<(String, String)> = etcd["kvs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|kv| {
            (
                kv["key"].as_str().unwrap_or_default().rsplit('/').next().unwrap_or_default().to_string(),
                kv["mod_revision"].to_string(),
            )
        })
        .collect();
    state.sort();
    let store: Vec<(String, String)> = end["store"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| {
            (
                o["name"].as_str().unwrap_or_default().to_string(),
                o["resourceVersion"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(store, state, "client-go model under {}: its store is not etcd's state\n{end}", fault.id());
    let summary = recovery::summarise_model(before, end);
    conclude(Lib::ClientGo, fault, &summary, None, &[], &script);
}

macro_rules! matrix {
    ($($name:ident: $lib:expr, $fault:expr;)*) => {$(
        #[test]
        fn $name() {
            match $lib {
                Lib::ClientGo => run_model($fault),
                lib => run_library(lib, $fault),
            }
        }
    )*};
}

matrix! {
    client_go_model_after_a_dropped_connection: Lib::ClientGo, Fault::Drop;
    client_go_model_when_the_window_moved_past_it: Lib::ClientGo, Fault::Expired;
    client_go_model_across_an_apiserver_restart: Lib::ClientGo, Fault::Restart;
    client_go_model_under_compaction_while_paging: Lib::ClientGo, Fault::CompactWhilePaging;
    client_go_model_behind_a_load_balancer_with_a_lagging_apiserver: Lib::ClientGo, Fault::LaggingApiserver;
    python_after_a_dropped_connection: Lib::Python, Fault::Drop;
    python_when_the_window_moved_past_it: Lib::Python, Fault::Expired;
    python_across_an_apiserver_restart: Lib::Python, Fault::Restart;
    python_under_compaction_while_paging: Lib::Python, Fault::CompactWhilePaging;
    python_behind_a_load_balancer_with_a_lagging_apiserver: Lib::Python, Fault::LaggingApiserver;
    client_node_after_a_dropped_connection: Lib::ClientNode, Fault::Drop;
    client_node_when_the_window_moved_past_it: Lib::ClientNode, Fault::Expired;
    client_node_across_an_apiserver_restart: Lib::ClientNode, Fault::Restart;
    client_node_under_compaction_while_paging: Lib::ClientNode, Fault::CompactWhilePaging;
    client_node_behind_a_load_balancer_with_a_lagging_apiserver: Lib::ClientNode, Fault::LaggingApiserver;
    kube_rs_after_a_dropped_connection: Lib::KubeRs, Fault::Drop;
    kube_rs_when_the_window_moved_past_it: Lib::KubeRs, Fault::Expired;
    kube_rs_across_an_apiserver_restart: Lib::KubeRs, Fault::Restart;
    kube_rs_under_compaction_while_paging: Lib::KubeRs, Fault::CompactWhilePaging;
    kube_rs_behind_a_load_balancer_with_a_lagging_apiserver: Lib::KubeRs, Fault::LaggingApiserver;
}

/// The committed chapter is exactly the rendering of the committed data. `./dev.sh recovery`
/// makes the runs with `RVLAB_WRITE_RECOVERY=1` (the data; this test then has nothing to check
/// against yet), then this test alone with `RVLAB_WRITE_RECOVERY=chapter`, which writes it.
#[test]
fn the_chapter_is_the_rendering_of_the_committed_data() {
    let rendered = recovery::render();
    let path = recovery::chapter_path();
    if writing_chapter() {
        std::fs::write(&path, &rendered).expect("write the chapter");
        return;
    }
    if writing() {
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "{} is not the rendering of site/src/data/recovery/: run ./dev.sh recovery",
        path.display()
    );
    // Every row has its data: no "not run" in the committed chapter.
    assert!(!committed.contains("| not run |"), "a run's data is missing: run ./dev.sh recovery");
}

#[test]
fn request_shapes_name_what_matters_for_load_and_recovery() {
    let c = recovery::collection();
    assert_eq!(recovery::shape(&format!("{c}?limit=2"), 200).as_deref(), Some("list rv=\"\" limit=2 → 200"));
    assert_eq!(
        recovery::shape(&format!("{c}?limit=2&continue=eyJ2"), 410).as_deref(),
        Some("list rv=\"\" limit=2 continue → 410")
    );
    assert_eq!(
        recovery::shape(&format!("{c}?limit=500&resourceVersion=0"), 200).as_deref(),
        Some("list rv=\"0\" limit=500 → 200")
    );
    assert_eq!(
        recovery::shape(
            &format!("{c}?allowWatchBookmarks=true&resourceVersion=12&timeoutSeconds=300&watch=true"),
            200
        )
        .as_deref(),
        Some("watch rv=N bookmarks → 200")
    );
    assert_eq!(
        recovery::shape(&format!("{c}?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true"), 200)
            .as_deref(),
        Some("watch rv=\"\" bookmarks sendInitialEvents → 200")
    );
    assert_eq!(recovery::shape("/api/v1/namespaces/other/configmaps", 200), None);
    let s = Summary {
        before: vec![],
        after: vec!["watch rv=N → 429".into(), "watch rv=N → 429".into(), "list rv=\"\" → 200".into()],
        error_frames: vec![410],
    };
    assert_eq!((s.lists(), s.watches(), s.answered(429), s.answered(410)), (1, 2, 2, 1));
}
