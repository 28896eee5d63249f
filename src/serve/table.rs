//! Server-side printing: a get, list or watch asked for with
//! `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (or `v=v1beta1`) is answered with a
//! `meta.k8s.io` `Table` — the columns of kube-apiserver's printers, one row per object with its
//! cells and the object (`includeObject`: `None`, `Metadata` as `PartialObjectMetadata` (the
//! default), or `Object`), and the list's `resourceVersion` / `continue` / `remainingItemCount`.
//! This is what `kubectl get` asks for and prints. The engine answers the request as always
//! (the record holds that answer); the Table is this HTTP layer's rendering of it.
//! Upstream: apiserver `pkg/endpoints/handlers/response.go` (`asTable`, `doTransformObject`),
//! `endpoints/handlers/negotiation`, kubernetes `pkg/printers/internalversion/printers.go`
//! (`printPod`, `printConfigMap`), `pkg/printers/storage/storage.go` (`Wide: true`),
//! `pkg/printers/tablegenerator.go` (list metadata), apimachinery `util/duration.HumanDuration`.

use serde_json::{Map, Value, json};

use super::schema;
use crate::apiserver::status::Status;

/// The `meta.k8s.io` version a Table was asked for in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableVersion {
    V1,
    V1beta1,
}

impl TableVersion {
    fn api_version(self) -> &'static str {
        match self {
            TableVersion::V1 => "meta.k8s.io/v1",
            TableVersion::V1beta1 => "meta.k8s.io/v1beta1",
        }
    }
}

/// What a row carries of its object (`metav1.IncludeObjectPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeObject {
    None,
    Metadata,
    Object,
}

/// What the request's `Accept` chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Json,
    Table(TableVersion),
    NotAcceptable,
}

/// A Table request: its version, what rows carry, and whether the column definitions are left
/// out (`TableOptions.NoHeaders`: a watch sends them with its first frame only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableRequest {
    pub version: TableVersion,
    pub include: IncludeObject,
    pub no_headers: bool,
}

/// One range of an `Accept` header: type, subtype (lower-cased) and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct MediaRange {
    pub ty: String,
    pub subtype: String,
    pub q: f32,
    pub params: Vec<(String, String)>,
}

impl MediaRange {
    fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// The ranges of an `Accept` header in order of preference: by `q`, stable, without `q=0`
/// (goautoneg `ParseAccept`, which both the apiserver and kube-openapi use). No header is `*/*`.
pub fn media_ranges(accept: Option<&str>) -> Vec<MediaRange> {
    let accept = accept.map(str::trim).filter(|a| !a.is_empty()).unwrap_or("*/*");
    let mut ranges: Vec<MediaRange> = accept
        .split(',')
        .map(|range| {
            let mut parts = range.split(';').map(str::trim);
            let full = parts.next().unwrap_or("").to_ascii_lowercase();
            let (ty, subtype) = full.split_once('/').unwrap_or((full.as_str(), "*"));
            let mut r =
                MediaRange { ty: ty.to_string(), subtype: subtype.to_string(), q: 1.0, params: Vec::new() };
            for p in parts {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
                if k == "q" {
                    r.q = v.parse().unwrap_or(0.0);
                } else {
                    r.params.push((k, v));
                }
            }
            r
        })
        .filter(|r| r.q > 0.0)
        .collect();
    ranges.sort_by(|a, b| b.q.total_cmp(&a.q));
    ranges
}

/// Negotiates the answer's shape for the API: the first range the server can produce wins —
/// plain JSON, or (for a GET) a Table in `meta.k8s.io` v1 or v1beta1. Other shapes
/// (`as=PartialObjectMetadata`, `as=APIGroupDiscoveryList`, a Table of another group) are skipped.
pub fn negotiate(accept: Option<&str>, get: bool) -> Output {
    media_ranges(accept)
        .iter()
        .find_map(|r| {
            let json_type =
                matches!((r.ty.as_str(), r.subtype.as_str()), ("application", "json" | "*") | ("*", "*"));
            match (json_type, r.param("as"), r.param("g"), r.param("v")) {
                (false, ..) => None,
                (true, None, ..) => Some(Output::Json),
                (true, Some("Table"), Some("meta.k8s.io"), Some("v1")) if get => {
                    Some(Output::Table(TableVersion::V1))
                }
                (true, Some("Table"), Some("meta.k8s.io"), Some("v1beta1")) if get => {
                    Some(Output::Table(TableVersion::V1beta1))
                }
                _ => None,
            }
        })
        .unwrap_or(Output::NotAcceptable)
}

/// `includeObject` from the query (`TableOptions`), or the 400 `asTable` answers.
pub fn include_object(target: &str) -> Result<IncludeObject, Status> {
    let query = target.split_once('?').map(|(_, q)| q).unwrap_or("");
    let value = query.split('&').find_map(|kv| kv.strip_prefix("includeObject="));
    match value {
        None | Some("") | Some("Metadata") => Ok(IncludeObject::Metadata),
        Some("None") => Ok(IncludeObject::None),
        Some("Object") => Ok(IncludeObject::Object),
        Some(other) => Err(Status::bad_request(&format!("unrecognized includeObject value: {other:?}"))),
    }
}

/// The Table for an answer body (an object or a list of pods or configmaps) at Unix time `now`;
/// anything else (a `Status`, another kind) is returned as it is (`doTransformObject` passes a
/// Status through).
pub fn to_table(body: &Value, req: TableRequest, now: i64) -> Value {
    let kind = body.get("kind").and_then(Value::as_str).unwrap_or("");
    let (item_kind, items): (&str, Vec<&Value>) = match kind {
        "PodList" | "ConfigMapList" => (
            kind.trim_end_matches("List"),
            body.get("items").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default(),
        ),
        "Pod" | "ConfigMap" => (kind, vec![body]),
        _ => return body.clone(),
    };
    // tablegenerator.go: no headers → `columnDefinitions` stays nil, which marshals as null.
    let columns = match (req.no_headers, item_kind) {
        (true, _) => Value::Null,
        (false, "Pod") => Value::Array(pod_columns()),
        (false, _) => Value::Array(configmap_columns()),
    };
    let rows: Vec<Value> = items
        .iter()
        .map(|item| {
            let (cells, conditions) =
                if item_kind == "Pod" { pod_row(item, now) } else { (configmap_row(item, now), None) };
            let mut row = Map::new();
            row.insert("cells".into(), Value::Array(cells));
            if let Some(c) = conditions {
                row.insert("conditions".into(), c);
            }
            row.insert("object".into(), row_object(item, item_kind, req));
            Value::Object(row)
        })
        .collect();
    // tablegenerator.go: a list's ListMeta, or an object's resourceVersion.
    let mut meta = Map::new();
    if items.len() == 1 && body.get("items").is_none() {
        if let Some(rv) = body.pointer("/metadata/resourceVersion") {
            meta.insert("resourceVersion".into(), rv.clone());
        }
    } else if let Some(m) = body.get("metadata").and_then(Value::as_object) {
        for k in ["resourceVersion", "continue", "remainingItemCount"] {
            if let Some(v) = m.get(k) {
                meta.insert(k.into(), v.clone());
            }
        }
    }
    json!({
        "kind": "Table",
        "apiVersion": req.version.api_version(),
        "metadata": meta,
        "columnDefinitions": columns,
        "rows": rows,
    })
}

/// One watch frame with its object as a one-row Table (watch.go `watchEmbeddedEncoder`: every
/// frame's object goes through `doTransformObject`, bookmarks too; an `ERROR` Status passes
/// through). The caller sets `no_headers` after the first frame.
pub fn watch_frame(frame: &Value, req: TableRequest, now: i64) -> Value {
    let object = frame.get("object").map(|o| to_table(o, req, now)).unwrap_or(Value::Null);
    json!({"type": frame.get("type").cloned().unwrap_or(Value::Null), "object": object})
}

fn row_object(item: &Value, kind: &str, req: TableRequest) -> Value {
    match req.include {
        // A nil RawExtension marshals as null.
        IncludeObject::None => Value::Null,
        IncludeObject::Metadata => json!({
            "kind": "PartialObjectMetadata",
            "apiVersion": req.version.api_version(),
            "metadata": item.get("metadata").cloned().unwrap_or_else(|| json!({})),
        }),
        IncludeObject::Object => {
            // ConvertToVersion sets the object's kind and apiVersion (list items have none).
            let mut o = Map::new();
            o.insert("kind".into(), json!(kind));
            o.insert("apiVersion".into(), json!("v1"));
            if let Some(m) = item.as_object() {
                for (k, v) in m.iter().filter(|(k, _)| *k != "kind" && *k != "apiVersion") {
                    o.insert(k.clone(), v.clone());
                }
            }
            Value::Object(o)
        }
    }
}

/// A field's description from the served types' table (the printers use the same `SwaggerDoc`).
fn doc(kind: &str, field: &str) -> &'static str {
    schema::message(kind).and_then(|m| m.fields.iter().find(|f| f.json == field)).map_or("", |f| f.doc)
}

fn column(name: &str, ty: &str, format: &str, description: &str, priority: u8) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": description, "priority": priority})
}

fn pod_columns() -> Vec<Value> {
    vec![
        column("Name", "string", "name", doc("ObjectMeta", "name"), 0),
        column("Ready", "string", "", "The aggregate readiness state of this pod for accepting traffic.", 0),
        column("Status", "string", "", "The aggregate status of the containers in this pod.", 0),
        column(
            "Restarts",
            "string",
            "",
            "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
            0,
        ),
        column("Age", "string", "", doc("ObjectMeta", "creationTimestamp"), 0),
        column("IP", "string", "", doc("PodStatus", "podIP"), 1),
        column("Node", "string", "", doc("PodSpec", "nodeName"), 1),
        column("Nominated Node", "string", "", doc("PodStatus", "nominatedNodeName"), 1),
        column("Readiness Gates", "string", "", doc("PodSpec", "readinessGates"), 1),
    ]
}

fn configmap_columns() -> Vec<Value> {
    vec![
        column("Name", "string", "name", doc("ObjectMeta", "name"), 0),
        column("Data", "integer", "", doc("ConfigMap", "data"), 0),
        column("Age", "string", "", doc("ObjectMeta", "creationTimestamp"), 0),
    ]
}

fn str_at<'a>(v: &'a Value, path: &str) -> &'a str {
    v.pointer(path).and_then(Value::as_str).unwrap_or("")
}

fn len_at(v: &Value, path: &str) -> usize {
    v.pointer(path).and_then(Value::as_object).map_or(0, Map::len)
}

/// `translateTimestampSince`: the age of an RFC 3339 time at `now`, or `<unknown>`.
fn age(ts: &str, now: i64) -> String {
    match crate::apiserver::object::parse_rfc3339_utc(ts) {
        Some(t) => human_duration(now - t),
        None => "<unknown>".into(),
    }
}

/// apimachinery `util/duration.HumanDuration` (seconds precision).
pub fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        let s = secs % 60;
        return if s == 0 { format!("{minutes}m") } else { format!("{minutes}m{s}s") };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 { format!("{hours}h") } else { format!("{hours}h{m}m") };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 { format!("{}d", hours / 24) } else { format!("{}d{h}h", hours / 24) };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

fn configmap_row(cm: &Value, now: i64) -> Vec<Value> {
    vec![
        json!(str_at(cm, "/metadata/name")),
        json!(len_at(cm, "/data") + len_at(cm, "/binaryData")),
        json!(age(str_at(cm, "/metadata/creationTimestamp"), now)),
    ]
}

fn arr<'a>(v: &'a Value, path: &str) -> &'a [Value] {
    v.pointer(path).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn condition_true(pod: &Value, ty: &str) -> bool {
    arr(pod, "/status/conditions").iter().any(|c| str_at(c, "/type") == ty && str_at(c, "/status") == "True")
}

/// The last termination time of a container status, as Unix seconds.
fn finished_at(cs: &Value) -> Option<i64> {
    crate::apiserver::object::parse_rfc3339_utc(str_at(cs, "/lastState/terminated/finishedAt"))
}

/// `printPod` with `Wide: true` (the server always prints wide; clients hide priority-1 columns):
/// the cells and the row's conditions for a finished pod.
fn pod_row(pod: &Value, now: i64) -> (Vec<Value>, Option<Value>) {
    let restart_count = |cs: &Value| cs.pointer("/restartCount").and_then(Value::as_i64).unwrap_or(0);
    let int_at = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_i64).unwrap_or(0);
    let phase = str_at(pod, "/status/phase");
    let mut reason = if str_at(pod, "/status/reason").is_empty() {
        phase.to_string()
    } else {
        str_at(pod, "/status/reason").to_string()
    };
    if arr(pod, "/status/conditions")
        .iter()
        .any(|c| str_at(c, "/type") == "PodScheduled" && str_at(c, "/reason") == "SchedulingGated")
    {
        reason = "SchedulingGated".into();
    }
    let conditions = match phase {
        "Succeeded" => Some(
            json!([{"type": "Completed", "status": "True", "reason": "Succeeded", "message": "The pod has completed successfully."}]),
        ),
        "Failed" => Some(
            json!([{"type": "Completed", "status": "True", "reason": "Failed", "message": "The pod failed."}]),
        ),
        _ => None,
    };
    let init_specs = arr(pod, "/spec/initContainers");
    let restartable = |name: &str| {
        init_specs.iter().any(|c| str_at(c, "/name") == name && str_at(c, "/restartPolicy") == "Always")
    };
    let total = arr(pod, "/spec/containers").len()
        + init_specs.iter().filter(|c| str_at(c, "/restartPolicy") == "Always").count();
    let mut ready = 0usize;
    let mut restarts = 0i64;
    let mut sidecar_restarts = 0i64;
    let mut last_restart: Option<i64> = None;
    let mut last_sidecar_restart: Option<i64> = None;
    let later = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    };
    let mut initializing = false;
    let init_statuses = arr(pod, "/status/initContainerStatuses");
    for (i, cs) in init_statuses.iter().enumerate() {
        restarts += restart_count(cs);
        last_restart = later(last_restart, finished_at(cs));
        let name = str_at(cs, "/name");
        if restartable(name) {
            sidecar_restarts += restart_count(cs);
            last_sidecar_restart = later(last_sidecar_restart, finished_at(cs));
        }
        let terminated = cs.pointer("/state/terminated");
        let waiting_reason = str_at(cs, "/state/waiting/reason");
        if terminated.is_some() && int_at(cs, "/state/terminated/exitCode") == 0 {
            continue;
        }
        if restartable(name) && cs.pointer("/started") == Some(&Value::Bool(true)) {
            if cs.pointer("/ready") == Some(&Value::Bool(true)) {
                ready += 1;
            }
            continue;
        }
        if terminated.is_some() {
            let r = str_at(cs, "/state/terminated/reason");
            let signal = int_at(cs, "/state/terminated/signal");
            reason = if !r.is_empty() {
                format!("Init:{r}")
            } else if signal != 0 {
                format!("Init:Signal:{signal}")
            } else {
                format!("Init:ExitCode:{}", int_at(cs, "/state/terminated/exitCode"))
            };
        } else if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" {
            reason = format!("Init:{waiting_reason}");
        } else {
            reason = format!("Init:{i}/{}", init_specs.len());
        }
        initializing = true;
        break;
    }
    if !initializing || condition_true(pod, "Initialized") {
        restarts = sidecar_restarts;
        last_restart = last_sidecar_restart;
        let mut has_running = false;
        for cs in arr(pod, "/status/containerStatuses").iter().rev() {
            restarts += restart_count(cs);
            last_restart = later(last_restart, finished_at(cs));
            let waiting = str_at(cs, "/state/waiting/reason");
            let terminated = cs.pointer("/state/terminated");
            let term_reason = str_at(cs, "/state/terminated/reason");
            if !waiting.is_empty() {
                reason = waiting.to_string();
            } else if terminated.is_some() && !term_reason.is_empty() {
                reason = term_reason.to_string();
            } else if terminated.is_some() {
                let signal = int_at(cs, "/state/terminated/signal");
                reason = if signal != 0 {
                    format!("Signal:{signal}")
                } else {
                    format!("ExitCode:{}", int_at(cs, "/state/terminated/exitCode"))
                };
            } else if cs.pointer("/ready") == Some(&Value::Bool(true))
                && cs.pointer("/state/running").is_some()
            {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if condition_true(pod, "Ready") { "Running".into() } else { "NotReady".into() };
        }
    }
    if pod.pointer("/metadata/deletionTimestamp").is_some() {
        if str_at(pod, "/status/reason") == "NodeLost" {
            reason = "Unknown".into();
        } else if phase != "Succeeded" && phase != "Failed" {
            reason = "Terminating".into();
        }
    }
    let restarts_cell = match last_restart {
        Some(t) if restarts != 0 => format!("{restarts} ({} ago)", human_duration(now - t)),
        _ => restarts.to_string(),
    };
    let none = |s: &str| if s.is_empty() { "<none>".to_string() } else { s.to_string() };
    let pod_ip = arr(pod, "/status/podIPs").first().map_or("", |ip| str_at(ip, "/ip"));
    let gates = arr(pod, "/spec/readinessGates");
    let gates_cell = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let true_count = gates
            .iter()
            .filter(|g| {
                let ty = str_at(g, "/conditionType");
                arr(pod, "/status/conditions")
                    .iter()
                    .find(|c| str_at(c, "/type") == ty)
                    .is_some_and(|c| str_at(c, "/status") == "True")
            })
            .count();
        format!("{true_count}/{}", gates.len())
    };
    let cells = vec![
        json!(str_at(pod, "/metadata/name")),
        json!(format!("{ready}/{total}")),
        json!(reason),
        json!(restarts_cell),
        json!(age(str_at(pod, "/metadata/creationTimestamp"), now)),
        json!(none(pod_ip)),
        json!(none(str_at(pod, "/spec/nodeName"))),
        json!(none(str_at(pod, "/status/nominatedNodeName"))),
        json!(gates_cell),
    ];
    (cells, conditions)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUBECTL_GET: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    #[test]
    fn negotiation_follows_the_accept_header() {
        assert_eq!(negotiate(Some(KUBECTL_GET), true), Output::Table(TableVersion::V1));
        assert_eq!(negotiate(Some(KUBECTL_GET), false), Output::Json, "Tables only for reads");
        assert_eq!(
            negotiate(Some("application/json;as=Table;v=v1beta1;g=meta.k8s.io"), true),
            Output::Table(TableVersion::V1beta1)
        );
        assert_eq!(negotiate(None, true), Output::Json);
        assert_eq!(
            negotiate(Some("application/json;as=Table;v=v2;g=meta.k8s.io"), true),
            Output::NotAcceptable
        );
        assert_eq!(
            negotiate(Some("application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5,application/json"), true),
            Output::Json
        );
        assert_eq!(negotiate(Some("application/vnd.kubernetes.protobuf"), true), Output::NotAcceptable);
        assert_eq!(negotiate(Some("application/vnd.kubernetes.protobuf, */*"), true), Output::Json);
        assert_eq!(negotiate(Some("text/html"), false), Output::NotAcceptable);
        // kubectl's aggregated discovery request falls back to plain JSON.
        assert_eq!(
            negotiate(
                Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"),
                true
            ),
            Output::Json
        );
        assert_eq!(
            negotiate(Some("application/json;as=Table;v=v1;g=meta.k8s.io"), false),
            Output::NotAcceptable
        );
        assert_eq!(include_object("/x?includeObject=Object").unwrap(), IncludeObject::Object);
        assert_eq!(include_object("/x?limit=1").unwrap(), IncludeObject::Metadata);
        assert_eq!(include_object("/x?includeObject=All").unwrap_err().code(), 400);
    }

    #[test]
    fn ages_are_human_durations() {
        // apimachinery pkg/util/duration/duration_test.go
        for (secs, text) in [
            (-2, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (150, "2m30s"),
            (600, "10m"),
            (10_799, "179m"),
            (10_800, "3h"),
            (3 * 3600 + 60, "3h1m"),
            (8 * 3600, "8h"),
            (47 * 3600, "47h"),
            (48 * 3600, "2d"),
            (49 * 3600, "2d1h"),
            (8 * 86_400, "8d"),
            (2 * 365 * 86_400, "2y"),
            (2 * 365 * 86_400 + 86_400, "2y1d"),
            (8 * 365 * 86_400, "8y"),
        ] {
            assert_eq!(human_duration(secs), text, "{secs}");
        }
    }

    #[test]
    fn pod_rows_follow_print_pod() {
        let req =
            TableRequest { version: TableVersion::V1, include: IncludeObject::Metadata, no_headers: false };
        let pod = json!({"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": "web", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"containers": [{"name": "a"}, {"name": "b"}], "nodeName": "n1",
                     "readinessGates": [{"conditionType": "example.com/gate"}]},
            "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}],
                "conditions": [{"type": "Ready", "status": "True"}, {"type": "example.com/gate", "status": "False"}],
                "containerStatuses": [
                    {"name": "a", "ready": true, "restartCount": 2, "state": {"running": {}},
                     "lastState": {"terminated": {"finishedAt": "2026-01-01T00:04:00Z"}}},
                    {"name": "b", "ready": false, "restartCount": 0, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}});
        let t = to_table(&pod, req, 1_767_225_600 + 600);
        assert_eq!(t["metadata"], json!({"resourceVersion": "7"}));
        assert_eq!(
            t["rows"][0]["cells"],
            json!(["web", "1/2", "CrashLoopBackOff", "2 (6m ago)", "10m", "10.0.0.5", "n1", "<none>", "0/1"])
        );
        assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");
        let names: Vec<&str> =
            t["columnDefinitions"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            ["Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node", "Readiness Gates"]
        );
        assert!(
            t["columnDefinitions"][0]["description"].as_str().unwrap().starts_with("Name must be unique")
        );
        let pending = json!({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Pending"}});
        assert_eq!(
            to_table(&pending, req, 0)["rows"][0]["cells"],
            json!(["p", "0/1", "Pending", "0", "<unknown>", "<none>", "<none>", "<none>", "<none>"])
        );
        let done = json!({"kind": "Pod", "metadata": {"name": "d"}, "status": {"phase": "Succeeded"}});
        assert_eq!(to_table(&done, req, 0)["rows"][0]["conditions"][0]["reason"], "Succeeded");
    }

    #[test]
    fn lists_keep_their_metadata_and_status_passes_through() {
        let list = json!({"kind": "ConfigMapList", "apiVersion": "v1",
            "metadata": {"resourceVersion": "9", "continue": "tok", "remainingItemCount": 1},
            "items": [{"metadata": {"name": "a", "creationTimestamp": "2026-01-01T00:00:00Z"}, "data": {"k": "v"}, "binaryData": {"b": "AA=="}}]});
        let req = TableRequest {
            version: TableVersion::V1beta1,
            include: IncludeObject::Object,
            no_headers: false,
        };
        let t = to_table(&list, req, 1_767_225_600 + 61);
        assert_eq!(t["apiVersion"], "meta.k8s.io/v1beta1");
        assert_eq!(
            t["metadata"],
            json!({"resourceVersion": "9", "continue": "tok", "remainingItemCount": 1})
        );
        assert_eq!(t["rows"][0]["cells"], json!(["a", 2, "61s"]));
        assert_eq!(t["rows"][0]["object"]["kind"], "ConfigMap");
        assert_eq!(t["rows"][0]["object"]["apiVersion"], "v1");
        let empty = json!({"kind": "PodList", "metadata": {"resourceVersion": "3"}, "items": []});
        assert_eq!(to_table(&empty, req, 0)["rows"], json!([]));
        let status = json!({"kind": "Status", "code": 404});
        assert_eq!(to_table(&status, req, 0), status);
        let none = TableRequest { version: TableVersion::V1, include: IncludeObject::None, no_headers: true };
        let frame = json!({"type": "ADDED", "object": {"kind": "ConfigMap", "metadata": {"name": "a"}}});
        let f = watch_frame(&frame, none, 0);
        assert_eq!(f["object"]["kind"], "Table");
        assert_eq!(f["object"]["rows"][0]["object"], Value::Null);
        assert_eq!(f["object"]["columnDefinitions"], Value::Null, "later frames carry no headers");
        let err = json!({"type": "ERROR", "object": {"kind": "Status", "code": 410}});
        assert_eq!(watch_frame(&err, none, 0), err);
    }
}
