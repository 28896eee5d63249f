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
         dryRun: Unsupported value: []string{\"x\"}: supported values: \"All\"]"
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
