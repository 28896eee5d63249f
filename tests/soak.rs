//! The short load and fault run of `rvlab-soak` (the full one is `./dev.sh soak`, and a 60 s one
//! is a phase of `./dev.sh test`): `rvlab serve` over HTTPS with kubectl watches, the Python
//! client's watch loop, client-node's informer and the kube-rs controller, raw watches (some
//! deliberately slow) and writers, while apiserver 1 restarts, a lagging second apiserver takes
//! new connections, watches are held on the network, etcd is compacted every few seconds,
//! watches are dropped from either side, and hostile clients come and go. Every watch must have
//! received every change after its start, in order, with no gap and no duplicate — checked
//! against the writers' answers — or have ended for a cause that explains it; every real
//! client's cache must end equal to the server's state; nothing lost; the server answered every
//! timed GET. A real client that is missing is a failure under `./dev.sh test` or CI
//! (`tests/support/external.rs`), a `SKIPPED` line otherwise.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use serde_json::Value;

#[path = "support/external.rs"]
mod external;

#[test]
fn a_short_soak_with_real_clients_loses_nothing() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rvlab-soak"));
    cmd.args(["--seconds", "20", "--watches", "40", "--writers", "6", "--slow", "4", "--rate", "10"]).args([
        "--kubectl",
        "1",
        "--server",
        env!("CARGO_BIN_EXE_rvlab"),
        // Judged: the server's memory comes back to within 10% of its size after the warm-up
        // (the log is on disk, only the latest ended watches are kept).
        "--memory",
        "judge",
    ]);
    let mut expected_clients = Vec::new();
    if let Some(k) = external::kubectl() {
        cmd.arg("--kubectl-bin").arg(k);
        expected_clients.push("kubectl-1");
    }
    if let Some(p) = external::python() {
        cmd.arg("--python").arg(p);
        expected_clients.push("python");
    }
    if let Some(d) = external::client_node() {
        cmd.arg("--client-node").arg(d);
        expected_clients.push("client-node");
    }
    cmd.arg("--controller").arg(external::kube_controller());
    expected_clients.push("kube-rs");
    let out = cmd.output().expect("run rvlab-soak");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert!(out.status.success(), "{report:#}");
    assert_eq!(report["lost"], 0, "{report:#}");
    assert_eq!(report["failures"], Value::Array(vec![]), "{report:#}");
    assert!(report["tls"].as_bool().unwrap(), "{report:#}");
    // Every real client that is installed ran, and ended holding the server's state.
    let clients: Vec<&str> =
        report["realClients"].as_array().unwrap().iter().map(|c| c["client"].as_str().unwrap()).collect();
    assert_eq!(clients, expected_clients, "{report:#}");
    for c in report["realClients"].as_array().unwrap() {
        assert!(c["equalServerStateAfterS"].is_number(), "{c:#}");
        assert_eq!(c["outOfOrderOrTwice"], 0, "{c:#}");
        assert!(c["updates"].as_u64().unwrap() > 10, "{c:#}");
    }
    // The run did what it claims: watches held, events delivered and checked, writes and
    // deletes made, every kind of fault and hostile client.
    assert!(report["watchesHeldPeak"].as_u64().unwrap() >= 30, "{report:#}");
    assert!(report["eventsChecked"].as_u64().unwrap() > 1000, "{report:#}");
    assert!(report["deletes"].as_u64().unwrap() > 0, "{report:#}");
    let faults = &report["faults"];
    for f in [
        "restarts",
        "laggingApiserverPhases",
        "watchDelayPhases",
        "droppedByServer",
        "droppedByClient",
        "halfOpen",
    ] {
        assert!(faults[f].as_u64().unwrap() > 0, "{f}: {report:#}");
    }
    assert!(faults["compactions"].as_u64().unwrap() >= 2, "{report:#}");
    let hostile = &report["hostile"]["byKind"];
    for h in ["garbageBytes", "plainHttpToHttps", "garbageHttp", "oversizedBody", "neverReads"] {
        assert!(hostile[h].as_u64().is_some_and(|n| n > 0), "{h}: {report:#}");
    }
    // The timed GET was answered throughout; the memory came back.
    assert_eq!(report["getLatencyMs"]["unanswered"], 0, "{report:#}");
    assert!(report["getLatencyMs"]["samples"].as_u64().unwrap() > 50, "{report:#}");
    assert!(report["rssKiB"]["startAfterWarmUp"].as_u64().unwrap() > 0, "{report:#}");
    assert!(report["rssKiB"]["afterClientsLeft"].as_u64().unwrap() > 0, "{report:#}");
    assert_eq!(report["rssKiB"]["judged"], true, "{report:#}");
    assert!(report["rssKiB"]["ratio"].as_f64().unwrap() <= 1.10, "{report:#}");
}

/// A run without the real clients, over plain HTTP (`--http`): the raw checks hold there too.
#[test]
fn a_short_plain_http_soak_loses_nothing() {
    let out = Command::new(env!("CARGO_BIN_EXE_rvlab-soak"))
        .args(["--seconds", "8", "--watches", "20", "--writers", "4", "--slow", "2", "--rate", "10"])
        .args(["--http", "--no-clients", "--server", env!("CARGO_BIN_EXE_rvlab")])
        .output()
        .expect("run rvlab-soak");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert!(out.status.success(), "{report:#}");
    assert_eq!(report["failures"], Value::Array(vec![]), "{report:#}");
    assert!(!report["tls"].as_bool().unwrap(), "{report:#}");
    assert!(report["eventsChecked"].as_u64().unwrap() > 100, "{report:#}");
    assert!(report["hostile"]["byKind"]["garbageHttp"].as_u64().is_some_and(|n| n > 0), "{report:#}");
}

/// The book's page is the rendering of the committed report (`./dev.sh soak SECONDS --record`
/// writes both).
#[test]
fn the_book_page_is_the_rendering_of_the_committed_report() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let data = root.join("site/src/data/soak.json");
    let out =
        Command::new(env!("CARGO_BIN_EXE_rvlab-soak")).arg("--render-page").arg(&data).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(root.join("site/src/project/soak.md")).unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout) == page,
        "site/src/project/soak.md is not the rendering of site/src/data/soak.json: run ./dev.sh soak 600 --record"
    );
    // The committed record ran every real client and lost nothing.
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&data).unwrap()).unwrap();
    assert_eq!(report["lost"], 0);
    assert_eq!(report["realClients"].as_array().unwrap().len(), 5, "{report:#}");
}
