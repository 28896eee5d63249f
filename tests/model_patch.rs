//! Model-based property test of the write surfaces added after the first model (`tests/model.rs`):
//! PATCH in its four types (JSON merge, JSON patch, strategic merge, server-side apply), PUT and
//! DELETE, and DELETE on a collection (with label and field selectors, and `dryRun=All`), in
//! random schedules against a naive reference model of ConfigMaps in one namespace.
//!
//! Properties:
//! 1. a write answers 201/200 exactly when the model accepts it, 404 for a missing object, 409
//!    exactly when a `metadata.resourceVersion` precondition is stale (the update path's
//!    `If(mod_revision == rv)`, `storage/etcd3/store.go` `GuaranteedUpdate`) or when server-side
//!    apply meets a field another manager owns with another value and `force` is off
//!    (`structured-merge-diff` `merge/update.go`), 422 when a JSON patch operation cannot be
//!    applied (`handlers/patch.go` `jsonPatcher`);
//! 2. the resourceVersion advances by exactly one revision when the object changes and stays when
//!    it does not: a no-op patch (or PUT, or an apply that changes no value and no owner) keeps the
//!    RV (`GuaranteedUpdate` skips the write when the new bytes equal the stored ones); an apply
//!    that changes nothing keeps its manager's time (`managedFieldsUpdater.Apply`,
//!    `apimachinery/pkg/util/managedfields/internal/managedfieldsupdater.go`);
//! 3. deletecollection deletes exactly the objects its selectors match, one revision per delete in
//!    key order (`registry/generic/registry/store.go` `DeleteCollection`), and nothing with
//!    `dryRun=All`;
//! 4. a watch opened first sees exactly the model's changes (type, name, revision), and a final
//!    consistent list equals the model's state (names, RVs, labels, data, appliers).
//!
//! Fixed seeds in CI; `RVLAB_MODEL_SEED=<n>` / `RVLAB_MODEL_CASES=<n>` explore further. A failure
//! prints the shrunk script, ready for `rvlab run --explain`.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use rvlab::script::Session;
use serde_json::{Value, json};

const NAMES: &[&str] = &["a", "b", "c", "d"];
const MANAGERS: &[&str] = &["m1", "m2"];
const COLL: &str = "/api/v1/namespaces/default/configmaps";

/// A `metadata.resourceVersion` precondition.
#[derive(Debug, Clone, Copy)]
enum Pre {
    None,
    Current,
    Stale,
}

/// One change a patch makes.
#[derive(Debug, Clone, Copy)]
enum Change {
    SetK(u8),
    DelK,
    SetApp(u8),
    DelApp,
}

#[derive(Debug, Clone, Copy)]
enum PatchKind {
    Merge,
    Strategic,
    /// with an optional `test` of `data.k` first
    Json(Option<u8>),
}

#[derive(Debug, Clone, Copy)]
enum Selector {
    All,
    AppX,
    NotAppX,
    Name(usize),
}

#[derive(Debug, Clone)]
enum Op {
    /// name, label app, data.k
    Create(usize, Option<u8>, u8),
    /// name, label app, data.k, precondition
    Put(usize, Option<u8>, u8, Pre),
    /// name, kind, change, precondition, dryRun
    Patch(usize, PatchKind, Change, Pre, bool),
    /// name, manager, data.a, force
    Apply(usize, usize, u8, bool),
    Delete(usize),
    /// selector, dryRun
    DeleteCollection(Selector, bool),
    Advance,
}

fn pre() -> impl Strategy<Value = Pre> {
    prop_oneof![3 => Just(Pre::None), 1 => Just(Pre::Current), 1 => Just(Pre::Stale)]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (0u8..3).prop_map(Change::SetK),
        1 => Just(Change::DelK),
        2 => (0u8..2).prop_map(Change::SetApp),
        1 => Just(Change::DelApp),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let n = 0..NAMES.len();
    let app = prop_oneof![Just(None), (0u8..2).prop_map(Some)];
    prop_oneof![
        6 => (n.clone(), app.clone(), 0u8..3).prop_map(|(n, a, k)| Op::Create(n, a, k)),
        3 => (n.clone(), app, 0u8..3, pre()).prop_map(|(n, a, k, p)| Op::Put(n, a, k, p)),
        12 => (
            n.clone(),
            prop_oneof![
                Just(PatchKind::Merge),
                Just(PatchKind::Strategic),
                prop_oneof![Just(None), (0u8..3).prop_map(Some)].prop_map(PatchKind::Json)
            ],
            change(),
            pre(),
            prop_oneof![6 => Just(false), 1 => Just(true)]
        )
            .prop_map(|(n, k, c, p, d)| Op::Patch(n, k, c, p, d)),
        8 => (n.clone(), 0..MANAGERS.len(), 0u8..2, any::<bool>()).prop_map(|(n, m, v, f)| Op::Apply(n, m, v, f)),
        3 => n.clone().prop_map(Op::Delete),
        2 => (
            prop_oneof![
                Just(Selector::All),
                Just(Selector::AppX),
                Just(Selector::NotAppX),
                n.prop_map(Selector::Name)
            ],
            prop_oneof![3 => Just(false), 1 => Just(true)]
        )
            .prop_map(|(s, d)| Op::DeleteCollection(s, d)),
        2 => Just(Op::Advance),
    ]
}

// ---------------------------------------------------------------------------------------------
// The reference model

#[derive(Debug, Clone, PartialEq)]
struct Obj {
    rv: i64,
    app: Option<String>,
    k: Option<String>,
    /// `data.a`, written by server-side apply only
    a: Option<String>,
    /// the managers whose Apply owns `data.a`
    appliers: BTreeSet<String>,
}

#[derive(Default)]
struct Model {
    rev: i64,
    objs: BTreeMap<String, Obj>,
    /// (type, name, revision) of every change
    changes: Vec<(String, String, i64)>,
}

impl Model {
    fn write(&mut self, name: &str, obj: Option<Obj>) -> i64 {
        self.rev += 1;
        let t = match (self.objs.contains_key(name), &obj) {
            (_, None) => "DELETED",
            (false, Some(_)) => "ADDED",
            (true, Some(_)) => "MODIFIED",
        };
        self.changes.push((t.into(), name.into(), self.rev));
        match obj {
            Some(mut o) => {
                o.rv = self.rev;
                self.objs.insert(name.into(), o);
            }
            None => {
                self.objs.remove(name);
            }
        }
        self.rev
    }

    fn matches(o: &Obj, name: &str, s: Selector) -> bool {
        match s {
            Selector::All => true,
            Selector::AppX => o.app.as_deref() == Some("x"),
            Selector::NotAppX => o.app.as_deref() != Some("x"),
            Selector::Name(n) => name == NAMES[n],
        }
    }
}

fn app_value(v: u8) -> String {
    ["x", "y"][usize::from(v) % 2].to_string()
}

/// What an answer says about an object: (RV, label app, data.k, data.a, appliers of data.a).
type Seen = (Option<i64>, Option<String>, Option<String>, Option<String>, BTreeSet<String>);

/// What the engine's answer body says about the object.
fn observed(body: &Value) -> Seen {
    let s = |p: &str| body.pointer(p).and_then(Value::as_str).map(str::to_string);
    let appliers = body
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|e| e["operation"] == "Apply" && e.pointer("/fieldsV1/f:data/f:a").is_some())
                .filter_map(|e| e["manager"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (
        s("/metadata/resourceVersion").and_then(|r| r.parse().ok()),
        s("/metadata/labels/app"),
        s("/data/k"),
        s("/data/a"),
        appliers,
    )
}

// ---------------------------------------------------------------------------------------------
// The harness

struct Harness {
    s: Session,
    script: String,
    line: usize,
    m: Model,
    seen: Vec<(String, String, i64)>,
    /// how often each kind of answer was checked (so the run is not vacuous)
    stats: BTreeMap<&'static str, usize>,
}

type R = Result<(), String>;

fn code(o: &Value) -> i64 {
    o.get("code").and_then(Value::as_i64).unwrap_or(-1)
}

impl Harness {
    fn new() -> Self {
        let mut h = Harness {
            s: Session::new(),
            script: String::new(),
            line: 0,
            m: Model { rev: 1, ..Model::default() },
            seen: Vec::new(),
            stats: BTreeMap::new(),
        };
        h.run("set compactor off");
        h.run(&format!("GET {COLL}?watch=true"));
        h
    }

    fn run(&mut self, line: &str) -> Value {
        self.line += 1;
        self.script.push_str(line);
        self.script.push('\n');
        self.s.run_line(self.line, line).unwrap_or(Value::Null)
    }

    fn count(&mut self, what: &'static str) {
        *self.stats.entry(what).or_default() += 1;
    }

    /// Reads the watch's frames (every op, so its buffer never fills).
    fn read_watch(&mut self) -> R {
        let o = self.run("events w1");
        if o["closed"] == true {
            return Err(format!("the watch closed: {o}"));
        }
        for f in o["events"].as_array().cloned().unwrap_or_default() {
            let t = f["type"].as_str().unwrap_or("").to_string();
            let name = f.pointer("/object/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
            let rv = f
                .pointer("/object/metadata/resourceVersion")
                .and_then(Value::as_str)
                .and_then(|r| r.parse().ok())
                .unwrap_or(-1);
            self.seen.push((t, name, rv));
        }
        Ok(())
    }

    fn rv_for(&self, name: &str, p: Pre) -> Option<i64> {
        let cur = self.m.objs.get(name).map_or(self.m.rev, |o| o.rv);
        match p {
            Pre::None => None,
            Pre::Current => Some(cur),
            Pre::Stale => Some(cur - 1),
        }
    }

    /// Checks a write's answer against the model's expected outcome, and applies it.
    /// `new`: the object after the write (None: the model refuses with `want_code`).
    fn expect_write(&mut self, o: &Value, name: &str, want_code: i64, new: Option<Obj>, dry: bool) -> R {
        if code(o) != want_code {
            return Err(format!("{name}: expected {want_code}, got {}", code(o)));
        }
        let Some(mut new) = new else {
            self.count("refused");
            return Ok(());
        };
        let old = self.m.objs.get(name).cloned();
        let changed = old.as_ref().is_none_or(|old| Obj { rv: old.rv, ..new.clone() } != *old);
        let rv = if dry || !changed {
            self.count(if dry { "dry-run" } else { "no-op kept the RV" });
            old.as_ref().map_or(0, |o| o.rv)
        } else {
            self.count("changed");
            self.m.write(name, Some(new.clone()))
        };
        new.rv = rv;
        let (orv, app, k, a, appliers) = observed(&o["body"]);
        let want = (if dry && old.is_none() { None } else { Some(rv) }, new.app, new.k, new.a, new.appliers);
        let got = (if dry && old.is_none() { None } else { orv }, app, k, a, appliers);
        if got != want {
            return Err(format!("{name}: expected (rv, app, k, a, appliers) {want:?}, got {got:?}"));
        }
        Ok(())
    }

    fn op(&mut self, op: &Op) -> R {
        match *op {
            Op::Create(n, app, k) => {
                let name = NAMES[n];
                let mut meta = json!({"name": name});
                if let Some(a) = app {
                    meta["labels"] = json!({"app": app_value(a)});
                }
                let o = self.run(&format!(
                    "POST {COLL} {}",
                    json!({"metadata": meta, "data": {"k": format!("v{k}")}})
                ));
                if self.m.objs.contains_key(name) {
                    self.expect_write(&o, name, 409, None, false)?;
                } else {
                    let new = Obj {
                        rv: 0,
                        app: app.map(app_value),
                        k: Some(format!("v{k}")),
                        a: None,
                        appliers: BTreeSet::new(),
                    };
                    self.expect_write(&o, name, 201, Some(new), false)?;
                }
            }
            Op::Put(n, app, k, p) => {
                let name = NAMES[n];
                let cur = self.m.objs.get(name).cloned();
                let mut meta = json!({"name": name});
                if let Some(a) = app {
                    meta["labels"] = json!({"app": app_value(a)});
                }
                if let Some(rv) = self.rv_for(name, p) {
                    meta["resourceVersion"] = json!(rv.to_string());
                }
                // PUT keeps `data.a` as it is, so the appliers' field is not touched.
                let mut data = json!({"k": format!("v{k}")});
                if let Some(a) = cur.as_ref().and_then(|c| c.a.clone()) {
                    data["a"] = json!(a);
                }
                let o = self.run(&format!("PUT {COLL}/{name} {}", json!({"metadata": meta, "data": data})));
                match cur {
                    None => self.expect_write(&o, name, 404, None, false)?,
                    Some(_) if matches!(p, Pre::Stale) => self.expect_write(&o, name, 409, None, false)?,
                    Some(c) => {
                        // Without managedFields in the body, the stored ones stay
                        // (`decodeLiveOrNew`, fieldmanager).
                        let new = Obj { app: app.map(app_value), k: Some(format!("v{k}")), ..c };
                        self.expect_write(&o, name, 200, Some(new), false)?;
                    }
                }
            }
            Op::Patch(n, kind, ch, p, dry) => {
                let name = NAMES[n];
                let cur = self.m.objs.get(name).cloned();
                let rv = self.rv_for(name, p);
                let q = if dry { "?dryRun=All" } else { "" };
                let line = match kind {
                    PatchKind::Merge | PatchKind::Strategic => {
                        let mut body = json!({});
                        match ch {
                            Change::SetK(v) => body["data"] = json!({"k": format!("v{v}")}),
                            Change::DelK => body["data"] = json!({"k": null}),
                            Change::SetApp(v) => body["metadata"] = json!({"labels": {"app": app_value(v)}}),
                            Change::DelApp => body["metadata"] = json!({"labels": {"app": null}}),
                        }
                        if let Some(rv) = rv {
                            body["metadata"]["resourceVersion"] = json!(rv.to_string());
                        }
                        let ty = if matches!(kind, PatchKind::Strategic) { " type=strategic" } else { "" };
                        format!("PATCH {COLL}/{name}{q}{ty} {body}")
                    }
                    PatchKind::Json(test) => {
                        let mut ops = Vec::new();
                        if let Some(rv) = rv {
                            ops.push(json!({"op": "replace", "path": "/metadata/resourceVersion", "value": rv.to_string()}));
                        }
                        if let Some(t) = test {
                            ops.push(json!({"op": "test", "path": "/data/k", "value": format!("v{t}")}));
                        }
                        ops.push(match ch {
                            Change::SetK(v) => {
                                json!({"op": "add", "path": "/data/k", "value": format!("v{v}")})
                            }
                            Change::DelK => json!({"op": "remove", "path": "/data/k"}),
                            Change::SetApp(v) => {
                                json!({"op": "add", "path": "/metadata/labels/app", "value": app_value(v)})
                            }
                            Change::DelApp => json!({"op": "remove", "path": "/metadata/labels/app"}),
                        });
                        format!("PATCH {COLL}/{name}{q} type=json {}", Value::Array(ops))
                    }
                };
                let o = self.run(&line);
                let Some(c) = cur else { return self.expect_write(&o, name, 404, None, dry) };
                // RFC 6902: `test` must equal; `add` needs the parent map, `remove` the member
                // (an empty map is dropped when stored, so `data` exists iff k or a does).
                if let PatchKind::Json(test) = kind {
                    let test_fails = test.is_some_and(|t| c.k.as_deref() != Some(format!("v{t}").as_str()));
                    let op_fails = match ch {
                        Change::SetK(_) => c.k.is_none() && c.a.is_none(),
                        Change::DelK => c.k.is_none(),
                        Change::SetApp(_) => c.app.is_none(),
                        Change::DelApp => c.app.is_none(),
                    };
                    if test_fails || op_fails {
                        self.count("json patch 422");
                        return self.expect_write(&o, name, 422, None, dry);
                    }
                }
                if matches!(p, Pre::Stale) {
                    self.count("stale precondition 409");
                    return self.expect_write(&o, name, 409, None, dry);
                }
                let mut new = c;
                match ch {
                    Change::SetK(v) => new.k = Some(format!("v{v}")),
                    Change::DelK => new.k = None,
                    Change::SetApp(v) => new.app = Some(app_value(v)),
                    Change::DelApp => new.app = None,
                }
                self.expect_write(&o, name, 200, Some(new), dry)?;
            }
            Op::Apply(n, m, v, force) => {
                let name = NAMES[n];
                let mgr = MANAGERS[m];
                let val = format!("v{v}");
                let f = if force { "&force=true" } else { "" };
                let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"a": val}});
                let o = self.run(&format!("PATCH {COLL}/{name}?fieldManager={mgr}{f} type=apply {body}"));
                match self.m.objs.get(name).cloned() {
                    None => {
                        let new = Obj {
                            rv: 0,
                            app: None,
                            k: None,
                            a: Some(val),
                            appliers: BTreeSet::from([mgr.to_string()]),
                        };
                        self.expect_write(&o, name, 201, Some(new), false)?;
                    }
                    Some(c) => {
                        let differs = c.a.as_deref() != Some(val.as_str());
                        let others = c.appliers.iter().any(|x| x != mgr);
                        if differs && others && !force {
                            self.count("apply conflict 409");
                            return self.expect_write(&o, name, 409, None, false);
                        }
                        let mut appliers = if differs { BTreeSet::new() } else { c.appliers.clone() };
                        appliers.insert(mgr.to_string());
                        let new = Obj { a: Some(val), appliers, ..c };
                        self.expect_write(&o, name, 200, Some(new), false)?;
                    }
                }
            }
            Op::Delete(n) => {
                let name = NAMES[n];
                let o = self.run(&format!("DELETE {COLL}/{name}"));
                if self.m.objs.contains_key(name) {
                    if code(&o) != 200 {
                        return Err(format!("delete {name}: expected 200, got {}", code(&o)));
                    }
                    self.m.write(name, None);
                } else if code(&o) != 404 {
                    return Err(format!("delete of the missing {name}: expected 404, got {}", code(&o)));
                }
            }
            Op::DeleteCollection(sel, dry) => {
                let mut q = match sel {
                    Selector::All => String::new(),
                    Selector::AppX => "labelSelector=app%3Dx".into(),
                    Selector::NotAppX => "labelSelector=app%21%3Dx".into(),
                    Selector::Name(n) => format!("fieldSelector=metadata.name%3D{}", NAMES[n]),
                };
                if dry {
                    q = if q.is_empty() { "dryRun=All".into() } else { format!("{q}&dryRun=All") };
                }
                let target = if q.is_empty() { COLL.to_string() } else { format!("{COLL}?{q}") };
                let o = self.run(&format!("DELETE {target}"));
                let want: Vec<String> = self
                    .m
                    .objs
                    .iter()
                    .filter(|(n, obj)| Model::matches(obj, n, sel))
                    .map(|(n, _)| n.clone())
                    .collect();
                let got: Vec<String> = o["body"]["items"]
                    .as_array()
                    .map(|a| {
                        a.iter().filter_map(|i| i["metadata"]["name"].as_str().map(str::to_string)).collect()
                    })
                    .unwrap_or_default();
                if code(&o) != 200 || got != want {
                    return Err(format!(
                        "deletecollection {target}: expected 200 with {want:?}, got {} with {got:?}",
                        code(&o)
                    ));
                }
                self.count(if want.is_empty() { "deletecollection of nothing" } else { "deletecollection" });
                if !dry {
                    for n in want {
                        self.m.write(&n, None);
                    }
                }
            }
            Op::Advance => {
                self.run("advance 2s");
            }
        }
        self.read_watch()
    }

    fn finish(&mut self) -> R {
        self.read_watch()?;
        if self.seen != self.m.changes {
            return Err(format!("the watch saw {:?}, the model changed {:?}", self.seen, self.m.changes));
        }
        let o = self.run(&format!("GET {COLL}"));
        let got: Vec<(String, Obj)> = o["body"]["items"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|i| {
                let (rv, app, k, a, appliers) = observed(i);
                let name = i["metadata"]["name"].as_str().unwrap_or("").to_string();
                (name, Obj { rv: rv.unwrap_or(-1), app, k, a, appliers })
            })
            .collect();
        let want: Vec<(String, Obj)> = self.m.objs.clone().into_iter().collect();
        if got != want {
            return Err(format!("final list:\n got {got:?}\nwant {want:?}"));
        }
        let list_rv = o.pointer("/body/metadata/resourceVersion").and_then(Value::as_str);
        if list_rv != Some(self.m.rev.to_string().as_str()) {
            return Err(format!("the final list is at {list_rv:?}, the model at {}", self.m.rev));
        }
        Ok(())
    }
}

fn run_case(ops: &[Op], totals: &mut BTreeMap<&'static str, usize>) -> Result<(), String> {
    let mut h = Harness::new();
    let r = ops.iter().try_for_each(|op| h.op(op)).and_then(|()| h.finish());
    for (k, v) in &h.stats {
        *totals.entry(k).or_default() += v;
    }
    r.map_err(|e| format!("{e}\n--- script (rvlab run --explain) ---\n{}", h.script))
}

fn check(cases: u32, seed: u8) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u32>().ok());
    let seed = env("RVLAB_MODEL_SEED").map_or(seed, |s| seed.wrapping_add(s as u8));
    let cases = env("RVLAB_MODEL_CASES").unwrap_or(cases);
    let config = Config { cases, failure_persistence: None, max_shrink_iters: 2000, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]));
    let totals = std::cell::RefCell::new(BTreeMap::new());
    let result = runner.run(&proptest::collection::vec(op(), 1..40), |ops| {
        run_case(&ops, &mut totals.borrow_mut()).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, ops)) => panic!("PATCH model failed (shrunk, {} ops):\n{why}", ops.len()),
        Err(e) => panic!("{e}"),
    }
    let totals = totals.into_inner();
    eprintln!("seed {seed}: {totals:?}");
    // The schedules really reach every outcome, not only the easy ones.
    for what in [
        "changed",
        "no-op kept the RV",
        "refused",
        "dry-run",
        "json patch 422",
        "stale precondition 409",
        "apply conflict 409",
        "deletecollection",
    ] {
        assert!(totals.get(what).copied().unwrap_or(0) > 0, "no case exercised {what:?}: {totals:?}");
    }
}

#[test]
fn patch_and_deletecollection_follow_the_model() {
    check(64, 7);
}

/// Found by this model: a JSON merge patch that changes nothing wrote a new revision when the
/// object had labels (removing `resourceVersion` before encoding moved the last metadata field
/// into its place, so the bytes differed from the stored ones).
#[test]
fn a_no_op_patch_of_a_labelled_object_keeps_its_resource_version() {
    let out = Session::new().run_script(&format!(
        "POST {COLL} {{\"metadata\":{{\"name\":\"a\",\"labels\":{{\"app\":\"x\"}}}},\"data\":{{\"k\":\"v\"}}}}\n\
         PATCH {COLL}/a {{\"data\":{{\"k\":\"v\"}}}}\n\
         PUT {COLL}/a {{\"metadata\":{{\"name\":\"a\",\"labels\":{{\"app\":\"x\"}}}},\"data\":{{\"k\":\"v\"}}}}\n"
    ));
    for o in &out[1..] {
        assert_eq!(o["body"]["metadata"]["resourceVersion"], "2", "{o}");
    }
}

/// Found by this model: re-applying the same configuration after time passed wrote a new
/// revision (the manager's time was stamped again). Upstream keeps the time of an apply that
/// changes nothing (`managedFieldsUpdater.Apply`), so the write is a no-op.
#[test]
fn a_repeated_apply_keeps_its_resource_version_and_time() {
    let apply = format!(
        "PATCH {COLL}/a?fieldManager=m1 type=apply {{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"k\":\"v\"}}}}"
    );
    let out = Session::new().run_script(&format!("{apply}\nadvance 5s\n{apply}\n"));
    assert_eq!(out[0]["code"], 201);
    assert_eq!(out[2]["code"], 200);
    assert_eq!(out[2]["body"]["metadata"]["resourceVersion"], "2", "{}", out[2]);
    assert_eq!(out[2]["body"]["metadata"]["managedFields"][0]["time"], "2026-01-01T00:00:00Z");
}

/// Found by this model: a PUT whose body had no managedFields dropped the appliers' entries.
/// Upstream keeps the stored ones (`decodeLiveOrNew`, apimachinery
/// `managedfields/internal/fieldmanager.go`); an explicit `[]` resets them.
#[test]
fn a_put_without_managed_fields_keeps_them() {
    let out = Session::new().run_script(&format!(
        "PATCH {COLL}/a?fieldManager=m1 type=apply {{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"k\":\"v\"}}}}\n\
         PUT {COLL}/a {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"k\":\"v\"}}}}\n\
         PUT {COLL}/a {{\"metadata\":{{\"name\":\"a\",\"managedFields\":[]}},\"data\":{{\"k\":\"v\"}}}}\n"
    ));
    assert_eq!(out[1]["body"]["metadata"]["resourceVersion"], "2", "{}", out[1]);
    assert_eq!(out[1]["body"]["metadata"]["managedFields"][0]["manager"], "m1", "{}", out[1]);
    assert_eq!(out[2]["body"]["metadata"]["resourceVersion"], "3", "{}", out[2]);
    assert!(out[2]["body"]["metadata"].get("managedFields").is_none(), "{}", out[2]);
}
