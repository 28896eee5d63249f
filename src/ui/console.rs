//! The console: the command log (every line run so far, with a one-line summary of its output)
//! and a text input speaking the same script language. Enter runs; ↑/↓ walk the history;
//! pasting several lines runs each of them.

use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::i18n::{K, Tr, use_tr};
use super::lines;
use super::messages::Messages;
use super::state::{Action, Entry, HoverHandle, LabHandle, Place};

/// One line of text saying what an output is, from the session's typed answer
/// (`script::summary`, which the console embed shows too).
pub fn summary(tr: Tr, entry: &Entry, out: &Value) -> String {
    crate::script::summary::summary(&entry.reply, entry.failure.as_deref(), out, super::why::lang(tr))
}

/// The most characters of one line the console shows (the response viewer shows it whole).
pub const MAX_SHOWN: usize = 2000;

/// The console shows at most this many rows (the rest of a long log is summarised).
pub const MAX_ROWS: usize = 300;

/// From this many rows on, the log is "long": rows out of view skip layout and paint (CSS
/// `content-visibility`), which would otherwise cost a frame per command at [`MAX_ROWS`] rows.
/// Shorter logs are laid out whole, so their height is exact from the first frame (embeds
/// size themselves to it).
pub const LONG_LOG: usize = 50;

/// The welcome panel's first lines (a create, a paged list, a read of etcd) and a watch.
const EXAMPLES: [&str; 4] = [
    super::welcome::TRY[0],
    super::welcome::TRY[1],
    "GET /api/v1/namespaces/default/pods?watch=true&resourceVersion=0",
    super::welcome::TRY[2],
];

/// The rows drawn of a long log, `first..end`: the newest, or those around the scrubber.
fn row_window(lab: &super::state::Lab) -> (usize, usize) {
    let total = lab.entries.len();
    let end =
        if lab.at + MAX_ROWS / 2 < total { (lab.at + MAX_ROWS / 2).max(MAX_ROWS.min(total)) } else { total };
    (end.saturating_sub(MAX_ROWS), end)
}

#[derive(Properties, PartialEq)]
struct RowProps {
    /// Index into the log.
    i: usize,
    entry: Entry,
    selected: bool,
    /// After the scrubber.
    future: bool,
    /// Highlighted from the timeline.
    hovered: bool,
    /// The log's one Tab stop.
    tab: bool,
    on_select: Callback<usize>,
    on_hover: Callback<Option<usize>>,
}

/// One row of the log. A component of its own, so that a new line draws one new row: the
/// others keep their props (the entry's output is shared, compared by pointer) and are skipped.
#[function_component(LogRow)]
fn log_row(p: &RowProps) -> Html {
    let tr = use_tr();
    let (i, n, entry, future) = (p.i, p.i + 1, &p.entry, p.future);
    let (class, summ) = match &entry.out {
        None => ("entry comment", String::new()),
        Some(out) => (
            if lines::is_error(&entry.reply, entry.failure.is_some()) { "entry err" } else { "entry" },
            summary(tr, entry, out),
        ),
    };
    let on_click = p.on_select.reform(move |_: MouseEvent| i);
    let enter = p.on_hover.reform(move |_: MouseEvent| Some(i));
    let leave = p.on_hover.reform(|_: MouseEvent| None);
    html! {
        <li class={classes!(class, p.selected.then_some("selected"), future.then_some("future"), p.hovered.then_some("hl"))}
            data-line={n.to_string()} onmouseenter={enter} onmouseleave={leave}>
            <button type="button" class="entry-btn" onclick={on_click} aria-pressed={p.selected.to_string()}
                tabindex={if p.tab { "0" } else { "-1" }}
                title={future.then(|| tr.t(K::FutureStep))}
                disabled={entry.out.is_none() && !future}>
                <span class="ln">{ n }</span>
                <span class="cmd mono">{ super::model::clip(&entry.line, MAX_SHOWN) }</span>
                if !summ.is_empty() { <span class="sum">{ summ }</span> }
            </button>
        </li>
    }
}

#[function_component(Console)]
pub fn console() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let hover = use_context::<HoverHandle>();
    let text = use_state(String::new);
    // Position in the history while walking it with ↑/↓ (index into the log).
    let hist = use_state(|| None::<usize>);
    let log_ref = use_node_ref();

    // Keep the newest line in view.
    {
        let log_ref = log_ref.clone();
        let n = lab.entries.len();
        use_effect_with(n, move |_| {
            if let Some(el) = log_ref.cast::<web_sys::Element>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    // And the line the panels show (the scrubber's, a selected one): scrolled to within the log
    // only (an embed's frame or the page around it never scrolls for it).
    {
        let log_ref = log_ref.clone();
        let key = (lab.shown(), lab.entries.len());
        use_effect_with(key, move |(shown, _)| {
            let Some(log) = log_ref.cast::<web_sys::Element>() else { return };
            let row = shown
                .and_then(|i| log.query_selector(&format!("li[data-line=\"{}\"]", i + 1)).ok().flatten());
            if let Some(row) = row {
                let (r, l) = (row.get_bounding_client_rect(), log.get_bounding_client_rect());
                let top = log.scroll_top() as f64;
                if r.top() < l.top() {
                    log.set_scroll_top((top + r.top() - l.top()).floor() as i32);
                } else if r.bottom() > l.bottom() {
                    log.set_scroll_top((top + r.bottom() - l.bottom()).ceil() as i32);
                }
            }
        });
    }

    // The lines sent last: the input keeps its text until they have actually run (a refusal or
    // the fork question leaves it there to fix or confirm).
    let sent = use_mut_ref(|| None::<Vec<String>>);
    {
        let text = text.clone();
        let hist = hist.clone();
        let sent = sent.clone();
        let lab = lab.clone();
        use_effect_with(lab.stamp, move |_| {
            let ends_with = |s: &Vec<String>| {
                let e = &lab.entries;
                e.len() >= s.len() && e[e.len() - s.len()..].iter().zip(s).all(|(e, l)| *e.line == **l)
            };
            let ran = sent.borrow().as_ref().is_some_and(ends_with);
            if ran {
                *sent.borrow_mut() = None;
                text.set(String::new());
                hist.set(None);
            }
        });
    }
    let run = {
        let lab = lab.clone();
        let text = text.clone();
        let hist = hist.clone();
        let sent = sent.clone();
        move |lines: Vec<String>| {
            // Lines that will run now leave the input at once; a refusal keeps them there, and
            // lines that wait for the fork question stay until they ran.
            let runs_now = super::safety::check_lines(&lines).is_ok() && !lab.in_past() && !lab.readonly;
            if lines.is_empty() || runs_now {
                text.set(String::new());
                hist.set(None);
                *sent.borrow_mut() = None;
            } else {
                *sent.borrow_mut() = Some(lines.clone());
            }
            if !lines.is_empty() {
                lab.dispatch(Action::RunAt(Place::Console, lines));
            }
        }
    };
    let on_submit = {
        let text = text.clone();
        let run = run.clone();
        let lab = lab.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Err(n) = super::safety::check_text(&text) {
                lab.dispatch(Action::Notify(n.at(Place::Console)));
                return;
            }
            run(lines::split_script(&text));
        })
    };
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_paste = {
        let run = run.clone();
        let lab = lab.clone();
        let text = text.clone();
        Callback::from(move |e: Event| {
            let Some(ev) = e.dyn_ref::<web_sys::ClipboardEvent>() else { return };
            let Some(pasted) = ev.clipboard_data().and_then(|d| d.get_data("text/plain").ok()) else {
                return;
            };
            if pasted.contains('\n') || pasted.len() > super::safety::MAX_LINE_BYTES {
                e.prevent_default();
                if let Err(n) = super::safety::check_text(&pasted) {
                    lab.dispatch(Action::Notify(n.at(Place::Console)));
                    return;
                }
                // What was already typed counts as the first line.
                let mut script = (*text).clone();
                script.push_str(&pasted);
                run(lines::split_script(&script));
            }
        })
    };
    let on_key = {
        let lab = lab.clone();
        let text = text.clone();
        let hist = hist.clone();
        Callback::from(move |e: KeyboardEvent| {
            let log = &lab.entries;
            if log.is_empty() {
                return;
            }
            match e.key().as_str() {
                "ArrowUp" => {
                    e.prevent_default();
                    let i = match *hist {
                        None => log.len() - 1,
                        Some(i) => i.saturating_sub(1),
                    };
                    hist.set(Some(i));
                    text.set(log[i].line.to_string());
                }
                "ArrowDown" => {
                    e.prevent_default();
                    match *hist {
                        Some(i) if i + 1 < log.len() => {
                            hist.set(Some(i + 1));
                            text.set(log[i + 1].line.to_string());
                        }
                        _ => {
                            hist.set(None);
                            text.set(String::new());
                        }
                    }
                }
                _ => {}
            }
        })
    };

    let shown = lab.shown();
    // One roving tab stop for the log: the selected row (else the newest) is in the Tab order,
    // ↑/↓/Home/End move between rows.
    let (first, end) = row_window(&lab);
    let tab_row = shown.filter(|i| (first..end).contains(i)).or(end.checked_sub(1));
    let on_log_key = Callback::from(|e: KeyboardEvent| {
        let Some(row) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("li").ok().flatten())
        else {
            return;
        };
        let target = match e.key().as_str() {
            "ArrowUp" => row.previous_element_sibling(),
            "ArrowDown" => row.next_element_sibling(),
            "Home" => row.parent_element().and_then(|l| l.first_element_child()),
            "End" => row.parent_element().and_then(|l| l.last_element_child()),
            _ => return,
        };
        e.prevent_default();
        if let Some(b) = target
            .and_then(|li| li.query_selector("button").ok().flatten())
            .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = b.focus();
            // Rows out of view are drawn at an estimated height (content-visibility), so the
            // focus scroll can land short: bring the row fully into view.
            let opts = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&opts, &"block".into(), &"nearest".into());
            if let Ok(f) = js_sys::Reflect::get(&b, &"scrollIntoView".into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
            {
                let _ = f.call1(&b, &opts);
            }
        }
    });
    let hovered = hover.as_ref().and_then(|h| **h);
    // Stable callbacks, so that rows whose own props did not change are not drawn again.
    let on_select = {
        let d = lab.dispatcher();
        use_callback((), move |i: usize, _| d.dispatch(Action::Select(i)))
    };
    let on_hover = {
        let set = hover.as_ref().map(|h| h.setter());
        use_callback(set.is_some(), move |i: Option<usize>, _| {
            if let Some(set) = &set {
                set.set(i)
            }
        })
    };
    let rows = lab.entries[first..end].iter().enumerate().map(|(k, entry)| {
        let i = first + k;
        html! {
            <LogRow key={i} {i} entry={entry.clone()} selected={shown == Some(i)} future={i >= lab.at}
                hovered={hovered == Some(i)} tab={tab_row == Some(i)}
                on_select={on_select.clone()} on_hover={on_hover.clone()} />
        }
    });
    let hidden = (first > 0)
        .then(|| html! { <p id="log-more" class="small muted">{ tr.f(K::LogHidden, &[&first]) }</p> });

    let empty = if lab.entries.is_empty() {
        let examples = EXAMPLES.iter().map(|ex| {
            let lab = lab.clone();
            let line = ex.to_string();
            let onclick = Callback::from(move |_: MouseEvent| lab.dispatch(Action::Run(vec![line.clone()])));
            html! { <li><button type="button" class="link mono" {onclick}>{ *ex }</button></li> }
        });
        html! {
            <div id="log-empty" class="empty">
                <p>{ tr.t(K::LogEmpty) }</p>
                // "Try one:" and its lines go together (the welcome panel, which has its own,
                // hides both): the sentence never ends on a colon with nothing after it.
                <div class="log-try">
                    <p>{ tr.t(K::LogTry) }</p>
                    <ul class="examples">{ for examples }</ul>
                </div>
            </div>
        }
    } else {
        html! {}
    };

    html! {
        <section class="console" aria-labelledby="console-h">
            <h2 id="console-h">{ tr.t(K::ConsoleHeading) }<span class="muted small">{ tr.lines(lab.entries.len()) }</span></h2>
            { for hidden }
            <ol id="log" class={classes!("log", (end - first > LONG_LOG).then_some("long"))} ref={log_ref} onkeydown={on_log_key}>{ for rows }</ol>
            if !lab.readonly {
                <form id="console-form" class="console-form" onsubmit={on_submit}>
                    <span class="prompt mono" aria-hidden="true">{ "›" }</span>
                    <input id="console-input" type="text" spellcheck="false" autocomplete="off"
                        aria-label={tr.t(K::ConsoleInputLabel)}
                        placeholder="GET /api/v1/namespaces/default/pods?resourceVersion=0"
                        value={(*text).clone()} oninput={on_input} onkeydown={on_key} onpaste={on_paste} />
                    <button id="console-run" type="submit">{ tr.t(K::Run) }</button>
                </form>
                <Messages at={Place::Console} />
                // After the input for the keyboard (its lines are not Tab stops before it);
                // the stylesheet draws it under the heading.
                { empty }
            }
        </section>
    }
}
