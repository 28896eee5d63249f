//! The resources this apiserver serves (spec §B): their names, API group/version and kinds.
//!
//! Owns the static resource table and the lookups the request parser and the storage paths
//! use to turn a URL segment into a [`ResourceInfo`]. Both served types live in the core group
//! (`""`, version `v1`) and are namespaced, like in a real cluster.

/// Where every object is stored in etcd: kube-apiserver's `--etcd-prefix` default
/// (`DefaultEtcdPathPrefix = "/registry"`) with the `/` the key functions add. The one place the
/// key layout `/registry/<resource>/<namespace>/<name>` starts; keys are built by
/// [`ResourceInfo::object_key`] and read back by [`split_key`].
pub const KEY_PREFIX: &str = "/registry/";

/// One served resource type, as kube-apiserver's `APIResource` describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResourceInfo {
    /// Plural, lower-case resource name used in URLs and etcd keys (`pods`).
    pub resource: &'static str,
    /// API group; `""` is the legacy core group served under `/api`.
    pub group: &'static str,
    /// API version (`v1`).
    pub version: &'static str,
    /// Kind of one object (`Pod`).
    pub kind: &'static str,
    /// Kind of the list object (`PodList`).
    pub list_kind: &'static str,
    /// Whether objects live in a namespace.
    pub namespaced: bool,
}

impl ResourceInfo {
    /// The group-qualified resource as `schema.GroupResource.String()` prints it:
    /// `pods` for the core group, `deployments.apps` otherwise.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.resource.to_string()
        } else {
            format!("{}.{}", self.resource, self.group)
        }
    }

    /// The group-qualified kind as `schema.GroupKind.String()` prints it: `Pod`, `Deployment.apps`.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() { self.kind.to_string() } else { format!("{}.{}", self.kind, self.group) }
    }

    /// The `apiVersion` of objects of this type: `v1` for the core group, `group/v1` otherwise.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The etcd key prefix of this resource (`/registry/pods/`), spec conventions.
    pub fn key_root(&self) -> String {
        format!("{KEY_PREFIX}{}/", self.resource)
    }

    /// The key prefix a request covers: one namespace of a namespaced type, else the whole type.
    pub fn key_prefix(&self, namespace: Option<&str>) -> String {
        match (self.namespaced, namespace) {
            (true, Some(ns)) => format!("{}{ns}/", self.key_root()),
            _ => self.key_root(),
        }
    }

    /// The etcd key of one object (`/registry/pods/default/a`).
    pub fn object_key(&self, namespace: Option<&str>, name: &str) -> String {
        format!("{}{name}", self.key_prefix(namespace))
    }
}

/// Core `v1` Pods (`/api/v1/namespaces/{ns}/pods`).
pub const PODS: ResourceInfo = ResourceInfo {
    resource: "pods",
    group: "",
    version: "v1",
    kind: "Pod",
    list_kind: "PodList",
    namespaced: true,
};

/// Core `v1` ConfigMaps (`/api/v1/namespaces/{ns}/configmaps`).
pub const CONFIGMAPS: ResourceInfo = ResourceInfo {
    resource: "configmaps",
    group: "",
    version: "v1",
    kind: "ConfigMap",
    list_kind: "ConfigMapList",
    namespaced: true,
};

/// Every served resource.
pub const RESOURCES: &[ResourceInfo] = &[PODS, CONFIGMAPS];

/// A stored key's resource segment and the rest below it: `/registry/pods/default/a` →
/// `("pods", "default/a")`; None for a key outside [`KEY_PREFIX`] or without a resource.
pub fn split_key(key: &str) -> Option<(&str, &str)> {
    let below = key.strip_prefix(KEY_PREFIX)?;
    let (resource, rest) = below.split_once('/').unwrap_or((below, ""));
    (!resource.is_empty()).then_some((resource, rest))
}

/// The served resource with this plural name (exact, case-sensitive, as the real router).
pub fn lookup(resource: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.resource == resource)
}

/// The served resource whose kind is `kind` in group `group` (used when decoding bodies).
pub fn lookup_kind(group: &str, kind: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.group == group && r.kind == kind)
}
