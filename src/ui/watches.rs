//! The watches panel: every watch opened in the log, with the frames read from it so far and
//! buttons that emit `events wN`, `pause wN`, `resume wN`, `cancel wN`.

use yew::prelude::*;

use super::LabHandle;
use super::lines;
use super::state::Action;

#[function_component(Watches)]
pub fn watches() -> Html {
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let ws = lines::watches(lab.entries.iter().map(|e| (e.line.as_str(), e.out.as_deref())));

    let cmd_button = |label: &'static str, cmd: String, enabled: bool| {
        let lab = lab.clone();
        let c = cmd.clone();
        let onclick = Callback::from(move |_: MouseEvent| lab.dispatch(Action::Run(vec![c.clone()])));
        html! { <button type="button" class="small" data-cmd={cmd} disabled={!enabled} {onclick}>{ label }</button> }
    };

    let cards = ws.iter().rev().map(|w| {
        let done = w.cancelled || w.closed;
        let state = if w.cancelled {
            "cancelled"
        } else if w.closed {
            "closed by server"
        } else if w.paused {
            "paused (events pile up)"
        } else {
            "open"
        };
        let frames = w.frames.iter().map(|f| {
            let what = if f.kind == "ERROR" { f.detail.clone() } else { f.name.clone() };
            html! {
                <tr class={classes!("ev", format!("ev-{}", f.kind.to_lowercase()))}>
                    <td>{ f.kind.clone() }</td><td class="mono">{ what }</td><td class="mono">{ f.rv.clone() }</td>
                </tr>
            }
        });
        html! {
            <li class="watch" data-watch={w.id.clone()}>
                <div class="row-head">
                    <strong class="mono">{ w.id.clone() }</strong>
                    <span class={classes!("badge", done.then_some("off"))}>{ state }</span>
                </div>
                <code class="mono small req">{ w.request.clone() }</code>
                <div class="buttons">
                    { cmd_button("Read events", format!("events {}", w.id), !w.cancelled) }
                    if w.paused { { cmd_button("Resume", format!("resume {}", w.id), !done) } }
                    else { { cmd_button("Pause", format!("pause {}", w.id), !done) } }
                    { cmd_button("Cancel", format!("cancel {}", w.id), !done) }
                </div>
                if w.frames.is_empty() {
                    <p class="muted small">{ "No frames read yet — press Read events." }</p>
                } else {
                    <table class="grid frames">
                        <thead><tr><th>{ "type" }</th><th>{ "object" }</th><th>{ "RV" }</th></tr></thead>
                        <tbody>{ for frames }</tbody>
                    </table>
                }
            </li>
        }
    });

    html! {
        <section class="watches" aria-labelledby="watches-h">
            <h2 id="watches-h">{ "Watches" }</h2>
            if ws.is_empty() {
                <p id="watches-empty" class="empty">{ "No watch open. Choose verb “watch” in the request builder." }</p>
            } else {
                <ul id="watches" class="watch-list">{ for cards }</ul>
            }
        </section>
    }
}
