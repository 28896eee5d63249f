//! Why a script line could not be parsed — one typed value per syntax error, carried by the
//! output as `"syntax"` next to its English `"error"`, and its words in English and 中文, here
//! only (the CLI prints the English, the UI renders the value in its language). The parsers
//! (`lex`, `parse`, `expect`, `kubectl`) build these values; none of them writes a message.
//!
//! A message reads `<at>: <problem>; expected <usage>`: `at` (the command words read so far) and
//! `expected` (the line's usage) are script text and stay as written in every language; the
//! problem is the typed part. The detail of a JSON or quoted-string error is serde_json's English
//! and stays so. No upstream counterpart: the script language is the playground's own.

use std::fmt;

use serde::Serialize;

use super::line_error::LineError;
use super::why::Lang;

/// The resources `kubectl` lines know, as their usage names them.
pub(crate) const KUBECTL_RESOURCES: &str = "configmaps (configmap, cm) or pods (pod, po)";

/// `s` quoted for an error message, shortened when long.
pub(crate) fn q(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{:?}…", cut)
    } else {
        format!("{s:?}")
    }
}

/// A JSON string literal.
pub(crate) fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Why a line could not be parsed. `Display` is the whole English message; [`LineError::render`]
/// gives it in another language, [`LineError::output`] the output of the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParseError {
    /// The command words the problem is in (`etcd get`, `expect items`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(flatten)]
    pub problem: Problem,
    /// The line's usage, or the words that may come here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

/// What may come where the problem is: the line's usage (a string, script text as written), or
/// one of some words (`{"oneOf": […]}`, with `"or"` when something that is no fixed word may
/// come too), which each language joins in its own way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Expected {
    Usage(String),
    OneOf {
        #[serde(rename = "oneOf")]
        one_of: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        or: Option<OrElse>,
    },
}

/// What else than the words of an [`Expected::OneOf`] may come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrElse {
    /// A value to compare with (`expect code 200`).
    Value,
    /// A path into the output (`expect body.metadata.name …`).
    Path,
}

/// Words one of which may come here, as the parsers name them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OneOf(pub &'static [&'static str], pub Option<OrElse>);

impl From<OneOf> for Expected {
    fn from(OneOf(words, or): OneOf) -> Self {
        Expected::OneOf { one_of: words.iter().map(|w| w.to_string()).collect(), or }
    }
}

impl From<&str> for Expected {
    fn from(usage: &str) -> Self {
        Expected::Usage(usage.to_string())
    }
}

impl From<&String> for Expected {
    fn from(usage: &String) -> Self {
        Expected::Usage(usage.clone())
    }
}

impl Expected {
    /// The usage as written, or the words joined: `a, b or c` / `a、b 或 c`.
    fn render(&self, lang: Lang) -> String {
        let (one_of, or) = match self {
            Expected::Usage(u) => return u.clone(),
            Expected::OneOf { one_of, or } => (one_of, or),
        };
        let mut all: Vec<&str> = one_of.iter().map(String::as_str).collect();
        let other = or.map(|o| match (o, lang) {
            (OrElse::Value, Lang::En) => "a value",
            (OrElse::Path, Lang::En) => "a path such as body.metadata.name",
            (OrElse::Value, Lang::Zh) => "一个值",
            (OrElse::Path, Lang::Zh) => "一个路径（例如 body.metadata.name）",
        });
        all.extend(other);
        let (sep, last) = match lang {
            Lang::En => (", ", " or "),
            // No space between 或 and a Chinese word.
            Lang::Zh if other.is_some() => ("、", " 或"),
            Lang::Zh => ("、", " 或 "),
        };
        match all.split_last() {
            None => String::new(),
            Some((only, [])) => only.to_string(),
            Some((tail, init)) => format!("{}{last}{tail}", init.join(sep)),
        }
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    pub(crate) fn new(problem: Problem) -> Self {
        ParseError { at: None, problem, expected: None }
    }

    /// `ctx: what is missing; expected usage`.
    pub(crate) fn missing(ctx: &str, what: Part, usage: impl Into<Expected>) -> Self {
        ParseError::new(Problem::Missing { what }).at(ctx).expected(usage)
    }

    /// The problem is in the command words `ctx` (outermost last: `at` nests to the left).
    pub(crate) fn at(mut self, ctx: &str) -> Self {
        self.at = Some(match self.at {
            None => ctx.to_string(),
            Some(inner) => format!("{ctx}: {inner}"),
        });
        self
    }

    /// What the line should look like.
    pub(crate) fn expected(mut self, usage: impl Into<Expected>) -> Self {
        self.expected = Some(usage.into());
        self
    }
}

impl LineError for ParseError {
    const KEY: &'static str = "syntax";

    fn zh(&self) -> String {
        let mut s = String::new();
        if let Some(at) = &self.at {
            s.push_str(at);
            s.push('：');
        }
        s.push_str(&self.problem.zh());
        if let Some(e) = &self.expected {
            s.push_str("；应为 ");
            s.push_str(&e.render(Lang::Zh));
        }
        s
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.at {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}", self.problem)?;
        if let Some(e) = &self.expected {
            write!(f, "; expected {}", e.render(Lang::En))?;
        }
        Ok(())
    }
}

mod part;
mod problem;

pub use part::{JsonPart, KubectlError, Part, PathProblem, QuoteError};
pub use problem::Problem;
pub(crate) use problem::duration_zh;
