//! The reads a session's typed answers carry, as the timeline draws them: every list answered (at its
//! list RV), every continue token (a chip numbered by page along its chain, at the revision it
//! pins, or hollow at the head when it reads at the latest revision), and every read the
//! apiserver refused (at the revision its typed decision names).

use std::collections::HashMap;

use crate::apiserver::verb::Verb;
use crate::script::reply::{Body, Reply};
use crate::script::why::OutputWhy;

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

/// The reads of a log (each line's typed answer with its decision), `head` being etcd's
/// revision.
pub fn marks<'a>(
    entries: impl IntoIterator<Item = (&'a Reply, Option<&'a OutputWhy>)>,
    head: i64,
) -> Vec<Mark> {
    let mut out = Vec::new();
    // token → the page it asks for.
    let mut pages: HashMap<String, usize> = HashMap::new();
    for (i, (reply, why)) in entries.into_iter().enumerate() {
        let Some(a) = reply.api() else { continue };
        if matches!(a.body, Body::None) {
            continue;
        }
        // A refused read (an error code): drawn at the RV its typed decision asked for (a
        // continue token's, a list's), if it names one.
        if a.code >= 400
            && let Some(OutputWhy::Request(w)) = why
            && matches!(w.verb, Some(Verb::List | Verb::Get))
            && let Some(rv) = w.rv.filter(|r| *r > 0 && *r <= head)
        {
            out.push(Mark { kind: MarkKind::Refused { code: a.code }, rv, entry: i });
        }
        if a.code == 200
            && let Body::List(l) = &a.body
            && let Some(rv) = l.revision
        {
            out.push(Mark { kind: MarkKind::List, rv, entry: i });
        }
        if let Some(tok) = a.body.continue_token()
            && let Some(token_rv) = a.body.continue_rv()
        {
            let this_page = a.continued.as_ref().and_then(|t| pages.get(t).copied());
            let page = this_page.unwrap_or(1) + 1;
            pages.insert(tok.to_string(), page);
            let latest = token_rv <= 0;
            let rv = if latest { head } else { token_rv };
            out.push(Mark { kind: MarkKind::Token { page, latest }, rv, entry: i });
        }
    }
    out
}
