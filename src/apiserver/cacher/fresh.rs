//! `waitUntilFreshAndBlock` (apiserver `storage/cacher/watch_cache.go` @ v1.34.0): a read the
//! cache serves waits, at most [`FRESHNESS_TIMEOUT`], for the cache to reach the revision it
//! needs, asking etcd for a progress notification meanwhile; what such a wait would take
//! ([`Cacher::fresh_at`], read only); and a [`Held`] read that has waited already.

use super::{Cacher, Incoming, rv_u64};
use crate::apiserver::decision::{Outcome, Path, Why};
use crate::apiserver::status::Status;
use crate::clock::{Clock, Duration, Instant};
use crate::store::MvccStore;

/// How long a request waits for the cache to catch up (`blockTimeout`).
pub const FRESHNESS_TIMEOUT: Duration = Duration::from_secs(3);

/// A read that has already waited for the watch cache before its line runs (`rvlab serve`
/// holds such a request in wall time while everything else goes on, and records it with
/// `waited=<duration>@<revision>`): it arrived `waited` ago, when etcd's revision was
/// `revision`. Its freshness wait counts from its arrival, and a consistent read waits for
/// `revision` (the revision `waitUntilFreshAndBlock` was given then), not etcd's revision now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub waited: Duration,
    pub revision: i64,
}

impl Cacher {
    /// Asks etcd for a progress notification (it arrives behind everything already sent).
    pub fn request_progress(&mut self, etcd: &mut MvccStore, now: Instant) {
        if let Some(id) = self.etcd_watch {
            etcd.request_progress(id);
            self.pull(etcd, now);
        }
    }

    /// The progress notification a [`Held`] read asked for when it came, `held.waited` before
    /// `now`: etcd's revision then, arriving one lag after it, in order behind what etcd had
    /// sent before it (what was sent later carries higher revisions and stays behind it).
    pub(super) fn progress_since(&mut self, held: Held, now: Instant) {
        if self.etcd_watch.is_none() {
            return;
        }
        let asked = Instant(now.0.saturating_sub(held.waited.0));
        let arrival = asked + self.lag;
        let at = self.incoming.iter().position(|(t, _)| *t > arrival).unwrap_or(self.incoming.len());
        let arrival =
            at.checked_sub(1).and_then(|i| self.incoming.get(i)).map_or(arrival, |(t, _)| (*t).max(arrival));
        self.incoming.insert(at, (arrival, Incoming::Progress(held.revision)));
    }

    /// When the items already queued bring the cache to `target`, if they do.
    pub(super) fn queued_reach(&self, target: i64) -> Option<Instant> {
        let mut rv = self.cache.resource_version();
        for (t, item) in &self.incoming {
            rv = match item {
                Incoming::Events(evs) => evs.iter().map(|e| e.kv.mod_revision).max().unwrap_or(rv).max(rv),
                Incoming::Progress(r) => (*r).max(rv),
                Incoming::Canceled => rv,
            };
            if rv >= target {
                return Some(*t);
            }
        }
        None
    }

    /// When a read that starts [`Self::wait_until_fresh`] at `now` would find the cache at
    /// `target` (etcd's head or below), without waiting: None if it is there already. The
    /// queued responses may bring it; else the progress notification the wait requests does,
    /// arriving behind everything queued. (Read only: the pictures' freshness-wait timer.)
    pub fn fresh_at(&self, target: i64, now: Instant) -> Option<Instant> {
        if self.cache.resource_version() >= target {
            return None;
        }
        self.queued_reach(target).or_else(|| self.etcd_watch.map(|_| self.next_arrival_floor(now + self.lag)))
    }

    /// `waitUntilFreshAndBlock`: lets simulated time pass (≤ 3 s) until the cache's RV reaches
    /// `target`. Returns whether it did.
    pub fn wait_until_fresh(&mut self, target: i64, etcd: &mut MvccStore, clock: &mut Clock) -> bool {
        self.wait_until_fresh_held(target, None, etcd, clock)
    }

    /// [`Self::wait_until_fresh`] for a read that may have waited already ([`Held`]): what is
    /// left of its 3 s.
    pub(super) fn wait_until_fresh_held(
        &mut self,
        target: i64,
        held: Option<Held>,
        etcd: &mut MvccStore,
        clock: &mut Clock,
    ) -> bool {
        if self.cache.resource_version() >= target {
            return true;
        }
        match held {
            Some(h) => {
                // The wait asked etcd for progress when the read came (`waitUntilFreshAndBlock`
                // with the progress requester): etcd's answer, its revision then, reaches the
                // cache one lag later, behind what was sent before it.
                self.progress_since(h, clock.now());
                self.apply_arrived(etcd, clock.now());
                if self.cache.resource_version() >= target {
                    return true;
                }
            }
            None => self.request_progress(etcd, clock.now()),
        }
        let waited = held.map_or(Duration(0), |h| h.waited);
        let deadline = clock.now() + Duration(FRESHNESS_TIMEOUT.0.saturating_sub(waited.0));
        match self.queued_reach(target) {
            Some(t) if t <= deadline => {
                clock.advance_to(t);
                self.apply_arrived(etcd, clock.now());
                true
            }
            _ => {
                clock.advance_to(deadline);
                self.apply_arrived(etcd, clock.now());
                self.cache.resource_version() >= target
            }
        }
    }

    /// `waitUntilFreshAndBlock` for a read that needs the cache at `n`: on timeout, the 504
    /// `Too large resource version` with `Retry-After: 1` (§C.5).
    pub(super) fn wait_fresh(
        &mut self,
        n: i64,
        held: Option<Held>,
        etcd: &mut MvccStore,
        clock: &mut Clock,
        why: &mut Why,
    ) -> Result<(), Status> {
        if self.wait_until_fresh_held(n, held, etcd, clock) {
            return Ok(());
        }
        let cur = self.cache.resource_version();
        why.path = Some(Path::WatchCache);
        why.outcome = Some(Outcome::CacheNotFresh);
        why.cache_rv = Some(cur);
        why.retry_after = Some(1);
        Err(Status::too_large_resource_version(rv_u64(n), rv_u64(cur), 1))
    }
}
