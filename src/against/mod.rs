//! `rvlab run --against KUBECONFIG FILE`: each API line of a script runs against a real cluster
//! and against the simulation; both answers are printed with what differs.
//!
//! [`kubeconfig`] (over [`yaml`]) finds the cluster and its credentials, [`http`] speaks to it,
//! [`rewrite`] turns a line into the request the cluster gets (the run's namespaces, the
//! cluster's resourceVersions and continue tokens), [`compare`] reduces both answers to what is
//! compared. Lines only the simulation has (settings, faults, `advance`, `etcd …`, `compact`,
//! clients, `expect`) run in the simulation and are skipped on the cluster with a note. The
//! contract (output fields, exit codes) is `site/src/reference/against.md`.
//!
//! Upstream counterpart: none; the cluster is whatever the kubeconfig names (kind, any).

pub mod compare;
pub mod http;
pub mod kubeconfig;
pub mod rewrite;
pub mod yaml;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::apiserver::request::Query;
use crate::script::parse::{Command, Method, parse_line};
use crate::script::{Session, batch};
use compare::Rvs;
use http::{Client, Failure, Reply, Watch};
use rewrite::Rewrite;

/// Exit codes: no differences.
pub const EXIT_SAME: i32 = 0;
/// Some compared line differs.
pub const EXIT_DIFFERENT: i32 = 1;
/// Usage, an unreadable kubeconfig or script, a line that does not parse, a cluster that cannot
/// be reached, fails TLS, refuses the credentials or the run's namespaces.
pub const EXIT_TROUBLE: i32 = 2;

/// What `rvlab run --against` was given.
#[derive(Debug, Clone)]
pub struct Options {
    pub kubeconfig: PathBuf,
    pub explain: bool,
    /// `--keep-namespaces`: send the script's namespaces as written (none is made).
    pub keep_namespaces: bool,
}

/// Why a line is not sent to the cluster (the note printed in its `cluster` field).
fn skipped(cmd: &Command) -> Option<&'static str> {
    match cmd {
        Command::Request { .. } | Command::Events { .. } | Command::Cancel(_) | Command::Drop(_) => None,
        Command::Etcd(_) => {
            Some("simulation only: the etcd beneath a cluster is not reachable through its API")
        }
        Command::Compact { .. } => Some(
            "simulation only: a cluster compacts by itself (kube-apiserver's compactor, every 5 minutes)",
        ),
        Command::Set { .. } => Some("simulation only: a setting of the simulation"),
        Command::Advance(_) => Some("simulation only: the cluster's clock is its own"),
        Command::Apiserver(_) | Command::RestartApiserver(_) => {
            Some("simulation only: the simulation's apiservers")
        }
        Command::Pause(_) | Command::Resume(_) => Some("simulation only: a fault of the simulation"),
        Command::Informer(_) | Command::DropInformer(_) | Command::Pager(_) | Command::PagerNext { .. } => {
            Some("simulation only: client-go clients run in the simulation")
        }
        Command::Kubectl(_) => {
            Some("simulation only: write a kubectl line's requests as API lines to compare them")
        }
        Command::Expect(_) => Some("simulation only: expect checks the simulation's answers"),
    }
}

struct Run<'a> {
    client: Client,
    rewrite: Rewrite,
    session: Session,
    sim_rvs: Rvs,
    cluster_rvs: Rvs,
    watches: BTreeMap<String, Watch>,
    accepted: usize,
    out: &'a mut dyn Write,
    compared: usize,
    differing: Vec<usize>,
    skipped: usize,
    parse_errors: usize,
}

/// Runs `text` (the script at `name`) against the cluster and the simulation; returns the exit code.
pub fn run(opts: &Options, text: &str, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let fail = |err: &mut dyn Write, m: &str| {
        let _ = writeln!(err, "rvlab run --against: {m}");
        EXIT_TROUBLE
    };
    let target = match kubeconfig::load(&opts.kubeconfig) {
        Ok(t) => t,
        Err(e) => return fail(err, &e),
    };
    if let Err(r) = batch::Size::of(text).check() {
        let _ = writeln!(out, "{}", batch::refusal_output(1, &r));
        return EXIT_TROUBLE;
    }
    let server = target.server.clone();
    let client = match Client::new(target) {
        Ok(c) => c,
        Err(e) => return fail(err, &format!("{server}: {e}")),
    };
    if let Err(m) = preflight(&client) {
        return fail(err, &m);
    }
    let mut run = Run {
        client,
        rewrite: Rewrite::new(opts.keep_namespaces, suffix()),
        session: Session::with_explain(opts.explain),
        sim_rvs: Rvs::default(),
        cluster_rvs: Rvs::default(),
        watches: BTreeMap::new(),
        accepted: 0,
        out,
        compared: 0,
        differing: Vec::new(),
        skipped: 0,
        parse_errors: 0,
    };
    let mut trouble = None;
    for (i, line) in text.lines().enumerate() {
        if let Err(m) = run.line(i + 1, line) {
            trouble = Some(m);
            break;
        }
    }
    for w in run.watches.values_mut() {
        w.close();
    }
    let cleanup = run.cleanup();
    let lines = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        err,
        "rvlab run --against {server}: {} lines compared, {} differ{}, {} run in the simulation only{cleanup}",
        run.compared,
        run.differing.len(),
        if run.differing.is_empty() { String::new() } else { format!(" (line {})", lines(&run.differing)) },
        run.skipped,
    );
    if let Some(m) = trouble {
        return fail(err, &m);
    }
    if run.parse_errors > 0 {
        EXIT_TROUBLE
    } else if run.differing.is_empty() {
        EXIT_SAME
    } else {
        EXIT_DIFFERENT
    }
}

/// A short name for the run's namespaces: different for each run.
fn suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mixed = (nanos as u64) ^ (u64::from(std::process::id()) << 20);
    format!("{:06x}", mixed & 0xff_ffff)
}

/// `GET /api`: the cluster answers, over TLS if it should, and takes the credentials.
fn preflight(client: &Client) -> Result<(), String> {
    let server = &client.target.server;
    let r = match client.request("GET", "/api", None, None, false) {
        Ok(Reply::Answer(r)) => r,
        Ok(Reply::Stream(_)) => return Ok(()),
        Err(e) => return Err(format!("{server}: {e}")),
    };
    match r.code {
        200 => Ok(()),
        401 | 403 => Err(format!(
            "{server} refused the kubeconfig's credentials: GET /api answered {}{}",
            r.code,
            status_words(&r.json())
        )),
        c => {
            Err(format!("{server} is not a Kubernetes API: GET /api answered {c}{}", status_words(&r.json())))
        }
    }
}

/// ` Unauthorized: message` of a Status body, or the start of any other body.
fn status_words(body: &Value) -> String {
    match (body.get("reason").and_then(Value::as_str), body.get("message").and_then(Value::as_str)) {
        (Some(r), Some(m)) => format!(" {r}: {m}"),
        (None, Some(m)) => format!(": {m}"),
        _ => match body.as_str() {
            Some(s) if !s.trim().is_empty() => {
                format!(": {}", s.trim().chars().take(200).collect::<String>())
            }
            _ => String::new(),
        },
    }
}

fn trouble(e: Failure, server: &str) -> String {
    format!("{server}: {e}")
}

impl Run<'_> {
    fn emit(&mut self, n: usize, text: &str, sim: Value, cluster: Value, seen: Option<(Value, Value)>) {
        let mut o = json!({"line": n, "text": text, "sim": sim, "cluster": cluster});
        let diff = match &seen {
            Some((s, c)) => compare::diff(s, c),
            None => Vec::new(),
        };
        if let Some((s, c)) = seen {
            self.compared += 1;
            if !diff.is_empty() {
                self.differing.push(n);
            }
            o["compared"] = json!({"sim": s, "cluster": c});
        }
        o["diff"] = Value::Array(diff);
        let _ = writeln!(self.out, "{o}");
    }

    fn line(&mut self, n: usize, line: &str) -> Result<(), String> {
        let t = line.trim();
        let Some(sim) = self.session.run_line(n, line) else { return Ok(()) };
        let cmd = match parse_line(t) {
            Ok(c) => c,
            Err(_) => {
                self.parse_errors += 1;
                self.skipped += 1;
                self.emit(n, t, sim, json!({"skipped": "the line does not parse"}), None);
                return Ok(());
            }
        };
        if let Some(note) = skipped(&cmd) {
            self.skipped += 1;
            self.emit(n, t, sim, json!({"skipped": note}), None);
            return Ok(());
        }
        match cmd {
            Command::Request { method, target, body, .. } => {
                self.request(n, t, sim, method, &target, body.as_ref())
            }
            Command::Events { watch } => {
                self.events(n, t, sim, &watch);
                Ok(())
            }
            Command::Cancel(id) | Command::Drop(id) => {
                let cluster = match self.watches.get_mut(&id) {
                    Some(w) => {
                        w.close();
                        json!({"closed": id})
                    }
                    None => json!({"skipped": "simulation only: no watch of that name on the cluster"}),
                };
                self.skipped += 1;
                self.emit(n, t, sim, cluster, None);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Makes the run's namespace for the script's `ns` on the cluster, once.
    fn namespace(&mut self, ns: &str) -> Result<(), String> {
        if self.rewrite.namespaces.contains_key(ns) {
            return Ok(());
        }
        let name = self.rewrite.cluster_namespace(ns);
        if !self.rewrite.keep {
            let body =
                json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}).to_string();
            let server = self.client.target.server.clone();
            let r = match self.client.request(
                "POST",
                "/api/v1/namespaces",
                Some("application/json"),
                Some(body.as_bytes()),
                false,
            ) {
                Ok(Reply::Answer(r)) => r,
                Ok(Reply::Stream(_)) => {
                    return Err(format!("{server}: POST /api/v1/namespaces answered a stream"));
                }
                Err(e) => return Err(trouble(e, &server)),
            };
            if r.code != 201 {
                return Err(format!(
                    "{server} did not make the run's namespace {name:?} (for the script's {ns:?}): POST /api/v1/namespaces answered {}{}; --keep-namespaces runs in the script's own namespaces",
                    r.code,
                    status_words(&r.json())
                ));
            }
        }
        self.rewrite.namespaces.insert(ns.to_string(), name);
        Ok(())
    }

    /// Deletes the namespaces the run made; a note for the summary.
    fn cleanup(&mut self) -> String {
        if self.rewrite.keep || self.rewrite.namespaces.is_empty() {
            return String::new();
        }
        let mut notes = Vec::new();
        for name in self.rewrite.namespaces.values() {
            let note =
                match self.client.request("DELETE", &format!("/api/v1/namespaces/{name}"), None, None, false)
                {
                    Ok(Reply::Answer(r)) if r.code == 200 || r.code == 202 => format!("{name} deleted"),
                    Ok(Reply::Answer(r)) => {
                        format!("{name} not deleted: {}{}", r.code, status_words(&r.json()))
                    }
                    Ok(Reply::Stream(_)) => format!("{name} not deleted"),
                    Err(e) => format!("{name} not deleted: {e}"),
                };
            notes.push(note);
        }
        format!("; namespaces: {}", notes.join(", "))
    }

    fn request(
        &mut self,
        n: usize,
        text: &str,
        sim: Value,
        method: Method,
        target: &str,
        body: Option<&Value>,
    ) -> Result<(), String> {
        if let Some(ns) = rewrite::namespace_of(target) {
            self.namespace(ns)?;
        }
        let cluster_target = self.rewrite.target(target);
        let cluster_body = body.map(|b| self.rewrite.body(b).to_string());
        let content_type = match method {
            Method::Patch(p) => Some(p.content_type()),
            _ if cluster_body.is_some() => Some("application/json"),
            _ => None,
        };
        let path = cluster_target.split('?').next().unwrap_or("");
        let query = cluster_target.split_once('?').map(|(_, q)| q).unwrap_or("");
        let watch = method == Method::Get
            && (Query::parse(query).bool("watch") == Some(true) || path.contains("/watch/"));
        let server = self.client.target.server.clone();
        let reply = self
            .client
            .request(
                method.as_str(),
                &cluster_target,
                content_type,
                cluster_body.as_deref().map(str::as_bytes),
                watch,
            )
            .map_err(|e| trouble(e, &server))?;
        let request = format!("{} {cluster_target}", method.as_str());
        let cluster = match reply {
            Reply::Answer(r) => json!({"request": request, "code": r.code, "body": r.json()}),
            Reply::Stream(w) => {
                self.accepted += 1;
                let id = format!("w{}", self.accepted);
                self.watches.insert(id.clone(), w);
                json!({"request": request, "code": 200, "watch": id})
            }
        };
        let back = |s: &str| self.rewrite.back(s);
        let s = compare::answer(&sim, &mut self.sim_rvs, &back);
        let c = compare::answer(&cluster, &mut self.cluster_rvs, &back);
        self.rewrite.learn(&s.raw_rvs, &c.raw_rvs);
        self.emit(n, text, sim, cluster, Some((s.norm, c.norm)));
        Ok(())
    }

    fn events(&mut self, n: usize, text: &str, sim: Value, id: &str) {
        let (cluster, frames) = match self.watches.get_mut(id) {
            Some(w) => {
                let (frames, closed) = w.read();
                (json!({"events": frames, "closed": closed}), Some((frames, closed)))
            }
            None => (json!({"error": format!("no watch named {id:?} on the cluster")}), None),
        };
        let back = |s: &str| self.rewrite.back(s);
        let s = match sim.get("events").and_then(Value::as_array) {
            Some(ev) => {
                compare::events(ev, sim.get("closed") == Some(&Value::Bool(true)), &mut self.sim_rvs, &back)
            }
            None => compare::answer(&sim, &mut self.sim_rvs, &back),
        };
        let c = match &frames {
            Some((f, closed)) => compare::events(f, *closed, &mut self.cluster_rvs, &back),
            None => compare::answer(&cluster, &mut self.cluster_rvs, &back),
        };
        self.rewrite.learn(&s.raw_rvs, &c.raw_rvs);
        self.emit(n, text, sim, cluster, Some((s.norm, c.norm)));
    }
}
