//! The scrubber and undo rebuild the session after a prefix of the log from the nearest
//! `Checkpoints` snapshot instead of from the first line. That is only honest if a snapshot is a
//! sandbox of its own that goes on exactly like the original: these tests run every script and
//! lesson in the repository (watches, informers, pagers, compaction, restarts, several
//! apiservers) and check that, from every point of the log, the state rebuilt from the
//! checkpoints answers the rest of the log with the same output, byte for byte, as the session
//! that ran the whole log in one go.

use rvlab::script::Session;
use rvlab::script::session::Checkpoints;
use serde_json::Value;

fn scripts() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from("scripts"), std::path::PathBuf::from("lessons")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("readable dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rv") {
                let text = std::fs::read_to_string(&p).expect("readable script");
                out.push((p.display().to_string(), text.lines().map(String::from).collect()));
            }
        }
    }
    out.sort();
    assert!(out.len() >= 20, "found only {} scripts", out.len());
    out
}

fn run_all(lines: &[String]) -> Vec<Option<Value>> {
    let mut s = Session::with_explain(true);
    lines.iter().enumerate().map(|(i, l)| s.run_line(i + 1, l)).collect()
}

#[test]
fn every_prefix_rebuilt_from_checkpoints_answers_the_rest_of_the_log_the_same() {
    let fresh = || Session::with_explain(true);
    for (name, lines) in scripts() {
        let want = run_all(&lines);
        let mut cps = Checkpoints::new(3);
        // Taken while the log runs line by line, as the console does.
        let mut s = fresh();
        for (i, l) in lines.iter().enumerate() {
            s.run_line(i + 1, l);
            cps.offer(i + 1, &s);
        }
        assert!(lines.len() < 3 || cps.positions().count() > 0, "{name}: no checkpoint taken");
        for n in 0..=lines.len() {
            let mut s = cps.session_at(n, &lines, fresh);
            for (i, l) in lines.iter().enumerate().skip(n) {
                let got = s.run_line(i + 1, l);
                assert_eq!(got, want[i], "{name}: line {} after rebuilding the first {n} lines", i + 1);
            }
        }
    }
}

#[test]
fn a_copy_goes_on_without_touching_the_original() {
    let lines: Vec<String> = vec![
        "POST /api/v1/namespaces/default/configmaps {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}".into(),
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0".into(),
        "informer start i configmaps ns=default".into(),
    ];
    let mut s = Session::with_explain(true);
    for (i, l) in lines.iter().enumerate() {
        s.run_line(i + 1, l);
    }
    let before = s.view();
    let mut copy = s.clone();
    copy.run_line(4, "DELETE /api/v1/namespaces/default/configmaps/a");
    copy.run_line(5, "advance 10m");
    copy.run_line(6, "compact 2");
    assert_ne!(copy.view(), before, "the copy moved on");
    assert_eq!(s.view(), before, "the original did not");
    // Both read the same pending frames of the watch.
    let mut twin = s.clone();
    assert_eq!(s.run_line(4, "events w1"), twin.run_line(4, "events w1"));
}

#[test]
fn spacing_doubles_to_keep_at_most_max_snapshots() {
    let lines: Vec<String> = (0..2_000).map(|i| format!("advance {}s", i % 3 + 1)).collect();
    let mut cps = Checkpoints::new(4);
    let mut s = Session::new();
    for (i, l) in lines.iter().enumerate() {
        s.run_line(i + 1, l);
        cps.offer(i + 1, &s);
    }
    let at: Vec<usize> = cps.positions().collect();
    assert!(at.len() <= Checkpoints::MAX, "{} snapshots", at.len());
    assert_eq!(cps.every(), 128, "4 → 8 → … → 128 lines apart for 2000 lines");
    assert!(at.iter().all(|n| n % 128 == 0), "{at:?}");
    assert_eq!(at.last(), Some(&1920));
    cps.truncate(1000);
    assert_eq!(cps.positions().last(), Some(896));
    // A rebuild keeps one snapshot: the last spacing point on its way.
    assert_eq!(cps.mark_in(896, 1500), Some(1408));
    assert_eq!(cps.mark_in(896, 1000), None);
    // A rebuilt prefix equals running it in one go.
    let mut a = cps.session_at(1500, &lines, Session::new);
    let mut b = Session::new();
    for (i, l) in lines[..1500].iter().enumerate() {
        b.run_line(i + 1, l);
    }
    assert_eq!(a.now_ms(), b.now_ms());
    assert_eq!(cps.positions().last(), Some(1408));
    assert_eq!(a.run_line(1501, "advance 1s"), b.run_line(1501, "advance 1s"));
}
