//! The `etcd put|get|del|compact` lines: each run against the store, with its output object,
//! its decision ([`EtcdWhy`]) and its typed answer ([`EtcdReply`]). Counterpart: etcdctl's
//! `put`, `get`, `del` and `compaction` (`etcdctl/ctlv3/command`).

use serde_json::{Map, Value, json};

use super::parse::EtcdCommand;
use super::reply::{EtcdReply, Kv};
use crate::apiserver::decision::{EtcdOp, EtcdRefusal, EtcdWhy};
use crate::store::{DeleteRangeRequest, KeyValue, PutRequest, RangeRequest};

fn kv_json(kv: &KeyValue) -> Value {
    let mut m = Map::new();
    m.insert("key".into(), Value::String(String::from_utf8_lossy(&kv.key).into_owned()));
    if !kv.value.is_empty() {
        m.insert("value".into(), Value::String(String::from_utf8_lossy(&kv.value).into_owned()));
    }
    m.insert("create_revision".into(), json!(kv.create_revision));
    m.insert("mod_revision".into(), json!(kv.mod_revision));
    m.insert("version".into(), json!(kv.version));
    if kv.lease != 0 {
        m.insert("lease".into(), json!(kv.lease));
    }
    Value::Object(m)
}

/// etcd's prefix convention: the range end that covers every key starting with `key`.
fn prefix_end(key: &[u8]) -> Vec<u8> {
    crate::apiserver::etcd3::prefix_range_end(key)
}

/// Why etcd refused an operation, as its decision names it.
pub(super) fn refusal(e: &crate::store::MvccError) -> EtcdRefusal {
    match e {
        crate::store::MvccError::Compacted => EtcdRefusal::Compacted,
        crate::store::MvccError::FutureRev => EtcdRefusal::FutureRevision,
    }
}

/// Runs one `etcd` line against the store: its output, decision and typed answer.
pub(super) fn etcd_op(etcd: &mut crate::store::MvccStore, cmd: EtcdCommand) -> (Value, EtcdWhy, EtcdReply) {
    match cmd {
        EtcdCommand::Put { key, value } => {
            let r = etcd.put(PutRequest {
                key: key.into_bytes(),
                value: value.into_bytes(),
                ..Default::default()
            });
            (
                json!({"header": {"revision": r.header.revision}}),
                EtcdWhy::new(EtcdOp::Put, r.header.revision),
                EtcdReply::done(EtcdOp::Put, r.header.revision),
            )
        }
        EtcdCommand::Get { key, prefix, revision, limit } => {
            let k = key.into_bytes();
            let range_end = if prefix { prefix_end(&k) } else { vec![] };
            let req = RangeRequest {
                key: k,
                range_end,
                revision: revision.unwrap_or(0),
                limit: limit.unwrap_or(0),
                ..Default::default()
            };
            let mut why = EtcdWhy::new(EtcdOp::Range, etcd.current_revision());
            why.at = revision.filter(|r| *r > 0);
            match etcd.range(&req) {
                Ok(r) => {
                    let kvs: Vec<Value> = r.kvs.iter().map(kv_json).collect();
                    why.revision = r.header.revision;
                    why.count = Some(r.count);
                    why.more = Some(r.more);
                    let reply = EtcdReply {
                        kvs: r.kvs.iter().map(Kv::of).collect(),
                        count: Some(r.count),
                        more: Some(r.more),
                        ..EtcdReply::done(EtcdOp::Range, r.header.revision)
                    };
                    (
                        json!({"header": {"revision": r.header.revision}, "kvs": kvs, "count": r.count, "more": r.more}),
                        why,
                        reply,
                    )
                }
                Err(e) => {
                    why.refused = Some(refusal(&e));
                    why.compacted = etcd.compact_revision();
                    (json!({"error": e.to_string()}), why, EtcdReply::refused(EtcdOp::Range, e.to_string()))
                }
            }
        }
        EtcdCommand::Del { key, prefix } => {
            let k = key.into_bytes();
            let range_end = if prefix { prefix_end(&k) } else { vec![] };
            let r = etcd.delete_range(DeleteRangeRequest { key: k, range_end, prev_kv: false });
            let mut why = EtcdWhy::new(EtcdOp::DeleteRange, r.header.revision);
            why.count = Some(r.deleted);
            (
                json!({"header": {"revision": r.header.revision}, "deleted": r.deleted}),
                why,
                EtcdReply::done(EtcdOp::DeleteRange, r.header.revision),
            )
        }
        EtcdCommand::Compact { revision } => compact_op(etcd, revision),
    }
}

/// etcd's `Compact` with its decision (the apiservers are told by the caller, if at all).
fn compact_op(etcd: &mut crate::store::MvccStore, revision: i64) -> (Value, EtcdWhy, EtcdReply) {
    let mut why = EtcdWhy::new(EtcdOp::Compact, etcd.current_revision());
    why.at = Some(revision);
    why.compacted = etcd.compact_revision();
    match etcd.compact(revision) {
        Ok(h) => {
            why.revision = h.revision;
            (
                json!({"header": {"revision": h.revision}, "compacted": revision}),
                why,
                EtcdReply::done(EtcdOp::Compact, h.revision),
            )
        }
        Err(e) => {
            why.refused = Some(refusal(&e));
            (json!({"error": e.to_string()}), why, EtcdReply::refused(EtcdOp::Compact, e.to_string()))
        }
    }
}
