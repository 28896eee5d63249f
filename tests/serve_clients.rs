//! Clients nobody here wrote against `rvlab serve`: kubectl (must be on PATH) and the official
//! Kubernetes Python client (`kubernetes==37.0.2` in the virtualenv `./dev.sh test` makes; or
//! set `RVLAB_PYTHON`). Each test starts the server on a free loopback port, drives the client,
//! checks what the client printed, compares what it sent (the recorded script) with the requests
//! expected of it, and replays the record with `rvlab run`, which must print exactly the outputs
//! the server produced. Without kubectl or the Python client, a plain `cargo test` skips those tests with a message;
//! under `./dev.sh test` or CI they fail (`tests/support/external.rs`).
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

const RVLAB: &str = env!("CARGO_BIN_EXE_rvlab");

#[path = "support/serve.rs"]
mod serve;

#[path = "support/external.rs"]
mod external;

/// The server under test (its methods below).
type Server = serve::Process;

impl Server {
    fn start(name: &str) -> Server {
        serve::start(&format!("serve-{name}"), &["--record", "DIR/record.rv"])
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn kubeconfig(&self) -> PathBuf {
        self.dir.join("kubeconfig")
    }

    /// One HTTP/1.1 exchange (Connection: close): status, headers (lower-cased), body.
    fn http(
        &self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String, Vec<u8>) {
        raw_http(&self.addr, method, target, headers, body)
    }

    fn control(&self, script: &str) -> Vec<Value> {
        let (code, _, body) = self.http("POST", "/rvlab/v1/script", &[], script.as_bytes());
        assert_eq!(code, 200);
        String::from_utf8(body).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    fn recorded(&self) -> Vec<String> {
        let (_, _, body) = self.http("GET", "/rvlab/v1/script", &[], b"");
        String::from_utf8(body).unwrap().lines().map(str::to_string).collect()
    }

    /// The record replayed by `rvlab run` prints exactly what the server answered, line for line.
    fn check_replay(&self) {
        let (_, _, live) = self.http("GET", "/rvlab/v1/script?output=jsonl", &[], b"");
        let live = String::from_utf8(live).unwrap();
        let record = self.dir.join("record.rv");
        let file = std::fs::read_to_string(&record).unwrap();
        assert_eq!(file.lines().collect::<Vec<_>>(), self.recorded(), "the --record file is the live log");
        let out = Command::new(RVLAB).arg("run").arg(&record).output().unwrap();
        assert!(out.status.success(), "rvlab run: {}", String::from_utf8_lossy(&out.stderr));
        let replay = String::from_utf8(out.stdout).unwrap();
        let (live, replay): (Vec<&str>, Vec<&str>) = (live.lines().collect(), replay.lines().collect());
        assert_eq!(live.len(), replay.len());
        for (a, b) in live.iter().zip(&replay) {
            assert_eq!(a, b, "replay differs from what the server answered");
        }
    }

    fn kubectl(&self, args: &[&str]) -> (String, String) {
        let out = Command::new(kubectl())
            .args(args)
            .env("KUBECONFIG", self.kubeconfig())
            .env_remove("KUBERNETES_SERVICE_HOST")
            .output()
            .expect("run kubectl");
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// Waits until the recorded script has a line matching `pred`.
    fn wait_for_line(&self, what: &str, pred: impl Fn(&str) -> bool) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(20) {
            if self.recorded().iter().any(|l| pred(l)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("no recorded line for {what}; log:\n{}", self.recorded().join("\n"));
    }
}

fn raw_http(
    addr: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut resp = Vec::new();
    let _ = s.read_to_end(&mut resp);
    let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(resp.len());
    let head = String::from_utf8_lossy(&resp[..split]).to_ascii_lowercase();
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = resp.get(split + 4..).unwrap_or_default().to_vec();
    (code, head, body)
}

/// kubectl, found by each kubectl test first (which skips or fails without it).
fn kubectl() -> PathBuf {
    external::kubectl().unwrap_or_else(|| PathBuf::from("kubectl"))
}

/// The API request lines of a recorded script (no clock steps, watch reads or faults).
fn api_lines(log: &[String]) -> Vec<String> {
    log.iter()
        .filter(|l| ["GET ", "POST ", "PUT ", "PATCH ", "DELETE "].iter().any(|m| l.starts_with(m)))
        .cloned()
        .collect()
}

/// The requests a script's `kubectl …` lines send, in order (their outputs' `requests`).
fn script_requests(script: &str) -> Vec<String> {
    let mut child =
        Command::new(RVLAB).args(["run", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(json_of)
        .flat_map(|v| v["requests"].as_array().cloned().unwrap_or_default())
        .map(|r| r["request"].as_str().unwrap().to_string())
        .collect()
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn kubectl_creates_lists_pages_watches_deletes_and_meets_410() {
    let Some(_) = external::kubectl() else { return };
    let s = Server::start("kubectl");
    for (name, lit) in [("a", "k=v"), ("b", "k=w"), ("c", "k=x")] {
        let (out, err) = s.kubectl(&["create", "configmap", name, &format!("--from-literal={lit}")]);
        assert_eq!(out.trim(), format!("configmap/{name} created"), "{err}");
    }
    // kubectl 1.32 sends the typed ConfigMap as protobuf; the record holds the request as JSON.
    let log = s.recorded();
    assert!(
        log.contains(&r#"POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null},"data":{"k":"v"}}"#.to_string()),
        "{log:#?}"
    );

    let (out, err) = s.kubectl(&["get", "configmaps", "-o", "json"]);
    let list = json_of(&out);
    let names: Vec<&str> =
        list["items"].as_array().unwrap().iter().map(|i| i["metadata"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a", "b", "c"], "{err}");
    assert_eq!(list["items"][1]["data"]["k"], "w");
    // While serving, timestamps are wall-clock times (the record starts with `set clock.epoch`).
    assert!(s.recorded()[0].starts_with("set clock.epoch "), "{:?}", s.recorded()[0]);
    let wall = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let created = list["items"][0]["metadata"]["creationTimestamp"].as_str().unwrap();
    let created = rvlab::apiserver::object::parse_rfc3339_utc(created).unwrap();
    assert!((wall - 120..=wall + 1).contains(&created), "creationTimestamp {created} vs wall clock {wall}");
    let rv_a = list["items"][0]["metadata"]["resourceVersion"].as_str().unwrap().to_string();

    // --chunk-size=1: kubectl follows the continue tokens itself (client-go pager).
    let before = s.recorded().len();
    let (out, err) = s.kubectl(&["get", "configmaps", "--chunk-size=1"]);
    let rows: Vec<&str> = out.lines().skip(1).map(|l| l.split_whitespace().next().unwrap_or("")).collect();
    assert_eq!(rows, ["a", "b", "c"], "{out}{err}");
    let gets: Vec<String> =
        s.recorded()[before..].iter().filter(|l| l.starts_with("GET ")).cloned().collect();
    assert_eq!(gets.len(), 3, "{gets:#?}");
    assert_eq!(gets[0], "GET /api/v1/namespaces/default/configmaps?limit=1");
    assert!(
        gets[1].starts_with("GET /api/v1/namespaces/default/configmaps?continue=")
            && gets[1].ends_with("&limit=1")
    );

    // get --raw with limit / continue / resourceVersion.
    let (out, _) = s.kubectl(&["get", "--raw", "/api/v1/namespaces/default/configmaps?limit=1"]);
    let page = json_of(&out);
    assert_eq!(page["metadata"]["remainingItemCount"], 2);
    let token = page["metadata"]["continue"].as_str().unwrap().to_string();
    let (out, _) = s.kubectl(&[
        "get",
        "--raw",
        &format!("/api/v1/namespaces/default/configmaps?limit=1&continue={token}"),
    ]);
    assert_eq!(json_of(&out)["items"][0]["metadata"]["name"], "b");
    let (out, _) = s.kubectl(&[
        "get",
        "--raw",
        &format!("/api/v1/namespaces/default/configmaps?resourceVersion={rv_a}&resourceVersionMatch=Exact"),
    ]);
    let exact = json_of(&out);
    assert_eq!(exact["metadata"]["resourceVersion"], rv_a.as_str());
    assert_eq!(exact["items"].as_array().unwrap().len(), 1, "at rv {rv_a} only a existed");

    // get -w --output-watch-events across a write.
    let mut w = Command::new(kubectl())
        .args(["get", "configmaps", "-w", "--output-watch-events"])
        .env("KUBECONFIG", s.kubeconfig())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let stdout = w.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    s.wait_for_line("kubectl's watch", |l| l.contains("watch=true"));
    let (out, _) = s.kubectl(&["create", "configmap", "d"]);
    assert_eq!(out.trim(), "configmap/d created");
    let mut seen = Vec::new();
    let t = Instant::now();
    while !seen.iter().any(|l: &String| l.starts_with("ADDED") && l.split_whitespace().nth(1) == Some("d")) {
        assert!(t.elapsed() < Duration::from_secs(20), "kubectl printed {seen:#?}");
        if let Ok(l) = rx.recv_timeout(Duration::from_millis(200)) {
            seen.push(l);
        }
    }
    let _ = w.kill();
    let _ = w.wait();
    let events: Vec<(String, String)> = seen
        .iter()
        .skip(1)
        .map(|l| {
            let mut p = l.split_whitespace();
            (p.next().unwrap_or("").to_string(), p.next().unwrap_or("").to_string())
        })
        .collect();
    assert_eq!(seen[0].split_whitespace().take(2).collect::<Vec<_>>(), ["EVENT", "NAME"]);
    let want: Vec<(String, String)> =
        ["a", "b", "c", "d"].iter().map(|n| ("ADDED".to_string(), n.to_string())).collect();
    assert_eq!(events, want);
    // kubectl watched from the list's resourceVersion, and the record shows the frames it got.
    s.wait_for_line("the client going away", |l| l.starts_with("cancel w"));

    let before_delete = s.recorded().len();
    let (out, _) = s.kubectl(&["delete", "configmap", "a"]);
    assert_eq!(out.trim(), r#"configmap "a" deleted"#);
    let delete_requests = api_lines(&s.recorded()[before_delete..]);

    // What kubectl sent is what the script language's `kubectl` lines say it sends.
    let expected = script_requests(
        "kubectl create configmap a --from-literal=k=v\n\
         kubectl create configmap b --from-literal=k=w\n\
         kubectl create configmap c --from-literal=k=x\n\
         kubectl get configmaps --chunk-size=1\n\
         kubectl delete configmap a",
    );
    let sent = api_lines(&s.recorded());
    assert_eq!(sent[..3], expected[..3], "kubectl create configmap");
    let chunked: Vec<String> = sent.iter().filter(|l| l.contains("limit=1")).take(3).cloned().collect();
    assert_eq!(chunked, expected[3..6], "kubectl get --chunk-size=1");
    assert_eq!(delete_requests, expected[6..], "kubectl delete");

    // kubectl patch: a strategic merge patch by default.
    let (out, err) = s.kubectl(&["patch", "configmap", "b", "-p", r#"{"data":{"k":"patched"}}"#]);
    assert_eq!(out.trim(), "configmap/b patched", "{err}");
    let (out, _) = s.kubectl(&["get", "configmap", "b", "-o", "jsonpath={.data.k}"]);
    assert_eq!(out, "patched");
    assert!(
        s.recorded().iter().any(|l| l.starts_with(
            "PATCH /api/v1/namespaces/default/configmaps/b?fieldManager=kubectl-patch type=strategic "
        )),
        "{:#?}",
        s.recorded()
    );

    // Manifests: kubectl reads /openapi/v3 to learn that the server validates fields itself.
    let manifest = s.dir.join("cm.yaml");
    std::fs::write(&manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\ndata:\n  a: b\n")
        .unwrap();
    let file = manifest.to_str().unwrap();
    let (out, err) = s.kubectl(&["create", "-f", file]);
    assert_eq!(out.trim(), "configmap/m created", "{err}");
    let (out, err) = s.kubectl(&["apply", "--server-side", "-f", file]);
    assert_eq!(out.trim(), "configmap/m serverside-applied", "{err}");
    assert!(s.recorded().iter().any(
        |l| l.starts_with("PATCH /api/v1/namespaces/default/configmaps/m?") && l.contains(" type=apply ")
    ));

    // A watch that meets a forced 410: the watch cache off, etcd compacted past the rv asked for.
    let out = s.control("set watch-cache off\nGET /api/v1/namespaces/default/configmaps");
    let current = out[1]["body"]["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let out = s.control(&format!("compact {current}"));
    assert_eq!(out[0]["compacted"].as_i64().map(|r| r.to_string()), Some(current.clone()));
    let (out, err) = s.kubectl(&[
        "get",
        "--raw",
        &format!("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion={rv_a}"),
    ]);
    let frame = json_of(out.lines().next().unwrap_or_else(|| panic!("no frame: {err}")));
    assert_eq!(frame["type"], "ERROR");
    assert_eq!(frame["object"]["code"], 410);
    assert_eq!(frame["object"]["reason"], "Expired");
    assert_eq!(frame["object"]["message"], "The resourceVersion for the provided watch is too old.");

    s.check_replay();
}

/// kubectl's own `get -w` meets a 410 the way it does on a real cluster: it watches from its
/// list's resourceVersion, the network holds the watch request, and by the time the apiserver
/// sees it that resourceVersion has left the watch cache's window. The cacher answers with an
/// ERROR frame, "too old resource version: RV (OLDEST)" (k8s.io/apiserver
/// pkg/storage/cacher/watch_cache.go `getAllEventsSinceLocked` @ v1.32.0); kubectl prints a
/// Status event with its STATUS/REASON/MESSAGE columns (k8s.io/cli-runtime
/// pkg/printers/tableprinter.go @ v0.32.0, as kubectl v1.32.4 prints it) and, the stream having
/// ended, exits 0 — so its output is what is checked.
#[test]
fn kubectl_watch_held_by_the_network_meets_410() {
    let Some(_) = external::kubectl() else { return };
    let s = Server::start("kubectl-410");
    let out = s.control("network watch-delay 4s\nset cache.capacity 2");
    assert_eq!(out[0], serde_json::json!({"network": {"watch-delay": "4s"}}));
    assert_eq!(out[1]["set"], "cache.capacity");
    let (out, err) = s.kubectl(&["create", "configmap", "a"]);
    assert_eq!(out.trim(), "configmap/a created", "{err}");

    let mut w = Command::new(kubectl())
        .args(["get", "configmaps", "-w", "--output-watch-events"])
        .env("KUBECONFIG", s.kubeconfig())
        .env_remove("KUBERNETES_SERVICE_HOST")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = w.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    // kubectl has listed; its watch is now on the wire, held by the network.
    s.wait_for_line("kubectl's list", |l| l == "GET /api/v1/namespaces/default/configmaps?limit=500");
    let (_, _, body) = s.http("GET", "/rvlab/v1/script?output=jsonl", &[], b"");
    let list_rv = String::from_utf8(body)
        .unwrap()
        .lines()
        .map(json_of)
        .rfind(|o| o["body"]["kind"] == "ConfigMapList")
        .and_then(|o| o["body"]["metadata"]["resourceVersion"].as_str().map(str::to_string))
        .expect("the list's output in the record");
    // Three writes: the cache keeps two events, so the list's resourceVersion leaves its window.
    let writes: String = ["b", "c", "d"]
        .iter()
        .map(|n| {
            format!("POST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"{n}\"}}}}\n")
        })
        .collect();
    let out = s.control(&writes);
    assert!(out.iter().all(|o| o["code"] == 201), "{out:#?}");
    assert!(
        !s.recorded().iter().any(|l| l.contains("watch=true")),
        "the watch reached the apiserver before the writes: {:#?}",
        s.recorded()
    );

    let t = Instant::now();
    let status = loop {
        if let Some(st) = w.try_wait().unwrap() {
            break st;
        }
        if t.elapsed() > Duration::from_secs(30) {
            let _ = w.kill();
            let _ = w.wait();
            panic!("kubectl get -w did not end after the 410; log:\n{}", s.recorded().join("\n"));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let printed = reader.join().unwrap();
    let mut stderr = String::new();
    let _ = w.stderr.take().unwrap().read_to_string(&mut stderr);
    let rows: Vec<Vec<&str>> =
        printed.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split_whitespace().collect()).collect();
    let oldest = list_rv.parse::<u64>().unwrap() + 1;
    let message = format!("too old resource version: {list_rv} ({oldest})");
    assert_eq!(rows.len(), 4, "kubectl printed:\n{printed}\nstderr:\n{stderr}");
    // The server prints (a Table per frame): printers.go printConfigMap's columns.
    assert_eq!(rows[0], ["EVENT", "NAME", "DATA", "AGE"]);
    assert_eq!(rows[1][..2], ["ADDED", "a"]);
    assert_eq!(rows[2], ["EVENT", "STATUS", "REASON", "MESSAGE"]);
    let error_row = format!("ERROR Failure Expired {message}");
    assert_eq!(rows[3].join(" "), error_row, "kubectl printed:\n{printed}");
    assert!(status.success(), "kubectl get -w ends with 0 when the stream ends: {status:?} {stderr}");

    // The record: the writes, then the watch from the list's resourceVersion, answered with the
    // 410 frame that closes it.
    let (_, _, body) = s.http("GET", "/rvlab/v1/script?output=jsonl", &[], b"");
    let outputs: Vec<Value> = String::from_utf8(body).unwrap().lines().map(json_of).collect();
    let log = s.recorded();
    let watch_at = log
        .iter()
        .position(|l| {
            *l == format!("GET /api/v1/namespaces/default/configmaps?resourceVersion={list_rv}&watch=true")
        })
        .unwrap_or_else(|| panic!("no watch from rv {list_rv}: {log:#?}"));
    let last_write = log.iter().rposition(|l| l.starts_with("POST ")).unwrap();
    assert!(last_write < watch_at, "{log:#?}");
    let id = outputs[watch_at]["watch"].as_str().unwrap();
    let read_at = log.iter().position(|l| *l == format!("events {id}")).unwrap();
    let events = outputs[read_at]["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{events:#?}");
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(
        events[0]["object"],
        serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": "Expired", "code": 410})
    );
    assert_eq!(outputs[read_at]["closed"], true);
    assert!(!log.iter().any(|l| l.starts_with("network")), "the network is not in the script");

    s.check_replay();
}

#[test]
fn python_client_pages_conflicts_and_410_retry_once() {
    let Some(py) = external::python() else { return };
    let s = Server::start("python");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve_clients/python_client.py");
    let out = Command::new(py).arg(script).arg(s.kubeconfig()).arg(s.url()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let seen = json_of(stdout.lines().last().unwrap_or(""));
    assert_eq!(seen["pages"], serde_json::json!([["p1"], ["p2"], ["p3"]]));
    assert_eq!(seen["create_again"], serde_json::json!([409, "AlreadyExists"]));
    assert_eq!(seen["stale_replace"], serde_json::json!([409, "Conflict"]));
    // kubernetes/watch/watch.py (37.0.2): one identical retry after ERROR 410, then ApiException.
    assert_eq!(seen["watch_410"], serde_json::json!([410, []]));
    assert_eq!(seen["watch_410_timeout"], serde_json::json!([410, []]));
    assert_eq!(seen["watch_after_write"], serde_json::json!([["ADDED", "p5"]]));

    let log = s.recorded();
    let watches: Vec<&String> = log.iter().filter(|l| l.contains("watch=true")).collect();
    assert_eq!(watches.len(), 4, "{log:#?}");
    assert_eq!(watches[0], watches[1], "the client re-sends the identical watch once");
    assert!(!watches[0].contains("timeoutSeconds"));
    assert!(watches[2].contains("timeoutSeconds=5"), "with timeout_seconds: no retry");
    assert!(watches[3].contains("timeoutSeconds=3"));
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("GET /api/v1/namespaces/py/configmaps?"))
            .filter(|l| l.contains("limit=1"))
            .count(),
        3
    );
    s.check_replay();
}

/// A consistent list on an apiserver whose watch cache lags waits alone, as in kube-apiserver
/// (`waitUntilFreshAndBlock`, apiserver `storage/cacher/cacher.go` @ v1.34.0: only the
/// request that waits blocks): the server holds it in wall time, another client's watch keeps
/// wall-time pace to its `timeoutSeconds`, the simulated clock never runs ahead of the wall,
/// and the record (with the held reads' `waited=`) replays to what the clients saw.
#[test]
fn a_read_waiting_for_a_lagging_cache_holds_only_itself() {
    const CMS: &str = "/api/v1/namespaces/default/configmaps";
    let s = Server::start("held");
    let started = Instant::now();
    s.control("set explain on\nset cache.lag 2s");
    let create = |name: &str| {
        let body = format!(r#"{{"metadata":{{"name":"{name}"}}}}"#);
        let (code, _, body) = s.http("POST", CMS, &[("Content-Type", "application/json")], body.as_bytes());
        assert_eq!(code, 201);
        json_of(std::str::from_utf8(&body).unwrap())["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let rv = create("a");
    // The other client: a watch from there, 4 s.
    let addr = s.addr.clone();
    let watch = std::thread::spawn(move || {
        let t = Instant::now();
        let target = format!("{CMS}?watch=true&resourceVersion={rv}&timeoutSeconds=4");
        let (code, _, _) = raw_http(&addr, "GET", &target, &[], b"");
        (code, t.elapsed())
    });
    s.wait_for_line("the watch", |l| l.contains("&timeoutSeconds=4"));
    // Three consistent lists, each after a write the lagging cache has not seen yet: each waits
    // for the cache (a script would move the clock on by each wait, 6 s in all).
    for name in ["b", "c", "d"] {
        let rv = create(name);
        let (code, _, body) = s.http("GET", CMS, &[], b"");
        assert_eq!(code, 200);
        let list = json_of(std::str::from_utf8(&body).unwrap());
        let rv_of_list: i64 = list["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap();
        assert!(rv_of_list >= rv.parse().unwrap(), "served once the cache reached {rv}: {list}");
        assert!(list["items"].as_array().unwrap().iter().any(|i| i["metadata"]["name"] == name));
    }
    let (code, lasted) = watch.join().unwrap();
    assert_eq!(code, 200);
    assert!(lasted >= Duration::from_millis(3500), "timeoutSeconds=4 ended after {lasted:?} of wall time");
    // The simulated clock (from the record's first line) is not ahead of the wall.
    let now = s.control("advance 0s")[0]["now"].as_str().unwrap().to_string();
    let sim = rvlab::clock::Duration::parse(&now).unwrap().0;
    let wall = started.elapsed().as_millis() as u64;
    assert!(sim <= wall + 250, "simulated {sim} ms, {wall} ms of wall time since the server started");
    let held: Vec<String> = s.recorded().into_iter().filter(|l| l.contains(" waited=")).collect();
    assert_eq!(held.len(), 3, "{held:?}");
    assert!(held.iter().all(|l| l.starts_with(&format!("GET {CMS} waited="))), "{held:?}");
    s.check_replay();
}

#[test]
fn discovery_negotiation_and_hostile_requests() {
    let s = Server::start("http");
    let (code, head, body) = s.http("GET", "/version", &[], b"");
    assert_eq!((code, json_of(std::str::from_utf8(&body).unwrap())["major"].clone()), (200, "1".into()));
    assert!(head.contains("content-type: application/json"));
    // Aggregated discovery is declined: plain APIVersions as application/json.
    let (code, head, body) = s.http(
        "GET",
        "/api",
        &[(
            "Accept",
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
        )],
        b"",
    );
    assert_eq!(code, 200);
    assert!(head.contains("content-type: application/json\r\n"), "{head}");
    assert_eq!(json_of(std::str::from_utf8(&body).unwrap())["kind"], "APIVersions");
    let (_, _, body) = s.http("GET", "/apis", &[], b"");
    assert_eq!(json_of(std::str::from_utf8(&body).unwrap())["kind"], "APIGroupList");
    let (_, _, body) = s.http("GET", "/api/v1", &[], b"");
    let names: Vec<String> = json_of(std::str::from_utf8(&body).unwrap())["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["pods", "configmaps"]);

    let status = |code: u16, body: &[u8]| -> (u16, Value) {
        let v = json_of(std::str::from_utf8(body).unwrap());
        assert_eq!(v["kind"], "Status");
        (code, v["reason"].clone())
    };
    let cm = "/api/v1/namespaces/default/configmaps";
    let (c, _, b) = s.http("PATCH", &format!("{cm}/a"), &[("Content-Type", "application/json")], b"{}");
    assert_eq!(status(c, &b), (415, "UnsupportedMediaType".into()));
    let (c, _, b) = s.http("OPTIONS", cm, &[], b"");
    assert_eq!(status(c, &b), (405, "MethodNotAllowed".into()));
    let (c, _, b) = s.http("POST", cm, &[("Content-Type", "application/yaml")], b"metadata: {}");
    assert_eq!(status(c, &b), (415, "UnsupportedMediaType".into()));
    let (c, _, b) =
        s.http("POST", cm, &[("Content-Type", "application/vnd.kubernetes.protobuf")], b"k8s\x00\xff\xff");
    assert_eq!(status(c, &b), (400, "BadRequest".into()));
    let (c, _, b) = s.http("POST", cm, &[("Content-Type", "application/json")], b"{\"metadata\":");
    assert_eq!(status(c, &b), (400, "BadRequest".into()));
    let big = vec![b' '; 3 * 1024 * 1024 + 1];
    let (c, _, b) = s.http("POST", cm, &[("Content-Type", "application/json")], &big);
    assert_eq!(status(c, &b), (413, "RequestEntityTooLarge".into()));
    let (c, _, b) = s.http("GET", cm, &[("Accept", "application/vnd.kubernetes.protobuf")], b"");
    assert_eq!(status(c, &b), (406, "NotAcceptable".into()));
    let (c, _, b) = s.http("GET", "/apis/apps/v1/deployments", &[], b"");
    assert_eq!(status(c, &b), (404, "NotFound".into()));
    let (c, _, b) = s.http("GET", &format!("{cm}?limit=abc"), &[], b"");
    assert_eq!(status(c, &b).0, 400);
    // Garbage on the wire closes that connection; the server keeps serving.
    let mut g = TcpStream::connect(&s.addr).unwrap();
    let _ = g.write_all(b"\x00\x01NOT HTTP\r\n\r\n");
    let mut sink = Vec::new();
    let _ = g.read_to_end(&mut sink);
    let (code, _, _) = s.http("GET", "/healthz", &[], b"");
    assert_eq!(code, 200);
}

/// A Pod with every kind of field a workload carries, as Go's `encoding/json` writes it (field
/// order of `k8s.io/api/core/v1/types.go`, zero values as `omitempty` and pointers decide).
const RICH_POD: &str = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"rich","creationTimestamp":null,"labels":{"app":"web"},"annotations":{"note":"x"},"finalizers":["example.com/f"]},"spec":{"volumes":[{"name":"conf","configMap":{"name":"web-conf","items":[{"key":"k","path":"p","mode":420}],"defaultMode":0,"optional":false}},{"name":"scratch","emptyDir":{"medium":"Memory","sizeLimit":"64Mi"}},{"name":"info","downwardAPI":{"items":[{"path":"labels","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels"}}]}}],"initContainers":[{"name":"init","image":"busybox:1.36","command":["sh","-c","true"],"resources":{}}],"containers":[{"name":"web","image":"nginx:1.27","command":["nginx"],"args":["-g","daemon off;"],"workingDir":"/srv","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"envFrom":[{"configMapRef":{"name":"web-env","optional":false}}],"env":[{"name":"MODE","value":"prod"},{"name":"POD_IP","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.podIP"}}},{"name":"MEM","valueFrom":{"resourceFieldRef":{"containerName":"web","resource":"limits.memory","divisor":"1Mi"}}}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"250m","memory":"64Mi"}},"volumeMounts":[{"name":"conf","readOnly":true,"mountPath":"/etc/web","subPath":"p"},{"name":"scratch","mountPath":"/tmp"}],"livenessProbe":{"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"initialDelaySeconds":5,"periodSeconds":10},"readinessProbe":{"tcpSocket":{"port":"http"},"failureThreshold":3},"startupProbe":{"exec":{"command":["cat","/tmp/ready"]},"terminationGracePeriodSeconds":0},"lifecycle":{"preStop":{"sleep":{"seconds":5}}},"terminationMessagePath":"/dev/termination-log","imagePullPolicy":"IfNotPresent","securityContext":{"capabilities":{"add":["NET_BIND_SERVICE"],"drop":["ALL"]},"privileged":false,"runAsUser":0,"runAsNonRoot":false,"readOnlyRootFilesystem":true,"allowPrivilegeEscalation":false,"seccompProfile":{"type":"RuntimeDefault"}},"stdin":true}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","nodeSelector":{"disk":"ssd"},"serviceAccountName":"web","automountServiceAccountToken":false,"securityContext":{"runAsUser":1000,"runAsGroup":3000,"supplementalGroups":[4000],"fsGroup":2000,"sysctls":[{"name":"net.core.somaxconn","value":"1024"}]},"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]}]}]}},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}}]}},"tolerations":[{"key":"dedicated","operator":"Exists","effect":"NoSchedule"},{"key":"k","operator":"Equal","value":"v","effect":"NoExecute","tolerationSeconds":0}],"priority":0,"enableServiceLinks":false},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-01-01T00:00:00Z"}],"hostIP":"10.0.0.1","podIP":"10.1.0.5","podIPs":[{"ip":"10.1.0.5"}],"startTime":"2026-01-01T00:00:00Z","containerStatuses":[{"name":"web","state":{"running":{"startedAt":"2026-01-01T00:00:01Z"}},"lastState":{},"ready":true,"restartCount":0,"image":"nginx:1.27","imageID":"docker.io/library/nginx@sha256:0","containerID":"containerd://abc","started":true}],"qosClass":"Burstable"}}"#;

/// [`RICH_POD`] built with k8s-pb, encoding every Go value field as gogo-protobuf (kubectl)
/// does: zero scalars included (they must not reach the JSON), unset pointers left out.
fn rich_pod_protobuf() -> Vec<u8> {
    use k8s_pb::api::core::v1 as core;
    use k8s_pb::apimachinery::pkg::api::resource::Quantity;
    use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
    use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
    use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
    use prost::Message;
    let s = |v: &str| Some(v.to_string());
    let strs = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let map = |kv: &[(&str, &str)]| kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let q = |v: &str| Quantity { string: s(v) };
    let qmap = |kv: &[(&str, &str)]| kv.iter().map(|(k, v)| (k.to_string(), q(v))).collect();
    let time = |secs: i64| Some(meta::Time { seconds: Some(secs), nanos: Some(0) });
    let t2026 = 1_767_225_600;
    // What gogo writes for a container's value fields left at zero.
    let container = |name: &str, image: &str| core::Container {
        name: s(name),
        image: s(image),
        working_dir: s(""),
        resources: Some(core::ResourceRequirements::default()),
        termination_message_path: s(""),
        termination_message_policy: s(""),
        image_pull_policy: s(""),
        stdin: Some(false),
        stdin_once: Some(false),
        tty: Some(false),
        ..Default::default()
    };
    let probe = |handler: core::ProbeHandler| core::Probe {
        handler: Some(handler),
        initial_delay_seconds: Some(0),
        timeout_seconds: Some(0),
        period_seconds: Some(0),
        success_threshold: Some(0),
        failure_threshold: Some(0),
        ..Default::default()
    };
    let mut web = container("web", "nginx:1.27");
    web.command = strs(&["nginx"]);
    web.args = strs(&["-g", "daemon off;"]);
    web.working_dir = s("/srv");
    web.ports = vec![core::ContainerPort {
        name: s("http"),
        host_port: Some(0),
        container_port: Some(8080),
        protocol: s("TCP"),
        host_ip: s(""),
    }];
    web.env_from = vec![core::EnvFromSource {
        prefix: s(""),
        config_map_ref: Some(core::ConfigMapEnvSource {
            local_object_reference: Some(core::LocalObjectReference { name: s("web-env") }),
            optional: Some(false),
        }),
        secret_ref: None,
    }];
    web.env = vec![
        core::EnvVar { name: s("MODE"), value: s("prod"), value_from: None },
        core::EnvVar {
            name: s("POD_IP"),
            value: s(""),
            value_from: Some(core::EnvVarSource {
                field_ref: Some(core::ObjectFieldSelector {
                    api_version: s("v1"),
                    field_path: s("status.podIP"),
                }),
                ..Default::default()
            }),
        },
        core::EnvVar {
            name: s("MEM"),
            value: s(""),
            value_from: Some(core::EnvVarSource {
                resource_field_ref: Some(core::ResourceFieldSelector {
                    container_name: s("web"),
                    resource: s("limits.memory"),
                    divisor: Some(q("1Mi")),
                }),
                ..Default::default()
            }),
        },
    ];
    web.resources = Some(core::ResourceRequirements {
        limits: qmap(&[("cpu", "500m"), ("memory", "128Mi")]),
        requests: qmap(&[("cpu", "250m"), ("memory", "64Mi")]),
        claims: vec![],
    });
    web.volume_mounts = vec![
        core::VolumeMount {
            name: s("conf"),
            read_only: Some(true),
            mount_path: s("/etc/web"),
            sub_path: s("p"),
            sub_path_expr: s(""),
            ..Default::default()
        },
        core::VolumeMount {
            name: s("scratch"),
            read_only: Some(false),
            mount_path: s("/tmp"),
            sub_path: s(""),
            sub_path_expr: s(""),
            ..Default::default()
        },
    ];
    let mut live = probe(core::ProbeHandler {
        http_get: Some(core::HttpGetAction {
            path: s("/healthz"),
            port: Some(IntOrString { r#type: Some(0), int_val: Some(8080), str_val: s("") }),
            host: s(""),
            scheme: s("HTTP"),
            http_headers: vec![],
        }),
        ..Default::default()
    });
    live.initial_delay_seconds = Some(5);
    live.period_seconds = Some(10);
    web.liveness_probe = Some(live);
    let mut ready = probe(core::ProbeHandler {
        tcp_socket: Some(core::TcpSocketAction {
            port: Some(IntOrString { r#type: Some(1), int_val: Some(0), str_val: s("http") }),
            host: s(""),
        }),
        ..Default::default()
    });
    ready.failure_threshold = Some(3);
    web.readiness_probe = Some(ready);
    let mut startup = probe(core::ProbeHandler {
        exec: Some(core::ExecAction { command: strs(&["cat", "/tmp/ready"]) }),
        ..Default::default()
    });
    startup.termination_grace_period_seconds = Some(0);
    web.startup_probe = Some(startup);
    web.lifecycle = Some(core::Lifecycle {
        pre_stop: Some(core::LifecycleHandler {
            sleep: Some(core::SleepAction { seconds: Some(5) }),
            ..Default::default()
        }),
        ..Default::default()
    });
    web.termination_message_path = s("/dev/termination-log");
    web.image_pull_policy = s("IfNotPresent");
    web.security_context = Some(core::SecurityContext {
        capabilities: Some(core::Capabilities { add: strs(&["NET_BIND_SERVICE"]), drop: strs(&["ALL"]) }),
        privileged: Some(false),
        run_as_user: Some(0),
        run_as_non_root: Some(false),
        read_only_root_filesystem: Some(true),
        allow_privilege_escalation: Some(false),
        seccomp_profile: Some(core::SeccompProfile { r#type: s("RuntimeDefault"), localhost_profile: None }),
        ..Default::default()
    });
    web.stdin = Some(true);
    let mut init = container("init", "busybox:1.36");
    init.command = strs(&["sh", "-c", "true"]);

    let volume =
        |name: &str, src: core::VolumeSource| core::Volume { name: s(name), volume_source: Some(src) };
    let spec = core::PodSpec {
        volumes: vec![
            volume(
                "conf",
                core::VolumeSource {
                    config_map: Some(core::ConfigMapVolumeSource {
                        local_object_reference: Some(core::LocalObjectReference { name: s("web-conf") }),
                        items: vec![core::KeyToPath { key: s("k"), path: s("p"), mode: Some(0o644) }],
                        default_mode: Some(0),
                        optional: Some(false),
                    }),
                    ..Default::default()
                },
            ),
            volume(
                "scratch",
                core::VolumeSource {
                    empty_dir: Some(core::EmptyDirVolumeSource {
                        medium: s("Memory"),
                        size_limit: Some(q("64Mi")),
                    }),
                    ..Default::default()
                },
            ),
            volume(
                "info",
                core::VolumeSource {
                    downward_api: Some(core::DownwardAPIVolumeSource {
                        items: vec![core::DownwardAPIVolumeFile {
                            path: s("labels"),
                            field_ref: Some(core::ObjectFieldSelector {
                                api_version: s("v1"),
                                field_path: s("metadata.labels"),
                            }),
                            ..Default::default()
                        }],
                        default_mode: None,
                    }),
                    ..Default::default()
                },
            ),
        ],
        init_containers: vec![init],
        containers: vec![web],
        restart_policy: s("Always"),
        termination_grace_period_seconds: Some(30),
        dns_policy: s("ClusterFirst"),
        node_selector: map(&[("disk", "ssd")]),
        service_account_name: s("web"),
        service_account: s(""),
        automount_service_account_token: Some(false),
        node_name: s(""),
        host_network: Some(false),
        host_pid: Some(false),
        host_ipc: Some(false),
        security_context: Some(core::PodSecurityContext {
            run_as_user: Some(1000),
            run_as_group: Some(3000),
            supplemental_groups: vec![4000],
            fs_group: Some(2000),
            sysctls: vec![core::Sysctl { name: s("net.core.somaxconn"), value: s("1024") }],
            ..Default::default()
        }),
        hostname: s(""),
        subdomain: s(""),
        affinity: Some(core::Affinity {
            node_affinity: Some(core::NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(core::NodeSelector {
                    node_selector_terms: vec![core::NodeSelectorTerm {
                        match_expressions: vec![core::NodeSelectorRequirement {
                            key: s("zone"),
                            operator: s("In"),
                            values: strs(&["a", "b"]),
                        }],
                        match_fields: vec![],
                    }],
                }),
                preferred_during_scheduling_ignored_during_execution: vec![],
            }),
            pod_affinity: None,
            pod_anti_affinity: Some(core::PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![],
                preferred_during_scheduling_ignored_during_execution: vec![core::WeightedPodAffinityTerm {
                    weight: Some(100),
                    pod_affinity_term: Some(core::PodAffinityTerm {
                        label_selector: Some(meta::LabelSelector {
                            match_labels: map(&[("app", "web")]),
                            match_expressions: vec![],
                        }),
                        topology_key: s("kubernetes.io/hostname"),
                        ..Default::default()
                    }),
                }],
            }),
        }),
        scheduler_name: s(""),
        tolerations: vec![
            core::Toleration {
                key: s("dedicated"),
                operator: s("Exists"),
                value: s(""),
                effect: s("NoSchedule"),
                toleration_seconds: None,
            },
            core::Toleration {
                key: s("k"),
                operator: s("Equal"),
                value: s("v"),
                effect: s("NoExecute"),
                toleration_seconds: Some(0),
            },
        ],
        priority_class_name: s(""),
        priority: Some(0),
        enable_service_links: Some(false),
        ..Default::default()
    };
    let status = core::PodStatus {
        phase: s("Running"),
        conditions: vec![core::PodCondition {
            r#type: s("Ready"),
            status: s("True"),
            last_probe_time: time(0),
            last_transition_time: time(t2026),
            reason: s(""),
            message: s(""),
            ..Default::default()
        }],
        message: s(""),
        reason: s(""),
        nominated_node_name: s(""),
        host_ip: s("10.0.0.1"),
        pod_ip: s("10.1.0.5"),
        pod_ips: vec![core::PodIp { ip: s("10.1.0.5") }],
        start_time: time(t2026),
        container_statuses: vec![core::ContainerStatus {
            name: s("web"),
            state: Some(core::ContainerState {
                running: Some(core::ContainerStateRunning { started_at: time(t2026 + 1) }),
                ..Default::default()
            }),
            last_state: Some(core::ContainerState::default()),
            ready: Some(true),
            restart_count: Some(0),
            image: s("nginx:1.27"),
            image_id: s("docker.io/library/nginx@sha256:0"),
            container_id: s("containerd://abc"),
            started: Some(true),
            ..Default::default()
        }],
        qos_class: s("Burstable"),
        resize: s(""),
        ..Default::default()
    };
    let pod = core::Pod {
        metadata: Some(meta::ObjectMeta {
            name: s("rich"),
            generate_name: s(""),
            namespace: s(""),
            self_link: s(""),
            uid: s(""),
            resource_version: s(""),
            generation: Some(0),
            creation_timestamp: time(0),
            labels: map(&[("app", "web")]),
            annotations: map(&[("note", "x")]),
            finalizers: strs(&["example.com/f"]),
            ..Default::default()
        }),
        spec: Some(spec),
        status: Some(status),
    };
    let envelope = Unknown {
        type_meta: Some(TypeMeta { api_version: s("v1"), kind: s("Pod") }),
        raw: Some(pod.encode_to_vec()),
        content_encoding: s(""),
        content_type: s(""),
    };
    let mut body = b"k8s\x00".to_vec();
    body.extend(envelope.encode_to_vec());
    body
}

#[test]
fn a_protobuf_pod_is_stored_exactly_as_its_json() {
    let s = Server::start("protobuf");
    let pods = "/api/v1/namespaces/default/pods";
    let get = |s: &Server| {
        let (code, _, body) = s.http("GET", &format!("{pods}/rich"), &[], b"");
        assert_eq!(code, 200);
        let mut v = json_of(std::str::from_utf8(&body).unwrap());
        // What the server sets itself differs between the two creates.
        for f in ["uid", "resourceVersion", "creationTimestamp", "managedFields"] {
            v["metadata"].as_object_mut().unwrap().remove(f);
        }
        v.to_string()
    };
    let (code, _, body) = s.http("POST", pods, &[("Content-Type", "application/json")], RICH_POD.as_bytes());
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&body));
    let from_json = get(&s);
    assert_eq!(s.http("DELETE", &format!("{pods}/rich"), &[], b"").0, 200);
    let (code, _, body) = s.http(
        "POST",
        pods,
        &[("Content-Type", "application/vnd.kubernetes.protobuf")],
        &rich_pod_protobuf(),
    );
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&body));
    let from_protobuf = get(&s);
    assert_eq!(from_protobuf, from_json);
    // Byte for byte: the same keys in the same (Go) order, not only the same values.
    let mut expected = json_of(RICH_POD);
    expected["metadata"]["namespace"] = "default".into();
    assert!(from_json.contains(r#""securityContext":{"capabilities""#));
    assert_eq!(json_of(&from_json)["spec"], expected["spec"]);
    // The status the client sent is not stored: the pod strategy's PrepareForCreate sets
    // `{phase: Pending, qosClass}`, the class taken from the sent status when it has one
    // (`pkg/registry/core/pod/strategy.go`, `qos.GetPodQOS`).
    assert_eq!(expected["status"]["qosClass"], "Burstable");
    assert_eq!(
        json_of(&from_json)["status"],
        serde_json::json!({"phase": "Pending", "qosClass": "Burstable"})
    );
    s.check_replay();
}

#[test]
fn kubectl_create_replace_and_apply_a_rich_pod() {
    let Some(_) = external::kubectl() else { return };
    let s = Server::start("kubectl-pod");
    let mut pod = json_of(RICH_POD);
    pod.as_object_mut().unwrap().remove("status");
    let file = s.dir.join("pod.json");
    std::fs::write(&file, pod.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let (out, err) = s.kubectl(&["create", "-f", f]);
    assert_eq!(out.trim(), "pod/rich created", "{err}");
    let (out, _) = s.kubectl(&["get", "pod", "rich", "-o", "json"]);
    assert_eq!(json_of(&out)["spec"], pod["spec"], "kubectl's protobuf Pod keeps every field");

    // replace: PUT with the object kubectl read back, as protobuf.
    let mut changed: Value = json_of(&out);
    changed["spec"]["containers"][0]["image"] = "nginx:1.28".into();
    std::fs::write(&file, changed.to_string()).unwrap();
    let (out, err) = s.kubectl(&["replace", "-f", f]);
    assert_eq!(out.trim(), "pod/rich replaced", "{err}");
    let (out, _) = s.kubectl(&["get", "pod", "rich", "-o", "json"]);
    assert_eq!(json_of(&out)["spec"], changed["spec"]);
    assert!(
        s.recorded().iter().any(|l| l.starts_with("PUT /api/v1/namespaces/default/pods/rich?")),
        "{:#?}",
        s.recorded()
    );

    // apply: a new object is created with the last-applied annotation, a change is a patch.
    pod["metadata"]["name"] = "applied".into();
    std::fs::write(&file, pod.to_string()).unwrap();
    let (out, err) = s.kubectl(&["apply", "-f", f]);
    assert_eq!(out.trim(), "pod/applied created", "{err}");
    pod["spec"]["containers"][0]["env"][0]["value"] = "staging".into();
    std::fs::write(&file, pod.to_string()).unwrap();
    let (out, err) = s.kubectl(&["apply", "-f", f]);
    assert_eq!(out.trim(), "pod/applied configured", "{err}");
    let (out, _) = s.kubectl(&["get", "pod", "applied", "-o", "json"]);
    let got = json_of(&out);
    assert_eq!(got["spec"], pod["spec"]);
    let last: Value = serde_json::from_str(
        got["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(last["spec"], pod["spec"]);
    assert!(s.recorded().iter().any(|l| l.starts_with("PATCH /api/v1/namespaces/default/pods/applied?")));

    // Server-side printing: kubectl asks for a meta.k8s.io/v1 Table and prints its columns
    // (printers.go printPod; the server prints wide, kubectl hides priority-1 columns).
    let (out, err) = s.kubectl(&["get", "pods", "-v=8"]);
    assert!(
        err.contains("Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"),
        "{err}"
    );
    assert!(err.contains(r#"\"kind\":\"Table\",\"apiVersion\":\"meta.k8s.io/v1\""#), "{err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["NAME", "READY", "STATUS", "RESTARTS", "AGE"], "{out}");
    for (row, name) in rows[1..].iter().zip(["applied", "rich"]) {
        assert_eq!(row[..4], [name, "0/1", "Pending", "0"], "{out}");
        assert!(row[4].ends_with('s') && row[4][..row[4].len() - 1].parse::<u32>().is_ok(), "{out}");
    }
    let (out, _) = s.kubectl(&["get", "pods", "-o", "wide"]);
    let header: Vec<&str> = out.lines().next().unwrap_or("").split_whitespace().collect();
    assert_eq!(
        header,
        [
            "NAME",
            "READY",
            "STATUS",
            "RESTARTS",
            "AGE",
            "IP",
            "NODE",
            "NOMINATED",
            "NODE",
            "READINESS",
            "GATES"
        ]
    );
    let (out, _) = s.kubectl(&["get", "pod", "rich", "-o", "wide", "--no-headers"]);
    let cells: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(
        [cells[0], cells[5], cells[6], cells[7], cells[8]],
        ["rich", "<none>", "<none>", "<none>", "<none>"]
    );

    // explain: kubectl 1.32 reads the schemas from /openapi/v3 (explain.go: v3 when the server
    // has it); /openapi/v2 is the same document as Swagger 2.0, JSON only.
    let (out, err) = s.kubectl(&["explain", "pods"]);
    assert!(
        out.starts_with("KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n    Pod is a collection of containers that can run on a host."),
        "{out}{err}"
    );
    let fields: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(fields, ["apiVersion", "kind", "metadata", "spec", "status"], "{out}");
    let (out, err) = s.kubectl(&["explain", "configmaps.data"]);
    assert!(
        out.starts_with("KIND:       ConfigMap\nVERSION:    v1\n\nFIELD: data <map[string]string>\n"),
        "{out}{err}"
    );
    assert!(out.contains("Data contains the configuration data."), "{out}");
    let (out, _) = s.kubectl(&["explain", "pods.spec.containers.securityContext.privileged"]);
    assert!(out.contains("FIELD: privileged <boolean>"), "{out}");
    let (code, head, body) = s.http("GET", "/openapi/v2", &[], b"");
    assert_eq!(code, 200);
    assert!(head.contains("content-type: application/json"), "{head}");
    let v2 = json_of(std::str::from_utf8(&body).unwrap());
    assert_eq!(v2["swagger"], "2.0");
    assert_eq!(
        v2["definitions"]["io.k8s.api.core.v1.ConfigMap"]["x-kubernetes-group-version-kind"],
        serde_json::json!([{"group": "", "kind": "ConfigMap", "version": "v1"}])
    );
    // The protobuf form client-go's OpenAPISchema() asks for (gnostic openapi.v2.Document), read
    // by kubectl's v2 explain; a format kube-openapi's handler does not offer is a 406.
    let (out, err) = s.kubectl(&["explain", "configmaps.data", "--output=plaintext-openapiv2"]);
    assert!(
        out.starts_with("KIND:     ConfigMap\nVERSION:  v1\n\nFIELD:    data <map[string]string>\n"),
        "{out}{err}"
    );
    let (out, err) = s.kubectl(&["explain", "pods", "--output=plaintext-openapiv2"]);
    assert!(out.contains("Pod is a collection of containers that can run on a host."), "{out}{err}");
    let (code, head, _) = s.http(
        "GET",
        "/openapi/v2",
        &[("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")],
        b"",
    );
    assert_eq!(code, 200);
    assert!(
        head.contains("content-type: application/com.github.proto-openapi.spec.v2.v1.0+protobuf"),
        "{head}"
    );
    let (code, _, _) = s.http("GET", "/openapi/v2", &[("Accept", "text/html")], b"");
    assert_eq!(code, 406);
    s.check_replay();
}
