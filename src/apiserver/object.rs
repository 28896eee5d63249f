//! Objects as the apiserver stores and serves them: JSON with Kubernetes' field order, the
//! `metadata.resourceVersion` ↔ etcd `mod_revision` mapping (§B), uids and timestamps.

use serde_json::{Map, Value};

use super::resource::ResourceInfo;

/// A resourceVersion as the API carries it: an unsigned decimal (`APIObjectVersioner` parses
/// it with `strconv.ParseUint`), the etcd revision of the object's last write. etcd revisions
/// are `int64`; these are the only conversions between the two, checked, never `as` casts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceVersion(pub u64);

impl ResourceVersion {
    /// The resourceVersion of etcd revision `rev` (a negative revision, which etcd never has,
    /// is 0).
    pub fn of_revision(rev: i64) -> ResourceVersion {
        ResourceVersion(u64::try_from(rev).unwrap_or(0))
    }

    /// The etcd revision this resourceVersion names; beyond `i64::MAX` it saturates (no etcd
    /// reaches it, so such a read is "too large").
    pub fn revision(self) -> i64 {
        i64::try_from(self.0).unwrap_or(i64::MAX)
    }
}

/// `metadata` fields in the order `ObjectMeta` serialises them.
const META_ORDER: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

pub fn metadata(obj: &Value) -> Option<&Map<String, Value>> {
    obj.get("metadata").and_then(Value::as_object)
}

fn meta_str<'a>(obj: &'a Value, field: &str) -> Option<&'a str> {
    metadata(obj).and_then(|m| m.get(field)).and_then(Value::as_str)
}

pub fn name(obj: &Value) -> &str {
    meta_str(obj, "name").unwrap_or("")
}

pub fn namespace(obj: &Value) -> Option<&str> {
    meta_str(obj, "namespace")
}

pub fn uid(obj: &Value) -> &str {
    meta_str(obj, "uid").unwrap_or("")
}

pub fn resource_version(obj: &Value) -> Option<&str> {
    meta_str(obj, "resourceVersion").filter(|s| !s.is_empty())
}

/// The object's labels (empty when it has none).
pub fn labels(obj: &Value) -> Map<String, Value> {
    metadata(obj).and_then(|m| m.get("labels")).and_then(Value::as_object).cloned().unwrap_or_default()
}

fn metadata_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.is_object() {
        *obj = Value::Object(Map::new());
    }
    let Value::Object(map) = obj else { unreachable!("made an object above") };
    let meta = map.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    match meta {
        Value::Object(m) => m,
        _ => unreachable!("made an object above"),
    }
}

pub fn set_meta(obj: &mut Value, field: &str, value: Value) {
    metadata_mut(obj).insert(field.to_string(), value);
}

/// Removes a metadata field, keeping the order of the others (`Map::remove` would move the last
/// field into its place, so an object re-encoded after a round trip would differ in bytes).
pub fn remove_meta(obj: &mut Value, field: &str) {
    metadata_mut(obj).shift_remove(field);
}

/// Sets `metadata.resourceVersion` (the decimal etcd revision), as the versioner does on read.
pub fn set_resource_version(obj: &mut Value, rv: i64) {
    set_meta(obj, "resourceVersion", Value::String(rv.to_string()));
}

/// Whether `map` already has the canonical shape (so [`canonical`] would return it unchanged):
/// `kind` and `apiVersion` of `info` first, then `metadata` with its `ObjectMeta` fields in order
/// before any other field.
fn is_canonical(info: &ResourceInfo, map: &Map<String, Value>) -> bool {
    let mut it = map.iter();
    let api_version_ok = |v: &Value| {
        let Some(s) = v.as_str() else { return false };
        if info.group.is_empty() {
            s == info.version
        } else {
            s.strip_prefix(info.group).and_then(|r| r.strip_prefix('/')).is_some_and(|r| r == info.version)
        }
    };
    match (it.next(), it.next(), it.next()) {
        (Some((k, kind)), Some((a, api)), Some((m, Value::Object(meta))))
            if k == "kind"
                && kind.as_str() == Some(info.kind)
                && a == "apiVersion"
                && api_version_ok(api)
                && m == "metadata" =>
        {
            // The ObjectMeta fields present must come first, in META_ORDER.
            let mut next = 0;
            let mut in_order = true;
            for key in meta.keys() {
                match META_ORDER.iter().position(|f| f == key) {
                    Some(i) if in_order && i >= next => next = i + 1,
                    Some(_) => return false,
                    None => in_order = false,
                }
            }
            true
        }
        _ => false,
    }
}

/// Sets `metadata.resourceVersion` where [`canonical`] puts it: a new field goes after the
/// `ObjectMeta` fields that precede it (`name` … `uid`) when they lead, so an object that was
/// canonical stays canonical; an existing one is replaced in place. Anything else is left to
/// [`set_resource_version`] (and to [`canonical`], which places it).
pub fn place_resource_version(obj: &mut Value, rv: i64) {
    let rv_value = Value::String(rv.to_string());
    if let Some(Value::Object(meta)) = obj.get_mut("metadata") {
        if let Some(v) = meta.get_mut("resourceVersion") {
            *v = rv_value;
        } else {
            let before = &META_ORDER[..5];
            let at = meta.keys().take_while(|k| before.contains(&k.as_str())).count();
            meta.shift_insert(at, "resourceVersion".to_string(), rv_value);
        }
        return;
    }
    set_resource_version(obj, rv);
}

/// Puts an object into the canonical shape Kubernetes serialises: `kind`, `apiVersion`,
/// `metadata` (fields in `ObjectMeta` order), then the rest in the order given. An object
/// already in that shape (every object the apiserver wrote) is returned as it is.
pub fn canonical(info: &ResourceInfo, obj: Value) -> Value {
    let Value::Object(mut map) = obj else { return obj };
    if is_canonical(info, &map) {
        return Value::Object(map);
    }
    let mut out = Map::new();
    map.shift_remove("kind");
    map.shift_remove("apiVersion");
    out.insert("kind".into(), Value::String(info.kind.into()));
    out.insert("apiVersion".into(), Value::String(info.api_version()));
    if let Some(Value::Object(mut meta)) = map.shift_remove("metadata") {
        let mut ordered = Map::new();
        for f in META_ORDER {
            if let Some(v) = meta.shift_remove(*f) {
                ordered.insert((*f).to_string(), v);
            }
        }
        ordered.extend(meta);
        out.insert("metadata".into(), Value::Object(ordered));
    } else {
        out.insert("metadata".into(), Value::Object(Map::new()));
    }
    out.extend(map);
    Value::Object(out)
}

/// The map-typed fields of the served types (`map[string]T`, every one `omitempty`):
/// `ObjectMeta` labels/annotations, `ConfigMap` data/binaryData, `PodSpec` nodeSelector/overhead,
/// `ResourceRequirements` limits/requests, `LabelSelector` matchLabels, CSI volumeAttributes,
/// FlexVolume options, and the status and projection maps (`k8s.io/api/core/v1/types.go`,
/// apimachinery `pkg/apis/meta/v1/types.go`).
const OMITEMPTY_MAPS: &[&str] = &[
    "labels",
    "annotations",
    "data",
    "binaryData",
    "nodeSelector",
    "overhead",
    "limits",
    "requests",
    "matchLabels",
    "volumeAttributes",
    "options",
    "allocatedResources",
    "userAnnotations",
];

/// The slice-typed fields written even when empty (no `omitempty` on their Go field):
/// `PodSpec.containers`, `NodeSelector.nodeSelectorTerms`, the RBD and CephFS `monitors`,
/// `ProjectedVolumeSource.sources`, `PodExtendedResourceClaimStatus.requestMappings`; every
/// other slice of the served types is `omitempty`.
const REQUIRED_SLICES: &[&str] =
    &["containers", "nodeSelectorTerms", "monitors", "sources", "requestMappings"];

/// What Go's `encoding/json` leaves out when the apiserver encodes an object it decoded from a
/// body (so what it stores and answers): an `omitempty` map that is empty or `null`, and an
/// `omitempty` slice that is empty. `{"data":{}}` and `{"metadata":{"labels":{}}}` come back
/// without them; `"emptyDir":{}` (a struct) stays. `managedFields[].fieldsV1` is opaque.
pub fn omit_empty(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, v| match v {
                Value::Array(a) => !a.is_empty() || REQUIRED_SLICES.contains(&k.as_str()),
                Value::Object(m) if m.is_empty() => !OMITEMPTY_MAPS.contains(&k.as_str()),
                Value::Null => !OMITEMPTY_MAPS.contains(&k.as_str()),
                _ => true,
            });
            for (k, v) in map.iter_mut() {
                if k != "fieldsV1" {
                    omit_empty(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(omit_empty),
        _ => {}
    }
}

/// The bytes stored in etcd: the object with `resourceVersion` blanked (§B).
pub fn encode_for_storage(obj: &Value) -> Vec<u8> {
    match (obj, metadata(obj)) {
        // Nothing to blank: no copy.
        (_, Some(m)) if !m.contains_key("resourceVersion") => serde_json::to_vec(obj).unwrap_or_default(),
        // Written without the field, in one pass: the same bytes as a copy with it removed.
        (Value::Object(map), Some(_)) => serde_json::to_vec(&WithoutResourceVersion(map)).unwrap_or_default(),
        _ => {
            let mut copy = obj.clone();
            remove_meta(&mut copy, "resourceVersion");
            serde_json::to_vec(&copy).unwrap_or_default()
        }
    }
}

/// An object whose `metadata` is serialised without its `resourceVersion`.
struct WithoutResourceVersion<'a>(&'a Map<String, Value>);

impl serde::Serialize for WithoutResourceVersion<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        struct Meta<'a>(&'a Map<String, Value>);
        impl serde::Serialize for Meta<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(None)?;
                for (k, v) in self.0.iter().filter(|(k, _)| *k != "resourceVersion") {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            match v {
                Value::Object(meta) if k == "metadata" => m.serialize_entry(k, &Meta(meta))?,
                _ => m.serialize_entry(k, v)?,
            }
        }
        m.end()
    }
}

/// Decodes a stored value and fills `metadata.resourceVersion` from the etcd `mod_revision`.
pub fn decode_from_storage(bytes: &[u8], mod_revision: i64) -> Option<Value> {
    let mut obj: Value = serde_json::from_slice(bytes).ok()?;
    if !obj.is_object() {
        return None;
    }
    set_resource_version(&mut obj, mod_revision);
    Some(obj)
}

/// `canonical(info, decode_from_storage(bytes, mod_revision)?)`, without reordering an object the
/// apiserver wrote: its stored form is canonical but for the blanked `resourceVersion`, which
/// goes straight to its `ObjectMeta` position.
pub fn decode_canonical(info: &ResourceInfo, bytes: &[u8], mod_revision: i64) -> Option<Value> {
    let mut obj: Value = serde_json::from_slice(bytes).ok()?;
    if !obj.is_object() {
        return None;
    }
    place_resource_version(&mut obj, mod_revision);
    Some(canonical(info, obj))
}

/// Whether [`decode_canonical`] would decode `bytes` (`decode_canonical(..).is_some()`), without
/// building the object: the JSON is parsed exactly as a `Value` parses it (strings unescaped and
/// checked, numbers read, the same depth limit) and must be an object. The watch cache asks this
/// of each change it takes up and decodes the object only when a watcher needs it.
pub fn decodes_as_object(bytes: &[u8]) -> bool {
    matches!(serde_json::from_slice::<Shape>(bytes), Ok(Shape::Object))
}

/// The kind of a JSON value, its contents read and dropped ([`decodes_as_object`]).
enum Shape {
    Object,
    Other,
}

impl<'de> serde::Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shape, D::Error> {
        d.deserialize_any(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> serde::de::Visitor<'de> for ShapeVisitor {
    type Value = Shape;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    // A string is unescaped and its UTF-8 checked, as for a `Value` (serde_json's
    // `ignored_any` would skip both).
    fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_unit<E>(self) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        while seq.next_element::<Shape>()?.is_some() {}
        Ok(Shape::Other)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        while map.next_entry::<Shape, Shape>()?.is_some() {}
        Ok(Shape::Object)
    }
}

/// One stored version of an object as the watch cache keeps it (`storeElement`): the bytes
/// etcd holds — shared with etcd's backend, never copied — and the revision that wrote it
/// (the object's `resourceVersion`; for a deletion's last state, the delete's revision). The
/// decoded object is made when a read needs it ([`Stored::decode`]), once per event for all
/// watchers (the cacher's `cachingObject`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub bytes: crate::store::Bytes,
    pub rv: i64,
}

impl Stored {
    /// The object as the API serves it: canonical field order, `resourceVersion` set.
    pub fn decode(&self, info: &ResourceInfo) -> Option<Value> {
        decode_canonical(info, &self.bytes, self.rv)
    }
}

/// A UUID-shaped uid derived deterministically from a counter (the simulation has no entropy).
pub fn make_uid(seed: u64, n: u64) -> String {
    let mut rng = crate::clock::Rng::new(seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let a = rng.next_u64();
    let b = rng.next_u64();
    let b = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        (a >> 32) as u32,
        (a >> 16) as u16,
        (a & 0x0fff) as u16,
        (b >> 48) as u16,
        b & 0xffff_ffff_ffff
    )
}

/// RFC 3339 timestamp (seconds) of the clock's current instant, counted from its epoch
/// (2026-01-01T00:00:00Z unless `set clock.epoch` moved it, as `rvlab serve` does).
pub fn timestamp(clock: &crate::clock::Clock) -> String {
    rfc3339_utc(clock.unix_secs())
}

/// Unix seconds of an RFC 3339 UTC time at seconds precision (`2026-01-01T00:00:00Z`), the
/// inverse of [`rfc3339_utc`]; `None` for anything else.
pub fn parse_rfc3339_utc(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        s.bytes().all(|c| c.is_ascii_digit()).then(|| s.parse().ok()).flatten()
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&m) || d < 1 || hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    let days = days_from_civil(y, m as u32, d as u32);
    // Reject 2026-02-31 and the like: the day must survive the round trip.
    if civil_from_days(days) != (y, m as u32, d as u32) {
        return None;
    }
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Howard Hinnant's (year, month, day) → days algorithm.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// RFC 3339 in UTC at seconds precision (as `metav1.Time` marshals) of Unix seconds.
pub fn rfc3339_utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, (rem % 3600) / 60, rem % 60)
}

/// Howard Hinnant's days → (year, month, day) algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §B: the stored bytes are the object with `resourceVersion` removed, field order kept,
    /// whatever the object looks like (written in one pass or from a copy).
    #[test]
    fn stored_bytes_are_the_object_without_its_resource_version() {
        let copy_and_remove = |v: &Value| {
            let mut c = v.clone();
            remove_meta(&mut c, "resourceVersion");
            serde_json::to_vec(&c).unwrap_or_default()
        };
        for text in [
            r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"default","resourceVersion":"7","uid":"u","labels":{"resourceVersion":"x"}},"data":{"k":"v \u003c \"q\""}}"#,
            r#"{"metadata":{"resourceVersion":"7"}}"#,
            r#"{"metadata":{"name":"a"},"resourceVersion":"1"}"#,
            r#"{"kind":"Pod","metadata":"not an object"}"#,
            r#"{"kind":"Pod"}"#,
            r#"[1,2]"#,
        ] {
            let v: Value = serde_json::from_str(text).unwrap_or_default();
            assert_eq!(
                String::from_utf8_lossy(&encode_for_storage(&v)),
                String::from_utf8_lossy(&copy_and_remove(&v)),
                "{text}"
            );
        }
        let v: Value = serde_json::from_str(r#"{"metadata":{"name":"a","resourceVersion":"7","uid":"u"}}"#)
            .unwrap_or_default();
        assert_eq!(encode_for_storage(&v), br#"{"metadata":{"name":"a","uid":"u"}}"#);
    }

    #[test]
    fn timestamps_are_rfc3339() {
        let mut clock = crate::clock::Clock::new();
        assert_eq!(timestamp(&clock), "2026-01-01T00:00:00Z");
        clock.advance(crate::clock::Duration(61_000));
        assert_eq!(timestamp(&clock), "2026-01-01T00:01:01Z");
        clock.advance(crate::clock::Duration(86_400_000 * 59 - 61_000));
        assert_eq!(timestamp(&clock), "2026-03-01T00:00:00Z");
        clock.set_epoch(1_700_000_000);
        assert_eq!(timestamp(&clock), rfc3339_utc(1_700_000_000 + 86_400 * 59));
    }

    #[test]
    fn rfc3339_parses_back() {
        for secs in [0, 1_767_225_600, 1_700_000_000, 951_782_400, 4_102_444_799] {
            assert_eq!(parse_rfc3339_utc(&rfc3339_utc(secs)), Some(secs));
        }
        for bad in [
            "",
            "2026-01-01",
            "2026-01-01T00:00:00",
            "2026-02-30T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T00:00:00+01:00",
            "+026-01-01T00:00:00Z",
            "２026-01-01T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339_utc(bad), None, "{bad}");
        }
    }

    /// Kubernetes serialises `kind`, `apiVersion`, `metadata` (ObjectMeta order), then the type's
    /// own fields in declaration order (a Pod's `spec` before its `status`:
    /// `k8s.io/api/core/v1/types.go`): the other fields keep their order, and an object already
    /// canonical stays as it is, however often it is made canonical.
    #[test]
    fn canonical_keeps_the_other_fields_in_order_and_is_idempotent() {
        let pods = &crate::apiserver::resource::PODS;
        let obj = serde_json::json!({
            "metadata": {"uid": "u", "x": 1, "name": "p"},
            "spec": {},
            "status": {},
            "apiVersion": "v1",
            "kind": "Pod"
        });
        let once = canonical(pods, obj);
        let want = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","uid":"u","x":1},"spec":{},"status":{}}"#;
        assert_eq!(once.to_string(), want);
        assert_eq!(canonical(pods, once.clone()).to_string(), want);
    }

    /// Decoding straight into the canonical form gives what decoding and then reordering gives,
    /// for stored bytes in canonical order, out of order, and with a stray resourceVersion.
    #[test]
    fn decode_canonical_equals_decode_then_canonical() {
        let pods = &crate::apiserver::resource::PODS;
        for bytes in [
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"d","uid":"u","creationTimestamp":"t"},"spec":{},"status":{}}"#,
            r#"{"spec":{},"metadata":{"labels":{"a":"b"},"name":"p"},"kind":"Pod"}"#,
            r#"{"metadata":{"resourceVersion":"3","name":"p"}}"#,
            r#"{"metadata":7}"#,
            r#"{}"#,
        ] {
            let slow = decode_from_storage(bytes.as_bytes(), 9).map(|v| canonical(pods, v));
            assert_eq!(decode_canonical(pods, bytes.as_bytes(), 9), slow, "{bytes}");
        }
        assert_eq!(decode_canonical(pods, b"[1]", 9), None);
    }

    /// `decodes_as_object` accepts exactly what `decode_canonical` decodes, on the inputs where a
    /// skipping parser and a `Value` part ways: escapes, surrogates, bytes that are not UTF-8,
    /// numbers out of range, depth, trailing data, and values that are not objects.
    #[test]
    fn decodes_as_object_agrees_with_decode_canonical() {
        let pods = &crate::apiserver::resource::PODS;
        let deep = |n: usize| format!("{{\"a\":{}1{}}}", "[".repeat(n), "]".repeat(n));
        let mut cases: Vec<Vec<u8>> = [
            r#"{"kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"x":[1,-2,3.5,1e3,true,null]}}"#,
            r#"{}"#,
            r#" { "a" : "b" } "#,
            r#"{"a":"\u00e9\n\"\\\/"}"#,
            r#"{"a":"\ud83d\ude00"}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"\udc00x"}"#,
            r#"{"\ud800":1}"#,
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12"}"#,
            "{\"a\":\"\u{1}\"}",
            r#"{"a":1e400}"#,
            r#"{"a":-1e400}"#,
            r#"{"a":18446744073709551616}"#,
            r#"{"a":-9223372036854775809}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} x"#,
            r#"{"a":1}{}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":NaN}"#,
            r#"{"a"}"#,
            r#"{1:2}"#,
            "[1]",
            "\"s\"",
            "1",
            "null",
            "",
            "{",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        cases.push(b"{\"a\":\"\xff\"}".to_vec());
        cases.push(b"{\"\xc3\":1}".to_vec());
        cases.push("{\"a\":\"é\"}".as_bytes().to_vec());
        for n in [100, 126, 127, 128, 200] {
            cases.push(deep(n).into_bytes());
        }
        let mut decoded = 0;
        for bytes in &cases {
            let want = decode_canonical(pods, bytes, 9).is_some();
            decoded += usize::from(want);
            assert_eq!(decodes_as_object(bytes), want, "{}", String::from_utf8_lossy(bytes));
        }
        // Both outcomes are covered.
        assert!(decoded > 5 && decoded < cases.len() - 5, "{decoded} of {}", cases.len());
    }

    #[test]
    fn uids_are_uuid_shaped_and_distinct() {
        let a = make_uid(1, 1);
        let b = make_uid(1, 2);
        assert_eq!(a.len(), 36);
        assert_ne!(a, b);
        assert_eq!(&a[14..15], "4");
    }
}
