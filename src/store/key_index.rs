//! Per-key generations (etcd's keyIndex): which revisions of a key exist, which one is visible at
//! a given revision, and what compaction keeps (§A.2, §A.4).
