//! The routing decision for every read, in one place (the cacher's `delegator.go`; §C.3 and its
//! history §C.4): which path serves a get or list, and the typed rule that chose it.

use crate::apiserver::decision::{Rule, Semantics};
use crate::apiserver::features::Features;

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
    pub exact: bool,
    pub not_older_than: bool,
    pub limit: i64,
    /// The continue token's rv, when one is given.
    pub continue_rv: Option<i64>,
    pub has_selector: bool,
}

impl ListShape {
    /// The resourceVersion semantics the list asked for (the docs' "Semantics for get and list").
    pub fn semantics(&self) -> Semantics {
        match (self.continue_rv, self.rv) {
            (Some(crv), _) if crv <= 0 => Semantics::ContinueLatest,
            (Some(_), _) => Semantics::Continue,
            (None, None) => Semantics::MostRecent,
            (None, Some(0)) => Semantics::Any,
            (None, Some(_)) if self.exact => Semantics::Exact,
            (None, Some(_)) if self.limit > 0 && !self.not_older_than => Semantics::LegacyExact,
            (None, Some(_)) => Semantics::NotOlderThan,
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
        return if crv <= 0 {
            if !cache {
                (ReadPath::EtcdLatest, Rule::WatchCacheOff)
            } else if f.consistent_list_from_cache {
                (ReadPath::CacheConsistent, Rule::ConsistentReadFromCache)
            } else {
                (ReadPath::EtcdLatest, Rule::ConsistentReadFromEtcd)
            }
        } else if !cache {
            (ReadPath::EtcdAt(crv as u64), Rule::WatchCacheOff)
        } else if f.list_from_cache_snapshot {
            (ReadPath::CacheSnapshot(crv as u64), Rule::ExactFromCacheSnapshot)
        } else {
            (ReadPath::EtcdAt(crv as u64), Rule::ExactFromEtcd)
        };
    }
    let exactish = s.exact || (s.limit > 0 && !s.not_older_than);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(rv: Option<u64>, limit: i64) -> ListShape {
        ListShape { rv, exact: false, not_older_than: false, limit, continue_rv: None, has_selector: false }
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
        let nt = ListShape { not_older_than: true, ..shape(Some(7), 5) };
        assert_eq!(route_list(&nt, &f, true).0, ReadPath::CacheMin(7));
        let ex = ListShape { exact: true, ..shape(Some(7), 0) };
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
