//! Play in the UI turns a run of `advance Ns` ticks into one `advance (k·N)s` line. That is only
//! honest if moving the simulated clock in one step or in many steps leaves the sandbox in the
//! same state: these tests run scenarios with watches, informers, compaction, slow consumers and
//! restarts both ways and compare everything the script can observe afterwards.

use rvlab::script::Session;
use serde_json::Value;

const CM: &str = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"#;

/// What the session answers to `after`, once `prefix` ran and then the clock moved by `ticks`
/// advances of `secs` seconds each (`chunked`) or by one advance of `ticks · secs` seconds.
fn observe(prefix: &[String], secs: u64, ticks: u64, chunked: bool, after: &[String]) -> Vec<Value> {
    let mut s = Session::with_explain(true);
    let mut n = 0;
    let mut run = |s: &mut Session, line: &str| {
        n += 1;
        s.run_line(n, line)
    };
    for l in prefix {
        run(&mut s, l);
    }
    if chunked {
        for _ in 0..ticks {
            run(&mut s, &format!("advance {secs}s"));
        }
    } else {
        run(&mut s, &format!("advance {}s", secs * ticks));
    }
    // Line numbers differ between the two runs; everything else must not.
    after
        .iter()
        .filter_map(|l| run(&mut s, l))
        .map(|mut v| {
            if let Some(o) = v.as_object_mut() {
                o.remove("line");
            }
            v
        })
        .collect()
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(|l| l.replace("{CM}", CM)).filter(|l| !l.trim().is_empty()).collect()
}

fn same_either_way(prefix: &str, after: &str) {
    let (prefix, after) = (lines(prefix), lines(after));
    for (secs, ticks) in [(1, 1), (1, 7), (1, 65), (10, 13), (60, 11)] {
        let chunked = observe(&prefix, secs, ticks, true, &after);
        let whole = observe(&prefix, secs, ticks, false, &after);
        assert_eq!(chunked, whole, "{ticks} × advance {secs}s differs from advance {}s", secs * ticks);
    }
}

#[test]
fn watches_bookmarks_and_timeouts_do_not_depend_on_how_the_clock_moved() {
    same_either_way(
        "POST /api/v1/namespaces/default/configmaps {CM}\"a\"}}
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&allowWatchBookmarks=true&timeoutSeconds=37
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2
POST /api/v1/namespaces/default/configmaps {CM}\"b\"}}
DELETE /api/v1/namespaces/default/configmaps/a",
        "events w1
events w2
POST /api/v1/namespaces/default/configmaps {CM}\"c\"}}
advance 3s
events w1
events w2
GET /api/v1/namespaces/default/configmaps?resourceVersion=0",
    );
}

#[test]
fn informers_in_every_mode_do_not_depend_on_how_the_clock_moved() {
    for mode in ["legacy", "streaming", ""] {
        let mode = if mode.is_empty() { String::new() } else { format!(" mode={mode}") };
        same_either_way(
            &format!(
                "POST /api/v1/namespaces/default/configmaps {{CM}}\"a\"}}}}
informer start inf configmaps ns=default{mode}
advance 1s
restart apiserver 1
DELETE /api/v1/namespaces/default/configmaps/a
POST /api/v1/namespaces/default/configmaps {{CM}}\"b\"}}}}"
            ),
            "informer show inf
POST /api/v1/namespaces/default/configmaps {CM}\"c\"}}
advance 2s
informer show inf",
        );
    }
}

#[test]
fn compaction_rounds_and_slow_watchers_do_not_depend_on_how_the_clock_moved() {
    same_either_way(
        "set compaction-interval 30s
POST /api/v1/namespaces/default/configmaps {CM}\"a\"}}
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0
POST /api/v1/namespaces/default/configmaps {CM}\"b\"}}
GET /api/v1/namespaces/default/configmaps?limit=1
PUT /api/v1/namespaces/default/configmaps/a {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"default\"},\"data\":{\"x\":\"1\"}}",
        "events w1
etcd get /registry/ --prefix
GET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact
GET /api/v1/namespaces/default/configmaps?resourceVersion=0",
    );
}
