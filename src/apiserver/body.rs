//! Request bodies: decoding and the checks the create/update/delete handlers make on them.
//!
//! Owns the steps between "bytes arrived" and "storage is called": the JSON serializer's
//! `Interpret` (kind/apiVersion) and typed decode with their Go error texts, wrapped by the
//! handlers' `transformDecodeError` (400); the namespace checks
//! (`EnsureObjectNamespaceMatchesRequestNamespace`, `checkName`); and `ValidateObjectMeta` for
//! creates (422, name as DNS-1123 subdomain, labels). Pod/ConfigMap *spec* validation is out of
//! scope: the model accepts any spec.

use serde_json::{Map, Value};

use super::go::json::{self as gojson, GoValue};
use super::resource::{self, ResourceInfo};
use super::selector::{is_dns1123_subdomain, validate_label_key, validate_label_value};
use super::status::{FieldError, Status};

/// The name of the scheme the kube-apiserver registers core types in (`runtime.NewScheme`
/// call site), as it appears in `not registered` errors.
pub const LEGACY_SCHEME: &str = "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30";

const INTERPRET_STRUCT: &str = "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }";

/// `summarizeData(body, 30)`: `<empty>`, the text if it starts with `{`, else hex; cut at 30 bytes.
pub fn summarize(data: &[u8]) -> String {
    let cut = &data[..data.len().min(30)];
    let more = if data.len() > 30 { " ..." } else { "" };
    match data.first() {
        None => "<empty>".to_string(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(cut)),
        Some(_) => {
            let hex: String = cut.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    }
}

/// `schema.ParseGroupVersion`: `Err` for more than one `/`.
fn parse_group_version(gv: &str) -> Option<(String, String)> {
    if gv.is_empty() || gv == "/" {
        return Some((String::new(), String::new()));
    }
    match gv.matches('/').count() {
        0 => Some((String::new(), gv.to_string())),
        1 => gv.split_once('/').map(|(g, v)| (g.to_string(), v.to_string())),
        _ => None,
    }
}

fn members(v: &GoValue) -> &[(String, GoValue)] {
    match v {
        GoValue::Object(m) => m,
        _ => &[],
    }
}

/// A group/version/kind as the serializer resolved it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Gvk {
    group: String,
    version: String,
    kind: String,
}

impl Gvk {
    fn group_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }
}

/// `SimpleMetaFactory.Interpret`: `Err` = the Go error text.
fn interpret(v: &GoValue) -> Result<(String, String), String> {
    let fail = |e: String| format!("couldn't get version/kind; json parse error: {e}");
    match v {
        GoValue::Null => return Ok((String::new(), String::new())),
        GoValue::Object(_) => {}
        other => {
            return Err(fail(format!(
                "json: cannot unmarshal {} into Go value of type {INTERPRET_STRUCT}",
                other.type_word()
            )));
        }
    }
    let (mut api_version, mut kind) = (String::new(), String::new());
    let mut first_err = None;
    for (k, val) in members(v) {
        let field = if gojson::key_matches(k, "apiVersion") {
            "apiVersion"
        } else if gojson::key_matches(k, "kind") {
            "kind"
        } else {
            continue;
        };
        match (val, field) {
            (GoValue::Null, _) => {}
            (GoValue::Str(s), "apiVersion") => api_version = s.clone(),
            (GoValue::Str(s), _) => kind = s.clone(),
            (other, _) => {
                first_err.get_or_insert_with(|| {
                    format!(
                        "json: cannot unmarshal {} into Go struct field .{field} of type string",
                        other.type_word()
                    )
                });
            }
        }
    }
    match first_err {
        Some(e) => Err(fail(e)),
        None => Ok((api_version, kind)),
    }
}

/// Type checks of the typed (case-sensitive) decode into the object, for the fields the model
/// reads. `Err` = Go's `UnmarshalTypeError` text.
fn typed_check(info: &ResourceInfo, v: &GoValue) -> Result<(), String> {
    let type_err = |got: &GoValue, strukt: &str, field: &str, ty: &str| {
        format!(
            "json: cannot unmarshal {} into Go struct field {strukt}.{field} of type {ty}",
            got.type_word()
        )
    };
    let string_map = |val: &GoValue, strukt: &str, field: &str| -> Result<(), String> {
        match val {
            GoValue::Null => Ok(()),
            GoValue::Object(m) => {
                for (_, x) in m {
                    if !matches!(x, GoValue::Str(_) | GoValue::Null) {
                        return Err(type_err(x, strukt, field, "string"));
                    }
                }
                Ok(())
            }
            other => Err(type_err(other, strukt, field, "map[string]string")),
        }
    };
    for (k, val) in members(v) {
        match k.as_str() {
            "metadata" => match val {
                GoValue::Null => {}
                GoValue::Object(m) => {
                    for (mk, mv) in m {
                        match mk.as_str() {
                            "name" | "generateName" | "namespace" | "uid" | "resourceVersion"
                                if !matches!(mv, GoValue::Str(_) | GoValue::Null) =>
                            {
                                return Err(type_err(mv, "ObjectMeta", &format!("metadata.{mk}"), "string"));
                            }
                            "labels" | "annotations" => {
                                string_map(mv, "ObjectMeta", &format!("metadata.{mk}"))?;
                            }
                            _ => {}
                        }
                    }
                }
                other => return Err(type_err(other, info.kind, "metadata", "v1.ObjectMeta")),
            },
            "data" if info.kind == "ConfigMap" => string_map(val, info.kind, "data")?,
            _ => {}
        }
    }
    Ok(())
}

fn to_serde(v: &GoValue) -> Result<Value, String> {
    Ok(match v {
        GoValue::Null => Value::Null,
        GoValue::Bool(b) => Value::Bool(*b),
        GoValue::Str(s) => Value::String(s.clone()),
        GoValue::Number(n) => {
            if let Ok(i) = n.parse::<i64>() {
                Value::from(i)
            } else if let Ok(u) = n.parse::<u64>() {
                Value::from(u)
            } else {
                match n.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                    Some(f) => Value::Number(f),
                    None => {
                        return Err(format!(
                            "json: cannot unmarshal number {n} into Go value of type float64"
                        ));
                    }
                }
            }
        }
        GoValue::Array(items) => Value::Array(items.iter().map(to_serde).collect::<Result<_, _>>()?),
        GoValue::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                out.insert(k.clone(), to_serde(x)?);
            }
            Value::Object(out)
        }
    })
}

/// Decodes a create/update body for `info` like the JSON serializer + versioning codec +
/// `transformDecodeError`: 400 for bad JSON (`the object provided is unrecognized (must be of type
/// Pod): couldn't get version/kind; json parse error: ... (<summary>)`), for a kind/apiVersion that
/// is not `info`'s (`ConfigMap in version "v1" cannot be handled as a Pod: ...`) and for wrongly
/// typed metadata. Missing `kind`/`apiVersion` default to `info`'s and are filled in.
pub fn decode_json_body(info: &ResourceInfo, raw: &[u8]) -> Result<Value, Status> {
    let unrecognized = |e: String| {
        Status::bad_request(&format!(
            "the object provided is unrecognized (must be of type {}): {e} ({})",
            info.kind,
            summarize(raw)
        ))
    };
    let parsed = gojson::parse(raw)
        .map_err(|e| unrecognized(format!("couldn't get version/kind; json parse error: {e}")))?;
    let (api_version, kind) = interpret(&parsed).map_err(unrecognized)?;
    // schema.FromAPIVersionAndKind + gvkWithDefaults(actual, defaultGVK).
    let (mut group, mut version) = parse_group_version(&api_version).unwrap_or_default();
    let kind = if kind.is_empty() { info.kind.to_string() } else { kind };
    if version.is_empty() && group.is_empty() {
        group = info.group.to_string();
        version = info.version.to_string();
    }
    let gvk = Gvk { group, version, kind };
    let cannot_handle = |e: String| {
        Status::bad_request(&format!(
            "{} in version {} cannot be handled as a {}: {e}",
            gvk.kind,
            super::go::strconv::go_quote(&gvk.version),
            info.kind
        ))
    };
    if gvk.group != info.group || gvk.version != info.version || gvk.kind != info.kind {
        let registered = gvk.version == "v1" && resource::lookup_kind(&gvk.group, &gvk.kind).is_some();
        let err = if registered {
            let internal = if info.group.is_empty() { "core".to_string() } else { info.group.to_string() };
            format!("converting (v1.{}) to ({internal}.{}): unknown conversion", gvk.kind, info.kind)
        } else if gvk.version.is_empty() {
            format!(
                "no version {} has been registered in scheme {}",
                super::go::strconv::go_quote(&gvk.group_version()),
                super::go::strconv::go_quote(LEGACY_SCHEME)
            )
        } else {
            format!(
                "no kind {} is registered for version {} in scheme {}",
                super::go::strconv::go_quote(&gvk.kind),
                super::go::strconv::go_quote(&gvk.group_version()),
                super::go::strconv::go_quote(LEGACY_SCHEME)
            )
        };
        return Err(cannot_handle(err));
    }
    typed_check(info, &parsed).map_err(cannot_handle)?;
    let mut obj = match to_serde(&parsed).map_err(cannot_handle)? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    // Re-serialisation always writes kind and apiVersion first.
    let mut out = Map::new();
    out.insert("kind".to_string(), Value::String(info.kind.to_string()));
    out.insert("apiVersion".to_string(), Value::String(info.api_version()));
    obj.remove("kind");
    obj.remove("apiVersion");
    out.extend(obj);
    Ok(Value::Object(out))
}

fn meta_str<'a>(obj: &'a Value, field: &str) -> &'a str {
    obj.get("metadata").and_then(|m| m.get(field)).and_then(Value::as_str).unwrap_or("")
}

fn set_namespace(obj: &mut Value, ns: &str) {
    if let Some(o) = obj.as_object_mut() {
        let meta = o.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            *meta = Value::Object(Map::new());
        }
        if let Some(m) = meta.as_object_mut() {
            m.insert("namespace".to_string(), Value::String(ns.to_string()));
        }
    }
}

/// `rest.EnsureObjectNamespaceMatchesRequestNamespace`: an empty object namespace is set to the
/// request's; a different one is 400 `the namespace of the provided object does not match the namespace sent on the request`.
pub fn ensure_namespace(obj: &mut Value, request_ns: &str) -> Result<(), Status> {
    let obj_ns = meta_str(obj, "namespace").to_string();
    if obj_ns == request_ns {
        return Ok(());
    }
    if obj_ns.is_empty() {
        set_namespace(obj, request_ns);
        return Ok(());
    }
    if request_ns.is_empty() {
        return Ok(());
    }
    Err(Status::bad_request(
        "the namespace of the provided object does not match the namespace sent on the request",
    ))
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

/// `validation.IsDNS1123Label`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let b = value.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let valid = match (b.first(), b.last()) {
        (Some(f), Some(l)) => ok(f) && ok(l) && b.iter().all(|c| ok(c) || *c == b'-'),
        _ => false,
    };
    if !valid {
        errs.push(format!(
            "{DNS1123_LABEL_ERR} (e.g. 'my-name',  or '123-abc', regex used for validation is '{DNS1123_LABEL_FMT}')"
        ));
    }
    errs
}

/// `ValidateObjectMeta` for a namespaced type whose names are DNS-1123 subdomains (pods,
/// configmaps): generateName, name (`Required value: name or generateName is required`),
/// namespace, labels. Returns the field errors (empty = valid).
pub fn validate_object_meta(obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let generate_name = meta_str(obj, "generateName");
    if !generate_name.is_empty() {
        // NameIsDNSSubdomain(prefix=true) masks a trailing '-'.
        let masked = match generate_name.strip_suffix('-') {
            Some(p) => format!("{p}a"),
            None => generate_name.to_string(),
        };
        for m in is_dns1123_subdomain(&masked) {
            errs.push(FieldError::invalid("metadata.generateName", generate_name, m));
        }
    }
    let name = meta_str(obj, "name");
    if name.is_empty() {
        errs.push(FieldError::required("metadata.name", "name or generateName is required"));
    } else {
        for m in is_dns1123_subdomain(name) {
            errs.push(FieldError::invalid("metadata.name", name, m));
        }
    }
    let ns = meta_str(obj, "namespace");
    if ns.is_empty() {
        errs.push(FieldError::required("metadata.namespace", ""));
    } else {
        for m in is_dns1123_label(ns) {
            errs.push(FieldError::invalid("metadata.namespace", ns, m));
        }
    }
    if let Some(labels) = obj.pointer("/metadata/labels").and_then(Value::as_object) {
        for (k, v) in labels {
            for m in validate_label_key(k) {
                errs.push(FieldError::invalid("metadata.labels", k.as_str(), m));
            }
            let v = v.as_str().unwrap_or("");
            for m in validate_label_value(v) {
                errs.push(FieldError::invalid("metadata.labels", v, m));
            }
        }
    }
    errs
}

/// The checks on an already decoded object, in handler order.
///
/// * create (`url_name` = `None`): namespace (400 `the namespace of the provided object does not
///   match the namespace sent on the request`), then `ValidateObjectMeta` (422 `Pod "x" is invalid: ...`).
///   A `generateName` without `name` passes; generating the name is the caller's job.
/// * update (`url_name` = `Some(name)`): [`check_update_object`] (400s for name/namespace mismatch).
///
/// Returns the object with `metadata.namespace` set. Idempotent: `request::parse_request`
/// already ran it, running it again on `ApiRequest::body` is harmless.
pub fn decode_object(
    info: &ResourceInfo,
    namespace: Option<&str>,
    url_name: Option<&str>,
    body: &Value,
) -> Result<Value, Status> {
    if let Some(url_name) = url_name {
        return check_update_object(namespace.unwrap_or(""), url_name, body);
    }
    let mut obj = body.clone();
    if let Some(ns) = namespace {
        ensure_namespace(&mut obj, ns)?;
    }
    let mut errs = validate_object_meta(&obj);
    if meta_str(&obj, "name").is_empty() && !meta_str(&obj, "generateName").is_empty() {
        errs.retain(|e| e.field != "metadata.name");
    }
    if errs.is_empty() { Ok(obj) } else { Err(Status::invalid(info, meta_str(&obj, "name"), &errs)) }
}

/// POST body: [`decode_json_body`] then [`decode_object`].
pub fn decode_create(info: &ResourceInfo, namespace: &str, raw: &str) -> Result<Value, Status> {
    let obj = decode_json_body(info, raw.as_bytes())?;
    decode_object(info, Some(namespace), None, &obj)
}

/// The update handler's `checkName` then namespace defaulting: 400
/// `the name of the object (x) does not match the name on the URL (y)` or
/// `the namespace of the object (x) does not match the namespace on the request (y)`.
pub fn check_update_object(namespace: &str, url_name: &str, body: &Value) -> Result<Value, Status> {
    let mut obj = body.clone();
    let obj_name = meta_str(&obj, "name");
    if obj_name != url_name {
        return Err(Status::bad_request(&format!(
            "the name of the object ({obj_name}) does not match the name on the URL ({url_name})"
        )));
    }
    let obj_ns = meta_str(&obj, "namespace");
    if !namespace.is_empty() && !obj_ns.is_empty() && obj_ns != namespace {
        return Err(Status::bad_request(&format!(
            "the namespace of the object ({obj_ns}) does not match the namespace on the request ({namespace})"
        )));
    }
    ensure_namespace(&mut obj, namespace)?;
    Ok(obj)
}

/// PUT body: [`decode_json_body`] then [`check_update_object`]. Metadata validation on update
/// happens after the storage read in the real server; call [`validate_object_meta`] there.
pub fn decode_update(
    info: &ResourceInfo,
    namespace: &str,
    url_name: &str,
    raw: &str,
) -> Result<Value, Status> {
    let obj = decode_json_body(info, raw.as_bytes())?;
    check_update_object(namespace, url_name, &obj)
}

/// The parts of `metav1.DeleteOptions` the model uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    pub precondition_resource_version: Option<String>,
    pub precondition_uid: Option<String>,
    /// `gracePeriodSeconds` (body or query).
    pub grace_period_seconds: Option<i64>,
}

/// A DELETE body (`DeleteOptions`). Decode errors are returned by the real handler unwrapped,
/// i.e. as non-API errors (500, empty reason).
pub fn decode_delete_options(raw: &str) -> Result<DeleteOptions, Status> {
    let fail = |e: String| Status::non_api_error(&e);
    let parsed = gojson::parse(raw.as_bytes())
        .map_err(|e| fail(format!("couldn't get version/kind; json parse error: {e}")))?;
    interpret(&parsed).map_err(fail)?;
    let mut out = DeleteOptions::default();
    for (k, v) in members(&parsed) {
        match (k.as_str(), v) {
            ("preconditions", GoValue::Object(p)) => {
                for (pk, pv) in p {
                    let slot = match pk.as_str() {
                        "resourceVersion" => &mut out.precondition_resource_version,
                        "uid" => &mut out.precondition_uid,
                        _ => continue,
                    };
                    match pv {
                        GoValue::Str(s) => *slot = Some(s.clone()),
                        GoValue::Null => {}
                        other => {
                            return Err(fail(format!(
                                "json: cannot unmarshal {} into Go struct field Preconditions.preconditions.{pk} of type string",
                                other.type_word()
                            )));
                        }
                    }
                }
            }
            ("preconditions", GoValue::Null) => {}
            ("preconditions", other) => {
                return Err(fail(format!(
                    "json: cannot unmarshal {} into Go struct field DeleteOptions.preconditions of type v1.Preconditions",
                    other.type_word()
                )));
            }
            ("gracePeriodSeconds", GoValue::Number(n)) => {
                out.grace_period_seconds = super::go::strconv::go_parse_int(n).ok();
            }
            _ => {}
        }
    }
    Ok(out)
}
