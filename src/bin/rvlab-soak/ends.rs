//! Why the server ended each raw watch, as its log says: the served record (`GET
//! /rvlab/v1/script`, a script) replayed with the engine, with `set explain on` so that every
//! ended stream's `events` output carries its `why` (`ended`: `timeout`, `slow-consumer`,
//! `restart`, …). The record replays to exactly what the clients saw, so this is the server's
//! own account of each end, not a guess from timings.

use rvlab::script::Session;
use serde_json::Value;

use crate::NS_PATH;

/// One raw watch (`?watch=true&resourceVersion=R&timeoutSeconds=T`) the server ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEnd {
    pub start_rv: i64,
    pub timeout: u64,
    /// The `why`'s `ended` (`slow-consumer`, `timeout`, …).
    pub reason: String,
    /// Simulated milliseconds when the end was read (the clock the soak samples).
    pub at_ms: u64,
}

/// The raw watch a request line opens: its resourceVersion and timeoutSeconds.
fn raw_watch(line: &str) -> Option<(i64, u64)> {
    let query = line.strip_prefix("GET ")?.strip_prefix(NS_PATH)?.strip_prefix('?')?;
    let mut rv = None;
    let mut timeout = None;
    let mut watch = false;
    for kv in query.split('&') {
        match kv.split_once('=') {
            Some(("watch", "true")) => watch = true,
            Some(("resourceVersion", v)) => rv = v.parse().ok(),
            Some(("timeoutSeconds", v)) => timeout = v.parse().ok(),
            _ => return None,
        }
    }
    if !watch {
        return None;
    }
    Some((rv?, timeout?))
}

/// Replays `record` and returns every raw watch's end, in the order the server ended them.
pub fn server_ends(record: &str) -> Vec<ServerEnd> {
    let mut session = Session::new();
    let mut open: std::collections::HashMap<String, (i64, u64)> = std::collections::HashMap::new();
    let mut ends = Vec::new();
    let mut n = 0usize;
    for line in record.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        n += 1;
        let out = session.run_line(n, t);
        if n == 1 {
            // After the record's `set clock.epoch`: the ended streams' `why`.
            n += 1;
            session.run_line(n, "set explain on");
        }
        let Some(out) = out else { continue };
        if let Some((rv, timeout)) = raw_watch(t) {
            if let Some(id) = out.get("watch").and_then(Value::as_str) {
                open.insert(id.to_string(), (rv, timeout));
            }
            continue;
        }
        let Some(id) = t.strip_prefix("events ") else { continue };
        if out.get("closed").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        let Some((start_rv, timeout)) = open.remove(id) else { continue };
        let reason = out["why"]["ended"].as_str().unwrap_or("").to_string();
        ends.push(ServerEnd { start_rv, timeout, reason, at_ms: session.now_ms() });
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_says_why_each_raw_watch_ended() {
        let record = format!(
            "set clock.epoch 2027-01-15T08:00:00Z\n\
             POST {NS_PATH} {{\"metadata\":{{\"name\":\"a\"}}}}\n\
             GET {NS_PATH}?watch=true&resourceVersion=2&timeoutSeconds=4\n\
             GET {NS_PATH}?watch=true&resourceVersion=2&timeoutSeconds=9\n\
             GET {NS_PATH}?watch=true\n\
             advance 5s\n\
             events w1\n\
             restart apiserver 1\n\
             events w2\n\
             events w3\n"
        );
        let ends = server_ends(&record);
        let got: Vec<(i64, u64, &str)> =
            ends.iter().map(|e| (e.start_rv, e.timeout, e.reason.as_str())).collect();
        assert_eq!(got, [(2, 4, "timeout"), (2, 9, "restart")]);
        assert_eq!(ends[0].at_ms, 5000);
    }
}
