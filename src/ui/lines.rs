//! The one place that turns UI actions into script lines, and the session's typed answers into
//! what the panels list (status texts, continue tokens, revisions seen, a watch's frames). Pure functions only: the components call these, and `tests/web/` tests them
//! directly.

use serde_json::{Value, json};

use super::model::Entry;
use crate::apiserver::continue_token::ContinueToken;
use crate::apiserver::watch::FrameType;
use crate::script::reply::{At, Body, EventFacts, EventsReply, ObjectFacts, Reply, object_json};
use crate::script::why::OutputWhy;

/// The request builder's verbs: the apiserver's own (its `ALL` is what the builder offers).
pub use crate::apiserver::verb::Verb;

/// The resource types the builder offers.
pub const RESOURCES: [&str; 2] = ["pods", "configmaps"];

/// Everything the request builder form holds. Every field is free text: invalid combinations
/// are allowed on purpose, because the server's 400/422 is the lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestSpec {
    pub verb: Verb,
    pub resource: String,
    /// Empty = all namespaces.
    pub namespace: String,
    pub name: String,
    /// Empty = unset.
    pub resource_version: String,
    /// Empty = unset; "Exact" / "NotOlderThan".
    pub rv_match: String,
    pub limit: String,
    pub continue_token: String,
    pub label_selector: String,
    pub allow_bookmarks: bool,
    /// Empty = unset; "true" / "false".
    pub send_initial_events: String,
    pub timeout_seconds: String,
    /// The object for create/update, as the user typed it.
    pub body: String,
}

impl Default for RequestSpec {
    fn default() -> Self {
        RequestSpec {
            verb: Verb::List,
            resource: "pods".into(),
            namespace: "default".into(),
            name: String::new(),
            resource_version: String::new(),
            rv_match: String::new(),
            limit: String::new(),
            continue_token: String::new(),
            label_selector: String::new(),
            allow_bookmarks: false,
            send_initial_events: String::new(),
            timeout_seconds: String::new(),
            body: String::new(),
        }
    }
}

/// Percent-encodes a query value the way Go's `url.QueryEscape` does (space as `%20` here, so the
/// line stays one token).
pub fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The line one tick of Play appends at `secs` simulated seconds per tick.
pub fn tick_line(secs: u64) -> String {
    format!("advance {secs}s")
}

/// The line that reads every key the apiserver stores (`etcd get /registry/ --prefix`).
pub fn etcd_read_all() -> String {
    format!("etcd get {} --prefix", crate::apiserver::resource::KEY_PREFIX)
}

/// The path (with query) of a request, e.g. `/api/v1/namespaces/default/pods?limit=2`.
pub fn request_path(spec: &RequestSpec) -> String {
    let resource = if spec.resource.trim().is_empty() { "pods" } else { spec.resource.trim() };
    let ns = spec.namespace.trim();
    let mut path = if ns.is_empty() {
        format!("/api/v1/{resource}")
    } else {
        format!("/api/v1/namespaces/{ns}/{resource}")
    };
    if spec.verb.names_object() {
        path.push('/');
        path.push_str(spec.name.trim());
    }
    let mut q: Vec<String> = Vec::new();
    if spec.verb == Verb::Watch {
        q.push("watch=true".into());
    }
    if spec.verb.is_read() {
        fn add(q: &mut Vec<String>, k: &str, v: &str) {
            let v = v.trim();
            if !v.is_empty() {
                q.push(format!("{k}={}", query_escape(v)));
            }
        }
        add(&mut q, "resourceVersion", &spec.resource_version);
        add(&mut q, "resourceVersionMatch", &spec.rv_match);
        if spec.verb.is_collection_read() {
            add(&mut q, "limit", &spec.limit);
            add(&mut q, "continue", &spec.continue_token);
            add(&mut q, "labelSelector", &spec.label_selector);
        }
        if spec.verb == Verb::Watch {
            if spec.allow_bookmarks {
                q.push("allowWatchBookmarks=true".into());
            }
            add(&mut q, "sendInitialEvents", &spec.send_initial_events);
            add(&mut q, "timeoutSeconds", &spec.timeout_seconds);
        }
    }
    if !q.is_empty() {
        path.push('?');
        path.push_str(&q.join("&"));
    }
    path
}

/// The body as it goes on the script line: compact JSON when it parses, otherwise the text with
/// its line breaks folded (the server's 400 is then the answer).
pub fn compact_body(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(v) => v.to_string(),
        Err(_) => body.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// The script line for a request, e.g. `GET /api/v1/namespaces/default/pods?limit=2`.
pub fn request_line(spec: &RequestSpec) -> String {
    let mut line = format!("{} {}", spec.verb.method(), request_path(spec));
    if spec.verb.has_body() {
        let body = compact_body(&spec.body);
        if !body.is_empty() {
            line.push(' ');
            line.push_str(&body);
        }
    }
    line
}

/// Quotes for a POSIX shell, in single quotes.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The equivalent kubectl command line.
pub fn kubectl_line(spec: &RequestSpec) -> String {
    let path = request_path(spec);
    match spec.verb {
        Verb::Get | Verb::List => format!("kubectl get --raw {}", shell_quote(&path)),
        Verb::Watch => format!("kubectl get --raw {}  # streams until timeout", shell_quote(&path)),
        Verb::Create => {
            format!(
                "kubectl create --raw {} -f - <<'EOF'\n{}\nEOF",
                shell_quote(&path),
                compact_body(&spec.body)
            )
        }
        Verb::Update => {
            format!(
                "kubectl replace --raw {} -f - <<'EOF'\n{}\nEOF",
                shell_quote(&path),
                compact_body(&spec.body)
            )
        }
        Verb::Delete | Verb::DeleteCollection => format!("kubectl delete --raw {}", shell_quote(&path)),
        // kubectl has no raw PATCH; the builder does not offer it (Verb::ALL), script lines do.
        Verb::Patch => format!("# kubectl has no --raw PATCH for {}", shell_quote(&path)),
    }
}

/// A new object of `resource` to start the body editor from.
pub fn body_template(resource: &str, namespace: &str, name: &str) -> String {
    let name = if name.trim().is_empty() { "a" } else { name.trim() };
    let mut meta = serde_json::Map::new();
    meta.insert("name".into(), Value::String(name.into()));
    if !namespace.trim().is_empty() {
        meta.insert("namespace".into(), Value::String(namespace.trim().into()));
    }
    let v = if resource == "configmaps" {
        serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": {"key": "value"}})
    } else {
        serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"containers": [{"name": "app", "image": "nginx"}]}})
    };
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// An update of `name` that changes something (a `touched` label), so it writes a revision;
/// no resourceVersion, so it is unconditional.
pub fn touch_line(resource: &str, namespace: &str, name: &str, mark: u64) -> String {
    let mut v: Value = serde_json::from_str(&body_template(resource, namespace, name)).unwrap_or(Value::Null);
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("labels".into(), serde_json::json!({ "touched": mark.to_string() }));
    }
    format!("PUT /api/v1/namespaces/{namespace}/{resource}/{name} {v}")
}

/// Deletes `name`.
pub fn delete_line(resource: &str, namespace: &str, name: &str) -> String {
    format!("DELETE /api/v1/namespaces/{namespace}/{resource}/{name}")
}

/// Kind name of a resource, as objects carry it.
pub fn kind_of(resource: &str) -> &'static str {
    if resource == "configmaps" { "ConfigMap" } else { "Pod" }
}

/// One compact create line for the "create N objects" control.
pub fn create_line(resource: &str, namespace: &str, name: &str) -> String {
    let mut spec = RequestSpec {
        verb: Verb::Create,
        resource: resource.into(),
        namespace: namespace.into(),
        ..RequestSpec::default()
    };
    spec.body = body_template(resource, namespace, name);
    request_line(&spec)
}

pub use crate::script::reply::{status_line, status_text};

/// Whether a line is an error of any kind: it did not run (`failed`), or its answer is a Status
/// failure, etcd's error or a client's.
pub fn is_error(reply: &Reply, failed: bool) -> bool {
    failed || reply.is_error()
}

/// Decodes a continue token with the apiserver's own decoder (`storage.DecodeContinue`), e.g.
/// into `{"v":"meta.k8s.io/v1","rv":4,"start":"a\u0000"}`, so the viewer agrees with the server
/// on every input. The error is the server's own message for that token
/// (`invalid continue token: …`).
pub fn decode_continue(token: &str) -> Result<Value, String> {
    ContinueToken::decode(token)
        .map(|t| json!({"v": crate::apiserver::continue_token::TOKEN_VERSION, "rv": t.rv, "start": t.start}))
        .map_err(|e| format!("invalid continue token: {e}"))
}

/// A one-line summary of a decoded token: `rv 4, start "a\u0000"`.
pub fn describe_token(token: &str) -> String {
    match ContinueToken::decode(token) {
        Ok(t) => format!("rv {}, start {}", t.rv, Value::String(t.start)),
        Err(e) => format!("invalid continue token: {e}"),
    }
}

fn push_revision(out: &mut std::collections::BTreeSet<u64>, rev: Option<i64>) {
    if let Some(n) = rev.and_then(|r| u64::try_from(r).ok())
        && n > 0
    {
        out.insert(n);
    }
}

/// Every revision / resourceVersion that appears in the answers, newest first.
pub fn revisions_seen<'a>(replies: impl IntoIterator<Item = &'a Reply>) -> Vec<u64> {
    let mut seen = Seen::default();
    replies.into_iter().for_each(|r| seen.push_reply(r));
    seen.revisions().collect()
}

/// Every continue token in the answers, newest first, no repeats.
pub fn tokens_seen<'a>(replies: impl IntoIterator<Item = &'a Reply>) -> Vec<String> {
    let mut seen = Seen::default();
    replies.into_iter().for_each(|r| seen.push_reply(r));
    seen.tokens().map(str::to_string).collect()
}

/// The newest object named `name` (of `kind`, and in `namespace` when given) in the answers
/// (each output with its typed reply): from a single-object body, a list's items or a watch
/// event; its JSON as answered (with `apiVersion` and `kind` added to a list's item).
pub fn latest_object<'a>(
    answers: impl DoubleEndedIterator<Item = (&'a Value, &'a Reply)>,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Option<Value> {
    let matches = |o: &ObjectFacts, kind_hint: Option<&str>| -> bool {
        o.kind.as_deref().or(kind_hint) == Some(kind)
            && o.name.as_deref() == Some(name)
            && (namespace.is_empty() || o.namespace.as_deref().unwrap_or(namespace) == namespace)
    };
    for (out, reply) in answers.rev() {
        let found = match reply {
            Reply::Events(e) => e
                .events
                .iter()
                .enumerate()
                .rev()
                .find(|(_, ev)| ev.kind != FrameType::Deleted && matches(&ev.object, None))
                .map(|(i, _)| (At::Event(i), None)),
            Reply::Api(a) => match &a.body {
                Body::Object(o) if matches(o, None) => Some((At::Body, None)),
                Body::List(l) => l
                    .items
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, o)| matches(o, l.item_kind()))
                    .map(|(i, o)| (At::Item(i), l.item_kind().filter(|_| o.kind.is_none()))),
                Body::Object(_) | Body::Status(_) | Body::None => None,
            },
            Reply::Etcd(_) | Reply::ClientError(_) | Reply::Other => None,
        };
        let Some((at, add_kind)) = found else { continue };
        let o = object_json(out, at)?.clone();
        return Some(match (add_kind, o) {
            (Some(k), Value::Object(map)) => {
                let mut m = serde_json::Map::new();
                m.insert("apiVersion".into(), Value::String("v1".into()));
                m.insert("kind".into(), Value::String(k.into()));
                m.extend(map);
                Value::Object(m)
            }
            (_, o) => o,
        });
    }
    None
}

/// A watch frame as the watches panel lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub kind: FrameType,
    pub name: String,
    pub rv: String,
    /// For ERROR frames: the Status code and reason.
    pub detail: String,
    /// The decision of the output that opened the watch, when known.
    pub watch_why: Option<OutputWhy>,
    /// For the frames of an `events` line whose stream ended: why it ended.
    pub ended_why: Option<OutputWhy>,
}

pub fn frame_of(ev: &EventFacts) -> Frame {
    let detail = match &ev.error {
        Some(s) => {
            let code = s.code.map(|c| c.to_string()).unwrap_or_default();
            format!("{code} {}", s.reason).trim().to_string()
        }
        None => String::new(),
    };
    let o = &ev.object;
    Frame {
        kind: ev.kind,
        name: o.name.clone().unwrap_or_default(),
        rv: o.resource_version.clone().unwrap_or_default(),
        detail,
        watch_why: None,
        ended_why: None,
    }
}

/// The frames of one `events` line, each with the decisions behind it: `watch_why` from the
/// output that opened the watch, `ended` (why the stream ended) when it ended.
pub fn frames_of(
    events: &EventsReply,
    ended: Option<&OutputWhy>,
    watch_why: Option<&OutputWhy>,
) -> Vec<Frame> {
    let ended = ended.filter(|_| events.closed);
    events
        .events
        .iter()
        .map(|ev| Frame { watch_why: watch_why.cloned(), ended_why: ended.cloned(), ..frame_of(ev) })
        .collect()
}

/// What the panels read from a log's answers (the revisions and continue tokens seen), folded
/// one entry at a time: a sandbox keeps it up to date as
/// lines run, instead of reading the whole log again at every render.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    /// How many entries were folded.
    pub len: usize,
    rvs: std::collections::BTreeSet<u64>,
    /// Continue tokens, oldest first, no repeats.
    tokens: Vec<String>,
}

impl Seen {
    /// The fold of these entries.
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Seen {
        let mut seen = Seen::default();
        for e in entries {
            seen.push(e);
        }
        seen
    }

    /// Folds the next entry's answer.
    pub fn push(&mut self, e: &Entry) {
        self.len += 1;
        if e.out.is_none() {
            return;
        }
        self.push_reply(&e.reply);
    }

    /// The revisions and continue token of one answer.
    fn push_reply(&mut self, reply: &Reply) {
        let rvs = &mut self.rvs;
        match reply {
            Reply::Api(a) => {
                match &a.body {
                    Body::List(l) => {
                        push_revision(rvs, l.revision);
                        for it in &l.items {
                            push_revision(rvs, it.revision);
                        }
                    }
                    Body::Object(o) => push_revision(rvs, o.revision),
                    Body::Status(_) | Body::None => {}
                }
                if let Some(t) = a.body.continue_token() {
                    self.tokens.retain(|x| x != t);
                    self.tokens.push(t.to_string());
                }
            }
            Reply::Events(e) => {
                for ev in &e.events {
                    push_revision(rvs, ev.object.revision);
                }
            }
            Reply::Etcd(e) => {
                push_revision(rvs, e.revision);
                for kv in &e.kvs {
                    push_revision(rvs, Some(kv.mod_revision));
                    push_revision(rvs, Some(kv.create_revision));
                }
            }
            Reply::ClientError(_) | Reply::Other => {}
        }
    }

    /// Every revision / resourceVersion seen, newest first.
    pub fn revisions(&self) -> impl Iterator<Item = u64> + '_ {
        self.rvs.iter().rev().copied()
    }

    /// Every continue token seen, newest first, no repeats.
    pub fn tokens(&self) -> impl Iterator<Item = &str> + '_ {
        self.tokens.iter().rev().map(String::as_str)
    }
}

pub use crate::script::batch::split_script;

/// The next free `<prefix>-<n>` names for "create N objects": past every `<prefix>-<n>` named in
/// the answers so far (objects answered, list items, watch frames).
pub fn next_names<'a>(
    replies: impl IntoIterator<Item = &'a Reply>,
    prefix: &str,
    count: usize,
) -> Vec<String> {
    let mut n = 0usize;
    let mut see = |o: &ObjectFacts| {
        let k = o.name.as_deref().and_then(|name| name.strip_prefix(prefix)?.strip_prefix('-'));
        if let Some(k) = k.and_then(|d| d.parse::<usize>().ok()) {
            n = n.max(k);
        }
    };
    for reply in replies {
        match reply {
            Reply::Api(a) => match &a.body {
                Body::Object(o) => see(o),
                Body::List(l) => l.items.iter().for_each(&mut see),
                Body::Status(_) | Body::None => {}
            },
            Reply::Events(e) => e.events.iter().for_each(|ev| see(&ev.object)),
            Reply::Etcd(_) | Reply::ClientError(_) | Reply::Other => {}
        }
    }
    (1..=count).map(|i| format!("{prefix}-{}", n + i)).collect()
}
