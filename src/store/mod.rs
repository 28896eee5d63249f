//! The etcd model: an MVCC key-value store with one global revision, per-key generations,
//! compaction and watches. It knows nothing of Kubernetes (spec §A).
//!
//! Map for readers who know etcd's `server/storage/mvcc`: [`revision`] is `revision.go`,
//! [`key_index`] is `key_index.go`/`index.go` (treeIndex), [`kvstore`] is `kvstore.go`,
//! [`kvstore_txn`] is `kvstore_txn.go`, [`kvstore_compaction`] is the compaction half of
//! `kvstore.go` + `kvstore_compaction.go`, [`watchable_store`] is `watchable_store.go` (it wraps
//! the store, so watching sits above it) and [`watcher_group`] is `watcher_group.go`; [`api`]
//! holds the messages of `mvccpb` / `etcdserverpb`. Dependencies run
//! `watchable_store → {kvstore*, watcher_group} → {key_index, api, revision}`, never back up.

pub mod api;
pub mod key_index;
pub mod kvstore;
pub mod kvstore_compaction;
pub mod kvstore_txn;
pub mod ranked;
pub mod revision;
pub mod watchable_store;
pub mod watcher_group;

pub use api::{
    Bytes, Compare, CompareResult, CompareTarget, DeleteRangeRequest, DeleteRangeResponse,
    ERR_EMPTY_WATCHER_RANGE, Event, EventType, KeyValue, PutRequest, PutResponse, RangeRequest,
    RangeResponse, RequestOp, ResponseHeader, ResponseOp, TxnRequest, TxnResponse, WATCH_BATCH_MAX_REVS,
    WatchCreateRequest, WatchId, WatchResponse, WatcherInfo,
};
pub use key_index::{CompactionRule, Generation, IndexEntry, KeyIndex, KeyRange, TreeIndex};
pub use kvstore::{BackendRecord, EtcdVersion, KvStore};
pub use ranked::RankedSet;
pub use revision::Revision;
pub use watchable_store::MvccStore;

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
