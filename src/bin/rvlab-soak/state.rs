//! What the run shares between its tasks: what the writers were answered, what each watch
//! stream delivered, the faults injected and when, and the failures found on the way.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Instant;

use serde_json::Value;

/// A change a writer made, as its answer told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    pub ty: &'static str,
    pub name: String,
}

/// A delete: its revision is not in the answer (a configmap delete answers with a Status),
/// only that it lies after `after` and before the writer's next write.
#[derive(Debug, Clone)]
pub struct Delete {
    pub name: String,
    pub after: i64,
    pub before: Option<i64>,
    pub seen_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// The server closed the stream (at its timeoutSeconds, or earlier: see [`Segment`]).
    Closed,
    /// An ERROR frame (or a non-200 answer) with this Status.
    Error(Value),
    /// The run ended, or the fault injector dropped the connection.
    ClientStopped,
    /// The connection failed.
    Broken(String),
}

#[derive(Debug)]
pub struct Segment {
    pub slot: usize,
    pub slow: bool,
    pub start_rv: i64,
    pub timeout: u64,
    pub opened: Instant,
    pub ended: Instant,
    pub events: Vec<(i64, String, String)>,
    pub end: End,
    /// How far behind the writers the stream was when it ended: the newest write answered then,
    /// less the last event it delivered.
    pub behind: i64,
}

/// A fault that ends watches from the server's side, and when it ran (before the control
/// request was sent, after its answer came back).
#[derive(Debug, Clone, Copy)]
pub struct Disruption {
    pub sent: Instant,
    pub answered: Instant,
    pub kind: DisruptionKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisruptionKind {
    /// `restart apiserver 1` ends every watch of the apiserver.
    Restart,
    /// `drop wN` ends one watch.
    Drop,
    /// `compact N`: a watch cache whose own etcd watch it passes (the lagging apiserver's)
    /// relists and ends every watcher cleanly (`Cacher.relist`, kube-apiserver's
    /// `terminateAllWatchers`).
    Compaction,
}

#[derive(Default)]
pub struct State {
    /// When the load started.
    pub started: Option<Instant>,
    pub writes: BTreeMap<i64, Write>,
    pub deletes: Vec<Delete>,
    /// Each writer's key, as its last answer left it: the resourceVersion, or `None` once deleted.
    pub expected: BTreeMap<String, Option<i64>>,
    pub segments: Vec<Segment>,
    pub failures: Vec<String>,
    pub requests: u64,
    pub watches_opened: u64,
    pub open_now: u64,
    pub open_peak: u64,
    pub frames: u64,
    pub compactions: u64,
    pub dropped_mid_stream: u64,
    pub half_open: u64,
    pub stale_watches: u64,
    pub slow_cutoffs: u64,
    /// Streams that ended at their timeoutSeconds of simulated time, sooner in wall time.
    pub closed_by_clock_ahead: u64,
    /// Streams of the lagging apiserver ended when its watch cache relisted after a compaction.
    pub closed_by_cache_relist: u64,
    /// Streams of normal readers the server ended as slow consumers (its log says
    /// `slow-consumer`): the client fell behind a burst on a loaded machine.
    pub normal_cutoffs: u64,
    /// Why the server ended each raw watch, from its log (`ends::server_ends`); `None` when
    /// the log could not be read.
    pub server_ends: Option<Vec<crate::ends::ServerEnd>>,
    pub expired: u64,
    /// 429 (a watch cache initialising after a restart) and 504 `Too large resource version`
    /// (a lagging apiserver) answers to watches, retried from the same resourceVersion.
    pub retried: u64,
    pub disruptions: Vec<Disruption>,
    /// When new connections went to the lagging apiserver: from the control request that sent
    /// them there to the answer of the one that sent them back.
    pub lag_phases: Vec<(Instant, Option<Instant>)>,
    /// The server's simulated clock, sampled: (wall instant, simulated milliseconds).
    pub clock: Vec<(Instant, u64)>,
    pub server_drops: u64,
    pub restarts: u64,
    pub lagging_phases: u64,
    pub watch_delay_phases: u64,
    pub hostile: BTreeMap<&'static str, u64>,
    /// Latency of the sampled simple GET, in microseconds; and the samples not answered.
    pub latencies_us: Vec<u64>,
    pub unanswered: u64,
    pub writers_done: usize,
    /// The newest revision a writer was answered with, once all writers have stopped.
    pub final_rv: Option<i64>,
    pub newest_rv: i64,
}

pub type Shared = Rc<RefCell<State>>;

pub fn fail(st: &Shared, msg: String) {
    let mut s = st.borrow_mut();
    if s.failures.len() < 50 {
        s.failures.push(msg);
    }
}
