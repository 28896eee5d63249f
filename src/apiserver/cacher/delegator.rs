//! The routing decision for every read, in one place (the cacher's `delegator.go`; §C.3 and its
//! history §C.4): which path serves a get or list, and the reason, in words a reader can check
//! against the table.

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

/// Routes a list (§C.3 rows; §C.4 for older profiles; "cache disabled" rows when `cache` is false).
pub fn route_list(s: &ListShape, f: &Features, cache: bool) -> (ReadPath, String) {
    if let Some(crv) = s.continue_rv {
        return if crv <= 0 {
            if cache && f.consistent_list_from_cache {
                (ReadPath::CacheConsistent, "continue token with rv -1 → continuation at the latest revision: a consistent read from the watch cache, from the token's start key".into())
            } else {
                (ReadPath::EtcdLatest, "continue token with rv -1 → continuation at etcd's current revision from the token's start key".into())
            }
        } else if cache && f.list_from_cache_snapshot {
            (
                ReadPath::CacheSnapshot(crv as u64),
                format!(
                    "continue token (rv {crv}) → the watch cache's snapshot at {crv} (ListFromCacheSnapshot), else etcd at {crv}"
                ),
            )
        } else {
            (
                ReadPath::EtcdAt(crv as u64),
                format!(
                    "continue token (rv {crv}) → etcd at revision {crv}{}",
                    if cache { " (no cache snapshots before 1.34)" } else { "" }
                ),
            )
        };
    }
    if !cache {
        return match s.rv {
            None => (ReadPath::EtcdLatest, "resourceVersion unset → Most recent; watch cache off → etcd at its current revision".into()),
            Some(0) => (ReadPath::EtcdLatest, "resourceVersion=\"0\" → Any; watch cache off → etcd at its current revision (limit honoured)".into()),
            Some(n) if s.exact => (ReadPath::EtcdAt(n), format!("resourceVersionMatch=Exact → etcd at revision {n}")),
            Some(n) if s.limit > 0 && !s.not_older_than => (ReadPath::EtcdAt(n), format!("limit with resourceVersion={n} and no resourceVersionMatch → the legacy Exact rule: etcd at revision {n}")),
            Some(n) => (ReadPath::EtcdNotOlderThan(n), format!("resourceVersion={n} → Not older than {n}; watch cache off → etcd at its current revision")),
        };
    }
    if f.minor <= 30 {
        // The 1.30 `shouldDelegateList`: consistent reads, continuations, limit≠0 (except rv=0) and
        // Exact all go to etcd.
        return match s.rv {
            None => (
                ReadPath::EtcdLatest,
                "resourceVersion unset → Most recent: in 1.30 (ConsistentListFromCache off) served by etcd"
                    .into(),
            ),
            Some(0) => (
                ReadPath::CacheAny,
                "resourceVersion=\"0\" → Any: the watch cache's current state; limit is ignored".into(),
            ),
            Some(n) if s.exact => (
                ReadPath::EtcdAt(n),
                format!(
                    "resourceVersionMatch=Exact → etcd at revision {n} (the cache serves only NotOlderThan in 1.30)"
                ),
            ),
            Some(n) if s.limit > 0 && !s.not_older_than => (
                ReadPath::EtcdAt(n),
                format!(
                    "limit with resourceVersion={n} and no match → the legacy Exact rule: etcd at revision {n}"
                ),
            ),
            Some(n) if s.limit > 0 => (
                ReadPath::EtcdNotOlderThan(n),
                format!(
                    "limit with resourceVersion={n} → in 1.30 every paginated list except rv=0 is served by etcd"
                ),
            ),
            Some(n) => (
                ReadPath::CacheMin(n),
                format!(
                    "resourceVersion={n} → Not older than {n}: wait for the watch cache to reach {n}, then its current state"
                ),
            ),
        };
    }
    match s.rv {
        None if f.consistent_list_from_cache => (ReadPath::CacheConsistent, "resourceVersion unset → Most recent: etcd's current revision from a quorum read, then the watch cache once it has caught up (ConsistentListFromCache)".into()),
        None => (ReadPath::EtcdLatest, "resourceVersion unset → Most recent: served by etcd".into()),
        Some(0) => (ReadPath::CacheAny, "resourceVersion=\"0\" → Any: the watch cache's current state, no waiting; limit is ignored".into()),
        Some(n) if s.exact || (s.limit > 0 && !s.not_older_than) => {
            let rule = if s.exact { "resourceVersionMatch=Exact".to_string() } else { format!("limit with resourceVersion={n} and no match → the legacy Exact rule") };
            if f.list_from_cache_snapshot {
                (ReadPath::CacheSnapshot(n), format!("{rule} → the watch cache's snapshot at {n} (ListFromCacheSnapshot), else etcd at {n}"))
            } else {
                (ReadPath::EtcdAt(n), format!("{rule} → etcd at revision {n} (no cache snapshots before 1.34)"))
            }
        }
        Some(n) => (ReadPath::CacheMin(n), format!("resourceVersion={n} → Not older than {n}: wait (≤3 s) for the watch cache to reach {n}, then its current state")),
    }
}

/// Routes a get (§C.3: gets never use the consistent cache path).
pub fn route_get(rv: Option<u64>, cache: bool) -> (ReadPath, String) {
    match (rv, cache) {
        (None, _) => (ReadPath::EtcdLatest, "get with resourceVersion unset → Most recent: always read from etcd".into()),
        (Some(0), true) => (ReadPath::CacheAny, "get with resourceVersion=\"0\" → Any: the watch cache's current object (may be stale or missing)".into()),
        (Some(0), false) => (ReadPath::EtcdLatest, "get with resourceVersion=\"0\"; watch cache off → etcd".into()),
        (Some(n), true) => (ReadPath::CacheMin(n), format!("get with resourceVersion={n} → Not older than {n}: the cache's current object once it has seen {n} — never the version at {n}")),
        (Some(n), false) => (ReadPath::EtcdNotOlderThan(n), format!("get with resourceVersion={n}; watch cache off → etcd's current object, checked against {n}")),
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
