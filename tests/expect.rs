//! `expect` assertions: parsing (exact forms and errors) and checking against output objects.

use rvlab::script::expect::{
    Check, CmpOp, Entry, ExpectFailure, Expectation, FailureKind, Path, Segment, Subject, parse_expectation,
};
use serde_json::{Value, json};

mod support;

fn exp(line: &str) -> Expectation {
    support::parses(line)
}

fn parse_err(line: &str) -> String {
    support::parse_error::<Expectation>(line)
}

fn no_informers(_: &str) -> Option<Value> {
    None
}

/// Runs `line` against `prev`; Ok(()) or the failure as "expected …, seen …".
fn run(line: &str, prev: &Value) -> Result<(), String> {
    exp(line).check(Some(prev), &no_informers).map_err(|f| f.to_string())
}

fn pass(line: &str, prev: &Value) {
    if let Err(e) = run(line, prev) {
        panic!("{line:?} should pass: {e}");
    }
}

fn fail(line: &str, prev: &Value) -> String {
    match run(line, prev) {
        Ok(()) => panic!("{line:?} should fail on {prev}"),
        Err(e) => e,
    }
}

fn status_410() -> Value {
    json!({"line": 3, "code": 410, "body": {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": "too old resource version: 3 (5)", "reason": "Expired", "code": 410
    }})
}

fn pod_list() -> Value {
    json!({"line": 4, "code": 200, "body": {
        "kind": "PodList", "apiVersion": "v1",
        "metadata": {"resourceVersion": "17", "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", "remainingItemCount": 1},
        "items": [
            {"metadata": {"name": "a", "namespace": "default", "resourceVersion": "4",
                          "annotations": {"example.com/owner": "me"}}},
            {"metadata": {"name": "b", "namespace": "default", "resourceVersion": "9"}}
        ]
    }})
}

fn events_output() -> Value {
    json!({"line": 5, "events": [
        {"type": "ADDED", "object": {"metadata": {"name": "a", "resourceVersion": "5"}}},
        {"type": "MODIFIED", "object": {"metadata": {"name": "b", "resourceVersion": "6"}}},
        {"type": "BOOKMARK", "object": {"kind": "Pod", "metadata": {"resourceVersion": "9"}}},
        {"type": "ERROR", "object": {"kind": "Status", "code": 410, "reason": "Expired"}}
    ], "closed": true})
}

fn etcd_output() -> Value {
    json!({"line": 6, "header": {"revision": 5}, "kvs": [
        {"key": "/registry/pods/default/a", "value": "x", "create_revision": 2, "mod_revision": 5, "version": 2},
        {"key": "/registry/pods/default/b", "value": "y", "create_revision": 3, "mod_revision": 3, "version": 1}
    ], "count": 3, "more": true})
}

// --- parsing -----------------------------------------------------------------------------------

#[test]
fn parses_subjects() {
    let key = |k: &str| Segment::Key(k.into());
    assert_eq!(exp("expect code 410").subject, Subject::Code);
    assert_eq!(exp("expect reason Expired").subject, Subject::Reason);
    assert_eq!(exp("expect message \"x\"").subject, Subject::Message);
    assert_eq!(exp("expect error \"x\"").subject, Subject::Error);
    assert_eq!(exp("expect count 3").subject, Subject::Count);
    assert_eq!(exp("expect closed").subject, Subject::Closed);
    assert_eq!(exp("expect items == []").subject, Subject::Items);
    assert_eq!(exp("expect events == []").subject, Subject::Events);
    assert_eq!(exp("expect kvs == []").subject, Subject::Kvs);
    assert_eq!(exp("expect header Retry-After == 1").subject, Subject::Header("Retry-After".into()));
    assert_eq!(exp("expect informer inf store == [a]").subject, Subject::InformerStore("inf".into()));
    assert_eq!(
        exp("expect informer inf lastSyncRV == \"17\"").subject,
        Subject::Informer { name: "inf".into(), path: Path(vec![key("lastSyncRV")]) }
    );
    assert_eq!(
        exp("expect informer inf store[0].name == a").subject,
        Subject::Informer {
            name: "inf".into(),
            path: Path(vec![key("store"), Segment::Index(0), key("name")])
        }
    );
    assert_eq!(
        exp("expect header.revision == 5").subject,
        Subject::Path(Path(vec![key("header"), key("revision")]))
    );
    assert_eq!(
        exp(r#"expect body.metadata.annotations["example.com/owner"] == me"#).subject,
        Subject::Path(Path(vec![key("body"), key("metadata"), key("annotations"), key("example.com/owner")]))
    );
    assert_eq!(
        exp("expect events[2].object.metadata.resourceVersion == \"9\"").subject,
        Subject::Path(Path(vec![
            key("events"),
            Segment::Index(2),
            key("object"),
            key("metadata"),
            key("resourceVersion")
        ]))
    );
    assert_eq!(
        exp("expect items[1] exists").subject,
        Subject::Path(Path(vec![key("items"), Segment::Index(1)]))
    );
}

#[test]
fn parses_checks_and_values() {
    let check = |l: &str| exp(l).check;
    assert_eq!(check("expect code 410"), Check::Compare(CmpOp::Eq, json!(410)));
    assert_eq!(check("expect code == 410"), Check::Compare(CmpOp::Eq, json!(410)));
    assert_eq!(check("expect code != 200"), Check::Compare(CmpOp::Ne, json!(200)));
    assert_eq!(check("expect reason Expired"), Check::Compare(CmpOp::Eq, json!("Expired")));
    assert_eq!(check("expect reason \"Expired\""), Check::Compare(CmpOp::Eq, json!("Expired")));
    assert_eq!(check("expect x.y == true"), Check::Compare(CmpOp::Eq, json!(true)));
    assert_eq!(check("expect x.y == null"), Check::Compare(CmpOp::Eq, Value::Null));
    assert_eq!(check("expect x.y == [1, \"a\"]"), Check::Compare(CmpOp::Eq, json!([1, "a"])));
    assert_eq!(check("expect x.y == {\"a\": 1}"), Check::Compare(CmpOp::Eq, json!({"a": 1})));
    assert_eq!(check("expect x.y > 4"), Check::Compare(CmpOp::Gt, json!(4)));
    assert_eq!(check("expect x.y >= \"4\""), Check::Compare(CmpOp::Ge, json!("4")));
    assert_eq!(check("expect x.y < 1.5"), Check::Compare(CmpOp::Lt, json!(1.5)));
    assert_eq!(check("expect x.y <= -2"), Check::Compare(CmpOp::Le, json!(-2)));
    assert_eq!(check("expect x.y exists"), Check::Exists);
    assert_eq!(check("expect x.y absent"), Check::Absent);
    assert_eq!(check("expect message contains \"too old\""), Check::Contains(json!("too old")));
    assert_eq!(check("expect closed"), Check::Compare(CmpOp::Eq, json!(true)));
    assert_eq!(check("expect not closed"), Check::Compare(CmpOp::Eq, json!(false)));
    assert_eq!(check("expect reason exists"), Check::Exists);
    assert_eq!(check("expect reason == exists"), Check::Compare(CmpOp::Eq, json!("exists")));
}

#[test]
fn parses_lists() {
    let check = |l: &str| exp(l).check;
    let rv = |t: &str, rv: &str| Entry { text: t.into(), rv: Some(rv.into()) };
    assert_eq!(check("expect items == [a, b]"), Check::ListEq(vec![Entry::new("a"), Entry::new("b")]));
    assert_eq!(check("expect items == []"), Check::ListEq(vec![]));
    assert_eq!(check("expect items [a]"), Check::ListEq(vec![Entry::new("a")]));
    assert_eq!(check("expect items != [a]"), Check::ListNe(vec![Entry::new("a")]));
    assert_eq!(check("expect items contains b"), Check::ListContains(Entry::new("b")));
    assert_eq!(
        check("expect events == [ADDED a, MODIFIED  b ,BOOKMARK, ERROR 410]"),
        Check::ListEq(vec![
            Entry::new("ADDED a"),
            Entry::new("MODIFIED b"),
            Entry::new("BOOKMARK"),
            Entry::new("ERROR 410")
        ])
    );
    assert_eq!(
        check("expect events == [ADDED a@5, BOOKMARK@9]"),
        Check::ListEq(vec![rv("ADDED a", "5"), rv("BOOKMARK", "9")])
    );
    assert_eq!(check("expect events contains ADDED a@5"), Check::ListContains(rv("ADDED a", "5")));
    assert_eq!(
        check(r#"expect kvs == ["a,b", "c@d"@7]"#),
        Check::ListEq(vec![Entry::new("a,b"), rv("c@d", "7")])
    );
    assert_eq!(check("expect kvs exists"), Check::Exists);
}

#[test]
fn parse_errors() {
    assert_eq!(
        parse_err("expect code"),
        "expect code: missing check; expected ==, !=, <, <=, >, >=, exists, absent, contains or a value"
    );
    assert_eq!(
        parse_err("expect body.metadata.continue"),
        "expect body.metadata.continue: missing check; expected ==, !=, <, <=, >, >=, exists, absent, contains or a value"
    );
    assert_eq!(parse_err("expect code =="), "expect code ==: missing value");
    assert_eq!(parse_err("expect message contains"), "expect message contains: missing value");
    assert_eq!(parse_err("expect x exists now"), "expect x exists: unexpected \"now\"");
    assert_eq!(
        parse_err("expect message too old"),
        "expect message: text with spaces must be quoted: \"too old\""
    );
    assert_eq!(
        parse_err("expect message \"too old"),
        "expect message: \"\\\"too old\" is not valid JSON (EOF while parsing a string at line 1 column 8)"
    );
    assert_eq!(
        parse_err("expect body.items == [a, b]"),
        "expect body.items: \"[a, b]\" is not valid JSON (expected value at line 1 column 2); \
         to compare names use items, events, kvs or informer <name> store"
    );
    assert_eq!(
        parse_err("expect body.metadata.resourceVersion > abc"),
        "expect body.metadata.resourceVersion >: needs a number, got \"abc\""
    );
    assert_eq!(parse_err("expect x >= \"4a\""), "expect x >=: needs a number, got \"\\\"4a\\\"\"");
    assert_eq!(
        parse_err("expect items > [a]"),
        "expect items: > does not work on lists; use ==, !=, contains, exists or absent"
    );
    assert_eq!(parse_err("expect items == a, b"), "expect items: expected a list like [a, b], got \"a, b\"");
    assert_eq!(parse_err("expect items == [a,,b]"), "expect items: empty entry in list");
    assert_eq!(
        parse_err("expect items contains [a]"),
        "expect items contains: takes one entry, e.g. contains a"
    );
    assert_eq!(
        parse_err("expect events contains [ADDED a]"),
        "expect events contains: takes one entry, e.g. contains ADDED a"
    );
    assert_eq!(
        parse_err("expect items == [a@]"),
        "expect items: expected a resourceVersion after @, got \"\""
    );
    assert_eq!(parse_err("expect items == [@5]"), "expect items: missing name before @ in \"@5\"");
    assert_eq!(
        parse_err("expect items == [a[0]]"),
        "expect items: unexpected '[' in entry \"a[0]\"; quote entries like \"a,b\""
    );
    assert_eq!(
        parse_err("expect not code 200"),
        "expect not: only \"expect not closed\" exists; use != or absent otherwise"
    );
    assert_eq!(
        parse_err("expect header"),
        "expect header: missing header name; expected expect header <Name> == <value>"
    );
    assert_eq!(
        parse_err("expect informer inf"),
        "expect informer: missing field after the name; expected expect informer <name> store|<path> ..."
    );
    assert_eq!(parse_err("expect body..x exists"), "expect: bad path \"body..x\": empty key");
    assert_eq!(
        parse_err("expect body.items[x] exists"),
        "expect: bad path \"body.items[x]\": an index must be a number, e.g. [0]"
    );
    assert_eq!(parse_err("expect body.items[0 exists"), "expect: bad path \"body.items[0\": missing ]");
    assert_eq!(
        parse_err("expect body]x exists"),
        "expect: bad path \"body]x\": expected . or [ between keys"
    );
    assert_eq!(parse_err("expect a[0]b exists"), "expect: bad path \"a[0]b\": expected . or [ between keys");
    assert_eq!(parse_err("expectation code 1"), "not an expect line: \"expectation code 1\"");
    // parse_expectation takes what follows the keyword.
    assert_eq!(parse_expectation(" code 410").unwrap(), exp("expect code 410"));
}

#[test]
fn display_is_canonical() {
    let cases = [
        ("expect code == 410", "expect code 410"),
        ("expect reason \"Expired\"", "expect reason Expired"),
        ("expect reason == \"410\"", "expect reason \"410\""),
        ("expect reason == \"exists\"", "expect reason \"exists\""),
        ("expect message == \"a b\"", "expect message \"a b\""),
        ("expect body.x == a", "expect body.x == \"a\""),
        ("expect body.x   >   4", "expect body.x > 4"),
        ("expect header retry-after 1", "expect header retry-after == 1"),
        ("expect closed == false", "expect not closed"),
        ("expect closed != false", "expect closed != false"),
        ("expect items == [ a , b ]", "expect items == [a, b]"),
        ("expect items == [\"a\"@4]", "expect items == [a@4]"),
        ("expect events == [\"ADDED  a\"]", "expect events == [\"ADDED  a\"]"),
        ("expect x.y == {\"b\": 1, \"a\": [true]}", "expect x.y == {\"b\":1,\"a\":[true]}"),
        ("expect informer inf [\"store\"] exists", "expect informer inf [\"store\"] exists"),
        ("expect [\"items\"] exists", "expect [\"items\"] exists"),
        ("expect a[\"b\"] exists", "expect a.b exists"),
        ("expect a[\"\"] exists", "expect a[\"\"] exists"),
    ];
    for (input, canonical) in cases {
        assert_eq!(support::round_trip::<Expectation>(input), canonical, "display of {input:?}");
    }
    assert_eq!(exp("expect code 410").assertion(), "code 410");
}

// --- checking: shorthands ----------------------------------------------------------------------

#[test]
fn code_reason_message() {
    let s = status_410();
    pass("expect code 410", &s);
    pass("expect code != 200", &s);
    pass("expect code >= 400", &s);
    pass("expect code 410.0", &s);
    pass("expect reason Expired", &s);
    pass("expect message \"too old resource version: 3 (5)\"", &s);
    pass("expect message contains \"too old\"", &s);
    pass("expect message contains 3", &s);
    assert_eq!(fail("expect code 200", &s), "expected code 200, seen code 410");
    assert_eq!(fail("expect code \"410\"", &s), "expected code \"410\", seen code 410");
    assert_eq!(fail("expect reason Gone", &s), "expected reason Gone, seen reason Expired");
    assert_eq!(
        fail("expect message contains \"too new\"", &s),
        "expected message contains \"too new\", seen message \"too old resource version: 3 (5)\""
    );
    let ok = json!({"line": 2, "code": 200, "body": {"kind": "Pod"}});
    assert_eq!(fail("expect reason Expired", &ok), "expected reason Expired, seen reason absent");
    pass("expect reason absent", &ok);
}

#[test]
fn paths_and_comparisons() {
    let l = pod_list();
    pass("expect body.metadata.resourceVersion == \"17\"", &l);
    pass("expect body.items[0].metadata.name == \"a\"", &l);
    pass("expect body.items[1].metadata.name == b", &l);
    pass("expect body.metadata.continue exists", &l);
    pass("expect body.metadata.remainingItemCount == 1", &l);
    pass("expect body.metadata.selfLink absent", &l);
    pass("expect body.items[2] absent", &l);
    pass("expect body.items[0].metadata.annotations[\"example.com/owner\"] == me", &l);
    pass("expect body.metadata.resourceVersion > 4", &l);
    pass("expect body.metadata.resourceVersion > \"9\"", &l);
    pass("expect body.metadata.resourceVersion >= 17", &l);
    pass("expect body.metadata.resourceVersion <= 17", &l);
    pass("expect body.metadata.resourceVersion < 100", &l);
    pass("expect body.metadata.resourceVersion != \"4\"", &l);
    pass("expect body.items[0].metadata contains \"namespace\"", &l);
    pass("expect body.kind contains List", &l);
    // A resourceVersion is a string: the number 17 is not equal to "17".
    assert_eq!(
        fail("expect body.metadata.resourceVersion == 17", &l),
        "expected body.metadata.resourceVersion == 17, seen body.metadata.resourceVersion == \"17\""
    );
    assert_eq!(
        fail("expect body.metadata.resourceVersion > 17", &l),
        "expected body.metadata.resourceVersion > 17, seen body.metadata.resourceVersion == \"17\""
    );
    assert_eq!(fail("expect body.kind < 3", &l), "expected body.kind < 3, seen body.kind == \"PodList\"");
    assert_eq!(
        fail("expect body.metadata.continue absent", &l),
        "expected body.metadata.continue absent, seen body.metadata.continue == \"eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ\""
    );
    assert_eq!(
        fail("expect body.metadata.selfLink exists", &l),
        "expected body.metadata.selfLink exists, seen body.metadata.selfLink absent"
    );
    // != needs the field to be there.
    assert_eq!(
        fail("expect body.metadata.resourcVersion != \"4\"", &l),
        "expected body.metadata.resourcVersion != \"4\", seen body.metadata.resourcVersion absent"
    );
    assert_eq!(
        fail("expect body.items[0].metadata == {}", &l),
        "expected body.items[0].metadata == {}, seen body.items[0].metadata == \
         {\"name\":\"a\",\"namespace\":\"default\",\"resourceVersion\":\"4\",\"annotations\":{\"example.com/owner\":\"me\"}}"
    );
    // Objects compare regardless of key order; numbers by value.
    pass(
        "expect body.items[1].metadata == {\"resourceVersion\": \"9\", \"name\": \"b\", \"namespace\": \"default\"}",
        &l,
    );
    pass("expect body.metadata.remainingItemCount == 1.0", &l);
    pass("expect line 4", &l);
}

#[test]
fn long_seen_values_are_shortened() {
    let big = json!({"body": {"s": "x".repeat(1000)}});
    let f = fail("expect body.s == \"y\"", &big);
    assert!(f.ends_with("…"), "{f}");
    assert_eq!(f.chars().count(), "expected body.s == \"y\", seen ".len() + 300 + 1);
}

#[test]
fn items_lists() {
    let l = pod_list();
    pass("expect items == [a, b]", &l);
    pass("expect items == [a@4, b@9]", &l);
    pass("expect items == [a, b@9]", &l);
    pass("expect items != [b, a]", &l);
    pass("expect items contains b", &l);
    pass("expect items contains b@9", &l);
    pass("expect items exists", &l);
    assert_eq!(fail("expect items == [a]", &l), "expected items == [a], seen items == [a, b]");
    assert_eq!(fail("expect items == [b, a]", &l), "expected items == [b, a], seen items == [a, b]");
    assert_eq!(fail("expect items == [a@5, b]", &l), "expected items == [a@5, b], seen items == [a@4, b@9]");
    assert_eq!(fail("expect items contains c", &l), "expected items contains c, seen items == [a, b]");
    assert_eq!(
        fail("expect items contains a@3", &l),
        "expected items contains a@3, seen items == [a@4, b@9]"
    );
    assert_eq!(fail("expect items != [a, b]", &l), "expected items != [a, b], seen items == [a, b]");
    let empty =
        json!({"code": 200, "body": {"kind": "PodList", "metadata": {"resourceVersion": "3"}, "items": []}});
    pass("expect items == []", &empty);
    assert_eq!(fail("expect items == [a]", &empty), "expected items == [a], seen items == []");
    assert_eq!(fail("expect items == []", &status_410()), "expected items == [], seen items absent");
}

#[test]
fn events_lists() {
    let e = events_output();
    pass("expect events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]", &e);
    pass("expect events == [ADDED a@5, MODIFIED b, BOOKMARK@9, ERROR 410]", &e);
    pass("expect events contains BOOKMARK", &e);
    pass("expect events contains BOOKMARK@9", &e);
    pass("expect events contains ERROR 410", &e);
    pass("expect events[3].object.reason == \"Expired\"", &e);
    pass("expect closed", &e);
    assert_eq!(
        fail("expect events == [ADDED a, ADDED b]", &e),
        "expected events == [ADDED a, ADDED b], seen events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]"
    );
    assert_eq!(
        fail("expect events == [ADDED a@4]", &e),
        "expected events == [ADDED a@4], seen events == [ADDED a@5, MODIFIED b@6, BOOKMARK@9, ERROR 410]"
    );
    assert_eq!(
        fail("expect events contains DELETED a", &e),
        "expected events contains DELETED a, seen events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]"
    );
    assert_eq!(fail("expect not closed", &e), "expected not closed, seen closed");
    let open = json!({"line": 9, "events": [], "closed": false});
    pass("expect events == []", &open);
    pass("expect not closed", &open);
    pass("expect closed == false", &open);
    assert_eq!(fail("expect closed", &open), "expected closed, seen not closed");
    assert_eq!(
        fail("expect events == [BOOKMARK]", &open),
        "expected events == [BOOKMARK], seen events == []"
    );
    // An output without events (e.g. a request) is reported as such.
    assert_eq!(fail("expect events == []", &pod_list()), "expected events == [], seen events absent");
    assert_eq!(fail("expect closed", &pod_list()), "expected closed, seen closed absent");
}

#[test]
fn etcd_outputs() {
    let o = etcd_output();
    pass("expect kvs == [/registry/pods/default/a, /registry/pods/default/b]", &o);
    pass("expect kvs == [/registry/pods/default/a@5, /registry/pods/default/b@3]", &o);
    pass("expect kvs contains /registry/pods/default/b", &o);
    pass("expect count 3", &o);
    pass("expect header.revision == 5", &o);
    pass("expect more == true", &o);
    pass("expect kvs[0].version == 2", &o);
    pass("expect kvs[0].value == x", &o);
    assert_eq!(fail("expect count 2", &o), "expected count 2, seen count 3");
    assert_eq!(
        fail("expect kvs == [/registry/pods/default/a]", &o),
        "expected kvs == [/registry/pods/default/a], seen kvs == [/registry/pods/default/a, /registry/pods/default/b]"
    );
    let err = json!({"line": 7, "error": "mvcc: required revision has been compacted"});
    pass("expect error \"mvcc: required revision has been compacted\"", &err);
    pass("expect error contains compacted", &err);
    assert_eq!(
        fail("expect error \"mvcc: required revision is a future revision\"", &err),
        "expected error \"mvcc: required revision is a future revision\", \
         seen error \"mvcc: required revision has been compacted\""
    );
    // When the field is missing and the output is an error, the error is shown too.
    assert_eq!(
        fail("expect count 3", &err),
        "expected count 3, seen count absent; error \"mvcc: required revision has been compacted\""
    );
    assert_eq!(
        fail("expect kvs == []", &err),
        "expected kvs == [], seen kvs absent; error \"mvcc: required revision has been compacted\""
    );
    assert_eq!(fail("expect error exists", &o), "expected error exists, seen error absent");
}

#[test]
fn headers() {
    let r = json!({"line": 3, "code": 429, "headers": {"Retry-After": "1"}, "body": {"kind": "Status", "code": 429}});
    pass("expect header Retry-After == \"1\"", &r);
    pass("expect header Retry-After == 1", &r);
    pass("expect header retry-after == 1", &r);
    pass("expect header Retry-After exists", &r);
    pass("expect header Retry-After >= 1", &r);
    pass("expect header Warning absent", &r);
    assert_eq!(
        fail("expect header Retry-After == 2", &r),
        "expected header Retry-After == 2, seen header Retry-After == \"1\""
    );
    assert_eq!(
        fail("expect header Retry-After exists", &pod_list()),
        "expected header Retry-After exists, seen header Retry-After absent"
    );
}

#[test]
fn watch_start_output() {
    let w = json!({"line": 4, "code": 200, "watch": "w1"});
    pass("expect code 200", &w);
    pass("expect watch == w1", &w);
    assert_eq!(fail("expect watch == w2", &w), "expected watch == \"w2\", seen watch == \"w1\"");
}

#[test]
fn informers() {
    let show = json!({"line": 8, "informer": "inf",
        "store": [
            {"name": "a", "namespace": "default", "resourceVersion": "4"},
            {"name": "c", "namespace": "default", "resourceVersion": "12"}
        ],
        "lastSyncRV": "17", "log": ["LIST rv=\"\" -> 17", "WATCH rv=17"]});
    let lookup = |name: &str| {
        if name == "inf" { Some(show.clone()) } else { None }
    };
    let check = |line: &str| exp(line).check(None, &lookup).map_err(|f| f.to_string());
    assert_eq!(check("expect informer inf store == [a, c]"), Ok(()));
    assert_eq!(check("expect informer inf store == [a@4, c@12]"), Ok(()));
    assert_eq!(check("expect informer inf store contains c"), Ok(()));
    assert_eq!(check("expect informer inf lastSyncRV == \"17\""), Ok(()));
    assert_eq!(check("expect informer inf lastSyncRV >= 17"), Ok(()));
    assert_eq!(check("expect informer inf log[1] == \"WATCH rv=17\""), Ok(()));
    assert_eq!(check("expect informer inf log contains \"WATCH rv=17\""), Ok(()));
    assert_eq!(
        check("expect informer inf store == [a]"),
        Err("expected informer inf store == [a], seen informer inf store == [a, c]".into())
    );
    assert_eq!(
        check("expect informer inf store == [a@4, c@11]"),
        Err("expected informer inf store == [a@4, c@11], seen informer inf store == [a@4, c@12]".into())
    );
    assert_eq!(
        check("expect informer inf lastSyncRV == \"18\""),
        Err("expected informer inf lastSyncRV == \"18\", seen informer inf lastSyncRV == \"17\"".into())
    );
    assert_eq!(
        check("expect informer other store == []"),
        Err("expected informer other store == [], seen no informer named \"other\"".into())
    );
    // Informer checks do not need a previous output; others do.
    assert_eq!(
        exp("expect code 200").check(None, &lookup),
        Err(ExpectFailure {
            expected: "code 200".into(),
            seen: "no previous output".into(),
            kind: FailureKind::NoOutput
        })
    );
}

/// Only an expectation about an informer's decision log (or its whole object) has the session
/// render that log; every other one reads the same without it.
#[test]
fn which_expectations_read_an_informer_log() {
    for (line, reads) in [
        ("expect informer inf log[0] exists", true),
        ("expect informer inf log contains \"WATCH rv=17\"", true),
        ("expect informer inf [\"log\"] exists", true),
        ("expect informer inf why.log[0].decision exists", true),
        ("expect informer inf store == [a]", false),
        ("expect informer inf store[0].name == a", false),
        ("expect informer inf lastSyncRV == \"17\"", false),
        ("expect informer inf requests exists", false),
        ("expect informer inf logs exists", false),
        ("expect code 200", false),
        ("expect log[0] exists", false),
    ] {
        assert_eq!(exp(line).reads_informer_log(), reads, "{line}");
    }
}

/// In a session, expectations about every part of an informer's object, the log among them,
/// see what `informer show` prints.
#[test]
fn informer_expectations_in_a_session_see_what_show_prints() {
    let script = r#"set explain on
POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}
informer start inf configmaps ns=default
advance 2s
expect informer inf store == [a]
expect informer inf lastSyncRV == "2"
expect informer inf log[0] exists
expect informer inf why.log[0].decision exists
expect informer inf requests[0] exists
expect informer inf log[99] exists
informer show inf"#;
    let out = rvlab::script::Session::new().run_script(script);
    let oks: Vec<&Value> = out.iter().filter(|o| o.get("expect").is_some()).map(|o| &o["ok"]).collect();
    assert_eq!(
        oks,
        [true, true, true, true, true, false].map(Value::Bool).iter().collect::<Vec<_>>(),
        "{out:#?}"
    );
    let show = out.last().unwrap();
    assert!(show["log"].as_array().is_some_and(|l| !l.is_empty()), "{show}");
    assert!(show["why"]["log"].as_array().is_some_and(|l| !l.is_empty()), "{show}");
}

#[test]
fn failure_fields() {
    let f = exp("expect events == [ADDED a]").check(Some(&events_output()), &no_informers).unwrap_err();
    assert_eq!(
        f,
        ExpectFailure {
            expected: "events == [ADDED a]".into(),
            seen: "events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]".into(),
            kind: FailureKind::Mismatch,
        }
    );
}

#[test]
fn odd_shapes_do_not_panic() {
    let outputs = [
        json!(null),
        json!(5),
        json!("text"),
        json!([]),
        json!({"events": "no"}),
        json!({"events": [1, {"type": 3}, {"object": null}, {"type": "ADDED", "object": {"metadata": {"name": 7}}}]}),
        json!({"body": {"items": [null, {"metadata": "x"}]}}),
        json!({"kvs": [{"key": null, "mod_revision": "5"}]}),
        json!({"headers": ["Retry-After"]}),
    ];
    let lines = [
        "expect code 200",
        "expect events == []",
        "expect events contains ADDED 7",
        "expect items == [?, ?]",
        "expect kvs == [?@5]",
        "expect header Retry-After exists",
        "expect body.items[0].metadata.name absent",
        "expect closed",
        "expect x > 1",
        "expect x contains 1",
    ];
    for o in &outputs {
        for l in lines {
            let _ = exp(l).check(Some(o), &no_informers);
        }
    }
    let e = json!({"events": [1, {"type": 3}, {"object": null}, {"type": "ADDED", "object": {"metadata": {"name": 7}}}]});
    assert_eq!(fail("expect events == []", &e), "expected events == [], seen events == [?, ?, ?, ADDED 7]");
    pass("expect items == [?, ?]", &json!({"body": {"items": [null, {"metadata": "x"}]}}));
}
