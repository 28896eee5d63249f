//! The response viewer: the selected (or latest) output — status line, headers, the explain
//! text, a Status error highlighted, the continue token decoded, watch frames, etcd key-values,
//! and the whole JSON, pretty-printed. Every value is rendered as text.

use serde_json::Value;
use yew::prelude::*;

use super::LabHandle;
use super::lines;

fn s<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// Puts a continue token into the request builder (switching it to list if needed).
#[derive(Properties, PartialEq)]
struct UseTokenProps {
    token: String,
}

#[function_component(UseToken)]
fn use_token(p: &UseTokenProps) -> Html {
    let spec = use_context::<super::SpecHandle>().expect("SpecHandle context");
    let token = p.token.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        let mut s = (*spec).clone();
        if !s.verb.is_collection_read() {
            s.verb = lines::Verb::List;
        }
        s.continue_token = token.clone();
        spec.set(s);
    });
    html! { <button type="button" class="small use-token" {onclick} title="Put this token in the request builder's continue field">{ "Use in request" }</button> }
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

fn events_table(events: &[Value]) -> Html {
    let rows = events.iter().map(|ev| {
        let t = s(ev, "/type");
        let o = ev.get("object").cloned().unwrap_or(Value::Null);
        let detail = if t == "ERROR" {
            format!("{} {} {}", o.get("code").map(|c| c.to_string()).unwrap_or_default(), s(&o, "/reason"), s(&o, "/message"))
        } else {
            s(&o, "/metadata/name").to_string()
        };
        html! {
            <tr class={classes!("ev", format!("ev-{}", t.to_lowercase()))}>
                <td>{ t.to_string() }</td><td class="mono">{ detail }</td><td class="mono">{ s(&o, "/metadata/resourceVersion").to_string() }</td>
            </tr>
        }
    });
    html! {
        <table id="response-events" class="grid">
            <thead><tr><th>{ "type" }</th><th>{ "object" }</th><th>{ "RV" }</th></tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}

pub fn kvs_table(id: &'static str, kvs: &[Value]) -> Html {
    let rows = kvs.iter().map(|kv| {
        let cell = |k: &str| match kv.get(k) {
            Some(Value::String(x)) => x.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        html! {
            <tbody class="kv">
                <tr>
                    <td class="mono key">{ cell("key") }</td>
                    <td class="num">{ cell("create_revision") }</td>
                    <td class="num">{ cell("mod_revision") }</td>
                    <td class="num">{ cell("version") }</td>
                </tr>
                <tr><td colspan="4" class="mono val">{ cell("value") }</td></tr>
            </tbody>
        }
    });
    html! {
        <table {id} class="grid kvs">
            <thead><tr><th>{ "key / value" }</th><th title="create_revision">{ "create" }</th><th title="mod_revision">{ "mod" }</th><th>{ "ver" }</th></tr></thead>
            { for rows }
        </table>
    }
}

/// The query parameter `key` of a request line, raw.
fn query_param(line: &str, key: &str) -> Option<String> {
    let path = line.split_whitespace().nth(1)?;
    let (_, q) = path.split_once('?')?;
    q.split('&').find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=').map(String::from))
}

/// The "explain" switch: emits `set explain on|off`; its state is read back from the log.
#[function_component(ExplainToggle)]
fn explain_toggle() -> Html {
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let on = lines::explain_on(lab.entries.iter().map(|e| (e.line.as_str(), e.out.as_deref())));
    let onchange = {
        let lab = lab.clone();
        Callback::from(move |e: Event| {
            let checked = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            let line = format!("set explain {}", if checked { "on" } else { "off" });
            lab.dispatch(super::state::Action::Run(vec![line]));
        })
    };
    html! {
        <label class="check small" title="Adds the engine's reason to every API response (a `set explain` line)">
            <input id="explain-toggle" type="checkbox" checked={on} {onchange} />{ "explain why" }
        </label>
    }
}

fn head() -> Html {
    html! { <div class="row-head"><h2 id="resp-h">{ "Response" }</h2><ExplainToggle /></div> }
}

#[function_component(ResponseView)]
pub fn response_view() -> Html {
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let Some(i) = lab.shown() else {
        return html! {
            <section class="response" aria-labelledby="resp-h">
                { head() }
                <div id="response"><p class="empty">{ "No request sent yet. Build a request and press Send, or type a line in the console." }</p></div>
            </section>
        };
    };
    let entry = &lab.entries[i];
    let Some(out) = entry.out.as_deref() else {
        return html! {
            <section class="response" aria-labelledby="resp-h">
                { head() }
                <div id="response"><p class="empty">{ "This line is a comment: it has no output." }</p></div>
            </section>
        };
    };

    let mut parts: Vec<Html> = Vec::new();

    if let Some(err) = out.get("error").and_then(Value::as_str) {
        parts.push(html! { <p id="line-error" class="error-box" role="alert">{ err.to_string() }</p> });
    }

    if let Some(status) = lines::status_line(out) {
        let err = lines::is_error(out);
        parts.push(html! { <p id="status" class={classes!("status", err.then_some("err"))}>{ status }</p> });
    }

    if let Some(headers) = out.get("headers").and_then(Value::as_object) {
        let rows = headers.iter().map(|(k, v)| {
            let v = v.as_str().map(String::from).unwrap_or_else(|| v.to_string());
            let id = if k.eq_ignore_ascii_case("Retry-After") { Some("retry-after") } else { None };
            html! { <li id={id} class="mono">{ format!("{k}: {v}") }</li> }
        });
        parts.push(html! { <ul id="headers" class="headers">{ for rows }</ul> });
    }

    if let Some(explain) = out.get("explain").and_then(Value::as_str) {
        parts.push(html! { <p id="explain" class="explain">{ explain.to_string() }</p> });
    }

    let body = out.get("body");
    if let Some(body) = body.filter(|b| s(b, "/kind") == "Status" && s(b, "/status") == "Failure") {
        let code = body.get("code").map(|c| c.to_string()).unwrap_or_default();
        let causes: Vec<Html> = body
            .pointer("/details/causes")
            .and_then(Value::as_array)
            .map(|cs| {
                cs.iter()
                    .map(|c| html! { <li><span class="mono">{ s(c, "/field").to_string() }</span>{ format!(" {} ({})", s(c, "/message"), s(c, "/reason")) }</li> })
                    .collect()
            })
            .unwrap_or_default();
        parts.push(html! {
            <div id="status-error" class="error-box" role="alert">
                <div><strong class="reason">{ s(body, "/reason").to_string() }</strong><span class="code">{ format!(" · code {code}") }</span></div>
                <div class="message">{ s(body, "/message").to_string() }</div>
                if !causes.is_empty() { <ul class="causes">{ for causes }</ul> }
            </div>
        });
    }

    if let Some(body) = body {
        if let Some(items) = body.get("items").and_then(Value::as_array) {
            let n = items.len();
            let mut meta =
                format!("{n} item{} · list RV {}", if n == 1 { "" } else { "s" }, s(body, "/metadata/resourceVersion"));
            if let Some(r) = body.pointer("/metadata/remainingItemCount") {
                meta.push_str(&format!(" · remainingItemCount {r}"));
            }
            let names = items.iter().map(|it| {
                html! { <li><span class="mono">{ format!("{}{}", if s(it, "/metadata/namespace").is_empty() { String::new() } else { format!("{}/", s(it, "/metadata/namespace")) }, s(it, "/metadata/name")) }</span>
                    <span class="muted">{ format!(" RV {}", s(it, "/metadata/resourceVersion")) }</span></li> }
            });
            parts.push(html! { <div id="list-summary"><p class="muted">{ meta }</p><ul class="items">{ for names }</ul></div> });
        }
        let token = s(body, "/metadata/continue");
        if !token.is_empty() {
            let label = if s(body, "/kind") == "Status" {
                "metadata.continue of this error (an inconsistent-list token):"
            } else {
                "metadata.continue (pass it as ?continue= for the next page):"
            };
            parts.push(token_box("continue-decoded", label, token));
        }
    }
    if let Some(tok) = query_param(&entry.line, "continue").filter(|t| !t.is_empty()) {
        parts.push(token_box("request-continue-decoded", "the request's continue token:", &tok));
    }

    if let Some(events) = out.get("events").and_then(Value::as_array) {
        if events.is_empty() {
            parts.push(html! { <p class="muted">{ "No new events." }</p> });
        } else {
            parts.push(events_table(events));
        }
        if out.get("closed").and_then(Value::as_bool) == Some(true) {
            parts.push(html! { <p class="warn">{ "The server closed this watch." }</p> });
        }
    }

    if let Some(kvs) = out.get("kvs").and_then(Value::as_array) {
        parts.push(kvs_table("response-kvs", kvs));
    }

    let shown_json = body.unwrap_or(out);
    let pretty = serde_json::to_string_pretty(shown_json).unwrap_or_default();
    parts.push(html! {
        <details class="json" open=true>
            <summary>{ if body.is_some() { "body" } else { "output" } }</summary>
            <pre id="response-json" class="mono">{ pretty }</pre>
        </details>
    });

    let latest = lab.selected.is_none() || lab.entries.iter().rposition(|e| e.out.is_some()) == Some(i);
    html! {
        <section class="response" aria-labelledby="resp-h">
            { head() }
            <div id="response">
                <p class="resp-line"><span class="ln">{ format!("line {}", i + 1) }</span>
                    <code class="mono">{ entry.line.clone() }</code>
                    if !latest { <span class="muted small">{ " (selected — not the latest)" }</span> }
                </p>
                { for parts }
            </div>
        </section>
    }
}
