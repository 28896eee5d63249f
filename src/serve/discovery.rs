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
/// Only the core group is served.
pub fn openapi_v3_index() -> Value {
    json!({"paths": {"api/v1": {"serverRelativeURL": format!("/openapi/v3/api/v1?hash={OPENAPI_V1_HASH}")}}})
}

/// The `hash` of the core/v1 document (fixed: the document never changes while serving).
pub const OPENAPI_V1_HASH: &str = "5D2B0E1F0A7C6B3D";

/// `GET /openapi/v3/api/v1`: the operations of the served core/v1 resources as OpenAPI 3 — each
/// path with its verbs, the query parameters the handlers take and the
/// `x-kubernetes-group-version-kind` extension. kubectl reads it to learn that the server
/// validates fields itself (`fieldValidation` on PATCH: cli-runtime `query_param_verifier_v3.go`),
/// so it sends `fieldValidation=Strict` instead of validating against schemas. Object schemas are
/// not included (`components.schemas` is empty).
pub fn openapi_v3_core(version: &str) -> Value {
    let q = |name: &str, ty: &str| json!({"name": name, "in": "query", "schema": {"type": ty, "uniqueItems": true}});
    let mut paths = serde_json::Map::new();
    for r in RESOURCES.iter().filter(|r| r.group.is_empty() && r.version == "v1") {
        let gvk = json!({"group": "", "version": "v1", "kind": r.kind});
        let op = |action: &str, id: &str, params: Vec<Value>| {
            json!({
                "operationId": format!("{action}CoreV1Namespaced{}{id}", r.kind),
                "parameters": params,
                "responses": {"200": {"description": "OK"}},
                "x-kubernetes-action": action,
                "x-kubernetes-group-version-kind": gvk,
            })
        };
        let write =
            || vec![q("dryRun", "string"), q("fieldManager", "string"), q("fieldValidation", "string")];
        let mut patch = write();
        patch.push(q("force", "boolean"));
        let list_params = || {
            vec![
                q("allowWatchBookmarks", "boolean"),
                q("continue", "string"),
                q("fieldSelector", "string"),
                q("labelSelector", "string"),
                q("limit", "integer"),
                q("resourceVersion", "string"),
                q("resourceVersionMatch", "string"),
                q("sendInitialEvents", "boolean"),
                q("timeoutSeconds", "integer"),
                q("watch", "boolean"),
            ]
        };
        paths.insert(
            format!("/api/v1/namespaces/{{namespace}}/{}", r.resource),
            json!({
                "get": op("list", "", list_params()),
                "post": op("post", "", write()),
                "delete": op("deletecollection", "", list_params()),
            }),
        );
        paths.insert(
            format!("/api/v1/namespaces/{{namespace}}/{}/{{name}}", r.resource),
            json!({
                "get": op("get", "", vec![]),
                "put": op("put", "", write()),
                "patch": op("patch", "", patch),
                "delete": op("delete", "", vec![q("dryRun", "string"), q("gracePeriodSeconds", "integer"), q("propagationPolicy", "string")]),
            }),
        );
    }
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": version},
        "paths": paths,
        "components": {"schemas": {}}
    })
}

/// `GET /`: the root path list (`routes.Index`).
pub fn root_paths() -> Value {
    json!({"paths": ["/api", "/api/v1", "/apis", "/healthz", "/livez", "/openapi/v3", "/readyz", "/rvlab/v1/live", "/rvlab/v1/script", "/version"]})
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
        let url = openapi_v3_index()["paths"]["api/v1"]["serverRelativeURL"].as_str().unwrap().to_string();
        assert!(url.starts_with("/openapi/v3/api/v1?hash="));
    }
}
