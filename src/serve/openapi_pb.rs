//! `/openapi/v2` as protobuf (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`), the
//! form client-go's `OpenAPISchema()` asks for (kubectl's `explain --output plaintext-openapiv2`,
//! client-side validation): the JSON document of [`super::discovery::openapi_v2`] written as
//! gnostic's `openapi.v2.Document`, as kube-openapi's `ToProtoBinary` does. Only the parts that
//! document uses are written (info, paths with query parameters and responses, definitions,
//! vendor extensions as YAML — JSON is YAML).
//! Upstream: gnostic `openapiv2/OpenAPIv2.proto`, kube-openapi `pkg/handler/handler.go`.

use serde_json::Value;

/// Which form of `/openapi/v2` a request's `Accept` chose (kube-openapi `handler.go`: the ranges
/// in order of preference, JSON before protobuf for a wildcard; 406 for anything else).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    /// Answered with this Content-Type (the deprecated `@v1.0` spelling is answered with the
    /// current one).
    Protobuf,
    NotAcceptable,
}

/// The Content-Type of the protobuf form.
pub const PROTOBUF_CONTENT_TYPE: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

pub fn negotiate(accept: Option<&str>) -> Format {
    for r in super::table::media_ranges(accept) {
        if r.ty != "application" && r.ty != "*" {
            continue;
        }
        if r.subtype == "json" || r.subtype == "*" {
            return Format::Json;
        }
        if r.subtype == "com.github.proto-openapi.spec.v2@v1.0+protobuf"
            || r.subtype == "com.github.proto-openapi.spec.v2.v1.0+protobuf"
        {
            return Format::Protobuf;
        }
    }
    Format::NotAcceptable
}

fn varint(buf: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        buf.push((v as u8) | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

fn bytes(buf: &mut Vec<u8>, tag: u32, b: &[u8]) {
    varint(buf, u64::from(tag) << 3 | 2);
    varint(buf, b.len() as u64);
    buf.extend_from_slice(b);
}

/// A string field (proto3: the empty string is not written).
fn string(buf: &mut Vec<u8>, tag: u32, s: &str) {
    if !s.is_empty() {
        bytes(buf, tag, s.as_bytes());
    }
}

fn message(buf: &mut Vec<u8>, tag: u32, f: impl FnOnce(&mut Vec<u8>)) {
    let mut inner = Vec::new();
    f(&mut inner);
    bytes(buf, tag, &inner);
}

fn str_of<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// `NamedAny` entries for every `x-…` key of a JSON object.
fn vendor_extensions(buf: &mut Vec<u8>, tag: u32, v: &Value) {
    let Some(o) = v.as_object() else { return };
    for (k, val) in o.iter().filter(|(k, _)| k.starts_with("x-")) {
        message(buf, tag, |b| {
            string(b, 1, k);
            message(b, 2, |any| string(any, 2, &format!("{val}\n")));
        });
    }
}

fn schema(buf: &mut Vec<u8>, s: &Value) {
    string(buf, 1, str_of(s, "$ref"));
    string(buf, 2, str_of(s, "format"));
    string(buf, 4, str_of(s, "description"));
    for r in s.get("required").and_then(Value::as_array).into_iter().flatten() {
        string(buf, 19, r.as_str().unwrap_or(""));
    }
    if let Some(ap) = s.get("additionalProperties").filter(|a| a.is_object()) {
        message(buf, 21, |b| message(b, 1, |sb| schema(sb, ap)));
    }
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        message(buf, 22, |b| string(b, 1, t));
    }
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        message(buf, 23, |b| message(b, 1, |sb| schema(sb, items)));
    }
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        message(buf, 25, |b| {
            for (name, p) in props {
                message(b, 1, |nb| {
                    string(nb, 1, name);
                    message(nb, 2, |sb| schema(sb, p));
                });
            }
        });
    }
    vendor_extensions(buf, 31, s);
}

fn operation(buf: &mut Vec<u8>, op: &Value) {
    string(buf, 5, str_of(op, "operationId"));
    for p in op.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        // ParametersItem.parameter → Parameter.non_body_parameter → query_parameter_sub_schema
        message(buf, 8, |b| {
            message(b, 1, |pb| {
                message(pb, 2, |nb| {
                    message(nb, 3, |q| {
                        string(q, 2, str_of(p, "in"));
                        string(q, 4, str_of(p, "name"));
                        string(q, 6, str_of(p, "type"));
                        if p.get("uniqueItems") == Some(&Value::Bool(true)) {
                            varint(q, 20 << 3);
                            varint(q, 1);
                        }
                    });
                });
            });
        });
    }
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        message(buf, 9, |b| {
            for (code, r) in responses {
                message(b, 1, |nb| {
                    string(nb, 1, code);
                    message(nb, 2, |rv| {
                        message(rv, 1, |resp| {
                            string(resp, 1, str_of(r, "description"));
                            if let Some(s) = r.get("schema") {
                                message(resp, 2, |si| message(si, 1, |sb| schema(sb, s)));
                            }
                        });
                    });
                });
            }
        });
    }
    vendor_extensions(buf, 13, op);
}

/// The gnostic `Document` of a Swagger 2.0 JSON document.
pub fn encode(doc: &Value) -> Vec<u8> {
    let mut buf = Vec::new();
    string(&mut buf, 1, str_of(doc, "swagger"));
    if let Some(info) = doc.get("info") {
        message(&mut buf, 2, |b| {
            string(b, 1, str_of(info, "title"));
            string(b, 2, str_of(info, "version"));
        });
    }
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        message(&mut buf, 8, |b| {
            for (path, item) in paths {
                message(b, 2, |nb| {
                    string(nb, 1, path);
                    message(nb, 2, |pi| {
                        for (tag, method) in
                            [(2, "get"), (3, "put"), (4, "post"), (5, "delete"), (8, "patch")]
                        {
                            if let Some(op) = item.get(method) {
                                message(pi, tag, |ob| operation(ob, op));
                            }
                        }
                    });
                });
            }
        });
    }
    if let Some(defs) = doc.get("definitions").and_then(Value::as_object) {
        message(&mut buf, 9, |b| {
            for (name, s) in defs {
                message(b, 1, |nb| {
                    string(nb, 1, name);
                    message(nb, 2, |sb| schema(sb, s));
                });
            }
        });
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_as_kube_openapi() {
        assert_eq!(negotiate(None), Format::Json);
        assert_eq!(negotiate(Some("application/json")), Format::Json);
        assert_eq!(
            negotiate(Some("application/com.github.proto-openapi.spec.v2@v1.0+protobuf")),
            Format::Protobuf
        );
        assert_eq!(
            negotiate(Some("application/com.github.proto-openapi.spec.v2.v1.0+protobuf")),
            Format::Protobuf
        );
        assert_eq!(negotiate(Some("*/*")), Format::Json);
        assert_eq!(
            negotiate(Some(
                "application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
            )),
            Format::Protobuf
        );
        assert_eq!(negotiate(Some("text/html")), Format::NotAcceptable);
    }

    #[test]
    fn document_fields_land_on_gnostic_tags() {
        let doc = serde_json::json!({"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v"}});
        // swagger (1) "2.0"; info (2) { title (1) "Kubernetes", version (2) "v" }
        let mut want = vec![0x0a, 3];
        want.extend(b"2.0");
        want.extend([0x12, 15, 0x0a, 10]);
        want.extend(b"Kubernetes");
        want.extend([0x12, 1, b'v']);
        assert_eq!(encode(&doc), want);
    }
}
