//! The first visit's "start here": an empty sandbox (nothing to undo or redo either) with no
//! lesson open shows, in place of the history and the timeline, the first guided lesson and
//! three one-click lines to try. It goes away with the first line run, and the history, the
//! picture and that line's response take its place.

use yew::prelude::*;

use super::guided;
use super::i18n::{K, use_tr};
use super::state::{Action, LabHandle, Place};

/// One-click first lines: a create, a paged list, a read from etcd itself.
pub const TRY: [&str; 3] = [
    r#"POST /api/v1/namespaces/default/configmaps {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
    "GET /api/v1/namespaces/default/configmaps?limit=1",
    "etcd get /registry/ --prefix",
];

#[derive(Properties, PartialEq)]
pub struct WelcomeProps {
    pub guide: guided::GuideHandle,
}

#[function_component(Welcome)]
pub fn welcome(p: &WelcomeProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let start = {
        let guide = p.guide.clone();
        Callback::from(move |_: MouseEvent| guide.dispatch(guided::GuideAction::Want(0)))
    };
    let all = {
        let guide = p.guide.clone();
        Callback::from(move |_: MouseEvent| guide.dispatch(guided::GuideAction::OpenList))
    };
    let tries = TRY.iter().map(|line| {
        let lab = lab.clone();
        let l = line.to_string();
        let onclick =
            Callback::from(move |_: MouseEvent| lab.dispatch(Action::RunAt(Place::Top, vec![l.clone()])));
        html! { <li><button type="button" class="link mono" {onclick}>{ *line }</button></li> }
    });
    html! {
        <section id="welcome" class="welcome" aria-labelledby="welcome-h">
            <h2 id="welcome-h">{ tr.t(K::WelcomeHeading) }</h2>
            <div class="welcome-row">
                <div class="welcome-start">
                    <p>{ tr.t(K::WelcomeLesson) }</p>
                    <div class="buttons">
                        <button id="welcome-lesson" type="button" onclick={start}>{ tr.t(K::WelcomeLessonBtn) }</button>
                        <button id="welcome-all" type="button" class="small" onclick={all}>{ tr.t(K::WelcomeAllLessons) }</button>
                    </div>
                </div>
                <div class="welcome-try">
                    <p>{ tr.t(K::WelcomeTry) }</p>
                    <ul class="examples">{ for tries }</ul>
                </div>
            </div>
        </section>
    }
}
