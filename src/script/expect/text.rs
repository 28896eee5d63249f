//! Writing an expectation back as script text: the canonical line, and the `seen` side of a
//! failure written like an assertion that would have passed.

use std::fmt;

use serde_json::Value;

use super::super::lex::{json_str, word};
use super::{Check, CmpOp, Entry, Expectation, Path, Segment, Subject};

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

pub(super) fn subject_text(s: &Subject) -> String {
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
pub(super) struct Body<'a>(pub(super) &'a Expectation);

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
