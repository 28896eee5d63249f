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

use std::cmp::Ordering;
use std::fmt;

use serde_json::Value;

use super::lex::{ParseError, Words, json_str, q, quoted, word};
use super::syntax::{OneOf, OrElse, Part, PathProblem, Problem};

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

impl std::str::FromStr for Expectation {
    type Err = ParseError;
    /// Parses a whole `expect ...` line.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let s = s.trim();
        match s.strip_prefix("expect") {
            Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => parse_expectation(rest),
            _ => Err(ParseError::new(Problem::NotAnExpectLine { got: s.to_string() })),
        }
    }
}

const CHECKS: OneOf =
    OneOf(&["==", "!=", "<", "<=", ">", ">=", "exists", "absent", "contains"], Some(OrElse::Value));
const SUBJECTS: OneOf = OneOf(
    &[
        "code",
        "reason",
        "message",
        "error",
        "count",
        "closed",
        "header <Name>",
        "items",
        "events",
        "kvs",
        "informer <name> ...",
    ],
    Some(OrElse::Path),
);

/// Parses what follows `expect`.
pub fn parse_expectation(text: &str) -> Result<Expectation, ParseError> {
    let mut w = Words::new(text);
    let Some(first) = w.next_bare() else {
        return Err(ParseError::missing("expect", Part::Subject, SUBJECTS));
    };
    let subject = match first {
        "code" => Subject::Code,
        "reason" => Subject::Reason,
        "message" => Subject::Message,
        "error" => Subject::Error,
        "count" => Subject::Count,
        "closed" => Subject::Closed,
        "items" => Subject::Items,
        "events" => Subject::Events,
        "kvs" => Subject::Kvs,
        "not" => {
            return match (w.next_bare(), w.rest()) {
                (Some("closed"), "") => Ok(Expectation {
                    subject: Subject::Closed,
                    check: Check::Compare(CmpOp::Eq, Value::Bool(false)),
                }),
                _ => Err(ParseError::new(Problem::OnlyNotClosed).at("expect not")),
            };
        }
        "header" => {
            Subject::Header(w.word("expect header", Part::HeaderName, "expect header <Name> == <value>")?)
        }
        "informer" => {
            let usage = "expect informer <name> store|<path> ...";
            let name = w.word("expect informer", Part::InformerName, usage)?;
            match w.next_bare() {
                None => {
                    return Err(ParseError::missing("expect informer", Part::FieldAfterName, usage));
                }
                Some("store") => Subject::InformerStore(name),
                Some(p) => Subject::Informer { name, path: parse_path(p)? },
            }
        }
        p => Subject::Path(parse_path(p)?),
    };
    let rest = w.rest();
    let subj = subject_text(&subject);
    let at = format!("expect {subj}");
    if rest.is_empty() {
        if subject == Subject::Closed {
            return Ok(Expectation { subject, check: Check::Compare(CmpOp::Eq, Value::Bool(true)) });
        }
        return Err(ParseError::missing(&at, Part::Check, CHECKS));
    }
    let mut ow = Words::new(rest);
    let op_word = ow.next_bare().unwrap_or("");
    let check = match op_word {
        "exists" | "absent" => {
            if let Some(extra) = ow.next_bare() {
                let got = extra.to_string();
                return Err(ParseError::new(Problem::Unexpected { got }).at(&format!("{at} {op_word}")));
            }
            if op_word == "exists" { Check::Exists } else { Check::Absent }
        }
        "contains" => {
            let operand = ow.rest();
            if operand.is_empty() {
                return Err(
                    ParseError::new(Problem::Missing { what: Part::Value }).at(&format!("{at} contains"))
                );
            }
            if subject.is_list() {
                if operand.starts_with('[') {
                    let events = subject == Subject::Events;
                    return Err(
                        ParseError::new(Problem::ContainsOneEntry { events }).at(&format!("{at} contains"))
                    );
                }
                Check::ListContains(parse_entry(operand, &subj)?)
            } else {
                Check::Contains(parse_value(operand, &subj)?)
            }
        }
        _ => {
            let (op, operand) = match CmpOp::from_word(op_word) {
                Some(op) => (op, ow.rest()),
                None => (CmpOp::Eq, rest),
            };
            if operand.is_empty() {
                let at = format!("{at} {}", op.as_str());
                return Err(ParseError::new(Problem::Missing { what: Part::Value }).at(&at));
            }
            if subject.is_list() {
                let entries = parse_list(operand, &subj)?;
                match op {
                    CmpOp::Eq => Check::ListEq(entries),
                    CmpOp::Ne => Check::ListNe(entries),
                    _ => {
                        let op = op.as_str().to_string();
                        return Err(ParseError::new(Problem::ListOp { op }).at(&at));
                    }
                }
            } else {
                let v = parse_value(operand, &subj)?;
                if !matches!(op, CmpOp::Eq | CmpOp::Ne) && number(&v).is_none() {
                    let got = operand.to_string();
                    return Err(ParseError::new(Problem::CompareNeedsNumber { got })
                        .at(&format!("{at} {}", op.as_str())));
                }
                Check::Compare(op, v)
            }
        }
    };
    Ok(Expectation { subject, check })
}

fn parse_value(text: &str, subj: &str) -> Result<Value, ParseError> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => Ok(v),
        Err(e) => {
            let at = format!("expect {subj}");
            if text.starts_with(['"', '[', '{']) {
                let (got, detail, names_hint) = (text.to_string(), e.to_string(), text.starts_with('['));
                Err(ParseError::new(Problem::ValueNotJson { got, detail, names_hint }).at(&at))
            } else if text.contains(char::is_whitespace) {
                Err(ParseError::new(Problem::SpacesMustBeQuoted { text: text.to_string() }).at(&at))
            } else {
                Ok(Value::String(text.to_string()))
            }
        }
    }
}

fn parse_list(text: &str, subj: &str) -> Result<Vec<Entry>, ParseError> {
    let bad = || ParseError::new(Problem::NotAList { got: text.to_string() }).at(&format!("expect {subj}"));
    let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).ok_or_else(bad)?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    // Split on commas outside quotes.
    let mut pieces = Vec::new();
    let (mut start, mut in_q, mut esc) = (0, false, false);
    for (i, c) in inner.char_indices() {
        if in_q {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_q = false;
            }
        } else if c == '"' {
            in_q = true;
        } else if c == ',' {
            pieces.push(&inner[start..i]);
            start = i + 1;
        }
    }
    pieces.push(&inner[start..]);
    pieces.into_iter().map(|p| parse_entry(p, subj)).collect()
}

fn parse_entry(text: &str, subj: &str) -> Result<Entry, ParseError> {
    let t = text.trim();
    let at = format!("expect {subj}");
    if t.is_empty() {
        return Err(ParseError::new(Problem::EmptyEntry).at(&at));
    }
    let (text, rv) = if t.starts_with('"') {
        let (s, after) = quoted(t).map_err(|error| ParseError::new(Problem::Quote { error }).at(&at))?;
        let after = after.trim();
        if after.is_empty() {
            (s, None)
        } else if let Some(rv) = after.strip_prefix('@') {
            (s, Some(rv.trim_start().to_string()))
        } else {
            return Err(ParseError::new(Problem::AfterQuotedEntry { got: after.to_string() }).at(&at));
        }
    } else {
        if let Some(c) = t.chars().find(|c| matches!(c, '[' | ']' | '"')) {
            return Err(ParseError::new(Problem::CharInEntry { char: c, entry: t.to_string() }).at(&at));
        }
        let norm = t.split_whitespace().collect::<Vec<_>>().join(" ");
        match norm.rsplit_once('@') {
            Some((text, rv)) => {
                if text.trim().is_empty() {
                    return Err(ParseError::new(Problem::NameBeforeAt { entry: t.to_string() }).at(&at));
                }
                (text.trim_end().to_string(), Some(rv.trim_start().to_string()))
            }
            None => (norm, None),
        }
    };
    let rv = match rv.as_deref() {
        None => None,
        Some(rv) => {
            if rv.is_empty()
                || rv.contains(|c: char| c.is_whitespace() || c.is_control() || "\"@,[]".contains(c))
            {
                let got = rv.to_string();
                return Err(ParseError::new(Problem::ResourceVersionAfterAt { got }).at(&at));
            }
            Some(rv.to_string())
        }
    };
    Ok(Entry { text, rv })
}

/// Parses `body.items[0].metadata.name` or `metadata.annotations["a.b/c"]`.
pub fn parse_path(text: &str) -> Result<Path, ParseError> {
    let err =
        |why: PathProblem| ParseError::new(Problem::BadPath { path: text.to_string(), why }).at("expect");
    let mut segs = Vec::new();
    let mut s = text;
    let mut first = true;
    while !s.is_empty() {
        if let Some(r) = s.strip_prefix('[') {
            if r.starts_with('"') {
                let (key, after) = quoted(r).map_err(|error| err(PathProblem::Quote { error }))?;
                s = after.strip_prefix(']').ok_or_else(|| err(PathProblem::CloseAfterKey))?;
                segs.push(Segment::Key(key));
            } else {
                let end = r.find(']').ok_or_else(|| err(PathProblem::MissingClose))?;
                let idx = r[..end].parse::<usize>().map_err(|_| err(PathProblem::IndexNotNumber))?;
                segs.push(Segment::Index(idx));
                s = &r[end + 1..];
            }
        } else {
            let r = if first { s } else { s.strip_prefix('.').ok_or_else(|| err(PathProblem::Separator))? };
            let end = r.find(['.', '[', ']']).unwrap_or(r.len());
            if end == 0 {
                return Err(err(PathProblem::EmptyKey));
            }
            segs.push(Segment::Key(r[..end].to_string()));
            s = &r[end..];
        }
        first = false;
    }
    if segs.is_empty() {
        return Err(err(PathProblem::EmptyPath));
    }
    Ok(Path(segs))
}

impl Path {
    pub fn lookup<'a>(&self, root: &'a Value) -> Option<&'a Value> {
        let mut v = root;
        for seg in &self.0 {
            v = match seg {
                Segment::Key(k) => v.as_object()?.get(k)?,
                Segment::Index(i) => v.as_array()?.get(*i)?,
            };
        }
        Some(v)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, reserved: &[&str]) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) => {
                    let plain = !k.is_empty()
                        && k.chars().all(|c| !(c.is_whitespace() || c.is_control() || ".[]\"".contains(c)))
                        && !(self.0.len() == 1 && reserved.contains(&k.as_str()));
                    match (plain, i) {
                        (true, 0) => f.write_str(k)?,
                        (true, _) => write!(f, ".{k}")?,
                        (false, _) => write!(f, "[{}]", json_str(k))?,
                    }
                }
            }
        }
        Ok(())
    }
}

const ROOT_WORDS: &[&str] = &[
    "code", "reason", "message", "error", "count", "closed", "items", "events", "kvs", "not", "header",
    "informer",
];

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, ROOT_WORDS)
    }
}

struct InformerPath<'a>(&'a Path);
impl fmt::Display for InformerPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, &["store"])
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Code => f.write_str("code"),
            Subject::Reason => f.write_str("reason"),
            Subject::Message => f.write_str("message"),
            Subject::Error => f.write_str("error"),
            Subject::Count => f.write_str("count"),
            Subject::Closed => f.write_str("closed"),
            Subject::Header(h) => write!(f, "header {}", word(h)),
            Subject::Items => f.write_str("items"),
            Subject::Events => f.write_str("events"),
            Subject::Kvs => f.write_str("kvs"),
            Subject::InformerStore(n) => write!(f, "informer {} store", word(n)),
            Subject::Informer { name, path } => {
                write!(f, "informer {} {}", word(name), InformerPath(path))
            }
            Subject::Path(p) => write!(f, "{p}"),
        }
    }
}

fn subject_text(s: &Subject) -> String {
    s.to_string()
}

/// A value as written in an expectation: JSON, or (if `bare_ok`) a bare word when that reads
/// back as the same string.
fn value_text(v: &Value, bare_ok: bool) -> String {
    match v {
        Value::String(s) => {
            let bare = bare_ok
                && !s.is_empty()
                && !s.starts_with(['"', '[', '{'])
                && !s.contains(|c: char| c.is_whitespace() || c.is_control())
                && serde_json::from_str::<Value>(s).is_err()
                && !matches!(
                    s.as_str(),
                    "exists" | "absent" | "contains" | "==" | "!=" | "<" | "<=" | ">" | ">="
                );
            if bare { s.clone() } else { json_str(s) }
        }
        other => other.to_string(),
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.text;
        let plain = !t.is_empty()
            && t.trim() == t
            && !t.contains("  ")
            && !t.contains(|c: char| {
                (c.is_whitespace() && c != ' ') || c.is_control() || ",[]\"@".contains(c)
            });
        if plain {
            f.write_str(t)?
        } else {
            f.write_str(&json_str(t))?
        }
        if let Some(rv) = &self.rv {
            write!(f, "@{rv}")?;
        }
        Ok(())
    }
}

fn list_text(entries: &[Entry]) -> String {
    let parts: Vec<String> = entries.iter().map(Entry::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// The assertion text without `expect `.
struct Body<'a>(&'a Expectation);

impl fmt::Display for Body<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Expectation { subject, check } = self.0;
        if *subject == Subject::Closed {
            match check {
                Check::Compare(CmpOp::Eq, Value::Bool(true)) => return f.write_str("closed"),
                Check::Compare(CmpOp::Eq, Value::Bool(false)) => return f.write_str("not closed"),
                _ => {}
            }
        }
        write!(f, "{subject}")?;
        match check {
            Check::Exists => f.write_str(" exists"),
            Check::Absent => f.write_str(" absent"),
            Check::Compare(CmpOp::Eq, v) if subject.implicit_eq() => {
                write!(f, " {}", value_text(v, true))
            }
            Check::Compare(op, v) => write!(f, " {} {}", op.as_str(), value_text(v, false)),
            Check::Contains(v) => write!(f, " contains {}", value_text(v, false)),
            Check::ListEq(es) => write!(f, " == {}", list_text(es)),
            Check::ListNe(es) => write!(f, " != {}", list_text(es)),
            Check::ListContains(e) => write!(f, " contains {e}"),
        }
    }
}

impl fmt::Display for Expectation {
    /// The canonical `expect ...` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expect {}", Body(self))
    }
}

// ---------------------------------------------------------------------------------------------
// Checking.

enum Actual {
    Scalar(Option<Value>),
    List(Option<Vec<Entry>>),
}

impl Expectation {
    /// The assertion without the leading `expect ` (what [`ExpectFailure::expected`] holds).
    pub fn assertion(&self) -> String {
        Body(self).to_string()
    }

    /// Checks the previous line's output. `informers(name)` returns the `informer show`
    /// object of that informer, or `None` if there is none.
    pub fn check(
        &self,
        prev: Option<&Value>,
        informers: &dyn Fn(&str) -> Option<Value>,
    ) -> Result<(), ExpectFailure> {
        let fail = |seen: String, kind| Err(ExpectFailure { expected: self.assertion(), seen, kind });
        let informer_obj;
        let root = match &self.subject {
            Subject::InformerStore(name) | Subject::Informer { name, .. } => match informers(name) {
                Some(v) => {
                    informer_obj = v;
                    &informer_obj
                }
                None => return fail(format!("no informer named {}", q(name)), FailureKind::NoInformer),
            },
            _ => match prev {
                Some(v) => v,
                None => return fail("no previous output".to_string(), FailureKind::NoOutput),
            },
        };
        let actual = resolve(&self.subject, root);
        let rv_wanted = match &self.check {
            Check::ListEq(es) | Check::ListNe(es) => es.iter().any(|e| e.rv.is_some()),
            Check::ListContains(e) => e.rv.is_some(),
            _ => false,
        };
        let ok = match (&self.check, &actual) {
            (Check::Exists, a) => a.present(),
            (Check::Absent, a) => !a.present(),
            (Check::Compare(op, want), Actual::Scalar(Some(have))) => {
                compare(*op, have, want, matches!(self.subject, Subject::Header(_)))
            }
            (Check::Contains(want), Actual::Scalar(Some(have))) => contains(have, want),
            (Check::ListEq(want), Actual::List(Some(have))) => list_eq(want, have),
            (Check::ListNe(want), Actual::List(Some(have))) => !list_eq(want, have),
            (Check::ListContains(want), Actual::List(Some(have))) => have.iter().any(|h| want.matches(h)),
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let seen_check = match actual {
            Actual::Scalar(Some(v)) => Check::Compare(CmpOp::Eq, v),
            Actual::List(Some(mut es)) => {
                if !rv_wanted {
                    es.iter_mut().for_each(|e| e.rv = None);
                }
                Check::ListEq(es)
            }
            _ => Check::Absent,
        };
        let absent = seen_check == Check::Absent;
        let mut seen = Body(&Expectation { subject: self.subject.clone(), check: seen_check }).to_string();
        const MAX: usize = 300;
        if seen.chars().count() > MAX {
            seen = seen.chars().take(MAX).collect::<String>() + "…";
        }
        if absent
            && self.subject != Subject::Error
            && let Some(e) = root.get("error").and_then(Value::as_str)
        {
            seen = format!("{seen}; error {}", json_str(e));
        }
        fail(seen, if absent { FailureKind::SubjectAbsent } else { FailureKind::Mismatch })
    }
}

impl Actual {
    fn present(&self) -> bool {
        match self {
            Actual::Scalar(v) => v.is_some(),
            Actual::List(v) => v.is_some(),
        }
    }
}

fn resolve(subject: &Subject, root: &Value) -> Actual {
    let at = |path: &[&str]| {
        let mut v = root;
        for k in path {
            v = v.get(*k)?;
        }
        Some(v.clone())
    };
    let text_of = |v: Option<&Value>| match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let list = |arr: Option<&Value>, f: &dyn Fn(&Value) -> Entry| {
        Actual::List(arr.and_then(Value::as_array).map(|a| a.iter().map(f).collect()))
    };
    let name_of =
        |o: &Value| -> Option<String> { text_of(o.pointer("/metadata/name").or_else(|| o.get("name"))) };
    match subject {
        Subject::Code => Actual::Scalar(at(&["code"])),
        Subject::Reason => Actual::Scalar(at(&["body", "reason"])),
        Subject::Message => Actual::Scalar(at(&["body", "message"])),
        Subject::Error => Actual::Scalar(at(&["error"])),
        Subject::Count => Actual::Scalar(at(&["count"])),
        Subject::Closed => Actual::Scalar(at(&["closed"])),
        Subject::Header(h) => Actual::Scalar(
            root.get("headers")
                .and_then(Value::as_object)
                .and_then(|m| m.iter().find(|(k, _)| k.eq_ignore_ascii_case(h)).map(|(_, v)| v.clone())),
        ),
        Subject::Path(p) => Actual::Scalar(Path::lookup(p, root).cloned()),
        Subject::Informer { path, .. } => Actual::Scalar(path.lookup(root).cloned()),
        Subject::Items => list(root.pointer("/body/items"), &|o| Entry {
            text: name_of(o).unwrap_or_else(|| "?".into()),
            rv: text_of(o.pointer("/metadata/resourceVersion")),
        }),
        Subject::InformerStore(_) => list(root.get("store"), &|o| Entry {
            text: name_of(o).unwrap_or_else(|| "?".into()),
            rv: text_of(o.pointer("/metadata/resourceVersion").or_else(|| o.get("resourceVersion"))),
        }),
        Subject::Kvs => list(root.get("kvs"), &|o| Entry {
            text: text_of(o.get("key")).unwrap_or_else(|| "?".into()),
            rv: text_of(o.get("mod_revision")),
        }),
        Subject::Events => list(root.get("events"), &|ev| {
            let ty = ev.get("type").and_then(Value::as_str).unwrap_or("?");
            let obj = ev.get("object").unwrap_or(&Value::Null);
            let text = match ty {
                "BOOKMARK" => ty.to_string(),
                "ERROR" => match obj.get("code") {
                    Some(Value::Number(c)) => format!("ERROR {c}"),
                    _ => ty.to_string(),
                },
                _ => match name_of(obj) {
                    Some(n) => format!("{ty} {n}"),
                    None => ty.to_string(),
                },
            };
            Entry { text, rv: text_of(obj.pointer("/metadata/resourceVersion")) }
        }),
    }
}

fn list_eq(want: &[Entry], have: &[Entry]) -> bool {
    want.len() == have.len() && want.iter().zip(have).all(|(w, h)| w.matches(h))
}

#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

/// A number, or a string holding a decimal number.
fn number(v: &Value) -> Option<Num> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(Num::Int(i as i128))
            } else if let Some(u) = n.as_u64() {
                Some(Num::Int(u as i128))
            } else {
                n.as_f64().map(Num::Float)
            }
        }
        Value::String(s) => {
            let s = s.trim();
            if let Ok(i) = s.parse::<i128>() {
                Some(Num::Int(i))
            } else if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
                s.parse::<f64>().ok().filter(|f| f.is_finite()).map(Num::Float)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn num_cmp(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Int(x), Num::Float(y)) => (x as f64).partial_cmp(&y),
        (Num::Float(x), Num::Int(y)) => x.partial_cmp(&(y as f64)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
    }
}

/// JSON equality, with numbers compared by value (`4` equals `4.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => {
            matches!((number(a), number(b)), (Some(x), Some(y)) if num_cmp(x, y) == Some(Ordering::Equal))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn compare(op: CmpOp, have: &Value, want: &Value, as_text_values: bool) -> bool {
    match op {
        CmpOp::Eq | CmpOp::Ne => {
            let eq = if as_text_values { as_text(have) == as_text(want) } else { json_eq(have, want) };
            eq == (op == CmpOp::Eq)
        }
        _ => {
            let (Some(h), Some(w)) = (number(have), number(want)) else {
                return false;
            };
            let Some(ord) = num_cmp(h, w) else {
                return false;
            };
            match op {
                CmpOp::Lt => ord == Ordering::Less,
                CmpOp::Le => ord != Ordering::Greater,
                CmpOp::Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            }
        }
    }
}

fn contains(have: &Value, want: &Value) -> bool {
    match have {
        Value::String(s) => s.contains(&as_text(want)),
        Value::Array(a) => a.iter().any(|e| json_eq(e, want)),
        Value::Object(m) => want.as_str().is_some_and(|k| m.contains_key(k)),
        _ => false,
    }
}
