//! The apiserver's storage against etcd (k8s.io/apiserver `storage/etcd3`): create with
//! `If(mod_revision==0)`, optimistic updates and deletes, reads at the latest or an exact
//! revision, and paginated lists with continue tokens (§B, §C.2 E-paths, §D).

use serde_json::Value;

use super::continue_token::ContinueToken;
use super::decision::{Outcome, Why};
use super::field_selector::SelectionPredicate;
use super::object::{self, ResourceVersion};
use super::resource::ResourceInfo;
use super::status::Status;
use crate::store::{
    Compare, CompareResult, CompareTarget, DeleteRangeRequest, KeyValue, MvccError, MvccStore, PutRequest,
    RangeRequest, RequestOp, ResponseOp, TxnRequest,
};

/// What can go wrong in storage, before it is turned into a `Status` by the registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    #[error("key exists")]
    KeyExists,
    #[error("key not found")]
    NotFound,
    /// The object's resourceVersion differs from the stored one.
    #[error("the object has been modified")]
    Conflict,
    /// A delete precondition failed; the text is the apiserver's StorageError message.
    #[error("{0}")]
    PreconditionFailed(String),
    /// Reading a compacted revision.
    #[error("mvcc: required revision has been compacted")]
    Compacted,
    /// A read at or not-older-than a revision the store has not reached yet.
    #[error("Too large resource version: {requested}, current: {current}")]
    TooLargeResourceVersion { requested: u64, current: u64 },
    #[error("{0}")]
    Internal(String),
}

impl StorageError {
    /// The API error a storage error becomes (`storeerr.InterpretGetError` and friends).
    pub fn to_status(&self, info: &ResourceInfo, name: &str) -> Status {
        match self {
            StorageError::KeyExists => Status::already_exists(info, name),
            StorageError::NotFound => Status::not_found(info, name),
            StorageError::Conflict => Status::object_modified(info, name),
            StorageError::PreconditionFailed(msg) => Status::conflict(info, name, msg),
            StorageError::Compacted => Status::expired(Status::LIST_TOO_OLD),
            StorageError::TooLargeResourceVersion { requested, current } => {
                Status::too_large_resource_version(*requested, *current, 0)
            }
            StorageError::Internal(msg) => Status::internal_error(msg),
        }
    }

    /// The decision `why` with this error as its outcome (and the numbers that explain it).
    pub fn explain(&self, why: Why, etcd: &MvccStore) -> Why {
        let mut why = why.outcome(match self {
            StorageError::KeyExists => Outcome::AlreadyExists,
            StorageError::NotFound => Outcome::NotFound,
            StorageError::Conflict => Outcome::Conflict,
            StorageError::PreconditionFailed(_) => Outcome::PreconditionFailed,
            StorageError::Compacted => Outcome::EtcdCompacted,
            StorageError::TooLargeResourceVersion { .. } => Outcome::TooLargeResourceVersion,
            StorageError::Internal(_) => Outcome::Internal,
        });
        match self {
            StorageError::Compacted => why.compact_revision = etcd.compact_revision(),
            StorageError::TooLargeResourceVersion { current, .. } => {
                why.etcd_revision = Some(ResourceVersion(*current).revision());
            }
            _ => {}
        }
        why
    }
}

/// Which revision a read is served at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAt {
    /// The current revision (a linearizable read in real etcd).
    Latest,
    /// The current revision, failing if it is below the given minimum.
    NotOlderThan(u64),
    /// Exactly this revision.
    Exact(u64),
}

/// One page of a list, ready to be turned into a `...List` object.
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage {
    pub items: Vec<Value>,
    /// The revision the list is consistent at (`ListMeta.resourceVersion`).
    pub resource_version: i64,
    pub continue_token: Option<String>,
    pub remaining_item_count: Option<i64>,
}

/// The end of the key range that starts with `prefix` (etcd's `GetPrefixRangeEnd`).
pub fn prefix_range_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

fn map_read_error(e: MvccError, requested: i64, current: i64) -> StorageError {
    match e {
        MvccError::Compacted => StorageError::Compacted,
        MvccError::FutureRev => StorageError::TooLargeResourceVersion {
            requested: ResourceVersion::of_revision(requested).0,
            current: ResourceVersion::of_revision(current).0,
        },
    }
}

/// The stored object with its resourceVersion (placed where the canonical form has it: every
/// answer is made canonical before it leaves the apiserver).
fn decode(kv: &KeyValue) -> Result<Value, StorageError> {
    decode_placed(&kv.value, kv.mod_revision).ok_or_else(|| {
        StorageError::Internal(format!(
            "unable to decode an object stored at {}",
            String::from_utf8_lossy(&kv.key)
        ))
    })
}

fn decode_placed(bytes: &[u8], mod_revision: i64) -> Option<Value> {
    let mut obj: Value = serde_json::from_slice(bytes).ok()?;
    if !obj.is_object() {
        return None;
    }
    object::place_resource_version(&mut obj, mod_revision);
    Some(obj)
}

fn current_kv(etcd: &MvccStore, key: &str) -> Option<KeyValue> {
    let req = RangeRequest { key: key.as_bytes().to_vec(), ..Default::default() };
    etcd.range(&req).ok().and_then(|r| r.kvs.into_iter().next())
}

/// One guarded write: `Txn If(mod_revision(key) == expected) Then op`. Returns whether the guard
/// held, and the revision etcd reported.
fn guarded(
    etcd: &mut MvccStore,
    key: &[u8],
    expected: i64,
    op: RequestOp,
) -> Result<(bool, i64, Vec<ResponseOp>), StorageError> {
    let resp = etcd
        .txn(TxnRequest {
            compare: vec![Compare {
                key: key.to_vec(),
                result: CompareResult::Equal,
                target: CompareTarget::ModRevision(expected),
            }],
            success: vec![op],
            failure: vec![],
        })
        .map_err(|e| StorageError::Internal(e.to_string()))?;
    Ok((resp.succeeded, resp.header.revision, resp.responses))
}

/// Creates `obj` at `key` if nothing is there; returns the stored object with its RV.
pub fn create(etcd: &mut MvccStore, key: &str, obj: Value) -> Result<Value, StorageError> {
    let k = key.as_bytes().to_vec();
    let put = RequestOp::Put(PutRequest {
        key: k.clone(),
        value: object::encode_for_storage(&obj),
        ..Default::default()
    });
    let (ok, revision, _) = guarded(etcd, &k, 0, put)?;
    if !ok {
        return Err(StorageError::KeyExists);
    }
    let mut out = obj;
    object::place_resource_version(&mut out, revision);
    Ok(out)
}

/// Reads the current object (etcd path of a get).
pub fn get(etcd: &MvccStore, key: &str, at: ReadAt) -> Result<Value, StorageError> {
    let current = etcd.current_revision();
    if let ReadAt::NotOlderThan(min) | ReadAt::Exact(min) = at
        && min > ResourceVersion::of_revision(current).0
    {
        return Err(StorageError::TooLargeResourceVersion {
            requested: min,
            current: ResourceVersion::of_revision(current).0,
        });
    }
    match current_kv(etcd, key) {
        Some(kv) => decode(&kv),
        None => Err(StorageError::NotFound),
    }
}

/// Replaces the object at `key` with `new_obj`. `expected_rv` is the resourceVersion the caller
/// sent (`None` = unconditional). Writing the same bytes again is a no-op that returns the
/// stored object unchanged (§B).
pub fn update(
    etcd: &mut MvccStore,
    key: &str,
    new_obj: Value,
    expected_rv: Option<i64>,
) -> Result<(Value, bool), StorageError> {
    let Some(cur) = current_kv(etcd, key) else { return Err(StorageError::NotFound) };
    if let Some(rv) = expected_rv
        && rv != cur.mod_revision
    {
        return Err(StorageError::Conflict);
    }
    let bytes = object::encode_for_storage(&new_obj);
    if bytes[..] == cur.value[..] {
        return Ok((decode(&cur)?, false));
    }
    let k = key.as_bytes().to_vec();
    let put = RequestOp::Put(PutRequest { key: k.clone(), value: bytes, ..Default::default() });
    let (ok, revision, _) = guarded(etcd, &k, cur.mod_revision, put)?;
    if !ok {
        return Err(StorageError::Conflict);
    }
    let mut out = new_obj;
    object::place_resource_version(&mut out, revision);
    Ok((out, true))
}

/// Delete preconditions (`DeleteOptions.preconditions`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preconditions {
    pub resource_version: Option<String>,
    pub uid: Option<String>,
}

/// Deletes the object at `key` and returns its last state with RV = the delete's revision.
pub fn delete(etcd: &mut MvccStore, key: &str, pre: &Preconditions) -> Result<Value, StorageError> {
    let Some(cur) = current_kv(etcd, key) else { return Err(StorageError::NotFound) };
    let last = check_delete(key, &cur, pre)?;
    let k = key.as_bytes().to_vec();
    let del = RequestOp::DeleteRange(DeleteRangeRequest { key: k.clone(), ..Default::default() });
    let (ok, revision, responses) = guarded(etcd, &k, cur.mod_revision, del)?;
    if !ok {
        return Err(StorageError::Conflict);
    }
    if !responses.iter().any(|r| matches!(r, ResponseOp::DeleteRange(d) if d.deleted > 0)) {
        return Err(StorageError::NotFound);
    }
    let mut out = last;
    object::set_resource_version(&mut out, revision);
    Ok(out)
}

/// A dry-run delete (`DryRunnableStorage.Delete`): the object as it is, after the same
/// preconditions; nothing is written.
pub fn delete_dry_run(etcd: &MvccStore, key: &str, pre: &Preconditions) -> Result<Value, StorageError> {
    let Some(cur) = current_kv(etcd, key) else { return Err(StorageError::NotFound) };
    check_delete(key, &cur, pre)
}

/// The delete preconditions against the current value; the decoded object if they hold.
fn check_delete(key: &str, cur: &KeyValue, pre: &Preconditions) -> Result<Value, StorageError> {
    let last = decode(cur)?;
    if let Some(uid) = &pre.uid {
        let actual = object::uid(&last);
        if uid != actual {
            return Err(StorageError::PreconditionFailed(format!(
                "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {actual}"
            )));
        }
    }
    if let Some(rv) = &pre.resource_version {
        let actual = cur.mod_revision.to_string();
        if *rv != actual {
            return Err(StorageError::PreconditionFailed(format!(
                "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {actual}"
            )));
        }
    }
    Ok(last)
}

/// A list request against etcd.
#[derive(Debug, Clone)]
pub struct ListRequest<'a> {
    /// e.g. `/registry/pods/default/` or `/registry/pods/`.
    pub key_prefix: &'a str,
    pub at: ReadAt,
    /// A decoded continue token: read from its start key at its rv (rv < 0: at the latest).
    pub continue_from: Option<&'a ContinueToken>,
    /// 0 = unlimited.
    pub limit: i64,
    pub selector: &'a SelectionPredicate,
}

/// Largest page etcd is asked for while filling a page through a selector.
const MAX_FETCH: i64 = 10_000;

/// `GetList` of the etcd3 store: pages with a doubling fetch size when a selector filters,
/// the continue token at the pinned revision and `remainingItemCount` (§D).
pub fn list(etcd: &MvccStore, req: &ListRequest<'_>) -> Result<ListPage, StorageError> {
    let current = etcd.current_revision();
    let range_end = prefix_range_end(req.key_prefix.as_bytes());
    let (mut start, mut with_rev) = match req.continue_from {
        Some(tok) => {
            let rev = if tok.rv > 0 { tok.rv } else { 0 };
            (tok.start_key(req.key_prefix).into_bytes(), rev)
        }
        None => {
            let rev = match req.at {
                ReadAt::Latest => 0,
                ReadAt::NotOlderThan(min) => {
                    if min > ResourceVersion::of_revision(current).0 {
                        return Err(StorageError::TooLargeResourceVersion {
                            requested: min,
                            current: ResourceVersion::of_revision(current).0,
                        });
                    }
                    0
                }
                ReadAt::Exact(n) => ResourceVersion(n).revision(),
            };
            (req.key_prefix.as_bytes().to_vec(), rev)
        }
    };
    let paging = req.limit > 0;
    let mut fetch = if paging { req.limit } else { 0 };
    let mut items = Vec::new();
    let mut has_more;
    let mut last_key: Vec<u8> = Vec::new();
    let mut count;
    loop {
        let resp = etcd
            .range(&RangeRequest {
                key: start.clone(),
                range_end: range_end.clone(),
                revision: with_rev,
                limit: fetch,
                ..Default::default()
            })
            .map_err(|e| map_read_error(e, with_rev, current))?;
        has_more = resp.more;
        count = resp.count;
        for kv in &resp.kvs {
            if paging && items.len() as i64 >= req.limit {
                has_more = true;
                break;
            }
            last_key = kv.key.to_vec();
            let obj = decode(kv)?;
            if req.selector.matches(&obj) {
                items.push(obj);
            }
        }
        if with_rev == 0 {
            with_rev = resp.header.revision;
        }
        if !has_more || !paging || items.len() as i64 >= req.limit {
            break;
        }
        if fetch < MAX_FETCH {
            fetch = (fetch * 2).min(MAX_FETCH);
        }
        start = last_key.clone();
        start.push(0);
    }
    let (continue_token, remaining_item_count) = if has_more {
        let mut start_key = last_key.clone();
        start_key.push(0);
        let suffix =
            String::from_utf8_lossy(&start_key[req.key_prefix.len().min(start_key.len())..]).into_owned();
        let token = ContinueToken { rv: with_rev, start: suffix }.encode();
        let remaining = req.selector.is_empty().then(|| count - req.limit);
        (Some(token), remaining)
    } else {
        (None, None)
    };
    Ok(ListPage { items, resource_version: with_rev, continue_token, remaining_item_count })
}
