//! The script lines that drive a client on its own: `pager list` / `pager next` (client-go's
//! `ListPager`) — the run a script may stop between pages, and its output object, with the
//! pager's decision log rendered by `why::informer`.
//!
//! Counterpart: `k8s.io/client-go/tools/pager/pager.go`.

use serde_json::{Value, json};

use super::parse::PagerCommand;
use super::refusal::Refusal;
use super::reply::{ApiReply, Reply};
use super::why::Lang;
use super::why::informer::{describe, log_entry, log_json, render};
use crate::client::pager::{ListPager, PagerPoll, PagerRun};
use crate::client::rest::ResourcePath;
use crate::client::rest::{ApiError, ListOptions};
use crate::client::trace::{LogEntry, Trace};
use crate::cluster::Cluster;

/// What one `pager` line gave: its output, the answer's facts and, when explanations are on,
/// the pager's decisions (the output's `why.log`).
#[derive(Clone, Debug, PartialEq)]
pub struct PagerAnswer {
    pub out: Value,
    pub reply: Reply,
    pub log: Option<Vec<LogEntry>>,
}

/// A pager the script stopped between pages (`pages=<n>`), until `pager next` continues it.
#[derive(Clone, Debug, Default)]
pub struct OpenPager {
    run: Option<(PagerRun, String, Trace)>,
}

/// `/api/v1/namespaces/<ns>/<resource>` or `/api/v1/<resource>` → the collection, for a
/// resource the apiserver serves.
pub fn collection(path: &str) -> Result<ResourcePath, Refusal> {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let (ns, resource) = match parts.as_slice() {
        ["", "api", "v1", "namespaces", ns, resource] if !ns.is_empty() => (Some(*ns), *resource),
        ["", "api", "v1", resource] => (None, *resource),
        _ => return Err(Refusal::PagerPath { path: path.to_string() }),
    };
    if crate::apiserver::resource::lookup(resource).is_none() {
        return Err(Refusal::PagerResource { resource: resource.to_string() });
    }
    Ok(ResourcePath::new(resource, ns))
}

/// Runs `pager list` against apiserver `apiserver` (0-based): to the end, or until `pages`
/// pages came back (the run is then kept in `open` for `pager next`). A `Retry-After` wait lets
/// simulated time pass. A new `pager list` replaces a stopped one.
pub fn pager_list(
    cluster: &mut Cluster,
    apiserver: usize,
    cmd: &PagerCommand,
    explain: bool,
    open: &mut OpenPager,
) -> Result<PagerAnswer, Refusal> {
    let path = collection(&cmd.path)?;
    let pager = match cmd.limit {
        Some(l) => ListPager::new(l),
        None => ListPager::default(),
    };
    let options = ListOptions {
        resource_version: cmd.resource_version.clone().unwrap_or_default(),
        ..Default::default()
    };
    let run = pager.start(&path, apiserver, options);
    Ok(drive(cluster, run, path.collection(), Trace::new(), cmd.pages, explain, open))
}

/// `pager next`: the stopped pager sends its next pages.
pub fn pager_next(
    cluster: &mut Cluster,
    pages: Option<u32>,
    explain: bool,
    open: &mut OpenPager,
) -> Result<PagerAnswer, Refusal> {
    let (run, collection, mut trace) = open.run.take().ok_or(Refusal::NoPager)?;
    trace.mark_shown();
    Ok(drive(cluster, run, collection, trace, pages, explain, open))
}

fn drive(
    cluster: &mut Cluster,
    mut run: PagerRun,
    collection: String,
    mut trace: Trace,
    pages: Option<u32>,
    explain: bool,
    open: &mut OpenPager,
) -> PagerAnswer {
    let stop_at = pages.map(|n| run.pages_received().saturating_add(n));
    let result = loop {
        if stop_at.is_some_and(|n| run.pages_received() >= n) {
            break None;
        }
        match run.send_one(cluster, &mut trace) {
            None => {}
            Some(PagerPoll::Pending(t)) => {
                let now = cluster.clock().now();
                cluster.advance(t.since(now));
            }
            Some(PagerPoll::Done(r)) => break Some(r),
        }
    };
    let mut out = json!({ "pager": collection });
    let reply = match result {
        None => {
            out["done"] = json!(false);
            out["pages"] = json!(run.pages_received());
            Reply::Other
        }
        Some(Ok(list)) => {
            out["code"] = json!(200);
            let body = json!({
                "metadata": { "resourceVersion": list.resource_version },
                "items": list.items,
            });
            let reply = Reply::Api(ApiReply::of(200, Some(&body), None, None));
            out["body"] = body;
            out["pages"] = json!(list.pages);
            out["fullListFallback"] = json!(list.fell_back_to_full_list);
            reply
        }
        Some(Err(e)) => failed(&mut out, &e),
    };
    let new = trace.new_log();
    out["log"] = json!(new.iter().map(|l| render(&l.decision, Lang::En)).collect::<Vec<_>>());
    out["requests"] = json!(trace.new_requests().iter().map(|r| r.render()).collect::<Vec<_>>());
    let log = explain.then(|| new.iter().map(log_entry).collect::<Vec<_>>());
    if explain {
        out["why"] = json!({ "log": new.iter().map(log_json).collect::<Vec<_>>() });
    }
    if result_pending(&out) {
        open.run = Some((run, collection_of(&out), trace));
    }
    PagerAnswer { out, reply, log }
}

fn result_pending(out: &Value) -> bool {
    out.get("done").and_then(Value::as_bool) == Some(false)
}

fn collection_of(out: &Value) -> String {
    out.get("pager").and_then(Value::as_str).unwrap_or_default().to_string()
}

fn failed(out: &mut Value, e: &ApiError) -> Reply {
    if e.code == 0 {
        let error = describe(&e.info(), Lang::En);
        out["error"] = json!(error);
        return Reply::ClientError(error);
    }
    out["code"] = json!(e.code);
    let body = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": e.message, "reason": e.reason, "code": e.code,
    });
    let reply = Reply::Api(ApiReply::of(e.code, Some(&body), None, None));
    out["body"] = body;
    reply
}
