//! The open watch streams of one apiserver, as its clients see them: reading frames, pausing,
//! cancelling, why a stream ended, and what a picture shows of each. A stream is fed either by a
//! cache watcher (its cacher is asked) or straight by an etcd watch (k8s.io/apiserver
//! `endpoints/handlers/watch.go` serving what `storage.Interface.Watch` returned).

use super::ApiServer;
use crate::apiserver::cacher::Cacher;
use crate::apiserver::decision::{EndReason, Ended};
use crate::apiserver::watch::{Frame, WatchSource, WatchStream};
use crate::store::MvccStore;

/// What a picture shows of one watch stream on the server side (see `script::view`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchStreamView {
    pub resource: &'static str,
    /// Served by a cache watcher (else straight from an etcd watch).
    pub from_cache: bool,
    /// The RV a cache watcher started after.
    pub started_from: Option<i64>,
    /// Frames sent and not yet read by the client.
    pub unread: usize,
    /// Frames held in the cache watcher's channels while its consumer does not read, and how
    /// many fit before it is terminated as a slow consumer (2 × channel size + 1).
    pub buffered: usize,
    pub buffer_limit: usize,
    pub paused: bool,
    pub closed: bool,
    /// When the server ends it (`timeoutSeconds`), in simulated ms.
    pub deadline_ms: Option<u64>,
    /// When the next BOOKMARK is due, in simulated ms.
    pub next_bookmark_ms: Option<u64>,
}

impl ApiServer {
    /// Watch stream `id` and the cacher feeding it, if a cache watcher does.
    fn stream_and_cacher(&mut self, id: u64) -> Option<(&mut WatchStream, Option<&mut Cacher>)> {
        let stream = self.watches.get_mut(&id)?;
        let cacher = match stream.source {
            WatchSource::Cache(resource) => self.cachers.get_mut(resource),
            WatchSource::Etcd(_) | WatchSource::Done => None,
        };
        Some((stream, cacher))
    }

    /// Reads every frame sent on watch `id` since the last read, and whether the server has ended
    /// the stream. `None` if there is no such watch.
    pub fn read_watch(&mut self, etcd: &mut MvccStore, id: u64) -> Option<(Vec<Frame>, bool)> {
        let (stream, cacher) = self.stream_and_cacher(id)?;
        match cacher.and_then(|c| c.read_watcher(id).map(|r| (r, c.watcher_close_reason(id)))) {
            Some(((frames, closed), reason)) => {
                if closed {
                    stream.closed = true;
                    stream.close_reason = reason.flatten();
                }
                Some((frames, closed))
            }
            None if matches!(stream.source, WatchSource::Cache(_)) => {
                // The cacher has forgotten the watcher (it ended and everything was read).
                stream.closed = true;
                Some((stream.pending.drain(..).collect(), true))
            }
            None => {
                let frames = stream.drain(etcd);
                Some((frames, stream.closed && stream.pending.is_empty()))
            }
        }
    }

    pub fn is_paused(&self, id: u64) -> bool {
        self.watches.get(&id).is_some_and(|s| s.paused)
    }

    /// Stops (or restarts) the client reading watch `id`.
    pub fn pause_watch(&mut self, id: u64, paused: bool) -> bool {
        let Some((stream, cacher)) = self.stream_and_cacher(id) else { return false };
        stream.paused = paused;
        if let Some(c) = cacher {
            c.pause_watcher(id, paused);
        }
        true
    }

    /// The client hangs up.
    pub fn cancel_watch(&mut self, etcd: &mut MvccStore, id: u64) -> bool {
        let Some((stream, cacher)) = self.stream_and_cacher(id) else { return false };
        if let Some(c) = cacher {
            c.close_watcher(id, Ended::new(EndReason::Cancelled));
        }
        stream.close(Ended::new(EndReason::Cancelled), etcd);
        true
    }

    /// Forgets watch `id`, as kube-apiserver does once a watch's handler has returned: its
    /// stream, its cache watcher and anything not read are dropped (a stream still open is
    /// cancelled first). Whether it knew the watch.
    pub fn forget_watch(&mut self, etcd: &mut MvccStore, id: u64) -> bool {
        let Some(mut stream) = self.watches.remove(&id) else { return false };
        if let WatchSource::Cache(resource) = stream.source
            && let Some(c) = self.cachers.get_mut(resource)
        {
            c.close_watcher(id, Ended::new(EndReason::Cancelled));
            let _ = c.take_watcher(id);
        }
        // An ended stream keeps its reason; an etcd watch still open is cancelled.
        stream.close(Ended::new(EndReason::Cancelled), etcd);
        self.open_etcd_streams.remove(&id);
        true
    }

    /// How many watch streams this apiserver keeps (open, or ended and not forgotten).
    pub fn kept_watches(&self) -> usize {
        self.watches.len()
    }

    /// What a picture shows of watch stream `id` (read only).
    pub fn watch_view(&self, id: u64) -> Option<WatchStreamView> {
        let stream = self.watches.get(&id)?;
        let cached = match stream.source {
            WatchSource::Cache(resource) => self.cachers.get(resource).and_then(|c| c.watcher_view(id)),
            WatchSource::Etcd(_) | WatchSource::Done => None,
        };
        Some(match cached {
            Some(w) => WatchStreamView {
                resource: stream.info.resource,
                from_cache: true,
                started_from: Some(w.started_from),
                unread: w.unread,
                buffered: w.buffered,
                buffer_limit: w.buffer_limit,
                paused: stream.paused,
                closed: w.closed,
                deadline_ms: Some(w.deadline.0),
                next_bookmark_ms: w.next_bookmark.map(|t| t.0),
            },
            None => WatchStreamView {
                resource: stream.info.resource,
                from_cache: matches!(stream.source, WatchSource::Cache(_)),
                started_from: None,
                unread: stream.pending.len(),
                buffered: 0,
                buffer_limit: 0,
                paused: stream.paused,
                closed: stream.closed,
                deadline_ms: stream.deadline.map(|t| t.0),
                next_bookmark_ms: None,
            },
        })
    }

    /// Why watch `id` ended, if it has.
    pub fn watch_close_reason(&self, id: u64) -> Option<Ended> {
        let stream = self.watches.get(&id)?;
        let from_cache = match stream.source {
            WatchSource::Cache(resource) => {
                self.cachers.get(resource).and_then(|c| c.watcher_close_reason(id))
            }
            WatchSource::Etcd(_) | WatchSource::Done => None,
        };
        let mut ended = from_cache.unwrap_or_else(|| stream.close_reason.clone())?;
        ended.apiserver = self.index + 1;
        Some(ended)
    }
}
