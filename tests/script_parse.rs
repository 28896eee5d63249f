//! The script language's line parser: exact parses, exact error messages, canonical round trips.

use rvlab::client::InformerMode;
use rvlab::clock::Duration;
use rvlab::script::LineFailure;
use rvlab::script::Session;
use rvlab::script::expect::{Check, CmpOp, Entry, Expectation, Path, Segment, Subject};
use rvlab::script::line_error::LineError;
use rvlab::script::parse::{Command, EtcdCommand, InformerCommand, Method, ParseError, parse_line};
use rvlab::script::refusal::Refusal;
use serde_json::json;

#[path = "support/doc_table.rs"]
mod doc_table;
mod support;
use support::Pick as _;

fn ok(line: &str) -> Command {
    support::parses(line)
}

fn err(line: &str) -> String {
    support::parse_error::<Command>(line)
}

fn round_trip(line: &str) -> String {
    support::round_trip::<Command>(line)
}

// --- API requests ------------------------------------------------------------------------------

#[test]
fn a_held_get_says_how_long_it_waited_and_from_which_revision() {
    use rvlab::apiserver::cacher::Held;
    use rvlab::clock::Duration;
    let line = "GET /api/v1/namespaces/default/configmaps waited=1250ms@42";
    assert_eq!(
        ok(line),
        Command::Request {
            method: Method::Get,
            target: "/api/v1/namespaces/default/configmaps".into(),
            body: None,
            held: Some(Held { waited: Duration(1250), revision: 42 }),
        }
    );
    assert_eq!(round_trip(line), line);
    assert!(
        err("GET /api/v1/namespaces/default/configmaps waited=soon@42").starts_with("GET: waited=soon: ")
    );
    assert_eq!(
        err("GET /api/v1/namespaces/default/configmaps waited=1s"),
        "GET: missing revision; expected GET <path>[?query] waited=<duration>@<revision>"
    );
    assert_eq!(
        err("GET /api/v1/namespaces/default/configmaps waited=1s@x"),
        "GET: revision must be a number, got \"x\"; expected GET <path>[?query] waited=<duration>@<revision>"
    );
}

#[test]
fn get_keeps_the_target_verbatim() {
    assert_eq!(
        ok("GET /api/v1/namespaces/default/pods?limit=2&resourceVersion=0"),
        Command::Request {
            method: Method::Get,
            target: "/api/v1/namespaces/default/pods?limit=2&resourceVersion=0".into(),
            body: None,
            held: None,
        }
    );
    assert_eq!(
        ok("GET   /api/v1/pods?watch=1&resourceVersion=5&allowWatchBookmarks=true  "),
        Command::Request {
            method: Method::Get,
            target: "/api/v1/pods?watch=1&resourceVersion=5&allowWatchBookmarks=true".into(),
            body: None,
            held: None,
        }
    );
}

#[test]
fn post_put_delete_take_a_json_body() {
    assert_eq!(
        ok(r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"a"}}"#),
        Command::Request {
            method: Method::Post,
            target: "/api/v1/namespaces/default/pods".into(),
            body: Some(json!({"metadata": {"name": "a"}})),
            held: None,
        }
    );
    assert_eq!(
        ok(
            r#"PUT /api/v1/namespaces/default/pods/a { "metadata": { "name": "a", "resourceVersion": "4" } }"#
        ),
        Command::Request {
            method: Method::Put,
            target: "/api/v1/namespaces/default/pods/a".into(),
            body: Some(json!({"metadata": {"name": "a", "resourceVersion": "4"}})),
            held: None,
        }
    );
    assert_eq!(
        ok("DELETE /api/v1/namespaces/default/pods/a"),
        Command::Request {
            method: Method::Delete,
            target: "/api/v1/namespaces/default/pods/a".into(),
            body: None,
            held: None,
        }
    );
    assert_eq!(
        ok(r#"DELETE /api/v1/namespaces/default/pods/a {"preconditions":{"resourceVersion":"7"}}"#),
        Command::Request {
            method: Method::Delete,
            target: "/api/v1/namespaces/default/pods/a".into(),
            body: Some(json!({"preconditions": {"resourceVersion": "7"}})),
            held: None,
        }
    );
}

#[test]
fn request_body_keeps_key_order_in_display() {
    assert_eq!(
        round_trip(
            r#"POST /api/v1/namespaces/default/pods {"metadata": {"name": "b", "labels": {"z": "1", "a": "2"}}, "kind": "Pod"}"#
        ),
        r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"b","labels":{"z":"1","a":"2"}},"kind":"Pod"}"#
    );
}

#[test]
fn request_errors() {
    assert_eq!(err("GET"), "GET: missing path; expected GET <path>[?query] [<json body>]");
    assert_eq!(
        err("GET api/v1/pods"),
        "GET: the path must start with \"/\", got \"api/v1/pods\"; expected GET <path>[?query] [<json body>]"
    );
    assert_eq!(
        err(r#"POST /api/v1/namespaces/default/pods {"metadata":"#),
        "POST: the body is not valid JSON (EOF while parsing a value at line 1 column 12); \
         expected POST <path>[?query] [<json body>]"
    );
    assert_eq!(
        err(r#"POST /api/v1/namespaces/default/pods {"a":1} extra"#),
        "POST: the body is not valid JSON (trailing characters at line 1 column 9); \
         expected POST <path>[?query] [<json body>]"
    );
    assert_eq!(err("get /api/v1/pods"), "unknown command \"get\"; HTTP methods are upper-case: GET");
    assert_eq!(
        err("Delete /api/v1/pods/a"),
        "unknown command \"Delete\"; HTTP methods are upper-case: DELETE"
    );
}

#[test]
fn unknown_command_lists_what_is_expected() {
    assert_eq!(
        err("GETT /api"),
        "unknown command \"GETT\"; expected GET, POST, PUT, PATCH, DELETE, events, etcd, compact, set, \
         advance, apiserver, restart, pause, resume, cancel, informer, drop, pager, kubectl or expect"
    );
    assert_eq!(
        err(""),
        "empty line; expected GET, POST, PUT, PATCH, DELETE, events, etcd, compact, set, advance, \
         apiserver, restart, pause, resume, cancel, informer, drop, pager, kubectl or expect"
    );
}

// --- small commands ----------------------------------------------------------------------------

#[test]
fn events_and_watch_control() {
    assert_eq!(ok("events w1"), Command::Events { watch: "w1".into() });
    assert_eq!(ok("pause w2"), Command::Pause("w2".into()));
    assert_eq!(ok("resume w2"), Command::Resume("w2".into()));
    assert_eq!(ok("cancel w10"), Command::Cancel("w10".into()));
    assert_eq!(ok("pause inf"), Command::Pause("inf".into()));
    assert_eq!(err("events"), "events: missing watch id; expected events <watch-id>");
    assert_eq!(err("events w1 w2"), "events: unexpected \"w2\"; expected events <watch-id>");
    assert_eq!(err("cancel"), "cancel: missing id; expected cancel <id>");
    assert_eq!(err("resume a b"), "resume: unexpected \"b\"; expected resume <id>");
}

#[test]
fn compact_set_advance_apiserver() {
    assert_eq!(ok("compact 5"), Command::Compact { revision: 5 });
    assert_eq!(err("compact"), "compact: missing revision; expected compact <revision>");
    assert_eq!(err("compact x"), "compact: revision must be a number, got \"x\"");
    assert_eq!(err("compact 5 6"), "compact: unexpected \"6\"; expected compact <revision>");

    assert_eq!(ok("set watch-cache off"), Command::Set { name: "watch-cache".into(), value: "off".into() });
    assert_eq!(ok("set cache.capacity 5"), Command::Set { name: "cache.capacity".into(), value: "5".into() });
    assert_eq!(ok("set kubernetes 1.30"), Command::Set { name: "kubernetes".into(), value: "1.30".into() });
    assert_eq!(
        ok(r#"set note "two words""#),
        Command::Set { name: "note".into(), value: "two words".into() }
    );
    assert_eq!(err("set watch-cache"), "set: missing value; expected set <name> <value>");
    assert_eq!(err("set a b c"), "set: unexpected \"c\"; expected set <name> <value>");

    assert_eq!(ok("advance 61s"), Command::Advance(Duration::from_secs(61)));
    assert_eq!(ok("advance 5m"), Command::Advance(Duration::from_secs(300)));
    assert_eq!(ok("advance 1m30s"), Command::Advance(Duration::from_secs(90)));
    assert_eq!(ok("advance 250ms"), Command::Advance(Duration::from_millis(250)));
    assert_eq!(err("advance"), "advance: missing duration; expected advance <duration>");
    assert_eq!(err("advance 5x"), "advance: invalid duration \"5x\": unknown unit \"x\"; use ms, s, m or h");
    assert_eq!(err("advance soon"), "advance: invalid duration \"soon\"; expected e.g. 500ms, 61s, 5m or 1h");

    assert_eq!(ok("apiserver 1"), Command::Apiserver(1));
    assert_eq!(ok("restart apiserver 0"), Command::RestartApiserver(0));
    assert_eq!(err("apiserver"), "apiserver: missing number; expected apiserver <n>");
    assert_eq!(err("apiserver -1"), "apiserver: expected a number (0, 1, ...), got \"-1\"");
    assert_eq!(
        err("restart etcd"),
        "restart: expected \"apiserver\", got \"etcd\"; expected restart apiserver <n>"
    );
    assert_eq!(err("restart"), "restart: missing \"apiserver\"; expected restart apiserver <n>");
    assert_eq!(err("restart apiserver"), "restart apiserver: missing number; expected restart apiserver <n>");
}

// --- etcd --------------------------------------------------------------------------------------

#[test]
fn etcd_put_values() {
    assert_eq!(
        ok("etcd put foo bar"),
        Command::Etcd(EtcdCommand::Put { key: "foo".into(), value: "bar".into() })
    );
    // The value is the rest of the line, spaces and JSON included.
    assert_eq!(
        ok(r#"etcd put /registry/pods/default/a {"metadata": {"name": "a"}}"#),
        Command::Etcd(EtcdCommand::Put {
            key: "/registry/pods/default/a".into(),
            value: r#"{"metadata": {"name": "a"}}"#.into(),
        })
    );
    assert_eq!(
        ok("etcd put k hello   world"),
        Command::Etcd(EtcdCommand::Put { key: "k".into(), value: "hello   world".into() })
    );
    // A double-quoted value is one JSON string.
    assert_eq!(
        ok(r#"etcd put k " padded\n\"q\" ""#),
        Command::Etcd(EtcdCommand::Put { key: "k".into(), value: " padded\n\"q\" ".into() })
    );
    assert_eq!(ok(r#"etcd put k """#), Command::Etcd(EtcdCommand::Put { key: "k".into(), value: "".into() }));
    assert_eq!(
        ok(r#"etcd put "a key" v"#),
        Command::Etcd(EtcdCommand::Put { key: "a key".into(), value: "v".into() })
    );
    assert_eq!(err("etcd put k"), "etcd put: missing value; expected etcd put <key> <value>");
    assert_eq!(err("etcd put"), "etcd put: missing key; expected etcd put <key> <value>");
    assert_eq!(
        err(r#"etcd put k "abc"#),
        "etcd put: unterminated quoted string \"\\\"abc\"; expected etcd put <key> <value>"
    );
    assert_eq!(
        err(r#"etcd put k "a" b"#),
        "etcd put: unexpected \"b\" after the quoted value; expected etcd put <key> <value>"
    );
    assert_eq!(
        err(r#"etcd put k "\q""#),
        "etcd put: invalid quoted string \"\\\"\\\\q\\\"\" (invalid escape at line 1 column 3); \
         expected etcd put <key> <value>"
    );
}

#[test]
fn etcd_get_flags() {
    assert_eq!(
        ok("etcd get /registry/pods/"),
        Command::Etcd(EtcdCommand::Get {
            key: "/registry/pods/".into(),
            prefix: false,
            revision: None,
            limit: None
        })
    );
    assert_eq!(
        ok("etcd get /registry/pods/ --prefix --rev=3 --limit=2"),
        Command::Etcd(EtcdCommand::Get {
            key: "/registry/pods/".into(),
            prefix: true,
            revision: Some(3),
            limit: Some(2)
        })
    );
    // Flags may come first.
    assert_eq!(
        ok("etcd get --limit=1 --prefix /registry/"),
        Command::Etcd(EtcdCommand::Get {
            key: "/registry/".into(),
            prefix: true,
            revision: None,
            limit: Some(1)
        })
    );
    // A quoted key is never a flag.
    assert_eq!(
        ok(r#"etcd get "--odd""#),
        Command::Etcd(EtcdCommand::Get { key: "--odd".into(), prefix: false, revision: None, limit: None })
    );
    assert_eq!(err("etcd get k --rev=x"), "etcd get: --rev needs a number, got \"x\"");
    assert_eq!(err("etcd get k --rev="), "etcd get: --rev needs a number, got \"\"");
    assert_eq!(err("etcd get k --rev"), "etcd get: --rev needs a number, e.g. --rev=5");
    assert_eq!(err("etcd get k --limit=two"), "etcd get: --limit needs a number, got \"two\"");
    assert_eq!(err("etcd get k --rev=1 --rev=2"), "etcd get: --rev given twice");
    assert_eq!(err("etcd get k --prefix --prefix"), "etcd get: --prefix given twice");
    assert_eq!(
        err("etcd get k --prefix=yes"),
        "etcd get: --prefix takes no value; expected etcd get <key> [--prefix] [--rev=N] [--limit=N]"
    );
    assert_eq!(
        err("etcd get k --keys-only"),
        "etcd get: unknown flag \"--keys-only\"; expected --prefix, --rev=N or --limit=N"
    );
    assert_eq!(
        err("etcd get a b"),
        "etcd get: unexpected \"b\"; expected etcd get <key> [--prefix] [--rev=N] [--limit=N]"
    );
    assert_eq!(
        err("etcd get --prefix"),
        "etcd get: missing key; expected etcd get <key> [--prefix] [--rev=N] [--limit=N]"
    );
}

#[test]
fn etcd_del_and_compact() {
    assert_eq!(
        ok("etcd del /registry/pods/default/a"),
        Command::Etcd(EtcdCommand::Del { key: "/registry/pods/default/a".into(), prefix: false })
    );
    assert_eq!(
        ok("etcd del /registry/ --prefix"),
        Command::Etcd(EtcdCommand::Del { key: "/registry/".into(), prefix: true })
    );
    assert_eq!(err("etcd del k --rev=3"), "etcd del: unknown flag \"--rev=3\"; expected --prefix");
    assert_eq!(ok("etcd compact 7"), Command::Etcd(EtcdCommand::Compact { revision: 7 }));
    assert_eq!(err("etcd compact"), "etcd compact: missing revision; expected etcd compact <revision>");
    assert_eq!(err("etcd compact seven"), "etcd compact: revision must be a number, got \"seven\"");
    assert_eq!(err("etcd"), "etcd: missing command; expected put, get, del or compact");
    assert_eq!(err("etcd watch /a"), "unknown etcd command \"watch\"; expected put, get, del or compact");
}

// --- informers ---------------------------------------------------------------------------------

#[test]
fn informer_commands() {
    assert_eq!(
        ok("informer start inf pods"),
        Command::Informer(InformerCommand::Start {
            name: "inf".into(),
            resource: "pods".into(),
            namespace: None,
            mode: None,
            apiservers: None,
            resync: None,
        })
    );
    assert_eq!(
        ok("informer start inf pods apiserver=1 mode=streaming ns=default"),
        Command::Informer(InformerCommand::Start {
            name: "inf".into(),
            resource: "pods".into(),
            namespace: Some("default".into()),
            mode: Some(InformerMode::Streaming),
            apiservers: Some(vec![1]),
            resync: None,
        })
    );
    assert_eq!(
        round_trip("informer start inf pods apiserver=1 mode=legacy ns=default"),
        "informer start inf pods ns=default mode=legacy apiserver=1"
    );
    assert_eq!(ok("informer stop inf"), Command::Informer(InformerCommand::Stop { name: "inf".into() }));
    assert_eq!(ok("informer show inf"), Command::Informer(InformerCommand::Show { name: "inf".into() }));

    assert_eq!(
        err("informer start inf"),
        "informer start: missing resource; expected informer start <name> <resource> \
         [ns=<namespace>] [mode=legacy|streaming] [apiserver=<n>] [apiservers=<n>,<n>…] [resync=<duration>]"
    );
    assert_eq!(
        err("informer start inf pods mode=fast"),
        "informer start: mode must be legacy or streaming, got \"fast\""
    );
    assert_eq!(err("informer start inf pods ns=a ns=b"), "informer start: ns= given twice");
    assert_eq!(err("informer start inf pods ns="), "informer start: ns= needs a namespace");
    assert_eq!(
        err("informer start inf pods apiserver=x"),
        "informer start: apiserver= needs a number (1, 2, …), got \"x\""
    );
    assert_eq!(
        err("informer start inf pods default"),
        "informer start: unknown option \"default\"; expected ns=<namespace>, \
         mode=legacy|streaming, apiserver=<n>, apiservers=<n>,<n>… or resync=<duration>"
    );
    assert_eq!(
        err("informer start inf pods every=1m"),
        "informer start: unknown option \"every=1m\"; expected ns=<namespace>, \
         mode=legacy|streaming, apiserver=<n>, apiservers=<n>,<n>… or resync=<duration>"
    );
    assert_eq!(err("informer show"), "informer show: missing name; expected informer show <name>");
    assert_eq!(err("informer stop a b"), "informer stop: unexpected \"b\"; expected informer stop <name>");
    assert_eq!(err("informer"), "informer: missing command; expected start, stop or show");
    assert_eq!(err("informer list"), "unknown informer command \"list\"; expected start, stop or show");
}

// --- expect lines through parse_line -----------------------------------------------------------

#[test]
fn expect_lines_parse_into_expectations() {
    assert_eq!(
        ok("expect code 410"),
        Command::Expect(Expectation { subject: Subject::Code, check: Check::Compare(CmpOp::Eq, json!(410)) })
    );
    assert_eq!(
        ok(r#"expect body.items[0].metadata.name == "a""#),
        Command::Expect(Expectation {
            subject: Subject::Path(Path(vec![
                Segment::Key("body".into()),
                Segment::Key("items".into()),
                Segment::Index(0),
                Segment::Key("metadata".into()),
                Segment::Key("name".into()),
            ])),
            check: Check::Compare(CmpOp::Eq, json!("a"))
        })
    );
    assert_eq!(
        ok("expect events == [ADDED a, BOOKMARK]"),
        Command::Expect(Expectation {
            subject: Subject::Events,
            check: Check::ListEq(vec![Entry::new("ADDED a"), Entry::new("BOOKMARK")])
        })
    );
    assert_eq!(
        err("expect"),
        "expect: missing subject; expected code, reason, message, error, \
        count, closed, header <Name>, items, events, kvs, informer <name> ... or a path such as \
        body.metadata.name"
    );
}

// --- round trips -------------------------------------------------------------------------------

#[test]
fn canonical_spelling() {
    let cases = [
        ("GET /api/v1/pods", "GET /api/v1/pods"),
        (
            "  POST   /api/v1/namespaces/default/pods   { \"a\" : [1, 2.5, null] }",
            "POST /api/v1/namespaces/default/pods {\"a\":[1,2.5,null]}",
        ),
        ("events   w1", "events w1"),
        ("etcd put k hello world", "etcd put k hello world"),
        ("etcd put k \" lead\"", "etcd put k \" lead\""),
        ("etcd put k \"plain\"", "etcd put k plain"),
        ("etcd put k \"\\\"quoted\\\"\"", "etcd put k \"\\\"quoted\\\"\""),
        ("etcd put k \"line\\nbreak\"", "etcd put k \"line\\nbreak\""),
        ("etcd get --rev=3 /a --prefix", "etcd get /a --prefix --rev=3"),
        ("etcd get \"--odd\"", "etcd get \"--odd\""),
        ("etcd del --prefix /a", "etcd del /a --prefix"),
        ("compact +5", "compact 5"),
        ("set \"a b\" \"c\"", "set \"a b\" c"),
        ("advance 1m30s", "advance 90s"),
        ("advance 1500ms", "advance 1500ms"),
        ("advance 2h", "advance 7200s"),
        ("restart   apiserver   2", "restart apiserver 2"),
        ("expect code == 410", "expect code 410"),
        ("expect reason \"Expired\"", "expect reason Expired"),
        ("expect closed == true", "expect closed"),
        ("expect closed false", "expect not closed"),
        ("expect items == [ a ,b ]", "expect items == [a, b]"),
        ("expect body.metadata.name == a", "expect body.metadata.name == \"a\""),
        ("expect events == [ADDED   a @5]", "expect events == [ADDED a@5]"),
        ("expect [\"body\"].x exists", "expect body.x exists"),
        ("expect [\"code\"] == 1", "expect [\"code\"] == 1"),
    ];
    for (input, canonical) in cases {
        assert_eq!(round_trip(input), canonical, "canonical form of {input:?}");
    }
}

#[test]
fn every_documented_form_round_trips() {
    let lines = [
        "GET /api/v1/namespaces/default/pods?limit=2&resourceVersion=0",
        "GET /api/v1/namespaces/default/pods?watch=true&resourceVersion=0&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"a"}}"#,
        r#"PUT /api/v1/namespaces/default/pods/a {"metadata":{"name":"a","resourceVersion":"4"}}"#,
        "DELETE /api/v1/namespaces/default/pods/a",
        r#"POST /api/v1/namespaces/default/pods "not an object""#,
        "events w1",
        "etcd put /registry/pods/default/a v1",
        r#"etcd put /registry/pods/default/a {"metadata":{"name":"a"}}"#,
        r#"etcd put "k e y" "v\tv""#,
        "etcd get /registry/pods/ --prefix --rev=3 --limit=2",
        "etcd get /registry/pods/ --rev=-1",
        "etcd del /registry/pods/ --prefix",
        "etcd compact 5",
        "compact 5",
        "set watch-cache off",
        "set cache.capacity 5",
        "set cache.lag 2s",
        "set kubernetes 1.30",
        "set compaction-interval 5m",
        "set apiservers 2",
        "advance 61s",
        "advance 250ms",
        "apiserver 1",
        "restart apiserver 0",
        "pause w1",
        "resume w1",
        "cancel w1",
        "informer start inf pods",
        "informer start inf pods ns=default mode=streaming apiserver=1",
        "informer stop inf",
        "informer show inf",
        "expect code 410",
        "expect reason Expired",
        r#"expect message "too old resource version: 3 (5)""#,
        r#"expect body.metadata.resourceVersion == "4""#,
        r#"expect body.items[0].metadata.name == "a""#,
        "expect body.metadata.continue exists",
        "expect body.metadata.remainingItemCount absent",
        "expect body.metadata.resourceVersion > 4",
        "expect body.metadata.resourceVersion <= \"17\"",
        "expect items == [a, b]",
        "expect items == []",
        "expect items != [a]",
        "expect items contains a",
        "expect events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]",
        "expect events == [ADDED a@5, BOOKMARK@9]",
        "expect events contains DELETED a",
        "expect closed",
        "expect not closed",
        r#"expect error "mvcc: required revision has been compacted""#,
        r#"expect header Retry-After == "1""#,
        "expect informer inf store == [a, c]",
        r#"expect informer inf lastSyncRV == "17""#,
        "expect informer inf log[0] exists",
        "expect kvs == [k1, k2]",
        "expect count 3",
        "expect header.revision == 5",
        r#"expect body.metadata.annotations["a.b/c"] == "x""#,
        r#"expect body contains "items""#,
        r#"expect message contains "too old""#,
        r#"expect reason "410""#,
        r#"expect reason "exists""#,
        r#"expect body.x == {"a":[1,true,null]}"#,
        r#"expect kvs == ["a,b"@3, "x@y"]"#,
    ];
    for line in lines {
        assert_eq!(round_trip(line), line, "{line:?} is already canonical");
    }
}

#[test]
fn never_panics_and_whatever_parses_round_trips() {
    let seeds = [
        "GET /api/v1/pods?limit=2",
        r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"a"}}"#,
        r#"etcd put "k" "v\u00e9""#,
        "etcd get /a --prefix --rev=3 --limit=2",
        "informer start i pods ns=default mode=legacy apiserver=0",
        r#"expect body.items[0].metadata["a.b"] == "x""#,
        r#"expect events == [ADDED a@5, "q,r"@2, BOOKMARK]"#,
        "expect not closed",
        "expect header Retry-After == 1",
        "set cache.lag 2s",
        "advance 1m30s",
    ];
    let pieces = [
        "\"",
        "\\",
        "[",
        "]",
        "{",
        "}",
        ",",
        "@",
        "=",
        "==",
        " ",
        "\t",
        "é",
        "日本",
        "🦀",
        "\u{0}",
        "--",
        "--rev=",
        ".",
        "[0]",
        "exists",
        "absent",
        "contains",
        "not",
        "closed",
        "9999999999999999999999",
        "-1",
        "\\u12",
        "\\ud800",
        "\u{200b}",
        "\u{a0}",
    ];
    let mut rng = support::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let mut s: Vec<char> = rng.pick(&seeds).chars().collect();
        for _ in 0..(rng.next_u64() % 4 + 1) {
            let pos = (rng.next_u64() as usize) % (s.len() + 1);
            match rng.next_u64() % 3 {
                0 => {
                    let p: Vec<char> = rng.pick(&pieces).chars().collect();
                    s.splice(pos..pos, p);
                }
                1 if pos < s.len() => {
                    s.remove(pos);
                }
                _ => s.truncate(pos),
            }
        }
        let line: String = s.into_iter().collect();
        if let Ok(c) = parse_line(&line) {
            parsed += 1;
            let text = c.to_string();
            assert_eq!(parse_line(&text).as_ref(), Ok(&c), "{line:?} -> {text:?}");
        }
    }
    assert!(parsed > 1000, "the sweep should exercise the success paths too ({parsed})");
}

#[test]
fn long_and_odd_lines() {
    let long = format!("GETT{}", "x".repeat(100_000));
    let e = err(&long);
    assert!(e.starts_with("unknown command \"GETTxxxxx"), "{e}");
    assert!(e.len() < 300, "error messages stay short: {}", e.len());
    let target = format!("/api/{}", "a".repeat(100_000));
    assert_eq!(
        ok(&format!("GET {target}")),
        Command::Request { method: Method::Get, target, body: None, held: None }
    );
    let deep = format!("POST /a {}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(err(&deep).starts_with("POST: the body is not valid JSON (recursion limit exceeded"));
    assert_eq!(ok("events 日本"), Command::Events { watch: "日本".into() });
    assert_eq!(
        err("étcd put"),
        "unknown command \"étcd\"; expected GET, POST, PUT, PATCH, DELETE, events, etcd, compact, set, advance, apiserver, restart, pause, resume, cancel, informer, drop, pager, kubectl or expect"
    );
    assert_eq!(err("events \"w1"), "events: unterminated quoted string \"\\\"w1\"");
    assert_eq!(err("events \"w1\"x"), "events: unexpected \"x\" right after a closing quote");
}

// Issue 16 §3: the client lines a script drives — informers behind a load balancer, resync,
// dropped connections and the pager on its own — parse, print back canonically and reject bad
// options with a message that says what was expected.
#[test]
fn client_fault_and_pager_lines() {
    use rvlab::clock::Duration;
    use rvlab::script::parse::PagerCommand;
    assert_eq!(
        ok("informer start inf configmaps ns=default apiservers=1,2 resync=30s"),
        Command::Informer(InformerCommand::Start {
            name: "inf".into(),
            resource: "configmaps".into(),
            namespace: Some("default".into()),
            mode: None,
            apiservers: Some(vec![1, 2]),
            resync: Some(Duration::from_secs(30)),
        })
    );
    assert_eq!(
        round_trip("informer start inf configmaps resync=1500ms apiservers=2,1,2"),
        "informer start inf configmaps apiservers=2,1,2 resync=1500ms"
    );
    assert_eq!(round_trip("informer start inf pods apiservers=2"), "informer start inf pods apiserver=2");
    assert_eq!(
        err("informer start inf pods apiservers=1,x"),
        "informer start: apiservers= needs numbers separated by commas (1,2), got \"1,x\""
    );
    assert_eq!(
        err("informer start inf pods apiserver=1,2"),
        "informer start: apiserver= needs a number (1, 2, …), got \"1,2\""
    );
    assert_eq!(
        err("informer start inf pods apiserver=0"),
        "informer start: apiserver= needs a number (1, 2, …), got \"0\""
    );
    assert_eq!(
        err("informer start inf pods apiserver=1 apiservers=1,2"),
        "informer start: apiserver= / apiservers= given twice"
    );
    assert!(
        err("informer start inf pods resync=soon")
            .starts_with("informer start: resync=soon: invalid duration")
    );

    assert_eq!(ok("drop informer inf"), Command::DropInformer("inf".into()));
    assert_eq!(round_trip("drop   informer  inf"), "drop informer inf");
    assert_eq!(
        err("drop"),
        "drop: missing watch id or \"informer\"; expected drop <watch-id> | drop informer <name>"
    );
    assert_eq!(err("drop informer"), "drop informer: missing name; expected drop informer <name>");
    assert_eq!(ok("drop w2"), Command::Drop("w2".into()));
    assert_eq!(round_trip("drop   w2"), "drop w2");
    assert_eq!(ok("drop \"informer\""), Command::Drop("informer".into()));
    assert_eq!(round_trip("drop \"informer\""), "drop \"informer\"");
    assert_eq!(err("drop w1 w2"), "drop: unexpected \"w2\"; expected drop <watch-id> | drop informer <name>");
    assert_eq!(err("drop informer a b"), "drop informer: unexpected \"b\"; expected drop informer <name>");

    assert_eq!(
        ok("pager list /api/v1/namespaces/default/configmaps limit=2"),
        Command::Pager(PagerCommand {
            path: "/api/v1/namespaces/default/configmaps".into(),
            limit: Some(2),
            resource_version: None,
            pages: None,
        })
    );
    assert_eq!(round_trip("pager list /api/v1/pods rv=0 limit=0"), "pager list /api/v1/pods limit=0 rv=0");
    assert_eq!(
        err("pager"),
        "pager: missing command; expected pager list <path> [limit=<n>] [rv=<rv>] [pages=<n>] | pager next [pages=<n>]"
    );
    assert_eq!(
        round_trip("pager list /api/v1/pods pages=1 limit=1"),
        "pager list /api/v1/pods limit=1 pages=1"
    );
    assert_eq!(ok("pager next"), Command::PagerNext { pages: None });
    assert_eq!(round_trip("pager next  pages=2"), "pager next pages=2");
    assert_eq!(err("pager next pages=0"), "pager next: pages= needs a number of pages (1, 2, …), got \"0\"");
    assert_eq!(err("pager next x"), "pager next: unknown option \"x\"; expected pages=<n>");
    assert_eq!(
        err("pager get /x"),
        "unknown pager command \"get\"; expected pager list <path> [limit=<n>] [rv=<rv>] [pages=<n>] | pager next [pages=<n>]"
    );
    assert!(err("pager list /api/v1/pods?limit=1").starts_with("pager list: the path is a collection"));
    assert_eq!(
        err("pager list /api/v1/pods limit=-1"),
        "pager list: limit= needs a number (0 = unpaginated), got \"-1\""
    );
    assert_eq!(err("pager list /api/v1/pods limit=1 limit=2"), "pager list: limit= given twice");
    assert_eq!(
        err("pager list /api/v1/pods page=2"),
        "pager list: unknown option \"page=2\"; expected limit=<n>, rv=<rv> or pages=<n>"
    );
}

// --- kubectl ------------------------------------------------------------------------------------

#[test]
fn kubectl_lines_parse_and_print_back() {
    assert_eq!(
        round_trip("kubectl get cm -w --chunk-size=2 -n kube-system"),
        "kubectl get configmaps -n kube-system --chunk-size=2 -w"
    );
    assert_eq!(round_trip("kubectl get po a --namespace=x"), "kubectl get pods a -n x");
    assert_eq!(
        round_trip("kubectl create cm a --from-literal=k=v"),
        "kubectl create configmap a --from-literal=k=v"
    );
    assert_eq!(round_trip("kubectl delete configmap a"), "kubectl delete configmaps a");
    assert_eq!(
        err("kubectl get secrets"),
        "kubectl get: unknown resource \"secrets\"; known: configmaps (configmap, cm) or pods (pod, po); \
         expected kubectl get <resource> [<name>] [-n <namespace> | -A] [-l <selector>] [--field-selector <selector>] \
         [-o json|yaml|name|wide] [--chunk-size=N] [-w] [--output-watch-events] | kubectl get --raw <path>"
    );
    assert_eq!(err("kubectl"), "kubectl: missing command; expected get, create, delete, patch or apply");
}

#[test]
fn patch_lines_carry_their_type() {
    use rvlab::apiserver::patch::PatchType;
    assert_eq!(
        ok("PATCH /api/v1/namespaces/default/configmaps/a {\"data\":{\"k\":\"v\"}}"),
        Command::Request {
            method: Method::Patch(PatchType::Merge),
            target: "/api/v1/namespaces/default/configmaps/a".into(),
            body: Some(serde_json::json!({"data": {"k": "v"}})),
            held: None,
        }
    );
    assert_eq!(
        round_trip(
            "PATCH /api/v1/namespaces/default/configmaps/a type=json [{\"op\":\"remove\",\"path\":\"/data/k\"}]"
        ),
        "PATCH /api/v1/namespaces/default/configmaps/a type=json [{\"op\":\"remove\",\"path\":\"/data/k\"}]"
    );
    assert_eq!(
        round_trip("PATCH /api/v1/namespaces/default/configmaps/a type=merge {}"),
        "PATCH /api/v1/namespaces/default/configmaps/a {}"
    );
    assert_eq!(
        err("PATCH /api/v1/namespaces/default/configmaps/a type=yaml {}"),
        "PATCH: type= takes json, merge, strategic or apply, not \"yaml\"; expected PATCH <path>[?query] [type=json|merge|strategic|apply] <json patch>"
    );
    assert!(err("PATCH /api/v1/namespaces/default/configmaps/a").contains("missing patch"));
    assert!(err("patch /api/v1/x {}").contains("HTTP methods are upper-case: PATCH"));
}

// --- Syntax errors as values ---------------------------------------------------------------------

/// One bad line per kind of syntax error (`script::syntax::Problem`), with the kind it must carry.
const U_GET: &str = "kubectl get <resource> [<name>] [-n <namespace> | -A] [-l <selector>] \
                     [--field-selector <selector>] [-o json|yaml|name|wide] [--chunk-size=N] [-w] \
                     [--output-watch-events] | kubectl get --raw <path>";

const ONE_LINE_PER_KIND: &[(&str, &str)] = &[
    ("   ", "empty-line"),
    ("frobnicate", "unknown-command"),
    ("etcd frob", "unknown-subcommand"),
    ("get /api/v1/pods", "method-case"),
    ("compact", "missing"),
    ("compact x", "not-a-number"),
    ("apiserver x", "not-an-index"),
    ("compact 5 6", "unexpected"),
    ("restart foo 1", "expected-word"),
    ("set \"abc", "quote"),
    ("GET api/v1/pods", "path-not-absolute"),
    ("PATCH /api/v1/namespaces/default/configmaps/a type=foo {}", "patch-type"),
    ("POST /api/v1/namespaces/default/configmaps {nope", "not-json"),
    ("etcd put k \"v\" extra", "after-quoted-value"),
    ("etcd get k --prefix --prefix", "given-twice"),
    ("kubectl get pods -n a -n b", "namespace-twice"),
    ("etcd get k --prefix=1", "takes-no-value"),
    ("etcd get k --rev", "needs-number"),
    ("etcd get k --frob", "unknown-flag"),
    ("pager next frob", "unknown-option"),
    ("informer start i configmaps ns=", "needs-namespace"),
    ("informer start i configmaps mode=fast", "informer-mode"),
    ("informer start i configmaps apiserver=x", "apiserver-number"),
    ("informer start i configmaps apiservers=1,x", "apiserver-numbers"),
    ("advance 5x", "duration"),
    ("pager next pages=0", "pages"),
    ("pager list /api/v1/pods limit=-1", "limit"),
    ("pager list /api/v1/pods rv=a&b", "resource-version"),
    ("pager list api", "pager-path"),
    ("kubectl get pods a%b", "not-in-url-path"),
    ("kubectl get frobs", "unknown-resource"),
    ("kubectl get pods --chunk-size=x", "chunk-size"),
    ("kubectl delete pods a b", "extra-name"),
    ("kubectl create secret x", "only-configmap"),
    ("kubectl create configmap x \"y\"", "unexpected-quoted"),
    ("kubectl create configmap x --from-literal=ab", "from-literal"),
    ("kubectl patch cm a --type=x -p {}", "kubectl-patch-type"),
    ("kubectl get cm -o table", "kubectl-output"),
    ("kubectl get cm -l", "flag-needs-value"),
    ("kubectl get cm a -A", "kubectl"),
    ("expect not code", "only-not-closed"),
    ("expect items contains [a]", "contains-one-entry"),
    ("expect items < [a]", "list-op"),
    ("expect code > x", "compare-needs-number"),
    ("expect body.a == {x", "value-not-json"),
    ("expect message == a b", "spaces-must-be-quoted"),
    ("expect items == a", "not-a-list"),
    ("expect items == [a,,b]", "empty-entry"),
    ("expect items == [\"a\" x]", "after-quoted-entry"),
    ("expect items == [a\"b]", "char-in-entry"),
    ("expect items == [@5]", "name-before-at"),
    ("expect items == [a@]", "resource-version-after-at"),
    ("expect body.items[x] == 1", "bad-path"),
];

fn syntax_error(line: &str) -> ParseError {
    match parse_line(line) {
        Err(e) => e,
        Ok(c) => panic!("{line:?} parsed as {c:?}"),
    }
}

#[test]
fn every_syntax_error_is_a_typed_value_with_words_in_both_languages() {
    use rvlab::script::why::Lang;
    let mut kinds = std::collections::BTreeSet::new();
    for &(line, kind) in ONE_LINE_PER_KIND {
        let e = syntax_error(line);
        let out = e.output();
        assert_eq!(out["syntax"]["kind"], kind, "{line:?}: {out}");
        let zh = e.render(Lang::Zh);
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{line:?}: {zh}");
        kinds.insert(kind);
    }
    // The session hands the UI the same value (it renders that, not the output's text).
    for &(line, _) in ONE_LINE_PER_KIND {
        let e = syntax_error(line);
        let Some(o) = Session::new().run_line_outcome(1, line) else { continue };
        assert_eq!(o.failure, Some(LineFailure::Syntax(e)), "{line:?}");
    }
    // `not-an-expect-line` is what `Expectation`'s FromStr says of a line not starting with expect.
    let e = "frob".parse::<Expectation>().unwrap_err();
    assert_eq!(e.output()["syntax"]["kind"], "not-an-expect-line");
    kinds.insert("not-an-expect-line");
    assert_eq!(kinds.len(), 54, "one line per kind of syntax error");
}

#[test]
fn syntax_errors_in_chinese_keep_the_script_words() {
    use rvlab::script::why::Lang;
    let zh = |line: &str| syntax_error(line).render(Lang::Zh);
    assert_eq!(zh("compact x"), "compact：修订号（revision）必须是数字，而不是 \"x\"");
    assert_eq!(zh("events"), "events：缺少 watch id；应为 events <watch-id>");
    assert_eq!(
        zh("kubectl delete pods a b"),
        "kubectl delete：多余的 \"b\"（只能有一个名称）；应为 kubectl delete <resource> <name> [-n <namespace>]"
    );
    assert_eq!(zh("get /api/v1/pods"), "未知命令 \"get\"；HTTP 方法须大写：GET");
    // Words one of which may come are joined in the language; what is no fixed word is told in it.
    assert_eq!(zh("etcd frob"), "etcd 没有子命令 \"frob\"；应为 put、get、del 或 compact");
    assert_eq!(
        zh("expect code"),
        "expect code：缺少检查方式；应为 ==、!=、<、<=、>、>=、exists、absent、contains 或一个值"
    );
    assert_eq!(
        syntax_error("expect code").output()["syntax"]["expected"],
        json!({"oneOf": ["==", "!=", "<", "<=", ">", ">=", "exists", "absent", "contains"], "or": "value"})
    );
    assert_eq!(
        syntax_error("expect code").to_string(),
        "expect code: missing check; expected ==, !=, <, <=, >, >=, exists, absent, contains or a value"
    );
    assert_eq!(zh("advance 5x"), "advance：无效的时长 \"5x\"：未知单位 \"x\"；可用 ms、s、m 或 h");
    assert_eq!(
        zh("informer start i configmaps resync=0"),
        "informer start：resync=0：无效的时长 \"0\"：缺少单位；可用 ms、s、m 或 h"
    );
    assert_eq!(
        zh("expect body.items[x] == 1"),
        "expect：无效的路径 \"body.items[x]\"：下标必须是数字，例如 [0]"
    );
    assert_eq!(zh("set \"abc"), "set：带引号的字符串 \"\\\"abc\" 缺少结束引号");
    // The JSON Lines value: the kind, its fields in camelCase, where and what was expected.
    assert_eq!(
        syntax_error("kubectl get pods a b").output(),
        json!({
            "error": format!("kubectl get: unexpected \"b\" (one name at most); expected {U_GET}"),
            "syntax": {
                "kind": "extra-name", "got": "b", "atMost": true, "at": "kubectl get",
                "expected": U_GET
            }
        })
    );
}

/// A line that parses and is refused: the session hands its refusal as a value, the same value its
/// output carries under `"refused"` (the UI renders the value; JSON Lines readers read the output).
#[test]
fn the_session_hands_a_refused_line_its_refusal_as_a_value() {
    let setting = rvlab::cluster::Setting::parse("cache.lag", "soon").unwrap_err();
    let cases: Vec<(&str, Refusal)> = vec![
        ("events w9", Refusal::NoWatch { watch: "w9".into(), hint: true }),
        ("cancel w9", Refusal::NoWatch { watch: "w9".into(), hint: false }),
        ("set cache.lag soon", Refusal::Setting { error: setting }),
        ("advance 200h", Refusal::AdvanceTooLong { max: "168h".into() }),
        ("pager next", Refusal::NoPager),
        ("informer show x", Refusal::NoInformer { name: "x".into() }),
        ("informer start x widgets", Refusal::UnknownResource { resource: "widgets".into() }),
        ("restart apiserver 0", Refusal::ApiserverZero),
        ("apiserver 4", Refusal::NoApiserver { n: 4, count: 1, hint: true }),
        ("set explain maybe", Refusal::ExplainValue { value: "maybe".into() }),
    ];
    for (line, want) in cases {
        let o = Session::new().run_line_outcome(1, line).expect("a line that is not blank");
        assert_eq!(o.out["error"], want.to_string(), "{line}: {}", o.out);
        assert_eq!(o.failure, Some(LineFailure::Refused(want)), "{line}");
    }
    // A line that runs, or fails in etcd's own words, has no such value.
    let mut s = Session::new();
    assert_eq!(s.run_line_outcome(1, "etcd put /a 1").and_then(|o| o.failure), None);
    let compacted = s.run_line_outcome(2, "compact 99").expect("a line");
    assert_eq!(compacted.out["error"], "mvcc: required revision is a future revision");
    assert_eq!(compacted.failure, None);
}

/// The book's refusals chapter lists exactly these kinds ("Syntax error kinds"), the one line
/// per kind above and `not-an-expect-line`.
#[test]
fn the_book_lists_exactly_the_syntax_error_kinds() {
    let chapter = include_str!("../site/src/reference/refusals.md");
    let documented = doc_table::table_ids(chapter, "### Syntax error kinds");
    let kinds: std::collections::BTreeSet<String> =
        ONE_LINE_PER_KIND.iter().map(|&(_, k)| k).chain(["not-an-expect-line"]).map(str::to_string).collect();
    assert_eq!(kinds.len(), 54);
    assert_eq!(documented, kinds);
}
