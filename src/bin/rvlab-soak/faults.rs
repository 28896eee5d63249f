//! The fault schedule, through the control endpoint and the network, and the hostile clients
//! that come and go while the run lasts.
//!
//! Every [`CYCLE`]: `restart apiserver 1` (its watches end, its new watch cache answers 429 until
//! it has initialised); a lagging phase (`apiserver 2`, whose watch cache lags
//! [`LAG`], takes every new connection, then `apiserver 1` again); a slow-network phase
//! (`network watch-delay 1s`, then `0s`). Throughout: `compact` every [`COMPACT_EVERY`], watches
//! dropped from the server's side (`drop wN`) and from the client's, stale watches (from the
//! run's first resourceVersion: 410), half-open connections, and hostile clients: bytes that
//! are not TLS, plain HTTP to the HTTPS port, garbage HTTP inside TLS, a body over 3 MiB (413),
//! a watch whose client never reads.

use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use rvlab::clock::Rng;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::NS_PATH;
use crate::net::{Target, connect, control, request, tcp};
use crate::state::{Disruption, DisruptionKind, Shared, fail};

/// How often etcd is compacted, and how far behind the newest write.
const COMPACT_EVERY: Duration = Duration::from_secs(3);
const COMPACT_BEHIND: i64 = 200;
/// The period of the schedule of restarts, lagging and slow-network phases.
const CYCLE: u64 = 15;
/// How far apiserver 2's watch cache lags behind etcd.
pub const LAG: &str = "2s";

/// The settings the run starts with: a small watch cache window on both apiservers, and the
/// second apiserver lagging.
pub fn setup_script(capacity: u64) -> String {
    format!(
        "set cache.capacity {capacity}\nset apiservers 2\napiserver 2\nset cache.capacity {capacity}\n\
         set cache.lag {LAG}\napiserver 1"
    )
}

async fn control_ok(st: &Shared, t: &Target, script: &str) -> Option<Vec<Value>> {
    match control(st, t, script).await {
        Ok(out) => {
            if let Some(e) = out.iter().find(|o| o.get("error").is_some()) {
                fail(st, format!("control {script:?}: {e}"));
            }
            Some(out)
        }
        Err(e) => {
            fail(st, format!("control {script:?}: {e}"));
            None
        }
    }
}

/// A control request that ends watches from the server's side, with its times.
async fn disrupt(st: &Shared, t: &Target, script: &str, kind: DisruptionKind) -> Option<Vec<Value>> {
    let sent = Instant::now();
    let out = control(st, t, script).await;
    let answered = Instant::now();
    st.borrow_mut().disruptions.push(Disruption { sent, answered, kind });
    match out {
        Ok(out) => Some(out),
        Err(e) => {
            fail(st, format!("control {script:?}: {e}"));
            None
        }
    }
}

/// Drops a few of the most recent watches from the server's side (`drop wN`: the stream just
/// ends, no ERROR frame). The newest id comes from a watch opened through the control endpoint
/// and cancelled at once.
async fn server_drops(st: &Shared, t: &Target, rng: &mut Rng) {
    let Some(out) =
        control_ok(st, t, &format!("GET {NS_PATH}?watch=true&resourceVersion=0&timeoutSeconds=1")).await
    else {
        return;
    };
    let Some(newest) = out.first().and_then(|o| o["watch"].as_str()).map(str::to_string) else {
        // A 429 while the watch cache of a restarted apiserver initialises: no watch, no drops.
        if out.first().is_some_and(|o| o["code"] == 429) {
            return;
        }
        return fail(st, format!("a watch through the control endpoint has no id: {out:?}"));
    };
    let _ = control(st, t, &format!("cancel {newest}")).await;
    let Some(n) = newest.strip_prefix('w').and_then(|n| n.parse::<u64>().ok()) else { return };
    for _ in 0..3 {
        let k = n.saturating_sub(1 + rng.below(40));
        if k == 0 {
            continue;
        }
        if let Some(out) = disrupt(st, t, &format!("drop w{k}"), DisruptionKind::Drop).await
            && out.first().is_some_and(|o| o.get("dropped").is_some())
        {
            st.borrow_mut().server_drops += 1;
        }
    }
}

/// The server's simulated time now (`advance 0s` answers it). It follows the wall clock (a read
/// that waits for a watch cache is held in wall time and moves no clock); were it to run ahead,
/// a watch's timeoutSeconds (simulated time) would end it sooner in wall time. The samples
/// place the server's log's ends on the soak's wall clock (`raw::explain_early_ends`).
pub async fn sample_clock(st: &Shared, t: &Target) {
    let sent = Instant::now();
    if let Ok(out) = control(st, t, "advance 0s").await
        && let Some(now) = out.first().and_then(|o| o["now"].as_str())
        && let Ok(d) = rvlab::clock::Duration::parse(now)
    {
        st.borrow_mut().clock.push((sent, d.0));
    }
}

/// Reads what the server sends on `s` until it closes (or `wait` passes): the bytes, and
/// whether it closed.
async fn read_all<S: tokio::io::AsyncRead + Unpin>(s: &mut S, wait: Duration) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let until = Instant::now() + wait;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (out, true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (out, false),
        }
    }
}

fn count(st: &Shared, kind: &'static str) {
    *st.borrow_mut().hostile.entry(kind).or_default() += 1;
}

/// One hostile client, by turn; its answer is checked against what kube-apiserver (Go's
/// net/http and crypto/tls) answers it (site/src/reference/serve.md, "Clients that misbehave").
async fn hostile(st: Shared, t: Target, turn: u64) {
    let tls = t.tls.is_some();
    match turn % 5 {
        0 => {
            // Bytes that are not a TLS record: closed without an answer (`crypto/tls`
            // `readRecordOrCCS`); over plain HTTP, a request line it cannot parse: 400.
            let Ok(mut s) = tcp(t.api, false).await else { return };
            let _ = s.write_all(b"\x01\x02\x03\x04\x05 not a client hello\r\n\r\n").await;
            let (got, closed) = read_all(&mut s, Duration::from_secs(5)).await;
            let ok =
                if tls { got.is_empty() && closed } else { got.starts_with(b"HTTP/1.1 400 Bad Request") };
            if !ok {
                fail(
                    &st,
                    format!("garbage bytes: answered {:?} (closed: {closed})", String::from_utf8_lossy(&got)),
                );
            }
            count(&st, "garbageBytes");
        }
        1 if tls => {
            // Plain HTTP to the HTTPS port (`net/http` `conn.serve`).
            let Ok(mut s) = tcp(t.api, false).await else { return };
            let _ = s.write_all(b"GET /api HTTP/1.1\r\nHost: x\r\n\r\n").await;
            let (got, closed) = read_all(&mut s, Duration::from_secs(5)).await;
            let text = String::from_utf8_lossy(&got);
            if !(text.starts_with("HTTP/1.0 400 Bad Request")
                && text.contains("Client sent an HTTP request to an HTTPS server.")
                && closed)
            {
                fail(&st, format!("plain HTTP to the HTTPS port: answered {text:?} (closed: {closed})"));
            }
            count(&st, "plainHttpToHttps");
        }
        1 | 2 => {
            // Garbage HTTP (inside TLS when serving HTTPS): 400, closed.
            let Some(got) = garbage_http(&t).await else { return };
            let text = String::from_utf8_lossy(&got);
            if !text.starts_with("HTTP/1.1 400 Bad Request") {
                fail(&st, format!("garbage HTTP: answered {text:?}"));
            }
            count(&st, "garbageHttp");
        }
        3 => {
            // A body over 3 MiB: 413 RequestEntityTooLarge.
            let Ok(mut s) = connect(&t, false).await else { return };
            let big = "x".repeat(3 * 1024 * 1024 + 1);
            let body = serde_json::json!({"metadata": {"name": "too-big"}, "data": {"big": big}});
            st.borrow_mut().requests += 1;
            if s.ready().await.is_err() {
                return;
            }
            let Ok(resp) = s.send_request(request("POST", NS_PATH, Some(&body))).await else {
                return fail(&st, "oversized body: no answer".into());
            };
            let code = resp.status().as_u16();
            let bytes = resp.into_body().collect().await.map(|c| c.to_bytes()).unwrap_or_default();
            let v: Value = serde_json::from_slice(&bytes).unwrap_or_default();
            if code != 413 || v["reason"] != "RequestEntityTooLarge" {
                fail(&st, format!("oversized body: {code} {v}"));
            }
            count(&st, "oversizedBody");
        }
        _ => {
            // A watch whose client never reads, for a few seconds, then gone.
            let Ok(mut s) = connect(&t, true).await else { return };
            st.borrow_mut().requests += 1;
            if s.ready().await.is_ok()
                && let Ok(resp) = s.send_request(request("GET", &format!("{NS_PATH}?watch=true"), None)).await
            {
                tokio::time::sleep(Duration::from_secs(5)).await;
                drop(resp);
            }
            count(&st, "neverReads");
        }
    }
}

/// `HELLO` as a request line: the answer's bytes.
async fn garbage_http(t: &Target) -> Option<Vec<u8>> {
    let s = tcp(t.api, false).await.ok()?;
    let wait = Duration::from_secs(5);
    match &t.tls {
        Some(cfg) => {
            let name = rustls::pki_types::ServerName::IpAddress(t.api.ip().into());
            let mut s = tokio_rustls::TlsConnector::from(cfg.clone()).connect(name, s).await.ok()?;
            s.write_all(b"HELLO\r\n\r\n").await.ok()?;
            Some(read_all(&mut s, wait).await.0)
        }
        None => {
            let mut s = s;
            s.write_all(b"HELLO\r\n\r\n").await.ok()?;
            Some(read_all(&mut s, wait).await.0)
        }
    }
}

/// One half-second step of the schedule: the cycle's restart, lagging and slow-network
/// phases, and a hostile client every 2 s.
async fn schedule_step(st: &Shared, t: &Target, step: u64) {
    let phase = step % (CYCLE * 2);
    if phase == 4 && disrupt(st, t, "restart apiserver 1", DisruptionKind::Restart).await.is_some() {
        st.borrow_mut().restarts += 1;
    }
    if phase == 10 {
        let sent = Instant::now();
        if control_ok(st, t, "apiserver 2").await.is_some() {
            let mut s = st.borrow_mut();
            s.lagging_phases += 1;
            s.lag_phases.push((sent, None));
        }
    }
    if phase == 18 {
        control_ok(st, t, "apiserver 1").await;
        if let Some(p) = st.borrow_mut().lag_phases.last_mut() {
            p.1.get_or_insert(Instant::now());
        }
    }
    if phase == 20 && control_ok(st, t, "network watch-delay 1s").await.is_some() {
        st.borrow_mut().watch_delay_phases += 1;
    }
    if phase == 25 {
        control_ok(st, t, "network watch-delay 0s").await;
    }
    if step.is_multiple_of(4) {
        tokio::task::spawn_local(hostile(st.clone(), t.clone(), step / 4));
    }
}

/// The whole schedule, until `stop`; then the network and the load balancer are set back.
pub async fn faults(st: Shared, t: Target, stop: Instant, first_rv: i64, seed: u64) {
    let t = &t;
    let mut rng = Rng::new(seed ^ 0xfa17);
    let mut held: Vec<Box<dyn std::any::Any>> = Vec::new();
    let started = Instant::now();
    let mut next_compact = started + COMPACT_EVERY;
    let mut tick = 0u64;
    // The schedule follows the wall clock in half-second steps: when a slow server holds the
    // loop up, the steps it passed meanwhile all run, in order.
    let mut step = 0u64;
    while Instant::now() < stop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        tick += 1;
        sample_clock(&st, t).await;
        let now_step = (started.elapsed().as_millis() / 500) as u64;
        let mut drops = false;
        while step < now_step {
            step += 1;
            schedule_step(&st, t, step).await;
            drops |= step.is_multiple_of(8);
        }
        if drops {
            server_drops(&st, t, &mut rng).await;
        }
        if Instant::now() >= next_compact {
            next_compact += COMPACT_EVERY;
            // Behind the newest write, so that resumed watches and lists still find their
            // revisions most of the time; early on, half way.
            let newest = st.borrow().newest_rv;
            let target = (newest - COMPACT_BEHIND).max(newest / 2);
            if target > 1 {
                let out = disrupt(&st, t, &format!("compact {target}"), DisruptionKind::Compaction)
                    .await
                    .ok_or("no answer");
                let v = out.as_ref().ok().and_then(|o| o.first().cloned()).unwrap_or_default();
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
            && let Ok(mut s) = connect(t, false).await
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
                    if crate::raw::explained_410(&v["object"], first_rv) {
                        st.borrow_mut().expired += 1;
                    } else {
                        fail(&st, format!("stale watch from {first_rv}: unexplained error {v}"));
                    }
                }
            }
        }
        // A watch read for a moment, then its connection dropped by the client.
        if let Ok(mut s) = connect(t, false).await {
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
        // Half-open connections, held until the end of the run (or the server's 32 s
        // ReadHeaderTimeout / handshake timeout): a connection that never starts its TLS
        // handshake, and a request head that never ends.
        if tick.is_multiple_of(4) && held.len() < 40 {
            if let Ok(c) = TcpStream::connect(t.api).await {
                held.push(Box::new(c));
                st.borrow_mut().half_open += 1;
            }
            let head = b"GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n";
            if let Ok(c) = TcpStream::connect(t.api).await {
                match &t.tls {
                    Some(cfg) => {
                        let name = rustls::pki_types::ServerName::IpAddress(t.api.ip().into());
                        if let Ok(mut s) =
                            tokio_rustls::TlsConnector::from(cfg.clone()).connect(name, c).await
                        {
                            let _ = s.write_all(head).await;
                            held.push(Box::new(s));
                            st.borrow_mut().half_open += 1;
                        }
                    }
                    None => {
                        let mut c = c;
                        let _ = c.write_all(head).await;
                        held.push(Box::new(c));
                        st.borrow_mut().half_open += 1;
                    }
                }
            }
        }
    }
    // Back to a plain network and the up-to-date apiserver for the drain.
    control_ok(&st, t, "network watch-delay 0s\napiserver 1").await;
    if let Some(p) = st.borrow_mut().lag_phases.last_mut() {
        p.1.get_or_insert(Instant::now());
    }
}
