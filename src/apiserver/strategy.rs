//! Per-resource rules, in one place (k8s.io/apiserver `registry/rest` `RESTCreateStrategy`,
//! `RESTUpdateStrategy`, `RESTDeleteStrategy`, and each type's `strategy.go`, e.g.
//! `pkg/registry/core/pod/strategy.go`): validation, what a create or update fills in, and what
//! a delete answers with. The registry asks the strategy; nothing else tests `resource == "pods"`.

use serde_json::{Value, json};

use super::resource::ResourceInfo;
use super::status::FieldError;

/// How the registry treats objects of one resource.
pub trait Strategy: Sync {
    /// `Validate` / `ValidateUpdate`: the field errors that make the object invalid (422).
    fn validate(&self, _obj: &Value) -> Vec<FieldError> {
        Vec::new()
    }

    /// `PrepareForCreate`: defaults the server fills in before storing a new object.
    fn prepare_for_create(&self, _obj: &mut Value) {}

    /// `PrepareForUpdate`: what an update keeps from the stored object.
    fn prepare_for_update(&self, _obj: &mut Value, _old: &Value) {}

    /// Whether a delete answers with the object's last state (else a `Status`).
    fn returns_deleted_object(&self) -> bool {
        false
    }
}

/// Pods (`pkg/registry/core/pod/strategy.go`).
struct PodStrategy;

impl Strategy for PodStrategy {
    /// The checks a playground user can trip over: containers are required, each with a name
    /// and an image (`validation.ValidatePodSpec`).
    fn validate(&self, obj: &Value) -> Vec<FieldError> {
        let mut errs = vec![];
        let containers = obj.get("spec").and_then(|s| s.get("containers")).and_then(Value::as_array);
        match containers {
            None => errs.push(FieldError::required("spec.containers", "")),
            Some(list) if list.is_empty() => errs.push(FieldError::required("spec.containers", "")),
            Some(list) => {
                for (i, c) in list.iter().enumerate() {
                    for field in ["name", "image"] {
                        if c.get(field).and_then(Value::as_str).is_none_or(str::is_empty) {
                            errs.push(FieldError::required(format!("spec.containers[{i}].{field}"), ""));
                        }
                    }
                }
            }
        }
        errs
    }

    /// A new pod starts `Pending` (`podStrategy.PrepareForCreate` resets status). An empty
    /// `status` counts as none: Go clients (kubectl) always send the struct, as `{}`.
    fn prepare_for_create(&self, obj: &mut Value) {
        if no_status(obj)
            && let Value::Object(m) = obj
        {
            m.insert("status".into(), json!({"phase": "Pending", "qosClass": "BestEffort"}));
        }
    }

    /// An update through the main resource keeps the stored status (`podStrategy.PrepareForUpdate`).
    fn prepare_for_update(&self, obj: &mut Value, old: &Value) {
        if no_status(obj)
            && let (Value::Object(m), Some(st)) = (obj, old.get("status").cloned())
        {
            m.insert("status".into(), st);
        }
    }

    /// Pods answer a delete with their last state (graceful deletion's object).
    fn returns_deleted_object(&self) -> bool {
        true
    }
}

/// Types without special rules (ConfigMaps).
struct DefaultStrategy;

impl Strategy for DefaultStrategy {}

/// The strategy of a served resource.
pub fn for_resource(info: &ResourceInfo) -> &'static dyn Strategy {
    match info.resource {
        "pods" => &PodStrategy,
        _ => &DefaultStrategy,
    }
}

/// Whether an object carries no status: none, or the empty struct Go clients send.
fn no_status(obj: &Value) -> bool {
    obj.get("status").is_none_or(|s| s.as_object().is_some_and(serde_json::Map::is_empty))
}
