//! kube-rs against `rvlab serve`: the example `examples/controller.rs` (kube 5.0.0, kube-runtime
//! 5.0.0, k8s-openapi 0.29) connects over HTTPS with the kubeconfig as written and meets five
//! faults through the control endpoint — a dropped connection, a watch cache window moved past
//! its resourceVersion, an apiserver restart, a compaction while it pages its list, a lagging
//! second apiserver — once with the default list-then-watch and once with streaming lists. Each
//! run ends with the reflector's store equal to the server's list (names and resourceVersions),
//! checks the requests kube-rs sent in the recorded script (`--record`) where they are
//! deterministic, and replays the record with `rvlab run`, which must print exactly what the
//! server answered.
//!
//! The request lines asserted are kube-runtime 5.0.0's (`kube-runtime/src/watcher.rs`:
//! `Config::default` lists with `page_size: Some(500)` and `ListSemantic::MostRecent`, i.e. no
//! resourceVersion; `State::Watching` + `WatchEvent::Error` with code 410 → `State::default()`, a
//! new list; `streaming_lists()` → `api.watch(.., "0")` with `send_initial_events`) and
//! kube-core 5.0.0's query building (`kube-core/src/request.rs`, `params.rs`: the query starts
//! `?&`, `timeoutSeconds=290`, `allowWatchBookmarks=true`, `sendInitialEvents=true&
//! resourceVersionMatch=NotOlderThan`, then `resourceVersion`). A 429 never reaches the watcher:
//! kube-client 5.0.0 retries 429/503/504 itself, honouring `Retry-After`
//! (`kube-client/src/client/retry.rs` `RetryPolicy::server_retry`, installed by
//! `Config::default_retry`).
//!
//! The test builds the example itself (`cargo build --example controller`, once per run); a
//! build that fails is a test failure, not a skip.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "support/serve.rs"]
mod serve;

#[path = "support/external.rs"]
mod external;

const CM: &str = "/api/v1/namespaces/default/configmaps";
/// kube-runtime's first list (`Config::default()`: `limit=500`, no resourceVersion).
const LIST: &str = "GET /api/v1/namespaces/default/configmaps?&limit=500";
/// kube-runtime's watch query up to its resourceVersion.
const WATCH: &str =
    "GET /api/v1/namespaces/default/configmaps?&watch=true&timeoutSeconds=290&allowWatchBookmarks=true";
/// kube-runtime's streaming list (`streaming_lists()`): a watch-list from resourceVersion 0.
const WATCH_LIST: &str = "GET /api/v1/namespaces/default/configmaps?&watch=true&timeoutSeconds=290&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=0";
const WAIT: Duration = Duration::from_secs(40);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    ListWatch,
    Streaming,
}

/// `rvlab serve` over HTTPS with `--record`.
struct Server {
    process: serve::Process,
}

impl Server {
    fn start(name: &str) -> Server {
        let process = serve::start_https(&format!("kube-rs-{name}"), &["--record", "DIR/record.rv"]);
        // The controller connects with the kubeconfig as written: HTTPS, the CA, a token.
        let kubeconfig = std::fs::read_to_string(process.dir.join("kubeconfig")).unwrap();
        assert!(kubeconfig.contains(&format!("server: https://{}\n", process.addr)), "{kubeconfig}");
        assert!(kubeconfig.contains("certificate-authority-data: "), "{kubeconfig}");
        Server { process }
    }

    /// One request to the page listener (plain HTTP, where the control endpoint is).
    fn page(&self, method: &str, target: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(&self.process.page).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let head = format!(
            "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut resp = Vec::new();
        let _ = s.read_to_end(&mut resp);
        let at = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
        let code =
            String::from_utf8_lossy(&resp[..at]).split_whitespace().nth(1).and_then(|c| c.parse().ok());
        (code.unwrap_or(0), resp.get(at + 4..).unwrap_or_default().to_vec())
    }

    /// Runs script lines through the control endpoint: their output objects.
    fn control(&self, script: &str) -> Vec<Value> {
        let (code, body) = self.page("POST", "/rvlab/v1/script", script.as_bytes());
        assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
        let outs: Vec<Value> =
            String::from_utf8(body).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        for o in &outs {
            assert!(o.get("error").is_none(), "{script}: {o}");
        }
        outs
    }

    fn recorded(&self) -> Vec<String> {
        let (_, body) = self.page("GET", "/rvlab/v1/script", b"");
        String::from_utf8(body).unwrap().lines().map(str::to_string).collect()
    }

    fn outputs(&self) -> Vec<Value> {
        let (_, body) = self.page("GET", "/rvlab/v1/script?output=jsonl", b"");
        String::from_utf8(body).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    /// The request lines kube-rs sent (its queries start `?&`), in order.
    fn kube_rs_lines(&self) -> Vec<String> {
        self.recorded().into_iter().filter(|l| l.starts_with(&format!("GET {CM}?&"))).collect()
    }

    /// The server's state: `[[name, resourceVersion], …]` by name, from a list the control
    /// endpoint runs (at the current apiserver, a consistent read).
    fn server_list(&self) -> Value {
        let t = Instant::now();
        let mut out = self.control(&format!("GET {CM}"));
        // While a restarted apiserver's watch cache initializes, it answers 429: ask again.
        while out[0]["code"] == 429 && t.elapsed() < WAIT {
            std::thread::sleep(Duration::from_millis(200));
            out = self.control(&format!("GET {CM}"));
        }
        let mut items: Vec<(String, String)> = out[0]["body"]["items"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", out[0]))
            .iter()
            .map(|o| {
                let m = &o["metadata"];
                (m["name"].as_str().unwrap().to_string(), m["resourceVersion"].as_str().unwrap().to_string())
            })
            .collect();
        items.sort();
        json!(items)
    }

    /// Creates configmaps: the resourceVersion of the last.
    fn create(&self, names: &[&str]) -> u64 {
        let script: Vec<String> = names.iter().map(|n| format!("kubectl create configmap {n}")).collect();
        last_rv(&self.control(&script.join("\n")))
    }

    /// The id of the most recent watch the server opened (`{"watch":"w3"}` in its output).
    fn last_watch(&self) -> String {
        let outs = self.outputs();
        let w = outs.iter().rev().find_map(|o| o["watch"].as_str());
        w.unwrap_or_else(|| panic!("no watch open: {outs:#?}")).to_string()
    }

    /// Waits until the recorded script has a line matching `pred`; its index.
    fn wait_for_line(&self, what: &str, pred: impl Fn(&str) -> bool) -> usize {
        let t = Instant::now();
        while t.elapsed() < WAIT {
            if let Some(i) = self.recorded().iter().position(|l| pred(l)) {
                return i;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("no recorded line for {what}; log:\n{}", self.recorded().join("\n"));
    }

    /// The `--record` file is the live log, and `rvlab run` replays it to exactly the outputs
    /// the server produced.
    fn check_replay(&self) {
        // The controller has exited: its last watch ends in the log before it is compared.
        let w = self.last_watch();
        self.wait_for_line("the controller going away", |l| l == format!("cancel {w}"));
        let record = self.process.dir.join("record.rv");
        let file = std::fs::read_to_string(&record).unwrap();
        assert_eq!(file.lines().collect::<Vec<_>>(), self.recorded(), "the --record file is the live log");
        let (_, live) = self.page("GET", "/rvlab/v1/script?output=jsonl", b"");
        let out = Command::new(env!("CARGO_BIN_EXE_rvlab")).arg("run").arg(&record).output().unwrap();
        assert!(out.status.success(), "rvlab run: {}", String::from_utf8_lossy(&out.stderr));
        let (live, replay) = (String::from_utf8(live).unwrap(), String::from_utf8(out.stdout).unwrap());
        let (live, replay): (Vec<&str>, Vec<&str>) = (live.lines().collect(), replay.lines().collect());
        for (a, b) in live.iter().zip(&replay) {
            assert_eq!(a, b, "the replay differs from what the server answered");
        }
        assert_eq!(live.len(), replay.len());
    }
}

/// Simulated time as the outputs print it (`20ms`, `604.907s`), in milliseconds.
fn ms(t: &str) -> u64 {
    match t.strip_suffix("ms") {
        Some(n) => n.parse().unwrap(),
        None => (t.strip_suffix('s').unwrap().parse::<f64>().unwrap() * 1000.0).round() as u64,
    }
}

/// The resourceVersion in the last output that carries an object.
fn last_rv(outs: &[Value]) -> u64 {
    let rv = outs.iter().rev().find_map(|o| o["body"]["metadata"]["resourceVersion"].as_str());
    rv.unwrap_or_else(|| panic!("no object in {outs:#?}")).parse().unwrap()
}

/// The example running against a server: what it printed, line by line.
struct Controller {
    /// Its stderr (logs), shown when a wait fails.
    log: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
    seen: Vec<Value>,
}

impl Controller {
    fn start(s: &Server, mode: Mode, extra: &[&str]) -> Controller {
        let log = s.process.dir.join(format!("controller-{mode:?}.log"));
        let mut cmd = Command::new(external::kube_controller());
        cmd.arg("--kubeconfig").arg(s.process.dir.join("kubeconfig")).args(extra);
        if mode == Mode::Streaming {
            cmd.arg("--streaming-lists");
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start the controller example");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| json!({"not-json": line, "why": e.to_string()}));
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Controller { log, child, stdin, lines, seen: Vec::new() }
    }

    /// Reads its output until `pred` holds for a line.
    fn wait_for(&mut self, s: &Server, what: &str, pred: impl Fn(&Value) -> bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(v) => {
                    assert!(v.get("not-json").is_none(), "only JSON lines on stdout: {v}");
                    let done = pred(&v);
                    self.seen.push(v);
                    if done {
                        return;
                    }
                }
                Err(e) => panic!(
                    "{what}: {e}; the controller printed:\n{}\nits stderr:\n{}\nthe server's log:\n{}",
                    self.seen.iter().map(Value::to_string).collect::<Vec<_>>().join("\n"),
                    std::fs::read_to_string(&self.log).unwrap_or_default(),
                    s.recorded().join("\n")
                ),
            }
        }
    }

    /// Waits until its reflector's store equals the server's list.
    fn wait_for_cache(&mut self, s: &Server) -> Value {
        let want = s.server_list();
        self.wait_for(s, &format!("a cache equal to the server's {want}"), |v| v["cache"] == want);
        want
    }

    /// Waits until it has reconciled every object of `want` at its resourceVersion.
    fn wait_for_reconciles(&mut self, s: &Server, want: &Value) {
        for pair in want.as_array().unwrap() {
            let r = json!({"reconciled": pair[0], "rv": pair[1]});
            if !self.seen.contains(&r) {
                self.wait_for(s, &format!("{r}"), |v| *v == r);
            }
        }
    }

    fn errors(&self) -> Vec<String> {
        self.seen.iter().filter_map(|v| v["error"].as_str().map(str::to_string)).collect()
    }

    /// The caches it printed, in order, as sets of names.
    fn caches(&self) -> Vec<Vec<String>> {
        let names =
            |c: &Value| c.as_array().unwrap().iter().map(|p| p[0].as_str().unwrap().to_string()).collect();
        self.seen.iter().filter(|v| v.get("cache").is_some()).map(|v| names(&v["cache"])).collect()
    }

    /// Closes its stdin: it must exit 0.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the controller exited with {status}");
                break;
            }
            assert!(Instant::now() < deadline, "the controller did not exit at end of stdin");
            std::thread::sleep(Duration::from_millis(50));
        }
        while let Ok(v) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(v);
        }
        std::mem::take(&mut self.seen)
    }
}

impl Drop for Controller {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server with three configmaps and the controller synced to it; the store's resourceVersion.
fn started(name: &str, mode: Mode, extra: &[&str]) -> (Server, Controller, u64) {
    let s = Server::start(&format!("{name}-{mode:?}"));
    let rv = s.create(&["a", "b", "c"]);
    let mut c = Controller::start(&s, mode, extra);
    c.wait_for_cache(&s);
    // What it sent first: a list of 500 without resourceVersion then a watch from the list's
    // resourceVersion; or, streaming, one watch-list from resourceVersion 0.
    let first = match mode {
        Mode::ListWatch => vec![LIST.to_string(), format!("{WATCH}&resourceVersion={rv}")],
        Mode::Streaming => vec![WATCH_LIST.to_string()],
    };
    let t = Instant::now();
    while s.kube_rs_lines().len() < first.len() && t.elapsed() < WAIT {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(s.kube_rs_lines(), first, "{mode:?}");
    (s, c, rv)
}

fn dropped_connection(mode: Mode) {
    let (s, mut c, rv) = started("drop", mode, &[]);
    let w = s.last_watch();
    // The connection breaks; a write happens before the client is back.
    s.control(&format!("drop {w}\nkubectl create configmap d"));
    let want = c.wait_for_cache(&s);
    // It watches again from the last resourceVersion it saw; not a new list, nor (streaming) a
    // new watch-list: `State::Watching` → stream end → `State::InitListed`.
    assert_eq!(s.kube_rs_lines().last().unwrap(), &format!("{WATCH}&resourceVersion={rv}"), "{mode:?}");
    c.wait_for_reconciles(&s, &want);
    let seen = c.finish();
    assert!(!seen.iter().any(|v| v.get("error").is_some()), "a dropped connection is no error: {seen:#?}");
    s.check_replay();
}

#[test]
fn a_dropped_connection_resumes_the_watch_from_its_resource_version() {
    dropped_connection(Mode::ListWatch);
    dropped_connection(Mode::Streaming);
}

fn moved_window(mode: Mode) {
    let (s, mut c, rv) = started("window", mode, &[]);
    let w = s.last_watch();
    // The watch cache keeps two events; three writes while the client reconnects move its
    // window past the client's resourceVersion.
    s.control(&format!(
        "set cache.capacity 2\ndrop {w}\nkubectl create configmap d\nkubectl create configmap e\nkubectl create configmap f"
    ));
    c.wait_for(&s, "the 410", |v| v.get("error").is_some());
    let want = c.wait_for_cache(&s);
    assert_eq!(
        c.errors(),
        [format!(
            "error returned by apiserver during watch: too old resource version: {rv} ({}): Expired",
            rv + 1
        )]
    );
    let rewatch_line = format!("{WATCH}&resourceVersion={rv}");
    // After the 410 kube-runtime starts over (`State::default()`): a consistent list of 500
    // with no resourceVersion (client-go relists at its last resourceVersion first), or,
    // streaming, the watch-list from resourceVersion 0 again.
    let relist = match mode {
        Mode::ListWatch => vec![LIST.to_string(), format!("{WATCH}&resourceVersion={}", rv + 3)],
        Mode::Streaming => vec![WATCH_LIST.to_string()],
    };
    // The store is whole once the list is done, before the watch is sent: wait for it.
    let t = Instant::now();
    let mut lines = s.kube_rs_lines();
    let rewatch = lines.iter().rposition(|l| *l == rewatch_line).unwrap();
    while lines.len() < rewatch + 1 + relist.len() && t.elapsed() < WAIT {
        std::thread::sleep(Duration::from_millis(50));
        lines = s.kube_rs_lines();
    }
    assert_eq!(lines[rewatch + 1..], relist, "{mode:?}: {lines:#?}");
    c.wait_for_reconciles(&s, &want);
    c.finish();
    s.check_replay();
}

#[test]
fn a_window_moved_past_its_resource_version_gets_410_and_a_new_list() {
    moved_window(Mode::ListWatch);
    moved_window(Mode::Streaming);
}

fn restart(mode: Mode) {
    let (s, mut c, rv) = started("restart", mode, &[]);
    let n = s.recorded().len();
    s.control("restart apiserver 1\nkubectl create configmap d");
    let want = c.wait_for_cache(&s);
    // Its watch ends with the restart; it watches again from its resourceVersion and meets 429
    // while the watch cache initializes. kube-client retries that same request after
    // `Retry-After` (kube-client `client/retry.rs`): the watcher never sees the 429.
    let log = s.recorded();
    let outs = s.outputs();
    let again = format!("{WATCH}&resourceVersion={rv}");
    let after: Vec<(usize, &String)> =
        log.iter().enumerate().skip(n).filter(|(_, l)| l.starts_with(&format!("GET {CM}?&"))).collect();
    assert!(after.len() >= 2, "{mode:?}: a 429 then the watch: {log:#?}");
    for (_, l) in &after {
        assert_eq!(**l, again, "{mode:?}: the same request, retried");
    }
    let code = |i: usize| outs.iter().find(|o| o["line"] == i + 1).map(|o| o["code"].clone());
    let first = code(after[0].0).unwrap();
    assert_eq!(first, 429, "{mode:?}");
    let first_out = outs.iter().find(|o| o["line"] == after[0].0 + 1).unwrap();
    assert_eq!(first_out["body"]["reason"], "TooManyRequests");
    assert!(first_out["headers"]["Retry-After"].is_string(), "{first_out}");
    assert_eq!(code(after.last().unwrap().0).unwrap(), 200, "{mode:?}");
    c.wait_for_reconciles(&s, &want);
    let seen = c.finish();
    assert!(!seen.iter().any(|v| v.get("error").is_some()), "kube-client hides the 429: {seen:#?}");
    s.check_replay();
}

#[test]
fn an_apiserver_restart_s_429_is_retried_by_the_client_not_the_watcher() {
    restart(Mode::ListWatch);
    restart(Mode::Streaming);
}

fn compaction_while_paging(mode: Mode) {
    let s = Server::start(&format!("compact-{mode:?}"));
    s.create(&["a", "b", "c", "d"]);
    // Each continuation is held 1s on the network: the client is still paging when the
    // compaction lands.
    s.control("network continue-delay 1s");
    let mut c = Controller::start(&s, mode, &["--page-size", "1"]);
    match mode {
        Mode::ListWatch => {
            s.wait_for_line("the first page", |l| l == format!("GET {CM}?&limit=1"));
            let rv = s.create(&["e"]);
            s.control(&format!("compact {rv}"));
            c.wait_for(&s, "the expired continue token", |v| v.get("error").is_some());
            s.control("network continue-delay 0s");
            let want = c.wait_for_cache(&s);
            let errors = c.errors();
            assert_eq!(errors.len(), 1, "{errors:#?}");
            assert!(errors[0].starts_with("failed to perform initial object list: "), "{errors:#?}");
            assert!(errors[0].contains("Expired"), "{errors:#?}");
            // The list starts over from its first page, with no resourceVersion.
            let lines = s.kube_rs_lines();
            let firsts = lines.iter().filter(|l| **l == format!("GET {CM}?&limit=1")).count();
            assert_eq!(firsts, 2, "{lines:#?}");
            assert!(
                lines.iter().all(|l| !l.contains("&resourceVersion=") || l.contains("watch=true")),
                "{lines:#?}"
            );
            c.wait_for_reconciles(&s, &want);
            c.finish();
        }
        Mode::Streaming => {
            // A streaming list does not page: `page_size` is for lists only, and the watch-list
            // is one stream, which a compaction does not end.
            let want = c.wait_for_cache(&s);
            let rv = s.create(&["e"]);
            s.control(&format!("compact {rv}"));
            let want2 = c.wait_for_cache(&s);
            assert_ne!(want, want2);
            assert_eq!(s.kube_rs_lines(), [WATCH_LIST], "no page, no limit");
            c.wait_for_reconciles(&s, &want2);
            let seen = c.finish();
            assert!(!seen.iter().any(|v| v.get("error").is_some()), "{seen:#?}");
        }
    }
    s.check_replay();
}

#[test]
fn a_compaction_while_it_pages_expires_the_token_and_the_list_starts_over() {
    compaction_while_paging(Mode::ListWatch);
    compaction_while_paging(Mode::Streaming);
}

fn lagging_apiserver(mode: Mode) {
    let (s, mut c, rv) = started("lag", mode, &[]);
    let w = s.last_watch();
    // A second apiserver whose watch cache is 2 s behind etcd takes the next connection: serve
    // sends every request to the current apiserver, and `apiserver 2` makes it the second
    // (what a load balancer does to a reconnecting client).
    s.control(&format!(
        "set apiservers 2\napiserver 2\nset cache.lag 2s\ndrop {w}\nkubectl create configmap d"
    ));
    let want = c.wait_for_cache(&s);
    let log = s.recorded();
    let switched = log.iter().position(|l| l == "apiserver 2").unwrap();
    let rewatch = log.iter().rposition(|l| l.starts_with(&format!("GET {CM}?&"))).unwrap();
    assert!(rewatch > switched, "{log:#?}");
    assert_eq!(log[rewatch], format!("{WATCH}&resourceVersion={rv}"), "{mode:?}");
    // The write reached it through apiserver 2's cache, 2 s after it was made.
    let outs = s.outputs();
    let created = log.iter().position(|l| l == "kubectl create configmap d").unwrap();
    let made = outs
        .iter()
        .filter(|o| o["line"].as_u64().is_some_and(|n| n as usize <= created + 1))
        .filter_map(|o| o["now"].as_str())
        .next_back();
    let made = made.map_or(0, ms);
    let arrived = outs
        .iter()
        .filter(|o| o["line"].as_u64().is_some_and(|n| n as usize > rewatch + 1))
        .filter_map(|o| o["events"].as_array())
        .flatten()
        .find(|e| e["object"]["metadata"]["name"] == "d")
        .map(|e| ms(e["at"].as_str().unwrap()))
        .unwrap_or_else(|| panic!("{outs:#?}"));
    assert!(arrived >= made + 2000, "{mode:?}: made at {made}ms, arrived at {arrived}ms");
    // The store never goes back: every cache it printed holds all the names of the one before.
    let caches = c.caches();
    for pair in caches.windows(2) {
        assert!(pair[0].iter().all(|n| pair[1].contains(n)), "{caches:#?}");
    }
    c.wait_for_reconciles(&s, &want);
    let seen = c.finish();
    assert!(!seen.iter().any(|v| v.get("error").is_some()), "{seen:#?}");
    s.check_replay();
}

#[test]
fn a_lagging_second_apiserver_serves_the_resumed_watch_late_but_whole() {
    lagging_apiserver(Mode::ListWatch);
    lagging_apiserver(Mode::Streaming);
}

#[test]
fn an_unreadable_kubeconfig_or_unreachable_server_is_exit_1_with_a_message() {
    let dir = std::env::temp_dir().join(format!("rvlab-kube-rs-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(external::kube_controller()).args(args).stdin(Stdio::null()).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let missing = dir.join("missing");
    let (code, out, err) = run(&["--kubeconfig", missing.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.starts_with("controller: cannot read kubeconfig "), "{err}");
    // A server nobody listens on (a port just freed).
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let kc = dir.join("kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: x\n  cluster:\n    server: http://127.0.0.1:{port}\nusers:\n- name: x\n  user: {{}}\ncontexts:\n- name: x\n  context:\n    cluster: x\n    user: x\ncurrent-context: x\n"
        ),
    )
    .unwrap();
    let (code, out, err) = run(&["--kubeconfig", kc.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.starts_with("controller: cannot reach the server at http://127.0.0.1:"), "{err}");
    let (code, _, err) = run(&[]);
    assert_eq!(code, Some(1));
    assert!(err.starts_with("controller: --kubeconfig is required"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
