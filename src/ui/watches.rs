//! The watches panel: every watch opened in the log, with the frames read from it so far and
//! buttons that emit `events wN`, `pause wN`, `resume wN`, `cancel wN`. It draws the session's
//! `WatchView`s, the same the timeline draws, each read's frames from that line's typed answer.

use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::lines::{self, Frame};
use super::response::{frame_row, frames_head};
use super::state::{Action, LabHandle};

#[function_component(Watches)]
pub fn watches() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let ws = lab.session().watches();
    let entries = lab.visible();
    let can_run = !lab.readonly;

    let cmd_button = |label: &'static str, cmd: String, enabled: bool| {
        let enabled = enabled && can_run;
        let lab = lab.clone();
        let c = cmd.clone();
        let onclick = Callback::from(move |_: MouseEvent| lab.dispatch(Action::Run(vec![c.clone()])));
        html! { <button type="button" class="small" data-cmd={cmd} disabled={!enabled} {onclick}>{ label }</button> }
    };

    let cards = ws.iter().rev().map(|w| {
        let s = &w.script;
        let done = s.cancelled || s.closed;
        let state = tr.t(if s.cancelled {
            K::WatchCancelled
        } else if s.closed {
            K::WatchClosedByServer
        } else if s.paused {
            K::WatchPaused
        } else {
            K::WatchOpen
        });
        let opened = entries.get(w.line.saturating_sub(1));
        let frames: Vec<Frame> = s
            .reads
            .iter()
            .filter_map(|l| entries.get(l.saturating_sub(1)))
            .filter_map(|e| Some((e.reply.events()?, e.why.as_deref())))
            .flat_map(|(ev, ended)| lines::frames_of(ev, ended, opened.and_then(|o| o.why.as_deref())))
            .collect();
        let request = opened.map(|o| o.line.to_string()).unwrap_or_default();
        let rows = frames.iter().map(|f| frame_row(tr, f, ""));
        html! {
            <li class="watch" data-watch={w.id.clone()}>
                <div class="row-head">
                    <strong class="mono">{ w.id.clone() }</strong>
                    <span class={classes!("badge", done.then_some("off"))}>{ state }</span>
                </div>
                <code class="mono small req">{ super::model::clip(&request, 500) }</code>
                <div class="buttons">
                    { cmd_button(tr.t(K::ReadEvents), format!("events {}", w.id), !s.cancelled) }
                    if s.paused { { cmd_button(tr.t(K::Resume), format!("resume {}", w.id), !done) } }
                    else { { cmd_button(tr.t(K::Pause), format!("pause {}", w.id), !done) } }
                    { cmd_button(tr.t(K::Cancel), format!("cancel {}", w.id), !done) }
                </div>
                if frames.is_empty() {
                    <p class="muted small">{ tr.t(K::NoFrames) }</p>
                } else {
                    <table class="grid frames">
                        { frames_head(tr) }
                        <tbody>{ for rows }</tbody>
                    </table>
                }
            </li>
        }
    });

    html! {
        <section class="watches" aria-labelledby="watches-h">
            <h2 id="watches-h">{ tr.t(K::WatchesHeading) }</h2>
            if ws.is_empty() {
                <p id="watches-empty" class="empty">{ tr.t(K::WatchesEmpty) }</p>
            } else {
                <ul id="watches" class="watch-list">{ for cards }</ul>
            }
        </section>
    }
}
