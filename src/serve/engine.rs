//! The served sandbox: one [`Session`] driven by real clients' requests, with the wall clock.
//!
//! Everything the server does to the engine is a script line run by the session, so the
//! server's log *is* a script: lines that change nothing (a watch read that found no frames)
//! are not written down, and consecutive clock steps are merged into one `advance` line. The
//! recorded script, replayed with `rvlab run`, reproduces what the clients saw. Upstream
//! counterpart: none (kube-apiserver has no such log); `rvlab run` is its reader.

use std::collections::{BTreeMap, VecDeque};

use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::mpsc;

mod hold;

pub use hold::Hold;

use super::network::{self, Network};
use super::record::Recorder;
use super::spool::{Backlog, Chunks, Spool};
use super::table::TableRequest;
use crate::clock::Duration;
use crate::script::Session;
use crate::script::line_error::LineError;

/// Frames for one open HTTP watch response (one JSON object per line).
pub type FrameSender = mpsc::Sender<Bytes>;

/// Capacity of each HTTP watch's frame queue (what the connection holds besides the socket's
/// send buffer). When a client stops draining it, the watch is paused and the watch cache's
/// per-watcher buffer takes over: its slow-consumer rule ends the watch.
pub const WATCH_QUEUE: usize = 64;

/// How much output (JSON text) the server keeps for `GET /rvlab/v1/script?output=jsonl`: the
/// outputs of the most recent lines, on disk ([`super::spool`]). Watches under load produce
/// megabytes a second of frames, so keeping every output would grow the disk without bound; the
/// lines themselves (the script) are all kept, and `--record` writes them to a file as they come.
pub const OUTPUT_BUDGET: u64 = super::spool::OUTPUT_BUDGET;

/// The wall clock as the simulation sees it: simulated time = base + elapsed × speed.
#[derive(Debug)]
pub struct WallClock {
    start: std::time::Instant,
    /// Simulated milliseconds at `start`, moved forward when a script line jumps ahead.
    base_ms: u64,
    speed: f64,
}

impl WallClock {
    pub fn new(speed: f64, base_ms: u64) -> Self {
        WallClock { start: std::time::Instant::now(), base_ms, speed }
    }

    fn target_ms(&self) -> u64 {
        let elapsed = self.start.elapsed().as_secs_f64() * 1000.0 * self.speed;
        self.base_ms.saturating_add(elapsed as u64)
    }
}

/// The line that makes object timestamps wall-clock times: `set clock.epoch <now>`, counted back
/// to simulated instant 0 (the clock then follows the wall, so `creationTimestamp` is when the
/// client's request arrived, to the second, at `--speed 1`).
pub fn epoch_line(wall: std::time::SystemTime) -> String {
    let secs = wall.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let secs = i64::try_from(secs).unwrap_or(crate::clock::DEFAULT_EPOCH);
    format!("set clock.epoch {}", crate::apiserver::object::rfc3339_utc(secs))
}

/// The serving record's second line: of the watches whose end their client was sent (or that
/// their client cancelled), the latest 100 are kept (for the live view's pictures) and older
/// ones forgotten, so the server's memory does not grow with the watches it has served;
/// recorded, so a replay forgets the same watches.
pub const FORGET_LINE: &str = "set keep-ended-watches 100";

/// The session plus what serving it needs: the clock, the record and the open streams.
pub struct Engine {
    session: Session,
    clock: WallClock,
    /// Number of the last recorded line (the record's and the live feed's line numbers).
    line_no: usize,
    /// Milliseconds the clock moved since the last recorded line, not yet written down.
    pending_advance_ms: u64,
    recorder: Option<Recorder>,
    /// Open HTTP watches by the session's watch id (`w1`, …).
    watches: BTreeMap<String, OpenWatch>,
    /// Live-view subscribers (server-sent events).
    live: Vec<mpsc::Sender<Bytes>>,
    /// Every recorded line, for `GET /rvlab/v1/script` and the live view's backlog, and the
    /// outputs of the most recent lines, within [`OUTPUT_BUDGET`] bytes: on disk, not in memory.
    spool: Spool,
    /// The network in front of the apiserver (not part of the session, never recorded).
    network: Network,
}

/// What running one line gave.
pub struct Ran {
    pub output: Value,
}

impl Engine {
    /// A new engine; `Err` when the log's files cannot be made.
    pub fn new(speed: f64, recorder: Option<Recorder>) -> Result<Self, String> {
        let session = Session::new();
        let base = session.now_ms();
        Ok(Engine {
            session,
            clock: WallClock::new(speed, base),
            line_no: 0,
            pending_advance_ms: 0,
            recorder,
            watches: BTreeMap::new(),
            live: Vec::new(),
            spool: Spool::create()?,
            network: Network::default(),
        })
    }

    pub fn network(&self) -> Network {
        self.network
    }

    pub fn set_network(&mut self, network: Network) {
        self.network = network;
    }

    /// Runs one line given by the operator (a script at start, stdin, the control endpoint): a
    /// serve-only `network …` line changes the network and is not recorded (it is not the
    /// apiserver's); any other line is [`run`](Self::run).
    pub fn run_operator_line(&mut self, line: &str) -> Value {
        match network::parse_line(line) {
            Some(Ok(l)) => self.network.apply(l),
            Some(Err(e)) => json!({"error": e}),
            None => self.run(line).output,
        }
    }

    /// The recorded script so far (each line ending in `\n`), read from its file as it is
    /// taken; `Err` when the log could not be written whole.
    pub fn script(&self) -> Result<Chunks, &str> {
        self.log_ok().map(|()| self.spool.script())
    }

    /// The outputs (JSON text, each ending in `\n`) of the most recent recorded lines, oldest
    /// first: all of them unless they outgrew [`OUTPUT_BUDGET`]. Each carries its line number
    /// (`"line"`).
    pub fn outputs(&self) -> Result<Chunks, &str> {
        self.log_ok().map(|()| self.spool.outputs())
    }

    fn log_ok(&self) -> Result<(), &str> {
        match self.spool.failed() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The recorded script so far, one line each (read back whole: for tests and small logs).
    pub fn lines(&self) -> Vec<String> {
        self.spool.script().into_lines()
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Records the serving record's first lines, `set clock.epoch <wall>` and
    /// [`FORGET_LINE`], and starts the wall clock from them: however long start-up took, no
    /// `advance` comes before them.
    pub fn begin(&mut self, wall: std::time::SystemTime) -> Value {
        let output = self.run_recorded(&epoch_line(wall));
        if output.get("error").is_some() {
            return output;
        }
        let forget = self.run_recorded(FORGET_LINE);
        if forget.get("error").is_some() {
            return forget;
        }
        self.clock = WallClock::new(self.clock.speed, self.session.now_ms());
        self.pending_advance_ms = 0;
        output
    }

    /// Runs one line and records it (with the clock step before it). A line that cannot be
    /// parsed is answered with the parser's message and not recorded, so the record always
    /// replays with `rvlab run` exiting 0.
    pub fn run(&mut self, line: &str) -> Ran {
        if let Err(e) = crate::script::parse::parse_line(line.trim()) {
            return Ran { output: e.output() };
        }
        self.sync_clock();
        self.flush_advance();
        let output = self.run_recorded(line);
        Ran { output }
    }

    fn run_recorded(&mut self, line: &str) -> Value {
        self.line_no += 1;
        let output = self
            .session
            .run_line(self.line_no, line)
            .unwrap_or_else(|| json!({"line": self.line_no, "comment": line}));
        self.write_down(line, &output);
        // A line may have moved the clock ahead of the wall (`advance 1h`): time goes on from there.
        self.rebase_if_ahead();
        output
    }

    fn write_down(&mut self, line: &str, output: &Value) {
        self.spool.push(line, &output.to_string());
        if let Some(r) = &mut self.recorder {
            r.line(line);
        }
        if !self.live.is_empty() {
            let event = json!({"text": line, "output": output});
            let frame = Bytes::from(format!("data: {event}\n\n"));
            // A subscriber that fell a whole queue behind is dropped rather than sent a log with a
            // hole in it; the page reconnects and gets the backlog.
            self.live.retain(|tx| tx.try_send(frame.clone()).is_ok());
        }
    }

    /// Moves simulated time up to the wall clock (not recorded yet: merged into the next
    /// recorded line's `advance`).
    pub fn sync_clock(&mut self) {
        let now = self.session.now_ms();
        let target = self.clock.target_ms();
        if target <= now {
            self.rebase_if_ahead();
            return;
        }
        // At most what one line may advance (168h, less with short timers: `script::budget`).
        let step = (target - now).min(self.session.max_advance().0);
        let line = format!("advance {}", Duration(step));
        let _ = self.session.run_line(self.line_no + 1, &line);
        self.pending_advance_ms += step;
    }

    fn rebase_if_ahead(&mut self) {
        let now = self.session.now_ms();
        let target = self.clock.target_ms();
        if now > target {
            self.clock.base_ms += now - target;
        }
    }

    fn flush_advance(&mut self) {
        // One line per at most what one `advance` may take (the timers have not changed since
        // the clock moved: settings change only through recorded lines).
        let max = self.session.max_advance().0.max(1);
        while self.pending_advance_ms > 0 {
            let step = self.pending_advance_ms.min(max);
            self.pending_advance_ms -= step;
            let line = format!("advance {}", Duration(step));
            self.line_no += 1;
            let now = self.session.now_ms() - self.pending_advance_ms;
            let output = json!({"line": self.line_no, "now": Duration(now).to_string()});
            self.write_down(&line, &output);
        }
    }

    /// Opens the HTTP side of watch `id`: frames are sent to `tx` until the watch ends.
    pub fn attach_watch(&mut self, id: String, tx: FrameSender, table: Option<TableRequest>) {
        let w =
            OpenWatch { tx, table, pending: VecDeque::new(), paused: false, was_full: false, ended: false };
        self.watches.insert(id, w);
        self.pump_watches();
    }

    /// A new live-view subscriber gets the log so far as one `{"backlog":[lines…]}` event
    /// (returned, read from the log's file as the subscriber takes it), then every new line as
    /// `{"text":…,"output":…}` on `tx` (queued meanwhile).
    pub fn subscribe_live(&mut self, tx: mpsc::Sender<Bytes>) -> Backlog {
        self.live.push(tx);
        Backlog::of(self.spool.script())
    }

    /// Lets time pass to the wall clock and delivers every watch's new frames.
    pub fn tick(&mut self) {
        self.sync_clock();
        self.pump_watches();
    }

    /// Moves every open watch's frames towards its client. A read that found frames (or the
    /// end) is recorded as `events wN`. A watch is read only while its HTTP queue has room;
    /// when the queue stays full from one pump to the next with nothing taken, the client has
    /// stopped reading: the watch is paused (`pause wN`), so the watch cache's own per-watcher
    /// buffer fills and the cacher's slow-consumer rule ends it, as kube-apiserver's does when
    /// the handler cannot write; it is resumed (`resume wN`) once the client has read half of
    /// its queue. No frame read from the session is dropped.
    pub fn pump_watches(&mut self) {
        let ids: Vec<String> = self.watches.keys().cloned().collect();
        for id in ids {
            let Some(w) = self.watches.get_mut(&id) else { continue };
            if !w.ended && !self.session.knows_watch(&id) {
                // A line of the operator's ended it and it was forgotten (`cancel wN`): the
                // response ends with what was queued; no line names it again.
                w.ended = true;
            }
            if w.tx.is_closed() {
                // The client went away: the server stops the watch, as the handler does when
                // the request context is cancelled.
                let ended = w.ended;
                self.watches.remove(&id);
                if !ended {
                    self.flush_advance();
                    self.run_recorded(&format!("cancel {id}"));
                }
                continue;
            }
            let flushed = w.flush();
            if w.ended {
                if w.pending.is_empty() {
                    // Dropping the sender ends the response once the queue is written.
                    self.watches.remove(&id);
                }
                continue;
            }
            let full = w.tx.capacity() == 0;
            // Full now and at the last pump, and the client took nothing since: it has stopped
            // reading (a burst that a reading client works through is not a stall).
            let stalled = full && flushed == 0 && w.was_full;
            w.was_full = full;
            let draining = w.pending.is_empty() && w.tx.capacity() * 2 >= WATCH_QUEUE;
            let wait = full || !w.pending.is_empty();
            if w.paused && draining {
                w.paused = false;
                self.flush_advance();
                self.run_recorded(&format!("resume {id}"));
            } else if !w.paused && stalled {
                w.paused = true;
                self.flush_advance();
                self.run_recorded(&format!("pause {id}"));
                continue;
            } else if w.paused || wait {
                continue;
            }
            self.read_watch(&id);
        }
    }

    /// Runs `events id` and queues what it returned.
    fn read_watch(&mut self, id: &str) {
        if !self.session.knows_watch(id) {
            // A line of the operator's ended and forgot it (`cancel wN`): the response ends,
            // nothing is read.
            if let Some(w) = self.watches.get_mut(id) {
                w.ended = true;
                if w.pending.is_empty() {
                    self.watches.remove(id);
                }
            }
            return;
        }
        let line = format!("events {id}");
        let Some(out) = self.session.run_line(self.line_no + 1, &line) else { return };
        let events = out.get("events").and_then(Value::as_array).cloned().unwrap_or_default();
        let closed = out.get("closed").and_then(Value::as_bool).unwrap_or(true);
        if events.is_empty() && !closed {
            return;
        }
        self.flush_advance();
        self.line_no += 1;
        let mut out = out;
        out["line"] = json!(self.line_no);
        self.write_down(&line, &out);
        let now = self.session.unix_now_secs();
        let Some(w) = self.watches.get_mut(id) else { return };
        for e in &events {
            let mut frame = wire_frame(e);
            if let Some(req) = &mut w.table {
                frame = super::table::watch_frame(&frame, *req, now);
                // The column definitions go with the first frame only.
                req.no_headers = true;
            }
            w.pending.push_back(Bytes::from(format!("{frame}\n")));
        }
        w.ended = closed;
        w.flush();
        w.was_full = w.tx.capacity() == 0;
        if w.ended && w.pending.is_empty() {
            self.watches.remove(id);
        }
    }

    /// Whether any HTTP watch is open (the ticker runs faster then).
    pub fn has_watches(&self) -> bool {
        !self.watches.is_empty()
    }
}

/// The HTTP side of one open watch.
struct OpenWatch {
    tx: FrameSender,
    /// Whether the client asked for Tables (`as=Table`), and whether it has had the columns.
    table: Option<TableRequest>,
    /// Frames read from the session that the HTTP queue had no room for yet, in order.
    pending: VecDeque<Bytes>,
    /// Whether the server paused the watch because its client stopped draining.
    paused: bool,
    /// Whether the queue was full at the last pump.
    was_full: bool,
    /// The session's stream has ended: the response ends once `pending` is written.
    ended: bool,
}

impl OpenWatch {
    /// Moves pending frames into the HTTP queue while it has room; returns how many.
    fn flush(&mut self) -> usize {
        let mut n = 0;
        while let Some(f) = self.pending.front() {
            if self.tx.try_send(f.clone()).is_err() {
                break;
            }
            self.pending.pop_front();
            n += 1;
        }
        n
    }
}

/// The frame a client receives for one event of the script's `events` output: exactly
/// `metav1.WatchEvent`'s `{"type","object"}` (apimachinery `pkg/apis/meta/v1/watch.go`); what the
/// script adds for its readers (`at`, the time the server sent it) stays in the record.
fn wire_frame(event: &Value) -> Value {
    json!({"type": event.get("type").cloned().unwrap_or(Value::Null),
           "object": event.get("object").cloned().unwrap_or(Value::Null)})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opens a configmap watch and attaches a client queue to it: its id and the queue.
    fn watched(e: &mut Engine, table: Option<TableRequest>) -> (String, mpsc::Receiver<Bytes>) {
        let out = e.run("GET /api/v1/namespaces/default/configmaps?watch=true").output;
        let id = out["watch"].as_str().unwrap().to_string();
        let (tx, rx) = mpsc::channel(WATCH_QUEUE);
        e.attach_watch(id.clone(), tx, table);
        (id, rx)
    }

    #[test]
    fn clock_steps_merge_into_one_advance_and_parse_errors_are_not_recorded() {
        let mut e = Engine::new(1000.0, None).unwrap();
        assert!(e.run("bogus line").output["error"].as_str().is_some_and(|m| m.contains("unknown command")));
        assert!(e.lines().is_empty(), "a line that does not parse is not part of the script");
        for _ in 0..3 {
            std::thread::sleep(std::time::Duration::from_millis(5));
            e.tick();
        }
        let out = e.run("GET /api/v1/namespaces/default/configmaps").output;
        assert_eq!(out["code"], 200);
        let lines = e.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("advance "), "{lines:?}");
        assert_eq!(lines[1], "GET /api/v1/namespaces/default/configmaps");
        // The merged step is exactly the simulated time that passed.
        let step = crate::clock::Duration::parse(&lines[0]["advance ".len()..]).unwrap();
        assert_eq!(step.0, e.session().now_ms());
        assert_eq!(out["line"], 2);
    }

    #[test]
    fn clients_get_watch_events_as_the_apiserver_sends_them() {
        let mut e = Engine::new(1.0, None).unwrap();
        let (id, mut rx) = watched(&mut e, None);
        e.run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#);
        e.run("advance 5s");
        e.pump_watches();
        let line = e.lines().last().cloned().unwrap();
        let out: Value = serde_json::from_str(e.outputs().unwrap().into_lines().last().unwrap()).unwrap();
        assert_eq!(line, format!("events {id}"));
        let recorded = &out["events"][0];
        assert_eq!(recorded["type"], "ADDED");
        assert!(recorded.get("at").is_some(), "the record says when the frame was sent: {recorded}");
        let frame: Value = serde_json::from_slice(&rx.try_recv().unwrap()).unwrap();
        assert_eq!(frame, json!({"type": "ADDED", "object": recorded["object"]}));
    }

    #[test]
    fn table_watches_send_the_column_definitions_once() {
        use super::super::table::{IncludeObject, TableVersion};
        let mut e = Engine::new(1.0, None).unwrap();
        let req =
            TableRequest { version: TableVersion::V1, include: IncludeObject::Metadata, no_headers: false };
        let (_, mut rx) = watched(&mut e, Some(req));
        for name in ["a", "b", "c"] {
            e.run(&format!(
                r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"{name}"}}}}"#
            ));
            if name == "b" {
                e.run("advance 5s");
                e.pump_watches();
            }
        }
        e.run("advance 5s");
        e.pump_watches();
        let frames: Vec<Value> =
            std::iter::from_fn(|| rx.try_recv().ok()).map(|b| serde_json::from_slice(&b).unwrap()).collect();
        let names: Vec<&str> =
            frames.iter().map(|f| f["object"]["rows"][0]["cells"][0].as_str().unwrap()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert!(frames[0]["object"]["columnDefinitions"].is_array());
        assert_eq!(frames[1]["object"]["columnDefinitions"], Value::Null);
        assert_eq!(frames[2]["object"]["columnDefinitions"], Value::Null);
    }

    #[test]
    fn a_watch_whose_client_does_not_drain_is_paused_and_loses_no_frame() {
        let mut e = Engine::new(1.0, None).unwrap();
        let (id, mut rx) = watched(&mut e, None);
        let n = WATCH_QUEUE + 20;
        for i in 0..n {
            e.run(&format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"c{i}"}}}}"#));
        }
        e.pump_watches();
        assert_eq!(e.lines().last().unwrap(), &format!("events {id}"));
        // Still full at the next pump, nothing taken: the watch is paused, not read, not cut.
        e.pump_watches();
        assert_eq!(e.lines().last().unwrap(), &format!("pause {id}"));
        let mut names = Vec::new();
        let mut drain = |rx: &mut mpsc::Receiver<Bytes>| {
            while let Ok(f) = rx.try_recv() {
                let v: Value = serde_json::from_slice(&f).unwrap();
                names.push(v["object"]["metadata"]["name"].as_str().unwrap().to_string());
            }
        };
        drain(&mut rx);
        e.pump_watches();
        assert!(e.lines().contains(&format!("resume {id}")), "{:?}", e.lines());
        drain(&mut rx);
        let expected: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
        assert_eq!(names, expected, "every frame, in order");
    }

    #[test]
    fn network_lines_change_the_network_and_are_not_recorded() {
        let mut e = Engine::new(1.0, None).unwrap();
        let out = e.run_operator_line("network watch-delay 2s");
        assert_eq!(out, json!({"network": {"watch-delay": "2s"}}));
        assert_eq!(e.network().watch_delay, Duration(2000));
        assert!(e.run_operator_line("network bogus").get("error").is_some());
        assert_eq!(e.network().watch_delay, Duration(2000), "a bad line changes nothing");
        assert!(e.lines().is_empty(), "the network is not part of the recorded script");
        assert_eq!(e.run_operator_line("set cache.lag 1s")["set"], "cache.lag");
        // A real-time engine may record the milliseconds that passed first (`advance 1ms`).
        assert_eq!(e.lines().last().map(String::as_str), Some("set cache.lag 1s"));
        assert!(e.lines().iter().rev().skip(1).all(|l| l.starts_with("advance ")), "{:?}", e.lines());
    }

    #[test]
    fn served_timestamps_are_wall_clock_times() {
        let mut e = Engine::new(1.0, None).unwrap();
        let wall = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        assert_eq!(epoch_line(wall), "set clock.epoch 2027-01-15T08:00:00Z");
        std::thread::sleep(std::time::Duration::from_millis(15));
        assert_eq!(e.begin(wall)["set"], "clock.epoch");
        let out = e.run(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"}}"#).output;
        let created = out["body"]["metadata"]["creationTimestamp"].as_str().unwrap().to_string();
        let secs = crate::apiserver::object::parse_rfc3339_utc(&created).unwrap();
        assert!((1_800_000_000..1_800_000_005).contains(&secs), "{created}");
        // First, however long start-up took: the record replays with the same timestamps.
        assert_eq!(e.lines()[0], "set clock.epoch 2027-01-15T08:00:00Z", "recorded, so replays match");
    }

    #[test]
    fn a_live_subscriber_gets_the_backlog_then_every_later_line_once() {
        let mut e = Engine::new(1.0, None).unwrap();
        e.run_operator_line("set cache.lag 1s");
        let (tx, mut rx) = mpsc::channel(16);
        let backlog = e.subscribe_live(tx);
        // A line recorded while the backlog is still being read goes to the feed, not into it.
        e.run_operator_line("set cache.lag 2s");
        let text: String = backlog.map(|b| String::from_utf8(b.to_vec()).unwrap()).collect();
        let event: Value = serde_json::from_str(text.strip_prefix("data: ").unwrap().trim_end()).unwrap();
        let before = e.lines()[..e.lines().len() - 1].to_vec();
        assert_eq!(event, json!({"backlog": before}));
        assert_eq!(before.last().map(String::as_str), Some("set cache.lag 1s"));
        let mut fed = Vec::new();
        while let Ok(f) = rx.try_recv() {
            let v: Value =
                serde_json::from_str(String::from_utf8(f.to_vec()).unwrap()["data: ".len()..].trim_end())
                    .unwrap();
            fed.push(v["text"].as_str().unwrap().to_string());
        }
        assert_eq!(fed.last().map(String::as_str), Some("set cache.lag 2s"));
        assert_eq!([before, fed].concat(), e.lines(), "every line once, in order");
    }

    /// The server keeps the latest ended watches only (`set keep-ended-watches 100`, its
    /// second line); a line naming a forgotten one is refused the same live and in replay.
    #[test]
    fn ended_watches_are_forgotten_alike_live_and_in_replay() {
        let mut e = Engine::new(1.0, None).unwrap();
        let wall = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000);
        e.begin(wall);
        assert_eq!(e.lines()[1], FORGET_LINE);
        let mut ids = Vec::new();
        for i in 0..105 {
            let (id, rx) = watched(&mut e, None);
            e.run(&format!(r#"POST /api/v1/namespaces/default/configmaps {{"metadata":{{"name":"c{i}"}}}}"#));
            e.pump_watches();
            // The client hangs up: `cancel wN`, and the watch has ended for it.
            drop(rx);
            e.pump_watches();
            ids.push(id);
        }
        assert!(e.lines().contains(&format!("cancel {}", ids[0])), "{:?}", &e.lines()[..8]);
        assert!(!e.has_watches());
        assert_eq!(e.session().kept_watches(), (100, 100), "the latest 100 ended watches are kept");
        // The operator names a forgotten watch and a kept one.
        let gone = e.run_operator_line(&format!("events {}", ids[0]));
        assert_eq!(gone["refused"], json!({"kind": "watch-gone", "watch": ids[0]}), "{gone}");
        let kept = e.run_operator_line(&format!("events {}", ids[104]));
        assert_eq!(kept["closed"], true, "{kept}");
        // `rvlab run` of the record prints what the server answered, line for line.
        let live: Vec<Value> =
            e.outputs().unwrap().into_lines().iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let mut replay = Session::new();
        let again: Vec<Value> =
            e.lines().iter().enumerate().filter_map(|(i, l)| replay.run_line(i + 1, l)).collect();
        assert_eq!(live.len(), again.len());
        for (a, b) in live.iter().zip(&again) {
            assert_eq!(a, b);
        }
        assert_eq!(replay.kept_watches(), e.session().kept_watches());
    }

    #[test]
    fn a_line_that_jumps_ahead_moves_the_wall_clock_base() {
        let mut e = Engine::new(1.0, None).unwrap();
        e.run("advance 1h");
        let now = e.session().now_ms();
        e.tick();
        assert!(e.session().now_ms() >= now && e.session().now_ms() < now + 60_000);
    }
}
