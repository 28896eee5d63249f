//! The time scrubber over the command log: step back / forward, jump to any step (the session
//! is rebuilt by replaying that prefix). Running a line while in the past asks first: the
//! steps after the scrubber are dropped (history forks).

use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::messages::ForkPrompt;
use super::state::{Action, LabHandle, Place};

#[function_component(Scrubber)]
pub fn scrubber() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let n = lab.entries.len();
    let at = lab.at;
    let seek = |id: &'static str, k: K, sym: &'static str, to: usize, disabled: bool| {
        let lab = lab.clone();
        let onclick = Callback::from(move |_: MouseEvent| lab.dispatch(Action::Seek(to)));
        html! { <button {id} type="button" class="small icon" title={tr.t(k)} aria-label={tr.t(k)} {disabled} {onclick}>{ sym }</button> }
    };
    let on_range = {
        let lab = lab.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            if let Ok(k) = v.parse::<usize>() {
                lab.dispatch(Action::Seek(k));
            }
        })
    };
    html! {
        <section class={classes!("scrubber", lab.in_past().then_some("past"))} aria-labelledby="scrub-h">
            <div class="scrub-row">
                <h2 id="scrub-h">{ tr.t(K::ScrubHeading) }</h2>
                { seek("scrub-first", K::ScrubFirst, "|◀", 0, at == 0) }
                { seek("scrub-back", K::ScrubBack, "◀", at.saturating_sub(1), at == 0) }
                <input id="scrub-range" type="range" min="0" max={n.to_string()} value={at.to_string()} step="1"
                    aria-label={tr.t(K::ScrubRange)} disabled={n == 0} oninput={on_range} />
                { seek("scrub-fwd", K::ScrubFwd, "▶", (at + 1).min(n), at >= n) }
                { seek("scrub-last", K::ScrubLast, "▶|", n, at >= n) }
                <span id="scrub-pos" class="muted small" aria-live="polite">{ tr.f(K::ScrubStep, &[&at, &n]) }</span>
            </div>
            // A read-only sandbox runs no new line: there is no later step to lose.
            if lab.in_past() && lab.pending.is_none() && !lab.readonly {
                <p id="scrub-past" class="small warn">{ tr.f(K::ScrubPast, &[&at]) }</p>
            }
            if lab.pending_at == Place::Top { <ForkPrompt /> }
        </section>
    }
}
