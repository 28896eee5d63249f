//! The apiserver's decisions as values: which path served a request, under which rule, with the
//! numbers the rule used, and why a watch stream ended. Every explanation the playground shows
//! (the CLI's `"explain"`, the UI's "Why?" in English and 中文) is a rendering of one of these
//! (`crate::script::why`); nothing re-derives meaning from request text.
//!
//! Upstream counterparts: the routing in `storage/cacher/delegator.go` (`shouldDelegateList`,
//! `ShouldDelegateExactRV`, `ShouldDelegateConsistentRead`), the freshness wait in
//! `cacher.go` (`waitUntilFreshAndBlock`), the watch start table in `watch_cache.go`
//! (`getAllEventsSinceLocked`) and the watcher terminations in `cache_watcher.go` /
//! `etcd3/watcher.go`.
//!
//! The serialised form is a public contract (`"why"` in `rvlab run --explain`, documented in the
//! book's `site/src/reference/why.md`): field names and kebab-case ids never change meaning; new
//! ids may be added.

use serde::{Deserialize, Serialize};

pub use super::verb::Verb;

/// Where a request was served from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Path {
    /// The watch cache's current state (or a watch fed by it).
    WatchCache,
    /// A snapshot the watch cache keeps of its state at an older revision.
    CacheSnapshot,
    /// etcd itself.
    Etcd,
}

/// The `resourceVersion` semantics a read asked for (the docs' "Semantics for get and list" and
/// "Semantics for watch" tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Semantics {
    /// `resourceVersion` unset: the most recent data (a consistent read).
    MostRecent,
    /// `resourceVersion="0"`: any data, possibly stale.
    Any,
    /// `resourceVersion=n` (or `resourceVersionMatch=NotOlderThan`): data at least as new as `n`.
    NotOlderThan,
    /// `resourceVersionMatch=Exact` (or a watch from `n`): exactly revision `n`.
    Exact,
    /// `resourceVersion=n` with a `limit` and no `resourceVersionMatch`: the legacy Exact rule.
    LegacyExact,
    /// A continue token with its revision: the next page of the same snapshot.
    Continue,
    /// A continue token with revision -1: the rest of the list at the latest revision
    /// (an inconsistent continuation, offered after the snapshot was compacted).
    ContinueLatest,
    /// A watch with `sendInitialEvents=true` (watch-list): the current state, then changes.
    SendInitialEvents,
}

/// The rule that decided how a request was served. Reads name the routing rule; the outcome
/// after routing (a fallback, a wait that timed out, an error from storage) is an [`Outcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    // --- rejected before any storage is asked ---
    /// The URL, method or body could not be decoded into a request.
    RequestRejected,
    /// ListOptions validation refused the combination of parameters.
    InvalidListOptions,
    /// The continue token could not be decoded.
    MalformedContinueToken,
    /// `resourceVersion` is not a number.
    InvalidResourceVersion,
    /// The field selector names a field the resource cannot be selected by (its field label
    /// conversion refused it).
    FieldSelectorNotSupported,
    // --- reads ---
    /// The watch cache is off for this resource: etcd serves every read.
    WatchCacheOff,
    /// A get without `resourceVersion` always reads etcd.
    GetFromEtcd,
    /// A consistent list with ConsistentListFromCache off: etcd serves it.
    ConsistentReadFromEtcd,
    /// A consistent list from the watch cache once it has caught up with etcd's current revision.
    ConsistentReadFromCache,
    /// `resourceVersion="0"`: the watch cache's current state, no waiting.
    AnyFromCache,
    /// `resourceVersion=n`: wait until the watch cache has seen `n`, then its current state.
    NotOlderThanFromCache,
    /// Kubernetes 1.30: a paginated list with `resourceVersion=n` goes to etcd.
    PaginatedListFromEtcd,
    /// An exact revision (or a continuation) from the watch cache's snapshot, else etcd.
    ExactFromCacheSnapshot,
    /// An exact revision (or a continuation) from etcd: ListFromCacheSnapshot is off.
    ExactFromEtcd,
    /// 1.31–1.33: a continuation with revision -1 goes to etcd at its current revision — the
    /// cache takes no continuation before it has snapshots (ListFromCacheSnapshot, 1.34).
    ContinueLatestFromEtcd,
    // --- watches ---
    /// Watch without resourceVersion or with "0" (no watch-list): the cache's state as ADDED, then changes.
    WatchStateFromCache,
    /// `sendInitialEvents=true`: the cache's current state as ADDED, then changes.
    WatchListFromCache,
    /// `sendInitialEvents=false`: no initial state, only changes.
    WatchNoInitialState,
    /// `resourceVersion=n`: the buffered changes after `n` from the cache's history, then new ones.
    WatchFromCacheHistory,
    /// `resourceVersion=n` ahead of the cache: no error; changes up to `n` are skipped.
    WatchAheadOfCache,
    /// Watch cache off: an etcd list as ADDED events, then an etcd watch from the next revision.
    WatchListFromEtcd,
    /// Watch cache off: an etcd watch starting strictly after `resourceVersion`.
    WatchFromEtcd,
    // --- writes ---
    /// Create: `Txn If(mod_revision(key)==0) Then Put`.
    Create,
    /// Update with the body's resourceVersion as precondition (`If(mod_revision==rv)`).
    Update,
    /// Update without a resourceVersion in the body: unconditional.
    UpdateUnconditional,
    /// Update whose body says `resourceVersion: "0"`: `tryUpdate` treats 0 as no precondition,
    /// so the update is unconditional too.
    UpdateZeroResourceVersion,
    /// Update whose object encodes to the stored bytes: nothing written.
    UpdateNoOp,
    /// Delete: `Txn If(mod_revision==current) Then Delete`.
    Delete,
    /// Delete of a resource whose delete response is the object's last state (pods).
    DeleteReturnsObject,
    /// The object in the body was rejected (decoding, name, namespace, kind).
    BodyRejected,
    /// Create with `metadata.resourceVersion` set.
    ResourceVersionOnCreate,
    /// The resource's strategy rejected the object (pod validation).
    ObjectInvalid,
    /// The patch could not be applied (invalid patch, options, or a server-side apply conflict).
    PatchRejected,
    /// `dryRun=All`: the answer of the write, with nothing written.
    DryRun,
    /// `DELETE` on a collection: a list, then one delete (one etcd transaction) per listed object.
    DeleteCollection,
    /// No apiserver with that number.
    NoSuchApiserver,
}

/// What happened after routing, when it changed the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The watch cache is not ready; the read went to etcd instead.
    CacheNotReady,
    /// The watch cache is (re)initialising: 429 with Retry-After.
    CacheInitializing,
    /// Kubernetes 1.30: the request waited until the (re)initialising watch cache was ready.
    CacheWaitedReady,
    /// Before 1.34: etcd refused a list at a future exact revision and the apiserver passed the
    /// plain error on: 500.
    FutureRevisionUnmapped,
    /// The watch cache did not reach the revision within 3 s: 504 with Retry-After: 1.
    CacheNotFresh,
    /// The watch cache did not reach etcd's revision within 3 s: etcd served the consistent read.
    ConsistentReadTimeout,
    /// The watch cache did not reach etcd's revision within 3 s and
    /// ConsistentListFromCacheSkipTimeoutFallback is on: 429 with Retry-After: 1, no etcd read.
    ConsistentReadTimeoutNoFallback,
    /// The watch cache has no snapshot at that revision: etcd served it.
    SnapshotMissing,
    /// etcd compacted the revision asked for: 410 Expired.
    EtcdCompacted,
    /// The continue token's revision was compacted: 410 offering a `rv:-1` continuation.
    ContinueCompacted,
    /// The watch's resourceVersion is older than the watch cache's history window: 410.
    CacheWindow,
    /// The object does not exist: 404.
    NotFound,
    /// etcd is behind the resourceVersion asked for.
    TooLargeResourceVersion,
    /// The key already exists: 409.
    AlreadyExists,
    /// The resourceVersion precondition did not hold: 409 Conflict.
    Conflict,
    /// A delete precondition (uid or resourceVersion) did not hold: 409.
    PreconditionFailed,
    /// etcd returned an internal error.
    Internal,
}

/// The decision behind one API request's answer, with the numbers it used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Why {
    /// 1-based number of the apiserver that answered.
    pub apiserver: usize,
    /// What the request asked for; absent when it could not be decoded.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub verb: Option<Verb>,
    /// Where the answer came from; absent when the request was rejected before storage.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub path: Option<Path>,
    /// The resourceVersion semantics of a read (list, get, watch).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub semantics: Option<Semantics>,
    pub rule: Rule,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
    /// The resourceVersion the request named (its continue token's revision for a continuation).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rv: Option<i64>,
    /// etcd's current revision as learnt for a consistent read or a watch start.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub etcd_revision: Option<i64>,
    /// The watch cache's resourceVersion when it answered (or gave up waiting).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cache_rv: Option<i64>,
    /// The revision of the snapshot that served the read.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub snapshot_rv: Option<i64>,
    /// etcd's compact revision when it refused the read.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub compact_revision: Option<i64>,
    /// The oldest resourceVersion a watch can start from in the watch cache's history.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub oldest_startable_rv: Option<i64>,
    /// The revision the answer is consistent at (a list's resourceVersion, a write's new revision).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub revision: Option<i64>,
    /// For a watch: the number of events queued before any new change (initial ADDED or replayed).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub initial_events: Option<usize>,
    /// For a watch: the revision after which changes are sent.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub start_rv: Option<i64>,
    /// For a watch-list: whether the initial-events-end BOOKMARK follows the initial events.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub end_bookmark: Option<bool>,
    /// For a watch: whether the initial ADDED events come in key order (not revision order).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub key_order: Option<bool>,
    /// Seconds of the Retry-After header.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub retry_after: Option<i64>,
    /// For an update: the stored object's resourceVersion it was checked against.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub current_rv: Option<i64>,
    /// The feature gate whose value decided the answer (its upstream name), when one did: a gate
    /// that refused the request, or one switched away from its release's default that changed
    /// the path.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub gate: Option<super::features::Gate>,
    /// The value [`Why::gate`] had on the apiserver that answered.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub gate_enabled: Option<bool>,
}

impl Why {
    /// A decision under `rule`, every number unset.
    pub fn new(rule: Rule) -> Self {
        Why {
            apiserver: 0,
            verb: None,
            path: None,
            semantics: None,
            rule,
            outcome: None,
            rv: None,
            etcd_revision: None,
            cache_rv: None,
            snapshot_rv: None,
            compact_revision: None,
            oldest_startable_rv: None,
            revision: None,
            initial_events: None,
            start_rv: None,
            end_bookmark: None,
            key_order: None,
            retry_after: None,
            current_rv: None,
            gate: None,
            gate_enabled: None,
        }
    }

    /// Records that feature gate `g`, `enabled` or not, decided the answer.
    pub fn decided_by(&mut self, g: super::features::Gate, enabled: bool) {
        self.gate = Some(g);
        self.gate_enabled = Some(enabled);
    }

    pub fn path(mut self, p: Path) -> Self {
        self.path = Some(p);
        self
    }

    pub fn semantics(mut self, s: Semantics) -> Self {
        self.semantics = Some(s);
        self
    }

    pub fn outcome(mut self, o: Outcome) -> Self {
        self.outcome = Some(o);
        self
    }

    pub fn rv(mut self, rv: i64) -> Self {
        self.rv = Some(rv);
        self
    }
}

/// Why a watch stream ended (an `events wN` output of a closed stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// 410: the watch's resourceVersion is older than the watch cache's history window.
    CacheWindow,
    /// etcd compacted the revision the stream needed (410 from an etcd watch), or the watch
    /// cache's own etcd watch was compacted and it relisted, closing its watchers cleanly.
    EtcdCompacted,
    /// The client stopped reading; the cache watcher's buffer filled up and it was terminated.
    SlowConsumer,
    /// The watch's timeout (`timeoutSeconds` or the server's random 30–60 min) ran out.
    Timeout,
    /// The client cancelled the watch.
    Cancelled,
    /// The apiserver restarted.
    Restart,
    /// The watch cache was switched off (`set watch-cache off`).
    CacheOff,
    /// 504: the watch cache did not reach the revision the watch waits for within 3 s.
    CacheNotFresh,
    /// An etcd event lacked its previous value (compacted away): 500 from the watcher.
    PrevKvMissing,
}

/// A watch stream's end, with the numbers the cause used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ended {
    /// 1-based number of the apiserver that served the stream.
    pub apiserver: usize,
    pub ended: EndReason,
    /// Where the stream was served from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub path: Option<Path>,
    /// For `etcd-compacted` through the watch cache: the cache relisted and closed cleanly.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cache_relisted: Option<bool>,
    /// For `slow-consumer`: the size of the watcher's input and result channels.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub channel_size: Option<usize>,
    /// For `cache-window`: the oldest resourceVersion the cache could start from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub oldest_startable_rv: Option<i64>,
    /// For `cache-window` and `cache-not-fresh`: the resourceVersion the watch asked for.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rv: Option<i64>,
    /// For `cache-not-fresh`: where the cache was when it gave up.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cache_rv: Option<i64>,
}

impl Ended {
    /// An end by `reason`, apiserver and numbers filled in later.
    pub fn new(reason: EndReason) -> Self {
        Ended {
            apiserver: 0,
            ended: reason,
            path: None,
            cache_relisted: None,
            channel_size: None,
            oldest_startable_rv: None,
            rv: None,
            cache_rv: None,
        }
    }
}

impl Path {
    /// Every value, for tests and documentation checks.
    pub const ALL: [Path; 3] = [Path::WatchCache, Path::CacheSnapshot, Path::Etcd];
}

impl Semantics {
    /// Every value, for tests and documentation checks.
    pub const ALL: [Semantics; 8] = [
        Semantics::MostRecent,
        Semantics::Any,
        Semantics::NotOlderThan,
        Semantics::Exact,
        Semantics::LegacyExact,
        Semantics::Continue,
        Semantics::ContinueLatest,
        Semantics::SendInitialEvents,
    ];
}

impl Rule {
    /// The rule's id as `"why"` writes it (`"watch-from-cache-history"`).
    pub fn id(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }

    /// Every value, for tests and documentation checks.
    pub const ALL: [Rule; 36] = [
        Rule::RequestRejected,
        Rule::InvalidListOptions,
        Rule::MalformedContinueToken,
        Rule::InvalidResourceVersion,
        Rule::FieldSelectorNotSupported,
        Rule::WatchCacheOff,
        Rule::GetFromEtcd,
        Rule::ConsistentReadFromEtcd,
        Rule::ConsistentReadFromCache,
        Rule::AnyFromCache,
        Rule::NotOlderThanFromCache,
        Rule::PaginatedListFromEtcd,
        Rule::ExactFromCacheSnapshot,
        Rule::ExactFromEtcd,
        Rule::ContinueLatestFromEtcd,
        Rule::WatchStateFromCache,
        Rule::WatchListFromCache,
        Rule::WatchNoInitialState,
        Rule::WatchFromCacheHistory,
        Rule::WatchAheadOfCache,
        Rule::WatchListFromEtcd,
        Rule::WatchFromEtcd,
        Rule::Create,
        Rule::Update,
        Rule::UpdateUnconditional,
        Rule::UpdateZeroResourceVersion,
        Rule::UpdateNoOp,
        Rule::Delete,
        Rule::DeleteReturnsObject,
        Rule::BodyRejected,
        Rule::ResourceVersionOnCreate,
        Rule::ObjectInvalid,
        Rule::PatchRejected,
        Rule::DryRun,
        Rule::DeleteCollection,
        Rule::NoSuchApiserver,
    ];
}

impl Outcome {
    /// The outcome's id as `"why"` writes it (`"continue-compacted"`).
    pub fn id(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }

    /// Every value, for tests and documentation checks.
    pub const ALL: [Outcome; 17] = [
        Outcome::CacheNotReady,
        Outcome::CacheInitializing,
        Outcome::CacheWaitedReady,
        Outcome::FutureRevisionUnmapped,
        Outcome::CacheNotFresh,
        Outcome::ConsistentReadTimeout,
        Outcome::ConsistentReadTimeoutNoFallback,
        Outcome::SnapshotMissing,
        Outcome::EtcdCompacted,
        Outcome::ContinueCompacted,
        Outcome::CacheWindow,
        Outcome::NotFound,
        Outcome::TooLargeResourceVersion,
        Outcome::AlreadyExists,
        Outcome::Conflict,
        Outcome::PreconditionFailed,
        Outcome::Internal,
    ];
}

impl EndReason {
    /// Every value, for tests and documentation checks.
    pub const ALL: [EndReason; 9] = [
        EndReason::CacheWindow,
        EndReason::EtcdCompacted,
        EndReason::SlowConsumer,
        EndReason::Timeout,
        EndReason::Cancelled,
        EndReason::Restart,
        EndReason::CacheOff,
        EndReason::CacheNotFresh,
        EndReason::PrevKvMissing,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_to_the_documented_contract() {
        let mut w = Why::new(Rule::ExactFromCacheSnapshot)
            .path(Path::CacheSnapshot)
            .semantics(Semantics::LegacyExact)
            .rv(3);
        w.apiserver = 1;
        w.snapshot_rv = Some(3);
        let v = serde_json::to_value(&w).unwrap_or_default();
        assert_eq!(
            v.to_string(),
            r#"{"apiserver":1,"path":"cache-snapshot","semantics":"LegacyExact","rule":"exact-from-cache-snapshot","rv":3,"snapshotRv":3}"#
        );
        let back: Option<Why> = serde_json::from_value(v).ok();
        assert_eq!(back, Some(w));
        let mut e = Ended::new(EndReason::CacheWindow);
        e.apiserver = 2;
        assert_eq!(
            serde_json::to_value(&e).unwrap_or_default().to_string(),
            r#"{"apiserver":2,"ended":"cache-window"}"#
        );
    }
}

/// An etcd operation a script line issued (`etcd put|get|del|compact`, or the apiserver-level
/// `compact <rev>`). Upstream: etcd's `mvcc/kvstore.go` (`Range`, `Put`, `DeleteRange`,
/// `Compact`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EtcdOp {
    /// `Put`: one new revision for the key.
    Put,
    /// `Range`: a read at a revision (0 = the current one); never creates a revision.
    Range,
    /// `DeleteRange`: one new revision for all the keys it deletes, none if nothing matched.
    DeleteRange,
    /// `Compact`: forgets every revision of each key older than its newest one at or below the
    /// compaction revision.
    Compact,
}

impl EtcdOp {
    pub const ALL: [EtcdOp; 4] = [EtcdOp::Put, EtcdOp::Range, EtcdOp::DeleteRange, EtcdOp::Compact];
}

/// Why etcd refused an operation (`mvcc.ErrCompacted`, `mvcc.ErrFutureRev`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EtcdRefusal {
    /// The revision asked for is at or below the compact revision.
    Compacted,
    /// The revision asked for is above the current revision.
    FutureRevision,
}

impl EtcdRefusal {
    pub const ALL: [EtcdRefusal; 2] = [EtcdRefusal::Compacted, EtcdRefusal::FutureRevision];
}

/// The decision behind an etcd operation's output: which operation, etcd's revision after it,
/// and the numbers it used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EtcdWhy {
    pub etcd: EtcdOp,
    /// etcd's current revision after the operation (the response header's revision).
    pub revision: i64,
    /// Range: the revision read (absent: the current one). Compact: the revision compacted to.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub at: Option<i64>,
    /// Range: the number of keys in the range. DeleteRange: the number of keys deleted.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub count: Option<i64>,
    /// Range: whether the limit cut the answer short.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub more: Option<bool>,
    /// The compact revision before the operation, when it matters (compact, refusals).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub compacted: Option<i64>,
    /// `compact <rev>`: how many apiservers were told, whose watch caches stop serving snapshots
    /// older than the compaction revision.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub apiservers: Option<usize>,
    /// Why etcd refused the operation.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub refused: Option<EtcdRefusal>,
}

impl EtcdWhy {
    pub fn new(etcd: EtcdOp, revision: i64) -> Self {
        EtcdWhy {
            etcd,
            revision,
            at: None,
            count: None,
            more: None,
            compacted: None,
            apiservers: None,
            refused: None,
        }
    }
}

#[cfg(test)]
mod all_lists {
    use super::*;

    /// The position of `v` in [`Path::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_path(v: Path) -> usize {
        match v {
            Path::WatchCache => 0,
            Path::CacheSnapshot => 1,
            Path::Etcd => 2,
        }
    }

    /// The position of `v` in [`Semantics::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_semantics(v: Semantics) -> usize {
        match v {
            Semantics::MostRecent => 0,
            Semantics::Any => 1,
            Semantics::NotOlderThan => 2,
            Semantics::Exact => 3,
            Semantics::LegacyExact => 4,
            Semantics::Continue => 5,
            Semantics::ContinueLatest => 6,
            Semantics::SendInitialEvents => 7,
        }
    }

    /// The position of `v` in [`Rule::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_rule(v: Rule) -> usize {
        match v {
            Rule::RequestRejected => 0,
            Rule::InvalidListOptions => 1,
            Rule::MalformedContinueToken => 2,
            Rule::InvalidResourceVersion => 3,
            Rule::FieldSelectorNotSupported => 4,
            Rule::WatchCacheOff => 5,
            Rule::GetFromEtcd => 6,
            Rule::ConsistentReadFromEtcd => 7,
            Rule::ConsistentReadFromCache => 8,
            Rule::AnyFromCache => 9,
            Rule::NotOlderThanFromCache => 10,
            Rule::PaginatedListFromEtcd => 11,
            Rule::ExactFromCacheSnapshot => 12,
            Rule::ExactFromEtcd => 13,
            Rule::ContinueLatestFromEtcd => 14,
            Rule::WatchStateFromCache => 15,
            Rule::WatchListFromCache => 16,
            Rule::WatchNoInitialState => 17,
            Rule::WatchFromCacheHistory => 18,
            Rule::WatchAheadOfCache => 19,
            Rule::WatchListFromEtcd => 20,
            Rule::WatchFromEtcd => 21,
            Rule::Create => 22,
            Rule::Update => 23,
            Rule::UpdateUnconditional => 24,
            Rule::UpdateZeroResourceVersion => 25,
            Rule::UpdateNoOp => 26,
            Rule::Delete => 27,
            Rule::DeleteReturnsObject => 28,
            Rule::BodyRejected => 29,
            Rule::ResourceVersionOnCreate => 30,
            Rule::ObjectInvalid => 31,
            Rule::PatchRejected => 32,
            Rule::DryRun => 33,
            Rule::DeleteCollection => 34,
            Rule::NoSuchApiserver => 35,
        }
    }

    /// The position of `v` in [`Outcome::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_outcome(v: Outcome) -> usize {
        match v {
            Outcome::CacheNotReady => 0,
            Outcome::CacheInitializing => 1,
            Outcome::CacheWaitedReady => 2,
            Outcome::FutureRevisionUnmapped => 3,
            Outcome::CacheNotFresh => 4,
            Outcome::ConsistentReadTimeout => 5,
            Outcome::ConsistentReadTimeoutNoFallback => 6,
            Outcome::SnapshotMissing => 7,
            Outcome::EtcdCompacted => 8,
            Outcome::ContinueCompacted => 9,
            Outcome::CacheWindow => 10,
            Outcome::NotFound => 11,
            Outcome::TooLargeResourceVersion => 12,
            Outcome::AlreadyExists => 13,
            Outcome::Conflict => 14,
            Outcome::PreconditionFailed => 15,
            Outcome::Internal => 16,
        }
    }

    /// The position of `v` in [`EndReason::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_endreason(v: EndReason) -> usize {
        match v {
            EndReason::CacheWindow => 0,
            EndReason::EtcdCompacted => 1,
            EndReason::SlowConsumer => 2,
            EndReason::Timeout => 3,
            EndReason::Cancelled => 4,
            EndReason::Restart => 5,
            EndReason::CacheOff => 6,
            EndReason::CacheNotFresh => 7,
            EndReason::PrevKvMissing => 8,
        }
    }

    /// The position of `v` in [`EtcdOp::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_etcdop(v: EtcdOp) -> usize {
        match v {
            EtcdOp::Put => 0,
            EtcdOp::Range => 1,
            EtcdOp::DeleteRange => 2,
            EtcdOp::Compact => 3,
        }
    }

    /// The position of `v` in [`EtcdRefusal::ALL`]: an exhaustive match with no wildcard arm, so
    /// a new variant does not compile until it is placed here, and then fails
    /// `all_lists_are_exhaustive` until `ALL` holds it.
    fn position_etcdrefusal(v: EtcdRefusal) -> usize {
        match v {
            EtcdRefusal::Compacted => 0,
            EtcdRefusal::FutureRevision => 1,
        }
    }

    #[test]
    fn all_lists_are_exhaustive() {
        fn check<T: Copy + std::fmt::Debug>(all: &[T], pos: fn(T) -> usize) {
            for (i, v) in all.iter().enumerate() {
                assert_eq!(pos(*v), i, "{v:?} is out of place in ALL");
            }
        }
        check(&Path::ALL, position_path);
        check(&Semantics::ALL, position_semantics);
        check(&Rule::ALL, position_rule);
        check(&Outcome::ALL, position_outcome);
        check(&EndReason::ALL, position_endreason);
        check(&EtcdOp::ALL, position_etcdop);
        check(&EtcdRefusal::ALL, position_etcdrefusal);
        // The last variant of each list sits at its end: a variant added to the match but not
        // to ALL gets a position equal to ALL's length, caught here.
        assert_eq!(position_rule(Rule::NoSuchApiserver) + 1, Rule::ALL.len());
        assert_eq!(position_outcome(Outcome::Internal) + 1, Outcome::ALL.len());
    }
}
