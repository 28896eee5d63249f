//! The short load and fault run of `rvlab-soak` (the full one is `./dev.sh soak`): `rvlab serve`
//! with concurrent watches (some deliberately slow), writers, compaction every few seconds,
//! watches dropped mid-stream and half-open connections. Every watch must have received every
//! change after its start, in order, with no gap and no duplicate — checked against the writers'
//! answers — or have ended for a cause that explains it; nothing lost; the server still answers.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use serde_json::Value;

#[test]
fn a_short_soak_loses_nothing() {
    let out = Command::new(env!("CARGO_BIN_EXE_rvlab-soak"))
        .args(["--seconds", "12", "--watches", "40", "--writers", "6", "--slow", "4", "--rate", "15"])
        .args(["--server", env!("CARGO_BIN_EXE_rvlab")])
        .output()
        .expect("run rvlab-soak");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert!(out.status.success(), "{report:#}");
    assert_eq!(report["lost"], 0, "{report:#}");
    assert_eq!(report["failures"], Value::Array(vec![]), "{report:#}");
    // The run did what it claims: watches held, events delivered and checked, writes and
    // deletes made, faults injected.
    assert!(report["watchesHeldPeak"].as_u64().unwrap() >= 30, "{report:#}");
    assert!(report["eventsChecked"].as_u64().unwrap() > 1000, "{report:#}");
    assert!(report["deletes"].as_u64().unwrap() > 0, "{report:#}");
    let faults = &report["faults"];
    assert!(faults["compactions"].as_u64().unwrap() >= 2, "{report:#}");
    assert!(faults["droppedMidStream"].as_u64().unwrap() > 0, "{report:#}");
    assert!(faults["halfOpen"].as_u64().unwrap() > 0, "{report:#}");
    assert!(report["peakRssKiB"].as_u64().unwrap() > 0, "{report:#}");
}
