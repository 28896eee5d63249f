//! "Why?": a plain-language explanation of every output and watch frame, in the UI's language.
//! The framing is built here from the output alone; the engine's own `explain` text (English)
//! is shown after it by the components.

use serde_json::Value;

use super::i18n::{K, Tr};
use super::lines;

fn s<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// The paragraphs explaining one output of `line`.
pub fn explain(tr: Tr, line: &str, out: &Value) -> Vec<String> {
    let mut p = Vec::new();
    let word = line.split_whitespace().next().unwrap_or("");
    if out.get("error").is_some() {
        p.push(tr.t(K::WhyLineError).to_string());
        return p;
    }
    if let Some(id) = out.get("watch").and_then(Value::as_str) {
        p.push(tr.f(K::WhyWatchOpen, &[&id]));
        match lines::query_param(line, "resourceVersion").filter(|r| !r.is_empty() && r != "0") {
            Some(rv) => p.push(tr.f(K::WhyWatchFromRv, &[&rv])),
            None => p.push(tr.t(K::WhyWatchNoRv).to_string()),
        }
        return p;
    }
    if let Some(events) = out.get("events").and_then(Value::as_array) {
        p.push(tr.t(if events.is_empty() { K::WhyEventsNone } else { K::WhyEvents }).to_string());
        if out.get("closed").and_then(Value::as_bool) == Some(true) {
            p.push(tr.t(K::WhyWatchClosed).to_string());
        }
        return p;
    }
    if let Some(code) = out.get("code").and_then(Value::as_u64) {
        let body = out.get("body").cloned().unwrap_or(Value::Null);
        match code {
            410 => p.push(tr.t(K::WhyGone).to_string()),
            409 => p.push(tr.t(K::WhyConflict).to_string()),
            404 => p.push(tr.t(K::WhyNotFound).to_string()),
            400 | 422 | 405 => p.push(tr.t(K::WhyInvalid).to_string()),
            429 | 500..=599 => p.push(tr.t(K::WhyRetry).to_string()),
            _ => {}
        }
        if code >= 400 {
            return p;
        }
        let rv = s(&body, "/metadata/resourceVersion");
        if body.get("items").is_some() {
            p.push(tr.f(K::WhyList, &[&rv]));
            let tok = s(&body, "/metadata/continue");
            if !tok.is_empty() {
                let pinned = lines::decode_continue(tok)
                    .ok()
                    .and_then(|v| v.get("rv").and_then(Value::as_i64))
                    .filter(|r| *r > 0)
                    .map(|r| r.to_string())
                    .unwrap_or_else(|| rv.to_string());
                p.push(tr.f(K::WhyContinue, &[&pinned]));
            }
        } else if word == "POST" || word == "PUT" {
            p.push(tr.f(K::WhyCreated, &[&rv]));
        } else if word == "DELETE" {
            p.push(tr.t(K::WhyDeleted).to_string());
        } else if !rv.is_empty() {
            p.push(tr.f(K::WhyObject, &[&rv]));
        }
        if word == "GET" {
            let q_rv = lines::query_param(line, "resourceVersion").unwrap_or_default();
            let matching = lines::query_param(line, "resourceVersionMatch").unwrap_or_default();
            if lines::query_param(line, "continue").is_some_and(|c| !c.is_empty()) {
                // The token decides the revision.
            } else if q_rv.is_empty() {
                p.push(tr.t(K::WhyRvUnset).to_string());
            } else if q_rv == "0" {
                p.push(tr.t(K::WhyRvZero).to_string());
            } else if matching == "Exact" {
                p.push(tr.f(K::WhyRvExact, &[&q_rv]));
            } else {
                p.push(tr.f(K::WhyRvNotOlder, &[&q_rv]));
            }
        }
        return p;
    }
    if let Some(c) = out.get("compacted") {
        p.push(tr.f(K::WhyCompact, &[c]));
        return p;
    }
    if let Some(rev) = out.pointer("/header/revision") {
        if out.get("kvs").is_some() {
            p.push(tr.f(K::WhyEtcdGet, &[rev]));
        } else {
            p.push(tr.f(K::WhyEtcdWrite, &[rev]));
        }
        return p;
    }
    if out.get("now").is_some() {
        p.push(tr.t(K::WhyAdvance).to_string());
    } else if out.get("expect").is_some() {
        p.push(tr.t(K::WhyExpect).to_string());
    } else {
        p.push(tr.t(K::WhySetting).to_string());
    }
    p
}

/// The explanation of one watch frame.
pub fn frame(tr: Tr, f: &lines::Frame) -> String {
    match f.kind.as_str() {
        "ADDED" => tr.f(K::WhyFrameAdded, &[&f.name, &f.rv]),
        "MODIFIED" => tr.f(K::WhyFrameModified, &[&f.name, &f.rv]),
        "DELETED" => tr.f(K::WhyFrameDeleted, &[&f.name, &f.rv]),
        "BOOKMARK" => tr.f(K::WhyFrameBookmark, &[&f.rv]),
        _ => tr.f(K::WhyFrameError, &[&f.detail]),
    }
}
