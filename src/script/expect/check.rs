//! Checking an expectation against the previous line's output (or an informer's object).

use std::cmp::Ordering;

use serde_json::Value;

use super::super::lex::{json_str, q};
use super::text::Body;
use super::{Check, CmpOp, Entry, ExpectFailure, Expectation, FailureKind, Path, Segment, Subject};

enum Actual {
    Scalar(Option<Value>),
    List(Option<Vec<Entry>>),
}

impl Expectation {
    /// The assertion without the leading `expect ` (what [`ExpectFailure::expected`] holds).
    pub fn assertion(&self) -> String {
        Body(self).to_string()
    }

    /// Whether the expectation reads an informer's decision log (`informer <name> log…` or
    /// `why…`, or the whole object), so needs it in the object `informers` hands
    /// [`Expectation::check`].
    pub fn reads_informer_log(&self) -> bool {
        match &self.subject {
            Subject::Informer { path, .. } => match path.0.first() {
                None => true,
                Some(Segment::Key(k)) => k == "log" || k == "why",
                Some(Segment::Index(_)) => false,
            },
            _ => false,
        }
    }

    /// Checks the previous line's output. `informers(name)` returns the `informer show`
    /// object of that informer (its `"log"` and `"why"` at least when
    /// [`Expectation::reads_informer_log`]), or `None` if there is none.
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
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

/// A number, or a string holding a decimal number.
pub(super) fn number(v: &Value) -> Option<Num> {
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
