//! Messages shown where the learner acted: a panel with a message slot (console, builder,
//! simulation) shows the notice its own action produced and the "fork here and run?" question
//! for its lines; everything else goes to the notice bar and the scrubber ([`Place::Top`]).

use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::state::{Action, LabHandle, Place};

#[derive(Properties, PartialEq)]
pub struct MessagesProps {
    pub at: Place,
}

/// The notice and the fork question that belong to `at` (nothing when none does).
#[function_component(Messages)]
pub fn messages(p: &MessagesProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let notice = lab.notice.clone().filter(|n| n.at == p.at && p.at != Place::Top).map(|n| {
        let dismiss = {
            let lab = lab.clone();
            Callback::from(move |_: MouseEvent| lab.dispatch(Action::DismissNotice))
        };
        html! {
            <div id="notice" class={classes!("notice", "near", n.error.then_some("err"))} role={if n.error { "alert" } else { "status" }}>
                <span>{ n.text(tr) }</span>
                <button type="button" class="small" aria-label={tr.t(K::Dismiss)} onclick={dismiss}>{ "×" }</button>
            </div>
        }
    });
    html! {
        <>
            { for notice }
            if lab.pending.is_some() && lab.pending_at == p.at { <ForkPrompt /> }
        </>
    }
}

/// "Run this here? The N later steps will be dropped": shown while lines wait for the scrubber's
/// history to fork.
#[function_component(ForkPrompt)]
pub fn fork_prompt() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let Some(lines) = lab.pending.as_ref() else { return html! {} };
    let (n, at) = (lab.entries.len(), lab.at);
    let yes = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::ConfirmFork))
    };
    let no = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::CancelFork))
    };
    html! {
        <div id="fork" class="fork" role="alertdialog" aria-labelledby="fork-q">
            <p id="fork-q">{ tr.f(K::ForkAsk, &[&(n - at), &at]) }</p>
            <code class="mono small">{ lines.join("\n") }</code>
            <div class="buttons">
                <button id="fork-confirm" type="button" onclick={yes}>{ tr.t(K::ForkYes) }</button>
                <button id="fork-cancel" type="button" class="small" onclick={no}>{ tr.t(K::ForkNo) }</button>
            </div>
        </div>
    }
}
