//! Simulation controls (create N objects, compact, advance the clock, settings (`settings`),
//! apiservers) and the etcd view. Every control appends a script line; nothing reaches the engine another way.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::lines;
use super::messages::Messages;
use super::response::kvs_table;
use super::settings::SettingsPanel;
use super::state::{Action, LabHandle, Place};
use crate::script::reply::Reply;

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// The default name prefix of new objects of `resource`: its singular (`pods` → `pod`).
pub fn name_prefix(resource: &str) -> &str {
    resource.strip_suffix('s').unwrap_or(resource)
}

/// Play's speeds: the select's value and how many simulated seconds pass per wall-clock tick
/// (one tick a second); 0 = instant (no timer: the advance buttons apply at once).
pub const SPEEDS: [(&str, u64); 4] = [("1", 1), ("10", 10), ("60", 60), ("instant", 0)];

#[derive(Properties, PartialEq)]
pub struct SimProps {
    /// Reduced motion (`prefers-reduced-motion` or `?motion=reduce`): Play steps once per click.
    #[prop_or_default]
    pub reduce_motion: bool,
    /// Play's wall-clock interval in milliseconds.
    #[prop_or(1000)]
    pub tick_ms: u32,
}

/// Adds `secs` simulated seconds every `ms` milliseconds while mounted and `on` (one log line per
/// Play session, see [`Action::PlayTick`]); the returned cleanup (effect teardown: pause, speed
/// change, unmount) clears the interval and ends the session. `pagehide` pauses too.
/// `live` is false from the moment Pause is pressed: a tick that fires before the effect's
/// cleanup clears the interval (renders run before effects, so a busy page can delay it) adds
/// nothing.
fn play_timer(
    on: bool,
    ms: u32,
    secs: u64,
    lab: LabHandle,
    playing: UseStateHandle<bool>,
    live: Rc<Cell<bool>>,
) -> impl FnOnce() {
    let w = web_sys::window();
    let end = lab.clone();
    let timer = match (&w, on) {
        (Some(w), true) => {
            live.set(true);
            let still = live.clone();
            let tick = Closure::<dyn Fn()>::new(move || {
                if still.get() {
                    lab.dispatch(Action::PlayTick(secs));
                }
            });
            let hide = Closure::<dyn Fn()>::new(move || {
                live.set(false);
                playing.set(false);
            });
            let id = w
                .set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    ms.max(5) as i32,
                )
                .ok();
            let _ = w.add_event_listener_with_callback("pagehide", hide.as_ref().unchecked_ref());
            Some((tick, hide, id))
        }
        _ => None,
    };
    move || {
        if let (Some(w), Some((tick, hide, id))) = (w, timer) {
            if let Some(id) = id {
                w.clear_interval_with_handle(id);
            }
            let _ = w.remove_event_listener_with_callback("pagehide", hide.as_ref().unchecked_ref());
            drop(tick);
            end.dispatch(Action::PlayEnd);
        }
    }
}

#[function_component(SimControls)]
pub fn sim_controls(props: &SimProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let playing = use_state(|| false);
    let speed = use_state(|| SPEEDS[0].0.to_string());
    let secs = SPEEDS.iter().find(|(v, _)| *v == speed.as_str()).map_or(1, |(_, s)| *s);
    let reduce = props.reduce_motion;
    // The timer runs only while playing, at a timed speed, without reduced motion, and while the
    // scrubber is at the end (in the past a new line would ask to fork).
    let running = *playing && secs > 0 && !reduce && !lab.in_past();
    let live: Rc<Cell<bool>> = (*use_memo((), |_| Rc::new(Cell::new(false)))).clone();
    use_effect_with((running, secs, props.tick_ms), {
        let lab = lab.clone();
        let playing = playing.clone();
        let live = live.clone();
        move |(on, secs, ms)| play_timer(*on, *ms, *secs, lab, playing, live)
    });
    let count = use_state(|| "3".to_string());
    let prefix = use_state(|| "pod".to_string());
    let resource = use_state(|| "pods".to_string());
    let compact_rev = use_state(String::new);
    let apiserver = use_state(|| "1".to_string());
    let informer = use_state(|| "inf1".to_string());
    let informer_mode = use_state(|| "legacy".to_string());

    let rvs: Vec<u64> = lab.seen().revisions().take(60).collect();
    let latest = rvs.first().copied();

    let run = |line: String| {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::RunAt(Place::Sim, vec![line.clone()])))
    };

    let on_create = {
        let lab = lab.clone();
        let (count, prefix, resource) = (count.clone(), prefix.clone(), resource.clone());
        Callback::from(move |_: MouseEvent| {
            let n = count.trim().parse::<usize>().unwrap_or(0).min(200);
            let p = if prefix.trim().is_empty() { "obj" } else { prefix.trim() };
            let names = lines::next_names(lab.entries.iter().map(|e| &*e.reply), p, n);
            let ls = names.iter().map(|name| lines::create_line(&resource, "default", name)).collect();
            lab.dispatch(Action::RunAt(Place::Sim, ls));
        })
    };
    // The objects that exist now (etcd's current state), for update / delete N.
    let existing = |res: &str| -> Vec<String> { lab.session().object_names(res, "default") };
    let on_update = {
        let lab = lab.clone();
        let (count, resource) = (count.clone(), resource.clone());
        let names = existing(&resource);
        Callback::from(move |_: MouseEvent| {
            let n = count.trim().parse::<usize>().unwrap_or(0).min(200);
            let mark = u64::try_from(lab.session().revision()).unwrap_or(0);
            let ls = names
                .iter()
                .take(n)
                .map(|name| lines::touch_line(&resource, "default", name, mark))
                .collect();
            lab.dispatch(Action::RunAt(Place::Sim, ls));
        })
    };
    let on_delete = {
        let lab = lab.clone();
        let (count, resource) = (count.clone(), resource.clone());
        let names = existing(&resource);
        Callback::from(move |_: MouseEvent| {
            let n = count.trim().parse::<usize>().unwrap_or(0).min(200);
            let ls =
                names.iter().take(n).map(|name| lines::delete_line(&resource, "default", name)).collect();
            lab.dispatch(Action::RunAt(Place::Sim, ls));
        })
    };
    // Everything older than the watch caches' windows: the oldest RV any cache can still start a
    // watch from (a compaction there leaves every cache window intact).
    let window_line = {
        let view = lab.session().view();
        let floor = view.apiservers.iter().flat_map(|a| &a.caches).map(|c| c.oldest_startable_rv).min();
        let compacted = view.compacted.unwrap_or(0);
        floor.filter(|f| *f > compacted && *f >= 1).map(|f| format!("compact {f}"))
    };
    let on_compact_window = {
        let lab = lab.clone();
        let line = window_line.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(l) = &line {
                lab.dispatch(Action::RunAt(Place::Sim, vec![l.clone()]));
            }
        })
    };
    let compact_line = {
        let r = compact_rev.trim();
        if r.is_empty() { latest.map(|l| format!("compact {l}")) } else { Some(format!("compact {r}")) }
    };
    let on_compact = {
        let lab = lab.clone();
        let line = compact_line.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(l) = &line {
                lab.dispatch(Action::RunAt(Place::Sim, vec![l.clone()]));
            }
        })
    };

    let advance = ["1s", "10s", "1m", "5m"].iter().map(|d| {
        let line = format!("advance {d}");
        html! { <button type="button" class="small" data-cmd={line.clone()} onclick={run(line)}>{ format!("+{d}") }</button> }
    });

    let on_play = {
        let lab = lab.clone();
        let playing = playing.clone();
        let live = live.clone();
        Callback::from(move |_: MouseEvent| {
            if reduce {
                lab.dispatch(Action::RunAt(Place::Sim, vec![lines::tick_line(secs)]));
            } else {
                if *playing {
                    live.set(false);
                }
                playing.set(!*playing);
            }
        })
    };
    let on_speed = {
        let speed = speed.clone();
        let playing = playing.clone();
        let live = live.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if v == "instant" {
                live.set(false);
                playing.set(false);
            }
            speed.set(v);
        })
    };
    let speed_opts = SPEEDS.iter().map(|(v, s)| {
        let label = if *s == 0 { tr.t(K::SpeedInstant).to_string() } else { format!("{s}×") };
        html! { <option value={*v} selected={*speed == *v}>{ label }</option> }
    });
    let (play_label, play_title) = if secs == 0 {
        (tr.t(K::Play), tr.t(K::PlayInstantTitle))
    } else if reduce {
        (tr.t(K::PlayStep), tr.t(K::PlayStepTitle))
    } else if *playing {
        (tr.t(K::PlayPause), tr.t(K::PlayTitle))
    } else {
        (tr.t(K::Play), tr.t(K::PlayTitle))
    };
    let pressed = (!reduce && secs > 0).then(|| if *playing { "true" } else { "false" });

    let rev_opts = rvs.iter().map(|r| html! { <option value={r.to_string()} /> });
    let res_opts = lines::RESOURCES
        .iter()
        .map(|r| html! { <option value={*r} selected={*resource == *r}>{ *r }</option> });
    // The name prefix follows the resource (pod-1, configmap-1) unless it was typed over.
    let on_resource = {
        let (resource, prefix) = (resource.clone(), prefix.clone());
        Callback::from(move |e: Event| {
            let r = e.target_unchecked_into::<HtmlSelectElement>().value();
            if prefix.trim() == name_prefix(&resource) {
                prefix.set(name_prefix(&r).to_string());
            }
            resource.set(r);
        })
    };
    let inf_name = if informer.trim().is_empty() { "inf1".to_string() } else { informer.trim().to_string() };
    let inf_start = format!("informer start {inf_name} {} mode={}", *resource, *informer_mode);
    let inf_stop = format!("informer stop {inf_name}");
    let inf_show = format!("informer show {inf_name}");
    let mode_opts = ["legacy", "streaming"]
        .iter()
        .map(|m| html! { <option value={*m} selected={*informer_mode == *m}>{ *m }</option> });
    let api_line = format!("apiserver {}", apiserver.trim());
    let restart_line = format!("restart apiserver {}", apiserver.trim());

    html! {
        <section class="sim" aria-labelledby="sim-h">
            <h2 id="sim-h">{ tr.t(K::SimHeading) }</h2>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::CreateLabel) }</span>
                <input id="sim-count" type="number" min="1" max="200" aria-label={tr.t(K::HowMany)} class="num"
                    value={(*count).clone()} oninput={{ let c = count.clone(); Callback::from(move |e: InputEvent| c.set(input_value(&e))) }} />
                <select id="sim-resource" aria-label={tr.t(K::Resource)} onchange={on_resource}>{ for res_opts }</select>
                <input id="sim-prefix" type="text" aria-label={tr.t(K::NamePrefix)} class="short" spellcheck="false"
                    value={(*prefix).clone()} oninput={{ let p = prefix.clone(); Callback::from(move |e: InputEvent| p.set(input_value(&e))) }} />
                <button id="sim-create" type="button" onclick={on_create}>{ tr.t(K::CreateBtn) }</button>
                <button id="sim-update" type="button" class="small" onclick={on_update}>{ tr.t(K::UpdateBtn) }</button>
                <button id="sim-delete" type="button" class="small" onclick={on_delete}>{ tr.t(K::DeleteBtn) }</button>
            </div>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::CompactTo) }</span>
                <input id="sim-compact-rev" type="text" inputmode="numeric" list="sim-revs" class="num" aria-label={tr.t(K::CompactRev)}
                    placeholder={latest.map(|l| l.to_string()).unwrap_or_else(|| "rev".into())}
                    value={(*compact_rev).clone()} oninput={{ let c = compact_rev.clone(); Callback::from(move |e: InputEvent| c.set(input_value(&e))) }} />
                <datalist id="sim-revs">{ for rev_opts }</datalist>
                <button id="sim-compact" type="button" disabled={compact_line.is_none()} onclick={on_compact}
                    title={tr.t(K::CompactTitle)}>{ tr.t(K::CompactBtn) }</button>
                <button id="sim-compact-window" type="button" class="small" disabled={window_line.is_none()}
                    data-cmd={window_line.clone().unwrap_or_default()} title={tr.t(K::CompactWindowTitle)} onclick={on_compact_window}>{ tr.t(K::CompactWindow) }</button>
            </div>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::AdvanceClock) }</span>
                { for advance }
            </div>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::LetTimePass) }</span>
                <button id="sim-play" type="button" class={classes!("small", "sim-play", running.then_some("playing"))}
                    aria-pressed={pressed} data-cmd={(secs > 0).then(|| lines::tick_line(secs))} disabled={secs == 0}
                    title={play_title} onclick={on_play}>{ play_label }</button>
                <select id="sim-speed" aria-label={tr.t(K::Speed)} title={tr.t(K::Speed)} onchange={on_speed}>{ for speed_opts }</select>
            </div>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::ApiserverLabel) }</span>
                <input id="sim-apiserver" type="number" min="1" max="9" class="num" aria-label={tr.t(K::ApiserverNumber)}
                    value={(*apiserver).clone()} oninput={{ let a = apiserver.clone(); Callback::from(move |e: InputEvent| a.set(input_value(&e))) }} />
                <button id="sim-route" type="button" class="small" data-cmd={api_line.clone()} onclick={run(api_line)}>{ tr.t(K::SendHere) }</button>
                <button id="sim-restart" type="button" class="small" data-cmd={restart_line.clone()} onclick={run(restart_line)}>{ tr.t(K::Restart) }</button>
            </div>
            <div class="ctl">
                <span class="ctl-label">{ tr.t(K::InformerLabel) }</span>
                <input id="sim-informer" type="text" class="short" spellcheck="false" aria-label={tr.t(K::InformerName)}
                    value={(*informer).clone()} oninput={{ let i = informer.clone(); Callback::from(move |e: InputEvent| i.set(input_value(&e))) }} />
                <select id="sim-informer-mode" aria-label={tr.t(K::InitialListMode)} onchange={{ let m = informer_mode.clone(); Callback::from(move |e: Event| m.set(e.target_unchecked_into::<HtmlSelectElement>().value())) }}>{ for mode_opts }</select>
                <button id="sim-informer-start" type="button" class="small" data-cmd={inf_start.clone()} onclick={run(inf_start)}
                    title={tr.t(K::InformerTitle)}>{ tr.t(K::Start) }</button>
                <button id="sim-informer-show" type="button" class="small" data-cmd={inf_show.clone()} onclick={run(inf_show)}>{ tr.t(K::Show) }</button>
                <button id="sim-informer-stop" type="button" class="small" data-cmd={inf_stop.clone()} onclick={run(inf_stop)}>{ tr.t(K::Stop) }</button>
            </div>
            <SettingsPanel />
            <Messages at={Place::Sim} />
        </section>
    }
}

/// The etcd view: reads every key under the apiserver's prefix when asked (one `etcd get` line) and shows
/// the newest such read — labelled with the line it came from, since later lines may change etcd.
/// The session's typed answer says which lines are etcd reads.
#[function_component(EtcdView)]
pub fn etcd_view() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let line = lines::etcd_read_all();
    let onclick = {
        let lab = lab.clone();
        let line = line.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::RunAt(Place::Sim, vec![line.clone()])))
    };
    let last = lab.visible().iter().enumerate().rev().find_map(|(i, e)| match &*e.reply {
        Reply::Etcd(r) if r.is_read() => Some((i, r)),
        Reply::Etcd(_) | Reply::Api(_) | Reply::Events(_) | Reply::ClientError(_) | Reply::Other => None,
    });
    let body = match last {
        None => {
            html! { <p id="etcd-empty" class="empty">{ tr.t(K::EtcdEmpty) }</p> }
        }
        Some((i, r)) => {
            let stale = i + 1 != lab.visible().len();
            if let Some(err) = &r.error {
                html! { <p class="error-box">{ err.clone() }</p> }
            } else {
                let rev = r.revision.map(|r| r.to_string()).unwrap_or_default();
                let kvs = &r.kvs;
                html! {
                    <>
                    <p class="muted small">{ tr.f(K::EtcdAsOf, &[&(i + 1), &rev]) }{ if stale { tr.t(K::EtcdStale) } else { "" } }</p>
                    if kvs.is_empty() { <p class="empty">{ tr.t(K::NoKeys) }</p> } else { { kvs_table(tr, "etcd-kvs", kvs) } }
                    </>
                }
            }
        }
    };
    html! {
        <section class="etcd" aria-labelledby="etcd-h">
            <div class="row-head">
                <h2 id="etcd-h">{ "etcd" }</h2>
                <button id="etcd-read" type="button" class="small" data-cmd={line} {onclick}>{ tr.t(K::EtcdRead) }</button>
            </div>
            <div id="etcd">{ body }</div>
        </section>
    }
}
