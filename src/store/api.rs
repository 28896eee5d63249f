//! The messages of etcd's KV and Watch APIs that the store speaks (etcd's `api/mvccpb` and
//! `api/etcdserverpb`): key-values, events, requests and responses, and the few constants of
//! the watch protocol. Plain data: no behaviour lives here.

use std::sync::Arc;

use super::revision::Revision;

/// An immutable byte string shared by every holder (etcd's stored values): the backend keeps
/// each version's value once, and ranges, watch events and the apiserver's watch caches hand
/// out references to it instead of copies.
pub type Bytes = Arc<[u8]>;

/// `mvccpb.KeyValue`. `key` and `value` are shared with the index and the backend (cloning a
/// `KeyValue` copies neither).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyValue {
    pub key: Bytes,
    pub value: Bytes,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    pub lease: i64,
}

/// Every response carries the store's *current* revision (§A.3), whatever revision was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResponseHeader {
    pub revision: i64,
}

/// `range_end` follows etcd: empty = just `key`; `[0]` (a single NUL) = every key ≥ `key`;
/// otherwise the half-open interval `[key, range_end)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// ≤ 0 = current revision.
    pub revision: i64,
    /// 0 = unlimited.
    pub limit: i64,
    pub count_only: bool,
    pub keys_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RangeResponse {
    pub header: ResponseHeader,
    pub kvs: Vec<KeyValue>,
    pub more: bool,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PutRequest {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
    pub lease: i64,
    pub prev_kv: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PutResponse {
    pub header: ResponseHeader,
    pub prev_kv: Option<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteRangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    pub prev_kv: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteRangeResponse {
    pub header: ResponseHeader,
    pub deleted: i64,
    pub prev_kvs: Vec<KeyValue>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareResult {
    Equal,
    Greater,
    Less,
    NotEqual,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareTarget {
    Version(i64),
    CreateRevision(i64),
    ModRevision(i64),
    Value(Vec<u8>),
}

/// One txn guard on a single key (a missing key has version/create/mod revision 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compare {
    pub key: Vec<u8>,
    pub result: CompareResult,
    pub target: CompareTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOp {
    Range(RangeRequest),
    Put(PutRequest),
    DeleteRange(DeleteRangeRequest),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseOp {
    Range(RangeResponse),
    Put(PutResponse),
    DeleteRange(DeleteRangeResponse),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxnRequest {
    pub compare: Vec<Compare>,
    pub success: Vec<RequestOp>,
    pub failure: Vec<RequestOp>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxnResponse {
    pub header: ResponseHeader,
    pub succeeded: bool,
    pub responses: Vec<ResponseOp>,
}

/// Identifies one watcher of a [`super::MvccStore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchId(pub i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    Put,
    Delete,
}

/// One change. For `Delete`, `kv` has only `key` and `mod_revision` (= the delete's revision).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: EventType,
    pub kv: KeyValue,
    pub prev_kv: Option<KeyValue>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WatchCreateRequest {
    pub key: Vec<u8>,
    /// Same convention as [`super::RangeRequest::range_end`].
    pub range_end: Vec<u8>,
    /// Inclusive; 0 = "now" (first event has revision current+1).
    pub start_revision: i64,
    pub prev_kv: bool,
    pub progress_notify: bool,
}

/// What etcd sends on a watch stream. An empty `events` with `canceled == false` is a progress
/// notification: no later event on this stream has a revision ≤ `header.revision`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchResponse {
    pub header: ResponseHeader,
    pub watch_id: WatchId,
    pub events: Vec<Event>,
    /// Set (with `canceled`) when the start revision was compacted.
    pub compact_revision: i64,
    pub canceled: bool,
    pub cancel_reason: String,
}

/// etcd's `mvcc.ErrEmptyWatcherRange` text, the `cancel_reason` of a watch whose `range_end` is
/// not after its `key`.
pub const ERR_EMPTY_WATCHER_RANGE: &str = "mvcc: watcher range is empty";

/// A catch-up response holds at most this many distinct revisions (etcd's `watchBatchMaxRevs`);
/// a longer history is sent as several responses.
pub const WATCH_BATCH_MAX_REVS: usize = 1000;

/// A read-only view of one active watcher, for the UI's "etcd view".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatcherInfo {
    pub id: WatchId,
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// The lowest revision an event must have to be sent (etcd's `minRev`).
    pub min_revision: i64,
    pub prev_kv: bool,
    pub progress_notify: bool,
    /// Responses queued and not yet taken.
    pub pending: usize,
}

/// A response header at `revision`.
pub(crate) fn header(revision: i64) -> ResponseHeader {
    ResponseHeader { revision }
}

/// The write revisions of one txn, oldest first (`changes` of etcd's `storeTxnWrite`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Changes {
    /// The txn's revision (current revision after it); meaningful only when `revs` is not empty.
    pub(crate) rev: i64,
    pub(crate) revs: Vec<Revision>,
}
