//! The life of one apiserver between requests: its watch caches (started, stopped, tuned),
//! restarts, what etcd sends arriving in the caches, and the 1 s timer (bookmarks, watch
//! deadlines) — the `cacher.go` / `watch_cache.go` background loops and the server's start-up.

use super::ApiServer;
use crate::apiserver::cacher::{CacheView, Cacher};
use crate::apiserver::compactor::Compactor;
use crate::apiserver::decision::{EndReason, Ended, Path};
use crate::apiserver::resource::RESOURCES;
use crate::apiserver::watch::WatchSource;
use crate::clock::{Duration, Instant};
use crate::store::MvccStore;

impl ApiServer {
    pub(super) fn start_caches(&mut self, etcd: &mut MvccStore, now: Instant, init_delay: Duration) {
        for info in RESOURCES {
            let mut c = Cacher::new(info, etcd, now, init_delay);
            c.set_lag(self.config.cache_lag);
            c.set_capacity(self.config.cache_capacity);
            self.cachers.insert(info.resource, c);
        }
    }

    fn stop_caches(&mut self, etcd: &mut MvccStore, why: EndReason) {
        for c in self.cachers.values_mut() {
            c.stop(etcd, why);
        }
        // Frames already sent stay readable on the (now ended) streams.
        for (id, stream) in self.watches.iter_mut() {
            if let WatchSource::Cache(resource) = stream.source {
                if let Some((frames, reason)) =
                    self.cachers.get_mut(resource).and_then(|c| c.take_watcher(*id))
                {
                    stream.pending.extend(frames);
                    stream.close_reason = reason;
                }
                stream.source = WatchSource::Done;
                stream.closed = true;
            }
        }
        self.cachers.clear();
    }

    /// `--watch-cache` on or off.
    pub fn set_watch_cache(&mut self, on: bool, etcd: &mut MvccStore, now: Instant) {
        if on == self.config.watch_cache {
            return;
        }
        self.config.watch_cache = on;
        if on {
            self.start_caches(etcd, now, Duration(0));
        } else {
            self.stop_caches(etcd, EndReason::CacheOff);
        }
    }

    pub fn set_cache_lag(&mut self, lag: Duration) {
        self.config.cache_lag = lag;
        for c in self.cachers.values_mut() {
            c.set_lag(lag);
        }
    }

    pub fn set_cache_capacity(&mut self, pinned: Option<usize>) {
        self.config.cache_capacity = pinned;
        for c in self.cachers.values_mut() {
            c.set_capacity(pinned);
        }
    }

    /// The process restarts: every watch ends, the caches relist and are not ready for a while.
    pub fn restart(&mut self, etcd: &mut MvccStore, now: Instant) {
        self.stop_caches(etcd, EndReason::Restart);
        for w in self.watches.values_mut() {
            w.pump(etcd);
            let mut ended = Ended::new(EndReason::Restart);
            ended.path = Some(Path::Etcd);
            w.close(ended, etcd);
        }
        if self.config.watch_cache {
            let delay = self.config.init_delay;
            self.start_caches(etcd, now, delay);
        }
        // A restart keeps the apiserver's flags, the compactor's interval among them.
        let interval = self.compactor.interval;
        self.compactor = Compactor::new(now);
        self.compactor.set_interval(interval, now);
    }

    /// Each watch cache as a picture shows it; `head` is etcd's current revision (what a
    /// consistent read would wait for).
    pub fn cache_views(&self, now: Instant, head: i64) -> Vec<CacheView> {
        self.cachers.values().map(|c| c.view(self.index, now, head)).collect()
    }

    /// The apiserver learns of a compaction (through its compactor or `compact`).
    pub fn note_compaction(&mut self, rev: i64) {
        for c in self.cachers.values_mut() {
            c.note_compaction(rev);
        }
    }

    /// Moves what etcd sent into the caches' lag queues, applies what has arrived, and notes
    /// when etcd sent what waits for the etcd-direct watches (they take it when read).
    pub fn sync(&mut self, etcd: &mut MvccStore, now: Instant) {
        for c in self.cachers.values_mut() {
            c.pull(etcd, now);
            c.apply_arrived(etcd, now);
        }
        for id in &self.open_etcd_streams {
            if let Some(w) = self.watches.get_mut(id) {
                w.note_sent(etcd, now);
            }
        }
    }

    /// The earliest instant at which a lagging cache receives something.
    pub fn next_arrival(&self) -> Option<Instant> {
        self.cachers.values().filter_map(Cacher::next_arrival).min()
    }

    /// When the 1 s timer next has something to do here (a bookmark or a watch deadline).
    pub fn next_timer_due(&self) -> Option<Instant> {
        let caches = self.cachers.values().filter_map(Cacher::next_timer_due).min();
        let streams = self
            .open_etcd_streams
            .iter()
            .filter_map(|id| self.watches.get(id))
            .filter(|w| !w.closed)
            .filter_map(|w| w.deadline)
            .min();
        match (caches, streams) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// One tick of the 1 s timers: bookmarks and watch deadlines.
    pub fn tick(&mut self, etcd: &mut MvccStore, now: Instant) {
        for c in self.cachers.values_mut() {
            c.tick(now, &self.config.features);
            for (id, reason) in c.collect_ended() {
                if let Some(stream) = self.watches.get_mut(&id) {
                    stream.closed = true;
                    stream.source = WatchSource::Done;
                    if stream.close_reason.is_none() {
                        stream.close_reason = reason;
                    }
                }
            }
        }
        let watches = &mut self.watches;
        self.open_etcd_streams.retain(|id| {
            let Some(w) = watches.get_mut(id) else { return false };
            if !w.closed && w.deadline.is_some_and(|d| now >= d) {
                w.pump(etcd);
                let mut ended = Ended::new(EndReason::Timeout);
                ended.path = Some(Path::Etcd);
                w.close(ended, etcd);
            }
            !w.closed
        });
    }
}
