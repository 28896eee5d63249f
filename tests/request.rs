//! Request routing, query decoding, selectors, bodies and §C.1 validation.

use rvlab::apiserver::body;
use rvlab::apiserver::continue_token::ContinueToken;
use rvlab::apiserver::request::{ListOptions, Query, RvMatch, Verb, parse_request};
use rvlab::apiserver::resource::{CONFIGMAPS, PODS};
use rvlab::apiserver::selector::LabelSelector;
use rvlab::apiserver::status::Status;
use rvlab::apiserver::validation::parse_and_validate;
use rvlab::apiserver::validation::{
    check_list_storage_options, default_watch_list, parse_resource_version, parse_resource_version_non_api,
    validate_list_options,
};
use serde_json::json;

fn get(target: &str) -> Result<rvlab::apiserver::request::ApiRequest, Status> {
    parse_request("GET", target, None)
}

fn err_msg(r: Result<rvlab::apiserver::request::ApiRequest, Status>) -> (u16, String, String) {
    let s = r.unwrap_err();
    (s.code(), s.reason().to_string(), s.message().to_string())
}

fn list_opts(pairs: &[(&str, &str)]) -> ListOptions {
    let q: String = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    get(&format!("/api/v1/namespaces/ns1/pods?{q}")).unwrap().options
}

fn list_msg(pairs: &[(&str, &str)]) -> String {
    let q: String = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    match parse_and_validate("GET", &format!("/api/v1/namespaces/ns1/pods?{q}"), None, true) {
        Ok(_) => "ok".to_string(),
        Err(s) => format!("{} {} {}", s.code(), s.reason(), s.message()),
    }
}

/// What `list_msg` gives for ListOptions refused with `causes`: 422 Invalid (§C.1).
fn invalid(causes: &str) -> String {
    format!("422 Invalid ListOptions.meta.k8s.io \"\" is invalid: {causes}")
}

#[test]
fn routing() {
    let r = get("/api/v1/namespaces/ns1/pods").unwrap();
    assert_eq!(
        (r.verb, r.resource, r.namespace.as_deref(), r.name.as_deref()),
        (Verb::List, &PODS, Some("ns1"), None)
    );
    let r = get("/api/v1/namespaces/ns1/configmaps/a").unwrap();
    assert_eq!((r.verb, r.resource, r.name.as_deref()), (Verb::Get, &CONFIGMAPS, Some("a")));
    let r = get("/api/v1/pods").unwrap();
    assert_eq!((r.verb, r.namespace.as_deref()), (Verb::List, None));
    let r = get("/api/v1/pods?watch=true").unwrap();
    assert_eq!((r.verb, r.options.watch), (Verb::Watch, true));
    let r = get("/api/v1/namespaces/ns1/pods?watch=1").unwrap();
    assert_eq!(r.verb, Verb::Watch);
    // Legacy /watch/ prefix: verb Watch, but the `watch` option stays false (as in Go).
    let r = get("/api/v1/watch/namespaces/ns1/pods").unwrap();
    assert_eq!((r.verb, r.options.watch), (Verb::Watch, false));
    let r = get("/api/v1/watch/namespaces/ns1/pods/a").unwrap();
    assert_eq!((r.verb, r.name.as_deref()), (Verb::Watch, Some("a")));
    let r = get("/api/v1/watch/pods").unwrap();
    assert_eq!((r.verb, r.namespace), (Verb::Watch, None));
    // ?watch on an item is a get.
    assert_eq!(get("/api/v1/namespaces/ns1/pods/a?watch=true").unwrap().verb, Verb::Get);
    // Trailing slash tolerated.
    assert_eq!(get("/api/v1/namespaces/ns1/pods/").unwrap().verb, Verb::List);
    let r = parse_request("DELETE", "/api/v1/namespaces/ns1/pods/a", None).unwrap();
    assert_eq!(r.verb, Verb::Delete);
}

#[test]
fn unknown_paths_are_404() {
    for p in [
        "/api/v1/namespaces/ns1/foos",
        "/api/v1/foos",
        "/api/v1/namespaces/ns1/pods/a/status",
        "/api/v1/namespaces//pods",
        "/api/v1",
        "/api/v2/pods",
        "/apis/apps/v1/deployments",
        "/",
        "",
        "/api/v1/namespaces",
        "/api/v1/namespaces/ns1",
    ] {
        let s = get(p).unwrap_err();
        assert_eq!(s, Status::path_not_found(), "{p}");
    }
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/foos")),
        (404, "NotFound".into(), "the server could not find the requested resource".into())
    );
}

#[test]
fn wrong_methods_are_405() {
    for (m, p) in [
        ("POST", "/api/v1/namespaces/ns1/pods/a"),
        ("PUT", "/api/v1/namespaces/ns1/pods"),
        ("POST", "/api/v1/pods"),
        ("DELETE", "/api/v1/pods"),
        ("POST", "/api/v1/watch/namespaces/ns1/pods"),
        ("PATCH", "/api/v1/namespaces/ns1/pods"),
        ("get", "/api/v1/namespaces/ns1/pods"),
    ] {
        assert_eq!(parse_request(m, p, Some("{}")).unwrap_err(), Status::method_not_allowed(), "{m} {p}");
    }
}

/// A PATCH without one of the four patch media types is 415, listing them in the handler's
/// order (`endpoints/handlers/patch.go` `PatchResource`, `negotiation.NewUnsupportedMediaTypeError`).
#[test]
fn patch_needs_a_patch_media_type() {
    use rvlab::apiserver::request::parse_request_typed;
    for ct in [None, Some("application/json"), Some("text/plain")] {
        let e = parse_request_typed("PATCH", "/api/v1/namespaces/ns1/pods/a", ct, Some("{}")).unwrap_err();
        assert_eq!(e.code(), 415);
        assert_eq!(e.reason(), "UnsupportedMediaType");
        assert_eq!(
            e.message(),
            "the body of the request was in an unknown format - accepted media types include: \
             application/json-patch+json, application/merge-patch+json, \
             application/strategic-merge-patch+json, application/apply-patch+yaml"
        );
    }
    let r = parse_request_typed(
        "PATCH",
        "/api/v1/namespaces/ns1/pods/a?fieldManager=m&force=true&dryRun=All",
        Some("application/apply-patch+yaml; charset=utf-8"),
        Some("{}"),
    )
    .unwrap();
    let p = r.patch.unwrap();
    assert_eq!((p.field_manager.as_deref(), p.force, r.dry_run), (Some("m"), true, true));
}

#[test]
fn percent_decoding() {
    let r = get("/api/v1/namespaces/n%731/pods/a%2Eb").unwrap();
    assert_eq!((r.namespace.as_deref(), r.name.as_deref()), (Some("ns1"), Some("a.b")));
    // `+` is literal in paths, a space in queries.
    assert_eq!(get("/api/v1/namespaces/ns1/pods/a+b").unwrap().name.as_deref(), Some("a+b"));
    let o = list_opts(&[("labelSelector", "app+in+(a,b)")]);
    assert_eq!(o.label_selector.to_string(), "app in (a,b)");
    let o = list_opts(&[("labelSelector", "app%3Dweb")]);
    assert_eq!(o.label_selector.to_string(), "app=web");
    // Bad path escape.
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods/%zz")),
        (400, "BadRequest".into(), r#"invalid URL escape "%zz""#.into())
    );
    // A malformed query pair is dropped, like url.ParseQuery does.
    assert_eq!(list_opts(&[("limit", "%zz")]).limit, 0);
    // Invalid UTF-8 after decoding never panics.
    assert!(get("/api/v1/namespaces/%ff%fe/pods/%c3").is_ok());
    let q = Query::parse("a=1&a=2&b&c=&d;e=1&=x");
    assert_eq!(q.first("a"), Some("1"));
    assert_eq!(q.first("b"), Some(""));
    assert_eq!(q.first("d"), None);
}

#[test]
fn query_conversion() {
    let o = list_opts(&[
        ("resourceVersion", "5"),
        ("resourceVersionMatch", "NotOlderThan"),
        ("limit", "%2B3"),
        ("continue", "abc"),
        ("fieldSelector", "metadata.name=a"),
        ("allowWatchBookmarks", "TRUE"),
        ("timeoutSeconds", "30"),
        ("sendInitialEvents", "false"),
        ("unknown", "whatever"),
    ]);
    assert_eq!(o.resource_version.as_deref(), Some("5"));
    assert_eq!(o.resource_version_match.as_ref().map(RvMatch::as_str), Some("NotOlderThan"));
    assert_eq!(o.limit, 3);
    // A raw `+` is a space in a query value, which ParseInt rejects.
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?limit=+3")).2,
        r#"strconv.ParseInt: parsing " 3": invalid syntax"#
    );
    assert_eq!(o.continue_token.as_deref(), Some("abc"));
    assert_eq!(o.field_selector.to_string(), "metadata.name=a");
    assert!(o.allow_watch_bookmarks);
    assert_eq!(o.timeout_seconds, Some(30));
    assert_eq!(o.send_initial_events, Some(false));
    // Booleans: only 0/false (any case) are false; an empty value is true.
    assert!(list_opts(&[("watch", "")]).watch);
    assert!(list_opts(&[("watch", "yes")]).watch);
    assert!(!list_opts(&[("watch", "FALSE")]).watch);
    assert!(!list_opts(&[("watch", "0")]).watch);
    // Empty strings are "unset".
    assert_eq!(list_opts(&[("resourceVersion", "")]).resource_version, None);
    // Get reads only resourceVersion: a bad limit is ignored there.
    assert!(get("/api/v1/namespaces/ns1/pods/a?limit=abc&resourceVersion=7").is_ok());
}

#[test]
fn bad_integers_are_400() {
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?limit=abc")),
        (400, "BadRequest".into(), r#"strconv.ParseInt: parsing "abc": invalid syntax"#.into())
    );
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?limit=")),
        (400, "BadRequest".into(), r#"strconv.ParseInt: parsing "": invalid syntax"#.into())
    );
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?limit=99999999999999999999")).2,
        r#"strconv.ParseInt: parsing "99999999999999999999": value out of range"#
    );
    // timeoutSeconds is converted before limit.
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?limit=x&timeoutSeconds=y")).2,
        r#"strconv.ParseInt: parsing "y": invalid syntax"#
    );
    assert_eq!(
        err_msg(parse_request("DELETE", "/api/v1/namespaces/ns1/pods/a?gracePeriodSeconds=z", None)).2,
        r#"strconv.ParseInt: parsing "z": invalid syntax"#
    );
}

#[test]
fn label_selectors() {
    let cases = [
        ("", ""),
        ("app=web", "app=web"),
        ("app==web", "app==web"),
        ("app!=web", "app!=web"),
        ("app", "app"),
        ("!app", "!app"),
        ("app in (b,a,a)", "app in (a,b)"),
        ("app notin (a)", "app notin (a)"),
        ("tier=x, app=y", "app=y,tier=x"),
        ("x in (in)", "x in (in)"),
        ("app=", "app="),
        ("a>5", "a>5"),
        ("example.com/app=v", "example.com/app=v"),
    ];
    for (input, canonical) in cases {
        assert_eq!(LabelSelector::parse(input).unwrap().to_string(), canonical, "{input}");
    }
    let labels = |v: serde_json::Value| v.as_object().unwrap().clone();
    let s = LabelSelector::parse("app=web,!debug,tier in (a,b)").unwrap();
    assert!(s.matches(&labels(json!({"app":"web","tier":"a"}))));
    assert!(!s.matches(&labels(json!({"app":"web","tier":"a","debug":""}))));
    assert!(!s.matches(&labels(json!({"app":"web"}))));
    let s = LabelSelector::parse("app notin (x),env!=prod").unwrap();
    assert!(s.matches(&labels(json!({}))));
    assert!(!s.matches(&labels(json!({"env":"prod"}))));
    assert!(LabelSelector::parse("a>5").unwrap().matches(&labels(json!({"a":"6"}))));
    assert!(LabelSelector::everything().is_empty());
    assert!(LabelSelector::everything().matches_object(&json!({"metadata":{}})));
}

#[test]
fn label_selector_errors() {
    let e = |s: &str| LabelSelector::parse(s).unwrap_err();
    assert_eq!(e("=a"), "found '=', expected: !, identifier, or 'end of string'");
    assert_eq!(e("a b"), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    assert_eq!(e("a=b c"), "found 'c', expected: ',' or 'end of string'");
    assert_eq!(e("a,"), "found '', expected: identifier after ','");
    assert_eq!(e("a in b"), "unable to parse requirement: found 'b' expected: '('");
    assert_eq!(e("a in (b"), "unable to parse requirement: found '', expected: ',' or ')'");
    assert_eq!(
        e("a foo b"),
        "unable to parse requirement: found 'foo', expected: in, notin, =, ==, !=, gt, lt"
    );
    assert_eq!(e("a=(b)"), "unable to parse requirement: found '(', expected: identifier");
    assert_eq!(e("!!a"), "unable to parse requirement: found '!', expected: identifier");
    assert_eq!(
        e("a/b/c=x"),
        "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    );
    assert_eq!(
        e("-a=x"),
        "unable to parse requirement: <nil>: Invalid value: \"-a\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    );
    assert_eq!(
        e("app=-x"),
        "unable to parse requirement: values[0][app]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
    );
    assert_eq!(
        e("a>x"),
        "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"
    );
    // Via the request parser: 400 BadRequest with that message.
    assert_eq!(
        err_msg(get("/api/v1/namespaces/ns1/pods?labelSelector=%3Da")),
        (400, "BadRequest".into(), "found '=', expected: !, identifier, or 'end of string'".into())
    );
    // Garbage never panics.
    for s in [
        "(", ")", "!", "!=", "in", "notin", "a in", "a in (", "a in ()", ",", "a,,b", "\u{0}", "a\u{0}b",
        "é=ü", "a===b", "a<>b",
    ] {
        let _ = LabelSelector::parse(s);
    }
}

// §C.1, every row
#[test]
fn list_option_validation() {
    // Each refused combination and the causes of its 422.
    let refused: [(&[(&str, &str)], &str); 9] = [
        (
            &[("resourceVersionMatch", "Exact")],
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
        ),
        (
            &[("resourceVersion", "5"), ("resourceVersionMatch", "Exact"), ("continue", "x")],
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided",
        ),
        (
            &[("resourceVersion", "5"), ("resourceVersionMatch", "X")],
            r#"resourceVersionMatch: Unsupported value: "X": supported values: "Exact", "NotOlderThan", """#,
        ),
        (
            &[("resourceVersion", "0"), ("resourceVersionMatch", "Exact")],
            r#"resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0""#,
        ),
        (
            &[("sendInitialEvents", "true")],
            "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list",
        ),
        (
            &[("watch", "1"), ("sendInitialEvents", "true"), ("resourceVersionMatch", "Exact")],
            r#"[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]"#,
        ),
        (
            &[("watch", "1"), ("sendInitialEvents", "true")],
            "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ),
        (
            &[("watch", "1"), ("resourceVersionMatch", "NotOlderThan")],
            "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ),
        // Several errors: bracketed, comma-separated.
        (
            &[("resourceVersionMatch", "X"), ("sendInitialEvents", "1")],
            r#"[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "X": supported values: "Exact", "NotOlderThan", "", sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list]"#,
        ),
    ];
    for (query, causes) in refused {
        assert_eq!(list_msg(query), invalid(causes), "{query:?}");
    }
    // Valid combinations.
    let valid: [&[(&str, &str)]; 3] = [
        &[("resourceVersion", "5"), ("resourceVersionMatch", "NotOlderThan"), ("limit", "2")],
        &[("watch", "1"), ("sendInitialEvents", "true"), ("resourceVersionMatch", "NotOlderThan")],
        &[("watch", "1"), ("sendInitialEvents", "false"), ("resourceVersionMatch", "NotOlderThan")],
    ];
    for query in valid {
        assert_eq!(list_msg(query), "ok", "{query:?}");
    }
    // Legacy /watch/ path is validated with the list rules (opts.watch is false).
    let s = parse_and_validate("GET", "/api/v1/watch/pods?sendInitialEvents=true", None, true).unwrap_err();
    assert!(s.message().ends_with("sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"));
    // WatchList disabled.
    let s = parse_and_validate(
        "GET",
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        None,
        false,
    )
    .unwrap_err();
    assert_eq!(
        s.message(),
        &invalid(
            "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"
        )[12..]
    );
    // Gets are not validated.
    let mut o = ListOptions { send_initial_events: Some(true), ..Default::default() };
    assert!(validate_list_options(&o, Verb::Get, true).is_ok());
    o.watch = false;
    assert!(validate_list_options(&o, Verb::List, true).is_err());
}

// §C.1 WatchList defaulting
#[test]
fn watch_list_defaulting() {
    for rv in [None, Some("0")] {
        let mut o = ListOptions { watch: true, resource_version: rv.map(String::from), ..Default::default() };
        default_watch_list(&mut o, true);
        assert_eq!(
            (o.send_initial_events, o.resource_version_match.as_ref().map(RvMatch::as_str)),
            (Some(true), Some("NotOlderThan"))
        );
    }
    let mut o = ListOptions { watch: true, resource_version: Some("5".into()), ..Default::default() };
    default_watch_list(&mut o, true);
    assert_eq!(o.send_initial_events, None);
    let mut o = ListOptions { watch: true, ..Default::default() };
    default_watch_list(&mut o, false);
    assert_eq!(o.send_initial_events, None);
    let mut o = ListOptions { watch: true, send_initial_events: Some(false), ..Default::default() };
    default_watch_list(&mut o, true);
    assert_eq!((o.send_initial_events, o.resource_version_match), (Some(false), None));
    // Not a watch (incl. the legacy /watch/ prefix): untouched.
    let mut o = get("/api/v1/watch/pods").unwrap().options;
    default_watch_list(&mut o, true);
    assert_eq!(o.send_initial_events, None);
    let r = parse_and_validate("GET", "/api/v1/pods?watch=true", None, true).unwrap();
    assert_eq!(r.options.send_initial_events, Some(true));
}

// §C.1 resourceVersion parsing
#[test]
fn resource_version_parsing() {
    assert_eq!(parse_resource_version(""), Ok(0));
    assert_eq!(parse_resource_version("0"), Ok(0));
    assert_eq!(parse_resource_version("42"), Ok(42));
    let s = parse_resource_version("abc").unwrap_err();
    assert_eq!((s.code(), s.reason()), (400, "BadRequest"));
    assert_eq!(
        s.message(),
        r#"invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax"#
    );
    assert_eq!(
        parse_resource_version("-1").unwrap_err().message(),
        r#"invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax"#
    );
    // get/watch: non-API error.
    let s = parse_resource_version_non_api("abc").unwrap_err();
    assert_eq!((s.code(), s.reason()), (500, ""));
    assert_eq!(
        s.message(),
        r#"resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax"#
    );
}

// §C.1 / §D storage-level list checks
#[test]
fn list_storage_checks() {
    let tok = ContinueToken { rv: 4, start: "a\u{0}".into() }.encode();
    let o = list_opts(&[("continue", &tok), ("resourceVersion", "5")]);
    let s = check_list_storage_options(&o).unwrap_err();
    assert_eq!(
        (s.code(), s.message()),
        (400, "specifying resource version is not allowed when using continue")
    );
    let o = list_opts(&[("continue", &tok), ("resourceVersion", "0")]);
    assert_eq!(check_list_storage_options(&o).unwrap().continue_token.unwrap().rv, 4);
    let o = list_opts(&[("continue", "a")]);
    assert_eq!(
        check_list_storage_options(&o).unwrap_err().message(),
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"
    );
    let o = list_opts(&[("resourceVersion", "x")]);
    assert_eq!(check_list_storage_options(&o).unwrap_err().code(), 400);
}

#[test]
fn create_bodies() {
    let r =
        parse_request("POST", "/api/v1/namespaces/ns1/pods", Some(r#"{"metadata":{"name":"a"},"spec":{}}"#))
            .unwrap();
    assert_eq!(r.verb, Verb::Create);
    assert_eq!(
        serde_json::to_string(r.body.as_ref().unwrap()).unwrap(),
        r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"ns1"},"spec":{}}"#
    );
    let post = |b: &str| err_msg(parse_request("POST", "/api/v1/namespaces/ns1/pods", Some(b)));
    assert_eq!(
        post("not json"),
        (400, "BadRequest".into(), "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)".into())
    );
    assert_eq!(
        post("xyz"),
        (400, "BadRequest".into(), "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (78797a)".into())
    );
    assert_eq!(
        post(""),
        (400, "BadRequest".into(), "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)".into())
    );
    assert_eq!(
        post(r#"{"metadata":{"name":"a"},"spec":{"containers":[1,]}}"#).2,
        r#"the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character ']' looking for beginning of value ({"metadata":{"name":"a"},"spec ...)"#
    );
    assert_eq!(
        post(r#"{"kind":1}"#).2,
        r#"the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":1})"#
    );
    assert_eq!(
        post(r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}"#).2,
        r#"ConfigMap in version "v1" cannot be handled as a Pod: converting (v1.ConfigMap) to (core.Pod): unknown conversion"#
    );
    assert_eq!(
        post(r#"{"kind":"Pod","apiVersion":"v2","metadata":{"name":"a"}}"#).2,
        r#"Pod in version "v2" cannot be handled as a Pod: no kind "Pod" is registered for version "v2" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30""#
    );
    assert_eq!(
        post(r#"{"metadata":{"name":5}}"#).2,
        r#"Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"#
    );
    assert_eq!(
        post(r#"{"metadata":{"name":"a","namespace":"other"}}"#),
        (
            400,
            "BadRequest".into(),
            "the namespace of the provided object does not match the namespace sent on the request".into()
        )
    );
    assert_eq!(
        post(r#"{"metadata":{}}"#),
        (
            422,
            "Invalid".into(),
            r#"Pod "" is invalid: metadata.name: Required value: name or generateName is required"#.into()
        )
    );
    assert_eq!(
        post(r#"{"metadata":{"name":"Bad_Name"}}"#).2,
        r#"Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
    );
    let long = "a".repeat(254);
    assert_eq!(
        post(&format!(r#"{{"metadata":{{"name":"{long}"}}}}"#)).2,
        format!(
            r#"Pod "{long}" is invalid: metadata.name: Invalid value: "{long}": must be no more than 253 characters"#
        )
    );
    assert_eq!(
        post(r#"{"metadata":{"name":"a","labels":{"app":"-x"}}}"#).2,
        r#"Pod "a" is invalid: metadata.labels: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"#
    );
    // generateName alone is fine (the caller generates the name).
    assert!(
        parse_request(
            "POST",
            "/api/v1/namespaces/ns1/configmaps",
            Some(r#"{"metadata":{"generateName":"cm-"}}"#)
        )
        .is_ok()
    );
    // kind/apiVersion default; a ConfigMap endpoint takes ConfigMaps.
    let r = parse_request(
        "POST",
        "/api/v1/namespaces/ns1/configmaps",
        Some(r#"{"apiVersion":"v1","metadata":{"name":"c"},"data":{"k":"v"}}"#),
    )
    .unwrap();
    assert_eq!(r.body.unwrap()["kind"], "ConfigMap");
    assert_eq!(
        err_msg(parse_request(
            "POST",
            "/api/v1/namespaces/ns1/configmaps",
            Some(r#"{"metadata":{"name":"c"},"data":{"k":1}}"#)
        ))
        .2,
        r#"ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"#
    );
}

#[test]
fn update_bodies() {
    let put = |url: &str, b: &str| parse_request("PUT", url, Some(b));
    let r =
        put("/api/v1/namespaces/ns1/pods/a", r#"{"metadata":{"name":"a","resourceVersion":"4"}}"#).unwrap();
    assert_eq!(r.verb, Verb::Update);
    assert_eq!(r.body.as_ref().unwrap()["metadata"]["namespace"], "ns1");
    assert_eq!(
        err_msg(put("/api/v1/namespaces/ns1/pods/a", r#"{"metadata":{"name":"b"}}"#)),
        (
            400,
            "BadRequest".into(),
            "the name of the object (b) does not match the name on the URL (a)".into()
        )
    );
    assert_eq!(
        err_msg(put("/api/v1/namespaces/ns1/pods/a", r#"{"metadata":{}}"#)).2,
        "the name of the object () does not match the name on the URL (a)"
    );
    assert_eq!(
        err_msg(put("/api/v1/namespaces/ns1/pods/a", r#"{"metadata":{"name":"a","namespace":"ns2"}}"#)).2,
        "the namespace of the object (ns2) does not match the namespace on the request (ns1)"
    );
    // decode_object is idempotent on ApiRequest::body.
    let again = body::decode_object(&PODS, Some("ns1"), Some("a"), r.body.as_ref().unwrap()).unwrap();
    assert_eq!(&again, r.body.as_ref().unwrap());
}

#[test]
fn delete_bodies() {
    let r = parse_request(
        "DELETE",
        "/api/v1/namespaces/ns1/pods/a",
        Some(
            r#"{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"3","uid":"u"}}"#,
        ),
    )
    .unwrap();
    assert_eq!(r.delete_options.precondition_resource_version.as_deref(), Some("3"));
    assert_eq!(r.delete_options.precondition_uid.as_deref(), Some("u"));
    let s = parse_request("DELETE", "/api/v1/namespaces/ns1/pods/a", Some("{")).unwrap_err();
    assert_eq!(
        (s.code(), s.reason(), s.message()),
        (500, "", "couldn't get version/kind; json parse error: unexpected end of JSON input")
    );
}

#[test]
fn never_panics() {
    let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", ""];
    let targets = [
        "",
        "?",
        "/?&&=&",
        "/api/v1/namespaces/%",
        "/api/v1/namespaces/a/pods?limit=-1&timeoutSeconds=-0",
        "/api/v1/namespaces/a/pods?labelSelector=%00",
        "/api/v1/namespaces/a/pods/%E2%82",
        "//api//v1//pods",
        "/api/v1/namespaces/a/pods?watch&watch=0",
        "/api/v1/namespaces/a/pods?continue=%ff",
    ];
    let bodies = [
        None,
        Some(""),
        Some("null"),
        Some("[]"),
        Some("\"x\""),
        Some("{\"metadata\":null}"),
        Some("{\"metadata\":[]}"),
        Some("1e999"),
        Some("{\"a\":1e999}"),
        Some("\"\\ud800\""),
    ];
    for m in methods {
        for t in targets {
            for b in bodies {
                let _ = parse_and_validate(m, t, b, true);
            }
        }
        for b in bodies {
            let _ = parse_request(m, "/api/v1/namespaces/ns1/pods", b);
            let _ = parse_request(m, "/api/v1/namespaces/ns1/pods/a", b);
        }
    }
    let deep = "[".repeat(20000);
    let _ = parse_request("POST", "/api/v1/namespaces/ns1/pods", Some(&deep));
}

#[test]
fn deep_nesting() {
    // Go's maxNestingDepth is 10000.
    let ok = format!("{{\"metadata\":{{\"name\":\"a\"}},\"x\":{}{}}}", "[".repeat(9999), "]".repeat(9999));
    assert!(parse_request("POST", "/api/v1/namespaces/ns1/pods", Some(&ok)).is_ok());
    let bad = format!("{{\"x\":{}{}}}", "[".repeat(10000), "]".repeat(10000));
    assert_eq!(
        err_msg(parse_request("POST", "/api/v1/namespaces/ns1/pods", Some(&bad))).2,
        r#"the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"x":[[[[[[[[[[[[[[[[[[[[[[[[[ ...)"#
    );
}
