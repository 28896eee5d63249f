//! etcd watchers (§A.5): inclusive start revision, catch-up from history, cancellation with
//! `compact_revision`, progress notifications.
//!
//! This module owns the watcher registry (etcd's `watcherGroup`: single-key watchers in a map by
//! key, range watchers in a list) and each watcher's queue of [`WatchResponse`]s. The store
//! ([`super::MvccStore`], `watchable_store.go`'s role) decides what to send: catch-up from the
//! backend when a watcher starts in the past, one response per write txn afterwards.
//!
//! Every watcher is "synced" as soon as it is created (the model catches up at once where etcd
//! does it within ~100 ms), so events never depend on timing.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::key_index::KeyRange;
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

/// One registered watcher (etcd's `watcher`).
#[derive(Debug, Clone)]
pub(crate) struct Watcher {
    pub(crate) key: Vec<u8>,
    pub(crate) range_end: Vec<u8>,
    pub(crate) range: KeyRange,
    /// Events with a lower revision are not sent (future start revisions wait here).
    pub(crate) min_rev: i64,
    pub(crate) prev_kv: bool,
    pub(crate) progress_notify: bool,
    /// No events sent since the last progress tick (etcd's `progress[id]`).
    pub(crate) idle: bool,
}

/// All watchers of a store and what they have been sent (etcd's `watcherGroup` + the streams).
#[derive(Debug, Clone, Default)]
pub(crate) struct Watchers {
    next_id: i64,
    active: BTreeMap<WatchId, Watcher>,
    /// Single-key watchers by key.
    by_key: BTreeMap<Vec<u8>, BTreeSet<WatchId>>,
    /// Watchers of a key range (scanned per event; kube-apiserver has a handful).
    ranged: BTreeSet<WatchId>,
    /// Responses not yet taken; kept after a watcher is dropped until they are drained.
    queues: BTreeMap<WatchId, VecDeque<WatchResponse>>,
}

impl Watchers {
    pub(crate) fn allocate_id(&mut self) -> WatchId {
        let id = WatchId(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    pub(crate) fn add(&mut self, id: WatchId, w: Watcher) {
        match &w.range {
            KeyRange::Single(k) => {
                self.by_key.entry(k.clone()).or_default().insert(id);
            }
            _ => {
                self.ranged.insert(id);
            }
        }
        self.active.insert(id, w);
    }

    /// Unregisters a watcher; its queued responses stay until taken. True if it was active.
    pub(crate) fn drop_watcher(&mut self, id: WatchId) -> bool {
        let Some(w) = self.active.remove(&id) else {
            return false;
        };
        if let KeyRange::Single(k) = &w.range {
            if let Some(set) = self.by_key.get_mut(k) {
                set.remove(&id);
                if set.is_empty() {
                    self.by_key.remove(k);
                }
            }
        } else {
            self.ranged.remove(&id);
        }
        true
    }

    /// Removes a watcher and everything queued for it. True if it was active.
    pub(crate) fn cancel(&mut self, id: WatchId) -> bool {
        let was = self.drop_watcher(id);
        self.queues.remove(&id);
        was
    }

    pub(crate) fn get(&self, id: WatchId) -> Option<&Watcher> {
        self.active.get(&id)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.active.is_empty()
    }

    /// For an event on `key` at `rev`: pushes `(id, wants prev_kv)` of every active watcher
    /// whose range contains `key` and whose `min_rev <= rev`, in id order.
    pub(crate) fn matching_into(&self, key: &[u8], rev: i64, out: &mut Vec<(WatchId, bool)>) {
        let start = out.len();
        let mut push = |id: &WatchId, w: &Watcher| {
            if rev >= w.min_rev {
                out.push((*id, w.prev_kv));
            }
        };
        if let Some(set) = self.by_key.get(key) {
            for id in set {
                if let Some(w) = self.active.get(id) {
                    push(id, w);
                }
            }
        }
        for id in &self.ranged {
            if let Some(w) = self.active.get(id)
                && w.range.contains(key)
            {
                push(id, w);
            }
        }
        out[start..].sort_unstable_by_key(|(id, _)| *id);
    }

    /// Queues a response for `id`; one carrying events ends the watcher's idle period.
    pub(crate) fn send(&mut self, id: WatchId, resp: WatchResponse) {
        if !resp.events.is_empty()
            && let Some(w) = self.active.get_mut(&id)
        {
            w.idle = false;
        }
        self.queues.entry(id).or_default().push_back(resp);
    }

    pub(crate) fn take(&mut self, id: WatchId) -> Vec<WatchResponse> {
        if self.active.contains_key(&id) {
            // Keep the (empty) queue of an active watcher: its next send reuses the buffer.
            self.queues.get_mut(&id).map(|q| q.drain(..).collect()).unwrap_or_default()
        } else {
            self.queues.remove(&id).map(|q| q.into_iter().collect()).unwrap_or_default()
        }
    }

    /// Watchers that asked for progress notifications and have been idle since the last tick;
    /// every progress watcher's idle flag is re-armed (etcd's progress ticker).
    pub(crate) fn idle_tick(&mut self) -> Vec<WatchId> {
        let mut due = Vec::new();
        for (id, w) in self.active.iter_mut().filter(|(_, w)| w.progress_notify) {
            if w.idle {
                due.push(*id);
            }
            w.idle = true;
        }
        due
    }

    pub(crate) fn infos(&self) -> Vec<WatcherInfo> {
        self.active
            .iter()
            .map(|(id, w)| WatcherInfo {
                id: *id,
                key: w.key.clone(),
                range_end: w.range_end.clone(),
                min_revision: w.min_rev,
                prev_kv: w.prev_kv,
                progress_notify: w.progress_notify,
                pending: self.queues.get(id).map_or(0, |q| q.len()),
            })
            .collect()
    }
}
