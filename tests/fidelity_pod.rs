//! What the pod strategy sets on create and keeps on update (docs/semantics.md §B "Pods").
//!
//! Upstream @ v1.34.0: `pkg/registry/core/pod/strategy.go` (`PrepareForCreate`: `pod.Status =
//! api.PodStatus{Phase: Pending, QOSClass: qos.GetPodQOS(pod)}`, `applySchedulingGatedCondition`;
//! `PrepareForUpdate`: `newPod.Status = oldPod.Status`), `pkg/apis/core/helper/qos/qos.go`
//! (`GetPodQOS`, `ComputePodQOS`; the cases follow `qos_test.go`), `pkg/apis/core/v1/defaults.go`
//! (`SetDefaults_Pod`: requests default to limits), `k8s.io/api/core/v1/types.go`
//! (`PodReasonSchedulingGated`, `PodCondition` field order).
#![cfg(not(target_arch = "wasm32"))]

use rvlab::apiserver::strategy::{compute_pod_qos, parse_quantity_nanos};
use rvlab::script::Session;
use serde_json::{Value, json};

fn pod(containers: Value) -> Value {
    json!({"spec": {"containers": containers}})
}

fn c(resources: Value) -> Value {
    json!({"name": "c", "image": "i", "resources": resources})
}

#[test]
fn qos_class_follows_compute_pod_qos() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("no resources", pod(json!([{"name": "c", "image": "i"}])), "BestEffort"),
        (
            "zero requests do not count",
            pod(json!([c(json!({"requests": {"cpu": "0", "memory": "0"}}))])),
            "BestEffort",
        ),
        (
            "only non-QoS resources",
            pod(json!([c(json!({"limits": {"ephemeral-storage": "1Gi", "hugepages-2Mi": "2Mi"}}))])),
            "BestEffort",
        ),
        ("a cpu request only", pod(json!([c(json!({"requests": {"cpu": "100m"}}))])), "Burstable"),
        (
            "limits only: requests default to them",
            pod(json!([c(json!({"limits": {"cpu": "1", "memory": "1Gi"}}))])),
            "Guaranteed",
        ),
        (
            "equal as quantities (1 = 1000m, 1Gi = 1073741824)",
            pod(json!([c(json!({"requests": {"cpu": "1000m", "memory": "1073741824"},
                                "limits": {"cpu": "1", "memory": "1Gi"}}))])),
            "Guaranteed",
        ),
        (
            "requests below limits",
            pod(json!([c(
                json!({"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "1Gi"}})
            )])),
            "Burstable",
        ),
        (
            "a container without a memory limit",
            pod(json!([c(json!({"limits": {"cpu": "1", "memory": "1Gi"}})),
                       {"name": "d", "image": "i", "resources": {"limits": {"cpu": "1"}}}])),
            "Burstable",
        ),
        (
            "a best-effort init container",
            json!({"spec": {"initContainers": [{"name": "init", "image": "i"}],
                            "containers": [c(json!({"limits": {"cpu": "1", "memory": "1Gi"}}))]}}),
            "Burstable",
        ),
    ];
    for (what, p, want) in cases {
        assert_eq!(compute_pod_qos(&p), want, "{what}: {p}");
    }
}

#[test]
fn quantities_parse_as_resource_quantity() {
    for (q, nanos) in [
        ("1", 1_000_000_000),
        ("500m", 500_000_000),
        ("1.5", 1_500_000_000),
        ("2Ki", 2048 * 1_000_000_000),
        ("1e3", 1_000 * 1_000_000_000),
        ("1E", 1_000_000_000_000_000_000 * 1_000_000_000),
        ("0.1n", 1),
        ("-2", -2_000_000_000),
    ] {
        assert_eq!(parse_quantity_nanos(q), Some(nanos), "{q}");
    }
    for bad in ["", "m", "1.2.3", "1x", "Ki", "1e", "99999999999999999999999999999999999999Ei"] {
        assert_eq!(parse_quantity_nanos(bad), None, "{bad}");
    }
}

fn run(script: &str) -> Vec<Value> {
    Session::new().run_script(script)
}

/// Create resets the status the client sent — except `qosClass`, which `GetPodQOS` reads
/// from it before the reset; a gated pod is `PodScheduled=False`; an update keeps the stored
/// status whatever the body says.
#[test]
fn create_resets_status_and_update_keeps_it() {
    let out = run(
        "POST /api/v1/namespaces/default/pods {\"metadata\":{\"name\":\"g\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\
         \"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]},\"status\":{\"phase\":\"Running\",\"podIP\":\"10.0.0.1\"}}\n\
         POST /api/v1/namespaces/default/pods {\"metadata\":{\"name\":\"q\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},\
         \"status\":{\"qosClass\":\"Guaranteed\"}}\n\
         POST /api/v1/namespaces/default/pods {\"metadata\":{\"name\":\"s\"},\"spec\":{\"schedulingGates\":[{\"name\":\"example.com/wait\"}],\
         \"containers\":[{\"name\":\"c\",\"image\":\"i\",\"resources\":{\"requests\":{\"memory\":\"64Mi\"}}}]}}\n\
         PUT /api/v1/namespaces/default/pods/g {\"metadata\":{\"name\":\"g\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"j\",\
         \"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]},\"status\":{\"phase\":\"Failed\"}}\n\
         GET /api/v1/pods?fieldSelector=status.phase%3DRunning",
    );
    assert_eq!(out[0]["body"]["status"], json!({"phase": "Pending", "qosClass": "Guaranteed"}));
    assert_eq!(out[1]["body"]["status"], json!({"phase": "Pending", "qosClass": "Guaranteed"}));
    assert_eq!(
        serde_json::to_string(&out[2]["body"]["status"]).unwrap_or_default(),
        r#"{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","lastProbeTime":null,"lastTransitionTime":null,"reason":"SchedulingGated","message":"Scheduling is blocked due to non-empty scheduling gates"}],"qosClass":"Burstable"}"#
    );
    assert_eq!(out[3]["code"], 200);
    assert_eq!(out[3]["body"]["spec"]["containers"][0]["image"], "j");
    assert_eq!(out[3]["body"]["status"], json!({"phase": "Pending", "qosClass": "Guaranteed"}));
    assert_eq!(out[4]["body"]["items"], json!([]));
}
