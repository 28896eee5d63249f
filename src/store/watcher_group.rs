//! The registry of etcd watchers (etcd's `watcher_group.go`): single-key watchers in a map by
//! key, range watchers in a set (kube-apiserver has a handful), each watcher's `minRev`, and the
//! queue of [`WatchResponse`]s each has been sent and not yet taken (the stream's buffer).
//!
//! It decides nothing about what to send: [`super::watchable_store`] does, and only calls
//! in here to find the watchers of a key and to queue responses.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::api::{WatchId, WatchResponse, WatcherInfo};
use super::key_index::KeyRange;

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
pub(crate) struct WatcherGroup {
    next_id: i64,
    active: BTreeMap<WatchId, Watcher>,
    /// Single-key watchers by key.
    by_key: BTreeMap<Vec<u8>, BTreeSet<WatchId>>,
    /// Watchers of a key range (scanned per event; kube-apiserver has a handful).
    ranged: BTreeSet<WatchId>,
    /// Responses not yet taken; kept after a watcher is dropped until they are drained.
    queues: BTreeMap<WatchId, VecDeque<WatchResponse>>,
}

impl WatcherGroup {
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

    /// How many responses are queued for `id` and not yet taken.
    pub(crate) fn queued(&self, id: WatchId) -> usize {
        self.queues.get(&id).map_or(0, |q| q.len())
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
