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

pub fn remove_meta(obj: &mut Value, field: &str) {
    metadata_mut(obj).remove(field);
}

/// Sets `metadata.resourceVersion` (the decimal etcd revision), as the versioner does on read.
pub fn set_resource_version(obj: &mut Value, rv: i64) {
    set_meta(obj, "resourceVersion", Value::String(rv.to_string()));
}

/// Puts an object into the canonical shape Kubernetes serialises: `kind`, `apiVersion`,
/// `metadata` (fields in `ObjectMeta` order), then the rest in the order given.
pub fn canonical(info: &ResourceInfo, obj: Value) -> Value {
    let Value::Object(mut map) = obj else { return obj };
    let mut out = Map::new();
    map.remove("kind");
    map.remove("apiVersion");
    out.insert("kind".into(), Value::String(info.kind.into()));
    out.insert("apiVersion".into(), Value::String(info.api_version()));
    if let Some(Value::Object(mut meta)) = map.remove("metadata") {
        let mut ordered = Map::new();
        for f in META_ORDER {
            if let Some(v) = meta.remove(*f) {
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

/// The bytes stored in etcd: the object with `resourceVersion` blanked (§B).
pub fn encode_for_storage(obj: &Value) -> Vec<u8> {
    let mut copy = obj.clone();
    remove_meta(&mut copy, "resourceVersion");
    serde_json::to_vec(&copy).unwrap_or_default()
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

/// RFC 3339 timestamp (seconds) of a simulated instant; the simulation starts at
/// 2026-01-01T00:00:00Z.
pub fn timestamp(now: crate::clock::Instant) -> String {
    const EPOCH_2026: i64 = 1_767_225_600;
    rfc3339_utc(EPOCH_2026 + (now.0 / 1000) as i64)
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

    #[test]
    fn timestamps_are_rfc3339() {
        assert_eq!(timestamp(crate::clock::Instant(0)), "2026-01-01T00:00:00Z");
        assert_eq!(timestamp(crate::clock::Instant(61_000)), "2026-01-01T00:01:01Z");
        assert_eq!(timestamp(crate::clock::Instant(86_400_000 * 59)), "2026-03-01T00:00:00Z");
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
