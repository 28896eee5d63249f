//! The etcd model: an MVCC key-value store with one global revision, per-key generations,
//! compaction and watches. It knows nothing of Kubernetes (spec §A).
//!
//! Map for readers who know etcd's `server/storage/mvcc`: [`revision`] is `revision.go`,
//! [`key_index`] is `key_index.go`/`index.go` (treeIndex), [`kv`] is `kvstore.go` +
//! `kvstore_txn.go`, [`watch`] is `watchable_store.go`.

pub mod key_index;
pub mod kv;
pub mod ranked;
pub mod revision;
pub mod watch;

pub use key_index::{Generation, IndexEntry, KeyIndex, KeyRange, TreeIndex};
pub use kv::{
    BackendRecord, Compare, CompareResult, CompareTarget, DeleteRangeRequest, DeleteRangeResponse, KeyValue,
    MvccStore, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp, ResponseHeader, ResponseOp,
    TxnRequest, TxnResponse,
};
pub use ranked::RankedSet;
pub use revision::Revision;
pub use watch::{
    ERR_EMPTY_WATCHER_RANGE, Event, EventType, WATCH_BATCH_MAX_REVS, WatchCreateRequest, WatchId,
    WatchResponse, WatcherInfo,
};

/// Errors of the MVCC layer, with etcd's exact messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MvccError {
    /// Reading or compacting below the compact revision (§A.3, §A.4).
    #[error("mvcc: required revision has been compacted")]
    Compacted,
    /// Reading or compacting above the current revision (§A.3, §A.4).
    #[error("mvcc: required revision is a future revision")]
    FutureRev,
}
