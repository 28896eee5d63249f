//! Per-resource rules, in one place (k8s.io/apiserver `registry/rest` `RESTCreateStrategy`,
//! `RESTUpdateStrategy`, `RESTDeleteStrategy`, and each type's `strategy.go`, e.g.
//! `pkg/registry/core/pod/strategy.go`): validation, what a create or update fills in, and what
//! a delete answers with. The registry asks the strategy; nothing else tests `resource == "pods"`.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

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

    /// `podStrategy.PrepareForCreate`: whatever status the client sent, a new pod starts
    /// `{phase: Pending, qosClass: GetPodQOS(pod)}` — `GetPodQOS` reads the client's
    /// `status.qosClass` if it sent one (Go evaluates it before the status is replaced), else
    /// computes it; a pod with scheduling gates gets the `PodScheduled=False` condition
    /// (`applySchedulingGatedCondition`).
    fn prepare_for_create(&self, obj: &mut Value) {
        let qos = obj
            .get("status")
            .and_then(|s| s.get("qosClass"))
            .and_then(Value::as_str)
            .filter(|q| !q.is_empty())
            .map_or_else(|| compute_pod_qos(obj).to_string(), str::to_string);
        let gated = obj
            .get("spec")
            .and_then(|s| s.get("schedulingGates"))
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty());
        let mut status = Map::new();
        status.insert("phase".into(), json!("Pending"));
        if gated {
            status.insert(
                "conditions".into(),
                json!([{"type": "PodScheduled", "status": "False", "lastProbeTime": null, "lastTransitionTime": null,
                        "reason": "SchedulingGated", "message": "Scheduling is blocked due to non-empty scheduling gates"}]),
            );
        }
        status.insert("qosClass".into(), Value::String(qos));
        if let Value::Object(m) = obj {
            m.insert("status".into(), Value::Object(status));
        }
    }

    /// `podStrategy.PrepareForUpdate`: an update through the main resource keeps the stored
    /// status, whatever the body says (status changes go through `pods/status`).
    fn prepare_for_update(&self, obj: &mut Value, old: &Value) {
        if let Value::Object(m) = obj {
            match old.get("status").cloned() {
                Some(st) => {
                    m.insert("status".into(), st);
                }
                None => {
                    m.shift_remove("status");
                }
            }
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

/// `ComputePodQOS` (`pkg/apis/core/helper/qos/qos.go` @ v1.34.0) over the containers and init
/// containers: only cpu and memory count, and only quantities above zero; requests are first
/// defaulted from limits as decoding a Pod does (`SetDefaults_Pod`). No request or limit:
/// BestEffort; every container limiting both cpu and memory, with the summed requests equal to
/// the summed limits: Guaranteed; else Burstable. (Pod-level `spec.resources`, used from
/// 1.34 with `PodLevelResources`, is not modelled.)
pub fn compute_pod_qos(pod: &Value) -> &'static str {
    const QOS: [&str; 2] = ["cpu", "memory"];
    let mut requests: BTreeMap<&str, i128> = BTreeMap::new();
    let mut limits: BTreeMap<&str, i128> = BTreeMap::new();
    let mut guaranteed = true;
    let spec = pod.get("spec");
    let containers = ["containers", "initContainers"]
        .into_iter()
        .filter_map(|f| spec.and_then(|s| s.get(f)).and_then(Value::as_array))
        .flatten();
    for c in containers {
        let res = c.get("resources");
        let list = |f: &str| res.and_then(|r| r.get(f)).and_then(Value::as_object);
        let (req, lim) = (list("requests"), list("limits"));
        let mut limits_found = 0;
        for name in QOS {
            let quantity = |l: Option<&Map<String, Value>>| {
                l.and_then(|m| m.get(name)).and_then(Value::as_str).and_then(parse_quantity_nanos)
            };
            let l = quantity(lim);
            // `SetDefaults_Pod`: a limit without a request is also the request.
            let r = if req.is_some_and(|m| m.contains_key(name)) { quantity(req) } else { l };
            if let Some(r) = r.filter(|v| *v > 0) {
                *requests.entry(name).or_default() += r;
            }
            if let Some(l) = l.filter(|v| *v > 0) {
                limits_found += 1;
                *limits.entry(name).or_default() += l;
            }
        }
        if limits_found < QOS.len() {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests.iter().all(|(n, r)| limits.get(n) == Some(r)) && requests.len() == limits.len()
    {
        return "Guaranteed";
    }
    "Burstable"
}

/// A `resource.Quantity` (`k8s.io/apimachinery/pkg/api/resource` `ParseQuantity`) in
/// nano-units, rounded up as the type rounds below its nano precision: `500m`, `1.5`, `2Gi`,
/// `1e3`, `128974848`. `None` for what does not parse (or does not fit).
pub fn parse_quantity_nanos(s: &str) -> Option<i128> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let num_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let (num, suffix) = rest.split_at(num_end);
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if int.is_empty() && frac.is_empty() || frac.contains('.') {
        return None;
    }
    let (exp10, exp2): (i32, u32) = match suffix {
        "" => (0, 0),
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 10),
        "Mi" => (0, 20),
        "Gi" => (0, 30),
        "Ti" => (0, 40),
        "Pi" => (0, 50),
        "Ei" => (0, 60),
        e if e.starts_with(['e', 'E']) => (e[1..].parse::<i32>().ok().filter(|x| x.abs() <= 40)?, 0),
        _ => return None,
    };
    let digits = format!("{int}{frac}");
    let mantissa: i128 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
    let mut v = mantissa.checked_mul(1i128.checked_shl(exp2)?)?;
    let shift = 9 + exp10 - i32::try_from(frac.len()).ok()?;
    if shift >= 0 {
        v = v.checked_mul(10i128.checked_pow(u32::try_from(shift).ok()?)?)?;
    } else {
        let d = 10i128.checked_pow(u32::try_from(-shift).ok()?)?;
        v = (v + d - 1) / d;
    }
    Some(if neg { -v } else { v })
}
