//! The reads a session's outputs carry, as the timeline draws them: every list answered (at its
//! list RV), every continue token (a chip numbered by page along its chain, at the revision it
//! pins, or hollow at the head when it reads at the latest revision), and every read the
//! apiserver refused (at the revision its typed decision names).

use std::collections::HashMap;

use serde_json::Value;

use crate::apiserver::continue_token::ContinueToken;
use crate::apiserver::request::Query;
use crate::script::parse::{Command, parse_line};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A list answered at its list RV.
    List,
    /// A continue token: the page it asks for, and whether it reads at the latest revision
    /// (rv −1: no longer one snapshot) — then it is drawn hollow at the head.
    Token { page: usize, latest: bool },
    /// A read the apiserver refused (410, 504, …), at the revision its decision names.
    Refused { code: u16 },
}

impl MarkKind {
    /// The `data-kind` of its mark.
    pub fn data_kind(self) -> &'static str {
        match self {
            MarkKind::List => "list-rv",
            MarkKind::Token { .. } => "continue-token",
            MarkKind::Refused { .. } => "request-error",
        }
    }

    /// Placing order in a crowded row: refusals first (the moment that matters), then tokens,
    /// then lists.
    pub fn rank(self) -> u8 {
        match self {
            MarkKind::Refused { .. } => 0,
            MarkKind::Token { .. } => 1,
            MarkKind::List => 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub kind: MarkKind,
    pub rv: i64,
    /// The log entry (0-based) it comes from.
    pub entry: usize,
}

/// The `continue` parameter of a request line, decoded as the apiserver decodes its query.
fn continue_param(line: &str) -> Option<String> {
    let Ok(Command::Request { target, .. }) = parse_line(line) else {
        return None;
    };
    let (_, raw) = target.split_once('?')?;
    Query::parse(raw).first("continue").map(str::to_string)
}

/// The reads of a log (each line with what the engine answered), `head` being etcd's revision.
pub fn marks<'a>(entries: impl IntoIterator<Item = (&'a str, Option<&'a Value>)>, head: i64) -> Vec<Mark> {
    let mut out = Vec::new();
    // token → the page it asks for.
    let mut pages: HashMap<String, usize> = HashMap::new();
    for (i, (line, o)) in entries.into_iter().enumerate() {
        let Some(o) = o else { continue };
        let Some(body) = o.get("body") else { continue };
        let code = o.get("code").and_then(Value::as_u64);
        // A refused read (a Status with an error code): drawn at the RV its typed decision asked
        // for (a continue token's, a list's), if it names one.
        if let Some(code) = code.and_then(|c| u16::try_from(c).ok())
            && code >= 400
            && o.pointer("/why/verb").and_then(Value::as_str).is_some_and(|v| v == "list" || v == "get")
            && let Some(rv) = o.pointer("/why/rv").and_then(Value::as_i64).filter(|r| *r > 0 && *r <= head)
        {
            out.push(Mark { kind: MarkKind::Refused { code }, rv, entry: i });
        }
        if code == Some(200)
            && body.get("items").is_some()
            && let Some(rv) = body
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .and_then(|s| s.trim().parse::<i64>().ok())
        {
            out.push(Mark { kind: MarkKind::List, rv, entry: i });
        }
        if let Some(tok) =
            body.pointer("/metadata/continue").and_then(Value::as_str).filter(|t| !t.is_empty())
            && let Ok(t) = ContinueToken::decode(tok)
        {
            let this_page = continue_param(line).and_then(|t| pages.get(&t).copied());
            let page = this_page.unwrap_or(1) + 1;
            pages.insert(tok.to_string(), page);
            let latest = t.rv <= 0;
            let rv = if latest { head } else { t.rv };
            out.push(Mark { kind: MarkKind::Token { page, latest }, rv, entry: i });
        }
    }
    out
}
