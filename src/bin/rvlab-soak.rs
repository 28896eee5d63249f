//! `rvlab-soak`: `rvlab serve` under load and faults, checked against what the writers wrote.
//!
//! It starts `rvlab serve` on a free loopback port, then for `--seconds` of wall time runs
//! `--watches` concurrent watches on the configmaps of `default` and `--writers` writers that
//! create, update and delete their own configmaps, while it compacts etcd every few seconds
//! through the control endpoint, drops watch connections mid-stream, leaves half-open
//! connections and reads some watches deliberately slowly (`--slow`). Every watch resumes
//! from the last resourceVersion it saw, as client-go's reflector does, and relists after a 410.
//!
//! At the end every watch's frames are checked against the writers' answers (their
//! resourceVersions): each stream delivered, in order, with no gap and no duplicate, every
//! change after its start, or it ended for a cause that explains it — its timeoutSeconds, a 410
//! whose message shows the start was below the watch cache's window, or, for a slow reader
//! only, the slow-consumer cut-off. Every revision etcd made is accounted for by a write.
//! One JSON object on stdout reports the figures (peak RSS of the server from /proc, watches
//! held, events delivered, requests per second, faults injected, lost); the exit code is 1 when
//! anything was lost or unexplained.
//!
//! Host only; loopback only; bounded in time (it stops by itself) and in connections.
//! Usage: `rvlab-soak [--seconds N] [--watches N] [--writers N] [--slow N] [--rate N]
//! [--seed N] [--server PATH]` (`./dev.sh soak [SECONDS]`, `tests/soak.rs`).
fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(soak::main());
}

#[cfg(not(target_arch = "wasm32"))]
mod soak {
    use std::cell::RefCell;
    use std::collections::{BTreeMap, HashMap};
    use std::io::BufRead;
    use std::net::SocketAddr;
    use std::path::PathBuf;
    use std::process::{Child, Command, Stdio};
    use std::rc::Rc;
    use std::time::{Duration, Instant};

    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper::body::Incoming;
    use hyper::client::conn::http1::SendRequest;
    use hyper_util::rt::TokioIo;
    use serde_json::{Value, json};
    use tokio::io::AsyncWriteExt;
    use tokio::net::{TcpSocket, TcpStream};

    const NS_PATH: &str = "/api/v1/namespaces/default/configmaps";
    /// Keys each writer owns.
    const KEYS_PER_WRITER: u64 = 4;
    /// The watch cache's history capacity for the run, so that its window moves within
    /// seconds and a watch resumed from far behind meets a 410.
    const CACHE_CAPACITY: u64 = 500;
    /// How often etcd is compacted, and how far behind the newest write.
    const COMPACT_EVERY: Duration = Duration::from_secs(3);
    const COMPACT_BEHIND: i64 = 200;
    /// How long, after the writers stop, live watches have to deliver the last write.
    const DRAIN: Duration = Duration::from_secs(10);

    #[derive(Debug, Clone)]
    struct Config {
        seconds: u64,
        watches: usize,
        writers: usize,
        slow: usize,
        /// Writes per second per writer (each writer waits for its answer too).
        rate: u64,
        seed: u64,
        server: PathBuf,
    }

    impl Config {
        fn parse(args: &[String]) -> Result<Config, String> {
            let server = std::env::current_exe()
                .map_err(|e| e.to_string())?
                .with_file_name(if cfg!(windows) { "rvlab.exe" } else { "rvlab" });
            let mut c =
                Config { seconds: 60, watches: 200, writers: 20, slow: 10, rate: 10, seed: 1, server };
            let mut it = args.iter();
            while let Some(a) = it.next() {
                let mut num = |max: u64| -> Result<u64, String> {
                    let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                    v.parse::<u64>()
                        .ok()
                        .filter(|n| *n <= max)
                        .ok_or_else(|| format!("{a} {v:?}: expected a number, at most {max}"))
                };
                match a.as_str() {
                    "--seconds" => c.seconds = num(3600)?.max(1),
                    "--watches" => c.watches = num(1000)? as usize,
                    "--writers" => c.writers = num(100)?.max(1) as usize,
                    "--slow" => c.slow = num(1000)? as usize,
                    "--rate" => c.rate = num(1000)?.max(1),
                    "--seed" => c.seed = num(u64::MAX)?,
                    "--server" => {
                        c.server = PathBuf::from(it.next().ok_or("--server needs a value")?);
                    }
                    other => return Err(format!("unknown argument {other}")),
                }
            }
            c.slow = c.slow.min(c.watches);
            Ok(c)
        }
    }

    // The run's schedule (keys, operations, timeouts) comes from `--seed`.
    use rvlab::clock::Rng;

    /// A change a writer made, as its answer told it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Write {
        ty: &'static str,
        name: String,
    }

    /// A delete: its revision is not in the answer (a configmap delete answers with a Status),
    /// only that it lies after `after` and before the writer's next write.
    #[derive(Debug, Clone)]
    struct Delete {
        name: String,
        after: i64,
        before: Option<i64>,
        seen_at: Option<i64>,
    }

    #[derive(Debug, Clone, PartialEq)]
    enum End {
        /// The server closed the stream once its timeoutSeconds had passed.
        Timeout,
        /// The server closed it early: only a slow reader may see this (the slow-consumer rule).
        ClosedEarly,
        /// An ERROR frame (or a non-200 answer) with this Status.
        Error(Value),
        /// The run ended, or the fault injector dropped the connection.
        ClientStopped,
        /// The connection failed.
        Broken(String),
    }

    #[derive(Debug)]
    struct Segment {
        slot: usize,
        slow: bool,
        start_rv: i64,
        events: Vec<(i64, String, String)>,
        end: End,
    }

    #[derive(Default)]
    struct State {
        writes: BTreeMap<i64, Write>,
        deletes: Vec<Delete>,
        segments: Vec<Segment>,
        failures: Vec<String>,
        requests: u64,
        watches_opened: u64,
        open_now: u64,
        open_peak: u64,
        frames: u64,
        compactions: u64,
        dropped_mid_stream: u64,
        half_open: u64,
        stale_watches: u64,
        slow_cutoffs: u64,
        expired: u64,
        writers_done: usize,
        /// The newest revision a writer was answered with, once all writers have stopped.
        final_rv: Option<i64>,
        newest_rv: i64,
    }

    type Shared = Rc<RefCell<State>>;

    fn fail(st: &Shared, msg: String) {
        let mut s = st.borrow_mut();
        if s.failures.len() < 50 {
            s.failures.push(msg);
        }
    }

    struct Server {
        child: Child,
        dir: PathBuf,
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn start_server(cfg: &Config) -> Result<(Server, SocketAddr), String> {
        let dir = std::env::temp_dir().join(format!("rvlab-soak-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let mut child = Command::new(&cfg.server)
            .args(["serve", "--http", "--listen", "127.0.0.1:0", "--dist", "/nonexistent", "--kubeconfig"])
            .arg(dir.join("kubeconfig"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", cfg.server.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let server = Server { child, dir };
        let mut first = String::new();
        std::io::BufReader::new(stdout).read_line(&mut first).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&first).map_err(|e| format!("first line {first:?}: {e}"))?;
        let addr = v["listening"]
            .as_str()
            .and_then(|u| u.strip_prefix("http://"))
            .and_then(|a| a.parse::<SocketAddr>().ok())
            .ok_or_else(|| format!("no address in {first:?}"))?;
        if !addr.ip().is_loopback() {
            return Err(format!("{addr} is not loopback"));
        }
        Ok((server, addr))
    }

    /// Peak and current resident set size of a process, in KiB (`VmHWM`, `VmRSS`).
    fn rss_kib(pid: u32) -> (u64, u64) {
        let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        (field("VmHWM:"), field("VmRSS:"))
    }

    async fn connect(addr: SocketAddr, small_buffer: bool) -> Result<SendRequest<Full<Bytes>>, String> {
        let stream = if small_buffer {
            // A slow reader's receive window is small, so the server's writes back up sooner.
            let sock = TcpSocket::new_v4().map_err(|e| e.to_string())?;
            sock.set_recv_buffer_size(4096).map_err(|e| e.to_string())?;
            sock.connect(addr).await.map_err(|e| e.to_string())?
        } else {
            TcpStream::connect(addr).await.map_err(|e| e.to_string())?
        };
        let _ = stream.set_nodelay(true);
        let (sender, conn) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
        tokio::task::spawn_local(async move {
            let _ = conn.await;
        });
        Ok(sender)
    }

    fn request(method: &str, path: &str, body: Option<&Value>) -> hyper::Request<Full<Bytes>> {
        let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
        let mut b = hyper::Request::builder().method(method).uri(path).header("host", "127.0.0.1");
        if body.is_some() {
            b = b.header("content-type", "application/json");
        }
        b.body(Full::new(bytes)).unwrap_or_else(|_| hyper::Request::new(Full::new(Bytes::new())))
    }

    async fn call(
        st: &Shared,
        sender: &mut SendRequest<Full<Bytes>>,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        st.borrow_mut().requests += 1;
        sender.ready().await.map_err(|e| e.to_string())?;
        let resp = sender.send_request(request(method, path, body)).await.map_err(|e| e.to_string())?;
        let code = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((code, v))
    }

    fn rv_of(v: &Value) -> Option<i64> {
        v["metadata"]["resourceVersion"].as_str().and_then(|s| s.parse().ok())
    }

    async fn writer(st: Shared, addr: SocketAddr, id: usize, cfg: Config, stop: Instant) {
        let mut rng = Rng::new(cfg.seed ^ (0x1000 + id as u64));
        let mut sender = match connect(addr, false).await {
            Ok(s) => s,
            Err(e) => return fail(&st, format!("writer {id}: connect: {e}")),
        };
        let mut exists = [false; KEYS_PER_WRITER as usize];
        let mut last_rv = 0i64;
        let mut open_deletes: Vec<usize> = Vec::new();
        let mut seq = 0u64;
        let period = Duration::from_micros(1_000_000 / cfg.rate);
        let mut next = Instant::now();
        loop {
            let done = Instant::now() >= stop;
            // After the end, one more write closes the interval of a delete still open.
            if done && open_deletes.is_empty() {
                break;
            }
            let k = rng.below(KEYS_PER_WRITER) as usize;
            let name = format!("soak-{id}-{k}");
            seq += 1;
            let obj = json!({"metadata": {"name": name}, "data": {"seq": seq.to_string()}});
            let op = if !exists[k] {
                "POST"
            } else if done || rng.below(10) < 7 {
                "PUT"
            } else {
                "DELETE"
            };
            let (path, body) = match op {
                "POST" => (NS_PATH.to_string(), Some(&obj)),
                "PUT" => (format!("{NS_PATH}/{name}"), Some(&obj)),
                _ => (format!("{NS_PATH}/{name}"), None),
            };
            let (code, v) = match call(&st, &mut sender, op, &path, body).await {
                Ok(r) => r,
                Err(e) => {
                    fail(&st, format!("writer {id}: {op} {path}: {e}"));
                    break;
                }
            };
            let expected = match op {
                "POST" => 201,
                _ => 200,
            };
            if code != expected {
                fail(&st, format!("writer {id}: {op} {path}: {code} {v}"));
                break;
            }
            if op == "DELETE" {
                exists[k] = false;
                let mut s = st.borrow_mut();
                s.deletes.push(Delete { name, after: last_rv, before: None, seen_at: None });
                open_deletes.push(s.deletes.len() - 1);
            } else {
                exists[k] = true;
                let Some(rv) = rv_of(&v) else {
                    fail(&st, format!("writer {id}: {op} {path}: no resourceVersion in {v}"));
                    break;
                };
                let ty = if op == "POST" { "ADDED" } else { "MODIFIED" };
                let mut s = st.borrow_mut();
                if s.writes.insert(rv, Write { ty, name }).is_some() {
                    drop(s);
                    fail(&st, format!("writer {id}: resourceVersion {rv} answered twice"));
                    break;
                }
                for d in open_deletes.drain(..) {
                    s.deletes[d].before = Some(rv);
                }
                s.newest_rv = s.newest_rv.max(rv);
                last_rv = rv;
            }
            next += period;
            let now = Instant::now();
            if next > now {
                tokio::time::sleep(next - now).await;
            } else {
                next = now;
            }
        }
        let mut s = st.borrow_mut();
        s.writers_done += 1;
        if s.writers_done == cfg.writers {
            s.final_rv = Some(s.newest_rv);
        }
    }

    /// A consistent list: the resourceVersion a (re)started watch begins from.
    async fn list_rv(st: &Shared, addr: SocketAddr) -> Result<i64, String> {
        let mut sender = connect(addr, false).await?;
        for _ in 0..50 {
            let (code, v) = call(st, &mut sender, "GET", NS_PATH, None).await?;
            if code == 200 {
                return rv_of(&v).ok_or_else(|| format!("list without resourceVersion: {v}"));
            }
            if code != 429 && code != 504 {
                return Err(format!("list: {code} {v}"));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Err("list: still refused after 50 tries".into())
    }

    /// Whether a slot has seen everything: the writers are done and it reached their last write.
    fn caught_up(st: &Shared, rv: i64) -> bool {
        st.borrow().final_rv.is_some_and(|f| rv >= f)
    }

    async fn watch_slot(st: Shared, addr: SocketAddr, slot: usize, slow: bool, cfg: Config, stop: Instant) {
        let mut rng = Rng::new(cfg.seed ^ (0x9000 + slot as u64));
        // Slow readers are not expected to catch up after the writers stop.
        let hard_stop = if slow { stop } else { stop + DRAIN };
        let mut rv: Option<i64> = None;
        while Instant::now() < hard_stop {
            if rv.is_some_and(|r| caught_up(&st, r)) {
                break;
            }
            let start = match rv {
                Some(r) => r,
                None => match list_rv(&st, addr).await {
                    Ok(r) => r,
                    Err(e) => return fail(&st, format!("watch {slot}: {e}")),
                },
            };
            let timeout = 4 + rng.below(8);
            let mut seg =
                Segment { slot, slow, start_rv: start, events: Vec::new(), end: End::ClientStopped };
            let t0 = Instant::now();
            seg.end = watch_once(&st, addr, &mut seg, slow, timeout, hard_stop).await;
            let lived = t0.elapsed();
            match &seg.end {
                End::Timeout => {
                    // The server closes at timeoutSeconds of simulated time; the clock follows
                    // the wall in 50 ms steps.
                    if lived + Duration::from_millis(300) < Duration::from_secs(timeout) {
                        if slow {
                            seg.end = End::ClosedEarly;
                            st.borrow_mut().slow_cutoffs += 1;
                        } else {
                            fail(
                                &st,
                                format!(
                                    "watch {slot}: closed after {lived:?}, before its timeoutSeconds={timeout}"
                                ),
                            );
                        }
                    }
                }
                End::Error(status) => {
                    if explained_410(status, start) {
                        st.borrow_mut().expired += 1;
                    } else {
                        fail(&st, format!("watch {slot} from {start}: unexplained error {status}"));
                    }
                }
                End::Broken(e) => fail(&st, format!("watch {slot}: {e}")),
                End::ClosedEarly | End::ClientStopped => {}
            }
            let last = seg.events.last().map(|e| e.0).unwrap_or(start);
            rv = if matches!(seg.end, End::Error(_)) { None } else { Some(last) };
            st.borrow_mut().segments.push(seg);
        }
    }

    /// A 410 is explained when its message shows the watch started below the watch cache's
    /// window: `too old resource version: START (OLDEST)` with START < OLDEST
    /// (`storage/cacher/watch_cache.go`), or etcd's compaction.
    fn explained_410(status: &Value, start: i64) -> bool {
        if status["code"] != 410 {
            return false;
        }
        let msg = status["message"].as_str().unwrap_or("");
        if let Some(rest) = msg.strip_prefix("too old resource version: ") {
            let nums: Vec<i64> =
                rest.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
            return matches!(nums.as_slice(), [s, oldest] if *s == start && s < oldest);
        }
        msg.contains("compacted") || msg.contains("too old")
    }

    async fn watch_once(
        st: &Shared,
        addr: SocketAddr,
        seg: &mut Segment,
        slow: bool,
        timeout: u64,
        hard_stop: Instant,
    ) -> End {
        let mut sender = match connect(addr, slow).await {
            Ok(s) => s,
            Err(e) => return End::Broken(format!("connect: {e}")),
        };
        let path = format!("{NS_PATH}?watch=true&resourceVersion={}&timeoutSeconds={timeout}", seg.start_rv);
        st.borrow_mut().requests += 1;
        if let Err(e) = sender.ready().await {
            return End::Broken(e.to_string());
        }
        let resp = match sender.send_request(request("GET", &path, None)).await {
            Ok(r) => r,
            Err(e) => return End::Broken(format!("watch request: {e}")),
        };
        if resp.status() != 200 {
            let code = resp.status().as_u16();
            let body = resp.into_body().collect().await.map(|c| c.to_bytes()).unwrap_or_default();
            let v: Value = serde_json::from_slice(&body).unwrap_or(json!({"code": code}));
            return End::Error(v);
        }
        {
            let mut s = st.borrow_mut();
            s.watches_opened += 1;
            s.open_now += 1;
            s.open_peak = s.open_peak.max(s.open_now);
        }
        let end = read_stream(st, resp.into_body(), seg, slow, hard_stop).await;
        st.borrow_mut().open_now -= 1;
        end
    }

    async fn read_stream(
        st: &Shared,
        mut body: Incoming,
        seg: &mut Segment,
        slow: bool,
        hard_stop: Instant,
    ) -> End {
        let mut buf: Vec<u8> = Vec::new();
        loop {
            if seg.events.last().is_some_and(|e| caught_up(st, e.0)) {
                return End::ClientStopped;
            }
            let left = hard_stop.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return End::ClientStopped;
            }
            // Wake up now and then to notice the end of the run.
            let frame = match tokio::time::timeout(left.min(Duration::from_millis(500)), body.frame()).await {
                Err(_) => continue,
                Ok(None) => return End::Timeout,
                Ok(Some(Err(e))) => return End::Broken(format!("stream: {e}")),
                Ok(Some(Ok(f))) => f,
            };
            let Ok(data) = frame.into_data() else { continue };
            buf.extend_from_slice(&data);
            while let Some(nl) = buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = buf.drain(..=nl).collect();
                let v: Value = match serde_json::from_slice(&line) {
                    Ok(v) => v,
                    Err(e) => {
                        return End::Broken(format!(
                            "frame is not JSON ({e}): {}",
                            String::from_utf8_lossy(&line)
                        ));
                    }
                };
                st.borrow_mut().frames += 1;
                let ty = v["type"].as_str().unwrap_or("").to_string();
                match ty.as_str() {
                    "ERROR" => return End::Error(v["object"].clone()),
                    "BOOKMARK" => {}
                    "ADDED" | "MODIFIED" | "DELETED" => {
                        let Some(rv) = rv_of(&v["object"]) else {
                            return End::Broken(format!("event without resourceVersion: {v}"));
                        };
                        let name = v["object"]["metadata"]["name"].as_str().unwrap_or("").to_string();
                        seg.events.push((rv, ty, name));
                    }
                    other => return End::Broken(format!("unknown frame type {other:?}")),
                }
            }
            if slow {
                // A deliberately slow reader: one read a second.
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }

    /// Faults: compaction through the control endpoint, stale watches (from the run's first
    /// resourceVersion), watches dropped mid-stream, half-open connections (a request head
    /// never finished, a watch whose client stops sending).
    async fn faults(st: Shared, addr: SocketAddr, stop: Instant, first_rv: i64) {
        let mut held: Vec<TcpStream> = Vec::new();
        let mut next_compact = Instant::now() + COMPACT_EVERY;
        let mut tick = 0u64;
        while Instant::now() < stop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            tick += 1;
            if Instant::now() >= next_compact {
                next_compact += COMPACT_EVERY;
                // Behind the newest write, so that resumed watches and lists still find their
                // revisions most of the time; early on, half way.
                let newest = st.borrow().newest_rv;
                let target = (newest - COMPACT_BEHIND).max(newest / 2);
                if target > 1 {
                    let out = control(&st, addr, &format!("compact {target}")).await;
                    let v: Value =
                        out.as_deref().ok().and_then(|o| serde_json::from_str(o).ok()).unwrap_or_default();
                    if v["compacted"].as_i64() == Some(target) {
                        st.borrow_mut().compactions += 1;
                    } else if !v["error"].as_str().is_some_and(|e| e.contains("compacted")) {
                        // Only a revision at or below the last compaction may be refused.
                        fail(&st, format!("compact {target}: {out:?}"));
                    }
                }
            }
            // A stale watch: from the run's first resourceVersion, which leaves the watch cache's
            // window once enough writes have happened; then the answer is a 410 whose message
            // says so (anything else, while it is still in the window, is simply closed).
            if tick.is_multiple_of(4)
                && let Ok(mut s) = connect(addr, false).await
            {
                let path = format!("{NS_PATH}?watch=true&resourceVersion={first_rv}");
                st.borrow_mut().requests += 1;
                st.borrow_mut().stale_watches += 1;
                if s.ready().await.is_ok()
                    && let Ok(resp) = s.send_request(request("GET", &path, None)).await
                {
                    let mut body = resp.into_body();
                    if let Ok(Some(Ok(f))) = tokio::time::timeout(Duration::from_secs(2), body.frame()).await
                        && let Ok(data) = f.into_data()
                        && let Ok(v) =
                            serde_json::from_slice::<Value>(data.split(|b| *b == b'\n').next().unwrap_or(&[]))
                        && v["type"] == "ERROR"
                    {
                        if explained_410(&v["object"], first_rv) {
                            st.borrow_mut().expired += 1;
                        } else {
                            fail(&st, format!("stale watch from {first_rv}: unexplained error {v}"));
                        }
                    }
                }
            }
            // A watch read for a moment, then its connection dropped.
            if let Ok(mut s) = connect(addr, false).await {
                let path = format!("{NS_PATH}?watch=true");
                st.borrow_mut().requests += 1;
                if s.ready().await.is_ok()
                    && let Ok(resp) = s.send_request(request("GET", &path, None)).await
                {
                    let mut body = resp.into_body();
                    let _ = tokio::time::timeout(Duration::from_millis(100), body.frame()).await;
                    st.borrow_mut().dropped_mid_stream += 1;
                }
            }
            // Half-open connections: a request head that never ends, and a watch whose client
            // half-closes its side; both are held until the end of the run.
            if tick.is_multiple_of(4) && held.len() < 40 {
                if let Ok(mut c) = TcpStream::connect(addr).await {
                    let _ = c
                        .write_all(
                            b"GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n",
                        )
                        .await;
                    held.push(c);
                    st.borrow_mut().half_open += 1;
                }
                if let Ok(mut c) = TcpStream::connect(addr).await {
                    let _ = c
                        .write_all(b"GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n")
                        .await;
                    let _ = c.shutdown().await;
                    held.push(c);
                    st.borrow_mut().half_open += 1;
                }
            }
        }
    }

    async fn control(st: &Shared, addr: SocketAddr, script: &str) -> Result<String, String> {
        let mut sender = connect(addr, false).await?;
        st.borrow_mut().requests += 1;
        sender.ready().await.map_err(|e| e.to_string())?;
        let mut req = request("POST", "/rvlab/v1/script", None);
        *req.body_mut() = Full::new(Bytes::from(script.to_string()));
        let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let code = resp.status().as_u16();
        let body = resp.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        let text = String::from_utf8_lossy(&body).into_owned();
        if code != 200 {
            return Err(format!("{code} {text}"));
        }
        Ok(text)
    }

    /// Checks every segment against the writes; returns (events checked, lost).
    fn verify(st: &mut State) -> (u64, u64) {
        let mut failures = Vec::new();
        // Pass 1: every event is a known write, or a delete of that name inside its interval.
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, d) in st.deletes.iter().enumerate() {
            by_name.entry(d.name.clone()).or_default().push(i);
        }
        let mut checked = 0u64;
        for seg in &st.segments {
            let mut prev = seg.start_rv;
            for (rv, ty, name) in &seg.events {
                checked += 1;
                if *rv <= prev {
                    failures.push(format!(
                        "watch {} from {}: event {rv} after {prev} (out of order or duplicate)",
                        seg.slot, seg.start_rv
                    ));
                }
                prev = prev.max(*rv);
                match st.writes.get(rv) {
                    Some(w) if w.ty == ty && &w.name == name => {}
                    Some(w) => failures.push(format!(
                        "watch {}: event {rv} is {ty} {name}, the writer made {} {}",
                        seg.slot, w.ty, w.name
                    )),
                    None if ty == "DELETED" => {
                        let found = by_name.get(name).and_then(|ds| {
                            ds.iter().copied().find(|&i| {
                                let d = &st.deletes[i];
                                d.after < *rv && d.before.is_none_or(|b| *rv < b)
                            })
                        });
                        match found {
                            Some(i) => match st.deletes[i].seen_at {
                                Some(s) if s != *rv => {
                                    failures.push(format!("delete of {name} seen at {s} and at {rv}"))
                                }
                                _ => st.deletes[i].seen_at = Some(*rv),
                            },
                            None => failures
                                .push(format!("watch {}: DELETED {name} at {rv}: no such delete", seg.slot)),
                        }
                    }
                    None => {
                        failures.push(format!("watch {}: {ty} {name} at {rv}: nobody wrote it", seg.slot))
                    }
                }
            }
        }
        // Pass 2: no gaps. Between two consecutive frames of a stream (and between its start
        // and its first frame) no write or delete may be missing.
        let mut all: BTreeMap<i64, ()> = st.writes.keys().map(|k| (*k, ())).collect();
        for d in &st.deletes {
            if let Some(s) = d.seen_at {
                all.insert(s, ());
            }
        }
        let unseen: Vec<&Delete> = st.deletes.iter().filter(|d| d.seen_at.is_none()).collect();
        let mut lost = 0u64;
        for seg in &st.segments {
            let mut prev = seg.start_rv;
            for (rv, _, _) in &seg.events {
                let missing = all.range(prev + 1..*rv).count()
                    + unseen.iter().filter(|d| d.after >= prev && d.before.is_some_and(|b| b <= *rv)).count();
                if missing > 0 {
                    lost += missing as u64;
                    failures.push(format!(
                        "watch {} from {}: {missing} change(s) missing between {prev} and {rv}",
                        seg.slot, seg.start_rv
                    ));
                }
                prev = prev.max(*rv);
            }
        }
        // Every slot that was not cut off reached the writers' last write.
        let final_rv = st.final_rv.unwrap_or(0);
        let mut last_by_slot: BTreeMap<usize, (i64, bool)> = BTreeMap::new();
        for seg in &st.segments {
            let last = seg.events.last().map(|e| e.0).unwrap_or(seg.start_rv);
            let e = last_by_slot.entry(seg.slot).or_insert((last, seg.slow));
            e.0 = e.0.max(last);
        }
        for (slot, (last, slow)) in last_by_slot {
            if !slow && last < final_rv {
                lost += st.writes.range(last + 1..=final_rv).count() as u64;
                failures
                    .push(format!("watch {slot}: ended at {last}, the writers' last write is {final_rv}"));
            }
        }
        for f in failures.into_iter().take(50) {
            if st.failures.len() < 100 {
                st.failures.push(f);
            }
        }
        (checked, lost)
    }

    pub fn main() -> i32 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let cfg = match Config::parse(&args) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("rvlab-soak: {e}");
                return 2;
            }
        };
        let rt = match tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build() {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("rvlab-soak: {e}");
                return 1;
            }
        };
        let local = tokio::task::LocalSet::new();
        match local.block_on(&rt, run(cfg)) {
            Ok((report, ok)) => {
                println!("{report}");
                if ok { 0 } else { 1 }
            }
            Err(e) => {
                eprintln!("rvlab-soak: {e}");
                1
            }
        }
    }

    async fn run(cfg: Config) -> Result<(Value, bool), String> {
        let (server, addr) = start_server(&cfg)?;
        let pid = server.child.id();
        let st: Shared = Rc::new(RefCell::new(State::default()));
        control(&st, addr, &format!("set cache.capacity {CACHE_CAPACITY}")).await?;
        let first_rv = list_rv(&st, addr).await?;
        let started = Instant::now();
        let stop = started + Duration::from_secs(cfg.seconds);
        eprintln!(
            "rvlab-soak: {} watches ({} slow), {} writers at {}/s each, {} s against http://{addr}",
            cfg.watches, cfg.slow, cfg.writers, cfg.rate, cfg.seconds
        );
        let mut tasks = Vec::new();
        for w in 0..cfg.writers {
            tasks.push(tokio::task::spawn_local(writer(st.clone(), addr, w, cfg.clone(), stop)));
        }
        for slot in 0..cfg.watches {
            let slow = slot < cfg.slow;
            tasks.push(tokio::task::spawn_local(watch_slot(st.clone(), addr, slot, slow, cfg.clone(), stop)));
        }
        tasks.push(tokio::task::spawn_local(faults(st.clone(), addr, stop, first_rv)));
        // Sample the server's memory while the run lasts.
        let sampler = {
            let st = st.clone();
            tokio::task::spawn_local(async move {
                let mut peak_rss = 0;
                loop {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    let (_, rss) = rss_kib(pid);
                    peak_rss = peak_rss.max(rss);
                    if st.borrow().writers_done > 0 && Instant::now() > stop + DRAIN {
                        return peak_rss;
                    }
                }
            })
        };
        for t in tasks {
            let _ = t.await;
        }
        let elapsed = started.elapsed();
        sampler.abort();
        let (hwm, rss_end) = rss_kib(pid);
        // Every revision after the first list is a write or a delete of the run.
        let last_rv = list_rv(&st, addr).await?;
        let alive = control(&st, addr, "").await.is_ok();
        drop(server);
        let mut s = st.borrow_mut();
        let (checked, lost) = verify(&mut s);
        let made = (s.writes.len() + s.deletes.len()) as i64;
        if last_rv - first_rv != made {
            let msg = format!("etcd moved from {first_rv} to {last_rv}, the writers made {made} changes");
            s.failures.push(msg);
        }
        if !alive {
            s.failures.push("the server stopped answering".into());
        }
        if s.watches_opened == 0 || checked == 0 {
            s.failures.push("no watch received anything".into());
        }
        let requests = s.requests;
        let faults = s.compactions + s.dropped_mid_stream + s.half_open + s.stale_watches + s.slow_cutoffs;
        let report = json!({
            "date": date_utc(),
            "machine": machine(),
            "seconds": elapsed.as_secs_f64(),
            "watchSlots": cfg.watches,
            "slowReaders": cfg.slow,
            "writers": cfg.writers,
            "watchesOpened": s.watches_opened,
            "watchesHeldPeak": s.open_peak,
            "eventsDelivered": s.frames,
            "eventsChecked": checked,
            "writes": s.writes.len(),
            "deletes": s.deletes.len(),
            "requests": requests,
            "requestsPerSecond": (requests as f64 / elapsed.as_secs_f64()).round(),
            "peakRssKiB": hwm,
            "rssEndKiB": rss_end,
            "faults": {
                "total": faults,
                "compactions": s.compactions,
                "droppedMidStream": s.dropped_mid_stream,
                "halfOpen": s.half_open,
                "staleWatches": s.stale_watches,
                "slowConsumerCutOff": s.slow_cutoffs,
            },
            "expired410": s.expired,
            "lost": lost,
            "failures": s.failures,
        });
        let ok = s.failures.is_empty() && lost == 0;
        Ok((report, ok))
    }

    fn date_utc() -> String {
        Command::new("date")
            .args(["-u", "+%Y-%m-%d"])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    }

    fn machine() -> String {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| t.lines().find(|l| l.starts_with("model name")).map(str::to_string))
            .and_then(|l| l.split_once(':').map(|(_, m)| m.trim().to_string()))
            .unwrap_or_default();
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        format!("{cores} cores, {cpu}")
    }
}
