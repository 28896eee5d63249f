//! The script lines that drive a client on its own: `pager list` (client-go's `ListPager`) — its
//! output object, with the pager's decision log rendered by `why::informer`.
//!
//! Counterpart: `k8s.io/client-go/tools/pager/pager.go`.

use serde_json::{Value, json};

use super::parse::PagerCommand;
use super::why::Lang;
use super::why::informer::{describe, log_json, render};
use crate::client::pager::ListPager;
use crate::client::rest::{ListOptions, ResourcePath};
use crate::client::trace::Trace;
use crate::cluster::Cluster;

/// `/api/v1/namespaces/<ns>/<resource>` or `/api/v1/<resource>` → the collection, for a
/// resource the apiserver serves.
pub fn collection(path: &str) -> Result<ResourcePath, String> {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let (ns, resource) = match parts.as_slice() {
        ["", "api", "v1", "namespaces", ns, resource] if !ns.is_empty() => (Some(*ns), *resource),
        ["", "api", "v1", resource] => (None, *resource),
        _ => {
            return Err(format!(
                "pager list: {path:?} is not a collection path; expected /api/v1/namespaces/<ns>/<resource> \
                 or /api/v1/<resource>"
            ));
        }
    };
    if crate::apiserver::resource::lookup(resource).is_none() {
        return Err(format!(
            "pager list: unknown resource {resource:?}; the apiserver serves pods and configmaps"
        ));
    }
    Ok(ResourcePath::new(resource, ns))
}

/// Runs `pager list` to the end against apiserver `apiserver` (0-based). A `Retry-After` wait lets
/// simulated time pass. The output: `{"pager":<path>,"code","body":{list or Status},"pages",
/// "fullListFallback","log":[English],"requests":[…]}` and, with `explain`, `"why":{"log":[…]}`.
pub fn pager_list(cluster: &mut Cluster, apiserver: usize, cmd: &PagerCommand, explain: bool) -> Value {
    let path = match collection(&cmd.path) {
        Ok(p) => p,
        Err(e) => return json!({ "error": e }),
    };
    let pager = match cmd.limit {
        Some(l) => ListPager::new(l),
        None => ListPager::default(),
    };
    let options = ListOptions {
        resource_version: cmd.resource_version.clone().unwrap_or_default(),
        ..Default::default()
    };
    let mut trace = Trace::new();
    let result = pager.list(cluster, &path, apiserver, options, &mut trace);
    let mut out = json!({ "pager": path.collection() });
    match result {
        Ok(list) => {
            out["code"] = json!(200);
            out["body"] = json!({
                "metadata": { "resourceVersion": list.resource_version },
                "items": list.items,
            });
            out["pages"] = json!(list.pages);
            out["fullListFallback"] = json!(list.fell_back_to_full_list);
        }
        Err(e) if e.code == 0 => {
            out["error"] = json!(describe(&e.info(), Lang::En));
        }
        Err(e) => {
            out["code"] = json!(e.code);
            out["body"] = json!({
                "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": e.message, "reason": e.reason, "code": e.code,
            });
        }
    }
    out["log"] = json!(trace.log.iter().map(|l| render(&l.decision, Lang::En)).collect::<Vec<_>>());
    out["requests"] = json!(trace.request_lines());
    if explain {
        out["why"] = json!({ "log": trace.log.iter().map(log_json).collect::<Vec<_>>() });
    }
    out
}
