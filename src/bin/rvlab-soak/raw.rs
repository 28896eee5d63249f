//! The raw clients: writers that create, update and delete their own configmaps, and watches
//! that resume from the last resourceVersion they saw as client-go's reflector does (relisting
//! after a 410, retrying after a 429 or a 504 `Too large resource version`). At the end every
//! stream is checked against the writers' answers ([`verify`]).

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper::body::Incoming;
use rvlab::clock::Rng;
use serde_json::{Value, json};

use crate::net::{Target, call, connect, request, rv_of};
use crate::state::{Delete, DisruptionKind, End, Segment, Shared, State, Write, fail};
use crate::{Config, NS_PATH};

/// Keys each writer owns.
const KEYS_PER_WRITER: u64 = 4;
/// How long, after the writers stop, live watches have to deliver the last write.
pub const DRAIN: Duration = Duration::from_secs(10);
/// How soon after a drop or a restart the stream it ended must have ended.
const DISRUPTION_SLACK: Duration = Duration::from_secs(2);
/// How soon after a compaction the streams of a watch cache it made relist must have ended.
const RELIST_SLACK: Duration = Duration::from_secs(1);
/// How much later than the sampled clock after a stream's end (samples every 0.5 s) the
/// server's log may put it.
const END_SLACK_MS: u64 = 1000;

pub async fn writer(st: Shared, t: Target, id: usize, cfg: Config, stop: Instant) {
    let t = &t;
    let mut rng = Rng::new(cfg.seed ^ (0x1000 + id as u64));
    let mut sender = match connect(t, false).await {
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
            s.expected.insert(name.clone(), None);
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
            s.expected.insert(name.clone(), Some(rv));
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
pub async fn list_rv(st: &Shared, t: &Target) -> Result<i64, String> {
    let mut sender = connect(t, false).await?;
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

pub async fn watch_slot(st: Shared, t: Target, slot: usize, slow: bool, cfg: Config, stop: Instant) {
    let t = &t;
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
            None => match list_rv(&st, t).await {
                Ok(r) => r,
                Err(e) => return fail(&st, format!("watch {slot}: {e}")),
            },
        };
        let timeout = 4 + rng.below(8);
        let now = Instant::now();
        let mut seg = Segment {
            slot,
            slow,
            start_rv: start,
            timeout,
            opened: now,
            ended: now,
            events: Vec::new(),
            end: End::ClientStopped,
            behind: 0,
        };
        seg.end = watch_once(&st, t, &mut seg, slow, timeout, hard_stop).await;
        seg.ended = Instant::now();
        seg.behind = st.borrow().newest_rv - seg.events.last().map_or(start, |e| e.0);
        let mut retry = false;
        match &seg.end {
            // Whether it closed at its timeoutSeconds, or earlier for a cause, is judged at the
            // end, when every drop and restart is known (`explain_early_ends`).
            End::Closed | End::ClientStopped => {}
            End::Error(status) => {
                if explained_410(status, start) {
                    st.borrow_mut().expired += 1;
                } else if retried(status) {
                    st.borrow_mut().retried += 1;
                    retry = true;
                } else {
                    fail(&st, format!("watch {slot} from {start}: unexplained error {status}"));
                }
            }
            End::Broken(e) => fail(&st, format!("watch {slot}: {e}")),
        }
        let last = seg.events.last().map(|e| e.0).unwrap_or(start);
        rv = if matches!(seg.end, End::Error(_)) && !retry { None } else { Some(last) };
        st.borrow_mut().segments.push(seg);
        if retry {
            // Retry-After: 1.
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

/// An answer to retry from the same resourceVersion after its Retry-After: a 429 (the watch
/// cache of a restarted apiserver initialising) or a 504 `Too large resource version` (a
/// lagging apiserver's cache behind the resourceVersion), as client-go's reflector does.
fn retried(status: &Value) -> bool {
    let msg = status["message"].as_str().unwrap_or("");
    status["code"] == 429 || (status["code"] == 504 && msg.contains("Too large resource version"))
}

/// A stream the server closed before its timeoutSeconds is explained by a drop or a restart
/// that ran while it was open and shortly before it ended (each drop explains one stream, a
/// restart all of them), a compaction its watch cache relisted after, the slow-consumer rule
/// (for a slow reader always, for a normal reader when the server's log says so:
/// `State::server_ends`), or its timeoutSeconds of simulated time while the server's clock ran
/// ahead of the wall (the log says `timeout`). Returns the failures.
pub fn explain_early_ends(st: &mut State) -> Vec<String> {
    let mut failures = Vec::new();
    let mut drops_used = vec![false; st.disruptions.len()];
    let mut cutoffs = 0u64;
    let mut clock_ahead = 0u64;
    let mut relisted = 0u64;
    let mut normal_cutoffs = 0u64;
    let mut ends_used = vec![false; st.server_ends.as_ref().map_or(0, Vec::len)];
    for seg in &st.segments {
        if seg.end != End::Closed {
            continue;
        }
        let lived = seg.ended - seg.opened;
        // The server closes at timeoutSeconds of simulated time, which follows the wall in 50 ms
        // steps (`faults::sample_clock`): at most this much simulated time passed while the
        // stream was open, and the server's log ends it within that window.
        let sim_before = st.clock.iter().rev().find(|c| c.0 <= seg.opened).map(|c| c.1);
        let sim_after = st.clock.iter().find(|c| c.0 >= seg.ended).map(|c| c.1);
        let (sim_opened, sim_closed) = (sim_before, sim_after);
        let sim_lived = match (sim_before, sim_after) {
            (Some(a), Some(b)) => Duration::from_millis(b.saturating_sub(a)),
            _ => Duration::from_secs(seg.timeout),
        };
        if lived + Duration::from_millis(300) >= Duration::from_secs(seg.timeout) {
            continue;
        }
        // One end of the server's log explains one stream: the same start and timeoutSeconds,
        // ended for `reason` while the stream was open by the sampled simulated clock.
        let mut logged = |reason: &str| {
            let ends = st.server_ends.as_ref()?;
            let i = (0..ends.len()).find(|&i| {
                let e = &ends[i];
                !ends_used[i]
                    && e.reason == reason
                    && e.start_rv == seg.start_rv
                    && e.timeout == seg.timeout
                    && sim_opened.is_none_or(|a| a <= e.at_ms)
                    && sim_closed.is_none_or(|b| e.at_ms <= b + END_SLACK_MS)
            })?;
            ends_used[i] = true;
            Some(())
        };
        let fits = |d: &crate::state::Disruption| {
            d.sent <= seg.ended && seg.opened <= d.answered && seg.ended <= d.answered + DISRUPTION_SLACK
        };
        if st.disruptions.iter().any(|d| d.kind == DisruptionKind::Restart && fits(d)) {
            continue;
        }
        if let Some(i) = (0..st.disruptions.len()).find(|&i| {
            !drops_used[i] && st.disruptions[i].kind == DisruptionKind::Drop && fits(&st.disruptions[i])
        }) {
            drops_used[i] = true;
            continue;
        }
        // A compaction that passed the etcd watch of the stream's watch cache (a lagging
        // apiserver's, or any cache behind etcd under load): the cache relists and ends every
        // watcher at once, right after the compaction.
        let relist = |d: &crate::state::Disruption| {
            d.kind == DisruptionKind::Compaction
                && seg.opened <= d.sent
                && d.sent <= seg.ended
                && seg.ended <= d.answered + RELIST_SLACK
        };
        if st.disruptions.iter().any(relist) {
            relisted += 1;
            continue;
        }
        if seg.slow {
            cutoffs += 1;
            continue;
        }
        // The server's log names the end: a normal reader cut off as a slow consumer (the
        // cacher's rule, `cache_watcher.go`: its buffer full for the dispatch budget), which a
        // client reading 200 streams on one thread of a loaded machine can be after a burst.
        if logged("slow-consumer").is_some() {
            normal_cutoffs += 1;
            continue;
        }
        // Its timeoutSeconds of simulated time, sooner in wall time: the clock ran ahead (the
        // log says `timeout`; without the log, the sampled clock says that much passed).
        let at_timeout = match &st.server_ends {
            Some(_) => logged("timeout").is_some(),
            None => sim_lived + Duration::from_millis(300) >= Duration::from_secs(seg.timeout),
        };
        if at_timeout {
            clock_ahead += 1;
            continue;
        }
        let since = |i: Instant| st.started.map(|t| i.saturating_duration_since(t)).unwrap_or_default();
        let at = since(seg.opened);
        let last = st
            .disruptions
            .iter()
            .filter(|d| d.sent <= seg.ended)
            .map(|d| since(d.sent).as_secs_f64())
            .fold(-1.0, f64::max);
        failures.push(format!(
            "watch {} from {}: opened at {:.1} s, closed after {:.1} s, before its timeoutSeconds={}, \
             with no drop or restart to explain it (the last one before: at {last:.1} s; {} behind)",
            seg.slot,
            seg.start_rv,
            at.as_secs_f64(),
            lived.as_secs_f64(),
            seg.timeout,
            seg.behind
        ));
    }
    st.slow_cutoffs = cutoffs;
    st.closed_by_clock_ahead = clock_ahead;
    st.closed_by_cache_relist = relisted;
    st.normal_cutoffs = normal_cutoffs;
    failures
}

/// A 410 is explained when its message shows the watch started below the watch cache's
/// window: `too old resource version: START (OLDEST)` with START < OLDEST
/// (`storage/cacher/watch_cache.go`), or etcd's compaction.
pub fn explained_410(status: &Value, start: i64) -> bool {
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
    t: &Target,
    seg: &mut Segment,
    slow: bool,
    timeout: u64,
    hard_stop: Instant,
) -> End {
    let mut sender = match connect(t, slow).await {
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
            Ok(None) => return End::Closed,
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

/// Checks every segment against the writes; returns (events checked, lost).
pub fn verify(st: &mut State) -> (u64, u64) {
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
                None => failures.push(format!("watch {}: {ty} {name} at {rv}: nobody wrote it", seg.slot)),
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
            failures.push(format!("watch {slot}: ended at {last}, the writers' last write is {final_rv}"));
        }
    }
    for f in failures.into_iter().take(50) {
        if st.failures.len() < 100 {
            st.failures.push(f);
        }
    }
    (checked, lost)
}
