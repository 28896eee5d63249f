//! Kubernetes version profiles: which read paths a given minor release uses by default (§C.4).
//!
//! Upstream counterpart: the versioned feature-gate specs (`defaultVersionedKubernetesFeatureGates`
//! in `pkg/features/kube_features.go` / apiserver `pkg/features/kube_features.go`, checked at
//! v1.35), plus the release in which each unflagged change landed (cited per field).

/// The feature gates that change how reads are served, at their defaults for one release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// The minor version, e.g. 34 for 1.34.
    pub minor: u32,
    /// `ConsistentListFromCache`: rv-unset lists served from the cache after a quorum read
    /// (beta on in 1.31, GA 1.34).
    pub consistent_list_from_cache: bool,
    /// `ListFromCacheSnapshot`: Exact and continue lists served from cache snapshots (beta on 1.34).
    pub list_from_cache_snapshot: bool,
    /// `WatchList`: `sendInitialEvents` allowed and ""/"0" watches defaulted to it (beta on 1.32,
    /// off 1.33, on from 1.34).
    pub watch_list: bool,
    /// `ResilientWatchCacheInitialization` (beta on from 1.31): an unready watch cache answers
    /// 429 (or hands lists with a limit and no selector, and gets, to etcd) instead of blocking
    /// reads and watches until it is ready (`cacher.go` / `delegator.go` `ready.wait`).
    pub resilient_watch_cache_init: bool,
    /// 1.33+: the 429's `Retry-After` grows with the time the cache has been down
    /// (`cacher/util.go` `calculateRetryAfterForUnreadyCache`, kubernetes/kubernetes#129657,
    /// 1.33 cycle); 1.31–1.32 send a fixed `Retry-After: 1`.
    pub growing_retry_after: bool,
    /// 1.34+: etcd's `required revision is a future revision` on a list at an exact revision (an
    /// Exact list, a continuation) becomes `TooLargeResourceVersion` (504); before, `etcd3/store.go`
    /// `GetList` passed the raw etcd error on and the client got a 500 with its text
    /// (kubernetes/kubernetes#132374, listed in CHANGELOG-1.34).
    pub future_revision_list_is_504: bool,
    /// Until 1.33 a zero `metadata.creationTimestamp` is serialised as `null` (Go's
    /// `encoding/json` does not omit an empty struct); kubernetes/kubernetes#130989 omits it
    /// from 1.34 (`omitzero`; CHANGELOG-1.34, v1.34.0-alpha.1 "Changelog since v1.33.0"). Visible
    /// in the BOOKMARK objects the server builds from scratch.
    pub null_creation_timestamp: bool,
}

/// The oldest and newest releases the playground models.
pub const OLDEST_MINOR: u32 = 27;
pub const NEWEST_MINOR: u32 = 36;
/// The default profile: current Kubernetes.
pub const DEFAULT_MINOR: u32 = 36;

impl Default for Features {
    fn default() -> Self {
        Features::for_minor(DEFAULT_MINOR)
    }
}

impl Features {
    pub fn for_minor(minor: u32) -> Features {
        Features {
            minor,
            consistent_list_from_cache: minor >= 31,
            list_from_cache_snapshot: minor >= 34,
            watch_list: minor == 32 || minor >= 34,
            resilient_watch_cache_init: minor >= 31,
            growing_retry_after: minor >= 33,
            future_revision_list_is_504: minor >= 34,
            null_creation_timestamp: minor <= 33,
        }
    }

    /// Parses `1.30`, `v1.34`, `1.34.2`.
    /// `1.N` or `v1.N` within [`OLDEST_MINOR`] … [`NEWEST_MINOR`].
    pub fn parse(text: &str) -> Option<Features> {
        let t = text.trim().trim_start_matches('v');
        let mut parts = t.split('.');
        let major = parts.next().and_then(|m| m.parse::<u32>().ok());
        let minor = parts.next().and_then(|m| m.parse::<u32>().ok());
        match (major, minor) {
            (Some(1), Some(m)) if (OLDEST_MINOR..=NEWEST_MINOR).contains(&m) => Some(Features::for_minor(m)),
            _ => None,
        }
    }

    pub fn version(&self) -> String {
        format!("1.{}", self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // §C.4 the history of the gates: the versioned specs (`{Version: version.MustParse("1.31"),
    // Default: true, PreRelease: featuregate.Beta}` …) of ConsistentListFromCache (1.28 off, 1.31
    // on), ListFromCacheSnapshot (1.33 off, 1.34 on), WatchList (1.27 off, 1.32 on, 1.33 off,
    // 1.34 on) and ResilientWatchCacheInitialization (1.31 on), checked at v1.35.
    #[test]
    fn profiles_follow_the_gate_history() {
        let v130 = Features::parse("1.30").unwrap_or_default();
        assert!(!v130.consistent_list_from_cache && !v130.list_from_cache_snapshot && !v130.watch_list);
        let v133 = Features::parse("1.33").unwrap_or_default();
        assert!(v133.consistent_list_from_cache && !v133.list_from_cache_snapshot && !v133.watch_list);
        let v134 = Features::parse("v1.34").unwrap_or_default();
        assert!(v134.consistent_list_from_cache && v134.list_from_cache_snapshot && v134.watch_list);
        assert!(Features::for_minor(32).watch_list);
        assert!(!v130.resilient_watch_cache_init && !v130.growing_retry_after);
        let v131 = Features::for_minor(31);
        assert!(v131.resilient_watch_cache_init && !v131.growing_retry_after);
        assert!(v133.resilient_watch_cache_init && v133.growing_retry_after);
        for minor in OLDEST_MINOR..=NEWEST_MINOR {
            let f = Features::for_minor(minor);
            assert_eq!(f.consistent_list_from_cache, minor >= 31, "1.{minor}");
            assert_eq!(f.list_from_cache_snapshot, minor >= 34, "1.{minor}");
            assert_eq!(f.watch_list, minor == 32 || minor >= 34, "1.{minor}");
            assert_eq!(f.resilient_watch_cache_init, minor >= 31, "1.{minor}");
            assert_eq!(f.growing_retry_after, minor >= 33, "1.{minor}");
            assert_eq!(f.future_revision_list_is_504, minor >= 34, "1.{minor}");
            assert_eq!(f.null_creation_timestamp, minor <= 33, "1.{minor}");
        }
        assert!(Features::parse("1.26").is_none() && Features::parse("1.37").is_none());
        assert!(Features::parse("2.0").is_none());
        assert!(Features::parse("1.12").is_none());
        assert!(Features::parse("abc").is_none());
    }
}
