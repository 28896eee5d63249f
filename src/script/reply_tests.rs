//! The typed values a line hands over ([`Reply`], the decision, the client log) say what its
//! JSON output says: every line of every script under `scripts/` and of a script that pages,
//! compacts, expires a token, watches into a 410, reads etcd, runs a pager and an informer, is
//! checked against its output, read here with plain JSON indexing.

use serde_json::Value;

use super::reply::{Body, Reply};
use crate::apiserver::decision::EtcdOp;
use crate::script::parse::{Command, EtcdCommand};
use crate::script::why::OutputWhy;
use crate::script::{LineOutcome, Session};

const SCRIPT: &str = r#"
set watch-cache off
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}
GET /api/v1/namespaces/default/configmaps?limit=1
GET /api/v1/namespaces/default/configmaps/a
GET /api/v1/namespaces/default/configmaps/zzz
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2
events w1
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"d"}}
compact 5
GET /api/v1/namespaces/default/configmaps?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0
GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2
events w2
events w1
pause w1
resume w1
drop w1
events w1
etcd get /registry/configmaps/default/ --prefix --limit=1
etcd get /registry/configmaps/default/a --rev=2
etcd put /registry/other/x 1
etcd del /registry/other/x
etcd compact 3
kubectl get configmaps
pager list /api/v1/namespaces/default/configmaps limit=1
informer start inf configmaps ns=default mode=legacy
advance 2s
informer show inf
events w9
nonsense line
"#;

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// A resourceVersion's revision, read from its JSON text.
fn rev(v: &Value) -> Option<i64> {
    v.as_str()?.parse().ok()
}

/// The `rv` a continue token's JSON holds (RawURLEncoding, `storage/continue.go`), decoded here
/// by hand rather than by the apiserver's decoder.
fn token_rv(v: &Value) -> Option<i64> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(v.as_str()?).ok()?;
    serde_json::from_slice::<Value>(&bytes).ok()?["rv"].as_i64()
}

/// Checks one outcome against its output; `Err` says what differs.
fn check(line: &str, o: &LineOutcome) -> Result<(), String> {
    let out = &o.out;
    let here = |what: &str| format!("{what} of {line:?}: {out}");
    if o.why != OutputWhy::from_output(out) {
        return Err(here("why"));
    }
    if o.client_log != crate::script::why::informer::output_log(out) {
        return Err(here("client log"));
    }
    if o.failure.is_some() {
        return if o.reply == Reply::Other { Ok(()) } else { Err(here("reply of a failed line")) };
    }
    match &o.reply {
        Reply::Api(a) => {
            let headers: Vec<(String, String)> = out["headers"]
                .as_object()
                .map(|h| h.iter().map(|(k, v)| (k.clone(), text(v).unwrap_or_default())).collect())
                .unwrap_or_default();
            if out["code"].as_u64() != Some(u64::from(a.code))
                || text(&out["watch"]) != a.watch
                || headers != a.headers
            {
                return Err(here("code or watch"));
            }
            if let Some(Command::Request { target, .. }) = &o.command {
                let sent = target.split_once('?').map(|(_, q)| {
                    crate::apiserver::request::Query::parse(q).first("continue").map(str::to_string)
                });
                if sent.flatten() != a.continued {
                    return Err(here("continue sent"));
                }
            }
            let body = &out["body"];
            let ok = match &a.body {
                Body::None => body.is_null(),
                Body::Status(s) => {
                    body["kind"] == "Status"
                        && text(&body["reason"]).unwrap_or_default() == s.reason
                        && body["code"].as_i64() == s.code
                        && text(&body["message"]).unwrap_or_default() == s.message
                        && body["details"]["causes"].as_array().map_or(0, Vec::len) == s.causes.len()
                        && a.reason() == body["reason"].as_str().filter(|r| !r.is_empty())
                        && text(&body["metadata"]["continue"]).filter(|t| !t.is_empty()) == s.continue_token
                        && token_rv(&body["metadata"]["continue"]) == s.continue_rv
                }
                Body::List(l) => {
                    let items = body["items"].as_array().cloned().unwrap_or_default();
                    items.len() == l.items.len()
                        && items.iter().zip(&l.items).all(|(i, f)| {
                            text(&i["metadata"]["name"]) == f.name
                                && text(&i["metadata"]["resourceVersion"]) == f.resource_version
                                && rev(&i["metadata"]["resourceVersion"]) == f.revision
                        })
                        && text(&body["metadata"]["resourceVersion"]) == l.resource_version
                        && rev(&body["metadata"]["resourceVersion"]) == l.revision
                        && token_rv(&body["metadata"]["continue"]) == l.continue_rv
                        && text(&body["metadata"]["continue"]).filter(|t| !t.is_empty()) == l.continue_token
                        && body["metadata"]["remainingItemCount"].as_i64() == l.remaining_item_count
                        && text(&body["kind"]) == l.kind
                }
                Body::Object(f) => {
                    text(&body["kind"]) == f.kind
                        && text(&body["metadata"]["name"]) == f.name
                        && text(&body["metadata"]["namespace"]) == f.namespace
                        && text(&body["metadata"]["resourceVersion"]) == f.resource_version
                        && rev(&body["metadata"]["resourceVersion"]) == f.revision
                }
            };
            let token = text(&body["metadata"]["continue"]).filter(|t| !t.is_empty());
            if !ok
                || token.as_deref() != a.body.continue_token()
                || token_rv(&body["metadata"]["continue"]) != a.body.continue_rv()
            {
                return Err(here("body"));
            }
        }
        Reply::Events(e) => {
            let events = out["events"].as_array().cloned().unwrap_or_default();
            let same = events.len() == e.events.len()
                && events.iter().zip(&e.events).all(|(j, f)| {
                    j["type"] == f.kind.as_str()
                        && text(&j["object"]["metadata"]["name"]) == f.object.name
                        && text(&j["object"]["metadata"]["resourceVersion"]) == f.object.resource_version
                        && rev(&j["object"]["metadata"]["resourceVersion"]) == f.object.revision
                        && f.error.as_ref().is_none_or(|s| j["object"]["code"].as_i64() == s.code)
                        && (f.error.is_some() == (j["type"] == "ERROR"))
                })
                && out["closed"].as_bool() == Some(e.closed)
                && out["dropped"].as_bool().unwrap_or(false) == e.dropped
                && out["paused"].as_bool().unwrap_or(false) == e.paused;
            if !same {
                return Err(here("events"));
            }
        }
        Reply::Etcd(e) => {
            let kvs = out["kvs"].as_array().cloned().unwrap_or_default();
            let same = out["header"]["revision"].as_i64() == e.revision
                && text(&out["error"]) == e.error
                && kvs.len() == e.kvs.len()
                && kvs.iter().zip(&e.kvs).all(|(j, k)| {
                    j["key"] == k.key.as_str()
                        && j["create_revision"].as_i64() == Some(k.create_revision)
                        && j["mod_revision"].as_i64() == Some(k.mod_revision)
                        && j["version"].as_i64() == Some(k.version)
                })
                && out["count"].as_i64() == e.count
                && out["more"].as_bool() == e.more;
            let op = match &o.command {
                Some(Command::Etcd(EtcdCommand::Get { .. })) => Some(EtcdOp::Range),
                Some(Command::Etcd(EtcdCommand::Put { .. })) => Some(EtcdOp::Put),
                Some(Command::Etcd(EtcdCommand::Del { .. })) => Some(EtcdOp::DeleteRange),
                Some(Command::Etcd(EtcdCommand::Compact { .. }) | Command::Compact { .. }) => {
                    Some(EtcdOp::Compact)
                }
                _ => None,
            };
            if !same || op != Some(e.op) {
                return Err(here("etcd"));
            }
        }
        Reply::ClientError(e) => {
            if out["error"].as_str() != Some(e.as_str()) {
                return Err(here("client error"));
            }
        }
        Reply::Other => {
            let answered = ["code", "events", "kvs", "header", "watch"].iter().any(|k| out.get(*k).is_some());
            if answered {
                return Err(here("an answer typed as none"));
            }
        }
    }
    if o.reply.error() != out["error"].as_str() {
        return Err(here("error"));
    }
    Ok(())
}

/// Runs `text` and checks every line; returns the outcomes.
fn check_script(text: &str, explain: bool) -> Vec<LineOutcome> {
    let mut s = Session::with_explain(explain);
    let mut outcomes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(o) = s.run_line_outcome(i + 1, line) else { continue };
        if let Err(e) = check(line, &o) {
            panic!("{e}");
        }
        outcomes.push(o);
    }
    outcomes
}

#[test]
fn the_typed_answer_says_what_the_output_says() {
    for explain in [true, false] {
        let os = check_script(SCRIPT, explain);
        let replies = || os.iter().map(|o| &o.reply);
        let api = || replies().filter_map(Reply::api);
        // The script reaches every fact the panels draw.
        assert!(
            api().any(|a| a.reason() == Some("Expired") && a.body.continue_token().is_some()),
            "a 410 token"
        );
        assert!(api().any(|a| a.continued.is_some()), "a continued list");
        assert!(api().any(|a| matches!(&a.body, Body::List(l) if l.continue_token.is_some())), "a page");
        // The page's token pins the list's revision; the 410 offers one at the latest (rv −1).
        assert!(
            api().any(
                |a| matches!(&a.body, Body::List(l) if l.continue_rv.is_some() && l.continue_rv == l.revision)
            ),
            "a page's token at its list's revision"
        );
        assert!(
            api().any(|a| a.reason() == Some("Expired") && a.body.continue_rv() == Some(-1)),
            "a 410's token"
        );
        assert!(api().any(|a| a.reason() == Some("NotFound")), "a 404");
        assert_eq!(api().filter_map(|a| a.watch.as_deref()).collect::<Vec<_>>(), ["w1", "w2"]);
        let frames = || replies().filter_map(Reply::events).flat_map(|e| &e.events);
        assert!(frames().any(|f| f.error.as_ref().is_some_and(|s| s.code == Some(410))), "a 410 frame");
        assert!(frames().any(|f| f.error.is_none() && f.object.name.is_some()), "an object frame");
        assert!(replies().filter_map(Reply::events).any(|e| e.dropped && e.closed), "a dropped watch");
        let etcd = || replies().filter_map(Reply::etcd);
        assert!(etcd().any(|e| e.is_read() && !e.kvs.is_empty() && e.more == Some(true)), "an etcd page");
        assert!(etcd().any(|e| e.error.is_some()), "an etcd refusal");
        assert!(os.iter().any(|o| o.failure.is_some()), "lines that did not run");
        let decided = os.iter().filter(|o| o.why.is_some()).count();
        let logged = os.iter().filter(|o| o.client_log.is_some()).count();
        if explain {
            assert!(decided >= 15 && logged >= 3, "{decided} decisions, {logged} client logs");
        } else {
            assert_eq!((decided, logged), (0, 0));
        }
    }
}

#[test]
fn every_script_line_hands_over_the_answer_its_output_says() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut dirs = vec![root];
    let mut files = 0;
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rv") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                check_script(&text, true);
                files += 1;
            }
        }
    }
    assert!(files >= 30, "only {files} scripts");
}

#[test]
fn the_values_a_line_hands_over_are_those_of_its_answer() {
    let mut s = Session::with_explain(true);
    let run = |s: &mut Session, n, l| s.run_line_outcome(n, l).unwrap_or_else(|| panic!("{l}"));
    run(
        &mut s,
        1,
        r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"i"}]}}"#,
    );
    let list = run(&mut s, 2, "GET /api/v1/namespaces/default/pods?limit=1");
    let Reply::Api(a) = &list.reply else { panic!("{:?}", list.reply) };
    assert_eq!((a.code, a.watch.as_deref(), a.continued.as_deref()), (200, None, None));
    let Body::List(l) = &a.body else { panic!("{:?}", a.body) };
    assert_eq!(l.items.iter().map(|i| i.name.as_deref()).collect::<Vec<_>>(), [Some("a")]);
    assert_eq!((l.kind.as_deref(), l.item_kind()), (Some("PodList"), Some("Pod")));
    assert_eq!((l.resource_version.as_deref(), l.revision), (Some("2"), Some(2)));
    assert_eq!(l.items.iter().map(|i| i.revision).collect::<Vec<_>>(), [Some(2)]);
    let watch = run(&mut s, 3, "GET /api/v1/namespaces/default/pods?watch=true&resourceVersion=0");
    assert_eq!(watch.reply.api().and_then(|a| a.watch.as_deref()), Some("w1"));
    assert!(matches!(watch.why, Some(OutputWhy::Request(_))));
    let events = run(&mut s, 4, "events w1");
    let e = events.reply.events().expect("events");
    assert_eq!(
        e.events.iter().map(|f| (f.kind.as_str(), f.object.name.as_deref())).collect::<Vec<_>>(),
        [("ADDED", Some("a"))]
    );
    let bad = run(&mut s, 5, "GET /api/v1/namespaces/default/pods?resourceVersion=x");
    assert_eq!(bad.reply.api().map(|a| (a.code, a.reason())), Some((400, Some("BadRequest"))));
    assert!(bad.reply.is_error());
    let etcd = run(&mut s, 6, "etcd get /registry/pods/default/a");
    let r = etcd.reply.etcd().expect("etcd");
    assert!(r.is_read());
    assert_eq!(
        r.kvs.iter().map(|k| (k.key.as_str(), k.mod_revision)).collect::<Vec<_>>(),
        [("/registry/pods/default/a", 2)]
    );
    let refused = run(&mut s, 7, "events w7");
    assert_eq!((refused.reply, refused.why), (Reply::Other, None));
}

#[test]
fn an_informer_hands_over_its_last_sync_revision_as_a_number() {
    let mut s = Session::with_explain(false);
    let lines = [
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#,
        "informer start inf configmaps ns=default mode=legacy",
    ];
    for (i, l) in lines.iter().enumerate() {
        s.run_line_outcome(i + 1, l);
    }
    let listed = s.view().informers;
    assert_eq!(
        listed.iter().map(|i| (i.last_sync_rv.as_str(), i.last_sync_revision)).collect::<Vec<_>>(),
        [("2", Some(2))]
    );
    s.run_line_outcome(3, r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}"#);
    s.run_line_outcome(4, "advance 2s");
    let after = s.view().informers;
    assert_eq!(
        after.iter().map(|i| (i.last_sync_rv.as_str(), i.last_sync_revision)).collect::<Vec<_>>(),
        [("3", Some(3))]
    );
}

#[test]
fn the_session_follows_each_watch_through_the_lines_that_read_pause_cancel_or_drop_it() {
    let mut s = Session::with_explain(false);
    let lines = [
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#,
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0",
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0",
        "events w1",
        "pause w1",
        "events w2",
        "drop w2",
        "events w2",
        "resume w1",
        "pause w1",
        "cancel w1",
        "events w9",
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1",
    ];
    for (i, l) in lines.iter().enumerate() {
        s.run_line_outcome(i + 1, l);
    }
    let ws = s.watches();
    let got: Vec<_> = ws.iter().map(|w| (w.id.as_str(), w.line, w.script.clone())).collect();
    let lines_of = |reads: &[usize], closed, paused, cancelled| crate::script::view::WatchLines {
        reads: reads.to_vec(),
        closed,
        paused,
        cancelled,
    };
    assert_eq!(
        got,
        [
            ("w1", 2, lines_of(&[4], false, true, true)),
            ("w2", 3, lines_of(&[6, 8], true, false, false)),
            ("w3", 13, lines_of(&[], false, false, false)),
        ]
    );
    // Where each started and how it ended, typed once for both pictures.
    let ends: Vec<_> = ws.iter().map(|w| (w.start, w.end.as_ref().map(|e| (e.rv, e.line, e.code)))).collect();
    assert_eq!(ends, [(None, Some((2, 2, None))), (None, Some((2, 3, None))), (Some(1), None)]);
    assert_eq!(ws[0].events().collect::<Vec<_>>(), [2]);
    // The timeline draws the same values.
    assert_eq!(s.view().watches, ws);
}
