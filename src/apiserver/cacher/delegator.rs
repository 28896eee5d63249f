//! `CacheDelegator` (the cacher's `delegator.go`; §C.3 and its history §C.4): the storage the
//! registry reads through. It decides which path serves a get, list or watch — the watch cache,
//! one of its snapshots, or etcd — falls back when the cache cannot, and returns each answer with
//! its typed decision ([`Why`]). The caller never knows which path served.

use serde_json::Value;

use super::{CacheList, CacheWatchArgs, Cacher, ListArgs};
use crate::apiserver::continue_token::ContinueToken;
use crate::apiserver::decision::{Outcome, Path, Rule, Semantics, Why};
use crate::apiserver::etcd3::{self, ListPage, ListRequest, ReadAt, StorageError};
use crate::apiserver::features::{Features, Gate};
use crate::apiserver::object::ResourceVersion;
use crate::apiserver::request::RvMatch;
use crate::apiserver::status::Status;
use crate::apiserver::watch::{WatchArgs, WatchStream};
use crate::clock::{Clock, Instant};
use crate::store::MvccStore;

/// A read path (§C.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPath {
    /// etcd Range at its current revision.
    EtcdLatest,
    /// etcd at its current revision, failing if that is below n.
    EtcdNotOlderThan(u64),
    /// etcd Range at exactly revision n.
    EtcdAt(u64),
    /// The cache's current state, no waiting.
    CacheAny,
    /// Wait until the cache has seen n, then its current state.
    CacheMin(u64),
    /// Learn etcd's current revision, wait for the cache to reach it, then its state.
    CacheConsistent,
    /// The cache's snapshot at n, else etcd at n.
    CacheSnapshot(u64),
}

/// The parts of a list request that decide its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListShape {
    /// `None` = unset or "".
    pub rv: Option<u64>,
    /// `resourceVersionMatch`: unset, `Exact` or `NotOlderThan` (validation has refused others).
    pub rv_match: MatchShape,
    pub limit: i64,
    /// The continue token's rv, when one is given.
    pub continue_rv: Option<i64>,
    pub has_selector: bool,
}

/// The three states of `resourceVersionMatch` a valid list can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchShape {
    Unset,
    Exact,
    NotOlderThan,
}

impl MatchShape {
    /// From the request's option (an unsupported value never gets past validation; it counts
    /// as unset).
    pub fn of(m: Option<&RvMatch>) -> MatchShape {
        match m {
            Some(RvMatch::Exact) => MatchShape::Exact,
            Some(RvMatch::NotOlderThan) => MatchShape::NotOlderThan,
            Some(RvMatch::Unsupported(_)) | None => MatchShape::Unset,
        }
    }
}

impl ListShape {
    /// `resourceVersionMatch=Exact`, or the legacy rule: rv=n with a limit and no match.
    fn exactish(&self) -> bool {
        match self.rv_match {
            MatchShape::Exact => true,
            MatchShape::NotOlderThan => false,
            MatchShape::Unset => self.limit > 0,
        }
    }

    /// The resourceVersion semantics the list asked for (the docs' "Semantics for get and list").
    pub fn semantics(&self) -> Semantics {
        match (self.continue_rv, self.rv) {
            (Some(crv), _) if crv <= 0 => Semantics::ContinueLatest,
            (Some(_), _) => Semantics::Continue,
            (None, None) => Semantics::MostRecent,
            (None, Some(0)) => Semantics::Any,
            (None, Some(_)) => match (self.rv_match, self.exactish()) {
                (MatchShape::Exact, _) => Semantics::Exact,
                (_, true) => Semantics::LegacyExact,
                (_, false) => Semantics::NotOlderThan,
            },
        }
    }
}

/// The semantics of a get with `rv` (`None` = unset).
pub fn get_semantics(rv: Option<u64>) -> Semantics {
    match rv {
        None => Semantics::MostRecent,
        Some(0) => Semantics::Any,
        Some(_) => Semantics::NotOlderThan,
    }
}

/// Routes a list (§C.3 rows; §C.4 for older profiles; "cache disabled" rows when `cache` is false).
pub fn route_list(s: &ListShape, f: &Features, cache: bool) -> (ReadPath, Rule) {
    if let Some(crv) = s.continue_rv {
        // `cacher.go` `ShouldDelegateContinue` (kubernetes/kubernetes#130423, 1.33): without
        // snapshots (`ListFromCacheSnapshot` off, i.e. before 1.34) every continuation is delegated
        // to etcd, whatever its revision; with them, a revision ≤ 0 is a consistent read
        // (`ShouldDelegateConsistentRead`). Before 1.33 `shouldDelegateList` sent every
        // continuation to etcd too (`hasContinuation`, cacher.go @ v1.30.0–v1.32.0).
        return if crv <= 0 {
            if !cache {
                (ReadPath::EtcdLatest, Rule::WatchCacheOff)
            } else if f.list_from_cache_snapshot && f.consistent_list_from_cache {
                (ReadPath::CacheConsistent, Rule::ConsistentReadFromCache)
            } else if f.consistent_list_from_cache {
                (ReadPath::EtcdLatest, Rule::ContinueLatestFromEtcd)
            } else {
                (ReadPath::EtcdLatest, Rule::ConsistentReadFromEtcd)
            }
        } else if !cache {
            (ReadPath::EtcdAt(ResourceVersion::of_revision(crv).0), Rule::WatchCacheOff)
        } else if f.list_from_cache_snapshot {
            (ReadPath::CacheSnapshot(ResourceVersion::of_revision(crv).0), Rule::ExactFromCacheSnapshot)
        } else {
            (ReadPath::EtcdAt(ResourceVersion::of_revision(crv).0), Rule::ExactFromEtcd)
        };
    }
    let exactish = s.exactish();
    if !cache {
        let path = match s.rv {
            None | Some(0) => ReadPath::EtcdLatest,
            Some(n) if exactish => ReadPath::EtcdAt(n),
            Some(n) => ReadPath::EtcdNotOlderThan(n),
        };
        return (path, Rule::WatchCacheOff);
    }
    if f.minor <= 30 {
        // The 1.30 `shouldDelegateList`: consistent reads, continuations, limit≠0 (except rv=0) and
        // Exact all go to etcd.
        return match s.rv {
            // ConsistentListFromCache is alpha (off) in 1.30; `--feature-gates` may turn it on. Even
            // then `hasLimit` delegates a consistent list with a limit (1.30 `shouldDelegateList`).
            None if f.consistent_list_from_cache && s.limit <= 0 => {
                (ReadPath::CacheConsistent, Rule::ConsistentReadFromCache)
            }
            None => (ReadPath::EtcdLatest, Rule::ConsistentReadFromEtcd),
            Some(0) => (ReadPath::CacheAny, Rule::AnyFromCache),
            Some(n) if exactish => (ReadPath::EtcdAt(n), Rule::ExactFromEtcd),
            Some(n) if s.limit > 0 => (ReadPath::EtcdNotOlderThan(n), Rule::PaginatedListFromEtcd),
            Some(n) => (ReadPath::CacheMin(n), Rule::NotOlderThanFromCache),
        };
    }
    match s.rv {
        None if f.consistent_list_from_cache => (ReadPath::CacheConsistent, Rule::ConsistentReadFromCache),
        None => (ReadPath::EtcdLatest, Rule::ConsistentReadFromEtcd),
        Some(0) => (ReadPath::CacheAny, Rule::AnyFromCache),
        Some(n) if exactish && f.list_from_cache_snapshot => {
            (ReadPath::CacheSnapshot(n), Rule::ExactFromCacheSnapshot)
        }
        Some(n) if exactish => (ReadPath::EtcdAt(n), Rule::ExactFromEtcd),
        Some(n) => (ReadPath::CacheMin(n), Rule::NotOlderThanFromCache),
    }
}

/// Routes a get (§C.3: gets never use the consistent cache path).
pub fn route_get(rv: Option<u64>, cache: bool) -> (ReadPath, Rule) {
    match (rv, cache) {
        (None, _) => (ReadPath::EtcdLatest, Rule::GetFromEtcd),
        (Some(0), true) => (ReadPath::CacheAny, Rule::AnyFromCache),
        (Some(0), false) => (ReadPath::EtcdLatest, Rule::WatchCacheOff),
        (Some(n), true) => (ReadPath::CacheMin(n), Rule::NotOlderThanFromCache),
        (Some(n), false) => (ReadPath::EtcdNotOlderThan(n), Rule::WatchCacheOff),
    }
}

/// What a read may touch besides the cache: etcd, and the clock (a wait lets time pass).
pub struct ReadCtx<'a> {
    pub etcd: &'a mut MvccStore,
    pub clock: &'a mut Clock,
    /// A read that has waited for the watch cache already (`waited=` on its line).
    pub held: Option<super::Held>,
}

/// Why a read failed: a storage error (the registry names the object in its Status) or an
/// answer the storage layer gives as a Status itself.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadError {
    Storage(StorageError),
    /// Boxed: a `Status` is large and this path is rare.
    Api(Box<Status>),
}

/// Where a started watch's frames come from.
#[derive(Debug, Clone)]
pub enum StartedWatch {
    /// A cache watcher with the watch's id, in the resource's cacher.
    Cache,
    /// A stream straight from an etcd watch.
    Etcd(Box<WatchStream>),
}

/// A resourceVersion from a URL as an etcd revision.
fn revision(n: u64) -> i64 {
    ResourceVersion(n).revision()
}

/// The watch semantics of `rv` and `sendInitialEvents` (the docs' "Semantics for watch").
pub fn watch_semantics(rv: Option<u64>, send_initial_events: Option<bool>) -> Semantics {
    match (send_initial_events, rv) {
        (Some(true), _) => Semantics::SendInitialEvents,
        (_, None) => Semantics::MostRecent,
        (_, Some(0)) => Semantics::Any,
        (_, Some(_)) => Semantics::Exact,
    }
}

/// The storage the registry reads through: the resource's cacher (if the watch cache is on)
/// in front of etcd.
pub struct CacheDelegator<'a> {
    cacher: Option<&'a mut Cacher>,
    features: &'a Features,
}

impl<'a> CacheDelegator<'a> {
    pub fn new(cacher: Option<&'a mut Cacher>, features: &'a Features) -> Self {
        CacheDelegator { cacher, features }
    }

    /// Names ResilientWatchCacheInitialization when it is off against its release's default
    /// (1.31–1.33) and so made the read wait for an unready cache.
    fn note_resilience_gate(&self, why: &mut Why) {
        if self.features.overridden(Gate::ResilientWatchCacheInitialization) {
            why.decided_by(Gate::ResilientWatchCacheInitialization, false);
        }
    }

    /// The cacher, if it is there and ready to serve at `now`.
    fn ready_cacher(&mut self, now: Instant) -> Option<&mut Cacher> {
        self.cacher.as_deref_mut().filter(|c| c.is_ready(now))
    }

    /// `Get` of the object at `key` with `resourceVersion` `rv` (`None` = unset).
    pub fn get(
        &mut self,
        ctx: &mut ReadCtx<'_>,
        key: &str,
        rv: Option<u64>,
    ) -> (Result<Value, ReadError>, Why) {
        let (path, rule) = route_get(rv, self.cacher.is_some());
        let mut why = Why::new(rule).semantics(get_semantics(rv));
        why.rv = rv.map(revision);
        let mut now = ctx.clock.now();
        if !self.features.resilient_watch_cache_init
            && matches!(path, ReadPath::CacheMin(n) if n > 0)
            && let Some(c) = self.cacher.as_deref_mut()
            && !c.is_ready(now)
        {
            // 1.30: a get that needs a minimal resourceVersion blocks until the cache is ready
            // (`cacher.go` `Get`: `c.ready.wait(ctx)`); rv=0 goes to etcd.
            c.wait_ready(ctx.etcd, ctx.clock);
            why.outcome = Some(Outcome::CacheWaitedReady);
            self.note_resilience_gate(&mut why);
            now = ctx.clock.now();
        }
        let etcd_at = match path {
            ReadPath::CacheAny | ReadPath::CacheMin(_) => match self.ready_cacher(now) {
                Some(c) => {
                    let min = match path {
                        ReadPath::CacheMin(n) => Some(revision(n)),
                        _ => None,
                    };
                    let result = match c.get(key, min, ctx.held, ctx.etcd, ctx.clock, &mut why) {
                        Ok(Some(obj)) => {
                            why.revision =
                                crate::apiserver::object::resource_version(&obj).and_then(|r| r.parse().ok());
                            Ok(obj)
                        }
                        Ok(None) => Err(ReadError::Storage(StorageError::NotFound)),
                        Err(status) => Err(ReadError::Api(Box::new(status))),
                    };
                    return (result, why);
                }
                None => {
                    why.outcome = Some(Outcome::CacheNotReady);
                    match rv {
                        Some(n) if n > 0 => ReadAt::NotOlderThan(n),
                        _ => ReadAt::Latest,
                    }
                }
            },
            ReadPath::EtcdLatest => ReadAt::Latest,
            ReadPath::EtcdNotOlderThan(n) => ReadAt::NotOlderThan(n),
            ReadPath::EtcdAt(n) => ReadAt::Exact(n),
            // Gets never route to these (§C.3); served by etcd at the revision if they did.
            ReadPath::CacheConsistent => ReadAt::Latest,
            ReadPath::CacheSnapshot(n) => ReadAt::Exact(n),
        };
        why.path = Some(Path::Etcd);
        let result = etcd3::get(ctx.etcd, key, etcd_at).map_err(ReadError::Storage);
        if let Ok(obj) = &result {
            why.revision = crate::apiserver::object::resource_version(obj).and_then(|r| r.parse().ok());
        }
        (result, why)
    }

    /// `GetList` of `shape` over `args`: routed by [`route_list`], served by the cache or etcd,
    /// with the 410 of a compacted continuation offering the `rv:-1` token.
    pub fn list(
        &mut self,
        ctx: &mut ReadCtx<'_>,
        shape: &ListShape,
        args: &ListArgs<'_>,
    ) -> (Result<ListPage, ReadError>, Why) {
        let (mut path, rule) = route_list(shape, self.features, self.cacher.is_some());
        let mut why = Why::new(rule).semantics(shape.semantics());
        // A gate switched away from the release's default that chose this path is named (only
        // when its value is the one the rule follows from: 1.30's `hasLimit` sends a consistent
        // list to etcd with the gate on, and that is not the gate's doing).
        let gate = match rule {
            Rule::ConsistentReadFromCache => Some((Gate::ConsistentListFromCache, true)),
            Rule::ConsistentReadFromEtcd => Some((Gate::ConsistentListFromCache, false)),
            Rule::ExactFromCacheSnapshot => Some((Gate::ListFromCacheSnapshot, true)),
            Rule::ExactFromEtcd | Rule::ContinueLatestFromEtcd => Some((Gate::ListFromCacheSnapshot, false)),
            _ => None,
        };
        if let Some((g, value)) = gate
            && self.features.overridden(g)
            && self.features.enabled(g) == value
        {
            why.decided_by(g, value);
        }
        why.rv = match shape.continue_rv {
            Some(crv) => Some(crv),
            None => shape.rv.map(revision),
        };
        let mut now = ctx.clock.now();
        let cache_path = matches!(
            path,
            ReadPath::CacheAny
                | ReadPath::CacheMin(_)
                | ReadPath::CacheConsistent
                | ReadPath::CacheSnapshot(_)
        );
        if cache_path
            && !self.features.resilient_watch_cache_init
            && let Some(c) = self.cacher.as_deref_mut()
            && !c.is_ready(now)
        {
            // 1.30 (`cacher.go` `GetList`): rv=0 goes to etcd ("we don't require any specific
            // minimal resource version"); every other list the cache serves waits until it is
            // ready (`ready.wait`).
            if path == ReadPath::CacheAny {
                path = ReadPath::EtcdLatest;
                why.outcome = Some(Outcome::CacheNotReady);
            } else {
                c.wait_ready(ctx.etcd, ctx.clock);
                why.outcome = Some(Outcome::CacheWaitedReady);
                self.note_resilience_gate(&mut why);
                now = ctx.clock.now();
            }
        }
        if cache_path && path != ReadPath::EtcdLatest && self.ready_cacher(now).is_none() {
            if shape.limit > 0 && !shape.has_selector {
                path = match path {
                    ReadPath::CacheMin(n) | ReadPath::EtcdNotOlderThan(n) => ReadPath::EtcdNotOlderThan(n),
                    ReadPath::CacheSnapshot(n) | ReadPath::EtcdAt(n) => ReadPath::EtcdAt(n),
                    ReadPath::CacheAny | ReadPath::CacheConsistent | ReadPath::EtcdLatest => {
                        ReadPath::EtcdLatest
                    }
                };
                why.outcome = Some(Outcome::CacheNotReady);
            } else {
                let growing = self.features.growing_retry_after;
                let retry = self.cacher.as_deref().map(|c| c.retry_after_seconds(now, growing)).unwrap_or(1);
                why.path = Some(Path::WatchCache);
                why.outcome = Some(Outcome::CacheInitializing);
                why.retry_after = Some(retry.into());
                let status = Status::storage_initializing(retry);
                return (Err(ReadError::Api(Box::new(status))), why);
            }
        }
        let at = match self.cacher.as_deref_mut() {
            Some(c) => match c.list(path, args, ctx.held, ctx.etcd, ctx.clock, &mut why) {
                Ok(CacheList::Page(page)) => {
                    why.revision = Some(page.resource_version);
                    return (Ok(page), why);
                }
                Ok(CacheList::Etcd(_))
                    if why.outcome == Some(Outcome::ConsistentReadTimeout)
                        && self.features.consistent_list_skip_timeout_fallback =>
                {
                    // 1.37 `delegator.go` `GetList`: `IsTooLargeResourceVersion(err)` on a
                    // consistent read with ConsistentListFromCacheSkipTimeoutFallback on →
                    // `errors.NewTooManyRequests(err.Error(), resourceVersionTooHighRetrySeconds)`
                    // (kubernetes/kubernetes#138701); etcd is not asked.
                    let target = why.etcd_revision.unwrap_or_default();
                    let cur = why.cache_rv.unwrap_or_default();
                    why.path = Some(Path::WatchCache);
                    why.outcome = Some(Outcome::ConsistentReadTimeoutNoFallback);
                    why.decided_by(Gate::ConsistentListFromCacheSkipTimeoutFallback, true);
                    why.retry_after = Some(1);
                    let status = Status::consistent_read_no_fallback(
                        ResourceVersion::of_revision(target).0,
                        ResourceVersion::of_revision(cur).0,
                    );
                    return (Err(ReadError::Api(Box::new(status))), why);
                }
                Ok(CacheList::Etcd(at)) => at,
                Err(status) => return (Err(ReadError::Api(Box::new(status))), why),
            },
            None => match path {
                ReadPath::EtcdNotOlderThan(n) | ReadPath::CacheMin(n) => ReadAt::NotOlderThan(n),
                ReadPath::EtcdAt(n) | ReadPath::CacheSnapshot(n) => ReadAt::Exact(n),
                ReadPath::EtcdLatest | ReadPath::CacheAny | ReadPath::CacheConsistent => ReadAt::Latest,
            },
        };
        why.path = Some(Path::Etcd);
        let req = ListRequest {
            key_prefix: args.prefix,
            at,
            continue_from: args.continue_from,
            limit: args.limit,
            selector: args.selector,
        };
        match etcd3::list(ctx.etcd, &req) {
            Ok(page) => {
                why.revision = Some(page.resource_version);
                (Ok(page), why)
            }
            Err(StorageError::TooLargeResourceVersion { current, .. })
                if !self.features.future_revision_list_is_504 && !matches!(at, ReadAt::NotOlderThan(_)) =>
            {
                // Before 1.34 the etcd error of a list at a future exact revision is not mapped:
                // `ErrorToAPIStatus` turns the plain error into a 500 with its text.
                why.outcome = Some(Outcome::FutureRevisionUnmapped);
                why.etcd_revision = Some(ResourceVersion(current).revision());
                (Err(ReadError::Api(Box::new(Status::future_revision_unmapped()))), why)
            }
            Err(StorageError::Compacted) if args.continue_from.is_some() => {
                why.outcome = Some(Outcome::ContinueCompacted);
                why.compact_revision = ctx.etcd.compact_revision();
                let start = args.continue_from.map(|t| t.start.clone()).unwrap_or_default();
                let status = Status::expired_continue(&ContinueToken { rv: -1, start }.encode());
                (Err(ReadError::Api(Box::new(status))), why)
            }
            Err(e) => {
                let why = e.explain(why, ctx.etcd);
                (Err(ReadError::Storage(e)), why)
            }
        }
    }

    /// `Watch`: the cacher serves every watch when the watch cache is on; without it, etcd.
    pub fn watch(&mut self, ctx: &mut ReadCtx<'_>, args: WatchArgs) -> (Result<StartedWatch, Status>, Why) {
        let mut why =
            Why::new(Rule::WatchFromEtcd).semantics(watch_semantics(args.rv, args.send_initial_events));
        why.rv = args.rv.map(revision);
        let now = ctx.clock.now();
        let features = self.features;
        if features.watch_from_storage_without_rv
            && args.send_initial_events.is_none()
            && args.rv.is_none()
            && self.cacher.is_some()
        {
            // `delegator.go` `Watch`: WatchFromStorageWithoutResourceVersion serves a watch without
            // resourceVersion (and without sendInitialEvents) from etcd, bypassing the cache.
            why.decided_by(Gate::WatchFromStorageWithoutResourceVersion, true);
            let stream = WatchStream::from_etcd(ctx.etcd, &args, &mut why);
            return (Ok(StartedWatch::Etcd(Box::new(stream))), why);
        }
        match self.cacher.as_deref_mut() {
            Some(c) if !c.is_ready(now) && features.resilient_watch_cache_init => {
                // `cacher.go` `Watch` with ResilientWatchCacheInitialization: 429.
                let retry = c.retry_after_seconds(now, features.growing_retry_after);
                why.path = Some(Path::WatchCache);
                why.rule = super::watch_rule(args.rv.map(revision), args.send_initial_events);
                why.outcome = Some(Outcome::CacheInitializing);
                why.retry_after = Some(retry.into());
                (Err(Status::storage_initializing(retry)), why)
            }
            Some(c) => {
                if !c.is_ready(now) {
                    // 1.30: `ready.waitAndReadGeneration` blocks the watch until the cache is ready.
                    c.wait_ready(ctx.etcd, ctx.clock);
                    why.outcome = Some(Outcome::CacheWaitedReady);
                    if features.overridden(Gate::ResilientWatchCacheInitialization) {
                        why.decided_by(Gate::ResilientWatchCacheInitialization, false);
                    }
                }
                let cargs = CacheWatchArgs {
                    features: *self.features,
                    id: args.id,
                    filter: args.filter,
                    rv: args.rv.map(revision),
                    send_initial_events: args.send_initial_events,
                    allow_bookmarks: args.allow_bookmarks,
                    deadline: args.deadline,
                    held: ctx.held,
                };
                let result = c.watch(cargs, ctx.etcd, ctx.clock, &mut why).map(|()| StartedWatch::Cache);
                (result, why)
            }
            None => {
                let stream = WatchStream::from_etcd(ctx.etcd, &args, &mut why);
                (Ok(StartedWatch::Etcd(Box::new(stream))), why)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(rv: Option<u64>, limit: i64) -> ListShape {
        ListShape { rv, rv_match: MatchShape::Unset, limit, continue_rv: None, has_selector: false }
    }

    // §C.3 the table, current profile.
    #[test]
    fn current_routing_table() {
        let f = Features::default();
        assert_eq!(route_list(&shape(None, 0), &f, true).0, ReadPath::CacheConsistent);
        assert_eq!(route_list(&shape(None, 5), &f, true).0, ReadPath::CacheConsistent);
        assert_eq!(route_list(&shape(Some(0), 5), &f, true).0, ReadPath::CacheAny);
        assert_eq!(route_list(&shape(Some(7), 0), &f, true).0, ReadPath::CacheMin(7));
        assert_eq!(route_list(&shape(Some(7), 5), &f, true).0, ReadPath::CacheSnapshot(7));
        let nt = ListShape { rv_match: MatchShape::NotOlderThan, ..shape(Some(7), 5) };
        assert_eq!(route_list(&nt, &f, true).0, ReadPath::CacheMin(7));
        let ex = ListShape { rv_match: MatchShape::Exact, ..shape(Some(7), 0) };
        assert_eq!(route_list(&ex, &f, true).0, ReadPath::CacheSnapshot(7));
        let c = ListShape { continue_rv: Some(9), ..shape(None, 5) };
        assert_eq!(route_list(&c, &f, true).0, ReadPath::CacheSnapshot(9));
        let c = ListShape { continue_rv: Some(-1), ..shape(None, 5) };
        assert_eq!(route_list(&c, &f, true).0, ReadPath::CacheConsistent);
        assert_eq!(route_get(None, true).0, ReadPath::EtcdLatest);
        assert_eq!(route_get(Some(0), true).0, ReadPath::CacheAny);
        assert_eq!(route_get(Some(4), true).0, ReadPath::CacheMin(4));
    }

    // §C.4 1.30 and 1.33.
    #[test]
    fn older_profiles() {
        let f130 = Features::for_minor(30);
        assert_eq!(route_list(&shape(None, 0), &f130, true).0, ReadPath::EtcdLatest);
        assert_eq!(route_list(&shape(Some(7), 5), &f130, true).0, ReadPath::EtcdAt(7));
        assert_eq!(route_list(&shape(Some(0), 5), &f130, true).0, ReadPath::CacheAny);
        let f133 = Features::for_minor(33);
        assert_eq!(route_list(&shape(None, 0), &f133, true).0, ReadPath::CacheConsistent);
        assert_eq!(route_list(&shape(Some(7), 5), &f133, true).0, ReadPath::EtcdAt(7));
        let c = ListShape { continue_rv: Some(9), ..shape(None, 5) };
        assert_eq!(route_list(&c, &f133, true).0, ReadPath::EtcdAt(9));
    }

    // §C.6 a continue token with revision -1 (the inconsistent continuation a 410 offers).
    // 1.31–1.33: `Cacher.ShouldDelegateContinue` returns ShouldDelegate=true whenever the cache
    // has no snapshots (`!c.watchCache.storage.SnapshottingEnabled()`), and before it
    // (kubernetes/kubernetes#130423) `shouldDelegateList` delegated every continuation
    // (`hasContinuation`): etcd at its current revision. 1.34+ (snapshots on): a continuation
    // with revision ≤ 0 is a consistent read (`ShouldDelegateConsistentRead`), served by the cache.
    #[test]
    fn continue_latest_per_profile() {
        let c = ListShape { continue_rv: Some(-1), ..shape(None, 5) };
        let route = |minor| route_list(&c, &Features::for_minor(minor), true);
        assert_eq!(route(30), (ReadPath::EtcdLatest, Rule::ConsistentReadFromEtcd));
        for minor in 31..=33 {
            assert_eq!(route(minor), (ReadPath::EtcdLatest, Rule::ContinueLatestFromEtcd), "1.{minor}");
        }
        for minor in 34..=36 {
            assert_eq!(route(minor), (ReadPath::CacheConsistent, Rule::ConsistentReadFromCache), "1.{minor}");
        }
    }

    // §C.3 cache disabled.
    #[test]
    fn cache_disabled() {
        let f = Features::default();
        assert_eq!(route_list(&shape(None, 0), &f, false).0, ReadPath::EtcdLatest);
        assert_eq!(route_list(&shape(Some(0), 5), &f, false).0, ReadPath::EtcdLatest);
        assert_eq!(route_list(&shape(Some(3), 0), &f, false).0, ReadPath::EtcdNotOlderThan(3));
        assert_eq!(route_get(Some(0), false).0, ReadPath::EtcdLatest);
    }
}
