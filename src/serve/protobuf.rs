//! Request bodies in Kubernetes protobuf (`application/vnd.kubernetes.protobuf`), as kubectl ≥ 1.32
//! sends built-in types: the 4-byte magic `k8s\0` and a `runtime.Unknown` whose `raw` holds the
//! object's message. Decoded with `k8s-pb` + `prost` and turned into the JSON object the engine
//! stores, in the field order the API server writes.
//! Upstream: apimachinery `pkg/runtime/serializer/protobuf/protobuf.go` (`protoEncodingPrefix`,
//! `Serializer.Decode`), `pkg/runtime/types_proto.go` (`Unknown`).
//!
//! The object inside is decoded field for field by [`super::schema`] (every field of Pod,
//! ConfigMap and DeleteOptions, as Go's `encoding/json` would write the decoded struct).

use k8s_pb::apimachinery::pkg::runtime::Unknown;
use prost::Message;
use serde_json::{Map, Value, json};

use super::schema;
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
    decode_kind(info.kind, &[info.api_version().as_str()], body)
}

/// Decodes a `DeleteOptions` body (sent with DELETE; registered in every group version and in
/// `meta.k8s.io/v1`).
pub fn decode_delete_options(body: &[u8]) -> Result<Value, ProtobufError> {
    decode_kind("DeleteOptions", &["v1", "meta.k8s.io/v1"], body)
}

fn decode_kind(expected: &str, api_versions: &[&str], body: &[u8]) -> Result<Value, ProtobufError> {
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
    let kind_ok = (kind.is_empty() || kind == expected)
        && (api_version.is_empty() || api_versions.contains(&api_version.as_str()));
    if !kind_ok {
        return Err(ProtobufError::WrongKind { expected: expected.to_string(), api_version, kind });
    }
    let Some(msg) = schema::message(expected) else {
        return Err(ProtobufError::Object { kind: expected.to_string(), err: "no protobuf decoder".into() });
    };
    let raw = unknown.raw.unwrap_or_default();
    let fields = schema::decode(msg, &raw)
        .map_err(|e| ProtobufError::Object { kind: expected.to_string(), err: e.to_string() })?;
    let mut out = Map::new();
    out.insert("kind".into(), json!(if kind.is_empty() { expected } else { kind.as_str() }));
    out.insert(
        "apiVersion".into(),
        json!(if api_version.is_empty() { api_versions[0] } else { api_version.as_str() }),
    );
    out.extend(fields);
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::resource::{CONFIGMAPS, PODS};
    use k8s_pb::api::core::v1 as core;
    use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
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
    fn pod_zero_values_follow_go_json() {
        // gogo-protobuf (kubectl) encodes every Go value field, zero or not; JSON omits a zero
        // value with `omitempty` (stdin, workingDir, hostNetwork) but writes a zero pointer
        // (privileged, runAsUser) and a required field (ready, restartCount); struct values the
        // wire left out (state, lastState) are written as Go's zero struct.
        let pod = core::Pod {
            metadata: Some(meta::ObjectMeta {
                name: Some("p".into()),
                generate_name: Some(String::new()),
                generation: Some(0),
                creation_timestamp: Some(meta::Time { seconds: Some(1_700_000_000), nanos: Some(0) }),
                ..Default::default()
            }),
            spec: Some(core::PodSpec {
                containers: vec![core::Container {
                    name: Some("c".into()),
                    image: Some("nginx".into()),
                    working_dir: Some(String::new()),
                    stdin: Some(false),
                    tty: Some(false),
                    resources: Some(core::ResourceRequirements::default()),
                    security_context: Some(core::SecurityContext {
                        privileged: Some(false),
                        run_as_user: Some(0),
                        ..Default::default()
                    }),
                    ..Default::default()
                }],
                host_network: Some(false),
                termination_grace_period_seconds: Some(0),
                ..Default::default()
            }),
            status: Some(core::PodStatus {
                phase: Some(String::new()),
                container_statuses: vec![core::ContainerStatus {
                    name: Some("c".into()),
                    ready: Some(false),
                    restart_count: Some(0),
                    image: Some(String::new()),
                    image_id: Some(String::new()),
                    started: Some(false),
                    container_id: Some(String::new()),
                    ..Default::default()
                }],
                ..Default::default()
            }),
        };
        let v = decode(&PODS, &envelope("Pod", pod.encode_to_vec())).unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":"2023-11-14T22:13:20Z"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{},"securityContext":{"privileged":false,"runAsUser":0}}],"terminationGracePeriodSeconds":0},"status":{"containerStatuses":[{"name":"c","state":{},"lastState":{},"ready":false,"restartCount":0,"image":"","imageID":"","started":false}]}}"#
        );
    }

    #[test]
    fn a_sparse_encoder_gets_go_zero_values() {
        // prost writes only what is set; Go decodes the rest as zero values and writes the
        // struct values and required fields: what `json.Marshal` gives for this Pod.
        let pod = core::Pod {
            metadata: Some(meta::ObjectMeta { name: Some("p".into()), ..Default::default() }),
            spec: Some(core::PodSpec {
                containers: vec![core::Container { image: Some("nginx".into()), ..Default::default() }],
                ..Default::default()
            }),
            status: None,
        };
        let v = decode(&PODS, &envelope("Pod", pod.encode_to_vec())).unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"containers":[{"name":"","image":"nginx","resources":{}}]},"status":{}}"#
        );
    }

    #[test]
    fn delete_options_in_either_group_version() {
        let opts = meta::DeleteOptions {
            grace_period_seconds: Some(0),
            preconditions: Some(meta::Preconditions { uid: None, resource_version: Some("7".into()) }),
            orphan_dependents: None,
            propagation_policy: Some("Foreground".into()),
            dry_run: vec!["All".into()],
            ignore_store_read_error_with_cluster_breaking_potential: None,
        };
        for api_version in ["v1", "meta.k8s.io/v1"] {
            let u = Unknown {
                type_meta: Some(TypeMeta {
                    api_version: Some(api_version.into()),
                    kind: Some("DeleteOptions".into()),
                }),
                raw: Some(opts.encode_to_vec()),
                content_encoding: None,
                content_type: None,
            };
            let mut body = MAGIC.to_vec();
            body.extend(u.encode_to_vec());
            assert_eq!(
                decode_delete_options(&body).unwrap().to_string(),
                format!(
                    r#"{{"kind":"DeleteOptions","apiVersion":"{api_version}","gracePeriodSeconds":0,"preconditions":{{"resourceVersion":"7"}},"propagationPolicy":"Foreground","dryRun":["All"]}}"#
                )
            );
        }
        assert!(matches!(
            decode_delete_options(&envelope("Pod", vec![])),
            Err(ProtobufError::WrongKind { .. })
        ));
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
