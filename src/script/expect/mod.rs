//! `expect` lines: assertions on the output object of the previous line.
//!
//! ```text
//! expect <subject> <check>
//!
//! subject  code | reason | message | error | count | closed      shorthands (see below)
//!          header <Name>                                       response header, any case
//!          items | events | kvs                                lists, compared by name
//!          informer <name> store                               an informer's store, by name
//!          informer <name> <path>                              a field of `informer show <name>`
//!          <path>                                              any field of the output object
//! path     dot.separated[0].keys, e.g. body.metadata.resourceVersion, header.revision,
//!          body.items[1].metadata.name; a key with dots: body.metadata.annotations["a.b/c"]
//! check    <value>                 same as == <value>
//!          == | != | < | <= | > | >=  <value>
//!          exists | absent
//!          contains <value>        substring of a string, element of an array, key of an object
//! value    a JSON literal ("4", 4, true, null, [1,2], {"a":1}) or one bare word, which is a
//!          string (Expired). Text with spaces must be quoted.
//! ```
//!
//! Shorthands: `code` is the output's `code`; `reason` and `message` are `body.reason` and
//! `body.message` (a Status); `error`, `count` and `closed` are those top-level fields.
//! `expect closed` means `closed == true` and `expect not closed` means `closed == false`.
//!
//! `==` compares JSON values exactly: a resourceVersion is a string, so
//! `expect body.metadata.resourceVersion == "4"` passes and `== 4` fails. Header values are
//! text, so `expect header Retry-After == 1` works. `<`, `<=`, `>`, `>=` compare numbers and
//! numeric strings (`expect body.metadata.resourceVersion > 4`). Every check except `absent`
//! needs the field to be there; `!=` on a missing field fails.
//!
//! Lists (`items`, `events`, `kvs`, `informer <name> store`) take `== [..]`, `!= [..]`,
//! `contains <entry>`, `exists` or `absent`. Entries are separated by commas:
//! * `items`: `metadata.name` of each of `body.items`: `expect items == [a, b]`
//! * `events`: type and object name: `expect events == [ADDED a, MODIFIED b, BOOKMARK, ERROR 410]`
//!   (a BOOKMARK has no name; an ERROR shows the Status code)
//! * `kvs`: the keys of an etcd get: `expect kvs == [/registry/pods/default/a]`
//! * `informer x store`: names in the informer's store
//!
//! An entry may end in `@<rv>` to also check the resourceVersion (for kvs: mod_revision):
//! `expect events == [ADDED a@5, BOOKMARK@9]`. Quote an entry that contains `,` or `@`.
//!
//! A failed check reports `expected` (the assertion) and `seen`, written like an assertion that
//! would have passed: `expected code 410, seen code 200`,
//! `expected events == [ADDED a], seen events == [ADDED a, ADDED b]`,
//! `expected body.metadata.continue exists, seen body.metadata.continue absent`.

use serde_json::Value;

/// A parsed `expect` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    pub subject: Subject,
    pub check: Check,
}

/// What an expectation looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// `code`
    Code,
    /// `reason`: `body.reason`
    Reason,
    /// `message`: `body.message`
    Message,
    /// `error`
    Error,
    /// `count`
    Count,
    /// `closed`
    Closed,
    /// `header <Name>`: `headers.<Name>`, name matched case-insensitively
    Header(String),
    /// `items`: names of `body.items`
    Items,
    /// `events`: type + object name of each of `events`
    Events,
    /// `kvs`: keys of `kvs`
    Kvs,
    /// `informer <name> store`: names in that informer's store
    InformerStore(String),
    /// `informer <name> <path>`
    Informer { name: String, path: Path },
    /// `<path>` from the root of the output object
    Path(Path),
}

impl Subject {
    /// Compared as lists of entries.
    pub fn is_list(&self) -> bool {
        matches!(self, Subject::Items | Subject::Events | Subject::Kvs | Subject::InformerStore(_))
    }
    /// Written `expect <subject> <value>` rather than `expect <subject> == <value>`.
    fn implicit_eq(&self) -> bool {
        matches!(self, Subject::Code | Subject::Reason | Subject::Message | Subject::Error | Subject::Count)
    }
}

/// A JSON path: keys and array indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path(pub Vec<Segment>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    fn from_word(s: &str) -> Option<CmpOp> {
        Some(match s {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            _ => return None,
        })
    }
}

/// The test applied to the subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    Exists,
    Absent,
    /// Scalar subjects. `<`, `<=`, `>`, `>=` always carry a number or a numeric string.
    Compare(CmpOp, Value),
    /// Scalar subjects: substring / array element / object key.
    Contains(Value),
    /// List subjects: `== [..]`
    ListEq(Vec<Entry>),
    /// List subjects: `!= [..]`
    ListNe(Vec<Entry>),
    /// List subjects: `contains <entry>`
    ListContains(Entry),
}

/// One entry of a list subject: `ADDED a`, `a@5`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub text: String,
    /// When given, the resourceVersion (mod_revision for kvs) must match too.
    pub rv: Option<String>,
}

impl Entry {
    pub fn new(text: impl Into<String>) -> Self {
        Entry { text: text.into(), rv: None }
    }
    fn matches(&self, seen: &Entry) -> bool {
        self.text == seen.text && self.rv.as_ref().is_none_or(|rv| Some(rv) == seen.rv.as_ref())
    }
}

/// A failed expectation: what was asserted and what was there instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, seen {seen}")]
pub struct ExpectFailure {
    /// The assertion, without the leading `expect `.
    pub expected: String,
    /// What the output held, e.g. `code 200`, `events == [ADDED a]`, `body.x absent`.
    pub seen: String,
    /// Why it failed, as a value (a lesson scores "present but different" above "absent").
    pub kind: FailureKind,
}

/// The kind of an expectation failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The subject is there with another value.
    Mismatch,
    /// The subject is not in the output.
    SubjectAbsent,
    /// No informer of that name.
    NoInformer,
    /// Nothing to check against: no previous output (or, in a lesson step, no output yet).
    NoOutput,
}

mod check;
mod parse;
mod text;

pub use parse::{parse_expectation, parse_path};
