//! The served types' merge schema, shared by strategic merge patch ([`super::patch`]) and the
//! field manager ([`super::fieldmanager`]): which lists merge, and by which key.
//!
//! Upstream: the `patchStrategy` / `patchMergeKey` / `listType` tags of `k8s.io/api/core/v1`
//! (`types.go`), read by `strategicpatch` and by structured-merge-diff's schema.

/// The field schema strategic merge patch and apply need: which lists merge, and by which key
/// (the `patchStrategy:"merge"` / `patchMergeKey` tags of `k8s.io/api/core/v1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    ConfigMap,
    Pod,
}

impl Schema {
    pub fn of_resource(resource: &str) -> Schema {
        match resource {
            "pods" => Schema::Pod,
            _ => Schema::ConfigMap,
        }
    }
}

/// How a list at a path merges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    /// Replaced as a whole (no `patchStrategy`).
    Atomic,
    /// Merged by a key field of its elements.
    Keyed(&'static str),
    /// A set of scalars (`patchStrategy:"merge"` on `[]string`, e.g. finalizers).
    Set,
}

/// The list kind at `path` (field names from the root, list positions skipped).
pub(crate) fn list_kind(schema: Schema, path: &[&str]) -> ListKind {
    match path {
        ["metadata", "finalizers"] => return ListKind::Set,
        ["metadata", "ownerReferences"] => return ListKind::Keyed("uid"),
        _ => {}
    }
    if schema != Schema::Pod {
        return ListKind::Atomic;
    }
    match path {
        ["spec", "containers" | "initContainers" | "ephemeralContainers"] => ListKind::Keyed("name"),
        ["spec", "volumes" | "imagePullSecrets" | "resourceClaims" | "schedulingGates"] => {
            ListKind::Keyed("name")
        }
        ["spec", "containers" | "initContainers" | "ephemeralContainers", "ports"] => {
            ListKind::Keyed("containerPort")
        }
        ["spec", "containers" | "initContainers" | "ephemeralContainers", "env"] => ListKind::Keyed("name"),
        ["spec", "containers" | "initContainers" | "ephemeralContainers", "volumeMounts"] => {
            ListKind::Keyed("mountPath")
        }
        ["spec", "containers" | "initContainers" | "ephemeralContainers", "volumeDevices"] => {
            ListKind::Keyed("devicePath")
        }
        ["spec", "hostAliases"] => ListKind::Keyed("ip"),
        ["spec", "topologySpreadConstraints"] => ListKind::Keyed("topologyKey"),
        ["status", "conditions"] => ListKind::Keyed("type"),
        ["status", "podIPs" | "hostIPs"] => ListKind::Keyed("ip"),
        _ => ListKind::Atomic,
    }
}
