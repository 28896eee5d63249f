//! The response viewer: the selected (or latest) output — status line, headers, the explain
//! text, a Status error highlighted, the continue token decoded, watch frames, etcd key-values
//! (each from the session's typed answer), and the whole JSON, pretty-printed. Every value is
//! rendered as text.

use yew::prelude::*;

use super::i18n::{K, Tr, use_tr};
use super::lines;
use super::state::{LabHandle, SpecHandle};
use super::why;
use crate::apiserver::watch::FrameType;
use crate::script::parse::Command;
use crate::script::reply::{At, Body, EventsReply, Kv, object_json};
use crate::script::why::OutputWhy;

/// Puts a continue token into the request builder (switching it to list if needed).
#[derive(Properties, PartialEq)]
struct UseTokenProps {
    token: String,
}

#[function_component(UseToken)]
fn use_token(p: &UseTokenProps) -> Html {
    let tr = use_tr();
    let spec = use_context::<SpecHandle>().expect("SpecHandle context");
    let token = p.token.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        let mut s = (*spec).clone();
        if !s.verb.is_collection_read() {
            s.verb = lines::Verb::List;
        }
        s.continue_token = token.clone();
        spec.set(s);
    });
    html! { <button type="button" class="small use-token" {onclick} title={tr.t(K::UseTokenTitle)}>{ tr.t(K::UseToken) }</button> }
}

fn token_box(id: &'static str, label: &str, token: &str) -> Html {
    let decoded = match lines::decode_continue(token) {
        Ok(v) => v.to_string(),
        Err(e) => e,
    };
    html! {
        <div {id} class="token">
            <div class="row-head"><span class="muted small">{ label }</span><UseToken token={token.to_string()} /></div>
            <code class="mono tok">{ token.to_string() }</code>
            <div class="mono decoded">{ format!("= {decoded}") }</div>
        </div>
    }
}

/// A watch frame's row, with its "why" in a disclosure.
pub fn frame_row(tr: Tr, f: &lines::Frame, message: &str) -> Html {
    let what = match f.kind {
        FrameType::Error => format!("{} {message}", f.detail).trim().to_string(),
        FrameType::Added | FrameType::Modified | FrameType::Deleted | FrameType::Bookmark => f.name.clone(),
    };
    html! {
        <tr class={classes!("ev", format!("ev-{}", f.kind.as_str().to_lowercase()))}>
            <td>{ f.kind.as_str() }</td><td class="mono">{ what }</td><td class="mono">{ f.rv.clone() }</td>
            <td class="why-cell"><details class="why-frame"><summary>{ tr.t(K::Why) }</summary><p>{ why::frame(tr, f) }</p></details></td>
        </tr>
    }
}

pub fn frames_head(tr: Tr) -> Html {
    html! { <thead><tr><th>{ tr.t(K::ColType) }</th><th>{ tr.t(K::ColObject) }</th><th>{ "RV" }</th><th>{ tr.t(K::ColWhy) }</th></tr></thead> }
}

/// The JSON viewer shows this many bytes at first (each "show more" doubles it).
pub const JSON_SHOWN: usize = 64 * 1024;
/// Lists, frames and keys show this many rows at first (each "show more" doubles it).
pub const ROWS_SHOWN: usize = 200;

/// The frames of an `events` line, each with the decisions behind it (`ended`: why the stream
/// ended; `watch_why`: the output that opened the watch) and, for an ERROR frame, the message
/// its Status shows in the output.
fn events_table(
    tr: Tr,
    e: &EventsReply,
    ended: Option<&OutputWhy>,
    watch_why: Option<&OutputWhy>,
    rows_max: usize,
) -> Html {
    let frames = lines::frames_of(e, ended, watch_why);
    let rows = frames.iter().zip(&e.events).take(rows_max).map(|(f, ev)| {
        let message = ev.error.as_ref().map_or("", |s| s.message.as_str());
        frame_row(tr, f, message)
    });
    html! {
        <table id="response-events" class="grid">
            { frames_head(tr) }
            <tbody>{ for rows }</tbody>
        </table>
    }
}

pub fn kvs_table(tr: Tr, id: &'static str, kvs: &[Kv]) -> Html {
    let rows = kvs.iter().map(|kv| {
        html! {
            <tbody class="kv">
                <tr>
                    <td class="mono key">{ kv.key.clone() }</td>
                    <td class="num">{ kv.create_revision }</td>
                    <td class="num">{ kv.mod_revision }</td>
                    <td class="num">{ kv.version }</td>
                </tr>
                <tr><td colspan="4" class="mono val">{ kv.value.clone() }</td></tr>
            </tbody>
        }
    });
    html! {
        <table {id} class="grid kvs">
            <thead><tr><th>{ tr.t(K::ColKeyValue) }</th><th title="create_revision">{ tr.t(K::ColCreate) }</th><th title="mod_revision">{ tr.t(K::ColMod) }</th><th title="version">{ tr.t(K::ColVer) }</th></tr></thead>
            { for rows }
        </table>
    }
}

/// The "explain" switch: emits `set explain on|off`; its state is the session's at the scrubber.
#[function_component(ExplainToggle)]
fn explain_toggle() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let on = lab.session().explains();
    let onchange = {
        let lab = lab.clone();
        Callback::from(move |e: Event| {
            let checked = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            let line = format!("set explain {}", if checked { "on" } else { "off" });
            lab.dispatch(super::state::Action::Run(vec![line]));
        })
    };
    html! {
        <label class="check small" title={tr.t(K::ExplainTitle)}>
            <input id="explain-toggle" type="checkbox" checked={on} {onchange} disabled={lab.readonly} />{ tr.t(K::ExplainToggle) }
        </label>
    }
}

fn head(tr: Tr) -> Html {
    html! { <div class="row-head"><h2 id="resp-h">{ tr.t(K::ResponseHeading) }</h2><ExplainToggle /></div> }
}

#[derive(Properties, PartialEq, Default)]
pub struct ResponseProps {
    /// In an embed, which has no request builder: the empty view says to type a line.
    #[prop_or_default]
    pub embed: bool,
}

#[function_component(ResponseView)]
pub fn response_view(p: &ResponseProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    // "Show more": (entry, how many times) — a new entry starts small again.
    let more = use_state(|| (usize::MAX, 0u32));
    let Some(i) = lab.shown() else {
        return html! {
            <section class="response" aria-labelledby="resp-h">
                { head(tr) }
                <div id="response"><p class="empty">{ tr.t(if p.embed { K::RespEmptyEmbed } else { K::RespEmpty }) }</p></div>
            </section>
        };
    };
    let entry = &lab.entries[i];
    let Some(out) = entry.out.as_deref() else {
        return html! {
            <section class="response" aria-labelledby="resp-h">
                { head(tr) }
                <div id="response"><p class="empty">{ tr.t(K::RespComment) }</p></div>
            </section>
        };
    };

    let factor = if more.0 == i { 1usize << more.1.min(20) } else { 1 };
    let (rows_max, json_max) = (ROWS_SHOWN * factor, JSON_SHOWN * factor);
    let show_more = |rest: usize, id: &'static str| {
        let more = more.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let n = if more.0 == i { more.1 + 1 } else { 1 };
            more.set((i, n));
        });
        html! { <button {id} type="button" class="small show-more" {onclick}>{ tr.f(K::ShowMore, &[&rest]) }</button> }
    };
    let mut parts: Vec<Html> = Vec::new();

    if let Some(err) = why::error(tr, entry) {
        parts.push(html! { <p id="line-error" class="error-box" role="alert">{ err }</p> });
    }

    if let Some(a) = entry.reply.api() {
        let status = lines::status_line(a);
        let err = lines::is_error(&entry.reply, entry.failure.is_some());
        parts.push(html! { <p id="status" class={classes!("status", err.then_some("err"))}>{ status }</p> });
    }

    let api = entry.reply.api();
    if let Some(headers) = api.map(|a| &a.headers).filter(|h| !h.is_empty()) {
        let rows = headers.iter().map(|(k, v)| {
            let id = if k.eq_ignore_ascii_case("Retry-After") { Some("retry-after") } else { None };
            html! { <li id={id} class="mono">{ format!("{k}: {v}") }</li> }
        });
        parts.push(html! { <ul id="headers" class="headers">{ for rows }</ul> });
    }

    // "Why?" only when there is something to say: never an empty box.
    let text = why::explain(tr, entry);
    if !(text.framing.is_empty() && text.engine.is_empty()) {
        let framing = text.framing.into_iter().map(|p| html! { <p>{ p }</p> });
        let lang = tr.0.code();
        let engine = (!text.engine.is_empty()).then(|| {
            let paragraphs = text.engine.into_iter().map(|p| html! { <p>{ p }</p> });
            html! { <div class="engine-why"><span class="muted small">{ tr.t(K::WhyEngine) }</span>
            <div id="explain" class="explain engine-text" {lang}>{ for paragraphs }</div></div> }
        });
        parts.push(html! {
            <details id="why" class="why" open=true>
                <summary>{ tr.t(K::Why) }</summary>
                <div id="why-text">{ for framing }</div>
                { for engine }
            </details>
        });
    }

    let body = api.map(|a| &a.body);
    if let Some(Body::Status(st)) = body.filter(|b| matches!(b, Body::Status(st) if st.is_failure())) {
        let code = st.code.map(|c| c.to_string()).unwrap_or_default();
        let causes: Vec<Html> = st
            .causes
            .iter()
            .map(|c| html! { <li><span class="mono">{ c.field.clone() }</span>{ format!(" {} ({})", c.message, c.reason) }</li> })
            .collect();
        parts.push(html! {
            <div id="status-error" class="error-box" role="alert">
                <div><strong class="reason">{ st.reason.clone() }</strong><span class="code">{ tr.f(K::StatusCode, &[&code]) }</span></div>
                <div class="message">{ st.message.clone() }</div>
                if !causes.is_empty() { <ul class="causes">{ for causes }</ul> }
            </div>
        });
    }

    if let Some(body) = body {
        if let Body::List(l) = body {
            let n = l.items.len();
            let rv = l.resource_version.as_deref().unwrap_or("");
            let mut meta = format!("{} · {}", tr.items(n), tr.f(K::ListMeta, &[&rv]));
            if let Some(r) = l.remaining_item_count {
                meta.push_str(&format!(" · remainingItemCount {r}"));
            }
            let names = l.items.iter().take(rows_max).map(|it| {
                let ns = it
                    .namespace
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map(|n| format!("{n}/"))
                    .unwrap_or_default();
                let name = it.name.as_deref().unwrap_or("");
                let rv = it.resource_version.as_deref().unwrap_or("");
                html! { <li><span class="mono">{ format!("{ns}{name}") }</span>
                <span class="muted">{ format!(" RV {rv}") }</span></li> }
            });
            let rest = n.saturating_sub(rows_max);
            parts.push(html! { <div id="list-summary"><p class="muted">{ meta }</p><ul class="items">{ for names }</ul>
                if rest > 0 { { show_more(rest, "items-more") } }</div> });
        }
        if let Some(token) = body.continue_token() {
            let label = match body {
                Body::Status(_) => tr.t(K::ContinueLabelErr),
                Body::List(_) | Body::Object(_) | Body::None => tr.t(K::ContinueLabel),
            };
            parts.push(token_box("continue-decoded", label, token));
        }
    }
    if let Some(tok) = entry.reply.api().and_then(|a| a.continued.as_deref()).filter(|t| !t.is_empty()) {
        parts.push(token_box("request-continue-decoded", tr.t(K::RequestContinue), tok));
    }

    if let Some(e) = entry.reply.events() {
        if e.events.is_empty() {
            parts.push(html! { <p class="muted">{ tr.t(K::NoNewEvents) }</p> });
        } else {
            // The decision that opened this watch, from the log up to this line.
            let watch_why = match entry.command.as_deref() {
                Some(Command::Events { watch }) => lab
                    .session()
                    .watches()
                    .into_iter()
                    .find(|w| &w.id == watch && w.script.reads.contains(&(i + 1)))
                    .and_then(|w| lab.entries.get(w.line.saturating_sub(1))?.why.as_deref().cloned()),
                _ => None,
            };
            parts.push(events_table(tr, e, entry.why.as_deref(), watch_why.as_ref(), rows_max));
            if e.events.len() > rows_max {
                parts.push(show_more(e.events.len() - rows_max, "events-more"));
            }
        }
        if e.closed {
            parts.push(html! { <p class="warn">{ tr.t(K::ServerClosedWatch) }</p> });
        }
    }

    if let Some(kvs) = entry.reply.etcd().filter(|r| r.is_read() && r.error.is_none()).map(|r| &r.kvs) {
        parts.push(kvs_table(tr, "response-kvs", &kvs[..kvs.len().min(rows_max)]));
        if kvs.len() > rows_max {
            parts.push(show_more(kvs.len() - rows_max, "kvs-more"));
        }
    }

    let body = object_json(out, At::Body);
    let shown_json = body.unwrap_or(out);
    let mut pretty = serde_json::to_string_pretty(shown_json).unwrap_or_default();
    let total = pretty.len();
    let cut = (total > json_max).then(|| {
        let mut end = json_max;
        while !pretty.is_char_boundary(end) {
            end -= 1;
        }
        pretty.truncate(end);
        pretty.push('…');
        let more = more.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let n = if more.0 == i { more.1 + 1 } else { 1 };
            more.set((i, n));
        });
        html! { <p id="json-cut" class="small warn">{ tr.f(K::JsonCut, &[&(end / 1024), &total.div_ceil(1024)]) }{ " " }
            <button id="json-more" type="button" class="small show-more" {onclick}>{ tr.t(K::ShowAllJson) }</button></p> }
    });
    parts.push(html! {
        <details class="json" open=true>
            <summary>{ if body.is_some() { tr.t(K::BodyLabel) } else { tr.t(K::OutputLabel) } }</summary>
            <pre id="response-json" class="mono">{ pretty }</pre>
            { for cut }
        </details>
    });

    let latest = lab.selected.is_none() || lab.visible().iter().rposition(|e| e.out.is_some()) == Some(i);
    html! {
        <section class="response" aria-labelledby="resp-h">
            { head(tr) }
            <div id="response">
                <p class="resp-line"><span class="ln">{ tr.f(K::LineN, &[&(i + 1)]) }</span>
                    <code class="mono">{ super::model::clip(&entry.line, 4000) }</code>
                    if !latest { <span class="muted small">{ tr.t(K::NotLatest) }</span> }
                </p>
                { for parts }
            </div>
        </section>
    }
}
