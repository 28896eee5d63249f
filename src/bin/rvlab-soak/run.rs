//! One run: the server, every client and the fault schedule at once; then the checks at the
//! end and the report.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::process::Command;
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::clients::{self, Client, Kind};
use crate::net::{self, Target, call, connect, control, rss_kib, rv_of};
use crate::raw::{self, DRAIN};
use crate::state::{Shared, State};
use crate::{Config, MIN_WARM_UP, NS_PATH, SETTLE, ends, faults, warm_up};

/// The watch cache's history capacity for the run, so that its window moves within seconds
/// and a watch resumed from far behind meets a 410.
const CACHE_CAPACITY: u64 = 500;
/// How long the real clients have, once the drain is over, to hold the server's state.
const CONVERGE: Duration = Duration::from_secs(45);
/// The simple GET timed throughout, and how often.
const SAMPLE_PATH: &str = "/api/v1/namespaces/soak-probe/configmaps/probe";
const SAMPLE_EVERY: Duration = Duration::from_millis(100);
const SAMPLE_TIMEOUT: Duration = Duration::from_secs(10);

/// Times a simple GET every [`SAMPLE_EVERY`] until `until` is set.
async fn sample_latency(st: Shared, t: Target, until: Rc<RefCell<bool>>) {
    let mut sender = None;
    while !*until.borrow() {
        tokio::time::sleep(SAMPLE_EVERY).await;
        if sender.is_none() {
            sender = connect(&t, false).await.ok();
        }
        let Some(s) = sender.as_mut() else {
            st.borrow_mut().unanswered += 1;
            continue;
        };
        let t0 = Instant::now();
        match tokio::time::timeout(SAMPLE_TIMEOUT, call(&st, s, "GET", SAMPLE_PATH, None)).await {
            Ok(Ok((200, _))) => st.borrow_mut().latencies_us.push(t0.elapsed().as_micros() as u64),
            Ok(Ok((code, v))) => {
                st.borrow_mut().unanswered += 1;
                crate::state::fail(&st, format!("GET {SAMPLE_PATH}: {code} {v}"));
            }
            _ => {
                st.borrow_mut().unanswered += 1;
                sender = None;
            }
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i] as f64 / 1000.0
}

/// How many times the apiservers' compactors have written `compact_rev_key` (each round is a
/// CAS transaction that writes it, and so a revision: `apiserver/compactor.rs`).
async fn compactor_writes(st: &Shared, t: &Target) -> i64 {
    let out = control(st, t, "etcd get compact_rev_key").await.unwrap_or_default();
    out.last()
        .and_then(|o| o["kvs"].as_array())
        .and_then(|kvs| kvs.first())
        .and_then(|kv| kv["version"].as_i64())
        .unwrap_or(0)
}

/// The server's state: a consistent list, name → resourceVersion; and its resourceVersion.
async fn server_state(st: &Shared, t: &Target) -> Result<(BTreeMap<String, i64>, i64), String> {
    let mut sender = connect(t, false).await?;
    for _ in 0..50 {
        let (code, v) = call(st, &mut sender, "GET", NS_PATH, None).await?;
        if code == 200 {
            let mut m = BTreeMap::new();
            for it in v["items"].as_array().into_iter().flatten() {
                let name = it["metadata"]["name"].as_str().unwrap_or_default().to_string();
                m.insert(name, rv_of(it).unwrap_or(0));
            }
            return Ok((m, rv_of(&v).unwrap_or(0)));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Err("the final list was refused 50 times".into())
}

fn diff(want: &BTreeMap<String, i64>, got: &Option<BTreeMap<String, i64>>) -> String {
    let Some(got) = got else { return "no cache yet".into() };
    let mut d = Vec::new();
    for (n, rv) in want {
        match got.get(n) {
            None => d.push(format!("{n} missing")),
            Some(g) if g != rv => d.push(format!("{n} at {g}, not {rv}")),
            _ => {}
        }
    }
    for n in got.keys().filter(|n| !want.contains_key(*n)) {
        d.push(format!("{n} left over"));
    }
    let more = d.len().saturating_sub(5);
    d.truncate(5);
    if more > 0 {
        d.push(format!("{more} more"));
    }
    d.join(", ")
}

fn start_clients(
    cfg: &Config,
    t: &Target,
    dir: &std::path::Path,
) -> Result<(Vec<Client>, Vec<String>), String> {
    if !cfg.clients {
        return Ok((Vec::new(), vec!["all (--no-clients)".into()]));
    }
    let mut tools = cfg.tools.clone();
    let missing = tools.resolve();
    if !missing.is_empty() {
        let text = missing.join("; ");
        if cfg.require_clients {
            return Err(format!(
                "missing real clients: {text} (`./dev.sh test` installs them; a missing one is a failure here)"
            ));
        }
        eprintln!("SKIPPED: {text}; `./dev.sh test` installs them");
    }
    let mut out = Vec::new();
    for n in 0..cfg.kubectl {
        if tools.kubectl.is_some() {
            out.push(clients::start_kubectl(n + 1, &tools, &t.kubeconfig, dir)?);
        }
    }
    if tools.python.is_some() {
        out.push(clients::start_driver(Kind::Python, &tools, &t.kubeconfig, dir)?);
    }
    if tools.client_node.is_some() {
        out.push(clients::start_driver(Kind::ClientNode, &tools, &t.kubeconfig, dir)?);
    }
    if tools.controller.is_some() {
        out.push(clients::start_driver(Kind::KubeRs, &tools, &t.kubeconfig, dir)?);
    }
    Ok((out, missing))
}

pub async fn run(cfg: Config) -> Result<(Value, bool), String> {
    let (server, t) = net::start_server(&cfg.server, cfg.http)?;
    let pid = server.child.id();
    let st: Shared = Rc::new(RefCell::new(State::default()));
    for o in control(&st, &t, &faults::setup_script(CACHE_CAPACITY)).await? {
        if o.get("error").is_some() {
            return Err(format!("setting up: {o}"));
        }
    }
    // The object the timed GET reads, in a namespace of its own (no client lists it).
    let probe = r#"POST /api/v1/namespaces/soak-probe/configmaps {"metadata":{"name":"probe"}}"#;
    for o in control(&st, &t, probe).await? {
        if o["code"] != 201 {
            return Err(format!("creating the probe: {o}"));
        }
    }
    let first_rv = raw::list_rv(&st, &t).await?;
    let compactor_first = compactor_writes(&st, &t).await;
    let rss_idle = rss_kib(pid).1;
    let (mut clients, missing) = start_clients(&cfg, &t, &server.dir)?;
    let started = Instant::now();
    let stop = started + Duration::from_secs(cfg.seconds);
    st.borrow_mut().started = Some(started);
    eprintln!(
        "rvlab-soak: {} watches ({} slow), {} writers at {}/s each, {} real clients, {} s against {}://{}",
        cfg.watches,
        cfg.slow,
        cfg.writers,
        cfg.rate,
        clients.len(),
        cfg.seconds,
        if t.tls.is_some() { "https" } else { "http" },
        t.api
    );
    let mut tasks = Vec::new();
    for w in 0..cfg.writers {
        tasks.push(tokio::task::spawn_local(raw::writer(st.clone(), t.clone(), w, cfg.clone(), stop)));
    }
    for slot in 0..cfg.watches {
        let slow = slot < cfg.slow;
        tasks.push(tokio::task::spawn_local(raw::watch_slot(
            st.clone(),
            t.clone(),
            slot,
            slow,
            cfg.clone(),
            stop,
        )));
    }
    tasks.push(tokio::task::spawn_local(faults::faults(st.clone(), t.clone(), stop, first_rv, cfg.seed)));
    let sampling_done = Rc::new(RefCell::new(false));
    let sampler = tokio::task::spawn_local(sample_latency(st.clone(), t.clone(), sampling_done.clone()));
    // The server's memory: its start after the warm-up (or half the run, if shorter), and its
    // peak while the run lasts.
    let rss = {
        let warm = warm_up(cfg.seconds);
        let t = t.clone();
        tokio::task::spawn_local(async move {
            tokio::time::sleep(warm).await;
            let start = rss_kib(pid).1;
            let log = net::log_size(&t).await.unwrap_or_default();
            (start, warm, log)
        })
    };
    // The resident size every 5 s, for as long as the server runs.
    let series: Rc<RefCell<Vec<(u64, u64)>>> = Rc::default();
    let series_task = {
        let series = series.clone();
        tokio::task::spawn_local(async move {
            loop {
                series.borrow_mut().push((started.elapsed().as_secs(), rss_kib(pid).1));
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        })
    };
    for task in tasks {
        let _ = task.await;
    }
    let (rss_start, warm, log_start) = rss.await.unwrap_or((0, Duration::ZERO, net::LogSize::default()));
    let load_elapsed = started.elapsed();

    // The server's state, against the writers' answers: nothing lost.
    let (state, last_rv) = server_state(&st, &t).await?;
    let compactor_rounds = compactor_writes(&st, &t).await - compactor_first;
    let mut failures = Vec::new();
    let expected: BTreeMap<String, i64> =
        st.borrow().expected.iter().filter_map(|(n, rv)| rv.map(|rv| (n.clone(), rv))).collect();
    if state != expected {
        failures.push(format!(
            "the server's state is not what the writers wrote: {}",
            diff(&expected, &Some(state.clone()))
        ));
    }

    // Every real client comes to hold the server's state.
    let t_conv = Instant::now();
    let mut converged: BTreeMap<String, Option<f64>> =
        clients.iter().map(|c| (c.label.clone(), None)).collect();
    while t_conv.elapsed() < CONVERGE && converged.values().any(Option::is_none) {
        for c in &clients {
            if converged[&c.label].is_none() && c.snapshot().as_ref() == Some(&state) {
                converged.insert(c.label.clone(), Some(t_conv.elapsed().as_secs_f64()));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let writes = st.borrow().writes.clone();
    let mut client_reports = Vec::new();
    for c in &mut clients {
        if converged[&c.label].is_none() {
            failures.push(format!(
                "{}: its cache is not the server's state {:?} after the drain: {} (stderr: {})",
                c.label,
                CONVERGE,
                diff(&state, &c.snapshot()),
                c.stderr_tail()
            ));
        }
        if let Some(p) = c.leave() {
            failures.push(p);
        }
        let seen = c.seen.lock().unwrap_or_else(|p| p.into_inner());
        let invented: Vec<String> = seen
            .pairs
            .iter()
            .filter(|(n, rv)| writes.get(rv).is_none_or(|w| &w.name != n))
            .take(5)
            .map(|(n, rv)| format!("{n}@{rv}"))
            .collect();
        if !invented.is_empty() {
            failures.push(format!("{}: held objects nobody wrote: {}", c.label, invented.join(", ")));
        }
        for v in &seen.violations {
            failures.push(format!("{}: {v}", c.label));
        }
        client_reports.push(json!({
            "client": c.label,
            "updates": seen.updates,
            "objectsHeld": seen.pairs.len(),
            "errorsSurfaced": seen.errors,
            "firstErrors": seen.first_errors,
            "processes": seen.processes,
            "exits": seen.exits,
            "outOfOrderOrTwice": seen.violations.len(),
            "equalServerStateAfterS": converged[&c.label],
        }));
    }
    drop(clients);
    *sampling_done.borrow_mut() = true;
    let _ = sampler.await;

    // The clients have left: the memory settles.
    tokio::time::sleep(SETTLE).await;
    let (hwm, rss_end) = rss_kib(pid);
    series_task.abort();
    series.borrow_mut().push((started.elapsed().as_secs(), rss_end));
    let alive = control(&st, &t, "").await.is_ok();
    let log_end = net::log_size(&t).await.unwrap_or_default();
    let log_growth = log_end.kib().saturating_sub(log_start.kib());
    let record = net::record_text(&t).await;
    drop(server);
    // Why the server ended each raw watch: its log, replayed.
    let server_ends = match record {
        Ok(r) => Some(ends::server_ends(&r)),
        Err(e) => {
            eprintln!("rvlab-soak: the server's log could not be read: {e}");
            None
        }
    };

    let mut s = st.borrow_mut();
    s.server_ends = server_ends;
    if std::env::var_os("RVLAB_SOAK_TIMELINE").is_some() {
        // The fault timeline, for a failure to be read against: seconds since the start.
        let at = |i: Instant| i.saturating_duration_since(started).as_secs_f64();
        for d in &s.disruptions {
            eprintln!("{:8.2} {:?} (answered {:.2})", at(d.sent), d.kind, at(d.answered));
        }
        for (from, to) in &s.lag_phases {
            eprintln!("{:8.2} lagging apiserver until {:.2}", at(*from), to.map_or(-1.0, at));
        }
        for (i, ms) in &s.clock {
            eprintln!("{:8.2} clock {:.2}", at(*i), *ms as f64 / 1000.0);
        }
    }
    let early = raw::explain_early_ends(&mut s);
    let (checked, lost) = raw::verify(&mut s);
    s.failures.extend(early);
    s.failures.extend(failures);
    let made = (s.writes.len() + s.deletes.len()) as i64;
    if last_rv - first_rv != made + compactor_rounds {
        let msg = format!(
            "etcd moved from {first_rv} to {last_rv}, the writers made {made} changes and the compactors \
             {compactor_rounds} rounds"
        );
        s.failures.push(msg);
    }
    if !alive {
        s.failures.push("the server stopped answering".into());
    }
    if s.watches_opened == 0 || checked == 0 {
        s.failures.push("no watch received anything".into());
    }
    if s.unanswered > 0 {
        let msg = format!("{} timed GETs were not answered within {SAMPLE_TIMEOUT:?}", s.unanswered);
        s.failures.push(msg);
    }
    // The log is on disk (`serve::spool`): what it grew by is not in the resident size.
    let rss_ratio = if rss_start > 0 { rss_end as f64 / rss_start as f64 } else { 0.0 };
    // A short run has not reached its steady state by its warm-up: its figures are printed,
    // not judged.
    let judged = cfg.judge_memory && warm >= MIN_WARM_UP;
    if judged && rss_ratio > 1.10 {
        let msg = format!(
            "the server's resident memory did not come back: {rss_end} KiB after the clients left, {rss_start} KiB \
             after the warm-up (the log grew by about {log_growth} KiB, on disk)"
        );
        s.failures.push(msg);
    }
    // How far the simulated clock ran ahead of the wall over the run.
    let clock_ahead = match (s.clock.first(), s.clock.last()) {
        (Some(a), Some(b)) => {
            let sim = b.1.saturating_sub(a.1) as f64 / 1000.0;
            ((sim - (b.0 - a.0).as_secs_f64()) * 10.0).round() / 10.0
        }
        _ => 0.0,
    };
    let mut lat = s.latencies_us.clone();
    lat.sort_unstable();
    let requests = s.requests;
    let hostile: u64 = s.hostile.values().sum();
    let faults = s.compactions
        + s.dropped_mid_stream
        + s.server_drops
        + s.restarts
        + s.lagging_phases
        + s.watch_delay_phases
        + s.half_open
        + s.stale_watches;
    let report = json!({
        "date": date_utc(),
        "machine": machine(),
        "tls": t.tls.is_some(),
        "seconds": load_elapsed.as_secs_f64().round(),
        "drainSeconds": DRAIN.as_secs(),
        "watchSlots": cfg.watches,
        "slowReaders": cfg.slow,
        "writers": cfg.writers,
        "writesPerSecondPerWriter": cfg.rate,
        "realClients": client_reports,
        "realClientsMissing": missing,
        "watchesOpened": s.watches_opened,
        "watchesHeldPeak": s.open_peak,
        "eventsDelivered": s.frames,
        "eventsChecked": checked,
        "writes": s.writes.len(),
        "deletes": s.deletes.len(),
        "objectsAtEnd": state.len(),
        "compactorRounds": compactor_rounds,
        "requests": requests,
        "requestsPerSecond": (requests as f64 / load_elapsed.as_secs_f64()).round(),
        "getLatencyMs": {
            "path": SAMPLE_PATH,
            "samples": lat.len(),
            "p50": percentile(&lat, 0.50),
            "p99": percentile(&lat, 0.99),
            "max": percentile(&lat, 1.0),
            "unanswered": s.unanswered,
        },
        "rssKiB": {
            "idle": rss_idle,
            "startAfterWarmUp": rss_start,
            "warmUpSeconds": warm.as_secs(),
            "peak": hwm,
            "afterClientsLeft": rss_end,
            "settleSeconds": SETTLE.as_secs(),
            "ratio": (rss_ratio * 1000.0).round() / 1000.0,
            "judged": judged,
            "every5s": series.borrow().iter().map(|(t, k)| json!([t, k])).collect::<Vec<_>>(),
        },
        "serverLog": {
            "lines": log_end.lines,
            "bytes": log_end.bytes,
            "outputsKept": log_end.outputs,
            "outputBytesKept": log_end.output_bytes,
            "kiBAtStart": log_start.kib(),
            "kiBAtEnd": log_end.kib(),
        },
        "faults": {
            "total": faults,
            "restarts": s.restarts,
            "laggingApiserverPhases": s.lagging_phases,
            "watchDelayPhases": s.watch_delay_phases,
            "compactions": s.compactions,
            "droppedByServer": s.server_drops,
            "droppedByClient": s.dropped_mid_stream,
            "halfOpen": s.half_open,
            "staleWatches": s.stale_watches,
        },
        "hostile": { "total": hostile, "byKind": s.hostile.clone() },
        "expired410": s.expired,
        "retried429or504": s.retried,
        "slowConsumerCutOff": s.slow_cutoffs,
        "closedAtSimulatedTimeout": s.closed_by_clock_ahead,
        "closedByCacheRelist": s.closed_by_cache_relist,
        "normalReadersCutOff": s.normal_cutoffs,
        "serverLogReplayed": s.server_ends.is_some(),
        "simulatedClockAheadS": clock_ahead,
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
