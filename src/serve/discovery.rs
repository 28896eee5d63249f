//! What clients ask before they make a request: `/version`, `/api`, `/api/v1`, `/apis`, the root
//! path list and the health checks, for every resource the engine serves.
//! Upstream: apiserver `pkg/endpoints/discovery/{legacy,root,version}.go`, `pkg/server/routes/version.go`,
//! `k8s.io/apimachinery/pkg/version/types.go`.
//!
//! Aggregated discovery (`Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`)
//! is declined the way a server without it declines: the plain `APIVersions`/`APIGroupList` with
//! `Content-Type: application/json`, which makes client-go fall back to per-group discovery
//! (client-go `discovery/aggregated_discovery.go`, `discovery_client.go` `ServerGroupsAndResources`).

use serde_json::{Value, json};

use super::schema::{self, OpenApi};
use crate::apiserver::resource::{RESOURCES, ResourceInfo};

/// The verbs the engine serves on every resource, as core/v1 lists them (sorted).
pub const VERBS: &[&str] =
    &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

fn names(info: &ResourceInfo) -> (&'static str, &'static [&'static str], &'static [&'static str]) {
    // singularName, shortNames and categories as the real core/v1 discovery lists them.
    match info.resource {
        "pods" => ("pod", &["po"], &["all"]),
        "configmaps" => ("configmap", &["cm"], &[]),
        _ => ("", &[], &[]),
    }
}

/// `GET /version`, for the Kubernetes release the session models.
pub fn version(minor: u32) -> Value {
    json!({
        "major": "1",
        "minor": minor.to_string(),
        "emulationMajor": "1",
        "emulationMinor": minor.to_string(),
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": minor.saturating_sub(1).to_string(),
        "gitVersion": format!("v1.{minor}.0+rvlab"),
        "gitCommit": "0000000000000000000000000000000000000000",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.24.0",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

/// `GET /api`: `metav1.APIVersions`.
pub fn api_versions(server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]
    })
}

/// `GET /apis`: no groups beyond the core group are served.
pub fn api_group_list() -> Value {
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": []})
}

/// `GET /api/v1`: `metav1.APIResourceList` of the served core resources.
pub fn core_v1_resources() -> Value {
    let resources: Vec<Value> = RESOURCES
        .iter()
        .filter(|r| r.group.is_empty() && r.version == "v1")
        .map(|r| {
            let (singular, short, categories) = names(r);
            let mut o = json!({
                "name": r.resource,
                "singularName": singular,
                "namespaced": r.namespaced,
                "kind": r.kind,
                "verbs": VERBS,
            });
            if !short.is_empty() {
                o["shortNames"] = json!(short);
            }
            if !categories.is_empty() {
                o["categories"] = json!(categories);
            }
            o
        })
        .collect();
    json!({"kind": "APIResourceList", "groupVersion": "v1", "resources": resources})
}

/// `GET /openapi/v3`: the index of per-group-version documents (`handler3.OpenAPIV3Discovery`).
/// Only the core group is served. The `hash` is the document's, so a client's cache (kubectl
/// keeps one per server and hash) never holds an older document under it.
pub fn openapi_v3_index(version: &str) -> Value {
    let hash = content_hash(&openapi_v3_core(version));
    json!({"paths": {"api/v1": {"serverRelativeURL": format!("/openapi/v3/api/v1?hash={hash}")}}})
}

/// An upper-case hex digest of a document (FNV-1a 64; upstream uses SHA-512, any stable digest
/// of the content serves the cache).
fn content_hash(doc: &Value) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in doc.to_string().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016X}")
}

/// One served operation: path, method, `x-kubernetes-action`, and its query parameters (name,
/// type).
struct Operation {
    path: String,
    method: &'static str,
    action: &'static str,
    kind: &'static str,
    /// The definition its 200 answer carries.
    answer: String,
    params: Vec<(&'static str, &'static str)>,
}

/// Every operation on the served core/v1 resources, with the query parameters the handlers take
/// (the same list for both OpenAPI versions).
fn operations() -> Vec<Operation> {
    let write = vec![("dryRun", "string"), ("fieldManager", "string"), ("fieldValidation", "string")];
    let list = vec![
        ("allowWatchBookmarks", "boolean"),
        ("continue", "string"),
        ("fieldSelector", "string"),
        ("labelSelector", "string"),
        ("limit", "integer"),
        ("resourceVersion", "string"),
        ("resourceVersionMatch", "string"),
        ("sendInitialEvents", "boolean"),
        ("timeoutSeconds", "integer"),
        ("watch", "boolean"),
    ];
    let delete =
        vec![("dryRun", "string"), ("gracePeriodSeconds", "integer"), ("propagationPolicy", "string")];
    let mut ops = Vec::new();
    for r in RESOURCES.iter().filter(|r| r.group.is_empty() && r.version == "v1") {
        let def = |kind: &str| format!("io.k8s.api.core.v1.{kind}");
        let coll = format!("/api/v1/namespaces/{{namespace}}/{}", r.resource);
        let item = format!("{coll}/{{name}}");
        let status = "io.k8s.apimachinery.pkg.apis.meta.v1.Status".to_string();
        let mut patch = write.clone();
        patch.push(("force", "boolean"));
        let op =
            |path: &String, method, action, answer: String, params: &Vec<(&'static str, &'static str)>| {
                Operation { path: path.clone(), method, action, kind: r.kind, answer, params: params.clone() }
            };
        ops.push(op(&coll, "get", "list", def(&format!("{}List", r.kind)), &list));
        ops.push(op(&coll, "post", "post", def(r.kind), &write));
        ops.push(op(&coll, "delete", "deletecollection", status.clone(), &list));
        ops.push(op(&item, "get", "get", def(r.kind), &vec![]));
        ops.push(op(&item, "put", "put", def(r.kind), &write));
        ops.push(op(&item, "patch", "patch", def(r.kind), &patch));
        ops.push(op(&item, "delete", "delete", def(r.kind), &delete));
    }
    ops
}

fn operation_id(o: &Operation) -> String {
    let suffix = if o.action == "deletecollection" { "Collection" } else { "" };
    let verb = match o.action {
        "post" => "create",
        "put" => "replace",
        "get" => "read",
        "deletecollection" => "delete",
        a => a,
    };
    format!("{verb}CoreV1{suffix}Namespaced{}", o.kind)
}

/// The `paths` of either document: each operation with its query parameters, 200 answer and
/// `x-kubernetes-action` / `x-kubernetes-group-version-kind`.
fn paths(api: OpenApi) -> Value {
    let mut paths = serde_json::Map::new();
    for o in operations() {
        let params: Vec<Value> = o
            .params
            .iter()
            .map(|(name, ty)| match api {
                OpenApi::V2 => json!({"name": name, "in": "query", "type": ty, "uniqueItems": true}),
                OpenApi::V3 => {
                    json!({"name": name, "in": "query", "schema": {"type": ty, "uniqueItems": true}})
                }
            })
            .collect();
        let answer = match api {
            OpenApi::V2 => {
                json!({"description": "OK", "schema": {"$ref": format!("#/definitions/{}", o.answer)}})
            }
            OpenApi::V3 => {
                json!({"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{}", o.answer)}}}})
            }
        };
        let entry = paths.entry(o.path.clone()).or_insert_with(|| json!({}));
        entry[o.method] = json!({
            "operationId": operation_id(&o),
            "parameters": params,
            "responses": {"200": answer},
            "x-kubernetes-action": o.action,
            "x-kubernetes-group-version-kind": {"group": "", "version": "v1", "kind": o.kind},
        });
    }
    Value::Object(paths)
}

/// `GET /openapi/v3/api/v1`: the served core/v1 operations and the schemas of every type they
/// take and answer, as OpenAPI 3. kubectl reads it to learn that the server validates fields
/// itself (`fieldValidation` on PATCH: cli-runtime `query_param_verifier_v3.go`), for
/// `kubectl explain`, and for `kubectl apply`'s patch (the `x-kubernetes-patch-*` extensions).
pub fn openapi_v3_core(version: &str) -> Value {
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": version},
        "paths": paths(OpenApi::V3),
        "components": {"schemas": schema::definitions(OpenApi::V3)}
    })
}

/// `GET /openapi/v2`: the same operations and definitions as Swagger 2.0 (JSON, or protobuf
/// through [`super::openapi_pb`]).
pub fn openapi_v2(version: &str) -> Value {
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": version},
        "paths": paths(OpenApi::V2),
        "definitions": schema::definitions(OpenApi::V2)
    })
}

/// `GET /`: the root path list (`routes.Index`).
pub fn root_paths() -> Value {
    json!({"paths": ["/api", "/api/v1", "/apis", "/healthz", "/livez", "/openapi/v2", "/openapi/v3", "/readyz", "/rvlab/v1/live", "/rvlab/v1/script", "/version"]})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_served_resource_is_discoverable() {
        let list = core_v1_resources();
        let served: Vec<&str> =
            list["resources"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        for r in RESOURCES {
            assert!(served.contains(&r.resource), "{} missing from /api/v1", r.resource);
        }
        assert_eq!(list["resources"][1]["shortNames"], json!(["cm"]));
        assert_eq!(version(32)["gitVersion"], "v1.32.0+rvlab");
    }

    #[test]
    fn openapi_v3_says_patch_takes_field_validation_for_every_served_kind() {
        // cli-runtime query_param_verifier_v3.go: the PATCH operation with this GVK must list
        // the `fieldValidation` query parameter.
        let doc = openapi_v3_core("v1.36.0+rvlab");
        for r in RESOURCES {
            let p =
                &doc["paths"][format!("/api/v1/namespaces/{{namespace}}/{}/{{name}}", r.resource)]["patch"];
            assert_eq!(
                p["x-kubernetes-group-version-kind"],
                json!({"group": "", "version": "v1", "kind": r.kind})
            );
            assert!(
                p["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|q| q["name"] == "fieldValidation" && q["in"] == "query")
            );
        }
        let url = openapi_v3_index("v1.36.0+rvlab")["paths"]["api/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(url.starts_with("/openapi/v3/api/v1?hash="));
        assert_ne!(
            url,
            openapi_v3_index("v1.35.0+rvlab")["paths"]["api/v1"]["serverRelativeURL"].as_str().unwrap()
        );
    }

    #[test]
    fn both_documents_describe_the_same_operations_and_types() {
        let (v2, v3) = (openapi_v2("v1.36.0+rvlab"), openapi_v3_core("v1.36.0+rvlab"));
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&v2["paths"]), keys(&v3["paths"]));
        assert_eq!(keys(&v2["definitions"]), keys(&v3["components"]["schemas"]));
        let get = "/api/v1/namespaces/{namespace}/pods/{name}";
        assert_eq!(v2["paths"][get]["get"]["operationId"], "readCoreV1NamespacedPod");
        assert_eq!(
            v2["paths"][get]["get"]["responses"]["200"]["schema"]["$ref"],
            "#/definitions/io.k8s.api.core.v1.Pod"
        );
        assert_eq!(
            v3["paths"][get]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/io.k8s.api.core.v1.Pod"
        );
        // A described reference: v2 puts the description beside $ref, v3 wraps it in allOf.
        let spec2 = &v2["definitions"]["io.k8s.api.core.v1.Pod"]["properties"]["spec"];
        let spec3 = &v3["components"]["schemas"]["io.k8s.api.core.v1.Pod"]["properties"]["spec"];
        assert_eq!(spec2["$ref"], "#/definitions/io.k8s.api.core.v1.PodSpec");
        assert_eq!(spec3["allOf"][0]["$ref"], "#/components/schemas/io.k8s.api.core.v1.PodSpec");
        assert_eq!(spec2["description"], spec3["description"]);
        let containers = &v2["definitions"]["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(containers["x-kubernetes-list-map-keys"], json!(["name"]));
    }
}
