//! etcd watchers (§A.5): inclusive start revision, catch-up from history, cancellation with
//! `compact_revision`, progress notifications.

use super::kv::{KeyValue, ResponseHeader};

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
