//! The real clients, run as their own processes against the kubeconfig `rvlab serve` wrote:
//! `kubectl get configmaps --watch` (started again whenever it exits, as a user would), and the
//! drivers of the recovery chapter — the Python client's watch loop
//! (`tests/serve_clients/python_watch.py`), client-node's informer
//! (`tests/serve_clients/node_informer.mjs`) and the kube-rs controller
//! (`examples/controller.rs`), each printing its cache whenever it changes.
//!
//! What each saw is checked as it arrives: kubectl's events per process (after its list, every
//! event newer than the one before; per object, never the same resourceVersion twice), the
//! drivers' caches (an object's resourceVersion never goes back, and an object once gone never
//! comes back at a resourceVersion it had). At the end every client's cache must equal the
//! server's state, and every (name, resourceVersion) any of them held must be a write's answer.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use rvlab::tools::on_path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Kubectl,
    Python,
    ClientNode,
    KubeRs,
}

impl Kind {
    pub fn id(self) -> &'static str {
        match self {
            Kind::Kubectl => "kubectl",
            Kind::Python => "python",
            Kind::ClientNode => "client-node",
            Kind::KubeRs => "kube-rs",
        }
    }
}

/// Where the real clients are (`--kubectl-bin`, `--python`, `--client-node`, `--controller`, or
/// where `./dev.sh` installs them).
#[derive(Debug, Clone, Default)]
pub struct Tools {
    pub kubectl: Option<PathBuf>,
    pub python: Option<PathBuf>,
    pub client_node: Option<PathBuf>,
    pub controller: Option<PathBuf>,
}

impl Tools {
    /// Fills in what was not given; returns what is missing, with why.
    pub fn resolve(&mut self) -> Vec<String> {
        let mut missing = Vec::new();
        if self.kubectl.is_none() {
            self.kubectl = on_path("kubectl");
        }
        if self.kubectl.is_none() {
            missing.push("kubectl: not on PATH".to_string());
        }
        match rvlab::tools::python_client(self.python.take()) {
            Ok(p) => self.python = Some(p),
            Err(m) => missing.push(m.to_string()),
        }
        match rvlab::tools::client_node(self.client_node.take()) {
            Ok(d) => self.client_node = Some(d),
            Err(m) => missing.push(m.to_string()),
        }
        let controller = self.controller.clone().or_else(|| {
            let exe = std::env::current_exe().ok()?;
            Some(exe.parent()?.join("examples").join("controller"))
        });
        match controller {
            Some(c) if c.is_file() => self.controller = Some(c),
            other => {
                self.controller = None;
                missing.push(format!(
                    "the kube-rs controller (`cargo build --example controller`): {}",
                    other.map_or_else(|| "no path".into(), |p| p.display().to_string())
                ));
            }
        }
        missing
    }
}

/// What one client saw, checked as it arrived.
#[derive(Debug, Default)]
pub struct Seen {
    /// Its cache now: name → resourceVersion.
    pub cache: Option<BTreeMap<String, i64>>,
    /// Per object, the newest resourceVersion seen (per process for kubectl).
    newest: HashMap<String, i64>,
    /// Every (name, resourceVersion) it held, to be matched with the writers' answers.
    pub pairs: HashSet<(String, i64)>,
    pub violations: Vec<String>,
    /// Cache snapshots (drivers) or events (kubectl) received.
    pub updates: u64,
    pub errors: u64,
    pub first_errors: Vec<String>,
    /// kubectl: processes started, and how they ended.
    pub processes: u64,
    pub exits: BTreeMap<String, u64>,
}

impl Seen {
    fn violation(&mut self, msg: String) {
        if self.violations.len() < 20 {
            self.violations.push(msg);
        }
    }

    fn error(&mut self, msg: &str) {
        self.errors += 1;
        if self.first_errors.len() < 5 {
            self.first_errors.push(msg.to_string());
        }
    }

    /// A driver's `{"cache":[["name","rv"],…]}`.
    fn snapshot(&mut self, items: &[Value]) {
        self.updates += 1;
        let mut next = BTreeMap::new();
        for it in items {
            let (Some(name), Some(rv)) = (it[0].as_str(), it[1].as_str().and_then(|r| r.parse::<i64>().ok()))
            else {
                self.violation(format!("a cache entry that is not [name, resourceVersion]: {it}"));
                continue;
            };
            next.insert(name.to_string(), rv);
        }
        let prev = self.cache.take().unwrap_or_default();
        for (name, &rv) in &next {
            if let Some(&p) = self.newest.get(name) {
                if rv < p {
                    self.violation(format!("{name} went back from {p} to {rv}"));
                } else if rv == p && !prev.contains_key(name) {
                    self.violation(format!("{name} came back at {rv} after it was gone"));
                }
            }
            let e = self.newest.entry(name.clone()).or_insert(rv);
            *e = (*e).max(rv);
            self.pairs.insert((name.clone(), rv));
        }
        self.cache = Some(next);
    }
}

pub struct Client {
    pub kind: Kind,
    pub label: String,
    pub seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
    child: Arc<Mutex<Option<Child>>>,
    stdin: Option<ChildStdin>,
    thread: Option<std::thread::JoinHandle<()>>,
    stderr: PathBuf,
}

fn lock(seen: &Arc<Mutex<Seen>>) -> std::sync::MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(|p| p.into_inner())
}

impl Client {
    pub fn snapshot(&self) -> Option<BTreeMap<String, i64>> {
        lock(&self.seen).cache.clone()
    }

    /// The client leaves: a driver's stdin is closed (it must exit 0), kubectl is killed.
    pub fn leave(&mut self) -> Option<String> {
        self.stop.store(true, Ordering::SeqCst);
        drop(self.stdin.take());
        let mut problem = None;
        if self.kind == Kind::Kubectl {
            if let Some(c) = self.child.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                let _ = c.kill();
            }
        } else {
            let t = std::time::Instant::now();
            loop {
                let mut guard = self.child.lock().unwrap_or_else(|p| p.into_inner());
                let Some(c) = guard.as_mut() else { break };
                match c.try_wait() {
                    Ok(Some(status)) => {
                        if !status.success() {
                            problem =
                                Some(format!("{}: exited {status} at the end of its stdin", self.label));
                        }
                        break;
                    }
                    _ if t.elapsed() > Duration::from_secs(10) => {
                        let _ = c.kill();
                        problem = Some(format!("{}: did not exit at the end of its stdin", self.label));
                        break;
                    }
                    _ => {}
                }
                drop(guard);
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        problem
    }

    pub fn stderr_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        drop(self.stdin.take());
        if let Some(c) = self.child.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn drivers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve_clients")
}

/// Starts a driver (Python, client-node, kube-rs) that speaks the driver protocol.
pub fn start_driver(kind: Kind, tools: &Tools, kubeconfig: &Path, dir: &Path) -> Result<Client, String> {
    let mut cmd = match kind {
        Kind::Python => {
            let mut c = Command::new(tools.python.as_ref().ok_or("no python")?);
            c.arg(drivers_dir().join("python_watch.py")).arg(kubeconfig).arg("default");
            c
        }
        Kind::ClientNode => {
            let mut c = Command::new("node");
            c.arg(drivers_dir().join("node_informer.mjs"))
                .arg(tools.client_node.as_ref().ok_or("no client-node")?)
                .arg(kubeconfig)
                .arg("default");
            c
        }
        Kind::KubeRs => {
            let mut c = Command::new(tools.controller.as_ref().ok_or("no controller")?);
            c.arg("--kubeconfig").arg(kubeconfig).args(["--namespace", "default"]);
            c
        }
        Kind::Kubectl => return Err("kubectl is not a driver".into()),
    };
    let stderr_path = dir.join(format!("{}.stderr", kind.id()));
    let stderr = std::fs::File::create(&stderr_path).map_err(|e| e.to_string())?;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("starting {}: {e}", kind.id()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let stdin = child.stdin.take();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let thread = {
        let seen = seen.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                let mut s = lock(&seen);
                if let Some(items) = v["cache"].as_array() {
                    s.snapshot(items);
                } else if let Some(e) = v["error"].as_str() {
                    s.error(e);
                } else if v.get("reconciled").is_none() {
                    s.violation(format!("printed {line:?}: neither cache nor error"));
                }
            }
        })
    };
    lock(&seen).processes = 1;
    Ok(Client {
        kind,
        label: kind.id().to_string(),
        seen,
        stop: Arc::new(AtomicBool::new(false)),
        child: Arc::new(Mutex::new(Some(child))),
        stdin,
        thread: Some(thread),
        stderr: stderr_path,
    })
}

/// `kubectl get configmaps --watch --output-watch-events -o json`, started again (after 1 s)
/// whenever it exits — at a restart, a dropped connection or an ERROR event — until the run ends.
pub fn start_kubectl(n: usize, tools: &Tools, kubeconfig: &Path, dir: &Path) -> Result<Client, String> {
    let kubectl = tools.kubectl.clone().ok_or("no kubectl")?;
    let label = format!("kubectl-{n}");
    let stderr_path = dir.join(format!("{label}.stderr"));
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let child: Arc<Mutex<Option<Child>>> = Arc::new(Mutex::new(None));
    let kubeconfig = kubeconfig.to_path_buf();
    let thread = {
        let (seen, stop, child, stderr_path) =
            (seen.clone(), stop.clone(), child.clone(), stderr_path.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let stderr = std::fs::OpenOptions::new().create(true).append(true).open(&stderr_path);
                let spawned = Command::new(&kubectl)
                    .args([
                        "get",
                        "configmaps",
                        "-n",
                        "default",
                        "--watch",
                        "--output-watch-events",
                        "-o",
                        "json",
                    ])
                    .arg("--kubeconfig")
                    .arg(&kubeconfig)
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(stderr.map(Stdio::from).unwrap_or_else(|_| Stdio::null()))
                    .spawn();
                let mut c = match spawned {
                    Ok(c) => c,
                    Err(e) => {
                        lock(&seen).violation(format!("starting kubectl: {e}"));
                        return;
                    }
                };
                let Some(stdout) = c.stdout.take() else { return };
                {
                    let mut guard = child.lock().unwrap_or_else(|p| p.into_inner());
                    // `leave` sets the flag before it takes the lock: a process started after
                    // its kill ends here.
                    if stop.load(Ordering::SeqCst) {
                        let _ = c.kill();
                    }
                    *guard = Some(c);
                }
                lock(&seen).processes += 1;
                read_kubectl(stdout, &seen);
                let status =
                    child.lock().unwrap_or_else(|p| p.into_inner()).take().and_then(|mut c| c.wait().ok());
                let how = status.map_or_else(|| "unknown".to_string(), |s| s.to_string());
                *lock(&seen).exits.entry(how).or_default() += 1;
                for _ in 0..10 {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        })
    };
    Ok(Client {
        kind: Kind::Kubectl,
        label,
        seen,
        stop,
        child,
        stdin: None,
        thread: Some(thread),
        stderr: stderr_path,
    })
}

/// One kubectl process's output: its list (a run of ADDED events in name order: the list is
/// sorted by name), then its watch's events, each newer than the one before.
fn read_kubectl(stdout: std::process::ChildStdout, seen: &Arc<Mutex<Seen>>) {
    let mut cache: BTreeMap<String, i64> = BTreeMap::new();
    lock(seen).cache = Some(cache.clone());
    let mut newest: HashMap<String, i64> = HashMap::new();
    let mut in_list = true;
    let mut last_name = String::new();
    let mut last_rv = 0i64;
    let stream = serde_json::Deserializer::from_reader(BufReader::new(stdout)).into_iter::<Value>();
    for v in stream {
        let Ok(v) = v else { break };
        let mut s = lock(seen);
        s.updates += 1;
        let ty = v["type"].as_str().unwrap_or("");
        let o = &v["object"];
        if ty == "ERROR" {
            s.error(o["message"].as_str().unwrap_or(""));
            continue;
        }
        let name = o["metadata"]["name"].as_str().unwrap_or("").to_string();
        let Some(rv) = o["metadata"]["resourceVersion"].as_str().and_then(|r| r.parse::<i64>().ok()) else {
            s.violation(format!("an event without a resourceVersion: {v}"));
            continue;
        };
        if in_list && !(ty == "ADDED" && name > last_name) {
            in_list = false;
        }
        if in_list {
            last_name = name.clone();
            last_rv = last_rv.max(rv);
        } else {
            if rv <= last_rv {
                s.violation(format!(
                    "{ty} {name} at {rv} after an event at {last_rv} (out of order or twice)"
                ));
            }
            last_rv = last_rv.max(rv);
        }
        if let Some(&p) = newest.get(&name)
            && rv <= p
        {
            s.violation(format!("{ty} {name} at {rv}, after it was seen at {p}"));
        }
        newest.insert(name.clone(), rv);
        match ty {
            "ADDED" | "MODIFIED" => {
                s.pairs.insert((name.clone(), rv));
                cache.insert(name, rv);
            }
            "DELETED" => {
                cache.remove(&name);
            }
            "BOOKMARK" => {}
            other => s.violation(format!("an event of type {other:?}")),
        }
        s.cache = Some(cache.clone());
    }
}
