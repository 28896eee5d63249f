//! The typed decision (`"why"`) contract of `rvlab run --explain` (the book's
//! `site/src/reference/why.md`): every documented value is produced by a script under `scripts/why/` (checked there
//! with exact `expect why.… == …` lines, run here through the binary), every output's `"explain"`
//! is the English rendering of its own `"why"`, and every value renders in English and 中文.

use std::collections::BTreeSet;
use std::process::Command;

use rvlab::apiserver::decision::{
    EndReason, Ended, EtcdOp, EtcdRefusal, EtcdWhy, Outcome, Path, Rule, Semantics, Verb, Why,
};
use rvlab::cluster::{Cluster, SettingName, SettingWhy};
use rvlab::script::Session;
use rvlab::script::why::{Lang, OutputWhy, render};
use serde_json::Value;

mod support;
use support::{Pick, Rng};

fn why_scripts() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/why");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "rv"));
    files.sort();
    files
}

/// The id a value serialises to (`"cache-window"`, `"LegacyExact"`).
fn id<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The checks every rendered decision passes, in both languages.
fn check_rendering(w: &OutputWhy) -> Result<(), String> {
    let en = render(w, Lang::En);
    let zh = render(w, Lang::Zh);
    if en.is_empty() || zh.is_empty() {
        return Err(format!("empty rendering of {w:?}"));
    }
    if en == zh || !zh.chars().any(is_cjk) {
        return Err(format!("no 中文 rendering of {w:?}: {zh}"));
    }
    if en.contains('§') || zh.contains('§') {
        return Err(format!("a spec section number in learner-facing text: {en} / {zh}"));
    }
    // A number the decision lacks is left out, never shown as a placeholder.
    if en.contains('?') || zh.contains('?') || zh.contains('？') {
        return Err(format!("a placeholder in the rendering of {w:?}:\n{en}\n{zh}"));
    }
    if let OutputWhy::Request(r) = w
        && let Some(s) = r.semantics
        && !rule_fits(r.rule, s, r.verb)
    {
        return Err(format!("rule {} contradicts semantics {}: {w:?}\n{en}", id(&r.rule), id(&s)));
    }
    Ok(())
}

/// Whether a rule can serve a request of these semantics (the docs' "Semantics for get and
/// list" and "Semantics for watch" tables against the rules of `storage/cacher`). Exhaustive,
/// no wildcard: a new rule does not compile until it is placed here.
fn rule_fits(rule: Rule, s: Semantics, verb: Option<Verb>) -> bool {
    use Semantics as S;
    let watch = verb == Some(Verb::Watch);
    match rule {
        // A watch from rv unset or "0" without sendInitialEvents: Get State and Start at
        // Most Recent / Any.
        Rule::WatchStateFromCache => watch && matches!(s, S::MostRecent | S::Any),
        Rule::WatchListFromCache => watch && s == S::SendInitialEvents,
        Rule::WatchNoInitialState => watch && matches!(s, S::MostRecent | S::Any),
        // Start at Exact: a watch from rv=n.
        Rule::WatchFromCacheHistory | Rule::WatchAheadOfCache => watch && s == S::Exact,
        Rule::WatchListFromEtcd => watch && matches!(s, S::MostRecent | S::Any | S::SendInitialEvents),
        Rule::WatchFromEtcd => watch && s != S::SendInitialEvents,
        Rule::GetFromEtcd => !watch && s == S::MostRecent,
        Rule::ConsistentReadFromEtcd | Rule::ConsistentReadFromCache => {
            !watch && matches!(s, S::MostRecent | S::ContinueLatest)
        }
        Rule::AnyFromCache => !watch && s == S::Any,
        Rule::NotOlderThanFromCache | Rule::PaginatedListFromEtcd => !watch && s == S::NotOlderThan,
        Rule::ExactFromCacheSnapshot | Rule::ExactFromEtcd => {
            !watch && matches!(s, S::Exact | S::LegacyExact | S::Continue)
        }
        Rule::ContinueLatestFromEtcd => !watch && s == S::ContinueLatest,
        // Served by etcd whatever was asked, or refused before a path was chosen.
        Rule::WatchCacheOff
        | Rule::RequestRejected
        | Rule::InvalidListOptions
        | Rule::MalformedContinueToken
        | Rule::InvalidResourceVersion
        | Rule::FieldSelectorNotSupported
        | Rule::NoSuchApiserver => true,
        // Writes carry no read semantics.
        Rule::Create
        | Rule::Update
        | Rule::UpdateUnconditional
        | Rule::UpdateZeroResourceVersion
        | Rule::UpdateNoOp
        | Rule::Delete
        | Rule::DeleteReturnsObject
        | Rule::BodyRejected
        | Rule::ResourceVersionOnCreate
        | Rule::ObjectInvalid
        | Rule::PatchRejected
        | Rule::DryRun
        | Rule::DeleteCollection => false,
    }
}

/// Checks one output: a `why` that deserialises into a decision, re-serialises to itself, and
/// whose English rendering is exactly the output's `explain`.
fn check_output(out: &Value) -> Result<Option<OutputWhy>, String> {
    let Some(raw) = out.get("why") else {
        return match out.get("explain") {
            Some(_) => Err(format!("explain without why: {out}")),
            None => Ok(None),
        };
    };
    let w = OutputWhy::from_output(out).ok_or_else(|| format!("why does not deserialise: {raw}"))?;
    if &w.to_json() != raw {
        return Err(format!("why does not round-trip: {raw} vs {}", w.to_json()));
    }
    let explain = out.get("explain").and_then(Value::as_str).unwrap_or("");
    if explain != render(&w, Lang::En) {
        return Err(format!("explain is not the rendering of why:\n{explain}\n{}", render(&w, Lang::En)));
    }
    check_rendering(&w)?;
    Ok(Some(w))
}

#[test]
fn the_why_scripts_pass_through_the_binary() {
    let out = Command::new(env!("CARGO_BIN_EXE_rvlab"))
        .args(["test", "scripts/why/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => panic!("cannot run rvlab: {e}"),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(" passed, 0 failed"), "{text}");
    // `rvlab run --explain` prints each output's why with its explain.
    let run = Command::new(env!("CARGO_BIN_EXE_rvlab"))
        .args(["run", "--explain", "scripts/why/reads.rv"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    let run = match run {
        Ok(o) => o,
        Err(e) => panic!("cannot run rvlab: {e}"),
    };
    let mut seen = 0;
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
        if let Err(e) = check_output(&v) {
            panic!("{e}");
        }
        seen += usize::from(v.get("why").is_some());
    }
    assert!(seen >= 17, "only {seen} outputs with why");
}

/// Every documented value is produced by some script under scripts/why/.
#[test]
fn every_value_has_a_script_that_produces_it() {
    let mut rules = BTreeSet::new();
    let mut outcomes = BTreeSet::new();
    let mut semantics = BTreeSet::new();
    let mut paths = BTreeSet::new();
    let mut ended = BTreeSet::new();
    let mut settings = BTreeSet::new();
    let mut etcd_ops = BTreeSet::new();
    let mut refusals = BTreeSet::new();
    let files = why_scripts();
    assert!(files.len() >= 5, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let mut s = Session::with_explain(true);
        for out in s.run_script(&text) {
            match check_output(&out) {
                Err(e) => panic!("{}: {e}", f.display()),
                Ok(Some(OutputWhy::Request(w))) => {
                    rules.insert(id(&w.rule));
                    outcomes.extend(w.outcome.map(|o| id(&o)));
                    semantics.extend(w.semantics.map(|o| id(&o)));
                    paths.extend(w.path.map(|o| id(&o)));
                }
                Ok(Some(OutputWhy::Ended(e))) => {
                    ended.insert(id(&e.ended));
                    paths.extend(e.path.map(|o| id(&o)));
                }
                Ok(Some(OutputWhy::Setting(w))) => {
                    settings.insert(id(&w.setting));
                }
                Ok(Some(OutputWhy::Etcd(w))) => {
                    etcd_ops.insert(id(&w.etcd));
                    refusals.extend(w.refused.map(|r| id(&r)));
                }
                Ok(None) => {}
            }
        }
        assert_eq!(s.tally().expect_failed, 0, "{}", f.display());
    }
    // Not reachable from a script: a request to an apiserver that does not exist (the session
    // only routes to existing ones; `no_such_apiserver` below), and etcd's internal errors.
    let missing = |all: Vec<String>, seen: &BTreeSet<String>, skip: &[&str]| -> Vec<String> {
        all.into_iter().filter(|v| !seen.contains(v) && !skip.contains(&v.as_str())).collect()
    };
    let none: Vec<String> = Vec::new();
    assert_eq!(missing(Rule::ALL.iter().map(id).collect(), &rules, &["no-such-apiserver"]), none);
    assert_eq!(missing(Outcome::ALL.iter().map(id).collect(), &outcomes, &["internal"]), none);
    assert_eq!(missing(Semantics::ALL.iter().map(id).collect(), &semantics, &[]), none);
    assert_eq!(missing(Path::ALL.iter().map(id).collect(), &paths, &[]), none);
    assert_eq!(missing(EndReason::ALL.iter().map(id).collect(), &ended, &[]), none);
    assert_eq!(missing(SettingName::ALL.iter().map(id).collect(), &settings, &[]), none);
    assert_eq!(missing(EtcdOp::ALL.iter().map(id).collect(), &etcd_ops, &[]), none);
    assert_eq!(missing(EtcdRefusal::ALL.iter().map(id).collect(), &refusals, &[]), none);
}

#[test]
fn no_such_apiserver() {
    let mut c = Cluster::new();
    let (resp, _) = c.request(4, "GET", "/api/v1/namespaces/default/configmaps", None);
    assert_eq!(resp.code, 500);
    assert_eq!(resp.why.rule, Rule::NoSuchApiserver);
    assert_eq!(resp.why.apiserver, 5);
}

/// Every value, in every combination the renderer distinguishes, has an English and a 中文 text.
#[test]
fn every_value_has_both_translations() {
    let verbs = [None, Some(Verb::Get), Some(Verb::List), Some(Verb::Watch), Some(Verb::Create)];
    let sems = std::iter::once(None).chain(Semantics::ALL.map(Some)).collect::<Vec<_>>();
    let outs = std::iter::once(None).chain(Outcome::ALL.map(Some)).collect::<Vec<_>>();
    for rule in Rule::ALL {
        for verb in verbs {
            for sem in &sems {
                for out in &outs {
                    // Every number recorded, or none of them: neither renders a placeholder.
                    for numbers in [false, true] {
                        let mut w = Why::new(rule);
                        w.apiserver = 1;
                        w.verb = verb;
                        w.semantics = *sem;
                        w.outcome = *out;
                        if numbers {
                            fill_numbers(&mut w);
                        }
                        let fits = sem.is_none_or(|s| rule_fits(rule, s, verb));
                        match check_rendering(&OutputWhy::Request(w)) {
                            Err(e) if fits => panic!("{e}"),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    for setting in SettingName::ALL {
        for apiserver in [None, Some(2)] {
            let w = SettingWhy { setting, value: "on".into(), apiserver };
            if let Err(err) = check_rendering(&OutputWhy::Setting(w)) {
                panic!("{err}");
            }
        }
    }
    for op in EtcdOp::ALL {
        let refusals = std::iter::once(None).chain(EtcdRefusal::ALL.map(Some));
        for refused in refusals {
            for (at, count, compacted, apiservers) in [
                (None, None, None, None),
                (Some(3), Some(0), Some(2), Some(2)),
                (Some(3), Some(2), None, None),
            ] {
                let mut w = EtcdWhy::new(op, 5);
                w.at = at;
                w.count = count;
                w.more = count.map(|c| c > 0);
                w.compacted = compacted;
                w.apiservers = apiservers;
                w.refused = refused;
                if let Err(err) = check_rendering(&OutputWhy::Etcd(w)) {
                    panic!("{err}");
                }
            }
        }
    }
    for reason in EndReason::ALL {
        for (relisted, numbers) in [(None, false), (Some(true), false), (None, true)] {
            let mut e = Ended::new(reason);
            e.apiserver = 2;
            e.cache_relisted = relisted;
            if numbers {
                e.rv = Some(7);
                e.cache_rv = Some(5);
                e.oldest_startable_rv = Some(4);
                e.channel_size = Some(10);
            }
            if let Err(err) = check_rendering(&OutputWhy::Ended(e)) {
                panic!("{err}");
            }
        }
    }
}

/// Every number a decision can carry, as a served request records them.
fn fill_numbers(w: &mut Why) {
    w.rv = Some(7);
    w.etcd_revision = Some(8);
    w.cache_rv = Some(5);
    w.snapshot_rv = Some(7);
    w.compact_revision = Some(6);
    w.oldest_startable_rv = Some(4);
    w.revision = Some(8);
    w.initial_events = Some(2);
    w.start_rv = Some(7);
    w.current_rv = Some(6);
    w.retry_after = Some(1);
}

fn random_line(r: &mut Rng, watches: &mut u64) -> String {
    let base = "/api/v1/namespaces/default/configmaps";
    let name = r.pick(&["a", "b", "c", "d"]);
    let rv = match r.below(4) {
        0 => String::new(),
        1 => "resourceVersion=0&".to_string(),
        _ => format!("resourceVersion={}&", 1 + r.below(14)),
    };
    match r.below(16) {
        0..=2 => format!("POST {base} {{\"metadata\":{{\"name\":\"{name}\"}}}}"),
        3 => format!(
            "PUT {base}/{name} {{\"metadata\":{{\"name\":\"{name}\"}},\"data\":{{\"k\":\"{}\"}}}}",
            r.below(3)
        ),
        4 => format!("DELETE {base}/{name}"),
        5 => format!("GET {base}/{name}?{rv}"),
        6..=7 => {
            let m = r.pick(&["", "resourceVersionMatch=Exact&", "resourceVersionMatch=NotOlderThan&"]);
            let limit = r.pick(&["", "limit=1&", "limit=2&"]);
            format!("GET {base}?{rv}{m}{limit}")
        }
        8..=9 => {
            *watches += 1;
            let sie = r.pick(&[
                "",
                "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&",
                "allowWatchBookmarks=true&",
            ]);
            format!("GET {base}?watch=true&{rv}{sie}timeoutSeconds={}", 5 + r.below(60))
        }
        10 if *watches > 0 => format!("events w{}", 1 + r.below(*watches)),
        10 => "advance 1s".to_string(),
        11 => match r.below(3) {
            0 => format!("compact {}", 1 + r.below(10)),
            1 => format!("etcd compact {}", 1 + r.below(10)),
            _ => r
                .pick(&[
                    "etcd put /registry/configmaps/default/a x",
                    "etcd get /registry/configmaps/default/ --prefix --limit=1",
                    "etcd get /registry/configmaps/default/a --rev=3",
                    "etcd del /registry/configmaps/default/b",
                ])
                .to_string(),
        },
        12 => format!("advance {}s", 1 + r.below(20)),
        13 => r
            .pick(&[
                "restart apiserver 1",
                "set watch-cache off",
                "set watch-cache on",
                "set cache.lag 5s",
                "set cache.lag 0s",
            ])
            .to_string(),
        14 => r
            .pick(&[
                "set kubernetes 1.30",
                "set kubernetes 1.33",
                "set kubernetes 1.36",
                "set cache.capacity 5",
            ])
            .to_string(),
        _ if *watches > 0 => format!("{} w{}", r.pick(&["pause", "resume", "cancel"]), 1 + r.below(*watches)),
        _ => "advance 1s".to_string(),
    }
}

/// Over random scripts, each output's explanation is the rendering of its own why, in both
/// languages (no text comes from anything else).
#[test]
fn explanations_are_renderings_of_their_why() {
    let mut checked = 0usize;
    for seed in 1..=60u64 {
        let mut r = Rng::new(seed);
        let mut s = Session::with_explain(true);
        let mut watches = 0;
        let mut script = String::new();
        for i in 1..=40 {
            let line = random_line(&mut r, &mut watches);
            script.push_str(&line);
            script.push('\n');
            if let Some(out) = s.run_line(i, &line) {
                match check_output(&out) {
                    Ok(Some(_)) => checked += 1,
                    Ok(None) => {}
                    Err(e) => panic!("seed {seed}, line {i}: {e}\n--- script ---\n{script}"),
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} decisions checked");
}

/// The request shapes the generated enumeration sends, each on a fresh sandbox in each state.
fn request_shapes() -> Vec<String> {
    let base = "/api/v1/namespaces/default/configmaps";
    let mut shapes = Vec::new();
    for rv in ["", "resourceVersion=0&", "resourceVersion=2&", "resourceVersion=99&"] {
        shapes.push(format!("GET {base}/a?{rv}"));
        for watch in
            ["", "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&"]
        {
            shapes.push(format!("GET {base}?watch=true&{rv}{watch}timeoutSeconds=5"));
        }
        shapes.push(format!(
            "GET {base}?watch=true&{rv}sendInitialEvents=false&resourceVersionMatch=NotOlderThan"
        ));
        for m in ["", "resourceVersionMatch=Exact&", "resourceVersionMatch=NotOlderThan&"] {
            for limit in ["", "limit=1&"] {
                shapes.push(format!("GET {base}?{rv}{m}{limit}"));
            }
        }
    }
    shapes.push(format!("GET {base}?limit=1&continue=CONTINUE"));
    shapes.push(format!("GET {base}?limit=1&continue=LATEST"));
    shapes
}

/// A generated enumeration: every (verb, semantics, rule, outcome) and watch end the engine
/// produces over the releases × watch cache on/off × cache ready / (re)initialising / lagging /
/// compacted × the request shapes, each rendered in English and 中文 — no placeholder, and no rule
/// that contradicts the request's semantics.
#[test]
fn every_engine_decision_renders_whole() {
    let mut seen: BTreeSet<(String, String, String, String)> = BTreeSet::new();
    let mut ends = BTreeSet::new();
    let states = [
        "",
        "restart apiserver 1",
        "set cache.lag 5s\nPOST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"d\"}}",
        "DELETE /api/v1/namespaces/default/configmaps/b\ncompact 4",
    ];
    for kube in ["1.30", "1.31", "1.33", "1.34", "1.37"] {
        for cache in ["on", "off"] {
            for state in states {
                for shape in request_shapes() {
                    let mut s = Session::with_explain(true);
                    let setup = format!(
                        "set kubernetes {kube}\nset watch-cache {cache}\nPOST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"a\"}}}}\nPOST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"b\"}}}}\nPOST /api/v1/namespaces/default/configmaps {{\"metadata\":{{\"name\":\"c\"}}}}"
                    );
                    let mut outs = s.run_script(&setup);
                    // A continuation needs a token from a first page.
                    let line = if shape.contains("continue=") {
                        let first = s.run_line(90, "GET /api/v1/namespaces/default/configmaps?limit=1");
                        let token = first
                            .as_ref()
                            .and_then(|o| o["body"]["metadata"]["continue"].as_str().map(str::to_string))
                            .unwrap_or_default();
                        let token = if shape.contains("LATEST") { latest_token(&token) } else { token };
                        shape.replace("CONTINUE", &token).replace("LATEST", &token)
                    } else {
                        shape.clone()
                    };
                    outs.extend(s.run_script(state));
                    outs.extend(s.run_line(100, &line));
                    outs.extend(s.run_script("advance 10s\nevents w1\ncancel w1\nevents w1"));
                    for out in &outs {
                        let w = match check_output(out) {
                            Err(e) => {
                                panic!("kubernetes {kube}, watch-cache {cache}, {state:?}, {line}: {e}")
                            }
                            Ok(w) => w,
                        };
                        match w {
                            Some(OutputWhy::Request(w)) => {
                                seen.insert((
                                    w.verb.map(|v| id(&v)).unwrap_or_default(),
                                    w.semantics.map(|v| id(&v)).unwrap_or_default(),
                                    id(&w.rule),
                                    w.outcome.map(|v| id(&v)).unwrap_or_default(),
                                ));
                            }
                            Some(OutputWhy::Ended(e)) => {
                                ends.insert(id(&e.ended));
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    // The enumeration reaches the reads, watches and refusals it is meant to: among them the
    // 429 of a watch at an exact revision on an initialising cache, under its own rule.
    let has = |verb: &str, sem: &str, rule: &str, outcome: &str| {
        seen.contains(&(verb.into(), sem.into(), rule.into(), outcome.into()))
    };
    assert!(has("watch", "Exact", "watch-from-cache-history", "cache-initializing"), "{seen:#?}");
    assert!(has("watch", "Any", "watch-state-from-cache", "cache-initializing"), "{seen:#?}");
    assert!(has("watch", "SendInitialEvents", "watch-list-from-cache", ""), "{seen:#?}");
    assert!(has("list", "NotOlderThan", "not-older-than-from-cache", ""), "{seen:#?}");
    assert!(seen.len() > 60, "only {} combinations: {seen:#?}", seen.len());
    assert!(ends.contains("cancelled") && ends.contains("cache-window"), "{ends:?}");
}

/// The same continue token with its revision replaced by -1 (the inconsistent continuation).
fn latest_token(token: &str) -> String {
    use rvlab::apiserver::continue_token::ContinueToken;
    match ContinueToken::decode(token) {
        Ok(t) => ContinueToken { rv: -1, start: t.start }.encode(),
        Err(_) => token.to_string(),
    }
}
