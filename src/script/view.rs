//! The session's read model: everything a picture of the sandbox shows, as plain values read
//! from the engine at one moment — etcd's head and compacted zone, the compaction rounds, each
//! apiserver's watch cache per resource (window, capacity, snapshots, lag and events in flight),
//! each watch stream (where it started, how far its client read, what its buffers hold, its
//! timers and whether it ended), each informer, the objects that exist and each key's revision
//! lane. The UI draws these and never reaches into the cluster; nothing here changes the
//! engine. (Upstream there is no such thing: it is what `etcdctl`, `/metrics` and a debugger
//! would show of a real control plane.)

use crate::apiserver::cacher::CacheView;
use crate::apiserver::decision::Ended;
use crate::apiserver::server::WatchStreamView;
use crate::clock::{Duration, Instant};
use crate::store::{KeyIndex, MvccStore, RangeRequest};

/// One moment of the sandbox, as a picture shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// Simulated time, in milliseconds since the sandbox started.
    pub now_ms: u64,
    /// etcd's current revision (the head).
    pub revision: i64,
    /// etcd's compacted revision: revisions below it can no longer be read.
    pub compacted: Option<i64>,
    /// Every compaction round an apiserver's compactor made, oldest first.
    pub compactions: Vec<CompactionRound>,
    /// The apiservers, in order (`apiserver 1` first).
    pub apiservers: Vec<ApiserverView>,
    /// The apiserver requests go to (1-based).
    pub current_apiserver: usize,
    /// Every watch the script opened (`w1`, `w2`, …), in order.
    pub watches: Vec<WatchView>,
    /// Every informer the script started, by name.
    pub informers: Vec<InformerView>,
}

/// One compaction made by an apiserver's compactor (a `compact` line is not a round).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionRound {
    /// 1-based round number, in time order.
    pub round: usize,
    pub at_ms: u64,
    /// The revision etcd was compacted to.
    pub revision: i64,
}

/// One apiserver: its watch caches and its compactor's next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiserverView {
    /// 1-based, as scripts number them.
    pub number: usize,
    /// `--watch-cache`: off means every read and watch goes to etcd.
    pub watch_cache: bool,
    /// One per served resource (empty with the watch cache off).
    pub caches: Vec<CacheWindow>,
    /// When its compactor runs next (None = compaction switched off).
    pub next_compaction_ms: Option<u64>,
}

/// One watch cache (one resource on one apiserver) drawn as a window on the revision axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheWindow {
    /// 1-based apiserver number.
    pub apiserver: usize,
    pub resource: &'static str,
    /// The cache's resourceVersion: the newest revision it has processed.
    pub rv: i64,
    /// The oldest RV a watch may start from without a 410 (the window's left edge).
    pub oldest_startable_rv: i64,
    /// Events held / capacity of the history ring.
    pub history_len: usize,
    pub capacity: usize,
    /// The revisions a list can be served from a snapshot at (newest first is not promised).
    pub snapshots: Vec<i64>,
    /// Propagation lag from etcd to this cache, and the etcd responses still on their way.
    pub lag_ms: u64,
    pub in_flight: usize,
    /// When the next of them arrives.
    pub next_arrival_ms: Option<u64>,
    /// Each etcd response with events still on its way: the newest revision it carries and when
    /// it arrives (ms), oldest first.
    pub in_flight_revs: Vec<(i64, u64)>,
    /// When a consistent read that came in now would see this cache reach etcd's head (None: it
    /// is there already); see [`CacheWindow::fresh_wait`].
    pub fresh_at_ms: Option<u64>,
    /// The compaction this apiserver knows about.
    pub known_compaction: i64,
    /// False while (re)initialising: reads get 429.
    pub ready: bool,
    /// When a (re)initialising cache becomes ready (None while ready).
    pub ready_at_ms: Option<u64>,
}

/// How long a read waits for the watch cache to be fresh enough (`waitUntilFreshAndBlock`,
/// `storage/cacher/cacher.go`), in ms: after this it gets the 504.
pub const FRESHNESS_WAIT_MS: u64 = crate::apiserver::cacher::FRESHNESS_TIMEOUT.0;

/// What a consistent read arriving now would do about a cache behind etcd's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreshWait {
    /// It waits this long (≤ [`FRESHNESS_WAIT_MS`]), then the cache serves it.
    Waits(u64),
    /// The cache would not get there within [`FRESHNESS_WAIT_MS`]: after the wait a consistent
    /// list goes to etcd (`consistent-read-timeout`), a read at that RV gets the 504.
    TimesOut,
}

impl CacheWindow {
    /// The freshness wait a consistent read arriving at `now_ms` would have (None: no wait).
    pub fn fresh_wait(&self, now_ms: u64) -> Option<FreshWait> {
        let at = self.fresh_at_ms?;
        let wait = at.saturating_sub(now_ms);
        Some(if wait <= FRESHNESS_WAIT_MS { FreshWait::Waits(wait) } else { FreshWait::TimesOut })
    }
}

/// One watch a script opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchView {
    /// The script's id: `w1`, `w2`, …
    pub id: String,
    /// The script line that opened it (1-based).
    pub line: usize,
    /// 1-based apiserver number.
    pub apiserver: usize,
    pub resource: &'static str,
    /// The `resourceVersion` it asked to start after (None or 0 = "from now" / initial state).
    pub requested_rv: Option<i64>,
    /// What the client has read so far: frames, the newest RV among them, the bookmarks, and the
    /// line of each read (`events wN`).
    pub read: ReadFrames,
    /// The stream's state on the server side (None once the apiserver has forgotten it).
    pub stream: Option<WatchStreamView>,
    /// Why the stream ended, as the engine decided it (None while it runs).
    pub ended: Option<Ended>,
    /// What the script did with it, line by line.
    pub script: WatchLines,
    /// The revision it starts after (exclusive): the one it asked for, else where the server
    /// started it; none for "from now".
    pub start: Option<i64>,
    /// How it ended, once it did.
    pub end: Option<WatchEnd>,
}

impl WatchView {
    /// The revisions of the event frames its client read, oldest first.
    pub fn events(&self) -> impl Iterator<Item = i64> + '_ {
        self.read.rvs.iter().filter(|(_, k)| *k == FrameKind::Event).map(|(r, _)| *r)
    }

    /// The revisions of the bookmarks its client read, oldest first.
    pub fn bookmarks(&self) -> impl Iterator<Item = i64> + '_ {
        self.read.rvs.iter().filter(|(_, k)| *k == FrameKind::Bookmark).map(|(r, _)| *r)
    }

    /// Frames the server holds for a consumer that stopped reading, and how many fit.
    pub fn buffered(&self) -> (usize, usize) {
        self.stream.as_ref().map_or((0, 0), |s| (s.buffered, s.buffer_limit))
    }

    /// Whether the server holds its frames (`pause wN`), while the stream lasts.
    pub fn held(&self) -> bool {
        self.stream.as_ref().is_some_and(|s| s.paused)
    }

    /// How it ends, from the client's reads and the server's stream, `head` being etcd's
    /// revision.
    fn end_of(&self, head: i64) -> Option<WatchEnd> {
        let closed = self.read.ended || self.stream.as_ref().is_some_and(|s| s.closed);
        closed.then(|| WatchEnd {
            rv: self.read.last_rv.or(self.start).unwrap_or(head),
            line: self.read.ended_line.unwrap_or(self.line),
            code: self.read.error_code,
            cause: self.ended.as_ref().map(|e| e.ended),
        })
    }

    /// Sets [`WatchView::start`] and [`WatchView::end`] from what it holds.
    pub(super) fn settle(mut self, head: i64) -> WatchView {
        self.start =
            self.requested_rv.filter(|r| *r > 0).or(self.stream.as_ref().and_then(|s| s.started_from));
        self.end = self.end_of(head);
        self
    }
}

/// How a watch ended, as the engine and the frames read say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchEnd {
    /// Where it is drawn: the requested RV for a refused start, else the last RV it delivered.
    pub rv: i64,
    /// The line that saw the end (the `events` read), or the one that opened it.
    pub line: usize,
    /// The code of the ERROR frame that ended it (none: it just stopped, no ERROR frame).
    pub code: Option<u16>,
    /// The `ended` value of the engine's typed decision.
    pub cause: Option<crate::apiserver::decision::EndReason>,
}

/// What a script's lines did with one watch: the watches panel and the timeline draw the same
/// [`WatchView`], the panel its frames from the `events` lines listed here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchLines {
    /// The line of every `events` read answered (a dropped connection's too), oldest first.
    pub reads: Vec<usize>,
    /// An `events` read saw the stream end (the server closed it, or the script dropped it).
    pub closed: bool,
    /// `pause wN` (and no `resume wN` since).
    pub paused: bool,
    /// `cancel wN`.
    pub cancelled: bool,
}

/// The frames a client read from one watch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadFrames {
    /// Frames read (events, bookmarks and an ERROR).
    pub count: usize,
    /// The resourceVersion of the newest frame read (the client's cursor).
    pub last_rv: Option<i64>,
    /// The RVs of the frames read, oldest first (at most [`MAX_FRAME_RVS`], the newest kept).
    pub rvs: Vec<(i64, FrameKind)>,
    /// The code of the ERROR frame that ended it, if one was read.
    pub error_code: Option<u16>,
    /// The client saw the stream end.
    pub ended: bool,
    /// The line of the `events` read that saw the end.
    pub ended_line: Option<usize>,
}

/// How many frame RVs a watch keeps for pictures (older ones are counted only).
pub const MAX_FRAME_RVS: usize = 500;

/// The kind of a frame read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Event,
    Bookmark,
    Error,
}

/// One informer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InformerView {
    pub name: String,
    pub resource: String,
    /// 1-based apiserver number.
    pub apiserver: usize,
    /// The reflector's lastSyncResourceVersion ("" before the first list).
    pub last_sync_rv: String,
    /// That resourceVersion as the revision it names (none before the first list).
    pub last_sync_revision: Option<i64>,
    /// What the reflector is doing, in a few words.
    pub state: String,
    /// The watch stream it reads now, if any.
    pub watch: Option<WatchStreamView>,
}

/// One stored version of a key: written at `rev`, `version` of the generation created at
/// `create_rev`; `deleted` for a tombstone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyChange {
    pub rev: i64,
    pub create_rev: i64,
    pub version: i64,
    pub deleted: bool,
}

/// A key's lane on the revision axis: every revision etcd still stores for it, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevisionLane {
    pub key: String,
    /// The resource the key stores (`configmaps`), by the apiserver's key layout; None for a key
    /// outside it (the compactor's).
    pub resource: Option<String>,
    /// The key below the apiserver's prefix (`configmaps/default/a`), or the whole key outside it.
    pub short: String,
    pub changes: Vec<KeyChange>,
}

impl RevisionLane {
    fn of(ki: &KeyIndex) -> Self {
        let gens = ki.generations();
        let mut changes = Vec::new();
        for (gi, g) in gens.iter().enumerate() {
            let closed = gi + 1 < gens.len();
            let n = g.revisions().count();
            for (j, r) in g.revisions().enumerate() {
                changes.push(KeyChange {
                    rev: r.main,
                    create_rev: g.created().main,
                    // A generation's versions count up to its last: the j-th of n is version − (n−1−j).
                    version: g.version() - (n - 1 - j) as i64,
                    deleted: closed && j + 1 == n,
                });
            }
        }
        let key = String::from_utf8_lossy(ki.key()).into_owned();
        let split = crate::apiserver::resource::split_key(&key);
        let resource = split.map(|(r, _)| r.to_string());
        let short = key.strip_prefix(crate::apiserver::resource::KEY_PREFIX).unwrap_or(&key).to_string();
        RevisionLane { key, resource, short, changes }
    }
}

fn ms(i: Instant) -> u64 {
    i.0
}

impl CacheWindow {
    pub(super) fn of(v: CacheView) -> Self {
        CacheWindow {
            apiserver: v.apiserver + 1,
            resource: v.resource,
            rv: v.rv,
            oldest_startable_rv: v.oldest_startable_rv,
            history_len: v.history_len,
            capacity: v.capacity,
            snapshots: v.snapshots,
            lag_ms: v.lag_ms,
            in_flight: v.in_flight,
            next_arrival_ms: v.next_arrival.map(ms),
            in_flight_revs: v.in_flight_revs.into_iter().map(|(r, t)| (r, t.0)).collect(),
            fresh_at_ms: v.fresh_at.map(ms),
            known_compaction: v.known_compaction,
            ready: v.ready,
            ready_at_ms: v.ready_at.map(ms),
        }
    }
}

pub(super) fn compaction_rounds(rounds: &[(Instant, i64)]) -> Vec<CompactionRound> {
    rounds
        .iter()
        .enumerate()
        .map(|(i, (t, rev))| CompactionRound { round: i + 1, at_ms: t.0, revision: *rev })
        .collect()
}

pub(super) fn next_compaction_ms(next: Option<Instant>) -> Option<u64> {
    next.map(ms)
}

/// Every key's revision lane, in key order.
pub fn revision_lanes(etcd: &MvccStore) -> impl Iterator<Item = RevisionLane> + '_ {
    etcd.key_indexes().map(RevisionLane::of)
}

/// The names of the objects of `resource` in `namespace` that exist now (etcd's current state).
pub fn object_names(etcd: &MvccStore, resource: &str, namespace: &str) -> Vec<String> {
    let Some(info) = crate::apiserver::resource::lookup(resource) else { return Vec::new() };
    let prefix = format!("{}{namespace}/", info.key_root());
    let req = RangeRequest {
        key: prefix.clone().into_bytes(),
        range_end: crate::apiserver::etcd3::prefix_range_end(prefix.as_bytes()),
        keys_only: true,
        ..Default::default()
    };
    etcd.range(&req)
        .map(|r| {
            r.kvs
                .iter()
                .filter_map(|kv| kv.key.get(prefix.len()..))
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

impl ReadFrames {
    /// Records the frames of one `events` read on line `line`; `ended` if the stream is over.
    pub(super) fn record(&mut self, frames: &[crate::apiserver::watch::Frame], ended: bool, line: usize) {
        use crate::apiserver::watch::FrameType;
        for f in frames {
            self.count += 1;
            let kind = match f.kind {
                FrameType::Bookmark => FrameKind::Bookmark,
                FrameType::Error => FrameKind::Error,
                _ => FrameKind::Event,
            };
            if kind == FrameKind::Error {
                self.error_code = f
                    .object
                    .get("code")
                    .and_then(serde_json::Value::as_u64)
                    .and_then(|c| u16::try_from(c).ok());
                continue;
            }
            let rv = f
                .object
                .pointer("/metadata/resourceVersion")
                .and_then(serde_json::Value::as_str)
                .and_then(|s| s.parse::<i64>().ok());
            if let Some(rv) = rv {
                self.last_rv = Some(self.last_rv.map_or(rv, |l| l.max(rv)));
                self.rvs.push((rv, kind));
            }
        }
        if self.rvs.len() > MAX_FRAME_RVS {
            let drop = self.rvs.len() - MAX_FRAME_RVS;
            self.rvs.drain(..drop);
        }
        if ended && !self.ended {
            self.ended = true;
            self.ended_line = Some(line);
        }
    }
}

/// The settings in effect, as `set` lines write their values: the cluster's and each
/// apiserver's. A `set <name> <value>` line with a shown value changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsView {
    /// `set apiservers N`.
    pub apiservers: usize,
    /// `set etcd`: the etcd release whose compaction rules apply.
    pub etcd: &'static str,
    /// `set client-go`: `None` = auto (the release of apiserver 1).
    pub client_go: Option<u32>,
    /// The apiserver per-apiserver `set` lines (and requests) go to, 1-based.
    pub current_apiserver: usize,
    /// One per apiserver, `apiserver 1` first.
    pub per_apiserver: Vec<ApiserverSettings>,
}

/// One apiserver's settings in effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiserverSettings {
    /// 1-based.
    pub number: usize,
    /// `set kubernetes`: "1.37".
    pub kubernetes: String,
    /// `set feature-gates`: the gates set away from the release's default, as `Name=value`.
    pub gates: Vec<String>,
    /// `set watch-cache on|off`.
    pub watch_cache: bool,
    /// `set cache.lag`.
    pub cache_lag: Duration,
    /// `set cache.capacity`: `None` = auto.
    pub cache_capacity: Option<usize>,
    /// `set cache.init-delay`.
    pub cache_init_delay: Duration,
    /// `set compaction-interval` (`None`: `set compactor off`).
    pub compaction_interval: Option<Duration>,
}

impl SettingsView {
    pub fn of(cluster: &crate::cluster::Cluster, current_apiserver: usize) -> SettingsView {
        let per_apiserver = (0..cluster.apiserver_count())
            .filter_map(|i| cluster.apiserver(i).map(|s| (i, s)))
            .map(|(i, s)| {
                let f = s.config.features;
                let gates = crate::apiserver::features::gates_for(f.minor)
                    .into_iter()
                    .filter(|(g, _)| f.overridden(*g))
                    .map(|(g, _)| format!("{}={}", g.name(), f.enabled(g)))
                    .collect();
                ApiserverSettings {
                    number: i + 1,
                    kubernetes: f.version(),
                    gates,
                    watch_cache: s.config.watch_cache,
                    cache_lag: s.config.cache_lag,
                    cache_capacity: s.config.cache_capacity,
                    cache_init_delay: s.config.init_delay,
                    compaction_interval: s.compactor.interval,
                }
            })
            .collect();
        SettingsView {
            apiservers: cluster.apiserver_count(),
            etcd: cluster.etcd().version().release(),
            client_go: cluster.client_go_explicit(),
            current_apiserver: current_apiserver + 1,
            per_apiserver,
        }
    }

    /// The settings of the apiserver `set` lines go to.
    pub fn current(&self) -> Option<&ApiserverSettings> {
        self.per_apiserver.iter().find(|a| a.number == self.current_apiserver)
    }
}

impl ApiserverSettings {
    /// The value of a per-apiserver setting as a `set` line writes it; `None` for a cluster-wide
    /// one.
    pub fn value(&self, name: crate::cluster::SettingName) -> Option<String> {
        use crate::cluster::SettingName as N;
        match name {
            N::Kubernetes => Some(self.kubernetes.clone()),
            N::FeatureGates => Some(self.gates.join(",")),
            N::WatchCache => Some(if self.watch_cache { "on" } else { "off" }.to_string()),
            N::CacheLag => Some(self.cache_lag.to_string()),
            N::CacheCapacity => {
                Some(self.cache_capacity.map_or_else(|| "auto".to_string(), |n| n.to_string()))
            }
            N::CacheInitDelay => Some(self.cache_init_delay.to_string()),
            N::CompactionInterval => self.compaction_interval.map(|d| d.to_string()),
            N::Compactor => Some(if self.compaction_interval.is_some() { "on" } else { "off" }.to_string()),
            N::Apiservers | N::Etcd | N::ClientGo | N::ClockEpoch | N::Explain | N::KeepEndedWatches => None,
        }
    }
}
