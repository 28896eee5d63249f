//! "Why?" for every output and every watch frame, in the UI's language. The engine's reasoning
//! is rendered only from the decisions the session typed (API answers, ended watches, settings,
//! etcd operations, client decisions) through `script::why`; nothing here reads request text,
//! the output's JSON or re-derives semantics from a response. Outputs that carry no decision get
//! a sentence about what kind of line they were, chosen by the command the session parsed and
//! its typed answer.

use super::i18n::{K, Lang as UiLang, Tr};
use super::lines;
use super::model::Entry;
use crate::apiserver::watch::FrameType;
use crate::script::LineFailure;
use crate::script::parse::Command;
use crate::script::why::{self, Lang, OutputWhy};

/// The rendering language for the UI's language.
pub fn lang(tr: Tr) -> Lang {
    match tr.0 {
        UiLang::En => Lang::En,
        UiLang::Zh => Lang::Zh,
    }
}

/// "Why?" of one output: `framing` (what kind of output it is, for outputs without a decision)
/// and `engine` (the engine's decisions rendered in the UI language, one paragraph each).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WhyText {
    pub framing: Vec<String>,
    pub engine: Vec<String>,
}

/// The error of a line in the UI's language: the session's typed reason the line did not run (a
/// syntax error or a refusal) rendered in it, any other error (an etcd or client error) as the
/// engine wrote it.
pub fn error(tr: Tr, entry: &Entry) -> Option<String> {
    if let Some(f) = &entry.failure {
        return Some(f.render(lang(tr)));
    }
    entry.reply.error().map(str::to_string)
}

/// "Why?" of log entry `entry`.
pub fn explain(tr: Tr, entry: &Entry) -> WhyText {
    // The decision as the session typed it; a client's log (informer, pager) otherwise.
    let engine = match (entry.why.as_deref(), entry.client_log.as_deref()) {
        (Some(w), _) => vec![why::render(w, lang(tr))],
        (None, Some(log)) => log.iter().map(|e| why::informer::render(&e.decision, lang(tr))).collect(),
        (None, None) => Vec::new(),
    };
    let reply = &*entry.reply;
    let mut framing = Vec::new();
    let failed = match entry.failure.as_deref() {
        Some(LineFailure::Syntax(_)) => Some(K::WhyLineSyntax),
        Some(LineFailure::Refused(_)) => Some(K::WhyLineError),
        // etcd's own error or the client's, in their words; `engine` has the typed decision.
        None if reply.error().is_some() => Some(K::WhyOtherError),
        None => None,
    };
    if let Some(k) = failed {
        framing.push(tr.t(k).to_string());
        return WhyText { framing, engine };
    }
    // The line as the session parsed it.
    match entry.command.as_deref() {
        Some(Command::Events { .. }) if reply.events().is_some_and(|e| e.dropped) => {
            framing.push(tr.t(K::WhyEventsDropped).to_string());
        }
        Some(Command::Drop(_)) => framing.push(tr.t(K::WhyDroppedWatch).to_string()),
        Some(Command::Events { .. }) => {
            let none = reply.events().is_none_or(|e| e.events.is_empty());
            framing.push(tr.t(if none { K::WhyEventsNone } else { K::WhyEventsRead }).to_string());
        }
        Some(Command::DropInformer(_)) => framing.push(tr.t(K::WhyDropped).to_string()),
        Some(Command::Advance(_)) => framing.push(tr.t(K::WhyAdvance).to_string()),
        Some(Command::Expect(_)) => framing.push(tr.t(K::WhyExpect).to_string()),
        Some(Command::Set { .. } | Command::Apiserver(_) | Command::RestartApiserver(_)) => {
            framing.push(tr.t(K::WhySetting).to_string());
        }
        Some(Command::Pause(_) | Command::Resume(_) | Command::Cancel(_)) => {
            framing.push(tr.t(K::WhyWatchControl).to_string());
        }
        _ if engine.is_empty() => framing.push(tr.t(K::WhyNoDecision).to_string()),
        _ => {}
    }
    WhyText { framing, engine }
}

/// The explanation of one watch frame: what the frame is, then the engine's decision behind it —
/// for an ERROR frame why the stream ended, for any other frame the decision that started the
/// watch (its semantics, where its stream starts, the order of its initial events).
pub fn frame(tr: Tr, f: &lines::Frame) -> String {
    let lang = lang(tr);
    let decision = |w: &Option<OutputWhy>| w.as_ref().map(|w| why::render(w, lang));
    let what = match f.kind {
        FrameType::Error => {
            return decision(&f.ended_why).unwrap_or_else(|| tr.f(K::WhyFrameErrorPlain, &[&f.detail]));
        }
        FrameType::Added => tr.f(K::WhyFrameAdded, &[&f.name, &f.rv]),
        FrameType::Modified => tr.f(K::WhyFrameModified, &[&f.name, &f.rv]),
        FrameType::Deleted => tr.f(K::WhyFrameDeleted, &[&f.name, &f.rv]),
        FrameType::Bookmark => tr.f(K::WhyFrameBookmark, &[&f.rv]),
    };
    match decision(&f.watch_why) {
        Some(w) => format!("{what} {}", tr.f(K::WhyOfWatch, &[&w])),
        None => what,
    }
}
