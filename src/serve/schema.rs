//! The served Kubernetes types as one field table ([`super::schema_table`], generated from
//! k8s-pb's messages and the upstream Go types' JSON names by `gen/k8s_schema.py`), and the two
//! things made from it: protobuf bodies decoded into the JSON a client would have sent
//! ([`decode`]), and the OpenAPI definitions of `/openapi/v2` and `/openapi/v3` ([`definitions`]).
//! One table, so what kubectl may send and what `kubectl explain` shows cannot disagree.
//!
//! Decoding follows Go: a message is decoded into the Go struct (gogo-protobuf, as the
//! apiserver's serializer does) and the struct is marshalled with `encoding/json`. A field absent
//! from the wire is its zero value: omitted, unless it is required ([`REQ`]: `""`, `0`, `false`,
//! `null` for a list, map or pointer) or a struct value ([`VAL`]: the zero struct). A present
//! scalar is written unless it is zero and its Go field is a value with `omitempty` (gogo
//! encodes those even when zero); pointers ([`PTR`]) and required fields are written even when
//! zero; embedded structs
//! ([`INLINE`]) put their fields into the parent object; `metav1.Time` is RFC 3339 (`null` when
//! zero), `resource.Quantity` its string, `intstr.IntOrString` a number or a string, `FieldsV1`
//! its JSON, bytes base64.
//! Upstream: apimachinery `pkg/runtime/serializer/protobuf`, `k8s.io/api/core/v1/generated.proto`,
//! `types.go`; kube-openapi `pkg/builder` (definitions named `io.k8s.api.core.v1.Pod`).

use serde_json::{Map, Value, json};

pub use super::schema_types::{Card, Field, INLINE, Msg, PTR, REQ, Ty, VAL};

/// The message of a served kind (`Pod`, `ConfigMap`, `DeleteOptions`, …).
pub fn message(kind: &str) -> Option<&'static Msg> {
    super::schema_table::ALL.iter().copied().find(|m| m.name == kind)
}

/// Why bytes are not a message of the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("unexpected EOF")]
    Eof,
    #[error("integer overflow")]
    Overflow,
    #[error("illegal wireType {0} for field {1}")]
    WireType(u8, String),
    #[error("invalid field number 0")]
    ZeroTag,
    #[error("message nested too deeply")]
    TooDeep,
    #[error("{0}: invalid FieldsV1 JSON: {1}")]
    FieldsV1(String, String),
}

const MAX_DEPTH: usize = 64;

/// One value as it came off the wire.
#[derive(Debug, Clone, Copy)]
enum Raw<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

struct Reader<'a> {
    b: &'a [u8],
}

impl<'a> Reader<'a> {
    fn varint(&mut self) -> Result<u64, WireError> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let (&byte, rest) = self.b.split_first().ok_or(WireError::Eof)?;
            self.b = rest;
            if i == 9 && byte > 1 {
                return Err(WireError::Overflow);
            }
            v |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(v);
            }
        }
        Err(WireError::Overflow)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if n > self.b.len() {
            return Err(WireError::Eof);
        }
        let (a, rest) = self.b.split_at(n);
        self.b = rest;
        Ok(a)
    }

    /// The next (tag, value), or `None` at the end.
    fn next(&mut self) -> Result<Option<(u32, Raw<'a>)>, WireError> {
        if self.b.is_empty() {
            return Ok(None);
        }
        let key = self.varint()?;
        let tag = u32::try_from(key >> 3).map_err(|_| WireError::Overflow)?;
        if tag == 0 {
            return Err(WireError::ZeroTag);
        }
        let raw = match key & 7 {
            0 => Raw::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Raw::Fixed
            }
            2 => {
                let n = usize::try_from(self.varint()?).map_err(|_| WireError::Overflow)?;
                Raw::Bytes(self.take(n)?)
            }
            5 => {
                self.take(4)?;
                Raw::Fixed
            }
            w => return Err(WireError::WireType(w as u8, tag.to_string())),
        };
        Ok(Some((tag, raw)))
    }
}

/// Decodes the bytes of message `msg` into its JSON object.
pub fn decode(msg: &Msg, bytes: &[u8]) -> Result<Map<String, Value>, WireError> {
    let mut out = Map::new();
    decode_into(msg, bytes, 0, &mut out)?;
    Ok(out)
}

fn decode_into(msg: &Msg, bytes: &[u8], depth: usize, out: &mut Map<String, Value>) -> Result<(), WireError> {
    if depth > MAX_DEPTH {
        return Err(WireError::TooDeep);
    }
    // Every occurrence of each field (unknown fields are skipped, as gogo's Unmarshal does).
    let mut seen: Vec<Vec<Raw<'_>>> = vec![Vec::new(); msg.fields.len()];
    let mut r = Reader { b: bytes };
    while let Some((tag, raw)) = r.next()? {
        if let Some(i) = msg.fields.iter().position(|f| f.tag == tag) {
            seen[i].push(raw);
        }
    }
    for (f, raws) in msg.fields.iter().zip(&seen) {
        let Some(last) = raws.last() else {
            match f.ty {
                // An absent embedded struct is a zero one: its own fields follow these rules.
                Ty::Msg(sub) if f.flags & INLINE != 0 => decode_into(sub, &[], depth + 1, out)?,
                _ => {
                    if let Some(zero) = absent(f, depth)? {
                        out.insert(f.json.to_string(), zero);
                    }
                }
            }
            continue;
        };
        let name = || format!("{}.{}", msg.name, f.json);
        if f.flags & INLINE != 0 {
            if let (Ty::Msg(sub), Raw::Bytes(b)) = (f.ty, last) {
                decode_into(sub, b, depth + 1, out)?;
            }
            continue;
        }
        match f.card {
            Card::One => {
                let v = value(f, *last, depth)?;
                if f.flags & (REQ | PTR) != 0 || !is_zero(f.ty, &v) {
                    out.insert(f.json.to_string(), v);
                }
            }
            Card::Rep => {
                let mut items = Vec::new();
                for raw in raws {
                    match (f.ty, raw) {
                        // Packed repeated integers (gogo writes them unpacked; both are legal).
                        (Ty::I32 | Ty::I64 | Ty::Bool, Raw::Bytes(b)) => {
                            let mut p = Reader { b };
                            while !p.b.is_empty() {
                                items.push(value(f, Raw::Varint(p.varint()?), depth)?);
                            }
                        }
                        _ => items.push(value(f, *raw, depth)?),
                    }
                }
                if !items.is_empty() {
                    out.insert(f.json.to_string(), Value::Array(items));
                }
            }
            Card::Map => {
                let mut m = Map::new();
                for raw in raws {
                    let Raw::Bytes(entry) = raw else {
                        return Err(WireError::WireType(0, name()));
                    };
                    let (mut key, mut val) = (String::new(), None);
                    let mut e = Reader { b: entry };
                    while let Some((tag, raw)) = e.next()? {
                        match (tag, raw) {
                            (1, Raw::Bytes(k)) => key = String::from_utf8_lossy(k).into_owned(),
                            (2, raw) => val = Some(raw),
                            (1, _) => return Err(WireError::WireType(0, name())),
                            _ => {}
                        }
                    }
                    // A missing value is the type's zero value, as in Go.
                    let v = match val {
                        Some(raw) => value(f, raw, depth)?,
                        None => value(f, Raw::Bytes(&[]), depth)?,
                    };
                    m.insert(key, v);
                }
                if !m.is_empty() {
                    out.insert(f.json.to_string(), Value::Object(m));
                }
            }
        }
    }
    Ok(())
}

/// What Go writes for a field the wire did not carry (its zero value), if anything.
fn absent(f: &Field, depth: usize) -> Result<Option<Value>, WireError> {
    if f.flags & VAL != 0 && f.card == Card::One {
        return value(f, Raw::Bytes(&[]), depth).map(Some);
    }
    if f.flags & REQ == 0 {
        return Ok(None);
    }
    Ok(Some(match (f.card, f.ty) {
        (Card::Rep | Card::Map, _) | (Card::One, Ty::Msg(_) | Ty::Time) => Value::Null,
        (Card::One, Ty::Str | Ty::Bytes) => json!(""),
        (Card::One, Ty::Bool) => json!(false),
        (Card::One, Ty::I32 | Ty::I64 | Ty::IntOrString) => json!(0),
        (Card::One, Ty::Quantity) => json!("0"),
        (Card::One, Ty::FieldsV1) => Value::Null,
    }))
}

fn is_zero(ty: Ty, v: &Value) -> bool {
    match ty {
        Ty::Str | Ty::Bytes => v.as_str().is_some_and(str::is_empty),
        Ty::Bool => v == &Value::Bool(false),
        Ty::I32 | Ty::I64 => v.as_i64() == Some(0),
        // Structs are never omitted by `omitempty`; Time writes `null` itself.
        Ty::Msg(_) | Ty::Time | Ty::Quantity | Ty::IntOrString | Ty::FieldsV1 => false,
    }
}

/// One value of field `f`.
fn value(f: &Field, raw: Raw<'_>, depth: usize) -> Result<Value, WireError> {
    let bad = |w: u8| WireError::WireType(w, f.json.to_string());
    Ok(match (f.ty, raw) {
        (Ty::Str, Raw::Bytes(b)) => Value::String(String::from_utf8_lossy(b).into_owned()),
        (Ty::Bytes, Raw::Bytes(b)) => {
            use base64::Engine;
            Value::String(base64::engine::general_purpose::STANDARD.encode(b))
        }
        (Ty::Bool, Raw::Varint(v)) => Value::Bool(v != 0),
        (Ty::I32, Raw::Varint(v)) => json!(v as i64 as i32),
        (Ty::I64, Raw::Varint(v)) => json!(v as i64),
        (Ty::Msg(m), Raw::Bytes(b)) => {
            let mut o = Map::new();
            decode_into(m, b, depth + 1, &mut o)?;
            Value::Object(o)
        }
        (Ty::Time, Raw::Bytes(b)) => {
            let (mut secs, mut nanos) = (0i64, 0i64);
            let mut r = Reader { b };
            while let Some((tag, raw)) = r.next()? {
                match (tag, raw) {
                    (1, Raw::Varint(v)) => secs = v as i64,
                    (2, Raw::Varint(v)) => nanos = i64::from(v as i64 as i32),
                    _ => {}
                }
            }
            if secs == 0 && nanos == 0 {
                Value::Null
            } else {
                Value::String(crate::apiserver::object::rfc3339_utc(secs))
            }
        }
        (Ty::Quantity, Raw::Bytes(b)) => {
            let mut s = String::new();
            let mut r = Reader { b };
            while let Some((tag, raw)) = r.next()? {
                if let (1, Raw::Bytes(v)) = (tag, raw) {
                    s = String::from_utf8_lossy(v).into_owned();
                }
            }
            // The zero Quantity marshals as "0".
            Value::String(if s.is_empty() { "0".into() } else { s })
        }
        (Ty::IntOrString, Raw::Bytes(b)) => {
            let (mut ty, mut int, mut s) = (0u64, 0i32, String::new());
            let mut r = Reader { b };
            while let Some((tag, raw)) = r.next()? {
                match (tag, raw) {
                    (1, Raw::Varint(v)) => ty = v,
                    (2, Raw::Varint(v)) => int = v as i64 as i32,
                    (3, Raw::Bytes(v)) => s = String::from_utf8_lossy(v).into_owned(),
                    _ => {}
                }
            }
            if ty == 1 { Value::String(s) } else { json!(int) }
        }
        (Ty::FieldsV1, Raw::Bytes(b)) => {
            let mut raw_json: &[u8] = b"";
            let mut r = Reader { b };
            while let Some((tag, raw)) = r.next()? {
                if let (1, Raw::Bytes(v)) = (tag, raw) {
                    raw_json = v;
                }
            }
            if raw_json.is_empty() {
                Value::Null
            } else {
                serde_json::from_slice(raw_json)
                    .map_err(|e| WireError::FieldsV1(f.json.to_string(), e.to_string()))?
            }
        }
        (_, Raw::Varint(_)) => return Err(bad(0)),
        (_, Raw::Bytes(_)) => return Err(bad(2)),
        (_, Raw::Fixed) => return Err(bad(1)),
    })
}

/// Where definitions refer to each other: `#/definitions/` (OpenAPI v2) or
/// `#/components/schemas/` (v3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenApi {
    V2,
    V3,
}

impl OpenApi {
    fn reference(self, definition: &str) -> Value {
        match self {
            OpenApi::V2 => json!({"$ref": format!("#/definitions/{definition}")}),
            OpenApi::V3 => json!({"$ref": format!("#/components/schemas/{definition}")}),
        }
    }
}

/// The definitions of the special messages, as kube-openapi writes them (their `OpenAPIDefinition`
/// methods in apimachinery).
fn special_definitions() -> [(&'static str, Value); 4] {
    [
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
            json!({"description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.", "type": "string", "format": "date-time"}),
        ),
        (
            "io.k8s.apimachinery.pkg.api.resource.Quantity",
            json!({"description": "Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.", "type": "string"}),
        ),
        (
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
            json!({"description": "IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.", "type": "string", "format": "int-or-string"}),
        ),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
            json!({"description": "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a field in a list 'k:<keys>', where <keys> is a map of a list item's key fields to their unique values If a key maps to an empty Object value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff", "type": "object"}),
        ),
    ]
}

fn type_schema(ty: Ty, api: OpenApi) -> Value {
    match ty {
        Ty::Str => json!({"type": "string"}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::I32 => json!({"type": "integer", "format": "int32"}),
        Ty::I64 => json!({"type": "integer", "format": "int64"}),
        Ty::Bytes => json!({"type": "string", "format": "byte"}),
        Ty::Msg(m) => api.reference(m.definition),
        Ty::Time => api.reference("io.k8s.apimachinery.pkg.apis.meta.v1.Time"),
        Ty::Quantity => api.reference("io.k8s.apimachinery.pkg.api.resource.Quantity"),
        Ty::IntOrString => api.reference("io.k8s.apimachinery.pkg.util.intstr.IntOrString"),
        Ty::FieldsV1 => api.reference("io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"),
    }
}

fn property(f: &Field, api: OpenApi) -> Value {
    let item = type_schema(f.ty, api);
    let mut p = match f.card {
        Card::One => item,
        Card::Rep => json!({"type": "array", "items": item}),
        Card::Map => json!({"type": "object", "additionalProperties": item}),
    };
    // v3 wraps a described reference in allOf (a $ref has no siblings there), as kube-openapi does.
    if api == OpenApi::V3 && p.get("$ref").is_some() {
        p = json!({"allOf": [p]});
    }
    if !f.doc.is_empty() {
        p["description"] = json!(f.doc);
    }
    for (k, v) in f.ext {
        p[*k] = if *k == "x-kubernetes-list-map-keys" {
            json!(v.split(',').collect::<Vec<_>>())
        } else {
            json!(v)
        };
    }
    p
}

fn collect_properties(m: &Msg, api: OpenApi, props: &mut Map<String, Value>, required: &mut Vec<String>) {
    for f in m.fields {
        if f.flags & INLINE != 0 {
            if let Ty::Msg(sub) = f.ty {
                collect_properties(sub, api, props, required);
            }
            continue;
        }
        props.insert(f.json.to_string(), property(f, api));
        if f.flags & REQ != 0 {
            required.push(f.json.to_string());
        }
    }
}

/// `TypeMeta.APIVersion`'s description (apimachinery `pkg/apis/meta/v1/types.go`).
const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// `TypeMeta.Kind`'s description.
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The group-version-kinds a definition is served as (`x-kubernetes-group-version-kind`).
fn gvk(m: &Msg) -> Option<Value> {
    match m.name {
        "Pod" | "PodList" | "ConfigMap" | "ConfigMapList" => {
            Some(json!([{"group": "", "kind": m.name, "version": "v1"}]))
        }
        "DeleteOptions" | "Status" => Some(json!([
            {"group": "", "kind": m.name, "version": "v1"},
            {"group": "meta.k8s.io", "kind": m.name, "version": "v1"}
        ])),
        _ => None,
    }
}

/// Every definition of the table plus the special messages, by definition name (sorted, as
/// kube-openapi writes them). Inline structs are not definitions of their own in upstream's
/// documents, but are kept: nothing refers to them.
pub fn definitions(api: OpenApi) -> Map<String, Value> {
    let mut defs: std::collections::BTreeMap<String, Value> = std::collections::BTreeMap::new();
    for m in super::schema_table::ALL {
        let mut props = Map::new();
        let mut required = Vec::new();
        let kinds = gvk(m);
        if kinds.is_some() {
            // `metav1.TypeMeta`, embedded inline in every kind (protobuf carries it in the
            // envelope, so it is not a field of the message).
            props.insert("apiVersion".into(), json!({"description": API_VERSION_DOC, "type": "string"}));
            props.insert("kind".into(), json!({"description": KIND_DOC, "type": "string"}));
        }
        collect_properties(m, api, &mut props, &mut required);
        let mut d = Map::new();
        if !m.doc.is_empty() {
            d.insert("description".into(), json!(m.doc));
        }
        d.insert("type".into(), json!("object"));
        if !required.is_empty() {
            required.sort();
            d.insert("required".into(), json!(required));
        }
        d.insert("properties".into(), Value::Object(props));
        if let Some(g) = kinds {
            d.insert("x-kubernetes-group-version-kind".into(), g);
        }
        defs.insert(m.definition.to_string(), Value::Object(d));
    }
    for (name, d) in special_definitions() {
        defs.insert(name.to_string(), d);
    }
    defs.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_served_kind_and_refers_only_to_itself() {
        for kind in ["Pod", "PodList", "ConfigMap", "ConfigMapList", "DeleteOptions", "Status"] {
            assert!(message(kind).is_some(), "{kind}");
        }
        let v2 = definitions(OpenApi::V2);
        let text = Value::Object(v2.clone()).to_string();
        for r in text.split("\"$ref\":\"#/definitions/").skip(1) {
            let name = r.split('"').next().unwrap_or_default();
            assert!(v2.contains_key(name), "dangling $ref {name}");
        }
        let pod = &v2["io.k8s.api.core.v1.Pod"];
        assert_eq!(
            pod["x-kubernetes-group-version-kind"],
            json!([{"group": "", "kind": "Pod", "version": "v1"}])
        );
        assert!(pod["description"].as_str().unwrap().starts_with("Pod is a collection of containers"));
        // Go's embedded structs are flattened: a Volume has `configMap`, a Probe `httpGet`.
        assert!(v2["io.k8s.api.core.v1.Volume"]["properties"].get("configMap").is_some());
        assert!(v2["io.k8s.api.core.v1.Probe"]["properties"].get("httpGet").is_some());
        assert_eq!(v2["io.k8s.api.core.v1.Container"]["required"], json!(["name"]));
    }

    #[test]
    fn hostile_bytes_are_errors_not_panics() {
        let pod = message("Pod").unwrap();
        assert_eq!(decode(pod, &[0x0a]), Err(WireError::Eof));
        assert_eq!(
            decode(pod, &[0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
            Err(WireError::Overflow)
        );
        assert_eq!(decode(pod, &[0x00, 0x00]), Err(WireError::ZeroTag));
        assert!(matches!(decode(pod, &[0x0f]), Err(WireError::WireType(7, _))));
        // metadata (1) given as a varint.
        assert!(matches!(decode(pod, &[0x08, 0x01]), Err(WireError::WireType(0, _))));
        // Deep nesting is bounded: Volume → VolumeSource … never recurses, so build depth by
        // the table's own longest chain; garbage of every length ends in an error or a value.
        for n in 0..200u8 {
            let junk: Vec<u8> = (0..n).map(|i| i.wrapping_mul(73).wrapping_add(n)).collect();
            let _ = decode(pod, &junk);
        }
    }
}
