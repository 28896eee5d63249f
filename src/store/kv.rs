//! The store itself (etcd's kvstore): global revision, put / delete-range / txn / range,
//! compaction (§A.1–§A.4), and the watchers it feeds (§A.5).

use super::MvccError;
use super::watch::{WatchCreateRequest, WatchId, WatchResponse};

/// `mvccpb.KeyValue`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyValue {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
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

/// The in-memory etcd.
#[derive(Debug, Clone, Default)]
pub struct MvccStore {}

#[allow(unused_variables)]
impl MvccStore {
    /// A fresh store: current revision 1, nothing compacted.
    pub fn new() -> Self {
        todo!()
    }
    pub fn current_revision(&self) -> i64 {
        todo!()
    }
    /// `None` until the first compaction.
    pub fn compact_revision(&self) -> Option<i64> {
        todo!()
    }
    pub fn put(&mut self, req: PutRequest) -> PutResponse {
        todo!()
    }
    pub fn delete_range(&mut self, req: DeleteRangeRequest) -> DeleteRangeResponse {
        todo!()
    }
    pub fn range(&self, req: &RangeRequest) -> Result<RangeResponse, MvccError> {
        todo!()
    }
    /// All operations of the chosen branch share one new revision if any of them changes a key.
    pub fn txn(&mut self, req: TxnRequest) -> Result<TxnResponse, MvccError> {
        todo!()
    }
    pub fn compact(&mut self, revision: i64) -> Result<ResponseHeader, MvccError> {
        todo!()
    }
    /// Registers a watcher. Past events from `start_revision` are queued at once (or the watcher
    /// is canceled with `compact_revision` if that revision was compacted).
    pub fn watch(&mut self, req: WatchCreateRequest) -> WatchId {
        todo!()
    }
    pub fn cancel_watch(&mut self, id: WatchId) -> bool {
        todo!()
    }
    /// Queues a progress notification (header = current revision) for the watcher.
    pub fn request_progress(&mut self, id: WatchId) {
        todo!()
    }
    /// Drains what the watcher has been sent since the last call, in order.
    pub fn take_watch_responses(&mut self, id: WatchId) -> Vec<WatchResponse> {
        todo!()
    }
}
