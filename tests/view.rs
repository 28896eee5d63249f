//! The session's read model (`script::view`): what the pictures draw comes from the engine's
//! state, with exact values. Behaviour it reflects is cited where the value comes from upstream.

use rvlab::apiserver::decision::EndReason;
use rvlab::script::Session;
use rvlab::script::view::{FRESHNESS_WAIT_MS, FrameKind, FreshWait, KeyChange};

fn cm(name: &str) -> String {
    format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#)
}

fn run(lines: &[String]) -> Session {
    let mut s = Session::new();
    for (i, l) in lines.iter().enumerate() {
        let out = s.run_line(i + 1, l);
        assert!(out.as_ref().is_none_or(|o| o.get("error").is_none()), "line {}: {l}: {out:?}", i + 1);
    }
    s
}

#[test]
fn an_empty_sandbox_has_one_apiserver_with_empty_ready_caches() {
    let s = Session::new();
    let v = s.view();
    assert_eq!(v.revision, 1);
    assert_eq!(v.compacted, None);
    assert_eq!(v.current_apiserver, 1);
    assert_eq!(v.apiservers.len(), 1);
    let a = &v.apiservers[0];
    assert_eq!(a.number, 1);
    assert!(a.watch_cache);
    // The compactor's first round is one interval (5 min, compact.go's default) after start.
    assert_eq!(a.next_compaction_ms, Some(300_000));
    let resources: Vec<&str> = a.caches.iter().map(|c| c.resource).collect();
    assert_eq!(resources, ["configmaps", "pods"]);
    for c in &a.caches {
        assert_eq!((c.apiserver, c.rv, c.oldest_startable_rv, c.history_len), (1, 1, 1, 0));
        assert!(c.ready);
        assert_eq!(c.in_flight, 0);
        // The relist's snapshot at 1 (nothing evicted since).
        assert_eq!(c.snapshots, [1]);
    }
    assert!(v.watches.is_empty() && v.informers.is_empty() && v.compactions.is_empty());
    assert_eq!(s.revision_lanes().count(), 0);
}

#[test]
fn lanes_keep_every_stored_revision_with_versions_and_tombstones() {
    let s = run(&[
        cm("a"),                                                                                            // 2
        cm("b"), // 3
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a"},"data":{"x":"1"}}"#.into(), // 4
        "DELETE /api/v1/namespaces/default/configmaps/a".into(), // 5
        cm("a"),                                                 // 6
    ]);
    let lanes: Vec<_> = s.revision_lanes().collect();
    assert_eq!(lanes.len(), 2);
    assert_eq!(lanes[0].key, "/registry/configmaps/default/a");
    assert_eq!(lanes[0].resource.as_deref(), Some("configmaps"));
    assert_eq!(lanes[0].short, "configmaps/default/a");
    let ch = |rev, create_rev, version, deleted| KeyChange { rev, create_rev, version, deleted };
    assert_eq!(
        lanes[0].changes,
        [ch(2, 2, 1, false), ch(4, 2, 2, false), ch(5, 2, 3, true), ch(6, 6, 1, false)]
    );
    assert_eq!(lanes[1].changes, [ch(3, 3, 1, false)]);
    assert_eq!(s.object_names("configmaps", "default"), ["a", "b"]);
    assert!(s.object_names("pods", "default").is_empty());
    assert!(s.object_names("nonsense", "default").is_empty());
}

#[test]
fn lanes_name_their_resource_by_the_apiservers_key_layout_only() {
    let s = run(&[
        "etcd put /registry/pods/default/p x".into(),
        "etcd put /registry/ x".into(),
        "etcd put /other/configmaps/x x".into(),
    ]);
    let lanes: Vec<_> = s.revision_lanes().map(|l| (l.key, l.resource, l.short)).collect();
    assert_eq!(
        lanes,
        [
            ("/other/configmaps/x".into(), None, "/other/configmaps/x".into()),
            ("/registry/".into(), None, "".into()),
            ("/registry/pods/default/p".into(), Some("pods".into()), "pods/default/p".into()),
        ]
    );
}

#[test]
fn two_apiservers_show_lag_and_events_in_flight() {
    let s = run(&[
        "set apiservers 2".into(),
        "apiserver 2".into(),
        "set cache.lag 5s".into(),
        "apiserver 1".into(),
        cm("a"), // 2
        cm("b"), // 3
    ]);
    let v = s.view();
    assert_eq!(v.apiservers.len(), 2);
    assert_eq!(v.current_apiserver, 1);
    let cm_cache = |n: usize| {
        v.apiservers[n - 1]
            .caches
            .iter()
            .find(|c| c.resource == "configmaps")
            .cloned()
            .expect("configmaps cache")
    };
    let (one, two) = (cm_cache(1), cm_cache(2));
    assert_eq!((one.rv, one.in_flight, one.lag_ms), (3, 0, 0));
    // apiserver 2 has not heard of either write yet: both are on their way, 5 s late.
    assert_eq!((two.apiserver, two.rv, two.lag_ms), (2, 1, 5000));
    assert_eq!(two.in_flight, 2);
    assert_eq!(two.next_arrival_ms, Some(5000));
}

#[test]
fn a_slow_watcher_fills_its_buffer_and_is_cut_off_without_an_error_frame() {
    let mut lines =
        vec!["GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1".to_string()];
    lines.push("pause w1".into());
    for i in 0..5 {
        lines.push(cm(&format!("o{i}")));
    }
    let s = run(&lines);
    let v = s.view();
    assert_eq!(v.watches.len(), 1);
    let w = &v.watches[0];
    assert_eq!(
        (w.id.as_str(), w.line, w.apiserver, w.resource, w.requested_rv),
        ("w1", 1, 1, "configmaps", Some(1))
    );
    let st = w.stream.clone().expect("the apiserver knows w1");
    assert!(st.from_cache && st.paused && !st.closed);
    assert_eq!(st.started_from, Some(1));
    assert_eq!(st.buffered, 5);
    // cache_watcher.go: input and result channels of 10 (capacity 100 / 75, at least 10) plus
    // the event in hand: 2 × 10 + 1.
    assert_eq!(st.buffer_limit, 21);
    assert_eq!(w.read.count, 0);

    // 17 more writes: 22 > 21, the watcher is terminated; the client then reads what its
    // result channel held (10 frames) and sees the stream end with no ERROR frame.
    let mut lines2 = lines.clone();
    for i in 5..22 {
        lines2.push(cm(&format!("o{i}")));
    }
    lines2.push("resume w1".into());
    lines2.push("events w1".into());
    let s = run(&lines2);
    let w = &s.view().watches[0];
    assert!(w.read.ended);
    assert_eq!(w.ended.as_ref().map(|e| e.ended), Some(EndReason::SlowConsumer));
    assert_eq!(w.read.ended_line, Some(lines2.len()));
    assert_eq!(w.read.error_code, None);
    assert_eq!(w.read.count, 10);
    assert_eq!(w.read.last_rv, Some(11));
    assert!(w.read.rvs.iter().all(|(_, k)| *k == FrameKind::Event));
    assert!(w.stream.as_ref().is_some_and(|st| st.closed));
}

#[test]
fn a_watch_below_the_cache_window_reads_an_error_frame() {
    let mut lines = vec!["set cache.capacity 5".to_string()];
    for i in 0..7 {
        lines.push(cm(&format!("o{i}"))); // 2..8
    }
    lines.push("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2".into());
    lines.push("events w1".into());
    let s = run(&lines);
    let v = s.view();
    let c = v.apiservers[0].caches.iter().find(|c| c.resource == "configmaps").expect("cache");
    assert_eq!((c.rv, c.capacity, c.history_len, c.oldest_startable_rv), (8, 5, 5, 3));
    assert_eq!(c.snapshots, [4, 5, 6, 7, 8]);
    let w = &v.watches[0];
    assert_eq!(w.requested_rv, Some(2));
    assert!(w.read.ended);
    assert_eq!(w.ended.as_ref().map(|e| (e.ended, e.apiserver)), Some((EndReason::CacheWindow, 1)));
    assert_eq!(w.read.error_code, Some(410));
    assert_eq!(w.read.last_rv, None);
}

#[test]
fn compaction_rounds_and_the_next_round_come_from_the_compactor() {
    let s = run(&[cm("a"), "advance 5m".into(), cm("b"), "advance 5m".into()]);
    let v = s.view();
    // Round 1 at 5 min: the CAS writes compact_rev_key (rev 3) and compacts nothing yet (it
    // compacts to the revision seen one interval earlier); round 2 compacts to round 1's revision.
    assert_eq!(v.compactions.len(), 1, "{:?}", v.compactions);
    assert_eq!((v.compactions[0].round, v.compactions[0].at_ms), (1, 600_000));
    assert_eq!(Some(v.compactions[0].revision), v.compacted);
    assert_eq!(v.apiservers[0].next_compaction_ms, Some(900_000));
    assert_eq!(v.now_ms, 600_000);
}

#[test]
fn informers_show_their_last_sync_and_their_watch() {
    let s =
        run(&[cm("a"), "informer start inf configmaps ns=default mode=legacy".into(), "advance 1s".into()]);
    let v = s.view();
    assert_eq!(v.informers.len(), 1);
    let inf = &v.informers[0];
    assert_eq!((inf.name.as_str(), inf.resource.as_str(), inf.apiserver), ("inf", "configmaps", 1));
    assert_eq!(inf.last_sync_rv, "2");
    let st = inf.watch.clone().expect("the informer watches");
    assert!(st.from_cache && !st.closed);
    assert_eq!(st.started_from, Some(2));
}

/// The timers a revision axis hides, as the read model gives them to the pictures: each event
/// still on its way to a lagging cache (with its revision and arrival), the freshness wait a
/// consistent read would have now — checked against what such a read then does — each watch's
/// deadline (`timeoutSeconds`) and next bookmark, and the cache's readiness after a restart.
#[test]
fn timers_events_in_flight_the_freshness_wait_deadlines_and_bookmarks() {
    let lagging = |lag: &str| {
        vec![
            "set apiservers 2".to_string(),
            "apiserver 2".into(),
            format!("set cache.lag {lag}"),
            "apiserver 1".into(),
            cm("a"), // 2
            cm("b"), // 3
        ]
    };
    let cache2 = |s: &Session| {
        s.view().apiservers[1].caches.iter().find(|c| c.resource == "configmaps").cloned().expect("cache")
    };
    // 5 s of lag: both writes are on their way to apiserver 2, each arriving at 5 s; a consistent
    // list now would wait the 3 s of waitUntilFreshAndBlock (cacher.go) in vain, then go to etcd
    // (delegator.go's fallback for a consistent read whose cache wait timed out).
    let lines = lagging("5s");
    let s = run(&lines);
    let c = cache2(&s);
    assert_eq!(c.in_flight_revs, [(2, 5000), (3, 5000)]);
    assert_eq!(c.fresh_at_ms, Some(5000));
    assert_eq!(c.fresh_wait(s.now_ms()), Some(FreshWait::TimesOut));
    assert_eq!(FRESHNESS_WAIT_MS, 3000);
    let mut s = s;
    s.run_line(lines.len() + 1, "set explain on");
    s.run_line(lines.len() + 2, "apiserver 2");
    let out = s.run_line(lines.len() + 3, "GET /api/v1/namespaces/default/configmaps").expect("an output");
    assert_eq!(
        (out["code"].as_u64(), out["why"]["path"].as_str(), out["why"]["outcome"].as_str()),
        (Some(200), Some("etcd"), Some("consistent-read-timeout")),
        "{out}"
    );
    assert_eq!(s.now_ms(), 3000, "the read gave up after the 3 s wait");
    // 2 s of lag: the same read waits 2 s and is served by the cache at 3.
    let lines = lagging("2s");
    let mut s = run(&lines);
    let c = cache2(&s);
    assert_eq!(c.fresh_wait(s.now_ms()), Some(FreshWait::Waits(2000)));
    s.run_line(lines.len() + 1, "set explain on");
    s.run_line(lines.len() + 2, "apiserver 2");
    let out = s.run_line(lines.len() + 3, "GET /api/v1/namespaces/default/configmaps").expect("an output");
    assert_eq!(
        (out["code"].as_u64(), out["why"]["path"].as_str()),
        (Some(200), Some("watch-cache")),
        "{out}"
    );
    assert_eq!(s.now_ms(), 2000);
    assert_eq!(cache2(&s).fresh_wait(s.now_ms()), None, "fresh now: no wait");
    assert!(cache2(&s).in_flight_revs.is_empty());

    // A watch with timeoutSeconds=30 and bookmarks: its deadline is 30 s after it started, its
    // first bookmark one bookmark period (a minute) later, pulled in to 2 s before the deadline
    // (cache_watcher.go nextBookmarkTime).
    let s = run(&[
        cm("a"),
        "advance 10s".into(),
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2&timeoutSeconds=30&allowWatchBookmarks=true"
            .into(),
    ]);
    let st = s.view().watches[0].stream.clone().expect("w1 runs");
    assert_eq!((st.deadline_ms, st.next_bookmark_ms), (Some(40_000), Some(38_000)));

    // A restarted apiserver's cache is not ready for its initialisation delay.
    let s = run(&[cm("a"), "restart apiserver 1".into()]);
    let c =
        s.view().apiservers[0].caches.iter().find(|c| c.resource == "configmaps").cloned().expect("cache");
    assert!(!c.ready);
    assert_eq!(c.ready_at_ms, Some(1000));
}

/// The settings in effect are the engine's: a fresh sandbox runs one apiserver of the newest
/// release with its watch cache on and no lag; a `set` line changes only the apiserver it goes
/// to; and a `set` line with every shown value changes nothing.
#[test]
fn settings_are_the_ones_in_effect() {
    use rvlab::cluster::SettingName;
    let s = Session::new();
    let v = s.settings();
    assert_eq!(v.apiservers, 1);
    assert_eq!(v.current_apiserver, 1);
    assert_eq!(v.client_go, None);
    let a = &v.per_apiserver[0];
    assert_eq!(a.kubernetes, "1.37");
    assert!(a.watch_cache);
    assert_eq!(a.value(SettingName::CacheLag).as_deref(), Some("0s"));
    assert_eq!(a.value(SettingName::CacheCapacity).as_deref(), Some("auto"));
    assert_eq!(a.value(SettingName::CompactionInterval).as_deref(), Some("300s"));
    assert_eq!(a.value(SettingName::Apiservers), None);

    let mut s = Session::new();
    s.run_script("set apiservers 2\napiserver 2\nset cache.lag 2s\nset kubernetes 1.33\nset feature-gates WatchList=true");
    let v = s.settings();
    assert_eq!(v.apiservers, 2);
    assert_eq!(v.current_apiserver, 2);
    let (one, two) = (&v.per_apiserver[0], &v.per_apiserver[1]);
    assert_eq!(one.value(SettingName::CacheLag).as_deref(), Some("0s"));
    assert_eq!(two.value(SettingName::CacheLag).as_deref(), Some("2s"));
    // `set kubernetes` is every apiserver's release; feature gates are apiserver 2's own.
    assert_eq!((one.kubernetes.as_str(), two.kubernetes.as_str()), ("1.33", "1.33"));
    assert_eq!(two.gates, ["WatchList=true"]);
    assert!(one.gates.is_empty());

    // Re-setting each shown value is a no-op.
    let before = s.settings();
    let cur = before.current().cloned();
    let lines: Vec<String> = SettingName::ALL
        .iter()
        .filter_map(|n| {
            cur.as_ref()?.value(*n).filter(|v| !v.is_empty()).map(|v| format!("set {} {v}", n.as_str()))
        })
        .collect();
    assert!(lines.len() >= 6, "{lines:?}");
    for line in &lines {
        let out = s.run_line(1, line);
        assert!(out.as_ref().is_some_and(|o| o.get("error").is_none()), "{line}: {out:?}");
    }
    assert_eq!(s.settings(), before, "{lines:?}");
}
