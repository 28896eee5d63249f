//! `set keep-ended-watches <n>`: a session that keeps only the latest `n` ended watches (what
//! `rvlab serve` records at its start, so its memory does not grow with the watches it served).
//! A watch has ended for its client when an `events` line read its end or a `cancel` line ended
//! it; beyond `n`, the oldest is forgotten by the session, its read model and its apiserver, and
//! a later line naming it is refused as `watch-gone`, live and in replay alike. The default
//! (`all`) keeps every watch, as the playground's pictures need.
#![cfg(not(target_arch = "wasm32"))]

use rvlab::script::Session;
use serde_json::{Value, json};

fn run(s: &mut Session, lines: &[&str]) -> Vec<Value> {
    lines.iter().enumerate().filter_map(|(i, l)| s.run_line(i + 1, l)).collect()
}

const WATCH: &str = "GET /api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=5";

#[test]
fn the_oldest_ended_watch_beyond_the_kept_is_forgotten_and_refused_as_gone() {
    let mut s = Session::new();
    let out = run(
        &mut s,
        &[
            "set keep-ended-watches 1",
            WATCH,
            WATCH,
            WATCH,
            "advance 6s",
            // w1's end is read: it is the one kept.
            "events w1",
            // w2 is cancelled: kept, and w1 is forgotten.
            "cancel w2",
            "events w1",
            "cancel w1",
            "drop w1",
            "pause w1",
            "resume w1",
            // w2 is still kept (its end is still there to read); w3 is still open to its client.
            "events w2",
            "events w9",
        ],
    );
    assert_eq!(out[0], json!({"line": 1, "set": "keep-ended-watches", "value": "1"}));
    assert_eq!(out[5]["closed"], true, "{}", out[5]);
    assert_eq!(out[6], json!({"line": 7, "canceled": "w2"}));
    for (i, line) in [(7, "events"), (8, "cancel"), (9, "drop"), (10, "pause"), (11, "resume")] {
        assert_eq!(
            out[i],
            json!({"line": i + 1, "error": "watch w1 is gone", "refused": {"kind": "watch-gone", "watch": "w1"}}),
            "{line} w1 once forgotten"
        );
    }
    assert_eq!(out[12]["closed"], true, "{}", out[12]);
    assert_eq!(out[13]["refused"]["kind"], "no-watch", "a watch never opened is not 'gone': {}", out[13]);
    // The pictures draw what is kept; the apiserver kept w2 and w3 only.
    let ids: Vec<String> = s.watches().into_iter().map(|w| w.id).collect();
    assert_eq!(ids, ["w2", "w3"]);
    assert_eq!(s.kept_watches(), (2, 2));
}

#[test]
fn by_default_every_ended_watch_is_kept() {
    let mut s = Session::new();
    let out = run(&mut s, &[WATCH, WATCH, "advance 6s", "events w1", "cancel w2", "events w1", "events w2"]);
    assert_eq!(out[5]["closed"], true, "{}", out[5]);
    assert_eq!(out[6]["closed"], true, "{}", out[6]);
    assert_eq!(s.kept_watches(), (2, 2));
    assert_eq!(s.watches().len(), 2);
}

#[test]
fn many_watches_served_leave_only_the_kept_ones() {
    let mut s = Session::new();
    let mut lines = vec!["set keep-ended-watches 3".to_string()];
    for i in 1..=200 {
        lines.push(WATCH.to_string());
        lines.push(format!(
            "POST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"c{i}\"}}}}"
        ));
        lines.push(format!("cancel w{i}"));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    run(&mut s, &refs);
    assert_eq!(s.kept_watches(), (3, 3));
    // Back to `all`: the kept ones stay, nothing more is forgotten.
    let out = run(&mut s, &["set keep-ended-watches all", WATCH, "cancel w201"]);
    assert_eq!(out[0]["value"], "all");
    assert_eq!(s.kept_watches(), (4, 4));
}

#[test]
fn a_value_that_is_not_all_or_a_number_is_refused_in_both_languages() {
    let mut s = Session::new();
    let out = run(&mut s, &["set keep-ended-watches some", "set keep-ended-watches -1"]);
    assert_eq!(
        out[0],
        json!({"line": 1, "error": "keep-ended-watches takes all or a number from 0 to 100000, not \"some\"",
               "refused": {"kind": "setting", "error": {"kind": "keep-ended-watches", "value": "some", "max": 100000}}}),
    );
    assert_eq!(out[1]["refused"]["error"]["value"], "-1", "{}", out[1]);
    let zh = s
        .run_line_outcome(3, "set keep-ended-watches x")
        .and_then(|o| o.failure)
        .map(|f| f.render(rvlab::script::why::Lang::Zh));
    assert_eq!(zh.as_deref(), Some("keep-ended-watches 接受 all 或 0 到 100000 之间的数，而不是 \"x\""));
}
