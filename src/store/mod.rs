//! The etcd model: an MVCC key-value store with one global revision, per-key generations,
//! compaction and watches. It knows nothing of Kubernetes (spec §A).
