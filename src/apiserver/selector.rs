//! Label selectors with `k8s.io/apimachinery/pkg/labels` semantics (`labels.Parse`).
//!
//! Owns the selector lexer/parser (a faithful port, including its error texts), requirement
//! validation (label keys as qualified names, values as label values, messages from
//! `util/validation`), matching against an object's `metadata.labels`, and the canonical
//! `String()` form. Also holds the DNS-1123 validators reused by the body checks.

use std::collections::BTreeSet;

use super::go::strconv::go_parse_int;
use super::status::{FieldError, aggregate};

/// A selector operator (`selection.Operator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    Exists,
    DoesNotExist,
    Equals,
    DoubleEquals,
    NotEquals,
    In,
    NotIn,
    GreaterThan,
    LessThan,
}

/// One requirement of a selector (`labels.Requirement`). Values are sorted and de-duplicated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Requirement {
    pub key: String,
    pub operator: Operator,
    pub values: Vec<String>,
}

impl Requirement {
    fn has_value(&self, v: &str) -> bool {
        self.values.iter().any(|x| x == v)
    }

    /// `Requirement.Matches`.
    pub fn matches(&self, labels: &serde_json::Map<String, serde_json::Value>) -> bool {
        let val = labels.get(&self.key).map(|v| v.as_str().unwrap_or(""));
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                val.is_some_and(|v| self.has_value(v))
            }
            Operator::NotIn | Operator::NotEquals => val.is_none_or(|v| !self.has_value(v)),
            Operator::Exists => val.is_some(),
            Operator::DoesNotExist => val.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let Some(v) = val else { return false };
                let (Ok(lv), [rv]) = (go_parse_int(v), self.values.as_slice()) else {
                    return false;
                };
                let Ok(rv) = go_parse_int(rv) else {
                    return false;
                };
                if self.operator == Operator::GreaterThan { lv > rv } else { lv < rv }
            }
        }
    }
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.operator == Operator::DoesNotExist {
            f.write_str("!")?;
        }
        f.write_str(&self.key)?;
        let (op, paren) = match self.operator {
            Operator::Exists | Operator::DoesNotExist => return Ok(()),
            Operator::Equals => ("=", false),
            Operator::DoubleEquals => ("==", false),
            Operator::NotEquals => ("!=", false),
            Operator::In => (" in ", true),
            Operator::NotIn => (" notin ", true),
            Operator::GreaterThan => (">", false),
            Operator::LessThan => ("<", false),
        };
        f.write_str(op)?;
        if paren {
            f.write_str("(")?;
        }
        f.write_str(&self.values.join(","))?;
        if paren {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// A parsed label selector: the AND of its requirements, sorted by key (stable).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct LabelSelector {
    pub requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// `labels.Parse`. The error is the exact message the apiserver returns (as a 400) for a
    /// bad `labelSelector`.
    pub fn parse(s: &str) -> Result<LabelSelector, String> {
        let mut p = Parser { items: scan(s.as_bytes()), pos: 0 };
        let mut reqs = p.parse()?;
        reqs.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(LabelSelector { requirements: reqs })
    }

    /// The selector that matches everything.
    pub fn everything() -> Self {
        LabelSelector::default()
    }

    /// True if it does not restrict anything.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// True if every requirement matches `labels` (an object's `metadata.labels`).
    pub fn matches(&self, labels: &serde_json::Map<String, serde_json::Value>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Like [`matches`](Self::matches) for a whole object (missing/non-object labels = none).
    pub fn matches_object(&self, obj: &serde_json::Value) -> bool {
        let empty = serde_json::Map::new();
        let labels = obj.pointer("/metadata/labels").and_then(|l| l.as_object()).unwrap_or(&empty);
        self.matches(labels)
    }
}

impl std::fmt::Display for LabelSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.requirements.iter().map(|r| r.to_string()).collect();
        f.write_str(&parts.join(","))
    }
}

// ---- lexer -------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Error,
    End,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn keyword(s: &[u8]) -> Option<Tok> {
    Some(match s {
        b")" => Tok::ClosedPar,
        b"," => Tok::Comma,
        b"!" => Tok::DoesNotExist,
        b"==" => Tok::DoubleEquals,
        b"=" => Tok::Equals,
        b">" => Tok::GreaterThan,
        b"in" => Tok::In,
        b"<" => Tok::LessThan,
        b"!=" => Tok::NotEquals,
        b"notin" => Tok::NotIn,
        b"(" => Tok::OpenPar,
        _ => return None,
    })
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(c: u8) -> bool {
    matches!(c, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    /// Go's `read`: 0 at the end (without advancing), else the byte (advancing).
    fn read(&mut self) -> u8 {
        match self.s.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => 0,
        }
    }
    fn unread(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }
    fn lex(&mut self) -> (Tok, Vec<u8>) {
        let mut ch = self.read();
        while is_ws(ch) {
            ch = self.read();
        }
        if ch == 0 {
            return (Tok::End, Vec::new());
        }
        self.unread();
        if is_special(ch) { self.special() } else { self.ident() }
    }
    fn ident(&mut self) -> (Tok, Vec<u8>) {
        let mut buf = Vec::new();
        loop {
            let ch = self.read();
            if ch == 0 {
                break;
            }
            if is_special(ch) || is_ws(ch) {
                self.unread();
                break;
            }
            buf.push(ch);
        }
        match keyword(&buf) {
            Some(t) => (t, buf),
            None => (Tok::Identifier, buf),
        }
    }
    fn special(&mut self) -> (Tok, Vec<u8>) {
        let mut last: Option<(Tok, Vec<u8>)> = None;
        let mut buf = Vec::new();
        loop {
            let ch = self.read();
            if ch == 0 {
                break;
            }
            if is_special(ch) {
                buf.push(ch);
                if let Some(t) = keyword(&buf) {
                    last = Some((t, buf.clone()));
                } else if last.is_some() {
                    self.unread();
                    break;
                }
            } else {
                self.unread();
                break;
            }
        }
        match last {
            Some(x) => x,
            None => {
                let msg = format!("error expected: keyword found '{}'", String::from_utf8_lossy(&buf));
                (Tok::Error, msg.into_bytes())
            }
        }
    }
}

fn scan(s: &[u8]) -> Vec<(Tok, String)> {
    let mut l = Lexer { s, pos: 0 };
    let mut out = Vec::new();
    loop {
        let (t, lit) = l.lex();
        out.push((t, String::from_utf8_lossy(&lit).into_owned()));
        if t == Tok::End {
            return out;
        }
    }
}

// ---- parser ------------------------------------------------------------------------------

struct Parser {
    items: Vec<(Tok, String)>,
    pos: usize,
}

#[derive(PartialEq)]
enum Ctx {
    KeyAndOperator,
    Values,
}

const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

impl Parser {
    fn item(&self, i: usize) -> (Tok, String) {
        self.items.get(i).cloned().unwrap_or((Tok::End, String::new()))
    }
    fn lookahead(&self, ctx: Ctx) -> (Tok, String) {
        let (mut t, l) = self.item(self.pos);
        if ctx == Ctx::Values && matches!(t, Tok::In | Tok::NotIn) {
            t = Tok::Identifier;
        }
        (t, l)
    }
    fn consume(&mut self, ctx: Ctx) -> (Tok, String) {
        let r = self.lookahead(ctx);
        if self.pos < self.items.len() {
            self.pos += 1;
        }
        r
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut reqs = Vec::new();
        loop {
            let (t, lit) = self.lookahead(Ctx::Values);
            match t {
                Tok::Identifier | Tok::DoesNotExist => {
                    let r = self.requirement().map_err(|e| format!("unable to parse requirement: {e}"))?;
                    reqs.push(r);
                    let (t, l) = self.consume(Ctx::Values);
                    match t {
                        Tok::End => return Ok(reqs),
                        Tok::Comma => {
                            let (t2, l2) = self.lookahead(Ctx::Values);
                            if t2 != Tok::Identifier && t2 != Tok::DoesNotExist {
                                return Err(format!("found '{l2}', expected: identifier after ','"));
                            }
                        }
                        _ => return Err(format!("found '{l}', expected: ',' or 'end of string'")),
                    }
                }
                Tok::End => return Ok(reqs),
                _ => {
                    return Err(format!("found '{lit}', expected: !, identifier, or 'end of string'"));
                }
            }
        }
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        let (key, op) = self.key_and_infer_operator()?;
        if let Some(op @ (Operator::Exists | Operator::DoesNotExist)) = op {
            return new_requirement(key, op, Vec::new());
        }
        let op = self.operator()?;
        let values = match op {
            Operator::In | Operator::NotIn => self.values()?,
            _ => self.exact_value()?,
        };
        new_requirement(key, op, values.into_iter().collect())
    }

    fn key_and_infer_operator(&mut self) -> Result<(String, Option<Operator>), String> {
        let mut op = None;
        let (mut t, mut lit) = self.consume(Ctx::Values);
        if t == Tok::DoesNotExist {
            op = Some(Operator::DoesNotExist);
            (t, lit) = self.consume(Ctx::Values);
        }
        if t != Tok::Identifier {
            return Err(format!("found '{lit}', expected: identifier"));
        }
        let errs = validate_label_key(&lit);
        if !errs.is_empty() {
            // `field.Invalid(nil path, key, ...)`: a nil *field.Path prints as `<nil>`.
            return Err(FieldError::invalid("<nil>", lit.as_str(), errs.join("; ")).to_string());
        }
        let (t, _) = self.lookahead(Ctx::Values);
        if (t == Tok::End || t == Tok::Comma) && op != Some(Operator::DoesNotExist) {
            op = Some(Operator::Exists);
        }
        Ok((lit, op))
    }

    fn operator(&mut self) -> Result<Operator, String> {
        let (t, lit) = self.consume(Ctx::KeyAndOperator);
        Ok(match t {
            Tok::In => Operator::In,
            Tok::Equals => Operator::Equals,
            Tok::DoubleEquals => Operator::DoubleEquals,
            Tok::GreaterThan => Operator::GreaterThan,
            Tok::LessThan => Operator::LessThan,
            Tok::NotIn => Operator::NotIn,
            Tok::NotEquals => Operator::NotEquals,
            _ => return Err(format!("found '{lit}', expected: {BINARY_OPERATORS}")),
        })
    }

    fn values(&mut self) -> Result<BTreeSet<String>, String> {
        let (t, lit) = self.consume(Ctx::Values);
        if t != Tok::OpenPar {
            return Err(format!("found '{lit}' expected: '('"));
        }
        let (t, lit) = self.lookahead(Ctx::Values);
        match t {
            Tok::Identifier | Tok::Comma => {
                let s = self.identifiers_list()?;
                let (t, _) = self.consume(Ctx::Values);
                if t != Tok::ClosedPar {
                    return Err(format!("found '{lit}', expected: ')'"));
                }
                Ok(s)
            }
            Tok::ClosedPar => {
                self.consume(Ctx::Values);
                Ok(BTreeSet::from([String::new()]))
            }
            _ => Err(format!("found '{lit}', expected: ',', ')' or identifier")),
        }
    }

    fn identifiers_list(&mut self) -> Result<BTreeSet<String>, String> {
        let mut s = BTreeSet::new();
        loop {
            let (t, lit) = self.consume(Ctx::Values);
            match t {
                Tok::Identifier => {
                    s.insert(lit);
                    let (t2, l2) = self.lookahead(Ctx::Values);
                    match t2 {
                        Tok::Comma => continue,
                        Tok::ClosedPar => return Ok(s),
                        _ => return Err(format!("found '{l2}', expected: ',' or ')'")),
                    }
                }
                Tok::Comma => {
                    if s.is_empty() {
                        s.insert(String::new());
                    }
                    let (t2, _) = self.lookahead(Ctx::Values);
                    if t2 == Tok::ClosedPar {
                        s.insert(String::new());
                        return Ok(s);
                    }
                    if t2 == Tok::Comma {
                        s.insert(String::new());
                    }
                }
                _ => return Err(format!("found '{lit}', expected: ',', or identifier")),
            }
        }
    }

    fn exact_value(&mut self) -> Result<BTreeSet<String>, String> {
        let (t, _) = self.lookahead(Ctx::Values);
        if t == Tok::End || t == Tok::Comma {
            return Ok(BTreeSet::from([String::new()]));
        }
        let (t, lit) = self.consume(Ctx::Values);
        if t == Tok::Identifier {
            return Ok(BTreeSet::from([lit]));
        }
        Err(format!("found '{lit}', expected: identifier"))
    }
}

/// `labels.NewRequirement` validation (the parser passes a nil path, so fields print as
/// `key`, `values`, `values[0][<key>]`).
fn new_requirement(key: String, op: Operator, vals: Vec<String>) -> Result<Requirement, String> {
    let mut errs = Vec::new();
    let key_errs = validate_label_key(&key);
    if !key_errs.is_empty() {
        errs.push(FieldError::invalid("key", key.as_str(), key_errs.join("; ")));
    }
    match op {
        Operator::In | Operator::NotIn if vals.is_empty() => {
            errs.push(FieldError::invalid(
                "values",
                vals.clone(),
                "for 'in', 'notin' operators, values set can't be empty",
            ));
        }
        Operator::Equals | Operator::DoubleEquals | Operator::NotEquals if vals.len() != 1 => {
            errs.push(FieldError::invalid(
                "values",
                vals.clone(),
                "exact-match compatibility requires one single value",
            ));
        }
        Operator::GreaterThan | Operator::LessThan => {
            if vals.len() != 1 {
                errs.push(FieldError::invalid(
                    "values",
                    vals.clone(),
                    "for 'Gt', 'Lt' operators, exactly one value is required",
                ));
            }
            for (i, v) in vals.iter().enumerate() {
                if go_parse_int(v).is_err() {
                    errs.push(FieldError::invalid(
                        format!("values[{i}]"),
                        v.as_str(),
                        "for 'Gt', 'Lt' operators, the value must be an integer",
                    ));
                }
            }
        }
        _ => {}
    }
    for (i, v) in vals.iter().enumerate() {
        let verrs = validate_label_value(v);
        if !verrs.is_empty() {
            errs.push(FieldError::invalid(format!("values[{i}][{key}]"), v.as_str(), verrs.join("; ")));
        }
    }
    if errs.is_empty() { Ok(Requirement { key, operator: op, values: vals }) } else { Err(aggregate(&errs)) }
}

// ---- util/validation ---------------------------------------------------------------------

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// `validation.RegexError`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push_str(&format!("'{e}', "));
    }
    s.push_str(&format!("regex used for validation is '{fmt}')"));
    s
}

fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            alnum(f)
                && alnum(l)
                && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

fn is_dns1123_label_like(part: &str) -> bool {
    let b = part.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => ok(f) && ok(l) && b.iter().all(|c| ok(c) || *c == b'-'),
        _ => false,
    }
}

/// `validation.IsDNS1123Subdomain`: the error strings (empty = valid).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !value.split('.').all(is_dns1123_label_like) {
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `validation.IsQualifiedName` (label keys).
pub fn validate_label_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(is_dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !is_qualified_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `validation.IsValidLabelValue`.
pub fn validate_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errs.push(regex_error(LABEL_VALUE_ERR, LABEL_VALUE_FMT, &["MyValue", "my_value", "12345"]));
    }
    errs
}
