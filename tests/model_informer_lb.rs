//! Property (issue "Reliability II" §3): informers behind a load balancer over several
//! apiservers (each with its own watch cache and lag), whose connections are dropped
//! (`drop informer`) and whose apiservers restart, with writes, deletes, compactions and clock
//! advances in between, converge: once the schedule settles, each informer is watching and its
//! store is exactly the state of the collection at its `lastSyncRV` — computed by a naive
//! reference model of every write (revision, name, live or deleted), not by asking the engine.
//! client-go's contract: `Reflector.LastSyncResourceVersion` is the RV the store reflects
//! (`tools/cache/reflector.go`), whichever apiserver served the list or watch.
//!
//! Fixed seeds in CI; `RVLAB_MODEL_SEED=<n>` / `RVLAB_MODEL_CASES=<n>` explore further. A
//! failure prints the script, ready for `rvlab run --explain`.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use rvlab::clock::Rng;
use rvlab::script::Session;
use serde_json::Value;

const COLL: &str = "/api/v1/namespaces/default/configmaps";
const INFORMERS: &[&str] = &["legacy", "streaming"];

struct Case {
    s: Session,
    script: String,
    line: usize,
    /// (revision, name, live?) of every write to the collection
    history: Vec<(i64, String, bool)>,
}

impl Case {
    fn run(&mut self, line: &str) -> Value {
        self.line += 1;
        self.script.push_str(line);
        self.script.push('\n');
        self.s.run_line(self.line, line).unwrap_or(Value::Null)
    }

    /// A write to the collection; one that wrote (etcd's revision moved) is recorded at the
    /// new revision (a no-op update writes nothing).
    fn write(&mut self, line: &str, name: &str, live: bool) {
        let before = self.s.revision();
        let o = self.run(line);
        let ok = o["code"].as_i64().is_some_and(|c| (200..300).contains(&c));
        if ok && self.s.revision() > before {
            self.history.push((self.s.revision(), name.to_string(), live));
        }
    }

    /// The model's state at `rev`: name → resourceVersion.
    fn state_at(&self, rev: i64) -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        for (r, name, live) in &self.history {
            if *r > rev {
                break;
            }
            if *live {
                m.insert(name.clone(), r.to_string());
            } else {
                m.remove(name);
            }
        }
        m
    }
}

fn body(name: &str, v: u64) -> String {
    format!(r#"{{"metadata":{{"name":"{name}"}},"data":{{"v":"{v}"}}}}"#)
}

/// Runs one random schedule; returns what the informers' logs showed (410s, relists,
/// connections moved to another apiserver) or the failure.
fn run_case(seed: u64) -> Result<[usize; 3], String> {
    let mut r = Rng::new(seed);
    let servers = 2 + r.range(0, 2) as usize;
    let mut c = Case { s: Session::new(), script: String::new(), line: 0, history: Vec::new() };
    c.run("set compactor off");
    c.run(&format!("set apiservers {servers}"));
    for n in 1..=servers {
        c.run(&format!("apiserver {n}"));
        c.run(&format!("set cache.lag {}", ["0s", "300ms", "1s", "2s"][r.range(0, 4) as usize]));
        c.run(&format!("set cache.capacity {}", [5, 20, 100][r.range(0, 3) as usize]));
    }
    c.run("apiserver 1");
    let all: Vec<String> = (1..=servers).map(|n| n.to_string()).collect();
    for (i, mode) in INFORMERS.iter().enumerate() {
        let mut order = all.clone();
        order.rotate_left(i % servers);
        c.run(&format!(
            "informer start i{i} configmaps ns=default mode={mode} apiservers={}",
            order.join(",")
        ));
    }
    for _ in 0..r.range(15, 45) {
        let name = format!("o{}", r.range(0, 5));
        match r.range(0, 12) {
            0..=2 => c.write(&format!("POST {COLL} {}", body(&name, r.range(0, 4))), &name, true),
            3..=4 => c.write(&format!("PUT {COLL}/{name} {}", body(&name, r.range(0, 4))), &name, true),
            5 => c.write(&format!("DELETE {COLL}/{name}"), &name, false),
            6 => {
                c.run(&format!("drop informer i{}", r.range(0, INFORMERS.len() as u64)));
            }
            7 => {
                c.run(&format!("restart apiserver {}", 1 + r.range(0, servers as u64)));
            }
            8 => {
                let rev = c.s.revision();
                c.run(&format!("compact {}", rev - r.range(0, 3) as i64));
            }
            _ => {
                c.run(&format!(
                    "advance {}",
                    ["200ms", "1s", "3s", "10s", "45s", "6m"][r.range(0, 6) as usize]
                ));
            }
        }
    }
    c.run("advance 60s");
    let mut seen = [0; 3];
    for i in 0..INFORMERS.len() {
        let show = c.run(&format!("informer show i{i}"));
        let fail = |why: String| {
            Err(format!("seed {seed}, informer i{i}: {why}\n{show}\n--- script ---\n{}", c.script))
        };
        if show["state"] != "watching" {
            return fail("did not settle to watching".into());
        }
        let Some(last) = show["lastSyncRV"].as_str().and_then(|v| v.parse::<i64>().ok()) else {
            return fail("no lastSyncRV".into());
        };
        let store: BTreeMap<String, String> = show["store"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|o| {
                (
                    o["name"].as_str().unwrap_or("").to_string(),
                    o["resourceVersion"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        let want = c.state_at(last);
        if store != want {
            return fail(format!("store {store:?} ≠ the state at lastSyncRV {last}: {want:?}"));
        }
        // Settled: nothing written after lastSyncRV is missing.
        if c.history.last().is_some_and(|h| h.0 > last) {
            return fail(format!("lastSyncRV {last} is behind the last write {:?}", c.history.last()));
        }
        let log = show["log"].to_string();
        seen[0] += usize::from(log.contains("410"));
        seen[1] += usize::from(log.contains("relist"));
        seen[2] += usize::from(log.contains("to apiserver 2") || log.contains("to apiserver 3"));
    }
    Ok(seen)
}

#[test]
fn informers_behind_a_load_balancer_converge_to_the_state_at_their_last_sync_rv() {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let base = env("RVLAB_MODEL_SEED").map_or(1000, |s| s.wrapping_mul(7919));
    let cases = env("RVLAB_MODEL_CASES").unwrap_or(40);
    let mut totals = [0; 3];
    for seed in base..base + cases {
        match run_case(seed) {
            Ok(s) => (0..3).for_each(|i| totals[i] += s[i]),
            Err(e) => panic!("{e}"),
        }
    }
    eprintln!(
        "informers with a 410: {}, with a relist: {}, moved to another apiserver: {}",
        totals[0], totals[1], totals[2]
    );
    // The schedules really exercise recovery across apiservers, not just a quiet watch.
    assert!(
        totals[0] >= 3 && totals[1] >= 10 && totals[2] >= 10,
        "too few recoveries exercised (410, relist, other apiserver): {totals:?}"
    );
}
