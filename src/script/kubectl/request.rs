//! The requests a `kubectl` line becomes, one at a time: each may depend on the answer to the
//! one before (the next page's `continue`, the list's resourceVersion).

use serde_json::{Map, Value, json};

use super::{KubectlCommand, KubectlResource, OutputFormat, TABLE_ACCEPT};
use crate::apiserver::patch::PatchType;

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
    /// An `Accept` header other than the client's default ([`TABLE_ACCEPT`] for `get`'s tables).
    pub accept: Option<&'static str>,
}

impl KubectlRequest {
    fn get(target: String) -> Self {
        KubectlRequest { method: "GET", target, body: None, patch_type: None, follow_up: false, accept: None }
    }
    fn accepting(self, accept: Option<&'static str>) -> Self {
        KubectlRequest { accept, ..self }
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

/// `json.Marshal` of an `Unstructured`'s map: object keys sorted, at every depth.
fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted_keys(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
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

    /// The list/watch path: every namespace's with `-A` (the builder's `AllNamespaces(true)`
    /// empties the namespace, whatever `-n` said).
    fn list_path(resource: KubectlResource, namespace: &Option<String>, all: bool) -> String {
        if all { format!("/api/v1/{}", resource.plural()) } else { Self::collection(resource, namespace) }
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
            KubectlCommand::Get { resource, name: Some(name), namespace, watch, output, .. } => {
                let coll = Self::collection(*resource, namespace);
                let accept = OutputFormat::human_readable(*output).then_some(TABLE_ACCEPT);
                let req = match n {
                    0 => KubectlRequest::get(format!("{coll}/{name}")),
                    1 if *watch => KubectlRequest::get(format!(
                        "{coll}?fieldSelector={}&resourceVersion=0&watch=true",
                        query_escape(&format!("metadata.name={name}"))
                    )),
                    _ => return None,
                };
                Some(req.accepting(accept))
            }
            KubectlCommand::Get {
                resource,
                name: None,
                namespace,
                chunk_size,
                watch,
                all_namespaces,
                label_selector,
                field_selector,
                output,
                ..
            } => {
                let coll = Self::list_path(*resource, namespace, *all_namespaces);
                let accept = OutputFormat::human_readable(*output).then_some(TABLE_ACCEPT);
                let limit = chunk_size.unwrap_or(500);
                // `url.Values.Encode`: keys sorted.
                let query = |pairs: Vec<(&str, String)>| {
                    let mut pairs = pairs;
                    if let Some(f) = field_selector {
                        pairs.push(("fieldSelector", query_escape(f)));
                    }
                    if let Some(l) = label_selector {
                        pairs.push(("labelSelector", query_escape(l)));
                    }
                    pairs.sort_by(|a, b| a.0.cmp(b.0));
                    let q: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
                    if q.is_empty() { coll.clone() } else { format!("{coll}?{}", q.join("&")) }
                };
                let page = |cont: Option<&str>| {
                    let mut q = Vec::new();
                    if let Some(c) = cont {
                        q.push(("continue", query_escape(c)));
                    }
                    if limit > 0 {
                        q.push(("limit", limit.to_string()));
                    }
                    KubectlRequest::get(query(q)).accepting(accept)
                };
                let Some(a) = last else {
                    return Some(page(None));
                };
                let meta = a.body.get("metadata");
                let cont =
                    meta.and_then(|m| m.get("continue")).and_then(Value::as_str).filter(|c| !c.is_empty());
                if let Some(c) = cont {
                    return Some(page(Some(c)));
                }
                if !*watch {
                    return None;
                }
                // kubectl 1.32 `get.go` `watch`: one watch from the list's resourceVersion; what
                // ends it (an ERROR event such as 410 Expired, the server closing) ends kubectl —
                // `UntilWithoutRetry`'s error is discarded (`intr.Run(…)`, then `return nil`):
                // no relist, no retry, exit status 0.
                let rv = meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or("");
                let w = vec![("resourceVersion", query_escape(rv)), ("watch", "true".to_string())];
                Some(KubectlRequest::get(query(w)).accepting(accept))
            }
            KubectlCommand::GetRaw { uri } => (n == 0).then(|| KubectlRequest::get(uri.clone())),
            KubectlCommand::ApplyServerSide { resource, name, namespace, manifest, .. } => {
                (n == 0).then(|| {
                    let target = format!("{}/{name}", Self::collection(*resource, namespace));
                    let mut body = manifest.clone();
                    // cli-runtime `resource/visitor.go` `SetNamespace`: the object gets the namespace
                    // it goes to when it has none.
                    if let Some(m) = body.get_mut("metadata").and_then(Value::as_object_mut)
                        && m.get("namespace").and_then(Value::as_str).is_none_or(str::is_empty)
                    {
                        m.insert("namespace".into(), json!(namespace.as_deref().unwrap_or("default")));
                    }
                    KubectlRequest {
                        method: "PATCH",
                        // `apply.go` `applyOneObject` (server-side): `PatchOptions{Force: &false,
                        // FieldManager: "kubectl", FieldValidation: "Strict"}`, keys sorted.
                        target: format!("{target}?fieldManager=kubectl&fieldValidation=Strict&force=false"),
                        body: Some(sorted_keys(&body)),
                        patch_type: Some(PatchType::Apply),
                        follow_up: false,
                        accept: None,
                    }
                })
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
                    accept: None,
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
                        accept: None,
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
                        accept: None,
                    }),
                    _ => None,
                }
            }
        }
    }
}
