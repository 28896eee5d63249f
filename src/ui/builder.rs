//! The request builder: a form over every read/write option, the exact script line it makes,
//! the equivalent kubectl command, and Send (which appends the line to the log).

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::lines::{self, RequestSpec, Verb};
use super::messages::Messages;
use super::state::{Action, Lab, LabHandle, Place, SpecHandle};

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// Refreshes the body editor for create (a template) and update (the newest copy of the object
/// in the outputs, else a template). Other verbs keep what was typed.
fn refill(spec: &mut RequestSpec, lab: &Lab) {
    match spec.verb {
        Verb::Create => spec.body = lines::body_template(&spec.resource, &spec.namespace, &spec.name),
        Verb::Update => {
            let kind = lines::kind_of(&spec.resource);
            spec.body = lines::latest_object(lab.answers(), kind, spec.namespace.trim(), spec.name.trim())
                .and_then(|o| serde_json::to_string_pretty(&o).ok())
                .unwrap_or_else(|| lines::body_template(&spec.resource, &spec.namespace, &spec.name));
        }
        _ => {}
    }
}

/// Clears the options `spec` holds that its verb cannot take, and says which: resourceVersion
/// for writes; resourceVersionMatch for writes, for a get (GetOptions has none) and for a watch
/// without sendInitialEvents (apimachinery `validateWatchOptions`); limit, continue and
/// labelSelector outside list and watch (the fields the form shows for them); the watch-only
/// options outside watch.
pub fn clear_unfit(spec: &mut RequestSpec) -> Vec<&'static str> {
    let v = spec.verb;
    let mut gone = Vec::new();
    let mut clear = |name: &'static str, field: &mut String, unfit: bool| {
        if unfit && !field.trim().is_empty() {
            field.clear();
            gone.push(name);
        }
    };
    let watch_match = v == Verb::Watch && !spec.send_initial_events.is_empty();
    clear("resourceVersion", &mut spec.resource_version, !v.is_read());
    clear("resourceVersionMatch", &mut spec.rv_match, !(v == Verb::List || watch_match));
    let coll = v.is_collection_read();
    clear("limit", &mut spec.limit, !coll);
    clear("continue", &mut spec.continue_token, !coll);
    clear("labelSelector", &mut spec.label_selector, !coll);
    clear("sendInitialEvents", &mut spec.send_initial_events, v != Verb::Watch);
    clear("timeoutSeconds", &mut spec.timeout_seconds, v != Verb::Watch);
    if v != Verb::Watch && spec.allow_bookmarks {
        spec.allow_bookmarks = false;
        gone.push("allowWatchBookmarks");
    }
    gone
}

/// Scrolls the page so that the response panel of the app `builder` is in is in view: nothing
/// when it already is, else its nearest edge (its top when it is taller than the window).
fn show_response(builder: &web_sys::Element) {
    let Some(el) =
        builder.closest(".panes").ok().flatten().and_then(|p| p.query_selector(".response").ok().flatten())
    else {
        return;
    };
    let Some(win) = builder.owner_document().and_then(|d| d.default_view()) else { return };
    let r = el.get_bounding_client_rect();
    let vh = win.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    if r.top() >= 0.0 && r.bottom() <= vh {
        return;
    }
    let opts = js_sys::Object::new();
    let block = if r.height() > vh { "start" } else { "nearest" };
    let _ = js_sys::Reflect::set(&opts, &"block".into(), &block.into());
    if let Ok(f) = js_sys::Reflect::get(&el, &"scrollIntoView".into())
        .and_then(wasm_bindgen::JsCast::dyn_into::<js_sys::Function>)
    {
        let _ = f.call1(&el, &opts);
    }
}

#[function_component(RequestBuilder)]
pub fn request_builder() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let spec = use_context::<SpecHandle>().expect("SpecHandle context");
    // The namespace typed before "all namespaces" was ticked, to restore it.
    let last_ns = use_state(|| "default".to_string());

    // A text field: `set` writes it; `refills` says whether the body editor follows it.
    let text_field = |set: fn(&mut RequestSpec, String), refills: bool| {
        let spec = spec.clone();
        let lab = lab.clone();
        Callback::from(move |e: InputEvent| {
            let mut s = (*spec).clone();
            set(&mut s, input_value(&e));
            if refills {
                refill(&mut s, &lab);
            }
            spec.set(s);
        })
    };
    let select_field = |set: fn(&mut RequestSpec, String), refills: bool| {
        let spec = spec.clone();
        let lab = lab.clone();
        Callback::from(move |e: Event| {
            let mut s = (*spec).clone();
            set(&mut s, select_value(&e));
            if refills {
                refill(&mut s, &lab);
            }
            spec.set(s);
        })
    };

    // What the last verb change cleared, for the one-line hint.
    let cleared = use_state(Vec::<&'static str>::new);
    let on_verb = {
        let spec = spec.clone();
        let lab = lab.clone();
        let cleared = cleared.clone();
        Callback::from(move |e: Event| {
            let mut s = (*spec).clone();
            s.verb = Verb::parse(&select_value(&e)).unwrap_or(Verb::List);
            cleared.set(clear_unfit(&mut s));
            refill(&mut s, &lab);
            spec.set(s);
        })
    };
    let on_resource = select_field(|s, v| s.resource = v, true);
    let on_ns = {
        let last_ns = last_ns.clone();
        let inner = text_field(|s, v| s.namespace = v, true);
        Callback::from(move |e: InputEvent| {
            last_ns.set(input_value(&e));
            inner.emit(e);
        })
    };
    let on_all_ns = {
        let spec = spec.clone();
        let lab = lab.clone();
        let last_ns = last_ns.clone();
        Callback::from(move |e: Event| {
            let all = e.target_unchecked_into::<HtmlInputElement>().checked();
            let mut s = (*spec).clone();
            s.namespace = if all { String::new() } else { (*last_ns).clone() };
            refill(&mut s, &lab);
            spec.set(s);
        })
    };
    let on_name = text_field(|s, v| s.name = v, true);
    let on_rv = text_field(|s, v| s.resource_version = v, false);
    let on_rv_pick = select_field(|s, v| s.resource_version = v, false);
    let on_match = select_field(|s, v| s.rv_match = v, false);
    let on_limit = text_field(|s, v| s.limit = v, false);
    let on_continue = text_field(|s, v| s.continue_token = v, false);
    let on_continue_pick = select_field(|s, v| s.continue_token = v, false);
    let on_selector = text_field(|s, v| s.label_selector = v, false);
    let on_bookmarks = {
        let spec = spec.clone();
        Callback::from(move |e: Event| {
            let mut s = (*spec).clone();
            s.allow_bookmarks = e.target_unchecked_into::<HtmlInputElement>().checked();
            spec.set(s);
        })
    };
    let on_initial = select_field(
        |s, v| {
            s.send_initial_events = v;
            clear_unfit(s);
        },
        false,
    );
    let on_timeout = text_field(|s, v| s.timeout_seconds = v, false);
    let on_body = {
        let spec = spec.clone();
        Callback::from(move |e: InputEvent| {
            let mut s = (*spec).clone();
            s.body = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            spec.set(s);
        })
    };
    let on_fill = {
        let spec = spec.clone();
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            let mut s = (*spec).clone();
            refill(&mut s, &lab);
            spec.set(s);
        })
    };

    let line = lines::request_line(&spec);
    // The line sent last: once it has run, its response is brought into view (in lesson mode,
    // and on a phone, the builder sits below the response).
    let sent = use_mut_ref(|| None::<String>);
    let section = use_node_ref();
    {
        let sent = sent.clone();
        let section = section.clone();
        let last = lab.entries.last().map(|e| e.line.to_string());
        use_effect_with(lab.entries.len(), move |_| {
            let line = sent.borrow_mut().take();
            if line.is_some()
                && line == last
                && let Some(el) = section.cast::<web_sys::Element>()
            {
                show_response(&el);
            }
        });
    }
    let send = {
        let lab = lab.clone();
        let line = line.clone();
        move || {
            *sent.borrow_mut() = Some(line.clone());
            lab.dispatch(Action::RunAt(Place::Builder, vec![line.clone()]));
        }
    };
    let on_submit = {
        let send = send.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send();
        })
    };
    // Ctrl+Enter in the body editor sends.
    let on_body_key = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
            e.prevent_default();
            send();
        }
    });

    let v = spec.verb;
    let rvs: Vec<u64> = lab.seen().revisions().take(60).collect();
    let tokens: Vec<String> = lab.seen().tokens().take(40).map(str::to_string).collect();
    let all_ns = spec.namespace.is_empty();
    let body_invalid = v.has_body() && serde_json::from_str::<serde_json::Value>(&spec.body).is_err();

    let verb_options = Verb::ALL.iter().map(|x| {
        html! { <option value={x.as_str()} selected={*x == v}>{ x.as_str() }</option> }
    });
    let resource_options = lines::RESOURCES.iter().map(|r| {
        html! { <option value={*r} selected={spec.resource == *r}>{ *r }</option> }
    });

    let name_row = if v.names_object() || v == Verb::Create {
        let label = if v == Verb::Create { tr.t(K::NameInBody) } else { tr.t(K::Name) };
        html! {
            <label class="field"><span>{ label }</span>
                <input id="rb-name" type="text" spellcheck="false" placeholder="a"
                    value={spec.name.clone()} oninput={on_name} />
            </label>
        }
    } else {
        html! {}
    };

    // Which verbs take resourceVersionMatch (see clear_unfit), and why not.
    let match_off = match v {
        Verb::Get => Some(K::BuilderMatchGet),
        Verb::Watch if spec.send_initial_events.is_empty() => Some(K::BuilderMatchWatch),
        _ => None,
    };
    let read_rows = if v.is_read() {
        let mut rv_opts = vec![
            html! { <option value="" selected={spec.resource_version.is_empty()}>{ tr.t(K::RvUnset) }</option> },
        ];
        rv_opts.push(
            html! { <option value="0" selected={spec.resource_version == "0"}>{ tr.t(K::RvAny) }</option> },
        );
        for r in &rvs {
            let s = r.to_string();
            let sel = spec.resource_version == s;
            rv_opts.push(html! { <option value={s.clone()} selected={sel}>{ s }</option> });
        }
        let matches = ["", "Exact", "NotOlderThan"].iter().map(|m| {
            let label = if m.is_empty() { tr.t(K::Unset) } else { m };
            html! { <option value={*m} selected={spec.rv_match == *m}>{ label }</option> }
        });
        html! {
            <>
            <div class="field wide">
                <label for="rb-rv">{ "resourceVersion" }</label>
                <div class="pair">
                    <input id="rb-rv" type="text" inputmode="numeric" spellcheck="false" placeholder={tr.t(K::Unset)}
                        value={spec.resource_version.clone()} oninput={on_rv} />
                    <select id="rb-rv-pick" aria-label={tr.t(K::RvSeen)} onchange={on_rv_pick}>{ for rv_opts }</select>
                </div>
            </div>
            <label class="field"><span>{ "resourceVersionMatch" }</span>
                <select id="rb-match" onchange={on_match} disabled={match_off.is_some()}>{ for matches }</select>
                if let Some(k) = match_off { <span id="rb-match-hint" class="hint">{ tr.t(k) }</span> }
            </label>
            </>
        }
    } else {
        html! {}
    };

    let list_rows = if v.is_collection_read() {
        let mut tok_opts = vec![
            html! { <option value="" selected={spec.continue_token.is_empty()}>{ if tokens.is_empty() { tr.t(K::NoTokens) } else { tr.t(K::PickToken) } }</option> },
        ];
        for t in &tokens {
            let sel = spec.continue_token == *t;
            tok_opts.push(
                html! { <option value={t.clone()} selected={sel}>{ lines::describe_token(t) }</option> },
            );
        }
        let decoded = if spec.continue_token.trim().is_empty() {
            html! {}
        } else {
            let d = match lines::decode_continue(&spec.continue_token) {
                Ok(j) => j.to_string(),
                Err(e) => e,
            };
            html! { <p id="rb-continue-decoded" class="hint mono">{ tr.f(K::Decoded, &[&d]) }</p> }
        };
        html! {
            <>
            <label class="field"><span>{ "limit" }</span>
                <input id="rb-limit" type="text" inputmode="numeric" placeholder={tr.t(K::Unset)}
                    value={spec.limit.clone()} oninput={on_limit} />
            </label>
            <div class="field wide">
                <label for="rb-continue">{ "continue" }</label>
                <div class="pair">
                    <input id="rb-continue" type="text" spellcheck="false" placeholder={tr.t(K::Unset)}
                        value={spec.continue_token.clone()} oninput={on_continue} />
                    <select id="rb-continue-pick" aria-label={tr.t(K::TokensSeen)} onchange={on_continue_pick}>{ for tok_opts }</select>
                </div>
                { decoded }
            </div>
            <label class="field"><span>{ "labelSelector" }</span>
                <input id="rb-selector" type="text" spellcheck="false" placeholder="app=web"
                    value={spec.label_selector.clone()} oninput={on_selector} />
            </label>
            </>
        }
    } else {
        html! {}
    };

    let watch_rows = if v == Verb::Watch {
        let initial = ["", "true", "false"].iter().map(|m| {
            let label = if m.is_empty() { tr.t(K::Unset) } else { m };
            html! { <option value={*m} selected={spec.send_initial_events == *m}>{ label }</option> }
        });
        html! {
            <>
            <label class="field check"><input id="rb-bookmarks" type="checkbox" checked={spec.allow_bookmarks} onchange={on_bookmarks} />
                <span>{ "allowWatchBookmarks" }</span></label>
            <label class="field"><span>{ "sendInitialEvents" }</span>
                <select id="rb-initial" onchange={on_initial}>{ for initial }</select>
            </label>
            <label class="field"><span>{ "timeoutSeconds" }</span>
                <input id="rb-timeout" type="text" inputmode="numeric" placeholder={tr.t(K::Unset)}
                    value={spec.timeout_seconds.clone()} oninput={on_timeout} />
            </label>
            </>
        }
    } else {
        html! {}
    };

    let body_row = if v.has_body() {
        html! {
            <div class="field wide">
                <div class="row-head">
                    <label for="rb-body">{ tr.t(K::BodyField) }</label>
                    <button id="rb-fill" type="button" class="small" onclick={on_fill}
                        title={tr.t(K::FillTitle)}>
                        { if v == Verb::Update { tr.t(K::LoadLatest) } else { tr.t(K::Template) } }</button>
                </div>
                <textarea id="rb-body" rows="8" spellcheck="false" value={spec.body.clone()}
                    oninput={on_body} onkeydown={on_body_key} />
                if body_invalid { <p class="hint warn">{ tr.t(K::BodyInvalid) }</p> }
            </div>
        }
    } else {
        html! {}
    };

    html! {
        <section class="request" aria-labelledby="rb-h" ref={section}>
            <h2 id="rb-h">{ tr.t(K::RequestHeading) }</h2>
            <form id="request-form" class="builder" onsubmit={on_submit}>
                if !cleared.is_empty() {
                    <p id="rb-cleared" class="hint wide warn" role="status">{ tr.f(K::BuilderCleared, &[&cleared.join(", "), &v.as_str()]) }</p>
                }
                <label class="field"><span>{ tr.t(K::Verb) }</span>
                    <select id="rb-verb" onchange={on_verb}>{ for verb_options }</select></label>
                <label class="field"><span>{ tr.t(K::Resource) }</span>
                    <select id="rb-resource" onchange={on_resource}>{ for resource_options }</select></label>
                <div class="field">
                    <label for="rb-ns">{ tr.t(K::Namespace) }</label>
                    <div class="pair">
                        <input id="rb-ns" type="text" spellcheck="false" disabled={all_ns}
                            value={if all_ns { String::new() } else { spec.namespace.clone() }}
                            placeholder={if all_ns { tr.t(K::AllNamespaces) } else { "default" }} oninput={on_ns} />
                        <label class="check"><input id="rb-allns" type="checkbox" checked={all_ns} onchange={on_all_ns} />{ tr.t(K::AllNs) }</label>
                    </div>
                </div>
                { name_row }
                { read_rows }
                { list_rows }
                { watch_rows }
                { body_row }
                <div class="preview wide">
                    <div class="row-head"><span class="muted">{ tr.t(K::ScriptLine) }</span></div>
                    <code id="request-line" class="mono">{ line.clone() }</code>
                    <div class="row-head"><span class="muted">{ tr.t(K::KubectlLabel) }</span></div>
                    <code id="kubectl-line" class="mono">{ lines::kubectl_line(&spec) }</code>
                </div>
                <div class="actions wide">
                    <button id="send" type="submit">{ tr.t(K::Send) }</button>
                </div>
            </form>
            <Messages at={Place::Builder} />
        </section>
    }
}
