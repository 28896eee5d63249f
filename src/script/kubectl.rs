//! `kubectl …` lines: the subset of kubectl the script and the console speak, and the exact
//! requests each one becomes.
//!
//! Observed from kubectl v1.32.4 (`kubectl -v=8` against `rvlab serve`), which follows
//! `staging/src/k8s.io/kubectl/pkg/cmd/{get,create,delete,patch}` @ v1.32:
//! * `get <res>` pages with `limit=500` (or `--chunk-size`; 0 = one unlimited list) and follows
//!   `continue` (`?continue=…&limit=N`, Go's `url.Values.Encode` sorts the keys);
//!   `get <res> <name>` is one GET of the object.
//! * `get <res> -w` lists as above, then watches with only `resourceVersion=<the list's RV>`
//!   and `watch=true`; `get <res> <name> -w` GETs the object, then watches with
//!   `fieldSelector=metadata.name%3D<name>&resourceVersion=0&watch=true` (`get.go` `watch`:
//!   "watching from resourceVersion 0, starts the watch at ~now"). `--output-watch-events`
//!   changes only how kubectl prints the events.
//! * `create configmap <name> [--from-literal=k=v]…` POSTs with
//!   `fieldManager=kubectl-create&fieldValidation=Strict`.
//! * `delete <res> <name>` sends `{"propagationPolicy":"Background"}` and then GETs the object
//!   for `--wait` (`wait.IsDeleted`: a 404 ends the wait).
//! * `patch <res> <name> [--type=strategic|merge|json] -p <patch>` GETs the object, then PATCHes
//!   with `fieldManager=kubectl-patch` and the type's Content-Type (strategic by default).
//!
//! Not modelled: kubectl asks `get` for server-side Tables (`Accept: …as=Table…`) and prints
//! columns; here the lines show the JSON the API returns. Discovery requests are not shown.

use std::fmt;

use serde_json::{Map, Value, json};

use super::lex::{ParseError, Words, word};
use super::syntax::{Expected, JsonPart, OneOf, Part, Problem};
use crate::apiserver::patch::PatchType;

/// A resource kubectl knows by one of its names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubectlResource {
    ConfigMaps,
    Pods,
}

impl KubectlResource {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "configmaps" | "configmap" | "cm" => Some(KubectlResource::ConfigMaps),
            "pods" | "pod" | "po" => Some(KubectlResource::Pods),
            _ => None,
        }
    }
    pub fn plural(self) -> &'static str {
        match self {
            KubectlResource::ConfigMaps => "configmaps",
            KubectlResource::Pods => "pods",
        }
    }
}

/// One `kubectl` line. `namespace: None` is the context's namespace, `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KubectlCommand {
    Get {
        resource: KubectlResource,
        name: Option<String>,
        namespace: Option<String>,
        chunk_size: Option<i64>,
        watch: bool,
        output_watch_events: bool,
    },
    CreateConfigMap {
        name: String,
        namespace: Option<String>,
        literals: Vec<(String, String)>,
    },
    Delete {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
    },
    Patch {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
        /// `None` = kubectl's default, strategic.
        patch_type: Option<PatchType>,
        patch: Value,
    },
}

const VERBS: OneOf = OneOf(&["get", "create", "delete", "patch"], None);
const U_GET: &str =
    "kubectl get <resource> [<name>] [-n <namespace>] [--chunk-size=N] [-w] [--output-watch-events]";
const U_CREATE: &str = "kubectl create configmap <name> [-n <namespace>] [--from-literal=<key>=<value>]...";
const U_DELETE: &str = "kubectl delete <resource> <name> [-n <namespace>]";
const U_PATCH: &str =
    "kubectl patch <resource> <name> [-n <namespace>] [--type=strategic|merge|json] -p <json patch>";

fn err(ctx: &str, problem: Problem, usage: impl Into<Expected>) -> ParseError {
    ParseError::new(problem).at(ctx).expected(usage)
}

/// A name or namespace as kubectl would put it in a URL path: non-empty, no `/`, `?`, `#`,
/// `%` or whitespace.
fn check_name(ctx: &str, what: Part, s: &str, usage: &str) -> Result<(), ParseError> {
    if s.is_empty() || s.chars().any(|c| matches!(c, '/' | '?' | '#' | '%') || c.is_whitespace()) {
        return Err(err(ctx, Problem::NotInUrlPath { what, got: s.to_string() }, usage));
    }
    Ok(())
}

fn resource(ctx: &str, w: &mut Words<'_>, usage: &str) -> Result<KubectlResource, ParseError> {
    let Some(r) = w.next_bare() else {
        return Err(ParseError::missing(ctx, Part::Resource, usage));
    };
    KubectlResource::parse(r).ok_or_else(|| err(ctx, Problem::UnknownResource { got: r.to_string() }, usage))
}

/// Parses what follows `kubectl`.
pub(crate) fn parse(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let Some(verb) = w.next_bare() else {
        return Err(ParseError::missing("kubectl", Part::Command, VERBS));
    };
    match verb {
        "get" => parse_get(w),
        "create" => parse_create(w),
        "delete" => parse_delete(w),
        "patch" => parse_patch(w),
        other => Err(err("kubectl", Problem::UnknownCommand { got: other.to_string() }, VERBS)),
    }
}

/// Reads `-n ns` / `--namespace=ns` / `--namespace ns` if `tok` is one; `Ok(false)` otherwise.
fn namespace_flag(
    ctx: &str,
    tok: &str,
    w: &mut Words<'_>,
    ns: &mut Option<String>,
    usage: &str,
) -> Result<bool, ParseError> {
    let value = match tok {
        "-n" | "--namespace" => match w.next_bare() {
            Some(v) => v.to_string(),
            None => return Err(err(ctx, Problem::NeedsNamespace { option: tok.to_string() }, usage)),
        },
        t => match t.strip_prefix("--namespace=").or_else(|| t.strip_prefix("-n=")) {
            Some(v) => v.to_string(),
            None => return Ok(false),
        },
    };
    if ns.is_some() {
        return Err(err(ctx, Problem::NamespaceTwice, usage));
    }
    check_name(ctx, Part::Namespace, &value, usage)?;
    *ns = Some(value);
    Ok(true)
}

fn parse_get(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl get";
    let resource = resource(ctx, w, U_GET)?;
    let (mut name, mut namespace, mut chunk_size) = (None, None, None);
    let (mut watch, mut output_watch_events) = (false, false);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_GET)? {
            continue;
        }
        if let Some(n) = tok.strip_prefix("--chunk-size=") {
            let n: i64 = n
                .parse()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| err(ctx, Problem::ChunkSize { got: n.to_string() }, U_GET))?;
            chunk_size = Some(n);
            continue;
        }
        match tok {
            "-w" | "--watch" => watch = true,
            "--output-watch-events" => output_watch_events = true,
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_GET));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_GET)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: true }, U_GET)),
        }
    }
    Ok(KubectlCommand::Get { resource, name, namespace, chunk_size, watch, output_watch_events })
}

fn parse_create(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl create";
    match w.next_bare() {
        Some("configmap" | "cm") => {}
        Some(other) => {
            return Err(err(ctx, Problem::OnlyConfigmap { got: other.to_string() }, U_CREATE));
        }
        None => return Err(ParseError::missing(ctx, Part::ConfigmapWord, U_CREATE)),
    }
    let (mut name, mut namespace, mut literals) = (None, None, Vec::new());
    while let Some(token) = w.next_token().map_err(|e| e.at(ctx))? {
        let tok = token.text.as_str();
        if token.quoted && !tok.starts_with("--from-literal=") {
            return Err(err(ctx, Problem::UnexpectedQuoted { got: tok.to_string() }, U_CREATE));
        }
        if namespace_flag(ctx, tok, w, &mut namespace, U_CREATE)? {
            continue;
        }
        if let Some(kv) = tok.strip_prefix("--from-literal=") {
            let Some((k, v)) = kv.split_once('=') else {
                return Err(err(ctx, Problem::FromLiteral { got: kv.to_string() }, U_CREATE));
            };
            literals.push((k.to_string(), v.to_string()));
            continue;
        }
        match tok {
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_CREATE));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_CREATE)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::Unexpected { got: t.to_string() }, U_CREATE)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_CREATE))?;
    Ok(KubectlCommand::CreateConfigMap { name, namespace, literals })
}

fn parse_delete(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl delete";
    let resource = resource(ctx, w, U_DELETE)?;
    let (mut name, mut namespace) = (None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_DELETE)? {
            continue;
        }
        match tok {
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_DELETE));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_DELETE)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: false }, U_DELETE)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_DELETE))?;
    Ok(KubectlCommand::Delete { resource, name, namespace })
}

fn parse_patch(w: &mut Words<'_>) -> Result<KubectlCommand, ParseError> {
    let ctx = "kubectl patch";
    let resource = resource(ctx, w, U_PATCH)?;
    let (mut name, mut namespace, mut patch_type, mut patch) = (None, None, None, None);
    while let Some(tok) = w.next_bare() {
        if namespace_flag(ctx, tok, w, &mut namespace, U_PATCH)? {
            continue;
        }
        if let Some(t) = tok.strip_prefix("--type=") {
            let ty = match t {
                "strategic" => PatchType::Strategic,
                "merge" => PatchType::Merge,
                "json" => PatchType::Json,
                _ => {
                    return Err(err(ctx, Problem::KubectlPatchType { got: t.to_string() }, U_PATCH));
                }
            };
            patch_type = Some(ty);
            continue;
        }
        match tok {
            "-p" | "--patch" => {
                // The patch is the rest of the line (JSON, possibly in shell-style '…').
                let rest = w.rest();
                let text = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).unwrap_or(rest);
                let v: Value = serde_json::from_str(text).map_err(|e| {
                    err(ctx, Problem::NotJson { what: JsonPart::Patch, detail: e.to_string() }, U_PATCH)
                })?;
                patch = Some(v);
                *w = Words::new("");
            }
            t if t.starts_with('-') => {
                return Err(err(ctx, Problem::UnknownFlag { got: t.to_string() }, U_PATCH));
            }
            t if name.is_none() => {
                check_name(ctx, Part::Name, t, U_PATCH)?;
                name = Some(t.to_string());
            }
            t => return Err(err(ctx, Problem::ExtraName { got: t.to_string(), at_most: false }, U_PATCH)),
        }
    }
    let name = name.ok_or_else(|| ParseError::missing(ctx, Part::Name, U_PATCH))?;
    let patch = patch.ok_or_else(|| ParseError::missing(ctx, Part::PatchFlag, U_PATCH))?;
    Ok(KubectlCommand::Patch { resource, name, namespace, patch_type, patch })
}

impl fmt::Display for KubectlCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = |f: &mut fmt::Formatter<'_>, n: &Option<String>| match n {
            Some(n) => write!(f, " -n {n}"),
            None => Ok(()),
        };
        match self {
            KubectlCommand::Get { resource, name, namespace, chunk_size, watch, output_watch_events } => {
                write!(f, "kubectl get {}", resource.plural())?;
                if let Some(n) = name {
                    write!(f, " {n}")?;
                }
                ns(f, namespace)?;
                if let Some(c) = chunk_size {
                    write!(f, " --chunk-size={c}")?;
                }
                if *watch {
                    f.write_str(" -w")?;
                }
                if *output_watch_events {
                    f.write_str(" --output-watch-events")?;
                }
                Ok(())
            }
            KubectlCommand::CreateConfigMap { name, namespace, literals } => {
                write!(f, "kubectl create configmap {name}")?;
                ns(f, namespace)?;
                for (k, v) in literals {
                    write!(f, " {}", word(&format!("--from-literal={k}={v}")))?;
                }
                Ok(())
            }
            KubectlCommand::Delete { resource, name, namespace } => {
                write!(f, "kubectl delete {} {name}", resource.plural())?;
                ns(f, namespace)
            }
            KubectlCommand::Patch { resource, name, namespace, patch_type, patch } => {
                write!(f, "kubectl patch {} {name}", resource.plural())?;
                ns(f, namespace)?;
                if let Some(t) = patch_type {
                    write!(f, " --type={}", t.word())?;
                }
                write!(f, " -p {patch}")
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The requests a line becomes.

/// One request kubectl sends.
#[derive(Debug, Clone, PartialEq)]
pub struct KubectlRequest {
    pub method: &'static str,
    pub target: String,
    pub body: Option<Value>,
    /// The Content-Type of a PATCH.
    pub patch_type: Option<PatchType>,
    /// A check after the command's own request (`delete`'s `--wait` GET): the line's result is
    /// the request before it.
    pub follow_up: bool,
}

impl KubectlRequest {
    fn get(target: String) -> Self {
        KubectlRequest { method: "GET", target, body: None, patch_type: None, follow_up: false }
    }
    /// The request as a script line (`PATCH <path> type=json <body>` for a non-merge patch).
    pub fn line(&self) -> String {
        let mut s = format!("{} {}", self.method, self.target);
        if let Some(t) = self.patch_type
            && t != PatchType::Merge
        {
            s.push_str(&format!(" type={}", t.word()));
        }
        if let Some(b) = &self.body {
            s.push(' ');
            s.push_str(&b.to_string());
        }
        s
    }
    pub fn is_watch(&self) -> bool {
        self.target.ends_with("watch=true")
    }
}

/// Go's `url.QueryEscape` for a query value.
fn query_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(b)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// What the previous request of the line answered.
pub struct Answer<'a> {
    pub code: u16,
    pub body: &'a Value,
}

/// Walks a line's requests: each one may depend on the answer to the one before (the next
/// page's `continue`, the list's resourceVersion). `next` returns `None` when kubectl is done.
#[derive(Debug, Clone)]
pub struct Plan {
    cmd: KubectlCommand,
    sent: usize,
    /// A watch was sent: it is kubectl's last request.
    watching: bool,
}

impl Plan {
    pub fn new(cmd: KubectlCommand) -> Self {
        Plan { cmd, sent: 0, watching: false }
    }

    fn collection(resource: KubectlResource, namespace: &Option<String>) -> String {
        format!("/api/v1/namespaces/{}/{}", namespace.as_deref().unwrap_or("default"), resource.plural())
    }

    /// The next request, given the answer to the previous one (`None` before the first).
    pub fn next(&mut self, last: Option<Answer<'_>>) -> Option<KubectlRequest> {
        if self.watching {
            return None;
        }
        let n = self.sent;
        let req = self.step(n, last)?;
        self.sent += 1;
        self.watching = req.is_watch();
        Some(req)
    }

    fn step(&self, n: usize, last: Option<Answer<'_>>) -> Option<KubectlRequest> {
        // kubectl stops at the first error.
        if let Some(a) = &last
            && !(200..300).contains(&a.code)
            && !matches!(self.cmd, KubectlCommand::Delete { .. })
        {
            return None;
        }
        match &self.cmd {
            KubectlCommand::Get { resource, name: Some(name), namespace, watch, .. } => {
                let coll = Self::collection(*resource, namespace);
                match n {
                    0 => Some(KubectlRequest::get(format!("{coll}/{name}"))),
                    1 if *watch => Some(KubectlRequest::get(format!(
                        "{coll}?fieldSelector={}&resourceVersion=0&watch=true",
                        query_escape(&format!("metadata.name={name}"))
                    ))),
                    _ => None,
                }
            }
            KubectlCommand::Get { resource, name: None, namespace, chunk_size, watch, .. } => {
                let coll = Self::collection(*resource, namespace);
                let limit = chunk_size.unwrap_or(500);
                let page = |cont: Option<&str>| {
                    let mut q = Vec::new();
                    if let Some(c) = cont {
                        q.push(format!("continue={}", query_escape(c)));
                    }
                    if limit > 0 {
                        q.push(format!("limit={limit}"));
                    }
                    if q.is_empty() { coll.clone() } else { format!("{coll}?{}", q.join("&")) }
                };
                let Some(a) = last else {
                    return Some(KubectlRequest::get(page(None)));
                };
                let meta = a.body.get("metadata");
                let cont =
                    meta.and_then(|m| m.get("continue")).and_then(Value::as_str).filter(|c| !c.is_empty());
                if let Some(c) = cont {
                    return Some(KubectlRequest::get(page(Some(c))));
                }
                if !*watch {
                    return None;
                }
                let rv = meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or("");
                Some(KubectlRequest::get(format!("{coll}?resourceVersion={}&watch=true", query_escape(rv))))
            }
            KubectlCommand::CreateConfigMap { name, namespace, literals } => (n == 0).then(|| {
                let mut obj = Map::new();
                obj.insert("kind".into(), json!("ConfigMap"));
                obj.insert("apiVersion".into(), json!("v1"));
                obj.insert("metadata".into(), json!({"name": name, "creationTimestamp": null}));
                if !literals.is_empty() {
                    let mut data: Vec<&(String, String)> = literals.iter().collect();
                    data.sort();
                    let data: Map<String, Value> =
                        data.into_iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
                    obj.insert("data".into(), Value::Object(data));
                }
                KubectlRequest {
                    method: "POST",
                    target: format!(
                        "{}?fieldManager=kubectl-create&fieldValidation=Strict",
                        Self::collection(KubectlResource::ConfigMaps, namespace)
                    ),
                    body: Some(Value::Object(obj)),
                    patch_type: None,
                    follow_up: false,
                }
            }),
            KubectlCommand::Delete { resource, name, namespace } => {
                let target = format!("{}/{name}", Self::collection(*resource, namespace));
                match (n, last) {
                    (0, _) => Some(KubectlRequest {
                        method: "DELETE",
                        target,
                        body: Some(json!({"propagationPolicy": "Background"})),
                        patch_type: None,
                        follow_up: false,
                    }),
                    // --wait: only after a successful delete.
                    (1, Some(a)) if (200..300).contains(&a.code) => {
                        Some(KubectlRequest { follow_up: true, ..KubectlRequest::get(target) })
                    }
                    _ => None,
                }
            }
            KubectlCommand::Patch { resource, name, namespace, patch_type, patch } => {
                let target = format!("{}/{name}", Self::collection(*resource, namespace));
                match n {
                    0 => Some(KubectlRequest::get(target)),
                    1 => Some(KubectlRequest {
                        method: "PATCH",
                        target: format!("{target}?fieldManager=kubectl-patch"),
                        body: Some(patch.clone()),
                        patch_type: Some(patch_type.unwrap_or(PatchType::Strategic)),
                        follow_up: false,
                    }),
                    _ => None,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_any(line: &str) -> Result<KubectlCommand, ParseError> {
        parse(&mut Words::new(line.strip_prefix("kubectl ").unwrap_or(line)))
    }

    fn plan(line: &str) -> Plan {
        Plan::new(parse_any(line).unwrap())
    }

    /// The request lines kubectl 1.32.4 sent (`-v=8`), for each form.
    #[test]
    fn get_pages_then_watches_from_the_list_rv() {
        let mut p = plan("kubectl get cm --chunk-size=1 -w");
        assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps?limit=1");
        let page1 =
            json!({"kind": "ConfigMapList", "metadata": {"resourceVersion": "3", "continue": "abc="}});
        assert_eq!(
            p.next(Some(Answer { code: 200, body: &page1 })).unwrap().line(),
            "GET /api/v1/namespaces/default/configmaps?continue=abc%3D&limit=1"
        );
        let page2 = json!({"kind": "ConfigMapList", "metadata": {"resourceVersion": "3"}});
        let w = p.next(Some(Answer { code: 200, body: &page2 })).unwrap();
        assert_eq!(w.line(), "GET /api/v1/namespaces/default/configmaps?resourceVersion=3&watch=true");
        assert!(w.is_watch());
        assert!(p.next(Some(Answer { code: 200, body: &json!({}) })).is_none());

        let mut p = plan("kubectl get pods -n kube-system");
        assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/kube-system/pods?limit=500");
        assert!(
            p.next(Some(Answer { code: 200, body: &json!({"kind": "PodList", "metadata": {}}) })).is_none()
        );

        let mut p = plan("kubectl get configmap a -w --output-watch-events");
        assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps/a");
        let obj = json!({"kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "2"}});
        assert_eq!(
            p.next(Some(Answer { code: 200, body: &obj })).unwrap().line(),
            "GET /api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Da&resourceVersion=0&watch=true"
        );
        let mut p = plan("kubectl get configmap a -w");
        p.next(None);
        assert!(
            p.next(Some(Answer { code: 404, body: &json!({"kind": "Status"}) })).is_none(),
            "stops on error"
        );
    }

    #[test]
    fn create_delete_patch_send_what_kubectl_sends() {
        let mut p = plan("kubectl create configmap a --from-literal=k=v --from-literal=a=1");
        let r = p.next(None).unwrap();
        assert_eq!(
            r.line(),
            "POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict \
             {\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"a\",\"creationTimestamp\":null},\"data\":{\"a\":\"1\",\"k\":\"v\"}}"
        );
        let mut p = plan("kubectl delete cm a");
        assert_eq!(
            p.next(None).unwrap().line(),
            "DELETE /api/v1/namespaces/default/configmaps/a {\"propagationPolicy\":\"Background\"}"
        );
        assert_eq!(
            p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap().line(),
            "GET /api/v1/namespaces/default/configmaps/a"
        );
        let mut p = plan("kubectl delete cm a");
        p.next(None);
        assert!(p.next(Some(Answer { code: 404, body: &json!({}) })).is_none());
        let mut p = plan("kubectl patch cm a -p {\"data\":{\"x\":\"1\"}}");
        assert_eq!(p.next(None).unwrap().line(), "GET /api/v1/namespaces/default/configmaps/a");
        let r = p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap();
        assert_eq!(r.patch_type, Some(PatchType::Strategic));
        assert_eq!(
            r.line(),
            "PATCH /api/v1/namespaces/default/configmaps/a?fieldManager=kubectl-patch type=strategic {\"data\":{\"x\":\"1\"}}"
        );
        let mut p = plan("kubectl patch cm a --type=json -p '[{\"op\":\"remove\",\"path\":\"/data/x\"}]'");
        p.next(None);
        let r = p.next(Some(Answer { code: 200, body: &json!({}) })).unwrap();
        assert_eq!(r.patch_type, Some(PatchType::Json));
    }

    #[test]
    fn parse_errors_say_what_is_expected() {
        let e = |l: &str| parse_any(l).unwrap_err().to_string();
        assert!(e("get secrets").contains("unknown resource \"secrets\""));
        assert!(e("get cm --chunk-size=-1").contains("--chunk-size takes a number"));
        assert!(e("create secret a").contains("can only create a configmap"));
        assert!(e("delete cm").contains("missing name"));
        assert!(e("patch cm a --type=apply -p {}").contains("--type must be one of"));
        assert!(e("patch cm a -p {").contains("not valid JSON"));
        assert!(e("get cm a/b").contains("cannot be used in a URL path"));
        assert!(e("frobnicate").contains("unknown command"));
    }

    #[test]
    fn display_reads_back() {
        for l in [
            "get configmaps",
            "get pods a -n ns --chunk-size=0 -w --output-watch-events",
            "create configmap a -n x --from-literal=k=v \"--from-literal=a=b c\"",
            "delete pods p -n ns",
            "patch configmaps a --type=json -p [{\"op\":\"remove\",\"path\":\"/data/x\"}]",
            "patch configmaps a -p {\"data\":{\"k\":\"v\"}}",
        ] {
            let c = parse_any(l).unwrap();
            let shown = c.to_string();
            let again = parse_any(&shown).unwrap();
            assert_eq!(c, again, "{l} → {shown}");
        }
    }
}
