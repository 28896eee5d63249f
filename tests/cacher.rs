//! The watch cache and the read paths it serves (§C.2–§C.5, §E, §A.6), driven through the script
//! session exactly as `rvlab run` does, with the cache on (the default).
use rvlab::script::Session;
use serde_json::{Value, json};

fn run(script: &str) -> Vec<Value> {
    Session::new().run_script(script)
}

fn cm(name: &str) -> String {
    format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#)
}

fn cms(names: &[&str]) -> String {
    names.iter().map(|n| cm(n)).collect::<Vec<_>>().join("\n")
}

fn list_rv(v: &Value) -> &str {
    v["body"]["metadata"]["resourceVersion"].as_str().unwrap_or("")
}

fn names(v: &Value) -> Vec<String> {
    v["body"]["items"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["metadata"]["name"].as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// `TYPE name@rv` for each frame (ERROR frames as `ERROR <code>`; bookmarks as `BOOKMARK@rv`).
fn frames(v: &Value) -> Vec<String> {
    v["events"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    let t = e["type"].as_str().unwrap_or("");
                    let o = &e["object"];
                    match t {
                        "ERROR" => format!("ERROR {}", o["code"]),
                        "BOOKMARK" => {
                            format!("BOOKMARK@{}", o["metadata"]["resourceVersion"].as_str().unwrap_or(""))
                        }
                        _ => format!(
                            "{t} {}@{}",
                            o["metadata"]["name"].as_str().unwrap_or(""),
                            o["metadata"]["resourceVersion"].as_str().unwrap_or("")
                        ),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

// §C.2 C-consistent: the list RV is etcd's current revision, even after a write to another
// resource (the cache learns it through a progress notification).
#[test]
fn consistent_list_reports_etcds_revision() {
    let out = run(&format!(
        "{}\netcd put /registry/other/x 1\nGET /api/v1/namespaces/default/configmaps\nGET /api/v1/namespaces/default/configmaps?resourceVersion=0",
        cm("a")
    ));
    assert_eq!(list_rv(&out[2]), "3");
    assert_eq!(names(&out[2]), ["a"]);
    // rv=0 right after: the cache has meanwhile learnt revision 3.
    assert_eq!(list_rv(&out[3]), "3");
}

// §C.3 rv=0 on a lagging apiserver goes back in time after a newer read elsewhere.
#[test]
fn rv0_on_a_lagging_apiserver_goes_back_in_time() {
    let out = run(&format!(
        "set apiservers 2\napiserver 2\nset cache.lag 10s\napiserver 1\n{}\nGET /api/v1/namespaces/default/configmaps\napiserver 2\nGET /api/v1/namespaces/default/configmaps?resourceVersion=0\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2\nadvance 10s\nGET /api/v1/namespaces/default/configmaps?resourceVersion=0",
        cm("a")
    ));
    assert_eq!((list_rv(&out[5]), names(&out[5])), ("2", vec!["a".to_string()]));
    assert_eq!((list_rv(&out[7]), names(&out[7])), ("1", vec![]));
    // Not older than 2 waits 3 s for the lagging cache, then 504 with Retry-After: 1.
    assert_eq!(out[8]["code"], 504);
    assert_eq!(out[8]["body"]["message"], "Timeout: Too large resource version: 2, current: 1");
    assert_eq!(
        out[8]["body"]["details"],
        json!({"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1})
    );
    assert_eq!(out[8]["headers"], json!({"Retry-After": "1"}));
    assert_eq!(out[9]["now"], "13s");
    assert_eq!((list_rv(&out[10]), names(&out[10])), ("2", vec!["a".to_string()]));
}

// §C.2 the consistent list on a cache lagging more than 3 s falls back to etcd.
#[test]
fn consistent_list_falls_back_to_etcd_after_3s() {
    let out = run(&format!(
        "set cache.lag 5s\n{}\nGET /api/v1/namespaces/default/configmaps?limit=5\nadvance 0s",
        cm("a")
    ));
    assert_eq!(out[2]["code"], 200);
    assert_eq!(names(&out[2]), ["a"]);
    assert_eq!(out[3]["now"], "3s");
    // With a lag under 3 s it waits for the cache instead.
    let out =
        run(&format!("set cache.lag 2s\n{}\nGET /api/v1/namespaces/default/configmaps\nadvance 0s", cm("a")));
    assert_eq!(names(&out[2]), ["a"]);
    assert_eq!(out[3]["now"], "2s");
}

// §C.3 rv=0 ignores limit; rv unset with limit paginates with a token at the cache RV.
#[test]
fn limit_is_ignored_at_rv0() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?limit=1&resourceVersion=0\nGET /api/v1/namespaces/default/configmaps?limit=1",
        cms(&["a", "b", "c"])
    ));
    assert_eq!(names(&out[3]), ["a", "b", "c"]);
    assert!(out[3]["body"]["metadata"].get("continue").is_none());
    assert_eq!(names(&out[4]), ["a"]);
    assert_eq!(out[4]["body"]["metadata"]["remainingItemCount"], 2);
    assert_eq!(
        out[4]["body"]["metadata"]["continue"],
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0"
    );
}

// §C.2 C-snap: Exact and legacy-Exact reads come from the cache's snapshots; a snapshot survives
// an etcd compaction the apiserver does not know of, so 1.34+ answers where 1.30 (etcd) says 410.
#[test]
fn exact_reads_from_snapshots_vs_etcd_by_version() {
    let script = format!(
        "{}\netcd compact 4\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact\nGET /api/v1/namespaces/default/configmaps?limit=5&resourceVersion=3",
        cms(&["a", "b", "c"])
    );
    let now = run(&script);
    assert_eq!(now[4]["code"], 200);
    assert_eq!((list_rv(&now[4]), names(&now[4])), ("2", vec!["a".to_string()]));
    assert_eq!((list_rv(&now[5]), names(&now[5])), ("3", vec!["a".to_string(), "b".to_string()]));
    let old = run(&format!("set kubernetes 1.30\n{script}"));
    assert_eq!(old[5]["code"], 410);
    assert_eq!(old[5]["body"]["message"], "The resourceVersion for the provided list is too old.");
    assert_eq!(old[6]["code"], 410);
    // A compaction the apiserver knows of drops the snapshots below it: etcd answers (410).
    let known = run(&format!(
        "{}\ncompact 4\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact",
        cms(&["a", "b", "c"])
    ));
    assert_eq!(known[4]["code"], 410);
}

// §E.3 a watch below the cache's oldest startable RV → 200 + one ERROR 410 frame.
#[test]
fn watch_below_the_cache_window_is_410() {
    let names: Vec<String> = (1..=10).map(|i| format!("o{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let out = run(&format!(
        "set cache.capacity 5\n{}\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=4\nevents w1\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=6\nevents w2",
        cms(&refs)
    ));
    assert_eq!(out[11], json!({"line":12,"code":200,"watch":"w1"}));
    assert_eq!(frames(&out[12]), ["ERROR 410"]);
    let err = &out[12]["events"][0]["object"];
    assert_eq!(err["reason"], "Expired");
    assert_eq!(err["message"], "too old resource version: 4 (6)");
    assert_eq!(out[12]["closed"], true);
    assert_eq!(frames(&out[14]), ["ADDED o6@7", "ADDED o7@8", "ADDED o8@9", "ADDED o9@10", "ADDED o10@11"]);
}

// §E.4 a paused consumer: the watcher is terminated when its buffer (10+1+10 at capacity 100) is
// full; the stream just ends — what sat in the result channel is still read, no ERROR, no 410.
#[test]
fn slow_watcher_is_closed_silently() {
    let names: Vec<String> = (1..=22).map(|i| format!("o{i:02}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let out = run(&format!(
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1\npause w1\n{}\nresume w1\nevents w1\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=11\nevents w2",
        cms(&refs)
    ));
    let got = &out[25];
    assert_eq!(got["closed"], true);
    assert_eq!(frames(got).len(), 10);
    assert_eq!(frames(got)[0], "ADDED o01@2");
    assert!(frames(got).iter().all(|f| !f.starts_with("ERROR")));
    // The re-watch from the last RV it saw succeeds: the window still covers it.
    assert_eq!(frames(&out[27]).len(), 12);
    assert_eq!(frames(&out[27])[0], "ADDED o11@12");
    // 21 undelivered events are tolerated.
    let refs21: Vec<&str> = refs[..21].to_vec();
    let out = run(&format!(
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1\npause w1\n{}\nresume w1\nevents w1",
        cms(&refs21)
    ));
    assert_eq!(out[24]["closed"], false);
    assert_eq!(frames(&out[24]).len(), 21);
}

// §E.2 rv unset: synthetic ADDED of the state (defaulted to sendInitialEvents under WatchList),
// with the initial-events-end bookmark when bookmarks are allowed; then changes.
#[test]
fn watch_list_initial_events_and_end_bookmark() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true\n{}\nevents w1",
        cms(&["b", "a"]),
        cm("c")
    ));
    assert_eq!(frames(&out[4]), ["ADDED a@3", "ADDED b@2", "BOOKMARK@3", "ADDED c@4"]);
    let bm = &out[4]["events"][2]["object"];
    assert_eq!(
        bm,
        &json!({"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"3","annotations":{"k8s.io/initial-events-end":"true"}}})
    );
    // Without WatchList (1.33) the same request is a plain rv="" watch: state, no end bookmark.
    let out = run(&format!(
        "set kubernetes 1.33\n{}\nGET /api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true\nevents w1",
        cms(&["a"])
    ));
    assert_eq!(frames(&out[3]), ["ADDED a@2"]);
    // And sendInitialEvents is refused there.
    let out = run(
        "set kubernetes 1.33\nGET /api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
    );
    assert_eq!(out[1]["code"], 422);
}

// §E.5 bookmarks ≈ every 60 s and 2 s before the deadline, only above the start RV; the
// deadline ends the stream cleanly.
#[test]
fn bookmarks_and_timeout() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1&allowWatchBookmarks=true&timeoutSeconds=100\nadvance 61s\nevents w1\nadvance 40s\nevents w1",
        cm("a")
    ));
    assert_eq!(frames(&out[3]), ["ADDED a@2", "BOOKMARK@2"]);
    assert_eq!(frames(&out[5]), ["BOOKMARK@2"]);
    assert_eq!(out[5]["closed"], true);
    // No bookmark while the cache RV is not above the start RV.
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2&allowWatchBookmarks=true\nadvance 61s\nevents w1",
        cm("a")
    ));
    assert_eq!(frames(&out[3]), Vec::<String>::new());
}

// §E.2 a future rv waits silently; changes up to it are skipped.
#[test]
fn watch_from_a_future_rv() {
    let out = run(&format!(
        "GET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=3\n{}\nevents w1",
        cms(&["a", "b", "c"])
    ));
    assert_eq!(frames(&out[4]), ["ADDED c@4"]);
}

// §C.3 get rv=0 from a lagging cache can be 404; get rv unset always reads etcd.
#[test]
fn gets_by_rv() {
    let out = run(&format!(
        "set cache.lag 5s\n{}\nGET /api/v1/namespaces/default/configmaps/a?resourceVersion=0\nGET /api/v1/namespaces/default/configmaps/a",
        cm("a")
    ));
    assert_eq!(out[2]["code"], 404);
    assert_eq!(out[3]["code"], 200);
}

// §C.3 a restarted apiserver's cache initialises: lists and watches get 429 with Retry-After;
// a paginated list without selectors and gets go to etcd.
#[test]
fn restart_gives_429_until_ready() {
    let out = run(&format!(
        "{}\nrestart apiserver 1\nGET /api/v1/namespaces/default/configmaps\nGET /api/v1/namespaces/default/configmaps?watch=1\nGET /api/v1/namespaces/default/configmaps?limit=5\nGET /api/v1/namespaces/default/configmaps/a?resourceVersion=0\nadvance 1s\nGET /api/v1/namespaces/default/configmaps",
        cm("a")
    ));
    assert_eq!(out[2]["code"], 429);
    assert_eq!(out[2]["body"]["reason"], "TooManyRequests");
    assert_eq!(out[2]["body"]["message"], "storage is (re)initializing");
    assert_eq!(out[2]["headers"], json!({"Retry-After": "1"}));
    assert_eq!(out[3]["code"], 429);
    assert_eq!(out[4]["code"], 200);
    assert_eq!(out[5]["code"], 200);
    assert_eq!(out[7]["code"], 200);
}

// §C.3 the 429 of an initialising cache names the rule of the watch's own semantics: upstream
// `cacher.go` `Watch` (staging/src/k8s.io/apiserver/pkg/storage/cacher, v1.31.0 onwards; 1.32 and
// 1.34+ here, where WatchList is on) checks
// `c.ready.check()` before it looks at the resourceVersion, so the refusal is the same for every
// start; a watch from rv=2 is Start at Exact (served from the cache's history), not the
// "Get State and Start at Any" of a watch from rv unset or "0".
#[test]
fn an_initialising_cache_refuses_each_watch_under_its_own_rule() {
    let base = "GET /api/v1/namespaces/default/configmaps?watch=1";
    let bookmarks = "&allowWatchBookmarks=true";
    let sie = "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan";
    let no_sie = "&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=0";
    // (releases, query, semantics, rule). Where WatchList is on, a watch from rv unset or "0"
    // with bookmarks is defaulted to a watch-list (§E.2), so the Get State cases use 1.31.
    let cases: [(&[&str], String, &str, &str); 6] = [
        (&["1.31", "1.32", "1.34", "1.37"], "&resourceVersion=2".into(), "Exact", "watch-from-cache-history"),
        (&["1.31"], String::new(), "MostRecent", "watch-state-from-cache"),
        (&["1.31"], "&resourceVersion=0".into(), "Any", "watch-state-from-cache"),
        (
            &["1.32", "1.34", "1.37"],
            format!("{sie}{bookmarks}"),
            "SendInitialEvents",
            "watch-list-from-cache",
        ),
        (&["1.32", "1.34", "1.37"], no_sie.into(), "Any", "watch-no-initial-state"),
        (&["1.31", "1.37"], "&resourceVersion=9".into(), "Exact", "watch-from-cache-history"),
    ];
    for (kubes, query, semantics, rule) in &cases {
        for kube in *kubes {
            let out = Session::with_explain(true).run_script(&format!(
                "set kubernetes {kube}\n{}\nrestart apiserver 1\n{base}{query}",
                cm("a")
            ));
            let w = &out[3];
            assert_eq!(w["code"], 429, "{kube} {query}: {w}");
            assert_eq!(w["why"]["outcome"], "cache-initializing", "{kube} {query}");
            assert_eq!(w["why"]["semantics"], *semantics, "{kube} {query}: {w}");
            assert_eq!(w["why"]["rule"], *rule, "{kube} {query}");
            let explain = w["explain"].as_str().unwrap_or("");
            assert!(!explain.contains('?'), "{kube} {query}: {explain}");
        }
    }
}

// §E.3 a restart (relist) ends cache watchers cleanly and resets the window to the list RV.
#[test]
fn relist_closes_watchers_and_resets_the_window() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1\nrestart apiserver 1\nevents w1\nadvance 1s\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2\nevents w2",
        cms(&["a", "b"])
    ));
    assert_eq!(frames(&out[4]), ["ADDED a@2", "ADDED b@3"]);
    assert_eq!(out[4]["closed"], true);
    assert_eq!(out[7]["events"][0]["object"]["message"], "too old resource version: 2 (3)");
}

// §A.6 the compactor: each round writes compact_rev_key; the second compacts to the first's rev.
#[test]
fn compactor_rounds() {
    let out = run(&format!(
        "{}\nadvance 5m\netcd get compact_rev_key\nadvance 5m\netcd get compact_rev_key\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact",
        cm("a")
    ));
    assert_eq!(out[2]["kvs"][0]["mod_revision"], 3);
    assert_eq!(out[2]["kvs"][0]["value"], "0");
    assert_eq!(out[4]["kvs"][0]["value"], "3");
    assert_eq!(out[4]["header"]["revision"], 4);
    assert_eq!(out[5]["code"], 410);
    let off = run(&format!("set compactor off\n{}\nadvance 15m\netcd get compact_rev_key", cm("a")));
    assert_eq!(off[3]["count"], 0);
}

// §E.1 label-selector transitions from the cache.
#[test]
fn cache_selector_transitions() {
    let out = run(concat!(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a","labels":{"app":"x"}}}"#,
        "\n",
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2&labelSelector=app%3Dy\n",
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{"app":"y"}}}"#,
        "\n",
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{"app":"z"}}}"#,
        "\n",
        "events w1\n",
    ));
    assert_eq!(frames(&out[4]), ["ADDED a@3", "DELETED a@4"]);
    assert_eq!(out[4]["events"][1]["object"]["metadata"]["labels"], json!({"app":"y"}));
}

// Settings are validated.
#[test]
fn bad_settings_are_errors() {
    let out = run("set cache.lag soon\nset kubernetes 1.12\nset apiservers 9\nset nosuch 1\napiserver 3");
    for o in &out {
        assert!(o["error"].is_string(), "{o}");
    }
    assert_eq!(
        out[1]["error"],
        "unsupported Kubernetes version \"1.12\"; use 1.27 … 1.37 (e.g. 1.30, 1.33, 1.34)"
    );
}

// Determinism: the same script gives byte-identical output.
#[test]
fn same_script_same_output() {
    let script = format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1\nadvance 5m\nevents w1\nadvance 30m\nevents w1",
        cms(&["a", "b"])
    );
    assert_eq!(run(&script), run(&script));
}

// §C.2 cache-served lists and initial watch state stay inside the requested namespace.
#[test]
fn cache_lists_respect_the_namespace() {
    let out = run(concat!(
        r#"POST /api/v1/namespaces/a/configmaps {"metadata":{"name":"x"}}"#,
        "\n",
        r#"POST /api/v1/namespaces/b/configmaps {"metadata":{"name":"y"}}"#,
        "\n",
        "GET /api/v1/namespaces/a/configmaps\n",
        "GET /api/v1/namespaces/a/configmaps?resourceVersion=0\n",
        "GET /api/v1/namespaces/a/configmaps?limit=1\n",
        "GET /api/v1/configmaps?limit=1\n",
        "GET /api/v1/namespaces/a/configmaps?watch=1\n",
        "events w1\n",
    ));
    assert_eq!(names(&out[2]), ["x"]);
    assert_eq!(names(&out[3]), ["x"]);
    assert_eq!(names(&out[4]), ["x"]);
    assert!(out[4]["body"]["metadata"].get("continue").is_none());
    assert_eq!(names(&out[5]), ["x"]);
    assert_eq!(out[5]["body"]["metadata"]["remainingItemCount"], 1);
    assert_eq!(frames(&out[7]), ["ADDED x@2"]);
}

// §C.2 C-snap undoes later updates and deletions.
#[test]
fn snapshots_undo_updates_and_deletes() {
    let out = run(&format!(
        "{}\n{}\nDELETE /api/v1/namespaces/default/configmaps/b\nGET /api/v1/namespaces/default/configmaps?resourceVersion=3&resourceVersionMatch=Exact\nGET /api/v1/namespaces/default/configmaps?resourceVersion=3&limit=1\nGET /api/v1/namespaces/default/configmaps?resourceVersion=4&resourceVersionMatch=Exact",
        cms(&["a", "b"]),
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a"},"data":{"x":"1"}}"#
    ));
    assert!(out[5]["explain"].is_null());
    assert_eq!(names(&out[4]), ["a", "b"]);
    assert_eq!(out[4]["body"]["items"][0]["metadata"]["resourceVersion"], "2");
    assert!(out[4]["body"]["items"][0].get("data").is_none());
    assert_eq!(names(&out[5]), ["a"]);
    assert_eq!(out[5]["body"]["metadata"]["remainingItemCount"], 1);
    assert_eq!(out[6]["body"]["items"][0]["data"], json!({"x": "1"}));
    assert_eq!(names(&out[6]), ["a", "b"]);
}

// §E.3/§E.5 etcd's periodic progress notification moves an idle cache's RV (and so the bookmark
// RV) past writes to other resources.
#[test]
fn progress_notifications_move_the_cache_rv() {
    let out = run(&format!(
        "set compactor off\n{}\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2&allowWatchBookmarks=true\netcd put /registry/other/x 1\nadvance 61s\nevents w1\nadvance 20m\nevents w1",
        cm("a")
    ));
    assert_eq!(frames(&out[5]), Vec::<String>::new());
    assert!(frames(&out[7]).contains(&"BOOKMARK@3".to_string()), "{:?}", frames(&out[7]));
}

// Long idle stretches cost nothing: ticks with nothing due are skipped and ended watchers are
// forgotten, so a long-running informer with bookmarks over 1000 simulated hours stays cheap.
// (No timing assertion: this pins the outcome; ./dev.sh bench measures speed.)
#[test]
fn a_thousand_hours_with_an_informer() {
    let week = "advance 168h\n".repeat(6);
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=100\ninformer start i configmaps\n{week}events w1\nevents w1",
        cm("a")
    ));
    assert_eq!(out[8]["now"], "3628800s");
    assert_eq!(out[9]["closed"], true);
    assert_eq!(out[10], json!({"line":11,"events":[],"closed":true}));
}

// A value written straight into etcd that does not decode as an object — not JSON, an array,
// a string with a lone surrogate escape (which Go's decoder and serde_json's `Value` both
// refuse) — is not taken up by the cache, as it arrives or by a relist: watchers see only
// what decodes, a list from the cache leaves it out, and a valid object written over it later
// is ADDED (the cache never held the key), not MODIFIED.
#[test]
fn values_that_do_not_decode_are_not_cached() {
    let valid = |name: &str| {
        format!(
            r#"etcd put /registry/configmaps/default/{name} {{"metadata":{{"name":"{name}","namespace":"default"}}}}"#
        )
    };
    let script = [
        cm("a"),
        "GET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2".into(),
        "etcd put /registry/configmaps/default/bad not-json".into(),
        "etcd put /registry/configmaps/default/arr [1]".into(),
        r#"etcd put /registry/configmaps/default/sur {"metadata":{"name":"sur","namespace":"default"},"data":{"x":"\ud800"}}"#.into(),
        r#"etcd put /registry/configmaps/default/ok {"metadata":{"name":"ok","namespace":"default"},"data":{"x":"\ud83d\ude00"}}"#.into(),
        valid("bad"),
        "events w1".into(),
        "GET /api/v1/namespaces/default/configmaps?resourceVersion=0".into(),
        // The restart relists etcd, where `arr` and `sur` still do not decode.
        "restart apiserver 1".into(),
        "advance 5s".into(),
        "GET /api/v1/namespaces/default/configmaps?resourceVersion=0".into(),
        "GET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=7".into(),
        valid("arr"),
        "events w2".into(),
    ]
    .join("\n");
    let out = run(&script);
    assert_eq!(frames(&out[7]), ["ADDED ok@6", "ADDED bad@7"], "{}", out[7]);
    assert_eq!(out[7]["events"][0]["object"]["data"]["x"], "\u{1f600}");
    assert_eq!(names(&out[8]), ["a", "bad", "ok"], "{}", out[8]);
    assert_eq!(list_rv(&out[8]), "7");
    assert_eq!(out[9]["restarted"], 1, "{}", out[9]);
    assert_eq!(out[11]["code"], 200, "{}", out[11]);
    assert_eq!(names(&out[11]), ["a", "bad", "ok"], "{}", out[11]);
    assert_eq!(out[12]["watch"], "w2", "{}", out[12]);
    assert_eq!(frames(&out[14]), ["ADDED arr@8"], "{}", out[14]);
}
