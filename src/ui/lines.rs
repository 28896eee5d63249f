//! The one place that turns UI actions into script lines, and reads the JSON output objects
//! back (status texts, continue tokens, revisions seen, watches). Pure functions only: the
//! components call these, and `tests/web/` tests them directly.

use serde_json::{Value, json};

use crate::apiserver::continue_token::ContinueToken;
use crate::apiserver::request::Query;
use crate::script::parse::{Command, parse_line};

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

/// The standard text of an HTTP status code.
pub fn status_text(code: u64) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// The status line of an API output, e.g. `410 Gone — Expired`; None for other outputs.
pub fn status_line(out: &Value) -> Option<String> {
    let code = out.get("code")?.as_u64()?;
    let mut s = format!("{code} {}", status_text(code)).trim_end().to_string();
    if let Some(reason) = out.pointer("/body/reason").and_then(Value::as_str)
        && out.pointer("/body/kind").and_then(Value::as_str) == Some("Status")
        && !reason.is_empty()
    {
        s.push_str(" — ");
        s.push_str(reason);
    }
    Some(s)
}

/// Whether an output is an error of any kind (parse error, Status failure, etcd error).
pub fn is_error(out: &Value) -> bool {
    if out.get("error").is_some() {
        return true;
    }
    if let Some(code) = out.get("code").and_then(Value::as_u64) {
        return code >= 400;
    }
    false
}

/// Decodes a continue token with the apiserver's own decoder (`storage.DecodeContinue`), e.g.
/// into `{"v":"meta.k8s.io/v1","rv":4,"start":"a\u0000"}`, so the viewer agrees with the server
/// on every input. The error is the server's own message for that token
/// (`invalid continue token: …`).
pub fn decode_continue(token: &str) -> Result<Value, String> {
    match ContinueToken::decode(token) {
        Ok(t) => {
            Ok(json!({"v": crate::apiserver::continue_token::TOKEN_VERSION, "rv": t.rv, "start": t.start}))
        }
        Err(e) => Err(format!("invalid continue token: {e}")),
    }
}

/// A one-line summary of a decoded token: `rv 4, start "a\u0000"`.
pub fn describe_token(token: &str) -> String {
    match decode_continue(token) {
        Ok(v) => {
            let rv = v.get("rv").map(|r| r.to_string()).unwrap_or_else(|| "?".into());
            let start = v.get("start").map(|s| s.to_string()).unwrap_or_else(|| "?".into());
            format!("rv {rv}, start {start}")
        }
        Err(e) => e,
    }
}

fn push_rv(out: &mut std::collections::BTreeSet<u64>, v: Option<&Value>) {
    let n = match v {
        Some(Value::String(s)) => s.parse::<u64>().ok(),
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    };
    if let Some(n) = n
        && n > 0
    {
        out.insert(n);
    }
}

fn object_rvs(out: &mut std::collections::BTreeSet<u64>, obj: &Value) {
    push_rv(out, obj.pointer("/metadata/resourceVersion"));
    if let Some(items) = obj.get("items").and_then(Value::as_array) {
        for it in items {
            push_rv(out, it.pointer("/metadata/resourceVersion"));
        }
    }
}

/// Every revision / resourceVersion that appears in the outputs, newest first.
pub fn revisions_seen<'a>(outputs: impl IntoIterator<Item = &'a Value>) -> Vec<u64> {
    let mut seen = Seen::default();
    outputs.into_iter().for_each(|out| seen.push_output(out));
    seen.revisions().collect()
}

/// Every continue token in the outputs (`body.metadata.continue`), newest first, no repeats.
pub fn tokens_seen<'a>(outputs: impl IntoIterator<Item = &'a Value>) -> Vec<String> {
    let mut seen = Seen::default();
    outputs.into_iter().for_each(|out| seen.push_output(out));
    seen.tokens().map(str::to_string).collect()
}

/// The newest object named `name` (of `kind`, and in `namespace` when given) in the outputs:
/// from a single-object body, a list's items or a watch event.
pub fn latest_object<'a>(
    outputs: impl DoubleEndedIterator<Item = &'a Value>,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Option<Value> {
    let matches = |o: &Value, kind_hint: Option<&str>| -> bool {
        let k = o.get("kind").and_then(Value::as_str).or(kind_hint);
        k == Some(kind)
            && o.pointer("/metadata/name").and_then(Value::as_str) == Some(name)
            && (namespace.is_empty()
                || o.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or(namespace) == namespace)
    };
    for out in outputs.rev() {
        if let Some(events) = out.get("events").and_then(Value::as_array) {
            for ev in events.iter().rev() {
                if ev.get("type").and_then(Value::as_str) == Some("DELETED") {
                    continue;
                }
                if let Some(o) = ev.get("object")
                    && matches(o, None)
                {
                    return Some(o.clone());
                }
            }
        }
        let Some(body) = out.get("body") else { continue };
        if matches(body, None) {
            return Some(body.clone());
        }
        let item_kind = body.get("kind").and_then(Value::as_str).and_then(|k| k.strip_suffix("List"));
        if let Some(items) = body.get("items").and_then(Value::as_array)
            && let Some(o) = items.iter().rev().find(|o| matches(o, item_kind))
        {
            let mut o = o.clone();
            if o.get("kind").is_none()
                && let (Some(map), Some(k)) = (o.as_object_mut(), item_kind)
            {
                let mut m = serde_json::Map::new();
                m.insert("apiVersion".into(), Value::String("v1".into()));
                m.insert("kind".into(), Value::String(k.into()));
                m.extend(std::mem::take(map));
                *map = m;
            }
            return Some(o);
        }
    }
    None
}

/// A watch frame as the watches panel lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub kind: String,
    pub name: String,
    pub rv: String,
    /// For ERROR frames: the Status code and reason.
    pub detail: String,
    /// The `why` of the output that opened the watch (its decision), when known.
    pub watch_why: Option<Value>,
    /// For the frames of an `events` output whose stream ended: that output's `why`.
    pub ended_why: Option<Value>,
}

/// What the log says about one watch stream.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchInfo {
    pub id: String,
    /// Index (0-based, in the entries given) of the line that opened it.
    pub entry: usize,
    /// The request line that opened it.
    pub request: String,
    pub frames: Vec<Frame>,
    pub paused: bool,
    pub cancelled: bool,
    pub closed: bool,
    /// The `why` of the output that opened it.
    pub why: Option<Value>,
}

pub fn frame_of(ev: &Value) -> Frame {
    let o = ev.get("object").cloned().unwrap_or(Value::Null);
    let s = |p: &str| o.pointer(p).and_then(Value::as_str).unwrap_or("").to_string();
    let kind = ev.get("type").and_then(Value::as_str).unwrap_or("?").to_string();
    let detail = if kind == "ERROR" {
        let code = o.get("code").map(|c| c.to_string()).unwrap_or_default();
        format!("{code} {}", s("/reason")).trim().to_string()
    } else {
        String::new()
    };
    Frame {
        kind,
        name: s("/metadata/name"),
        rv: s("/metadata/resourceVersion"),
        detail,
        watch_why: None,
        ended_why: None,
    }
}

/// The frames of one `events` output, each with the decisions behind it: `watch_why` from the
/// output that opened the watch, `ended_why` from this output when its stream ended.
pub fn frames_of(events_out: &Value, watch_why: Option<&Value>) -> Vec<Frame> {
    let ended =
        events_out.get("why").filter(|_| events_out.get("closed").and_then(Value::as_bool) == Some(true));
    events_out
        .get("events")
        .and_then(Value::as_array)
        .map(|evs| {
            evs.iter()
                .map(|ev| Frame { watch_why: watch_why.cloned(), ended_why: ended.cloned(), ..frame_of(ev) })
                .collect()
        })
        .unwrap_or_default()
}

enum WatchCmd {
    Events,
    Pause,
    Resume,
    Cancel,
}

/// One log entry as [`Seen`] folds it: the script line, its output and the command the session
/// parsed it as.
pub type SeenEntry<'a> = (&'a str, Option<&'a Value>, Option<&'a Command>);

/// Every watch opened in the log, in order, with its frames and state.
pub fn watches<'a>(entries: impl IntoIterator<Item = SeenEntry<'a>>) -> Vec<WatchInfo> {
    Seen::of(entries).watches
}

/// What the panels read from a log's outputs (the revisions and continue tokens seen, the
/// watches and their frames), folded one entry at a time: a sandbox keeps it up to date as
/// lines run, instead of reading the whole log again at every render.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    /// How many entries were folded.
    pub len: usize,
    rvs: std::collections::BTreeSet<u64>,
    /// Continue tokens, oldest first, no repeats.
    tokens: Vec<String>,
    /// Every watch opened, in order (see [`watches`]).
    pub watches: Vec<WatchInfo>,
}

impl Seen {
    /// The fold of these (script line, output, parsed command) entries.
    pub fn of<'a>(entries: impl IntoIterator<Item = SeenEntry<'a>>) -> Seen {
        let mut seen = Seen::default();
        for (line, out, command) in entries {
            seen.push(line, out, command);
        }
        seen
    }

    /// Folds the next entry: its script line, its output (None for blank lines and comments)
    /// and the command the session parsed it as (None when it did not parse).
    pub fn push(&mut self, line: &str, out: Option<&Value>, command: Option<&Command>) {
        let i = self.len;
        self.len += 1;
        let Some(out) = out else { return };
        self.push_output(out);
        let ws = &mut self.watches;
        if let Some(id) = out.get("watch").and_then(Value::as_str) {
            ws.retain(|w| w.id != id);
            ws.push(WatchInfo {
                id: id.to_string(),
                entry: i,
                request: line.to_string(),
                frames: Vec::new(),
                paused: false,
                cancelled: false,
                closed: false,
                why: out.get("why").cloned(),
            });
            return;
        }
        // Only `events`, `pause`, `resume` and `cancel` change a watch: the session's parse of
        // the line says which it was.
        let (id, cmd) = match command {
            Some(Command::Events { watch }) => (watch.clone(), WatchCmd::Events),
            Some(Command::Pause(id)) => (id.clone(), WatchCmd::Pause),
            Some(Command::Resume(id)) => (id.clone(), WatchCmd::Resume),
            Some(Command::Cancel(id)) => (id.clone(), WatchCmd::Cancel),
            _ => return,
        };
        let Some(w) = ws.iter_mut().rev().find(|w| w.id == id) else { return };
        if out.get("events").is_some() {
            w.frames.extend(frames_of(out, w.why.as_ref()));
            if out.get("closed").and_then(Value::as_bool) == Some(true) {
                w.closed = true;
            }
            return;
        }
        if out.get("error").is_some() {
            return;
        }
        match cmd {
            WatchCmd::Pause => w.paused = true,
            WatchCmd::Resume => w.paused = false,
            WatchCmd::Cancel => w.cancelled = true,
            WatchCmd::Events => {}
        }
    }

    /// The revisions and continue token of one output.
    fn push_output(&mut self, out: &Value) {
        let rvs = &mut self.rvs;
        if let Some(body) = out.get("body") {
            object_rvs(rvs, body);
        }
        if let Some(events) = out.get("events").and_then(Value::as_array) {
            for ev in events {
                if let Some(o) = ev.get("object") {
                    object_rvs(rvs, o);
                }
            }
        }
        push_rv(rvs, out.pointer("/header/revision"));
        if let Some(kvs) = out.get("kvs").and_then(Value::as_array) {
            for kv in kvs {
                push_rv(rvs, kv.get("mod_revision"));
                push_rv(rvs, kv.get("create_revision"));
            }
        }
        if let Some(t) = out.pointer("/body/metadata/continue").and_then(Value::as_str)
            && !t.is_empty()
        {
            self.tokens.retain(|x| x != t);
            self.tokens.push(t.to_string());
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

/// Splits pasted or imported text into script lines (blank lines dropped, CRLF tolerated).
pub fn split_script(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').trim())
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The next free `<prefix>-<n>` names for "create N objects", given the log so far.
pub fn next_names(log: &[String], prefix: &str, count: usize) -> Vec<String> {
    let mut n = 0usize;
    let needle = format!("\"name\":\"{prefix}-");
    for line in log {
        let mut rest = line.as_str();
        while let Some(i) = rest.find(&needle) {
            rest = &rest[i + needle.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(k) = digits.parse::<usize>() {
                n = n.max(k);
            }
        }
    }
    (1..=count).map(|i| format!("{prefix}-{}", n + i)).collect()
}

/// The query parameter `key` of a request line, decoded as the apiserver decodes it (Go's
/// `url.ParseQuery`, first value). `None` for a line that is not a request.
pub fn query_param(line: &str, key: &str) -> Option<String> {
    let Ok(Command::Request { target, .. }) = parse_line(line) else {
        return None;
    };
    let (_, raw) = target.split_once('?')?;
    Query::parse(raw).first(key).map(str::to_string)
}

/// The resourceVersion a frame or object carries, as a number.
pub fn rv_number(s: &str) -> Option<i64> {
    s.trim().parse::<i64>().ok()
}
