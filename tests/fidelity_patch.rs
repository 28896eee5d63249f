//! Strategic merge patch answers the handler gives for a `$setElementOrder` list the patch list
//! contradicts (docs/semantics.md §B "PATCH").
//!
//! Upstream: apimachinery `pkg/util/strategicpatch/patch.go` (`mergePatchIntoOriginal` calls
//! `validatePatchWithSetOrderList` before merging: the patch list's items, deletions left out,
//! must appear in the directive's list in the same relative order, else
//! `fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", …)`; a merge key an
//! item lacks is `mergepatch.ErrNoMergeKey`), apiserver `endpoints/handlers/patch.go`
//! (`interpretStrategicMergePatchError` maps only the `mergepatch` sentinel errors, so these pass
//! through) and `responsewriters/status.go` `ErrorToAPIStatus` (an error that is not an API
//! status: 500, reason unknown, i.e. empty). Checked against kubernetes/apimachinery
//! `pkg/util/strategicpatch/patch.go` @ 6e531d3 and kubernetes/kubernetes
//! `staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go` @ 03db535.
#![cfg(not(target_arch = "wasm32"))]

use rvlab::script::Session;
use serde_json::{Value, json};

const POD: &str = "/api/v1/namespaces/default/pods/p";

fn run(lines: &[&str]) -> Vec<Value> {
    let mut script = String::from(
        "POST /api/v1/namespaces/default/pods {\"metadata\":{\"name\":\"p\",\"finalizers\":[\"a\",\"b\"]},\
         \"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\"},{\"name\":\"b\",\"image\":\"i\"}]}}\n",
    );
    for l in lines {
        script.push_str(l);
        script.push('\n');
    }
    Session::new().run_script(&script)
}

#[test]
fn a_patch_list_against_its_set_element_order_is_a_500() {
    let out = run(&[
        &format!(
            "PATCH {POD} type=strategic {{\"spec\":{{\"$setElementOrder/containers\":[{{\"name\":\"a\"}},{{\"name\":\"b\"}}],\
             \"containers\":[{{\"name\":\"b\",\"image\":\"x\"}},{{\"name\":\"a\",\"image\":\"y\"}}]}}}}"
        ),
        &format!(
            "PATCH {POD} type=strategic {{\"metadata\":{{\"$setElementOrder/finalizers\":[\"a\",\"b\"],\"finalizers\":[\"c\",1.5,2000000]}}}}"
        ),
        &format!(
            "PATCH {POD} type=strategic {{\"spec\":{{\"$setElementOrder/containers\":[{{\"name\":\"a\"}}],\
             \"containers\":[{{\"image\":\"x\"}}]}}}}"
        ),
        // Consistent: deletions are left out of the check, and the order is a superset.
        &format!(
            "PATCH {POD} type=strategic {{\"spec\":{{\"$setElementOrder/containers\":[{{\"name\":\"b\"}},{{\"name\":\"c\"}}],\
             \"containers\":[{{\"name\":\"a\",\"$patch\":\"delete\"}},{{\"name\":\"c\",\"image\":\"z\"}}]}}}}"
        ),
        "GET /api/v1/namespaces/default/pods/p",
    ]);
    assert_eq!(
        out[1],
        json!({"line": 2, "code": 500, "body": {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "The order in patch list:\n[map[image:x name:b] map[image:y name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
            "code": 500}})
    );
    assert_eq!(
        out[2]["body"]["message"],
        "The order in patch list:\n[c 1.5 2000000]\n doesn't match $setElementOrder list:\n[a b]\n"
    );
    assert_eq!(out[3]["code"], 500);
    assert_eq!(out[3]["body"]["message"], "map: map[image:x] does not contain declared merge key: name");
    assert_eq!(out[4]["code"], 200, "{}", out[4]);
    let names: Vec<&str> = out[4]["body"]["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["b", "c"]);
    // Nothing was written by the refused patches: the pod's revision moved once (line 4).
    assert_eq!(out[5]["body"]["metadata"]["resourceVersion"], out[4]["body"]["metadata"]["resourceVersion"]);
}

/// `ValidatePatchOptions` / `ValidateCreateOptions` / `ValidateUpdateOptions`
/// (apimachinery `pkg/apis/meta/v1/validation/validation.go` @ v1.34.0), run by the handlers
/// (at the default release, which prints the `dryRun` list as JSON; see
/// `dry_run_values_print_as_the_release_prints_them`)
/// before the body is read: `PatchOptions.Force` is a pointer, so `force=false` on a non-apply
/// patch is refused too; every error is listed in one 422 (the patch's own, then the
/// manager's characters, then dryRun); an unprintable `fieldManager` character is
/// `invalid character U+0007 (at position 1)` (`%#U`, byte position).
#[test]
fn write_options_are_validated_together_before_the_body() {
    let out = Session::new().run_script(
        "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}\n\
         PATCH /api/v1/namespaces/default/configmaps/a?force=false {\"data\":{\"x\":\"1\"}}\n\
         PATCH /api/v1/namespaces/default/configmaps/a?force=true&fieldManager=a%07b&dryRun=x {\"data\":{\"x\":\"1\"}}\n\
         POST /api/v1/namespaces/default/configmaps?fieldManager=a%07b {\"metadata\":{\"name\":\"b\"},\"kind\":\"Pod\"}\n\
         PUT /api/v1/namespaces/default/configmaps/a?fieldManager=%0A {\"metadata\":{\"name\":\"a\"}}\n\
         PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=ok%20name {\"data\":{\"x\":\"1\"}}",
    );
    let msg = |o: &Value| o["body"]["message"].as_str().unwrap_or("").to_string();
    assert_eq!(out[1]["code"], 422);
    assert_eq!(
        msg(&out[1]),
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
    assert_eq!(
        msg(&out[2]),
        "PatchOptions.meta.k8s.io \"\" is invalid: [force: Forbidden: may not be specified for non-apply patch, \
         fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1), \
         dryRun: Unsupported value: [\"x\"]: supported values: \"All\"]"
    );
    assert_eq!(out[3]["code"], 422, "the options before the body's kind: {}", out[3]);
    assert_eq!(
        msg(&out[3]),
        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1)"
    );
    assert_eq!(
        msg(&out[4]),
        "UpdateOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"\\n\": invalid character U+000A (at position 0)"
    );
    assert_eq!(out[5]["code"], 200);
    // Same time as the creator's entry: sorted by manager name.
    assert_eq!(out[5]["body"]["metadata"]["managedFields"][0]["manager"], "ok name");
    assert_eq!(out[5]["body"]["metadata"]["managedFields"][1]["manager"], "rvlab");
}

/// `dryRun=foo`: `ValidateDryRun` gives `field.NotSupported(dryRun, []string{"foo"}, …)`, and
/// `field.Error.ErrorBody` prints that slice with `%#v` through 1.33 and with `json.Marshal`
/// from 1.34 (apimachinery `pkg/util/validation/field/errors.go`: before, the `default:` arm is
/// `fmt.Sprintf("%s: %#v", …)`; kubernetes/kubernetes#132314, of June 2025 — the 1.34 cycle —
/// made it `json.Marshal(e.BadValue)` first). Repeated values stay in order; Go's JSON escapes `<`.
#[test]
fn dry_run_values_print_as_the_release_prints_them() {
    let body = r#"{"metadata":{"name":"a"}}"#;
    let script = |minor: u32| {
        format!(
            "set kubernetes 1.{minor}\n\
             POST /api/v1/namespaces/default/configmaps?dryRun=foo {body}\n\
             POST /api/v1/namespaces/default/configmaps?dryRun=All&dryRun=%3Cb%3E {body}\n\
             DELETE /api/v1/namespaces/default/configmaps/a?dryRun=x"
        )
    };
    for minor in 30..=36 {
        let out = Session::new().run_script(&script(minor));
        let (one, two) = if minor <= 33 {
            (r#"[]string{"foo"}"#, r#"[]string{"All", "<b>"}"#)
        } else {
            (r#"["foo"]"#, r#"["All","\u003cb\u003e"]"#)
        };
        assert_eq!(out[1]["code"], 422, "1.{minor}: {}", out[1]);
        assert_eq!(out[1]["body"]["reason"], "Invalid");
        assert_eq!(
            out[1]["body"]["message"],
            format!(
                r#"CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: {one}: supported values: "All""#
            ),
            "1.{minor}"
        );
        assert_eq!(
            out[1]["body"]["details"]["causes"][0],
            json!({"reason": "FieldValueNotSupported", "message": format!(r#"Unsupported value: {one}: supported values: "All""#), "field": "dryRun"}),
            "1.{minor}"
        );
        assert_eq!(
            out[2]["body"]["message"],
            format!(
                r#"CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: {two}: supported values: "All""#
            ),
            "1.{minor}"
        );
        assert_eq!(out[3]["code"], 422, "1.{minor}");
        assert!(out[3]["body"]["message"].as_str().unwrap_or("").starts_with("DeleteOptions.meta.k8s.io"));
    }
}

fn patch_script(lines: &[&str]) -> Vec<Value> {
    let mut script = String::from(
        "POST /api/v1/namespaces/default/configmaps {\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}\n",
    );
    for l in lines {
        script.push_str(l);
        script.push('\n');
    }
    Session::new().run_script(&script)
}

const CM: &str = "/api/v1/namespaces/default/configmaps/a";

/// A JSON patch body that is not an array of operations. `jsonPatcher.applyJSPatch`
/// (apiserver `endpoints/handlers/patch.go` @ v1.36.0, lines 335–346 of `applyJSPatch`) first
/// decodes it strictly as `[]jsonPatchOp` when `fieldValidation` is `Warn` (the default,
/// `handlers/rest.go` `fieldValidation`) or `Strict`: 400 `error decoding patch: …`. With
/// `Ignore` only `jsonpatch.DecodePatch` (json-patch v4 `patch.go`) decodes it, as
/// `jsonpatch.Patch` (`[]Operation`). A merge patch that is not an object fails the same strict
/// decode as `map[string]interface {}`. The object is looked up first: a missing one is 404.
#[test]
fn a_json_patch_body_that_is_not_an_array_is_a_400() {
    let out = patch_script(&[
        &format!("PATCH {CM} type=json {{\"op\":\"add\",\"path\":\"/data/x\",\"value\":\"1\"}}"),
        &format!("PATCH {CM}?fieldValidation=Strict type=json \"add\""),
        &format!("PATCH {CM}?fieldValidation=Ignore type=json {{\"op\":\"add\"}}"),
        &format!("PATCH {CM} type=json [1]"),
        &format!("PATCH {CM}?fieldValidation=Ignore type=json [true]"),
        &format!("PATCH {CM} type=json [{{\"op\":\"add\",\"path\":5,\"value\":\"1\"}}]"),
        &format!("PATCH {CM} type=merge [{{\"data\":{{}}}}]"),
        "PATCH /api/v1/namespaces/default/configmaps/nope type=json {\"op\":\"add\"}",
        &format!("PATCH {CM} type=json null"),
    ]);
    let bad = |o: &Value, msg: &str| {
        assert_eq!(
            o,
            &json!({"line": o["line"], "code": 400, "body": {"kind": "Status", "apiVersion": "v1", "metadata": {},
                "status": "Failure", "message": msg, "reason": "BadRequest", "code": 400}}),
        );
    };
    bad(
        &out[1],
        "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
    );
    bad(
        &out[2],
        "error decoding patch: json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp",
    );
    bad(&out[3], "json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    bad(
        &out[4],
        "error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp",
    );
    bad(&out[5], "json: cannot unmarshal bool into Go value of type jsonpatch.Operation");
    bad(
        &out[6],
        "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string",
    );
    bad(
        &out[7],
        "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
    assert_eq!(out[8]["code"], 404, "{}", out[8]);
    assert_eq!(out[9]["code"], 200, "a null patch has no operations: {}", out[9]);
}

/// JSON patch operations on paths that do not exist, as gopkg.in/evanphx/json-patch.v4 applies
/// them (v4.12.0, later v4.13.0: the module the apiserver vendors for `applyJSPatch`;
/// `patch.go` `findObject`, `partialDoc.get` returning `nil, nil` for a missing key,
/// `Patch.replace`/`test`/`remove`):
/// `add` of a new key succeeds; `replace` of a missing key also succeeds and sets it (v4 checks
/// only the error of `get`); `remove` of a missing key fails ("Unable to remove nonexistent
/// key"); `test` of a missing key passes only against `null`; any operation whose parent is
/// missing, or whose path is `""`, fails. A failure is the generic 422 of
/// `NewGenericServerResponse` and writes nothing.
#[test]
fn json_patch_on_missing_paths_follows_json_patch_v4() {
    let ok = |op: &str| format!("PATCH {CM} type=json [{op}]");
    let out = patch_script(&[
        &ok(r#"{"op":"add","path":"/data/new","value":"1"}"#),
        &ok(r#"{"op":"replace","path":"/data/absent","value":"2"}"#),
        &ok(r#"{"op":"test","path":"/data/nothing","value":null}"#),
        &ok(r#"{"op":"test","path":"/data/nothing","value":"x"}"#),
        &ok(r#"{"op":"remove","path":"/data/nothing"}"#),
        &ok(r#"{"op":"add","path":"/metadata/labels/app","value":"x"}"#),
        &ok(r#"{"op":"replace","path":"/metadata/labels/app","value":"x"}"#),
        &ok(r#"{"op":"test","path":"/metadata/labels/app","value":null}"#),
        &ok(r#"{"op":"replace","path":"","value":{}}"#),
        &ok(r#"{"op":"add","path":"anything/data","value":{"z":"9"}}"#),
        &format!("GET {CM}"),
    ]);
    for (line, code) in
        [(1, 200), (2, 200), (3, 200), (4, 422), (5, 422), (6, 422), (7, 422), (8, 422), (9, 422)]
    {
        assert_eq!(out[line]["code"], code, "line {}: {}", line + 1, out[line]);
    }
    assert_eq!(
        out[4]["body"],
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "the server rejected our request due to an error in our request", "reason": "Invalid",
            "details": {}, "code": 422})
    );
    assert_eq!(out[2]["body"]["data"], json!({"k": "v", "new": "1", "absent": "2"}));
    // `anything/data`: findObject drops the first piece, so the key is the document's `data`.
    assert_eq!(out[10]["code"], 200, "{}", out[10]);
    assert_eq!(out[11]["body"]["data"], json!({"z": "9"}));
}

/// Server-side apply of a body without `apiVersion`/`kind`, or with another type's. The default
/// field manager's outermost layer, `versionCheckManager.Apply` (apimachinery
/// `pkg/util/managedfields/internal/versioncheck.go` @ v1.36.0, `fieldmanager.go`
/// `NewDefaultFieldManager` wraps every other manager in it), compares the body's
/// `GroupVersionKind` with the endpoint's: 400 `invalid object type: <group>/<version>,
/// Kind=<kind>` (`schema.GroupVersionKind.String()`). It answers before
/// `structuredMergeManager.Apply`'s "Incorrect version specified in apply patch" could; a
/// missing object is not created.
#[test]
fn apply_without_api_version_or_kind_is_an_invalid_object_type() {
    let apply = |name: &str, body: &str| {
        format!("PATCH /api/v1/namespaces/default/configmaps/{name}?fieldManager=m type=apply {body}")
    };
    let out = patch_script(&[
        &apply("b", r#"{"metadata":{"name":"b"},"data":{"x":"1"}}"#),
        &apply("b", r#"{"apiVersion":"v1","metadata":{"name":"b"}}"#),
        &apply("b", r#"{"kind":"ConfigMap","metadata":{"name":"b"}}"#),
        &apply("a", r#"{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"a"}}"#),
        &apply("a", r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}"#),
        &apply("a", r#"{"apiVersion":"a/b/c","kind":"ConfigMap","metadata":{"name":"a"}}"#),
        &apply("b", r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"},"data":{"x":"1"}}"#),
        "GET /api/v1/namespaces/default/configmaps/b",
    ]);
    let msgs = [
        "/, Kind=",
        "/v1, Kind=",
        "/, Kind=ConfigMap",
        "apps/v1, Kind=ConfigMap",
        "/v1, Kind=Pod",
        "/, Kind=ConfigMap",
    ];
    for (i, m) in msgs.iter().enumerate() {
        let o = &out[i + 1];
        assert_eq!(o["code"], 400, "{o}");
        assert_eq!(o["body"]["reason"], "BadRequest");
        assert_eq!(o["body"]["message"], format!("invalid object type: {m}"), "line {}", i + 2);
    }
    assert_eq!(out[7]["code"], 201, "{}", out[7]);
    assert_eq!(out[8]["body"]["data"], json!({"x": "1"}));
}
