//! The simulation's single entry point: one etcd, the apiservers in front of it (1–3, each with
//! its own watch caches, lag and compactor), the clock and the seeded randomness. Scripts, the
//! UI and tests all drive a cluster through this type. Time only moves through [`Cluster::run_until`]
//! (and requests that wait, as the real server would), and everything timed — cache arrivals,
//! the 1 s cacher timer (bookmarks, deadlines), compaction rounds — happens in time order.

use crate::apiserver::cacher::CacheView;
use crate::apiserver::cacher::watch_cache::{LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY};
use crate::apiserver::decision::{Ended, Rule, Why};
use crate::apiserver::features::{
    self, Features, GateKey, GateRefusal, GateSyntax, LockedGate, NEWEST_MINOR, OLDEST_MINOR,
};
use crate::apiserver::server::{ApiResponse, ApiServer, Ctx, ServerConfig};
use crate::apiserver::status::Status;
use crate::apiserver::watch::Frame;
use crate::clock::{Clock, Duration, Instant, Rng};
use crate::store::{MvccError, MvccStore};

/// The shortest compaction interval the simulation accepts (each round writes a revision).
pub const MIN_COMPACTION_INTERVAL: Duration = Duration::from_secs(10);
/// The longest single `advance` (a longer one is refused; repeat the line to go further).
pub const MAX_ADVANCE: Duration = Duration::from_secs(7 * 24 * 3600);
/// How [`MAX_ADVANCE`] is written in messages (a test keeps the two equal).
pub const MAX_ADVANCE_TEXT: &str = "168h";
/// The most apiservers a cluster may have.
pub const MAX_APISERVERS: usize = 3;
/// The period of the cacher's timer.
const TICK: Duration = Duration::from_secs(1);
/// etcd's progress-notify interval for idle watchers (`--experimental-watch-progress-notify-interval`).
pub const PROGRESS_NOTIFY_INTERVAL: Duration = Duration::from_secs(600);

/// One simulation setting (`set <name> <value>`), parsed once; per apiserver unless noted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// `apiservers N` (cluster-wide): 1 to [`MAX_APISERVERS`].
    Apiservers(usize),
    /// `etcd 3.4|3.5|3.6` (cluster-wide): that release's compaction rules.
    Etcd(crate::store::EtcdVersion),
    /// `kubernetes 1.x` (cluster-wide): that release's default feature gates (what
    /// `feature-gates` set is dropped: a new binary, started without the flag).
    Kubernetes(Features),
    /// `feature-gates Name=true[,Name=false…]`: kube-apiserver's `--feature-gates`, checked
    /// against the apiserver's release when applied.
    FeatureGates(GateEntries),
    /// `client-go 1.x|auto` (cluster-wide): the client-go release of the playground's clients
    /// (`auto`: the Kubernetes release of apiserver 1).
    ClientGo(Option<u32>),
    /// `watch-cache on|off`.
    WatchCache(bool),
    /// `cache.lag <duration>`.
    CacheLag(Duration),
    /// `cache.capacity <n>|auto` (`None` = dynamic).
    CacheCapacity(Option<usize>),
    /// `cache.init-delay <duration>`.
    CacheInitDelay(Duration),
    /// `compaction-interval <duration>`, at least [`MIN_COMPACTION_INTERVAL`].
    CompactionInterval(Duration),
    /// `compactor on|off`.
    Compactor(bool),
    /// `clock.epoch <RFC 3339>` (cluster-wide): the wall-clock time of simulated instant 0, which
    /// object timestamps count from (`rvlab serve` sets it to the wall clock).
    ClockEpoch(i64),
}

/// Which setting a `set` line changed (`"why":{"setting":…}` of its output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SettingName {
    #[serde(rename = "apiservers")]
    Apiservers,
    #[serde(rename = "etcd")]
    Etcd,
    #[serde(rename = "kubernetes")]
    Kubernetes,
    #[serde(rename = "feature-gates")]
    FeatureGates,
    #[serde(rename = "client-go")]
    ClientGo,
    #[serde(rename = "watch-cache")]
    WatchCache,
    #[serde(rename = "cache.lag")]
    CacheLag,
    #[serde(rename = "cache.capacity")]
    CacheCapacity,
    #[serde(rename = "cache.init-delay")]
    CacheInitDelay,
    #[serde(rename = "compaction-interval")]
    CompactionInterval,
    #[serde(rename = "compactor")]
    Compactor,
    #[serde(rename = "clock.epoch")]
    ClockEpoch,
    /// The session's own `explain on|off`.
    #[serde(rename = "explain")]
    Explain,
    /// The session's own `keep-ended-watches all|<n>`.
    #[serde(rename = "keep-ended-watches")]
    KeepEndedWatches,
}

impl SettingName {
    /// The name as a `set` line writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SettingName::Apiservers => "apiservers",
            SettingName::Etcd => "etcd",
            SettingName::Kubernetes => "kubernetes",
            SettingName::FeatureGates => "feature-gates",
            SettingName::ClientGo => "client-go",
            SettingName::WatchCache => "watch-cache",
            SettingName::CacheLag => "cache.lag",
            SettingName::CacheCapacity => "cache.capacity",
            SettingName::CacheInitDelay => "cache.init-delay",
            SettingName::CompactionInterval => "compaction-interval",
            SettingName::Compactor => "compactor",
            SettingName::ClockEpoch => "clock.epoch",
            SettingName::Explain => "explain",
            SettingName::KeepEndedWatches => "keep-ended-watches",
        }
    }

    pub const ALL: [SettingName; 14] = [
        SettingName::Apiservers,
        SettingName::Etcd,
        SettingName::Kubernetes,
        SettingName::FeatureGates,
        SettingName::ClientGo,
        SettingName::WatchCache,
        SettingName::CacheLag,
        SettingName::CacheCapacity,
        SettingName::CacheInitDelay,
        SettingName::CompactionInterval,
        SettingName::Compactor,
        SettingName::ClockEpoch,
        SettingName::Explain,
        SettingName::KeepEndedWatches,
    ];
}

/// The decision behind a `set` line's output: which setting, the value as written, and the
/// apiserver it applies to (absent for cluster-wide settings).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SettingWhy {
    pub setting: SettingName,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub apiserver: Option<usize>,
}

impl Setting {
    /// Which setting this is.
    pub fn name(&self) -> SettingName {
        match self {
            Setting::Apiservers(_) => SettingName::Apiservers,
            Setting::Etcd(_) => SettingName::Etcd,
            Setting::Kubernetes(_) => SettingName::Kubernetes,
            Setting::FeatureGates(_) => SettingName::FeatureGates,
            Setting::ClientGo(_) => SettingName::ClientGo,
            Setting::WatchCache(_) => SettingName::WatchCache,
            Setting::CacheLag(_) => SettingName::CacheLag,
            Setting::CacheCapacity(_) => SettingName::CacheCapacity,
            Setting::CacheInitDelay(_) => SettingName::CacheInitDelay,
            Setting::CompactionInterval(_) => SettingName::CompactionInterval,
            Setting::Compactor(_) => SettingName::Compactor,
            Setting::ClockEpoch(_) => SettingName::ClockEpoch,
        }
    }

    /// Whether it applies to the whole cluster (else to the chosen apiserver).
    pub fn cluster_wide(&self) -> bool {
        matches!(
            self,
            Setting::Apiservers(_)
                | Setting::Etcd(_)
                | Setting::Kubernetes(_)
                | Setting::ClockEpoch(_)
                | Setting::ClientGo(_)
        )
    }

    /// Parses `set <name> <value>` (the session's own `explain` is not a cluster setting).
    pub fn parse(name: &str, value: &str) -> Result<Setting, SettingError> {
        let v = || value.to_string();
        let on_off = |setting: SettingName| match value {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(SettingError::OnOff { setting, value: v() }),
        };
        let dur = |setting: SettingName| {
            Duration::parse(value).map_err(|problem| SettingError::Duration {
                setting,
                value: v(),
                reason: problem.to_string(),
                problem,
            })
        };
        Ok(match name {
            "apiservers" => {
                let n = value.parse().ok().filter(|n| (1..=MAX_APISERVERS).contains(n));
                Setting::Apiservers(n.ok_or(SettingError::Apiservers { value: v(), max: MAX_APISERVERS })?)
            }
            "etcd" => Setting::Etcd(
                crate::store::EtcdVersion::parse(value).ok_or(SettingError::Etcd { value: v() })?,
            ),
            "kubernetes" => Setting::Kubernetes(Features::parse(value).ok_or(SettingError::Kubernetes {
                value: v(),
                oldest: OLDEST_MINOR,
                newest: NEWEST_MINOR,
            })?),
            "feature-gates" => Setting::FeatureGates(GateEntries::parse(value)?),
            "client-go" if value == "auto" => Setting::ClientGo(None),
            "client-go" => {
                Setting::ClientGo(Some(Features::parse(value).map(|f| f.minor).ok_or(
                    SettingError::ClientGo { value: v(), oldest: OLDEST_MINOR, newest: NEWEST_MINOR },
                )?))
            }
            "watch-cache" => Setting::WatchCache(on_off(SettingName::WatchCache)?),
            "cache.lag" => Setting::CacheLag(dur(SettingName::CacheLag)?),
            "cache.capacity" if value == "auto" => Setting::CacheCapacity(None),
            "cache.capacity" => {
                let n = value.parse().ok().filter(|n| (1..=UPPER_BOUND_CAPACITY).contains(n));
                Setting::CacheCapacity(Some(
                    n.ok_or(SettingError::CacheCapacity { value: v(), max: UPPER_BOUND_CAPACITY })?,
                ))
            }
            "cache.init-delay" => Setting::CacheInitDelay(dur(SettingName::CacheInitDelay)?),
            "compaction-interval" => {
                let d = dur(SettingName::CompactionInterval)?;
                if d < MIN_COMPACTION_INTERVAL {
                    return Err(SettingError::CompactionInterval {
                        value: d.to_string(),
                        min: MIN_COMPACTION_INTERVAL.to_string(),
                    });
                }
                Setting::CompactionInterval(d)
            }
            "compactor" => Setting::Compactor(on_off(SettingName::Compactor)?),
            "clock.epoch" => Setting::ClockEpoch(
                crate::apiserver::object::parse_rfc3339_utc(value)
                    .ok_or(SettingError::ClockEpoch { value: v() })?,
            ),
            _ => return Err(SettingError::Unknown { name: name.to_string() }),
        })
    }
}

/// Why a `set <name> <value>` line was refused. A typed value (a refused line carries it, see
/// `script::refusal`); its English words here, its 中文 in `script::refusal` (a duration's
/// problem in `script::syntax`, with the script's other duration errors).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum SettingError {
    #[error(
        "unknown setting {name:?}; known: watch-cache on|off, cache.lag <duration>, cache.capacity <n>|auto, cache.init-delay <duration>, compaction-interval <duration>, compactor on|off, clock.epoch <time>, kubernetes <1.x>, feature-gates <Name=true,…>, client-go <1.x>|auto, etcd 3.4|3.5|3.6, apiservers <n>, explain on|off, keep-ended-watches all|<n>"
    )]
    Unknown { name: String },
    #[error("{} takes on or off, not {value:?}", setting.as_str())]
    OnOff { setting: SettingName, value: String },
    /// A duration that does not parse: `problem` is the duration parser's value, `reason` its
    /// English (kept for JSON Lines readers that read it).
    #[error("{}: {problem}", setting.as_str())]
    Duration { setting: SettingName, value: String, reason: String, problem: crate::clock::DurationError },
    #[error("apiservers takes a number from 1 to {max}, not {value:?}")]
    Apiservers { value: String, max: usize },
    #[error("etcd takes 3.4, 3.5 or 3.6, not {value:?}")]
    Etcd { value: String },
    #[error("unsupported Kubernetes version {value:?}; use 1.{oldest} … 1.{newest} (e.g. 1.30, 1.33, 1.34)")]
    Kubernetes { value: String, oldest: u32, newest: u32 },
    #[error("unsupported client-go version {value:?}; use 1.{oldest} … 1.{newest} or auto")]
    ClientGo { value: String, oldest: u32, newest: u32 },
    /// `featureGate.Set`: an entry without `=`.
    #[error("missing bool value for {name}")]
    FeatureGateMissingValue { name: String },
    /// `featureGate.Set`: a value Go's `strconv.ParseBool` refuses.
    #[error(
        "invalid value of {name}={value}, err: strconv.ParseBool: parsing {}: invalid syntax",
        crate::apiserver::go::strconv::go_quote(value)
    )]
    FeatureGateInvalidValue { name: String, value: String },
    /// `unsafeSetFromMap`: a name the apiserver's release does not know (`release` absent: no
    /// release the playground models knows it).
    #[error("unrecognized feature gate: {name}")]
    FeatureGateUnknown { name: String, release: Option<String> },
    /// `unsafeSetFromMap`: locked gates given the other value (one error, or Go's aggregate of
    /// several: `[e1, e2]`).
    #[error("{}", locked_text(locked))]
    FeatureGateLocked { locked: Vec<LockedGate>, release: String },
    #[error("cache.capacity takes a number from 1 to {max} or auto, not {value:?}")]
    CacheCapacity { value: String, max: usize },
    #[error("compaction-interval must be at least {min} (each round writes a revision), not {value}")]
    CompactionInterval { value: String, min: String },
    #[error("clock.epoch takes a UTC time such as 2026-01-01T00:00:00Z, not {value:?}")]
    ClockEpoch { value: String },
    #[error("keep-ended-watches takes all or a number from 0 to {max}, not {value:?}")]
    KeepEndedWatches { value: String, max: usize },
}

/// The most `keep-ended-watches <n>` takes.
pub const MAX_KEEP_ENDED: usize = 100_000;

/// The value of the session's own `keep-ended-watches all|<n>`: `None` keeps every watch.
pub fn parse_keep_ended(value: &str) -> Result<Option<usize>, SettingError> {
    if value == "all" {
        return Ok(None);
    }
    match value.parse::<usize>() {
        Ok(n) if n <= MAX_KEEP_ENDED && value.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(SettingError::KeepEndedWatches { value: value.to_string(), max: MAX_KEEP_ENDED }),
    }
}

/// `utilerrors.NewAggregate(errs).Error()` of the locked-gate errors.
fn locked_text(locked: &[LockedGate]) -> String {
    let msgs: Vec<String> = locked.iter().map(ToString::to_string).collect();
    crate::apiserver::status::aggregate_messages(&msgs)
}

/// The entries of one `set feature-gates` line, parsed (a fixed array, so a [`Setting`] stays
/// `Copy`: one entry per distinct key, and there are only so many keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateEntries {
    items: [Option<(GateKey, bool)>; features::Gate::ALL.len() + 2],
}

impl GateEntries {
    /// `featureGate.Set` of `value`.
    pub fn parse(value: &str) -> Result<GateEntries, SettingError> {
        let parsed = features::parse_gates(value).map_err(|e| match e {
            GateSyntax::MissingValue(name) => SettingError::FeatureGateMissingValue { name },
            GateSyntax::InvalidValue { name, value } => SettingError::FeatureGateInvalidValue { name, value },
            GateSyntax::Unknown(name) => SettingError::FeatureGateUnknown { name, release: None },
        })?;
        let mut items = [None; features::Gate::ALL.len() + 2];
        for (slot, entry) in items.iter_mut().zip(parsed) {
            *slot = Some(entry);
        }
        Ok(GateEntries { items })
    }

    pub fn entries(&self) -> Vec<(GateKey, bool)> {
        self.items.iter().flatten().copied().collect()
    }
}

/// Why [`Cluster::apply`] did not apply a setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyError {
    /// The chosen apiserver does not exist.
    NoApiserver,
    /// The apiserver's release refused the value (feature gates).
    Setting(SettingError),
}

/// A watch opened through the cluster: which apiserver serves it, and its stream id there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchHandle {
    pub apiserver: usize,
    pub stream: u64,
}

/// One simulated control plane.
#[derive(Debug, Clone)]
pub struct Cluster {
    clock: Clock,
    etcd: MvccStore,
    apiservers: Vec<ApiServer>,
    uid_seq: u64,
    seed: u64,
    rng: Rng,
    /// The last instant the 1 s timer fired.
    last_tick: Instant,
    /// Every compaction an apiserver's compactor made, as (time, revision).
    compactions: Vec<(Instant, i64)>,
    /// The last time etcd sent progress notifications to idle watchers.
    last_progress: Instant,
    /// `set client-go`: the clients' client-go release (`None`: apiserver 1's release).
    client_go: Option<u32>,
    /// The next request has waited for the watch cache already ([`Cluster::hold_next`]).
    next_held: Option<crate::apiserver::cacher::Held>,
}

impl Default for Cluster {
    fn default() -> Self {
        Self::new()
    }
}

impl Cluster {
    /// A fresh cluster: an empty etcd at revision 1 and one apiserver with current defaults.
    pub fn new() -> Self {
        Self::with_seed(1)
    }

    pub fn with_seed(seed: u64) -> Self {
        let clock = Clock::new();
        let mut etcd = MvccStore::new();
        let first = ApiServer::new(0, ServerConfig::default(), &mut etcd, clock.now());
        Cluster {
            clock,
            etcd,
            apiservers: vec![first],
            uid_seq: 0,
            seed,
            rng: Rng::new(seed),
            next_held: None,
            last_tick: Instant(0),
            compactions: Vec::new(),
            last_progress: Instant(0),
            client_go: None,
        }
    }

    /// The client-go release (minor) the playground's clients behave as: `set client-go`, else the
    /// Kubernetes release of apiserver 1.
    pub fn client_go_minor(&self) -> u32 {
        self.client_go.unwrap_or_else(|| {
            self.apiservers
                .first()
                .map_or(crate::apiserver::features::DEFAULT_MINOR, |s| s.config.features.minor)
        })
    }

    /// Whether `set client-go` chose a release (else it follows the Kubernetes release).
    pub fn client_go_explicit(&self) -> Option<u32> {
        self.client_go
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn now(&self) -> Instant {
        self.clock.now()
    }

    pub fn etcd(&self) -> &MvccStore {
        &self.etcd
    }

    pub fn apiserver_count(&self) -> usize {
        self.apiservers.len()
    }

    pub fn apiserver(&self, index: usize) -> Option<&ApiServer> {
        self.apiservers.get(index)
    }

    /// The compaction interval of every apiserver whose compactor is on.
    pub fn compaction_intervals(&self) -> impl Iterator<Item = Duration> + '_ {
        self.apiservers.iter().filter_map(|s| s.compactor.interval)
    }

    pub fn compactions(&self) -> &[(Instant, i64)] {
        &self.compactions
    }

    /// What the timeline shows of every watch cache.
    pub fn cache_views(&self) -> Vec<CacheView> {
        let (now, head) = (self.clock.now(), self.etcd.current_revision());
        self.apiservers.iter().flat_map(|s| s.cache_views(now, head)).collect()
    }

    /// Lets etcd's news reach the apiservers (without moving time).
    fn settle(&mut self) {
        let now = self.clock.now();
        for s in &mut self.apiservers {
            s.sync(&mut self.etcd, now);
        }
    }

    /// Direct access to etcd beneath the apiservers (the script's `etcd …` lines). The apiservers'
    /// etcd watches see the change when the caller is done.
    pub fn with_etcd<T>(&mut self, f: impl FnOnce(&mut MvccStore) -> T) -> T {
        let out = f(&mut self.etcd);
        self.settle();
        out
    }

    /// Sends one HTTP request to apiserver `index` (0-based).
    pub fn request(
        &mut self,
        index: usize,
        method: &str,
        target: &str,
        body: Option<&str>,
    ) -> (ApiResponse, Option<WatchHandle>) {
        self.request_typed(index, method, target, None, body)
    }

    /// The next request (only) arrived `held.waited` ago and has waited for the watch cache
    /// since (a request line's `waited=`).
    pub fn hold_next(&mut self, held: Option<crate::apiserver::cacher::Held>) {
        self.next_held = held;
    }

    /// [`Cluster::request`] with the request's `Content-Type` (a PATCH's patch type).
    pub fn request_typed(
        &mut self,
        index: usize,
        method: &str,
        target: &str,
        content_type: Option<&str>,
        body: Option<&str>,
    ) -> (ApiResponse, Option<WatchHandle>) {
        let held = self.next_held.take();
        let Some(server) = self.apiservers.get_mut(index) else {
            let status = Status::non_api_error(&format!("no apiserver {}", index + 1));
            let mut why = Why::new(Rule::NoSuchApiserver);
            why.apiserver = index + 1;
            return (ApiResponse::from_status(&status, why), None);
        };
        let before = self.clock.now();
        let mut clock = self.clock.clone();
        // Requests that wait let time pass on a copy; the cluster then catches up in order.
        clock.advance_to(before);
        let mut ctx = Ctx {
            etcd: &mut self.etcd,
            clock: &mut clock,
            uid_seq: &mut self.uid_seq,
            seed: self.seed,
            rng: &mut self.rng,
            held,
        };
        let resp = server.handle_typed(&mut ctx, method, target, content_type, body);
        let after = clock.now();
        self.settle();
        if after > before {
            self.run_until(after);
        }
        let handle = resp.watch.map(|stream| WatchHandle { apiserver: index, stream });
        (resp, handle)
    }

    /// Frames sent on a watch since the last read, and whether the server has ended it.
    pub fn read_watch(&mut self, h: WatchHandle) -> Option<(Vec<Frame>, bool)> {
        self.settle();
        self.apiservers.get_mut(h.apiserver)?.read_watch(&mut self.etcd, h.stream)
    }

    pub fn pause_watch(&mut self, h: WatchHandle, paused: bool) -> bool {
        self.apiservers.get_mut(h.apiserver).is_some_and(|s| s.pause_watch(h.stream, paused))
    }

    pub fn cancel_watch(&mut self, h: WatchHandle) -> bool {
        match self.apiservers.get_mut(h.apiserver) {
            Some(s) => s.cancel_watch(&mut self.etcd, h.stream),
            None => false,
        }
    }

    /// Forgets a watch: its apiserver drops the stream and what it kept for it.
    pub fn forget_watch(&mut self, h: WatchHandle) -> bool {
        match self.apiservers.get_mut(h.apiserver) {
            Some(s) => s.forget_watch(&mut self.etcd, h.stream),
            None => false,
        }
    }

    /// What a picture shows of a watch stream, if its apiserver still knows it.
    pub fn watch_view(&self, h: WatchHandle) -> Option<crate::apiserver::server::WatchStreamView> {
        self.apiservers.get(h.apiserver)?.watch_view(h.stream)
    }

    pub fn watch_close_reason(&self, h: WatchHandle) -> Option<Ended> {
        self.apiservers.get(h.apiserver)?.watch_close_reason(h.stream)
    }

    /// Compaction through the apiserver: etcd Compact at `rev`, and every apiserver learns it.
    pub fn compact(&mut self, rev: i64) -> Result<(), MvccError> {
        self.etcd.compact(rev)?;
        for s in &mut self.apiservers {
            s.note_compaction(rev);
        }
        self.settle();
        Ok(())
    }

    /// The next instant at which something happens by itself. The cacher's timer ticks on whole
    /// seconds; ticks with nothing due are skipped, so long idle stretches cost nothing.
    pub fn next_wakeup(&self) -> Instant {
        let mut t = self.last_progress + PROGRESS_NOTIFY_INTERVAL;
        if let Some(due) = self.apiservers.iter().filter_map(ApiServer::next_timer_due).min() {
            let first_tick = (self.last_tick + TICK).0;
            let tick = due.0.div_ceil(TICK.0) * TICK.0;
            t = t.min(Instant(tick.max(first_tick)));
        }
        for s in &self.apiservers {
            if let Some(a) = s.next_arrival() {
                t = t.min(a);
            }
            if let Some(c) = s.compactor.next_due() {
                t = t.min(c);
            }
        }
        t
    }

    /// Lets simulated time pass until `target`, handling everything due on the way in order.
    pub fn run_until(&mut self, target: Instant) {
        loop {
            let t = self.next_wakeup();
            if t > target {
                break;
            }
            self.clock.advance_to(t);
            let now = self.clock.now();
            self.settle();
            for i in 0..self.apiservers.len() {
                let due = self.apiservers[i].compactor.next_due().is_some_and(|d| d <= now);
                if due {
                    let round = self.apiservers[i].compactor.run(&mut self.etcd, now);
                    if let Some(rev) = round.compacted {
                        self.compactions.push((now, rev));
                        for s in &mut self.apiservers {
                            s.note_compaction(rev);
                        }
                    }
                    self.settle();
                }
            }
            if self.last_progress + PROGRESS_NOTIFY_INTERVAL <= now {
                self.last_progress = now;
                self.etcd.progress_notify_idle();
                self.settle();
            }
            if self.last_tick + TICK <= now {
                self.last_tick = now;
                for s in &mut self.apiservers {
                    s.tick(&mut self.etcd, now);
                }
            }
        }
        self.clock.advance_to(target);
        self.settle();
    }

    pub fn advance(&mut self, d: Duration) {
        let target = self.clock.now() + d;
        self.run_until(target);
    }

    /// Restarts apiserver `index` (0-based): its watches end, its caches relist and are not ready
    /// for the init delay.
    pub fn restart_apiserver(&mut self, index: usize) -> Result<(), String> {
        let now = self.clock.now();
        let missing = self.no_such(index);
        let s = self.apiservers.get_mut(index).ok_or(missing)?;
        s.restart(&mut self.etcd, now);
        self.settle();
        Ok(())
    }

    fn no_such(&self, index: usize) -> String {
        format!(
            "no apiserver {}: there are {} (set apiservers N, N ≤ {MAX_APISERVERS})",
            index + 1,
            self.apiservers.len()
        )
    }

    /// Applies a simulation setting to the cluster or to apiserver `index`. Returns a short
    /// description of what changed.
    /// `set <name> <value>` on apiserver `index` (or the whole cluster): [`Setting::parse`] then
    /// [`Cluster::apply`].
    pub fn set(&mut self, index: usize, name: &str, value: &str) -> Result<String, String> {
        let setting = Setting::parse(name, value).map_err(|e| e.to_string())?;
        self.apply(index, setting).map_err(|e| match e {
            ApplyError::NoApiserver => format!("no apiserver {}", index + 1),
            ApplyError::Setting(e) => e.to_string(),
        })
    }

    /// Applies one setting; returns what it did, in words.
    pub fn apply(&mut self, index: usize, setting: Setting) -> Result<String, ApplyError> {
        let now = self.clock.now();
        match setting {
            Setting::Apiservers(n) => {
                while self.apiservers.len() > n {
                    if let Some(mut s) = self.apiservers.pop() {
                        s.restart(&mut self.etcd, now);
                        s.set_watch_cache(false, &mut self.etcd, now);
                    }
                }
                while self.apiservers.len() < n {
                    let config = self.apiservers[0].config.clone();
                    let interval = self.apiservers[0].compactor.interval;
                    let i = self.apiservers.len();
                    let mut s = ApiServer::new(
                        i,
                        ServerConfig { cache_lag: Duration(0), cache_capacity: None, ..config },
                        &mut self.etcd,
                        now,
                    );
                    s.compactor.set_interval(interval, now);
                    self.apiservers.push(s);
                }
                self.settle();
                return Ok(format!("{n} apiserver(s)"));
            }
            Setting::Etcd(v) => {
                self.etcd.set_version(v);
                return Ok(format!("etcd {} compaction rules", v.release()));
            }
            Setting::Kubernetes(f) => {
                for s in &mut self.apiservers {
                    s.config.features = f;
                }
                return Ok(format!("Kubernetes {} defaults", f.version()));
            }
            Setting::ClientGo(minor) => {
                self.client_go = minor;
                return Ok(match minor {
                    Some(m) => format!("clients behave as client-go of Kubernetes 1.{m}"),
                    None => format!("clients behave as client-go of Kubernetes 1.{}", self.client_go_minor()),
                });
            }
            Setting::ClockEpoch(secs) => {
                self.clock.set_epoch(secs);
                return Ok(format!("timestamps count from {}", crate::apiserver::object::rfc3339_utc(secs)));
            }
            _ => {}
        }
        let s = self.apiservers.get_mut(index).ok_or(ApplyError::NoApiserver)?;
        let out = match setting {
            Setting::FeatureGates(entries) => {
                let f = s.config.features;
                let release = f.version();
                let gates = f.check(&entries.entries()).map_err(|r| {
                    ApplyError::Setting(match r {
                        GateRefusal::Unknown(g) => SettingError::FeatureGateUnknown {
                            name: g.name().to_string(),
                            release: Some(release),
                        },
                        GateRefusal::Locked(locked) => SettingError::FeatureGateLocked { locked, release },
                    })
                })?;
                s.config.features = Features::with_gates(f.minor, gates);
                let on: Vec<String> = features::gates_for(f.minor)
                    .into_iter()
                    .filter(|(g, _)| s.config.features.overridden(*g))
                    .map(|(g, _)| format!("{}={}", g.name(), s.config.features.enabled(g)))
                    .collect();
                if on.is_empty() {
                    format!("apiserver {} runs Kubernetes {} with its default gates", index + 1, f.version())
                } else {
                    format!("apiserver {} runs Kubernetes {} with {}", index + 1, f.version(), on.join(","))
                }
            }
            Setting::WatchCache(on) => {
                s.set_watch_cache(on, &mut self.etcd, now);
                format!("watch cache {} on apiserver {}", if on { "on" } else { "off" }, index + 1)
            }
            Setting::CacheLag(d) => {
                s.set_cache_lag(d);
                format!("apiserver {}'s watch cache lags {d} behind etcd", index + 1)
            }
            Setting::CacheCapacity(None) => {
                s.set_cache_capacity(None);
                format!("cache capacity: dynamic ({LOWER_BOUND_CAPACITY} … {UPPER_BOUND_CAPACITY})")
            }
            Setting::CacheCapacity(Some(n)) => {
                s.set_cache_capacity(Some(n));
                format!("cache capacity pinned at {n}")
            }
            Setting::CacheInitDelay(d) => {
                s.config.init_delay = d;
                format!("apiserver {}'s cache takes {d} to initialise after a restart", index + 1)
            }
            Setting::CompactionInterval(d) => {
                s.compactor.set_interval(Some(d), now);
                format!("apiserver {} compacts every {d}", index + 1)
            }
            Setting::Compactor(on) => {
                let interval = on.then_some(crate::apiserver::compactor::DEFAULT_INTERVAL);
                s.compactor.set_interval(interval, now);
                format!("compactor {} on apiserver {}", if on { "on" } else { "off" }, index + 1)
            }
            // Cluster-wide settings returned above.
            Setting::Apiservers(_)
            | Setting::Etcd(_)
            | Setting::Kubernetes(_)
            | Setting::ClockEpoch(_)
            | Setting::ClientGo(_) => String::new(),
        };
        self.settle();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_names_are_written_as_their_wire_names() {
        for n in SettingName::ALL {
            assert_eq!(serde_json::to_value(n).ok(), Some(serde_json::Value::String(n.as_str().into())));
        }
    }

    #[test]
    fn max_advance_text_is_max_advance() {
        assert_eq!(Duration::parse(MAX_ADVANCE_TEXT), Ok(MAX_ADVANCE));
    }
}
