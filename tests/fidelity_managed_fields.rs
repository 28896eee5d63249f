//! managedFields of non-apply writes (docs/semantics.md §B "managedFields"): every create,
//! update (PUT) and JSON / merge / strategic patch records an `operation: Update` entry for its
//! manager, and server-side apply conflicts with those managers as with appliers.
//!
//! Upstream, all @ v1.34.0: apiserver `endpoints/handlers/create.go` (`UpdateNoErrors` against
//! `Creater.New`, `managerOrUserAgent`, `prefixFromUserAgent`), `update.go` (the field manager
//! transformer), `patch.go` (`jsonPatcher`/`smpPatcher.applyPatchToCurrentObject`);
//! apimachinery `pkg/util/managedfields/internal/` `fieldmanager.go` (`decodeLiveOrNew`,
//! `isResetManagedFields`), `skipnonapplied.go`, `capmanagers.go` (`DefaultMaxUpdateManagers`
//! 10, `ancient-changes`), `managedfieldsupdater.go` (the time moves only when the write took
//! fields), `stripmeta.go`, `managedfields.go` (`BuildManagerIdentifier`,
//! `sortEncodedManagedFields`), `conflict.go` (`printManager`: `"m" using v1`);
//! structured-merge-diff `typed/compare.go`, `merge/update.go`, `fieldpath/serialize.go`;
//! `k8s.io/apimachinery/pkg/apis/meta/v1/types.go` (`ManagedFieldsEntry` field order).
#![cfg(not(target_arch = "wasm32"))]

use rvlab::script::Session;
use serde_json::{Value, json};

const CM: &str = "/api/v1/namespaces/default/configmaps";

fn run(script: &str) -> Vec<Value> {
    Session::new().run_script(script)
}

fn managed(o: &Value) -> Value {
    o["body"]["metadata"]["managedFields"].clone()
}

/// What `kubectl create configmap a --from-literal=x=1` leaves on a real cluster: one Update
/// entry for `kubectl-create`, with the data map itself (`.`) and its key, in the Go field order.
#[test]
fn kubectl_create_records_an_update_entry() {
    let out = run("kubectl create configmap a --from-literal=x=1");
    assert_eq!(
        serde_json::to_string(&managed(&out[0])).unwrap_or_default(),
        r#"[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:x":{}}}}]"#
    );
}

/// Without `fieldManager` the manager is the User-Agent's prefix; a script's requests carry
/// `rvlab/<version>`.
#[test]
fn a_request_line_without_field_manager_is_recorded_as_rvlab() {
    let out = run(&format!(
        "set clock.epoch 2030-05-01T10:00:00Z\nPOST {CM} {{\"metadata\":{{\"name\":\"a\",\"labels\":{{\"app\":\"x\"}}}},\"data\":{{\"k\":\"v\"}}}}"
    ));
    assert_eq!(
        managed(&out[1]),
        json!([{"manager": "rvlab", "operation": "Update", "apiVersion": "v1", "time": "2030-05-01T10:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:data": {".": {}, "f:k": {}}, "f:metadata": {"f:labels": {".": {}, "f:app": {}}}}}])
    );
}

/// An update takes the fields it changed from the other managers (the creator keeps the map
/// itself), an unchanged write records nothing, and a later apply of a changed value conflicts
/// with the updater — `"kubectl-edit" using v1` — until `force=true` moves the field.
#[test]
fn apply_conflicts_with_the_manager_that_updated_the_field() {
    let out = run(&format!(
        "kubectl create configmap a --from-literal=x=1\n\
         advance 10s\n\
         PUT {CM}/a?fieldManager=kubectl-edit {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"2\",\"y\":\"1\"}}}}\n\
         advance 10s\n\
         PUT {CM}/a?fieldManager=kubectl-replace {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"2\",\"y\":\"1\"}}}}\n\
         PATCH {CM}/a?fieldManager=alice type=apply {{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"3\"}}}}\n\
         PATCH {CM}/a?fieldManager=alice&force=true type=apply {{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"3\"}}}}"
    ));
    assert_eq!(
        managed(&out[2]),
        json!([
            {"manager": "kubectl-create", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}},
            {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:10Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:x": {}, "f:y": {}}}}
        ])
    );
    // The same object again: nothing taken, no entry, no write.
    assert_eq!(out[4]["body"]["metadata"]["resourceVersion"], out[2]["body"]["metadata"]["resourceVersion"]);
    assert_eq!(managed(&out[4]), managed(&out[2]));
    let conflict = &out[5]["body"];
    assert_eq!(out[5]["code"], 409);
    assert_eq!(conflict["reason"], "Conflict");
    assert_eq!(
        conflict["message"],
        "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1: .data.x"
    );
    assert_eq!(
        conflict["details"]["causes"],
        json!([{"reason": "FieldManagerConflict", "message": "conflict with \"kubectl-edit\" using v1", "field": ".data.x"}])
    );
    assert_eq!(out[6]["code"], 200);
    assert_eq!(
        managed(&out[6]),
        json!([
            {"manager": "alice", "operation": "Apply", "apiVersion": "v1", "time": "2026-01-01T00:00:20Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:x": {}}}},
            {"manager": "kubectl-create", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}},
            {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:10Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:y": {}}}}
        ])
    );
}

/// Patches of one manager merge into its entry (same manager, operation and apiVersion), whose
/// time moves; a removed field leaves every set and an entry left empty goes.
#[test]
fn patches_merge_into_their_managers_entry_and_empty_entries_go() {
    let out = run(&format!(
        "POST {CM}?fieldManager=m1 {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"1\"}}}}\n\
         advance 5s\n\
         PATCH {CM}/a?fieldManager=kubectl-patch {{\"data\":{{\"y\":\"1\"}}}}\n\
         advance 5s\n\
         PATCH {CM}/a?fieldManager=kubectl-patch type=strategic {{\"data\":{{\"z\":\"1\"}}}}\n\
         PATCH {CM}/a?fieldManager=kubectl-patch type=json [{{\"op\":\"remove\",\"path\":\"/data\"}}]"
    ));
    assert_eq!(
        managed(&out[4]),
        json!([
            {"manager": "m1", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:x": {}}}},
            {"manager": "kubectl-patch", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:10Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:y": {}, "f:z": {}}}}
        ])
    );
    assert_eq!(out[5]["code"], 200);
    assert_eq!(out[5]["body"]["metadata"].get("managedFields"), None, "every field removed: no entry left");
}

/// `[]` resets managedFields; an object without them is not tracked by updates
/// (`skipNonAppliedManager`), and the first apply records its fields as `before-first-apply`,
/// which that apply then conflicts with.
#[test]
fn reset_managed_fields_are_untracked_until_the_first_apply() {
    let out = run(&format!(
        "POST {CM} {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"1\"}}}}\n\
         PUT {CM}/a {{\"metadata\":{{\"name\":\"a\",\"managedFields\":[]}},\"data\":{{\"x\":\"1\"}}}}\n\
         PATCH {CM}/a {{\"data\":{{\"y\":\"2\"}}}}\n\
         PATCH {CM}/a?fieldManager=alice type=apply {{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"x\":\"3\"}}}}"
    ));
    assert_eq!(out[1]["body"]["metadata"].get("managedFields"), None);
    assert_eq!(out[2]["body"]["data"], json!({"x": "1", "y": "2"}));
    assert_eq!(out[2]["body"]["metadata"].get("managedFields"), None, "updates do not start tracking");
    assert_eq!(out[3]["code"], 409);
    assert_eq!(
        out[3]["body"]["message"],
        "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .data.x"
    );
}

/// More than ten Update managers: the oldest merge into `ancient-changes`, which takes the time
/// of the newest entry merged into it.
#[test]
fn the_eleventh_updater_merges_the_two_oldest_into_ancient_changes() {
    let mut script = format!(
        "POST {CM}?fieldManager=m00 {{\"metadata\":{{\"name\":\"a\"}},\"data\":{{\"k00\":\"v\"}}}}\n"
    );
    for i in 1..11 {
        script.push_str(&format!(
            "advance 1s\nPATCH {CM}/a?fieldManager=m{i:02} {{\"data\":{{\"k{i:02}\":\"v\"}}}}\n"
        ));
    }
    let out = run(&script);
    let last = managed(&out[20]);
    let entries = last.as_array().cloned().unwrap_or_default();
    assert_eq!(entries.len(), 10, "{last}");
    assert_eq!(
        entries[0],
        json!({"manager": "ancient-changes", "operation": "Update", "apiVersion": "v1", "time": "2026-01-01T00:00:01Z",
               "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:k00": {}, "f:k01": {}}}})
    );
    assert_eq!(entries[1]["manager"], "m02");
    assert_eq!(entries[9]["manager"], "m10");
}

/// A Pod's create: list items are keyed (`k:{"name":"c"}` with `.`), and `status` — the pod
/// strategy's reset field — is in no set (`podStrategy.GetResetFields`).
#[test]
fn a_pod_create_records_keyed_containers_and_no_status() {
    let out = run("POST /api/v1/namespaces/default/pods?fieldManager=kubectl-run \
         {\"metadata\":{\"name\":\"p\",\"labels\":{\"run\":\"p\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]},\"status\":{\"phase\":\"Running\"}}");
    assert_eq!(
        managed(&out[0])[0]["fieldsV1"],
        json!({"f:metadata": {"f:labels": {".": {}, "f:run": {}}},
               "f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {".": {}, "f:image": {}, "f:name": {}}}}})
    );
}

/// An apply that creates the object records only the applier: the create inside the patch
/// handler (`applyPatcher.createNewObject`) has no `Update` manager of its own, and the
/// object compared against is the type's empty object.
#[test]
fn an_apply_that_creates_records_only_the_applier() {
    let out = run("PATCH /api/v1/namespaces/default/pods/p?fieldManager=m type=apply \
         {\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
    assert_eq!(out[0]["code"], 201);
    assert_eq!(
        managed(&out[0]),
        json!([{"manager": "m", "operation": "Apply", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}])
    );
    assert_eq!(out[0]["body"]["status"], json!({"phase": "Pending", "qosClass": "BestEffort"}));
    assert_eq!(out[0]["body"]["metadata"].get("creationTimestamp"), Some(&json!("2026-01-01T00:00:00Z")));
}

/// A create that sets no field but the stripped ones (a ConfigMap with only a name) records no
/// entry, so the object starts untracked and later updates record nothing either
/// (`skipNonAppliedManager.Update`: no managers and a live object with a uid).
#[test]
fn a_create_without_fields_leaves_the_object_untracked() {
    let out = run(&format!(
        "POST {CM} {{\"metadata\":{{\"name\":\"a\"}}}}\nPATCH {CM}/a?fieldManager=m {{\"data\":{{\"x\":\"1\"}}}}"
    ));
    assert_eq!(out[0]["body"]["metadata"].get("managedFields"), None);
    assert_eq!(out[1]["body"]["data"], json!({"x": "1"}));
    assert_eq!(out[1]["body"]["metadata"].get("managedFields"), None);
}
