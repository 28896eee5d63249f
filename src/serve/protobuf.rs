//! Request bodies in Kubernetes protobuf (`application/vnd.kubernetes.protobuf`), as kubectl ≥ 1.32
//! sends built-in types: the 4-byte magic `k8s\0` and a `runtime.Unknown` whose `raw` holds the
//! object's message. Decoded with `k8s-pb` + `prost` and turned into the JSON object the engine
//! stores, in the field order the API server writes.
//! Upstream: apimachinery `pkg/runtime/serializer/protobuf/protobuf.go` (`protoEncodingPrefix`,
//! `Serializer.Decode`), `pkg/runtime/types_proto.go` (`Unknown`).
//!
//! ConfigMaps are converted field for field. For Pods the metadata is exact and the spec keeps
//! what the playground's pods carry (containers' name, image, command, args; restartPolicy,
//! nodeName); the engine does not model the rest of a pod.

use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::Unknown;
use prost::Message;
use serde_json::{Map, Value, json};

use crate::apiserver::resource::ResourceInfo;

/// `protoEncodingPrefix`.
pub const MAGIC: &[u8] = b"k8s\x00";

/// Why a protobuf body could not be used; the message goes into a 400 Status, as the
/// serializer's decode error does in `handlers/create.go`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtobufError {
    #[error("provided object is not a protobuf message: the 4-byte prefix k8s\\0 is missing")]
    NoMagic,
    #[error("unable to decode protobuf envelope: {0}")]
    Envelope(String),
    #[error("unable to decode {kind}: {err}")]
    Object { kind: String, err: String },
    #[error("the object provided is unrecognized (must be of type {expected}): {api_version}, Kind={kind}")]
    WrongKind { expected: String, api_version: String, kind: String },
    #[error("content encoding {0:?} is not supported")]
    Encoding(String),
}

/// Decodes a protobuf request body for `info` into the JSON object a client would have sent.
pub fn decode(info: &ResourceInfo, body: &[u8]) -> Result<Value, ProtobufError> {
    let rest = body.strip_prefix(MAGIC).ok_or(ProtobufError::NoMagic)?;
    let unknown = Unknown::decode(rest).map_err(|e| ProtobufError::Envelope(e.to_string()))?;
    if let Some(enc) = unknown.content_encoding.as_deref().filter(|e| !e.is_empty()) {
        return Err(ProtobufError::Encoding(enc.to_string()));
    }
    let tm = unknown.type_meta.unwrap_or_default();
    let api_version = tm.api_version.unwrap_or_default();
    let kind = tm.kind.unwrap_or_default();
    // The type may be omitted inside the envelope; then the URL decides, as the handler's
    // defaulting GVK does.
    let kind_ok = (kind.is_empty() || kind == info.kind)
        && (api_version.is_empty() || api_version == info.api_version());
    if !kind_ok {
        return Err(ProtobufError::WrongKind { expected: info.kind.to_string(), api_version, kind });
    }
    let raw = unknown.raw.unwrap_or_default();
    let obj_err =
        |e: prost::DecodeError| ProtobufError::Object { kind: info.kind.to_string(), err: e.to_string() };
    let mut out = Map::new();
    out.insert("kind".into(), json!(info.kind));
    out.insert("apiVersion".into(), json!(info.api_version()));
    match info.kind {
        "ConfigMap" => {
            let cm = core::ConfigMap::decode(raw.as_slice()).map_err(obj_err)?;
            out.insert("metadata".into(), object_meta(&cm.metadata.unwrap_or_default()));
            if let Some(i) = cm.immutable {
                out.insert("immutable".into(), json!(i));
            }
            if !cm.data.is_empty() {
                out.insert("data".into(), json!(cm.data));
            }
            if !cm.binary_data.is_empty() {
                use base64::Engine;
                let b: Map<String, Value> = cm
                    .binary_data
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(base64::engine::general_purpose::STANDARD.encode(v))))
                    .collect();
                out.insert("binaryData".into(), Value::Object(b));
            }
        }
        "Pod" => {
            let pod = core::Pod::decode(raw.as_slice()).map_err(obj_err)?;
            out.insert("metadata".into(), object_meta(&pod.metadata.unwrap_or_default()));
            out.insert("spec".into(), pod_spec(&pod.spec.unwrap_or_default()));
            // `Status` is a struct: `{}` when empty (a client does not set it).
            out.insert("status".into(), json!({}));
        }
        other => {
            return Err(ProtobufError::Object { kind: other.to_string(), err: "no protobuf decoder".into() });
        }
    }
    Ok(Value::Object(out))
}

fn some_str(m: &mut Map<String, Value>, k: &str, v: &Option<String>) {
    if let Some(s) = v.as_deref().filter(|s| !s.is_empty()) {
        m.insert(k.into(), json!(s));
    }
}

fn time(t: &meta::Time) -> Value {
    Value::String(crate::apiserver::object::rfc3339_utc(t.seconds.unwrap_or(0)))
}

/// `ObjectMeta` in its JSON field order (`types.go`), omitting empty fields as `omitempty` does.
fn object_meta(m: &meta::ObjectMeta) -> Value {
    let mut o = Map::new();
    some_str(&mut o, "name", &m.name);
    some_str(&mut o, "generateName", &m.generate_name);
    some_str(&mut o, "namespace", &m.namespace);
    some_str(&mut o, "selfLink", &m.self_link);
    some_str(&mut o, "uid", &m.uid);
    some_str(&mut o, "resourceVersion", &m.resource_version);
    if let Some(g) = m.generation.filter(|g| *g != 0) {
        o.insert("generation".into(), json!(g));
    }
    // `CreationTimestamp` is a struct, not a pointer: Go always writes it, `null` when zero.
    match m.creation_timestamp.as_ref().filter(|t| t.seconds.unwrap_or(0) != 0) {
        Some(t) => o.insert("creationTimestamp".into(), time(t)),
        None => o.insert("creationTimestamp".into(), Value::Null),
    };
    if let Some(t) = &m.deletion_timestamp {
        o.insert("deletionTimestamp".into(), time(t));
    }
    if let Some(s) = m.deletion_grace_period_seconds {
        o.insert("deletionGracePeriodSeconds".into(), json!(s));
    }
    if !m.labels.is_empty() {
        o.insert("labels".into(), json!(m.labels));
    }
    if !m.annotations.is_empty() {
        o.insert("annotations".into(), json!(m.annotations));
    }
    if !m.owner_references.is_empty() {
        let refs: Vec<Value> = m
            .owner_references
            .iter()
            .map(|r| {
                let mut x = Map::new();
                some_str(&mut x, "apiVersion", &r.api_version);
                some_str(&mut x, "kind", &r.kind);
                some_str(&mut x, "name", &r.name);
                some_str(&mut x, "uid", &r.uid);
                if let Some(c) = r.controller {
                    x.insert("controller".into(), json!(c));
                }
                if let Some(b) = r.block_owner_deletion {
                    x.insert("blockOwnerDeletion".into(), json!(b));
                }
                Value::Object(x)
            })
            .collect();
        o.insert("ownerReferences".into(), Value::Array(refs));
    }
    if !m.finalizers.is_empty() {
        o.insert("finalizers".into(), json!(m.finalizers));
    }
    Value::Object(o)
}

fn pod_spec(s: &core::PodSpec) -> Value {
    let mut o = Map::new();
    let containers: Vec<Value> = s
        .containers
        .iter()
        .map(|c| {
            let mut x = Map::new();
            some_str(&mut x, "name", &c.name);
            some_str(&mut x, "image", &c.image);
            if !c.command.is_empty() {
                x.insert("command".into(), json!(c.command));
            }
            if !c.args.is_empty() {
                x.insert("args".into(), json!(c.args));
            }
            // `Resources` is a struct: Go writes `{}` when it is empty.
            x.insert("resources".into(), json!({}));
            Value::Object(x)
        })
        .collect();
    o.insert("containers".into(), Value::Array(containers));
    some_str(&mut o, "restartPolicy", &s.restart_policy);
    some_str(&mut o, "nodeName", &s.node_name);
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::resource::{CONFIGMAPS, PODS};
    use k8s_pb::apimachinery::pkg::runtime::TypeMeta;

    fn envelope(kind: &str, raw: Vec<u8>) -> Vec<u8> {
        let u = Unknown {
            type_meta: Some(TypeMeta { api_version: Some("v1".into()), kind: Some(kind.into()) }),
            raw: Some(raw),
            content_encoding: Some(String::new()),
            content_type: Some(String::new()),
        };
        let mut b = MAGIC.to_vec();
        b.extend(u.encode_to_vec());
        b
    }

    #[test]
    fn configmap_as_kubectl_create_configmap_sends_it() {
        let cm = core::ConfigMap {
            metadata: Some(meta::ObjectMeta {
                name: Some("a".into()),
                namespace: Some(String::new()),
                labels: [("app".to_string(), "x".to_string())].into(),
                creation_timestamp: Some(meta::Time { seconds: Some(0), nanos: Some(0) }),
                ..Default::default()
            }),
            data: [("k".to_string(), "v".to_string())].into(),
            binary_data: [("b".to_string(), vec![0u8, 255])].into(),
            immutable: None,
        };
        let v = decode(&CONFIGMAPS, &envelope("ConfigMap", cm.encode_to_vec())).unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null,"labels":{"app":"x"}},"data":{"k":"v"},"binaryData":{"b":"AP8="}}"#
        );
    }

    #[test]
    fn pod_metadata_and_containers() {
        let pod = core::Pod {
            metadata: Some(meta::ObjectMeta {
                name: Some("p".into()),
                creation_timestamp: Some(meta::Time { seconds: Some(1_700_000_000), nanos: None }),
                ..Default::default()
            }),
            spec: Some(core::PodSpec {
                containers: vec![core::Container {
                    name: Some("c".into()),
                    image: Some("nginx".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            status: None,
        };
        let v = decode(&PODS, &envelope("Pod", pod.encode_to_vec())).unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":"2023-11-14T22:13:20Z"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{}}]},"status":{}}"#
        );
    }

    #[test]
    fn hostile_bodies_are_errors_not_panics() {
        assert_eq!(decode(&CONFIGMAPS, b"{}"), Err(ProtobufError::NoMagic));
        assert!(matches!(decode(&CONFIGMAPS, b"k8s\x00\xff\xff\xff"), Err(ProtobufError::Envelope(_))));
        assert!(matches!(
            decode(&CONFIGMAPS, &envelope("Pod", vec![])),
            Err(ProtobufError::WrongKind { .. })
        ));
        assert!(matches!(
            decode(&CONFIGMAPS, &envelope("ConfigMap", vec![0x0a, 0xff])),
            Err(ProtobufError::Object { .. })
        ));
        for n in 0..64u8 {
            let junk: Vec<u8> = MAGIC.iter().copied().chain((0..n).map(|i| i.wrapping_mul(37))).collect();
            let _ = decode(&PODS, &junk);
        }
    }
}
