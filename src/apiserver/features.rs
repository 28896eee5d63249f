//! Kubernetes version profiles and kube-apiserver's feature gates (§C.4, §C.8): which read paths
//! a given minor release uses by default, and what `--feature-gates` (`set feature-gates`) may
//! change in it.
//!
//! Upstream counterparts: the versioned feature-gate specs (`defaultVersionedKubernetesFeatureGates`
//! in `pkg/features/kube_features.go`, the `genericfeatures.*` entries, read at the v1.35 cycle),
//! the gate changes of 1.36 and 1.37 as CHANGELOG-1.36/1.37 and the feature-gate pages of
//! kubernetes/website record them (cited per gate in [`Gate::specs`]), the flag parsing and its
//! errors in `component-base/featuregate/feature_gate.go` (`Set`, `unsafeSetFromMap`), plus the
//! release in which each unflagged change landed (cited per field of [`Features`]).

use serde::{Deserialize, Serialize};

/// A feature gate the model knows: the gates of kube-apiserver that act on the read and watch
/// paths it models, under their upstream names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Gate {
    /// Consistent (rv-unset) lists served from the watch cache after a quorum read of etcd's
    /// revision (`delegator.go` `ShouldDelegateConsistentRead`).
    ConsistentListFromCache,
    /// 1.37: a consistent list the cache cannot serve within 3 s answers 429 instead of falling
    /// back to etcd (`delegator.go` `GetList`, kubernetes/kubernetes#138701).
    ConsistentListFromCacheSkipTimeoutFallback,
    /// Exact lists and continuations served from the watch cache's snapshots.
    ListFromCacheSnapshot,
    /// `sendInitialEvents` allowed; a watch-list client gets the state as a stream.
    WatchList,
    /// An unready watch cache answers 429 (or hands some reads to etcd) instead of blocking.
    ResilientWatchCacheInitialization,
    /// A watch without resourceVersion (and no `sendInitialEvents`) served from etcd.
    WatchFromStorageWithoutResourceVersion,
    /// The watch cache's store is a B-tree (no visible effect in the model).
    BtreeWatchCache,
    /// The watch cache's initialisation is part of `/readyz` (not modelled).
    WatchCacheInitializationPostStartHook,
    /// Watch-list responses gzipped when the client accepts gzip (`rvlab serve`).
    WatchListCompression,
    /// The watch cache initialises from one etcd `RangeStream` RPC (no visible effect).
    EtcdRangeStream,
    /// Watch events decoded concurrently (no visible effect in the model).
    ConcurrentWatchObjectDecode,
}

/// A gate's maturity at one release (`featuregate.prerelease`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    #[serde(rename = "ALPHA")]
    Alpha,
    #[serde(rename = "BETA")]
    Beta,
    #[serde(rename = "GA")]
    Ga,
    #[serde(rename = "DEPRECATED")]
    Deprecated,
}

impl Stage {
    /// As `--help` prints it (`ALPHA`, `BETA`, `GA`, `DEPRECATED`).
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Alpha => "ALPHA",
            Stage::Beta => "BETA",
            Stage::Ga => "GA",
            Stage::Deprecated => "DEPRECATED",
        }
    }
}

/// A gate's spec at one release (`featuregate.FeatureSpec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    pub stage: Stage,
    pub default: bool,
    /// `LockToDefault`: setting it to the other value is refused.
    pub locked: bool,
}

/// One entry of a gate's versioned specs: from release `since` on, `spec`; `None` = the gate is
/// gone (removed once GA and locked: its behaviour stays, the name is unknown).
type Step = (u32, Option<Spec>);

/// `Some(Spec { … })`, written short (a literal, so the tables below are `'static`).
macro_rules! s {
    ($stage:ident, $default:literal, $locked:literal) => {
        Some(Spec { stage: Stage::$stage, default: $default, locked: $locked })
    };
}

impl Gate {
    pub const ALL: [Gate; 11] = [
        Gate::ConsistentListFromCache,
        Gate::ConsistentListFromCacheSkipTimeoutFallback,
        Gate::ListFromCacheSnapshot,
        Gate::WatchList,
        Gate::ResilientWatchCacheInitialization,
        Gate::WatchFromStorageWithoutResourceVersion,
        Gate::BtreeWatchCache,
        Gate::WatchCacheInitializationPostStartHook,
        Gate::WatchListCompression,
        Gate::EtcdRangeStream,
        Gate::ConcurrentWatchObjectDecode,
    ];

    /// The upstream name (what `--feature-gates` takes).
    pub fn name(self) -> &'static str {
        match self {
            Gate::ConsistentListFromCache => "ConsistentListFromCache",
            Gate::ConsistentListFromCacheSkipTimeoutFallback => "ConsistentListFromCacheSkipTimeoutFallback",
            Gate::ListFromCacheSnapshot => "ListFromCacheSnapshot",
            Gate::WatchList => "WatchList",
            Gate::ResilientWatchCacheInitialization => "ResilientWatchCacheInitialization",
            Gate::WatchFromStorageWithoutResourceVersion => "WatchFromStorageWithoutResourceVersion",
            Gate::BtreeWatchCache => "BtreeWatchCache",
            Gate::WatchCacheInitializationPostStartHook => "WatchCacheInitializationPostStartHook",
            Gate::WatchListCompression => "WatchListCompression",
            Gate::EtcdRangeStream => "EtcdRangeStream",
            Gate::ConcurrentWatchObjectDecode => "ConcurrentWatchObjectDecode",
        }
    }

    /// The gate named `name` (exact, case-sensitive as upstream).
    pub fn from_name(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.name() == name)
    }

    fn index(self) -> usize {
        match self {
            Gate::ConsistentListFromCache => 0,
            Gate::ConsistentListFromCacheSkipTimeoutFallback => 1,
            Gate::ListFromCacheSnapshot => 2,
            Gate::WatchList => 3,
            Gate::ResilientWatchCacheInitialization => 4,
            Gate::WatchFromStorageWithoutResourceVersion => 5,
            Gate::BtreeWatchCache => 6,
            Gate::WatchCacheInitializationPostStartHook => 7,
            Gate::WatchListCompression => 8,
            Gate::EtcdRangeStream => 9,
            Gate::ConcurrentWatchObjectDecode => 10,
        }
    }

    /// Whether turning it on or off changes anything the model shows (else the gate is accepted
    /// as kube-apiserver accepts it, and nothing visible changes).
    pub fn modelled(self) -> bool {
        match self {
            Gate::ConsistentListFromCache
            | Gate::ConsistentListFromCacheSkipTimeoutFallback
            | Gate::ListFromCacheSnapshot
            | Gate::WatchList
            | Gate::ResilientWatchCacheInitialization
            | Gate::WatchFromStorageWithoutResourceVersion
            | Gate::WatchListCompression => true,
            Gate::BtreeWatchCache
            | Gate::WatchCacheInitializationPostStartHook
            | Gate::EtcdRangeStream
            | Gate::ConcurrentWatchObjectDecode => false,
        }
    }

    /// The versioned specs, oldest first (`featuregate.VersionedSpecs`).
    ///
    /// ≤ 1.35: `pkg/features/kube_features.go` `defaultVersionedKubernetesFeatureGates` (the
    /// `genericfeatures.*` entries) at the v1.35 cycle. 1.36: WatchCacheInitializationPostStartHook
    /// on by default (kubernetes/kubernetes#135777, CHANGELOG-1.36). 1.37 (CHANGELOG-1.37,
    /// v1.37.0-alpha.1, kubernetes/kubernetes commit df0a31e0): ConsistentListFromCache,
    /// ResilientWatchCacheInitialization and BtreeWatchCache removed as locked GA gates (#138907);
    /// WatchCacheInitializationPostStartHook GA (#139452); ConsistentListFromCacheSkipTimeoutFallback
    /// added, alpha (#138701); EtcdRangeStream added, beta (#136915; on by default per the
    /// kubernetes/website feature-gate page, commit da21c50c); WatchListCompression beta, on
    /// (kubernetes/website feature-gate page, commit 3ae3f517). ConcurrentWatchObjectDecode is not
    /// new in 1.37: beta, off, since 1.31, unchanged.
    fn specs(self) -> &'static [Step] {
        match self {
            Gate::ConsistentListFromCache => &[
                (28, s!(Alpha, false, false)),
                (31, s!(Beta, true, false)),
                (34, s!(Ga, true, true)),
                (37, None),
            ],
            Gate::ConsistentListFromCacheSkipTimeoutFallback => &[(37, s!(Alpha, false, false))],
            Gate::ListFromCacheSnapshot => &[(33, s!(Alpha, false, false)), (34, s!(Beta, true, false))],
            Gate::WatchList => &[
                (27, s!(Alpha, false, false)),
                (32, s!(Beta, true, false)),
                (33, s!(Beta, false, false)),
                (34, s!(Beta, true, false)),
            ],
            Gate::ResilientWatchCacheInitialization => {
                &[(31, s!(Beta, true, false)), (34, s!(Ga, true, true)), (37, None)]
            }
            Gate::WatchFromStorageWithoutResourceVersion => {
                &[(27, s!(Beta, false, false)), (33, s!(Deprecated, false, true))]
            }
            Gate::BtreeWatchCache => &[(32, s!(Beta, true, false)), (33, s!(Ga, true, true)), (37, None)],
            Gate::WatchCacheInitializationPostStartHook => {
                &[(31, s!(Beta, false, false)), (36, s!(Beta, true, false)), (37, s!(Ga, true, true))]
            }
            Gate::WatchListCompression => &[(37, s!(Beta, true, false))],
            Gate::EtcdRangeStream => &[(37, s!(Beta, true, false))],
            Gate::ConcurrentWatchObjectDecode => &[(31, s!(Beta, false, false))],
        }
    }

    /// The gate's spec at release 1.`minor` (`featureSpecAtEmulationVersion`); `None` when the
    /// release does not know the name (not added yet, or removed).
    pub fn spec_at(self, minor: u32) -> Option<Spec> {
        self.specs().iter().rev().find(|(since, _)| *since <= minor).and_then(|(_, spec)| *spec)
    }

    /// The gate's value at release 1.`minor` when nobody set it: its default, or — before the gate
    /// existed — off, and after its removal — on (every removed gate here was locked on).
    pub fn default_at(self, minor: u32) -> bool {
        match self.specs().iter().rev().find(|(since, _)| *since <= minor) {
            Some((_, Some(spec))) => spec.default,
            Some((_, None)) => true,
            None => false,
        }
    }
}

/// What `--feature-gates` set explicitly (later lines overlay earlier ones, as `SetFromMap` merges
/// into the flags it already has); `AllAlpha`/`AllBeta` set every gate of that stage not set by
/// name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GateValues {
    by_name: [Option<bool>; Gate::ALL.len()],
    pub all_alpha: Option<bool>,
    pub all_beta: Option<bool>,
}

impl GateValues {
    pub fn get(&self, g: Gate) -> Option<bool> {
        self.by_name[g.index()]
    }

    pub fn set(&mut self, g: Gate, v: bool) {
        self.by_name[g.index()] = Some(v);
    }

    /// The gates set by name, in [`Gate::ALL`] order.
    pub fn named(&self) -> impl Iterator<Item = (Gate, bool)> + '_ {
        Gate::ALL.into_iter().filter_map(|g| self.get(g).map(|v| (g, v)))
    }

    /// `other` laid over `self`.
    pub fn overlay(mut self, other: &GateValues) -> GateValues {
        for (g, v) in other.named() {
            self.set(g, v);
        }
        self.all_alpha = other.all_alpha.or(self.all_alpha);
        self.all_beta = other.all_beta.or(self.all_beta);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.named().next().is_none() && self.all_alpha.is_none() && self.all_beta.is_none()
    }
}

/// One `--feature-gates` entry as written, before it is checked against a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateKey {
    Gate(Gate),
    AllAlpha,
    AllBeta,
}

/// A locked gate given the other value (`cannot set feature gate %v to %v, feature is locked to %v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LockedGate {
    pub gate: Gate,
    pub value: bool,
    pub locked_to: bool,
}

impl std::fmt::Display for LockedGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot set feature gate {} to {}, feature is locked to {}",
            self.gate.name(),
            self.value,
            self.locked_to
        )
    }
}

/// Why a release refused gate values that parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateRefusal {
    /// `unrecognized feature gate: %s` — the release does not know the name (the first such name:
    /// upstream returns early on it).
    Unknown(Gate),
    /// The locked gates given the other value, in the order written.
    Locked(Vec<LockedGate>),
}

/// The feature gates that change how reads are served, at their values for one apiserver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// The minor version, e.g. 34 for 1.34.
    pub minor: u32,
    /// `ConsistentListFromCache`: rv-unset lists served from the cache after a quorum read
    /// (beta on in 1.31, GA 1.34, always on from 1.37).
    pub consistent_list_from_cache: bool,
    /// `ConsistentListFromCacheSkipTimeoutFallback` (alpha 1.37): a consistent list the cache
    /// cannot serve within 3 s answers 429 instead of being served by etcd.
    pub consistent_list_skip_timeout_fallback: bool,
    /// `ListFromCacheSnapshot`: Exact and continue lists served from cache snapshots (beta on 1.34).
    pub list_from_cache_snapshot: bool,
    /// `WatchList`: `sendInitialEvents` allowed and ""/"0" watches defaulted to it (beta on 1.32,
    /// off 1.33, on from 1.34).
    pub watch_list: bool,
    /// `ResilientWatchCacheInitialization` (beta on from 1.31): an unready watch cache answers
    /// 429 (or hands lists with a limit and no selector, and gets, to etcd) instead of blocking
    /// reads and watches until it is ready (`cacher.go` / `delegator.go` `ready.wait`).
    pub resilient_watch_cache_init: bool,
    /// `WatchFromStorageWithoutResourceVersion` (beta off; deprecated and locked off from 1.33): a
    /// watch without resourceVersion and without `sendInitialEvents` is served by etcd
    /// (`delegator.go` `Watch`).
    pub watch_from_storage_without_rv: bool,
    /// `WatchListCompression` (beta on 1.37): `rvlab serve` gzips a watch-list response when the
    /// client accepts gzip (`watch.go` `ContentEncodingSupported`).
    pub watch_list_compression: bool,
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
    /// What `set feature-gates` set on this apiserver (empty: the release's defaults).
    pub gates: GateValues,
}

/// The oldest and newest releases the playground models.
pub const OLDEST_MINOR: u32 = 27;
pub const NEWEST_MINOR: u32 = 37;
/// The default profile: current Kubernetes.
pub const DEFAULT_MINOR: u32 = 37;

impl Default for Features {
    fn default() -> Self {
        Features::for_minor(DEFAULT_MINOR)
    }
}

/// Every gate release 1.`minor` knows, with its spec there (what the playground's settings offer).
pub fn gates_for(minor: u32) -> Vec<(Gate, Spec)> {
    Gate::ALL.into_iter().filter_map(|g| g.spec_at(minor).map(|spec| (g, spec))).collect()
}

impl Features {
    pub fn for_minor(minor: u32) -> Features {
        Features::with_gates(minor, GateValues::default())
    }

    /// Release 1.`minor` with `gates` set (already checked with [`Features::check`]).
    pub fn with_gates(minor: u32, gates: GateValues) -> Features {
        let on = |g: Gate| -> bool {
            if let Some(v) = gates.get(g) {
                return v;
            }
            let by_stage = match g.spec_at(minor) {
                Some(Spec { stage: Stage::Alpha, locked: false, .. }) => gates.all_alpha,
                Some(Spec { stage: Stage::Beta, locked: false, .. }) => gates.all_beta,
                _ => None,
            };
            by_stage.unwrap_or_else(|| g.default_at(minor))
        };
        Features {
            minor,
            consistent_list_from_cache: on(Gate::ConsistentListFromCache),
            consistent_list_skip_timeout_fallback: on(Gate::ConsistentListFromCacheSkipTimeoutFallback),
            list_from_cache_snapshot: on(Gate::ListFromCacheSnapshot),
            watch_list: on(Gate::WatchList),
            resilient_watch_cache_init: on(Gate::ResilientWatchCacheInitialization),
            watch_from_storage_without_rv: on(Gate::WatchFromStorageWithoutResourceVersion),
            watch_list_compression: on(Gate::WatchListCompression),
            growing_retry_after: minor >= 33,
            future_revision_list_is_504: minor >= 34,
            null_creation_timestamp: minor <= 33,
            gates,
        }
    }

    /// The value gate `g` has on this apiserver.
    pub fn enabled(&self, g: Gate) -> bool {
        match g {
            Gate::ConsistentListFromCache => self.consistent_list_from_cache,
            Gate::ConsistentListFromCacheSkipTimeoutFallback => self.consistent_list_skip_timeout_fallback,
            Gate::ListFromCacheSnapshot => self.list_from_cache_snapshot,
            Gate::WatchList => self.watch_list,
            Gate::ResilientWatchCacheInitialization => self.resilient_watch_cache_init,
            Gate::WatchFromStorageWithoutResourceVersion => self.watch_from_storage_without_rv,
            Gate::WatchListCompression => self.watch_list_compression,
            Gate::BtreeWatchCache
            | Gate::WatchCacheInitializationPostStartHook
            | Gate::EtcdRangeStream
            | Gate::ConcurrentWatchObjectDecode => self.inert_value(g),
        }
    }

    fn inert_value(&self, g: Gate) -> bool {
        self.gates.get(g).unwrap_or_else(|| {
            let by_stage = match g.spec_at(self.minor) {
                Some(Spec { stage: Stage::Alpha, locked: false, .. }) => self.gates.all_alpha,
                Some(Spec { stage: Stage::Beta, locked: false, .. }) => self.gates.all_beta,
                _ => None,
            };
            by_stage.unwrap_or_else(|| g.default_at(self.minor))
        })
    }

    /// Whether gate `g` was set on this apiserver (by name or by `AllAlpha`/`AllBeta`) to a value
    /// other than the release's default.
    pub fn overridden(&self, g: Gate) -> bool {
        self.enabled(g) != g.default_at(self.minor)
    }

    /// `unsafeSetFromMap` of `entries` (in the order written) over what this apiserver already
    /// has: the new gate values, or why release 1.`minor` refuses them. An unknown name ends the
    /// check at once (upstream returns early); locked gates are all reported.
    pub fn check(&self, entries: &[(GateKey, bool)]) -> Result<GateValues, GateRefusal> {
        let mut add = GateValues::default();
        let mut locked = Vec::new();
        for &(key, value) in entries {
            match key {
                GateKey::AllAlpha => add.all_alpha = Some(value),
                GateKey::AllBeta => add.all_beta = Some(value),
                GateKey::Gate(g) => {
                    let Some(spec) = g.spec_at(self.minor) else {
                        return Err(GateRefusal::Unknown(g));
                    };
                    if spec.locked && spec.default != value {
                        if !locked.iter().any(|l: &LockedGate| l.gate == g) {
                            locked.push(LockedGate { gate: g, value, locked_to: spec.default });
                        }
                        continue;
                    }
                    add.set(g, value);
                }
            }
        }
        if !locked.is_empty() {
            return Err(GateRefusal::Locked(locked));
        }
        Ok(self.gates.overlay(&add))
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

/// The English errors of `featureGate.Set` for one `Name=value` entry it cannot parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateSyntax {
    /// `missing bool value for %s`
    MissingValue(String),
    /// `invalid value of %s=%s, err: %v` (the error of Go's `strconv.ParseBool`).
    InvalidValue { name: String, value: String },
    /// `unrecognized feature gate: %s` — a name no modelled release knows.
    Unknown(String),
}

/// Go's `strconv.ParseBool`.
pub fn go_parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// `featureGate.Set`: `key1=value1,key2=value2,…` — empty entries skipped, keys and values
/// trimmed, values parsed as Go's `strconv.ParseBool`; then names no release knows are refused
/// (`AllAlpha` and `AllBeta` are known everywhere).
pub fn parse_gates(value: &str) -> Result<Vec<(GateKey, bool)>, GateSyntax> {
    let mut raw: Vec<(String, bool)> = Vec::new();
    for entry in value.split(',') {
        if entry.is_empty() {
            continue;
        }
        let mut kv = entry.splitn(2, '=');
        let k = kv.next().unwrap_or_default().trim().to_string();
        let Some(v) = kv.next() else {
            return Err(GateSyntax::MissingValue(k));
        };
        let v = v.trim();
        let Some(b) = go_parse_bool(v) else {
            return Err(GateSyntax::InvalidValue { name: k, value: v.to_string() });
        };
        // A map: a later entry for the same key replaces the earlier one.
        match raw.iter_mut().find(|(name, _)| *name == k) {
            Some(slot) => slot.1 = b,
            None => raw.push((k, b)),
        }
    }
    raw.into_iter()
        .map(|(k, b)| {
            let key = match k.as_str() {
                "AllAlpha" => GateKey::AllAlpha,
                "AllBeta" => GateKey::AllBeta,
                name => GateKey::Gate(Gate::from_name(name).ok_or_else(|| GateSyntax::Unknown(k.clone()))?),
            };
            Ok((key, b))
        })
        .collect()
}

impl std::fmt::Display for GateSyntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateSyntax::MissingValue(k) => write!(f, "missing bool value for {k}"),
            GateSyntax::InvalidValue { name, value } => write!(
                f,
                "invalid value of {name}={value}, err: strconv.ParseBool: parsing {}: invalid syntax",
                crate::apiserver::go::strconv::go_quote(value)
            ),
            GateSyntax::Unknown(k) => write!(f, "unrecognized feature gate: {k}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // §C.4 the history of the gates: the versioned specs (`{Version: version.MustParse("1.31"),
    // Default: true, PreRelease: featuregate.Beta}` …) of ConsistentListFromCache (1.28 off, 1.31
    // on), ListFromCacheSnapshot (1.33 off, 1.34 on), WatchList (1.27 off, 1.32 on, 1.33 off,
    // 1.34 on) and ResilientWatchCacheInitialization (1.31 on), checked at v1.35; 1.37 as
    // CHANGELOG-1.37 (#138907: the locked GA gates removed, their behaviour kept).
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
            assert!(!f.consistent_list_skip_timeout_fallback, "1.{minor}");
            assert_eq!(f.watch_list_compression, minor >= 37, "1.{minor}");
            assert!(!f.watch_from_storage_without_rv, "1.{minor}");
        }
        assert!(Features::parse("1.26").is_none() && Features::parse("1.38").is_none());
        assert_eq!(Features::parse("1.37").map(|f| f.minor), Some(37));
        assert_eq!(Features::default().minor, 37);
        assert!(Features::parse("2.0").is_none());
        assert!(Features::parse("1.12").is_none());
        assert!(Features::parse("abc").is_none());
    }

    // The gates each release offers (what the settings panel lists).
    #[test]
    fn gates_per_release() {
        let names = |m| gates_for(m).into_iter().map(|(g, _)| g.name()).collect::<Vec<_>>();
        assert_eq!(
            names(37),
            [
                "ConsistentListFromCacheSkipTimeoutFallback",
                "ListFromCacheSnapshot",
                "WatchList",
                "WatchFromStorageWithoutResourceVersion",
                "WatchCacheInitializationPostStartHook",
                "WatchListCompression",
                "EtcdRangeStream",
                "ConcurrentWatchObjectDecode"
            ]
        );
        assert_eq!(
            names(30),
            ["ConsistentListFromCache", "WatchList", "WatchFromStorageWithoutResourceVersion"]
        );
        assert_eq!(
            Gate::WatchCacheInitializationPostStartHook.spec_at(37),
            Some(Spec { stage: Stage::Ga, default: true, locked: true })
        );
        assert_eq!(
            Gate::ConsistentListFromCacheSkipTimeoutFallback.spec_at(37),
            Some(Spec { stage: Stage::Alpha, default: false, locked: false })
        );
        assert_eq!(Gate::ConsistentListFromCache.spec_at(37), None);
        assert!(Gate::ConsistentListFromCache.default_at(37));
        for g in Gate::ALL {
            assert_eq!(Gate::from_name(g.name()), Some(g));
        }
    }

    // `featureGate.Set` / `unsafeSetFromMap` (component-base/featuregate/feature_gate.go).
    #[test]
    fn set_parses_and_checks_like_the_flag() {
        assert_eq!(
            parse_gates("WatchList=false, ListFromCacheSnapshot = 0,,"),
            Ok(vec![
                (GateKey::Gate(Gate::WatchList), false),
                (GateKey::Gate(Gate::ListFromCacheSnapshot), false)
            ])
        );
        let err = |v: &str| parse_gates(v).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(err("WatchList"), "missing bool value for WatchList");
        assert_eq!(
            err("WatchList=yes"),
            "invalid value of WatchList=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"
        );
        assert_eq!(err("Nope=true"), "unrecognized feature gate: Nope");
        let f = Features::for_minor(37);
        let gates = |v: &str| parse_gates(v).unwrap_or_default();
        assert_eq!(
            f.check(&gates("ConsistentListFromCache=false")),
            Err(GateRefusal::Unknown(Gate::ConsistentListFromCache))
        );
        let locked = f.check(&gates("WatchCacheInitializationPostStartHook=false"));
        let Err(GateRefusal::Locked(l)) = locked else { panic!("{locked:?}") };
        assert_eq!(
            l[0].to_string(),
            "cannot set feature gate WatchCacheInitializationPostStartHook to false, feature is locked to true"
        );
        let ok = f.check(&gates("ConsistentListFromCacheSkipTimeoutFallback=true")).unwrap_or_default();
        let on = Features::with_gates(37, ok);
        assert!(
            on.consistent_list_skip_timeout_fallback
                && on.overridden(Gate::ConsistentListFromCacheSkipTimeoutFallback)
        );
        // AllAlpha turns on every alpha gate not set by name.
        let all = f.check(&gates("AllAlpha=true")).unwrap_or_default();
        assert!(Features::with_gates(37, all).consistent_list_skip_timeout_fallback);
        let all = f
            .check(&gates("AllAlpha=true,ConsistentListFromCacheSkipTimeoutFallback=false"))
            .unwrap_or_default();
        assert!(!Features::with_gates(37, all).consistent_list_skip_timeout_fallback);
        // A locked-to-default value is accepted.
        assert!(Features::for_minor(34).check(&gates("ConsistentListFromCache=true")).is_ok());
    }
}
