//! The apiserver's etcd-backed paths (watch cache off: `--watch-cache=false`, the "cache
//! disabled" rows of §C.3 and §E.2), driven through the script session exactly as `rvlab run`
//! does. Spec sections cited per test.
use rvlab::apiserver::continue_token::ContinueToken;
use rvlab::script::Session;
use serde_json::{Value, json};

/// A session whose apiserver has its watch cache switched off (the setting line prints nothing
/// the tests look at: outputs are renumbered from the script's own first line).
fn session() -> Session {
    let mut s = Session::new();
    let out = s.run_line(0, "set watch-cache off");
    assert_eq!(out.and_then(|o| o.get("error").cloned()), None);
    s
}

fn run(script: &str) -> Vec<Value> {
    session().run_script(script)
}

fn cm(name: &str) -> String {
    format!(
        r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}},"data":{{"k":"v"}}}}"#
    )
}

/// The `cm` lines for `names`, one a line.
fn cms(names: &[&str]) -> String {
    names.iter().map(|n| cm(n)).collect::<Vec<_>>().join("\n")
}

fn rv(v: &Value) -> &str {
    v["body"]["metadata"]["resourceVersion"].as_str().unwrap_or("")
}

// §B create: RV = the new revision; 201; the object as Kubernetes serialises it.
#[test]
fn create_returns_the_object_with_the_new_revision() {
    let out = run(&cm("a"));
    assert_eq!(out[0]["line"], 1);
    assert_eq!(out[0]["code"], 201);
    let body = &out[0]["body"];
    assert_eq!(body["kind"], "ConfigMap");
    assert_eq!(body["apiVersion"], "v1");
    assert_eq!(body["metadata"]["name"], "a");
    assert_eq!(body["metadata"]["namespace"], "default");
    assert_eq!(body["metadata"]["resourceVersion"], "2");
    assert_eq!(body["metadata"]["creationTimestamp"], "2026-01-01T00:00:00Z");
    assert_eq!(body["metadata"]["uid"].as_str().map(str::len), Some(36));
    assert_eq!(body["data"], json!({"k": "v"}));
    let keys: Vec<&String> = body.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    assert_eq!(keys, ["kind", "apiVersion", "metadata", "data"]);
}

// §B empty `omitempty` maps and slices are not stored or answered: the apiserver decodes the
// body into the Go struct and encodes that (`ConfigMap.Data map[string]string
// json:"data,omitempty"`, `ObjectMeta.Labels/Annotations/Finalizers ...,omitempty` in
// k8s.io/api/core/v1/types.go and apimachinery pkg/apis/meta/v1/types.go @ v1.34.0; Go's
// encoding/json omits an empty map or slice under omitempty), so `"data":{}` comes back as no
// `data` at all, on create, on a read and on an update — which then writes the same bytes and is
// a no-op. A struct stays even when empty (`emptyDir: {}`), and `containers` has no omitempty.
#[test]
fn empty_omitempty_maps_and_slices_are_omitted() {
    let out = run(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a","labels":{},"annotations":null,"finalizers":[]},"data":{},"binaryData":{}}
GET /api/v1/namespaces/default/configmaps/a
PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{}},"data":{}}
POST /api/v1/namespaces/default/pods {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","args":[],"env":[],"resources":{"limits":{}}}],"volumes":[{"name":"v","emptyDir":{}}],"nodeSelector":{}}}"#,
    );
    let meta = |o: &Value| {
        let mut m = o["body"]["metadata"].clone();
        for f in ["uid", "creationTimestamp"] {
            m.as_object_mut().map(|m| m.remove(f));
        }
        m
    };
    for o in &out[..3] {
        assert_eq!(o["body"].get("data"), None, "{o}");
        assert_eq!(o["body"].get("binaryData"), None, "{o}");
        assert_eq!(meta(o), json!({"name":"a","namespace":"default","resourceVersion":"2"}), "{o}");
    }
    assert_eq!(out[0]["code"], 201);
    assert_eq!(out[2]["code"], 200);
    assert_eq!(
        out[3]["body"]["spec"],
        json!({"containers":[{"name":"c","image":"i","resources":{}}],"volumes":[{"name":"v","emptyDir":{}}]})
    );
    assert_eq!(out[3]["body"]["metadata"]["resourceVersion"], "3");
}

// §B create of an existing key → 409 AlreadyExists; the revision does not move.
#[test]
fn create_existing_is_409_already_exists() {
    let out = run(&format!("{}\netcd get /registry/ --prefix", cms(&["a", "a"])));
    assert_eq!(out[1]["code"], 409);
    assert_eq!(
        out[1]["body"],
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
               "message":"configmaps \"a\" already exists","reason":"AlreadyExists",
               "details":{"name":"a","kind":"configmaps"},"code":409})
    );
    assert_eq!(out[2]["header"]["revision"], 2);
}

// §B a numeric RV on create fails in storage (500, empty reason).
#[test]
fn create_with_resource_version_is_a_500() {
    let out =
        run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a","resourceVersion":"5"}}"#);
    assert_eq!(out[0]["code"], 500);
    assert_eq!(out[0]["body"]["message"], "resourceVersion should not be set on objects to be created");
    assert!(out[0]["body"].get("reason").is_none());
}

// §B update with a stale RV → 409 Conflict with the exact message.
#[test]
fn stale_update_is_409_conflict() {
    let out = run(&format!(
        "{}\n{}\n{}",
        cm("a"),
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"2"},"data":{"k":"v2"}}"#,
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"2"},"data":{"k":"v3"}}"#,
    ));
    assert_eq!(out[1]["code"], 200);
    assert_eq!(rv(&out[1]), "3");
    assert_eq!(out[2]["code"], 409);
    assert_eq!(out[2]["body"]["reason"], "Conflict");
    assert_eq!(
        out[2]["body"]["message"],
        "Operation cannot be fulfilled on configmaps \"a\": the object has been modified; please apply your changes to the latest version and try again"
    );
}

// §B the body's resourceVersion on update (registry/generic/registry/store.go `tryUpdate` @
// v1.34.0): a missing object is a 404 before it is read; then `APIObjectVersioner.
// ObjectResourceVersion` parses it with strconv.ParseUint — its error is no API error, so
// `ErrorToAPIStatus` answers 500 with Go's text and an empty reason; 0 is an unconditional
// update (`AllowUnconditionalUpdate`, true for configmaps and pods).
#[test]
fn update_resource_version_is_parsed_as_the_registry_does() {
    let out = run(&format!(
        "{}\n{}\n{}\n{}\n{}",
        cm("a"),
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"abc"}}"#,
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"-1"}}"#,
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"0"},"data":{"x":"1"}}"#,
        r#"PUT /api/v1/namespaces/default/configmaps/b {"metadata":{"name":"b","resourceVersion":"abc"}}"#,
    ));
    assert_eq!(
        out[1]["body"],
        json!({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
               "message":"strconv.ParseUint: parsing \"abc\": invalid syntax","code":500})
    );
    assert_eq!(out[2]["code"], 500);
    assert_eq!(out[2]["body"]["message"], "strconv.ParseUint: parsing \"-1\": invalid syntax");
    assert_eq!(out[3]["code"], 200, "{}", out[3]);
    assert_eq!(rv(&out[3]), "3");
    assert_eq!(out[3]["body"]["data"], json!({"x":"1"}));
    assert_eq!(out[4]["code"], 404);
}

// §B an update that encodes to the same bytes is a no-op: no revision, same RV.
#[test]
fn identical_update_is_a_no_op() {
    let out = run(&format!(
        "{}\n{}\netcd get /registry/configmaps/default/a",
        cm("a"),
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","resourceVersion":"2"},"data":{"k":"v"}}"#,
    ));
    assert_eq!(out[1]["code"], 200);
    assert_eq!(rv(&out[1]), "2");
    assert_eq!(out[2]["header"]["revision"], 2);
    assert_eq!(out[2]["kvs"][0]["version"], 1);
}

// §B delete returns the last state with RV = the delete's revision (pods); configmaps a Status.
#[test]
fn delete_returns_last_state_at_the_delete_revision() {
    let out = run(concat!(
        r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}"#,
        "\nDELETE /api/v1/namespaces/default/pods/p\n",
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c"}}"#,
        "\nDELETE /api/v1/namespaces/default/configmaps/c\n",
        "DELETE /api/v1/namespaces/default/configmaps/c\n",
    ));
    assert_eq!(out[0]["code"], 201);
    assert_eq!(out[1]["code"], 200);
    assert_eq!(out[1]["body"]["kind"], "Pod");
    assert_eq!(rv(&out[1]), "3");
    assert_eq!(out[3]["code"], 200);
    assert_eq!(out[3]["body"]["status"], "Success");
    assert_eq!(out[3]["body"]["details"]["name"], "c");
    assert_eq!(out[3]["body"]["details"]["kind"], "configmaps");
    assert_eq!(out[4]["code"], 404);
    assert_eq!(out[4]["body"]["message"], "configmaps \"c\" not found");
}

// §B delete precondition mismatch → 409 with the StorageError text.
#[test]
fn delete_precondition_mismatch_is_409() {
    let out = run(&format!(
        "{}\n{}",
        cm("a"),
        r#"DELETE /api/v1/namespaces/default/configmaps/a {"preconditions":{"resourceVersion":"7"}}"#
    ));
    assert_eq!(out[1]["code"], 409);
    assert_eq!(
        out[1]["body"]["message"],
        "Operation cannot be fulfilled on configmaps \"a\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 7, ResourceVersion in object meta: 2"
    );
}

// §B pods are validated: no containers → 422.
#[test]
fn pod_without_containers_is_invalid() {
    let out = run(r#"POST /api/v1/namespaces/default/pods {"metadata":{"name":"p"}}"#);
    assert_eq!(out[0]["code"], 422);
    assert_eq!(out[0]["body"]["reason"], "Invalid");
    assert_eq!(out[0]["body"]["message"], "Pod \"p\" is invalid: spec.containers: Required value");
}

// §A.3/§(b) list RV is the revision the list is consistent at (a foreign write moves it).
#[test]
fn list_rv_is_the_read_revision_not_the_newest_item() {
    let out =
        run(&format!("{}\netcd put /registry/other x\nGET /api/v1/namespaces/default/configmaps", cm("a")));
    assert_eq!(rv(&out[2]), "3");
    assert_eq!(out[2]["body"]["kind"], "ConfigMapList");
    assert_eq!(out[2]["body"]["items"][0]["metadata"]["resourceVersion"], "2");
    assert!(out[2]["body"]["metadata"].get("continue").is_none());
}

// §D paging: exact token, remainingItemCount, same RV on every page, snapshot isolation.
#[test]
fn pages_share_one_snapshot() {
    let script = format!("{}\nGET /api/v1/namespaces/default/configmaps?limit=1", cms(&["a", "b", "c"]));
    let mut s = session();
    let out = s.run_script(&script);
    let first = &out[3]["body"];
    assert_eq!(first["metadata"]["resourceVersion"], "4");
    assert_eq!(first["metadata"]["remainingItemCount"], 2);
    let token = first["metadata"]["continue"].as_str().unwrap_or("").to_string();
    assert_eq!(token, ContinueToken { rv: 4, start: "a\u{0}".into() }.encode());
    assert_eq!(token, "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NCwic3RhcnQiOiJhXHUwMDAwIn0");
    // A write after the first page is invisible to the rest of the sequence.
    s.run_line(5, &cm("b2"));
    let second = s
        .run_line(6, &format!("GET /api/v1/namespaces/default/configmaps?limit=5&continue={token}"))
        .unwrap_or_default();
    assert_eq!(second["body"]["metadata"]["resourceVersion"], "4");
    let names: Vec<&str> = second["body"]["items"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["metadata"]["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["b", "c"]);
    assert!(second["body"]["metadata"].get("continue").is_none());
    assert!(second["body"]["metadata"].get("remainingItemCount").is_none());
}

// §C.5/§D a compacted continue token → 410 Expired with an inconsistent token (rv -1).
#[test]
fn compacted_continue_is_410_with_an_inconsistent_token() {
    let mut s = session();
    let out = s
        .run_script(&format!("{}\nGET /api/v1/namespaces/default/configmaps?limit=1", cms(&["a", "b", "c"])));
    let token = out[3]["body"]["metadata"]["continue"].as_str().unwrap_or("").to_string();
    s.run_line(
        5,
        r#"PUT /api/v1/namespaces/default/configmaps/b {"metadata":{"name":"b"},"data":{"k":"changed"}}"#,
    );
    s.run_line(6, "compact 5");
    let gone = s
        .run_line(7, &format!("GET /api/v1/namespaces/default/configmaps?limit=1&continue={token}"))
        .unwrap_or_default();
    assert_eq!(gone["code"], 410);
    assert_eq!(gone["body"]["reason"], "Expired");
    assert_eq!(
        gone["body"]["message"],
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
    );
    let inconsistent = gone["body"]["metadata"]["continue"].as_str().unwrap_or("").to_string();
    assert_eq!(ContinueToken::decode(&inconsistent), Ok(ContinueToken { rv: -1, start: "a\u{0}".into() }));
    // Using it reads the rest at the current revision, which is then pinned.
    let rest = s
        .run_line(8, &format!("GET /api/v1/namespaces/default/configmaps?limit=1&continue={inconsistent}"))
        .unwrap_or_default();
    assert_eq!(rest["code"], 200);
    assert_eq!(rest["body"]["metadata"]["resourceVersion"], "5");
    assert_eq!(rest["body"]["items"][0]["data"]["k"], "changed");
    let next = rest["body"]["metadata"]["continue"].as_str().unwrap_or("");
    assert_eq!(ContinueToken::decode(next), Ok(ContinueToken { rv: 5, start: "b\u{0}".into() }));
}

// §C.2/§C.5 Exact at a compacted revision → 410; at a future revision → 504 without Retry-After.
#[test]
fn exact_reads_compacted_and_future() {
    let out = run(&format!(
        "{}\ncompact 3\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2&resourceVersionMatch=Exact\nGET /api/v1/namespaces/default/configmaps?resourceVersion=3&resourceVersionMatch=Exact\nGET /api/v1/namespaces/default/configmaps?resourceVersion=9&resourceVersionMatch=Exact",
        cms(&["a", "b"])
    ));
    assert_eq!(out[3]["code"], 410);
    assert_eq!(out[3]["body"]["message"], "The resourceVersion for the provided list is too old.");
    assert_eq!(out[3]["body"]["reason"], "Expired");
    assert_eq!(out[4]["code"], 200);
    assert_eq!(out[4]["body"]["metadata"]["resourceVersion"], "3");
    assert_eq!(out[5]["code"], 504);
    assert_eq!(out[5]["body"]["message"], "Timeout: Too large resource version: 9, current: 3");
    assert!(out[5].get("headers").is_none());
}

// §C.3 legacy rule: limit + rv=n without a match reads exactly at n.
#[test]
fn limit_with_rv_is_exact() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?limit=5&resourceVersion=2\nGET /api/v1/namespaces/default/configmaps?resourceVersion=2",
        cms(&["a", "b"])
    ));
    assert_eq!(out[2]["body"]["metadata"]["resourceVersion"], "2");
    assert_eq!(out[2]["body"]["items"].as_array().map(Vec::len), Some(1));
    assert_eq!(out[3]["body"]["metadata"]["resourceVersion"], "3");
    assert_eq!(out[3]["body"]["items"].as_array().map(Vec::len), Some(2));
}

// §D label selectors on lists: remainingItemCount is absent with a selector.
#[test]
fn label_selector_lists() {
    let out = run(concat!(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a","labels":{"app":"x"}}}"#,
        "\n",
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b","labels":{"app":"y"}}}"#,
        "\n",
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"c","labels":{"app":"x"}}}"#,
        "\n",
        "GET /api/v1/namespaces/default/configmaps?labelSelector=app%3Dx\n",
        "GET /api/v1/namespaces/default/configmaps?labelSelector=app=x&limit=1\n",
        "GET /api/v1/configmaps?labelSelector=app!=x\n",
    ));
    let names = |v: &Value| -> Vec<String> {
        v["body"]["items"]
            .as_array()
            .map(|a| a.iter().filter_map(|i| i["metadata"]["name"].as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    assert_eq!(names(&out[3]), ["a", "c"]);
    assert_eq!(names(&out[4]), ["a"]);
    assert!(out[4]["body"]["metadata"].get("continue").is_some());
    assert!(out[4]["body"]["metadata"].get("remainingItemCount").is_none());
    assert_eq!(names(&out[5]), ["b"]);
}

// §E.1/§E.2 (cache disabled) watch from etcd: events after n, DELETED at the delete revision.
#[test]
fn watch_from_a_revision_streams_changes_after_it() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2\nDELETE /api/v1/namespaces/default/configmaps/a\nevents w1\nevents w1",
        cms(&["a", "b"])
    ));
    assert_eq!(out[2], json!({"line":3,"code":200,"watch":"w1"}));
    let ev = &out[4]["events"];
    assert_eq!(ev[0]["type"], "ADDED");
    assert_eq!(ev[0]["object"]["metadata"]["name"], "b");
    assert_eq!(ev[1]["type"], "DELETED");
    assert_eq!(ev[1]["object"]["metadata"]["name"], "a");
    assert_eq!(ev[1]["object"]["metadata"]["resourceVersion"], "4");
    assert_eq!(ev.as_array().map(Vec::len), Some(2));
    assert_eq!(out[4]["closed"], false);
    assert_eq!(out[5]["events"], json!([]));
}

// §E.2 (cache disabled) a watch from a compacted revision ends with ERROR 410.
#[test]
fn watch_from_compacted_revision_is_error_410() {
    let out = run(&format!(
        "{}\ncompact 3\nGET /api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1\nevents w1",
        cms(&["a", "b"])
    ));
    assert_eq!(out[3]["code"], 200);
    let ev = &out[4]["events"];
    assert_eq!(ev.as_array().map(Vec::len), Some(1));
    assert_eq!(ev[0]["type"], "ERROR");
    assert_eq!(ev[0]["object"]["code"], 410);
    assert_eq!(ev[0]["object"]["reason"], "Expired");
    assert_eq!(ev[0]["object"]["message"], "The resourceVersion for the provided watch is too old.");
    assert_eq!(out[4]["closed"], true);
}

// §E.1 label-selector transitions become ADDED / DELETED.
#[test]
fn selector_transitions_in_watches() {
    let out = run(concat!(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a","labels":{"app":"x"}}}"#,
        "\n",
        "GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2&labelSelector=app%3Dy\n",
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{"app":"y"}}}"#,
        "\n",
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{"app":"y"}},"data":{"n":"1"}}"#,
        "\n",
        r#"PUT /api/v1/namespaces/default/configmaps/a {"metadata":{"name":"a","labels":{"app":"z"}}}"#,
        "\n",
        "events w1\n",
    ));
    let types: Vec<&str> = out[5]["events"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["type"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(types, ["ADDED", "MODIFIED", "DELETED"]);
    assert_eq!(out[5]["events"][2]["object"]["metadata"]["resourceVersion"], "5");
}

// §E.2 (cache disabled) rv unset: the current state as ADDED, then changes.
#[test]
fn watch_without_rv_starts_with_the_current_state() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=true\n{}\nevents w1",
        cms(&["a", "b"]),
        cm("c")
    ));
    let names: Vec<(String, String)> = out[4]["events"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["type"].as_str().unwrap_or("").into(),
                        e["object"]["metadata"]["name"].as_str().unwrap_or("").into(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        names,
        [("ADDED".into(), "a".into()), ("ADDED".into(), "b".into()), ("ADDED".into(), "c".into())]
    );
}

// The JSON Lines contract: a broken line reports an error and the script goes on.
#[test]
fn broken_lines_do_not_stop_the_script() {
    let out = run("GETT /api/v1/pods\n\n# comment\nGET /api/v1/namespaces/default/configmaps");
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["line"], 1);
    assert!(out[0]["error"].as_str().is_some_and(|e| e.contains("GETT")));
    assert_eq!(out[1]["line"], 4);
    assert_eq!(out[1]["code"], 200);
}

// §A etcd lines print etcdctl-shaped JSON with plain strings.
#[test]
fn etcd_lines() {
    let out = run(
        "etcd put /a 1\netcd put /a 2\netcd get /a\netcd get /a --rev=2\netcd compact 3\netcd get /a --rev=2\netcd del /a\netcd get /a",
    );
    assert_eq!(out[0], json!({"line":1,"header":{"revision":2}}));
    assert_eq!(
        out[2]["kvs"],
        json!([{"key":"/a","value":"2","create_revision":2,"mod_revision":3,"version":2}])
    );
    assert_eq!(out[3]["kvs"][0]["value"], "1");
    assert_eq!(out[5], json!({"line":6,"error":"mvcc: required revision has been compacted"}));
    assert_eq!(out[6]["deleted"], 1);
    assert_eq!(out[7]["count"], 0);
}

// §E.2 etcd-relayed frames: the etcd3 watcher decodes each event into the Go struct and the
// handler encodes it with `encoding/json`, so a frame's object has the same bytes as a GET of the
// same revision: `resourceVersion` at its `ObjectMeta` place (after `uid`), not appended.
// Upstream: apiserver `storage/etcd3/watcher.go` (`decodeObj`), apimachinery
// `pkg/apis/meta/v1/types.go` (ObjectMeta field order).
#[test]
fn relayed_frames_serialise_objects_as_a_get_does() {
    let out = run(&format!(
        "{}\nGET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1\n\
         PUT /api/v1/namespaces/default/configmaps/a {{\"metadata\":{{\"name\":\"a\",\"labels\":{{\"x\":\"y\"}}}},\"data\":{{\"k\":\"w\"}}}}\n\
         events w1\nGET /api/v1/namespaces/default/configmaps/a",
        cm("a")
    ));
    let events = out[3]["events"].as_array().cloned().unwrap_or_default();
    assert_eq!(events.len(), 2, "{:?}", out[3]);
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[1]["type"], "MODIFIED");
    let keys: Vec<&str> = events[1]["object"]["metadata"]
        .as_object()
        .map(|m| m.keys().map(|k| k.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        ["name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels", "managedFields"]
    );
    assert_eq!(
        serde_json::to_string(&events[1]["object"]).unwrap_or_default(),
        serde_json::to_string(&out[4]["body"]).unwrap_or_default()
    );
}
