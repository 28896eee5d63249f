//! Parsing an `expect` line into an [`Expectation`](super::Expectation).

use serde_json::Value;

use super::super::lex::{ParseError, Words, quoted};
use super::super::syntax::{OneOf, OrElse, Part, PathProblem, Problem};
use super::check::number;
use super::text::subject_text;
use super::{Check, CmpOp, Entry, Expectation, Path, Segment, Subject};

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
