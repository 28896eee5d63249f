//! A playground session: one simulated [`Cluster`] plus what a script keeps between lines (open
//! watch streams by id, the apiserver requests go to, the previous output for `expect`).
//! `rvlab run`, `rvlab test` and the browser console all drive the engine through this type and
//! get the same JSON output objects (the JSON Lines contract, `site/src/reference/output.md`).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

pub use super::checkpoints::Checkpoints;
use super::extra::Extra;
use super::outcome::{LineFailure, LineOutcome};
use super::parse::{Command, EtcdCommand, InformerCommand, Method, parse_line};
use super::refusal::Refusal;
use super::reply::{ApiReply, EtcdReply, EventFacts, EventsReply, Reply};
use super::view::{
    self, ApiserverView, CacheWindow, InformerView, ReadFrames, RevisionLane, View, WatchLines, WatchView,
};
use super::why::{self, Lang, OutputWhy};
use crate::apiserver::decision::{EtcdOp, EtcdWhy};
use crate::client::informer::{Informer, InformerMode, InformerReport};
use crate::client::trace::LogEntry;
use crate::cluster::{Cluster, Setting, SettingName, SettingWhy, WatchHandle};

/// One sandbox. Feed it lines; each non-blank, non-comment line yields one output object.
#[derive(Debug, Default, Clone)]
pub struct Session {
    cluster: Cluster,
    /// Open watches by script id (`w1`, `w2`, …).
    watches: BTreeMap<String, WatchHandle>,
    /// Watches whose connection the script dropped (`drop wN`): their client reads nothing more.
    dropped: std::collections::BTreeSet<String>,
    /// A pager the script stopped between pages (`pager list … pages=<n>`).
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    pager: super::clients::OpenPager,
    watch_seq: usize,
    /// 0-based index of the apiserver that requests go to.
    current_apiserver: usize,
    /// Adds `"explain"` and `"why"` to request outputs and ended watch streams.
    explain: bool,
    /// `set keep-ended-watches <n>`: how many ended watches (whose end an `events` line read,
    /// or that a `cancel` line ended) are kept before the oldest is forgotten; `None`: all of
    /// them (`rvlab serve` keeps 100).
    keep_ended: Option<usize>,
    /// The ended watches kept while `keep_ended` is a number, the oldest end first.
    ended: std::collections::VecDeque<String>,
    /// The last output that was not an `expect` (what `expect` lines assert on).
    previous: Option<Value>,
    /// Lines that could not be parsed so far.
    parse_errors: usize,
    /// `expect` results so far.
    expect_passed: usize,
    expect_failed: usize,
    /// Running informers by name; they act after every line and as time passes.
    informers: BTreeMap<String, Informer>,
    /// What the read model keeps of each watch (by script id) and informer (by name).
    watch_records: BTreeMap<String, WatchRecord>,
    informer_records: BTreeMap<String, (String, usize)>,
    /// The line being run (1-based).
    line: usize,
    /// The answer of the line being run, as typed facts, and its decision when the output
    /// carries it: set where the output is written, taken when the line is done.
    reply: Reply,
    why: Option<OutputWhy>,
    /// The client decisions of the line being run (an informer's, a pager's), when its output
    /// carries them.
    client_log: Option<Vec<LogEntry>>,
}

/// What the session remembers of a watch it opened, for [`Session::view`].
#[derive(Debug, Clone)]
struct WatchRecord {
    line: usize,
    resource: &'static str,
    requested_rv: Option<i64>,
    read: ReadFrames,
    script: WatchLines,
}

/// The outcome counters of a session, for `rvlab run`'s exit status and `rvlab test`'s summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub parse_errors: usize,
    pub expect_passed: usize,
    pub expect_failed: usize,
}

impl Session {
    pub fn new() -> Self {
        Session::default()
    }

    /// A session whose request outputs carry the engine's `"explain"`.
    pub fn with_explain(explain: bool) -> Self {
        Session { explain, ..Session::default() }
    }

    /// Whether request outputs carry `"explain"` and `"why"` (`set explain on|off`).
    pub fn explains(&self) -> bool {
        self.explain
    }

    /// Every watch the script opened, in the order opened: what the watches panel and the
    /// timeline both draw.
    pub fn watches(&self) -> Vec<WatchView> {
        let c = &self.cluster;
        let mut watches: Vec<WatchView> = self
            .watches
            .iter()
            .filter_map(|(id, h)| {
                let r = self.watch_records.get(id)?;
                Some(
                    WatchView {
                        id: id.clone(),
                        line: r.line,
                        apiserver: h.apiserver + 1,
                        resource: r.resource,
                        requested_rv: r.requested_rv,
                        read: r.read.clone(),
                        stream: c.watch_view(*h),
                        ended: c.watch_close_reason(*h),
                        script: r.script.clone(),
                        start: None,
                        end: None,
                    }
                    .settle(c.etcd().current_revision()),
                )
            })
            .collect::<Vec<_>>();
        // w2 before w10.
        watches.sort_by_key(|w| (w.line, w.id.len(), w.id.clone()));
        watches
    }

    /// The read model: everything a picture of the sandbox shows, at this moment.
    pub fn view(&self) -> View {
        let c = &self.cluster;
        let apiservers = (0..c.apiserver_count())
            .filter_map(|i| c.apiserver(i).map(|s| (i, s)))
            .map(|(i, s)| ApiserverView {
                number: i + 1,
                watch_cache: s.config.watch_cache,
                caches: s
                    .cache_views(c.now(), c.etcd().current_revision())
                    .into_iter()
                    .map(CacheWindow::of)
                    .collect(),
                next_compaction_ms: view::next_compaction_ms(s.compactor.next_due()),
            })
            .collect();
        let watches = self.watches();
        let informers = self
            .informers
            .iter()
            .map(|(name, inf)| {
                let (resource, _) = self.informer_records.get(name).cloned().unwrap_or_default();
                InformerView {
                    name: name.clone(),
                    resource,
                    // Behind a load balancer this is the apiserver of the current connection.
                    apiserver: inf.apiserver() + 1,
                    last_sync_rv: inf.last_sync_rv().to_string(),
                    last_sync_revision: inf.last_sync_rv().trim().parse::<i64>().ok(),
                    state: inf.state(),
                    watch: inf.watch_handle().and_then(|h| c.watch_view(h)),
                }
            })
            .collect();
        View {
            now_ms: c.now().0,
            revision: c.etcd().current_revision(),
            compacted: c.etcd().compact_revision(),
            compactions: view::compaction_rounds(c.compactions()),
            apiservers,
            current_apiserver: self.current_apiserver + 1,
            watches,
            informers,
        }
    }

    /// The settings in effect (cluster-wide and per apiserver), as `set` lines write them.
    pub fn settings(&self) -> view::SettingsView {
        view::SettingsView::of(&self.cluster, self.current_apiserver)
    }

    /// The apiserver new requests go to (1-based).
    pub fn current_apiserver(&self) -> usize {
        self.current_apiserver + 1
    }

    /// etcd's current revision.
    pub fn revision(&self) -> i64 {
        self.cluster.etcd().current_revision()
    }

    /// Simulated time, in milliseconds since the sandbox started.
    pub fn now_ms(&self) -> u64 {
        self.cluster.now().0
    }

    /// Unix seconds of the simulated now (the clock's epoch plus simulated time): what ages are
    /// measured against.
    pub fn unix_now_secs(&self) -> i64 {
        self.cluster.clock().unix_secs()
    }

    /// The Kubernetes minor release the sandbox models (`set kubernetes 1.N`), e.g. 36.
    /// The feature gates of the apiserver request lines go to (`apiserver N`).
    pub fn current_features(&self) -> crate::apiserver::features::Features {
        self.cluster.apiserver(self.current_apiserver).map(|s| s.config.features).unwrap_or_default()
    }

    pub fn kubernetes_minor(&self) -> u32 {
        self.cluster
            .apiserver(0)
            .map_or(crate::apiserver::features::DEFAULT_MINOR, |s| s.config.features.minor)
    }

    /// Every watch cache window (each apiserver, each resource), without the rest of [`View`].
    pub fn cache_windows(&self) -> Vec<CacheWindow> {
        self.cluster.cache_views().into_iter().map(CacheWindow::of).collect()
    }

    /// Every key's revision lane (every revision etcd still stores), in key order.
    pub fn revision_lanes(&self) -> impl Iterator<Item = RevisionLane> + '_ {
        view::revision_lanes(self.cluster.etcd())
    }

    /// The names of the `resource` objects in `namespace` that exist now.
    pub fn object_names(&self, resource: &str, namespace: &str) -> Vec<String> {
        view::object_names(self.cluster.etcd(), resource, namespace)
    }

    pub fn tally(&self) -> Tally {
        Tally {
            parse_errors: self.parse_errors,
            expect_passed: self.expect_passed,
            expect_failed: self.expect_failed,
        }
    }

    /// Runs one line (1-based `line_no` goes into the output's `"line"`). Returns `None` for
    /// blank lines and `#` comments.
    pub fn run_line(&mut self, line_no: usize, text: &str) -> Option<Value> {
        self.run_line_outcome(line_no, text).map(|o| o.out)
    }

    /// [`Session::run_line`], with the typed reason when the line did not run.
    pub fn run_line_outcome(&mut self, line_no: usize, text: &str) -> Option<LineOutcome> {
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            return None;
        }
        let mut failure = None;
        let mut command = None;
        // The console embed's module knows a line of the language's extras by its first word.
        let parsed = match Extra::of_first_word(t).filter(|_| !Extra::ALL_COMPILED) {
            Some(part) => Ok(Err(part)),
            None => parse_line(t).map(Ok),
        };
        let mut out = match parsed {
            Ok(Err(part)) => {
                let f = LineFailure::Refused(Refusal::NotInModule { part });
                let out = f.output();
                failure = Some(f);
                out
            }
            Err(e) => {
                self.parse_errors += 1;
                let f = LineFailure::Syntax(e);
                let out = f.output();
                failure = Some(f);
                out
            }
            Ok(Ok(cmd)) if let Some(part) = Extra::missing(&cmd) => {
                let f = LineFailure::Refused(Refusal::NotInModule { part });
                let out = f.output();
                failure = Some(f);
                command = Some(cmd);
                out
            }
            #[cfg(feature = "sandbox")]
            Ok(Ok(Command::Expect(exp))) => {
                let parsed = Some(Command::Expect(exp.clone()));
                let known = &self.informers;
                let explain = self.explain;
                // The decision log (rendered, and typed when explaining) is most of an informer's
                // report; only an expectation about it reads it.
                let log = exp.reads_informer_log();
                let informers = |name: &str| -> Option<Value> {
                    known.get(name).map(|i| super::why::informer::report_json_of(&i.peek(), explain, log))
                };
                let mut o = json!({"expect": exp.to_string()});
                match exp.check(self.previous.as_ref(), &informers) {
                    Ok(()) => {
                        self.expect_passed += 1;
                        o["ok"] = Value::Bool(true);
                    }
                    Err(f) => {
                        self.expect_failed += 1;
                        o["ok"] = Value::Bool(false);
                        o["expected"] = Value::String(f.expected);
                        o["seen"] = Value::String(f.seen);
                    }
                }
                let mut m = Map::new();
                m.insert("line".into(), json!(line_no));
                if let Value::Object(rest) = o {
                    m.extend(rest);
                }
                return Some(LineOutcome {
                    out: Value::Object(m),
                    failure: None,
                    command: parsed,
                    why: None,
                    reply: Reply::Other,
                    client_log: None,
                });
            }
            Ok(Ok(cmd)) => {
                self.line = line_no;
                command = Some(cmd.clone());
                self.reply = Reply::Other;
                self.why = None;
                self.client_log = None;
                let out = self.execute(cmd);
                self.poll_informers();
                out.unwrap_or_else(|r| {
                    let f = LineFailure::Refused(r);
                    let out = f.output();
                    failure = Some(f);
                    out
                })
            }
        };
        let (reply, why, client_log) = match failure {
            Some(_) => (Reply::Other, None, None),
            None => (std::mem::take(&mut self.reply), self.why.take(), self.client_log.take()),
        };
        // "line" first, then the command's fields.
        let mut m = Map::new();
        m.insert("line".into(), json!(line_no));
        if let Value::Object(rest) = out.take() {
            m.extend(rest);
        }
        let out = Value::Object(m);
        self.previous = Some(out.clone());
        Some(LineOutcome { out, failure, command, why, reply, client_log })
    }

    /// Runs a whole script, numbering lines from 1.
    pub fn run_script(&mut self, text: &str) -> Vec<Value> {
        text.lines().enumerate().filter_map(|(i, l)| self.run_line(i + 1, l)).collect()
    }

    /// Sends one API request to the current apiserver; its output object (a watch gets its id).
    /// Its reply and decision are the line's.
    fn request(
        &mut self,
        method: &str,
        content_type: Option<&str>,
        target: &str,
        body: Option<&str>,
    ) -> Map<String, Value> {
        let (resp, handle) =
            self.cluster.request_typed(self.current_apiserver, method, target, content_type, body);
        let mut m = Map::new();
        m.insert("code".into(), json!(resp.code));
        let continued = target.split_once('?').and_then(|(_, q)| {
            crate::apiserver::request::Query::parse(q).first("continue").map(str::to_string)
        });
        let mut watch = None;
        if let Some(h) = handle {
            self.watch_seq += 1;
            let id = format!("w{}", self.watch_seq);
            self.watches.insert(id.clone(), h);
            let req = crate::apiserver::request::parse_request(method, target, None).ok();
            self.watch_records.insert(
                id.clone(),
                WatchRecord {
                    line: self.line,
                    resource: self
                        .cluster
                        .watch_view(h)
                        .map(|v| v.resource)
                        .or(req.as_ref().map(|r| r.resource.resource))
                        .unwrap_or_default(),
                    requested_rv: req
                        .and_then(|r| r.options.resource_version)
                        .and_then(|rv| rv.parse::<i64>().ok()),
                    read: ReadFrames::default(),
                    script: WatchLines::default(),
                },
            );
            watch = Some(id.clone());
            m.insert("watch".into(), Value::String(id));
        } else {
            m.insert("body".into(), resp.body);
        }
        let mut reply = ApiReply::of(resp.code, m.get("body"), watch, continued);
        reply.headers = resp.headers.clone();
        self.reply = Reply::Api(reply);
        if !resp.headers.is_empty() {
            let h: Map<String, Value> =
                resp.headers.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
            m.insert("headers".into(), Value::Object(h));
        }
        if self.explain {
            let why = OutputWhy::Request(*resp.why);
            m.insert("explain".into(), Value::String(why::render(&why, Lang::En)));
            m.insert("why".into(), why.to_json());
            self.why = Some(why);
        }
        m
    }

    /// A `kubectl` line: the requests it becomes, one after the other (each may depend on the
    /// answer before), each shown as its request line with its answer; the line's own `code`,
    /// `body`/`watch` are those of its last request that is not a follow-up check (see
    /// `script::kubectl`).
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    fn kubectl(&mut self, cmd: crate::script::kubectl::KubectlCommand) -> Value {
        use crate::script::kubectl::{Answer, Plan};
        let mut plan = Plan::new(cmd);
        let mut requests: Vec<Value> = Vec::new();
        let mut last: Option<Map<String, Value>> = None;
        let mut result: Option<Map<String, Value>> = None;
        let mut reply = Reply::Other;
        loop {
            let answer = last.as_ref().map(|m| Answer {
                code: m.get("code").and_then(Value::as_u64).and_then(|c| u16::try_from(c).ok()).unwrap_or(0),
                body: m.get("body").unwrap_or(&Value::Null),
            });
            let Some(req) = plan.next(answer) else {
                break;
            };
            let body = req.body.as_ref().map(Value::to_string);
            let content_type = req.patch_type.map(|t| t.content_type());
            let mut m = self.request(req.method, content_type, &req.target, body.as_deref());
            let mut shown = Map::new();
            shown.insert("request".into(), Value::String(req.line()));
            // The header kubectl adds; the engine answers in JSON whatever it says (the
            // server-side Table is `rvlab serve`'s).
            if let Some(a) = req.accept {
                shown.insert("accept".into(), Value::String(a.into()));
            }
            for (k, v) in &m {
                shown.insert(k.clone(), v.clone());
            }
            requests.push(Value::Object(shown));
            m.remove("explain");
            m.remove("why");
            let answered = std::mem::take(&mut self.reply);
            if !req.follow_up {
                result = Some(m.clone());
                reply = answered;
            }
            last = Some(m);
        }
        // The line's answer is its result's; the decisions stay with each request.
        self.reply = reply;
        self.why = None;
        let mut out = result.unwrap_or_default();
        out.insert("requests".into(), Value::Array(requests));
        Value::Object(out)
    }

    fn execute(&mut self, cmd: Command) -> Result<Value, Refusal> {
        Ok(match cmd {
            #[cfg(not(feature = "sandbox"))]
            Command::Request { method: Method::Patch(_), .. } => {
                return Err(Refusal::NotInModule { part: Extra::Patch });
            }
            Command::Request { method, target, body, held } => {
                self.cluster.hold_next(held);
                let content_type = match method {
                    Method::Patch(t) => Some(t.content_type()),
                    _ => None,
                };
                let body = body.map(|b| b.to_string());
                Value::Object(self.request(method.as_str(), content_type, &target, body.as_deref()))
            }
            #[cfg(feature = "sandbox")]
            Command::Kubectl(k) => self.kubectl(k),
            // Refused by `run_line_outcome` before they get here (`Extra::missing`); with these
            // arms the console embed's module keeps none of their code.
            #[cfg(not(feature = "sandbox"))]
            Command::Kubectl(_) => return Err(Refusal::NotInModule { part: Extra::Kubectl }),
            #[cfg(not(feature = "sandbox"))]
            Command::Informer(_)
            | Command::DropInformer(_)
            | Command::Pager(_)
            | Command::PagerNext { .. } => {
                return Err(Refusal::NotInModule { part: Extra::Clients });
            }
            Command::Events { watch } if self.dropped.contains(&watch) => {
                if let Some(r) = self.watch_records.get_mut(&watch) {
                    r.script.reads.push(self.line);
                    r.script.closed = true;
                }
                // The connection is gone: nothing more arrives, frames not yet read are lost.
                self.reply =
                    Reply::Events(EventsReply { events: vec![], closed: true, dropped: true, paused: false });
                self.forget_if_ended(&watch);
                json!({"events": [], "closed": true, "dropped": true})
            }
            Command::Events { watch } | Command::Cancel(watch) | Command::Drop(watch)
                if self.forgotten(&watch) =>
            {
                return Err(Refusal::WatchGone { watch });
            }
            Command::Events { watch } => match self.watches.get(&watch).copied() {
                None => return Err(Refusal::NoWatch { watch, hint: true }),
                Some(h) => match self.cluster.read_watch(h) {
                    Some((frames, closed)) => {
                        if let Some(r) = self.watch_records.get_mut(&watch) {
                            r.read.record(&frames, closed, self.line);
                            r.script.reads.push(self.line);
                            r.script.closed |= closed;
                        }
                        // Each frame with the simulated time the server sent it.
                        let events: Vec<Value> = frames
                            .iter()
                            .map(|f| {
                                let mut j = f.to_json();
                                if let Some(at) = f.sent_at {
                                    j["at"] = Value::String(crate::client::trace::fmt_ms(at.0));
                                }
                                j
                            })
                            .collect();
                        let mut o = json!({"events": events, "closed": closed});
                        let paused =
                            self.cluster.apiserver(h.apiserver).is_some_and(|s| s.is_paused(h.stream));
                        if paused {
                            o["paused"] = Value::Bool(true);
                        }
                        self.reply = Reply::Events(EventsReply {
                            events: frames.iter().map(|f| EventFacts::of(f.kind, &f.object)).collect(),
                            closed,
                            dropped: false,
                            paused,
                        });
                        if closed
                            && self.explain
                            && let Some(r) = self.cluster.watch_close_reason(h)
                        {
                            let why = OutputWhy::Ended(r);
                            o["explain"] = Value::String(why::render(&why, Lang::En));
                            o["why"] = why.to_json();
                            self.why = Some(why);
                        }
                        if closed {
                            self.forget_if_ended(&watch);
                        }
                        o
                    }
                    None => return Err(Refusal::WatchGone { watch }),
                },
            },
            Command::Cancel(watch) => match self.watches.get(&watch).copied() {
                None => return Err(Refusal::NoWatch { watch, hint: false }),
                Some(h) => {
                    self.cluster.cancel_watch(h);
                    if let Some(r) = self.watch_records.get_mut(&watch) {
                        r.script.cancelled = true;
                    }
                    self.forget_if_ended(&watch);
                    json!({"canceled": watch})
                }
            },
            Command::Etcd(e) => self.etcd(e),
            Command::Compact { revision } => {
                let mut why = EtcdWhy::new(EtcdOp::Compact, self.cluster.etcd().current_revision());
                why.at = Some(revision);
                why.compacted = self.cluster.etcd().compact_revision();
                let out = match self.cluster.compact(revision) {
                    Ok(()) => {
                        why.apiservers = Some(self.cluster.apiserver_count());
                        let now = self.cluster.etcd().current_revision();
                        self.reply = Reply::Etcd(EtcdReply::done(EtcdOp::Compact, now));
                        json!({"compacted": revision, "header": {"revision": now}})
                    }
                    Err(e) => {
                        why.refused = Some(super::etcd_ops::refusal(&e));
                        self.reply = Reply::Etcd(EtcdReply::refused(EtcdOp::Compact, e.to_string()));
                        json!({"error": e.to_string()})
                    }
                };
                self.with_etcd_why(out, why)
            }
            Command::Advance(d) if d > crate::cluster::MAX_ADVANCE => {
                return Err(Refusal::AdvanceTooLong { max: crate::cluster::MAX_ADVANCE_TEXT.to_string() });
            }
            Command::Advance(d) => {
                if let Err(e) = self.timers().check(d) {
                    return Err(Refusal::from(e));
                }
                self.advance(d);
                json!({"now": crate::clock::Duration(self.cluster.clock().now().0).to_string()})
            }
            #[cfg(feature = "sandbox")]
            Command::Informer(cmd) => self.informer(cmd)?,
            Command::Drop(watch) => match self.watches.get(&watch).copied() {
                None => return Err(Refusal::NoWatch { watch, hint: false }),
                Some(h) => {
                    // The server notices its client is gone and ends the stream.
                    self.cluster.cancel_watch(h);
                    self.dropped.insert(watch.clone());
                    json!({"dropped": watch})
                }
            },
            #[cfg(feature = "sandbox")]
            Command::DropInformer(name) => match self.informers.get_mut(&name) {
                Some(inf) => {
                    inf.drop_connection();
                    json!({"dropped": name})
                }
                None => return Err(Refusal::NoInformer { name }),
            },
            #[cfg(feature = "sandbox")]
            Command::Pager(p) => {
                let a = super::clients::pager_list(
                    &mut self.cluster,
                    self.current_apiserver,
                    &p,
                    self.explain,
                    &mut self.pager,
                )?;
                self.pager_answer(a)
            }
            #[cfg(feature = "sandbox")]
            Command::PagerNext { pages } => {
                let a = super::clients::pager_next(&mut self.cluster, pages, self.explain, &mut self.pager)?;
                self.pager_answer(a)
            }
            Command::Set { name, value } => {
                if name == SettingName::KeepEndedWatches.as_str() {
                    return self.set_keep_ended(value);
                }
                let explain_to = match (name.as_str(), value.as_str()) {
                    ("explain", "on" | "true") => Some(true),
                    ("explain", "off" | "false") => Some(false),
                    ("explain", _) => {
                        return Err(Refusal::ExplainValue { value });
                    }
                    _ => None,
                };
                let (mut out, why) = match explain_to {
                    Some(on) => {
                        self.explain = on;
                        let why = SettingWhy {
                            setting: SettingName::Explain,
                            value: value.clone(),
                            apiserver: None,
                        };
                        (json!({"set": name, "value": value}), why)
                    }
                    None => {
                        let setting = match Setting::parse(&name, &value) {
                            Ok(s) => s,
                            Err(e) => return Err(Refusal::from(e)),
                        };
                        let apiserver = (!setting.cluster_wide()).then_some(self.current_apiserver + 1);
                        let why = SettingWhy { setting: setting.name(), value: value.clone(), apiserver };
                        match self.cluster.apply(self.current_apiserver, setting) {
                            Ok(done) => {
                                if self.current_apiserver >= self.cluster.apiserver_count() {
                                    self.current_apiserver = 0;
                                }
                                (json!({"set": name, "value": value, "effect": done}), why)
                            }
                            Err(crate::cluster::ApplyError::Setting(e)) => return Err(Refusal::from(e)),
                            Err(crate::cluster::ApplyError::NoApiserver) => {
                                let (n, count) = (self.current_apiserver + 1, self.cluster.apiserver_count());
                                return Err(Refusal::NoApiserver { n, count, hint: true });
                            }
                        }
                    }
                };
                if self.explain {
                    let why = OutputWhy::Setting(why);
                    out["explain"] = Value::String(why::render(&why, Lang::En));
                    out["why"] = why.to_json();
                    self.why = Some(why);
                }
                out
            }
            Command::RestartApiserver(0) => return Err(Refusal::ApiserverZero),
            Command::RestartApiserver(n) => match self.cluster.restart_apiserver(n - 1) {
                Ok(()) => json!({"restarted": n}),
                Err(_) => {
                    return Err(Refusal::NoApiserver {
                        n,
                        count: self.cluster.apiserver_count(),
                        hint: true,
                    });
                }
            },
            Command::Pause(id) | Command::Resume(id) if self.forgotten(&id) => {
                return Err(Refusal::WatchGone { watch: id });
            }
            Command::Pause(id) | Command::Resume(id) if !self.watches.contains_key(&id) => {
                return Err(Refusal::NoWatch { watch: id, hint: true });
            }
            Command::Pause(id) => {
                if let Some(h) = self.watches.get(&id).copied() {
                    self.cluster.pause_watch(h, true);
                }
                if let Some(r) = self.watch_records.get_mut(&id) {
                    r.script.paused = true;
                }
                json!({"paused": id})
            }
            Command::Resume(id) => {
                if let Some(h) = self.watches.get(&id).copied() {
                    self.cluster.pause_watch(h, false);
                }
                if let Some(r) = self.watch_records.get_mut(&id) {
                    r.script.paused = false;
                }
                json!({"resumed": id})
            }
            Command::Apiserver(n) => {
                if n >= 1 && n <= self.cluster.apiserver_count() {
                    self.current_apiserver = n - 1;
                    json!({"apiserver": n})
                } else {
                    return Err(Refusal::NoApiserver {
                        n,
                        count: self.cluster.apiserver_count(),
                        hint: true,
                    });
                }
            }
            // `expect` lines are checked in `run_line`, against the previous output.
            Command::Expect(_) => json!({"error": "expect is evaluated by the session, not executed"}),
        })
    }

    /// `set keep-ended-watches all|<n>`.
    fn set_keep_ended(&mut self, value: String) -> Result<Value, Refusal> {
        let setting = SettingName::KeepEndedWatches;
        self.keep_ended = crate::cluster::parse_keep_ended(&value).map_err(Refusal::from)?;
        if self.keep_ended.is_none() {
            self.ended.clear();
        }
        self.forget_beyond_kept();
        let mut out = json!({"set": setting.as_str(), "value": value});
        if self.explain {
            let why = OutputWhy::Setting(SettingWhy { setting, value, apiserver: None });
            out["explain"] = Value::String(why::render(&why, Lang::En));
            out["why"] = why.to_json();
            self.why = Some(why);
        }
        Ok(out)
    }

    /// Watch `id` has ended for its client (an `events` line read its end, or a `cancel` line
    /// ended it): with `keep-ended-watches <n>` it joins the kept ended watches, and the oldest
    /// beyond `n` is forgotten.
    fn forget_if_ended(&mut self, id: &str) {
        if self.keep_ended.is_none() || self.ended.iter().any(|e| e == id) {
            return;
        }
        self.ended.push_back(id.to_string());
        self.forget_beyond_kept();
    }

    fn forget_beyond_kept(&mut self) {
        let Some(keep) = self.keep_ended else { return };
        while self.ended.len() > keep {
            let Some(id) = self.ended.pop_front() else { break };
            // The session, the read model and the apiserver drop it, as kube-apiserver drops
            // a watch once its handler has returned.
            if let Some(h) = self.watches.remove(&id) {
                self.cluster.forget_watch(h);
            }
            self.watch_records.remove(&id);
            self.dropped.remove(&id);
        }
    }

    /// Whether `id` names a watch this session opened and has forgotten.
    fn forgotten(&self, id: &str) -> bool {
        !self.watches.contains_key(id)
            && id
                .strip_prefix('w')
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| n >= 1 && n <= self.watch_seq && format!("w{n}") == id)
    }

    /// Whether watch `id` is open or ended and not forgotten.
    pub fn knows_watch(&self, id: &str) -> bool {
        self.watches.contains_key(id)
    }

    /// How many watches the session keeps (open, or ended and not forgotten), and how many
    /// watch streams its apiservers keep.
    pub fn kept_watches(&self) -> (usize, usize) {
        let c = &self.cluster;
        let streams = (0..c.apiserver_count()).filter_map(|i| c.apiserver(i)).map(|s| s.kept_watches()).sum();
        (self.watches.len(), streams)
    }

    /// The periodic timers running now (what an `advance` costs).
    fn timers(&self) -> super::budget::Timers {
        super::budget::Timers::of(&self.cluster, self.informers.values())
    }

    /// The longest `advance` one line may take now ([`super::budget`]).
    pub fn max_advance(&self) -> crate::clock::Duration {
        self.timers().max_advance()
    }

    /// Lets time pass in steps, so informers react at the moment things happen (a watch that
    /// times out mid-way, a back-off that ends).
    fn advance(&mut self, d: crate::clock::Duration) {
        let target = self.cluster.now() + d;
        loop {
            let mut t = self.cluster.next_wakeup().min(target);
            for inf in self.informers.values().filter(|_| Extra::ALL_COMPILED) {
                if let Some(w) = inf.next_wakeup() {
                    t = t.min(w.max(self.cluster.now()));
                }
            }
            self.cluster.run_until(t);
            self.poll_informers();
            if t >= target {
                break;
            }
        }
    }

    /// A pager line's output; its reply and decisions are the line's.
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    fn pager_answer(&mut self, a: super::clients::PagerAnswer) -> Value {
        self.reply = a.reply;
        self.client_log = a.log;
        a.out
    }

    /// An informer line's output (`informer start|show|stop`); its decisions are the line's.
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    fn informer_report(&mut self, r: &InformerReport) -> Value {
        if self.explain {
            self.client_log = Some(r.log.iter().map(super::why::informer::log_entry).collect());
        }
        super::why::informer::report_json(r, self.explain)
    }

    fn poll_informers(&mut self) {
        // The console embed's module starts no informer (`script::extra`).
        if !Extra::ALL_COMPILED {
            return;
        }
        for inf in self.informers.values_mut() {
            inf.poll(&mut self.cluster);
        }
    }

    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    fn informer(&mut self, cmd: InformerCommand) -> Result<Value, Refusal> {
        Ok(match cmd {
            InformerCommand::Start { name, resource, namespace, mode, apiservers, resync } => {
                if self.informers.get(&name).is_some_and(|i| i.state() != "stopped") {
                    return Err(Refusal::InformerRunning { name });
                }
                if crate::apiserver::resource::lookup(&resource).is_none() {
                    return Err(Refusal::UnknownResource { resource });
                }
                let count = self.cluster.apiserver_count();
                let indexes = match apiservers {
                    None => vec![self.current_apiserver],
                    Some(list) => match list.iter().find(|n| **n < 1 || **n > count) {
                        Some(&n) => return Err(Refusal::NoApiserver { n, count, hint: false }),
                        None => list.iter().map(|n| n - 1).collect(),
                    },
                };
                // Without `mode=`: the default of the client-go release (`set client-go`, auto: the
                // Kubernetes release) — WatchListClient is on from client-go 1.35 (streaming), off
                // before (LIST then WATCH); `features/known_features.go` (docs/semantics.md §F).
                let streaming_default = self.cluster.client_go_minor() >= 35;
                let mode = mode.unwrap_or(if streaming_default {
                    InformerMode::Streaming
                } else {
                    InformerMode::Legacy
                });
                let seed = 0x5eed ^ (self.informers.len() as u64 + 1).wrapping_mul(0x9E37_79B9);
                let mut inf =
                    Informer::new(&name, &resource, namespace.as_deref(), mode, indexes, seed, resync)
                        .with_client_go(self.cluster.client_go_minor(), self.cluster.now());
                inf.poll(&mut self.cluster);
                let report = inf.peek();
                let mut out = self.informer_report(&report);
                self.informer_records.insert(name.clone(), (resource.clone(), inf.apiserver()));
                self.informers.insert(name, inf);
                if let Value::Object(m) = &mut out {
                    m.insert("started".into(), Value::Bool(true));
                }
                out
            }
            InformerCommand::Stop { name } => match self.informers.get_mut(&name) {
                Some(inf) => {
                    inf.stop(&mut self.cluster);
                    let report = inf.show();
                    let mut out = self.informer_report(&report);
                    if let Value::Object(m) = &mut out {
                        m.insert("stopped".into(), Value::Bool(true));
                    }
                    out
                }
                None => return Err(Refusal::NoInformer { name }),
            },
            InformerCommand::Show { name } => match self.informers.get_mut(&name) {
                Some(inf) => {
                    let report = inf.show();
                    self.informer_report(&report)
                }
                None => return Err(Refusal::NoInformer { name }),
            },
        })
    }

    fn etcd(&mut self, cmd: EtcdCommand) -> Value {
        let (out, why, reply) = self.cluster.with_etcd(|etcd| super::etcd_ops::etcd_op(etcd, cmd));
        self.reply = Reply::Etcd(reply);
        self.with_etcd_why(out, why)
    }

    /// Adds an etcd operation's `"explain"` and `"why"` when explanations are on.
    fn with_etcd_why(&mut self, mut out: Value, why: EtcdWhy) -> Value {
        if self.explain {
            let why = OutputWhy::Etcd(why);
            out["explain"] = Value::String(why::render(&why, Lang::En));
            out["why"] = why.to_json();
            self.why = Some(why);
        }
        out
    }
}
