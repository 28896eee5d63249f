//! What one line's answer says, as typed facts ([`Reply`]): the HTTP code and Status reason of an
//! API answer, the watch it opened, a list's items, resourceVersion and continue token, the frames
//! an `events` line read, the keys an etcd read returned. The session builds a reply from the
//! same values it writes into the line's output, once, where it answers; the UI draws these
//! facts and never reads them back out of the output's JSON. No upstream counterpart.

use serde_json::Value;

use crate::apiserver::continue_token::ContinueToken;
use crate::apiserver::decision::EtcdOp;
use crate::apiserver::watch::FrameType;
use crate::store::KeyValue;

/// The facts of one line's answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Reply {
    /// An HTTP answer: a request line, a `kubectl` line's answer, a pager's list.
    Api(ApiReply),
    /// The frames one `events` line read.
    Events(EventsReply),
    /// An etcd operation (`etcd put|get|del|compact`, `compact <rev>`).
    Etcd(EtcdReply),
    /// A client that failed without an HTTP answer: the engine's English words.
    ClientError(String),
    /// A line with no facts the panels draw (a setting, `advance`, `expect`, an informer, a line
    /// that did not run: its [`super::LineFailure`] says why).
    #[default]
    Other,
}

impl Reply {
    /// The error an output carries in the engine's own words (etcd's, a client's), if any.
    pub fn error(&self) -> Option<&str> {
        match self {
            Reply::Etcd(e) => e.error.as_deref(),
            Reply::ClientError(e) => Some(e),
            Reply::Api(_) | Reply::Events(_) | Reply::Other => None,
        }
    }

    /// Whether the answer is an error: an HTTP code of 400 or more, etcd's or a client's error.
    pub fn is_error(&self) -> bool {
        match self {
            Reply::Api(a) => a.code >= 400,
            Reply::Etcd(_) | Reply::ClientError(_) | Reply::Events(_) | Reply::Other => {
                self.error().is_some()
            }
        }
    }

    /// The API answer, if this is one.
    pub fn api(&self) -> Option<&ApiReply> {
        match self {
            Reply::Api(a) => Some(a),
            _ => None,
        }
    }

    /// The frames read, if this is an `events` line's answer.
    pub fn events(&self) -> Option<&EventsReply> {
        match self {
            Reply::Events(e) => Some(e),
            _ => None,
        }
    }

    /// The etcd operation's answer, if this is one.
    pub fn etcd(&self) -> Option<&EtcdReply> {
        match self {
            Reply::Etcd(e) => Some(e),
            _ => None,
        }
    }
}

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiReply {
    pub code: u16,
    /// The watch the request opened (`w1`, …): its frames come with `events` lines.
    pub watch: Option<String>,
    /// The continue token the request sent (its `continue` parameter), as the apiserver decoded
    /// the query.
    pub continued: Option<String>,
    /// The response headers (`Retry-After`, …), in the order sent.
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

impl ApiReply {
    /// The answer with `code` and `body` (none for a watch); `continued` is the request's
    /// `continue` parameter.
    pub fn of(code: u16, body: Option<&Value>, watch: Option<String>, continued: Option<String>) -> ApiReply {
        ApiReply { code, watch, continued, headers: Vec::new(), body: body.map_or(Body::None, Body::of) }
    }

    /// The Status reason of an error answer (`Expired`, `NotFound`, …), when it has one.
    pub fn reason(&self) -> Option<&str> {
        match &self.body {
            Body::Status(s) => Some(s.reason.as_str()).filter(|r| !r.is_empty()),
            Body::List(_) | Body::Object(_) | Body::None => None,
        }
    }
}

/// What an answer's body is.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A `Status` (an error, or a delete's `Success`).
    Status(StatusFacts),
    /// A list (it has `items`).
    List(ListFacts),
    /// One object.
    Object(ObjectFacts),
    /// No body (a watch), or one that is not a JSON object.
    None,
}

impl Body {
    /// The continue token the body carries: a list's next page, or the one a 410 Expired
    /// Status offers.
    pub fn continue_token(&self) -> Option<&str> {
        match self {
            Body::List(l) => l.continue_token.as_deref(),
            Body::Status(s) => s.continue_token.as_deref(),
            Body::Object(_) | Body::None => None,
        }
    }

    /// The revision the body's continue token reads at, as the apiserver decodes it (≤ 0: the
    /// token reads at the latest revision); none when there is no token or it does not decode.
    pub fn continue_rv(&self) -> Option<i64> {
        match self {
            Body::List(l) => l.continue_rv,
            Body::Status(s) => s.continue_rv,
            Body::Object(_) | Body::None => None,
        }
    }

    fn of(v: &Value) -> Body {
        let Value::Object(_) = v else { return Body::None };
        let kind = text(v, "/kind");
        if kind.as_deref() == Some("Status") {
            return Body::Status(StatusFacts::of(v));
        }
        match v.pointer("/items") {
            Some(Value::Array(items)) => Body::List(ListFacts {
                kind,
                resource_version: text(v, "/metadata/resourceVersion"),
                revision: revision(v),
                continue_token: text(v, "/metadata/continue").filter(|t| !t.is_empty()),
                continue_rv: continue_rv(v),
                remaining_item_count: v.pointer("/metadata/remainingItemCount").and_then(Value::as_i64),
                items: items.iter().map(ObjectFacts::of).collect(),
            }),
            _ => Body::Object(ObjectFacts::of(v)),
        }
    }
}

/// A `Status`: its reason and code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusFacts {
    /// `"Failure"` or `"Success"`.
    pub status: String,
    /// Empty when the Status has none.
    pub reason: String,
    pub message: String,
    pub code: Option<i64>,
    /// `details.causes`: each field the request got wrong.
    pub causes: Vec<StatusCause>,
    /// The token a 410 Expired continue answer offers (never empty).
    pub continue_token: Option<String>,
    /// The revision that token reads at, as the apiserver decodes it.
    pub continue_rv: Option<i64>,
}

impl StatusFacts {
    fn of(v: &Value) -> StatusFacts {
        StatusFacts {
            status: text(v, "/status").unwrap_or_default(),
            reason: text(v, "/reason").unwrap_or_default(),
            message: text(v, "/message").unwrap_or_default(),
            code: v.pointer("/code").and_then(Value::as_i64),
            causes: match v.pointer("/details/causes") {
                Some(Value::Array(cs)) => cs
                    .iter()
                    .map(|c| StatusCause {
                        field: text(c, "/field").unwrap_or_default(),
                        message: text(c, "/message").unwrap_or_default(),
                        reason: text(c, "/reason").unwrap_or_default(),
                    })
                    .collect(),
                _ => Vec::new(),
            },
            continue_token: text(v, "/metadata/continue").filter(|t| !t.is_empty()),
            continue_rv: continue_rv(v),
        }
    }
}

/// One cause of a `Status` (`details.causes[]`); empty strings for what it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCause {
    pub field: String,
    pub message: String,
    pub reason: String,
}

impl StatusFacts {
    /// Whether it reports a failure (not a delete's `Success`).
    pub fn is_failure(&self) -> bool {
        self.status == "Failure"
    }
}

/// A list's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ListFacts {
    /// `PodList`, …; a pager's list has none.
    pub kind: Option<String>,
    /// The list's resourceVersion.
    pub resource_version: Option<String>,
    /// The list's resourceVersion as the revision it names.
    pub revision: Option<i64>,
    /// The continue token for the next page (never empty).
    pub continue_token: Option<String>,
    /// The revision that token reads at, as the apiserver decodes it (≤ 0: the latest).
    pub continue_rv: Option<i64>,
    pub remaining_item_count: Option<i64>,
    pub items: Vec<ObjectFacts>,
}

impl ListFacts {
    /// The kind of the items (`Pod` of a `PodList`), for items that do not say.
    pub fn item_kind(&self) -> Option<&str> {
        self.kind.as_deref().and_then(|k| k.strip_suffix("List"))
    }
}

/// What identifies one object: kind, namespace, name and resourceVersion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjectFacts {
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub resource_version: Option<String>,
    /// The resourceVersion as the revision it names.
    pub revision: Option<i64>,
}

impl ObjectFacts {
    /// The facts of the object `v` (a JSON object as the apiserver answered it).
    pub fn of(v: &Value) -> ObjectFacts {
        ObjectFacts {
            kind: text(v, "/kind"),
            namespace: text(v, "/metadata/namespace"),
            name: text(v, "/metadata/name"),
            resource_version: text(v, "/metadata/resourceVersion"),
            revision: revision(v),
        }
    }
}

/// The frames one `events` line read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventsReply {
    pub events: Vec<EventFacts>,
    /// The server ended the stream.
    pub closed: bool,
    /// The script dropped the connection (`drop wN`): nothing more arrives.
    pub dropped: bool,
    /// The stream is paused (`pause wN`).
    pub paused: bool,
}

/// One watch frame.
#[derive(Debug, Clone, PartialEq)]
pub struct EventFacts {
    pub kind: FrameType,
    /// The object it carries (a `Status` for an ERROR frame).
    pub object: ObjectFacts,
    /// An ERROR frame's Status.
    pub error: Option<StatusFacts>,
}

impl EventFacts {
    /// The facts of a frame of `kind` carrying `object`.
    pub fn of(kind: FrameType, object: &Value) -> EventFacts {
        let error = match kind {
            FrameType::Error => Some(StatusFacts::of(object)),
            FrameType::Added | FrameType::Modified | FrameType::Deleted | FrameType::Bookmark => None,
        };
        EventFacts { kind, object: ObjectFacts::of(object), error }
    }
}

/// An etcd operation's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct EtcdReply {
    pub op: EtcdOp,
    /// etcd's words when it refused (`mvcc: required revision has been compacted`).
    pub error: Option<String>,
    /// The response header's revision.
    pub revision: Option<i64>,
    /// A Range's keys.
    pub kvs: Vec<Kv>,
    /// A Range's count and whether more keys match than it returned.
    pub count: Option<i64>,
    pub more: Option<bool>,
}

impl EtcdReply {
    /// An operation etcd answered, at `revision`.
    pub fn done(op: EtcdOp, revision: i64) -> EtcdReply {
        EtcdReply { op, error: None, revision: Some(revision), kvs: Vec::new(), count: None, more: None }
    }

    /// An operation etcd refused with `error`.
    pub fn refused(op: EtcdOp, error: String) -> EtcdReply {
        EtcdReply { op, error: Some(error), revision: None, kvs: Vec::new(), count: None, more: None }
    }

    /// Whether it is a read (a Range).
    pub fn is_read(&self) -> bool {
        match self.op {
            EtcdOp::Range => true,
            EtcdOp::Put | EtcdOp::DeleteRange | EtcdOp::Compact => false,
        }
    }
}

/// One key-value as etcd returned it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kv {
    pub key: String,
    pub value: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
}

impl Kv {
    pub fn of(kv: &KeyValue) -> Kv {
        Kv {
            key: String::from_utf8_lossy(&kv.key).into_owned(),
            value: String::from_utf8_lossy(&kv.value).into_owned(),
            create_revision: kv.create_revision,
            mod_revision: kv.mod_revision,
            version: kv.version,
        }
    }
}

/// Where one object sits in a line's output: what [`object_json`] picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The body.
    Body,
    /// Item `i` of a list body.
    Item(usize),
    /// The object of frame `i` of an `events` line.
    Event(usize),
}

/// The JSON of the object at `at` in the output `out` (to show it or edit it, as it was answered).
pub fn object_json(out: &Value, at: At) -> Option<&Value> {
    match at {
        At::Body => out.pointer("/body"),
        At::Item(i) => out.pointer("/body/items")?.as_array()?.get(i),
        At::Event(i) => out.pointer("/events")?.as_array()?.get(i)?.pointer("/object"),
    }
}

fn text(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).and_then(Value::as_str).map(str::to_string)
}

/// The revision `v`'s `metadata.resourceVersion` names (the apiserver writes it as a decimal
/// revision, `APIObjectVersioner`).
fn revision(v: &Value) -> Option<i64> {
    text(v, "/metadata/resourceVersion").and_then(|s| s.trim().parse::<i64>().ok())
}

/// The revision `v`'s `metadata.continue` token reads at, decoded as the apiserver decodes it.
fn continue_rv(v: &Value) -> Option<i64> {
    let token = text(v, "/metadata/continue").filter(|t| !t.is_empty())?;
    ContinueToken::decode(&token).ok().map(|t| t.rv)
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

/// The status line of an API answer, e.g. `410 Gone — Expired`.
pub fn status_line(a: &ApiReply) -> String {
    let code = u64::from(a.code);
    let mut s = format!("{code} {}", status_text(code)).trim_end().to_string();
    if let Some(reason) = a.reason() {
        s.push_str(" — ");
        s.push_str(reason);
    }
    s
}
