//! The Settings panel: the settings in effect, read from the session's typed
//! [`SettingsView`](crate::script::view::SettingsView) (the cluster's and each apiserver's), and
//! one row per setting that appends a `set <name> <value>` line like any other line. A row starts
//! at the value in effect (a select) or empty with that value as its placeholder (a text field);
//! its Set button stays disabled while the value would change nothing.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::i18n::{K, use_tr};
use super::state::{Action, LabHandle, Place};
use crate::apiserver::features;
use crate::cluster::SettingName;
use crate::script::view::SettingsView;

/// The releases `set kubernetes` takes, newest first.
fn releases() -> Vec<String> {
    (features::OLDEST_MINOR..=features::NEWEST_MINOR).rev().map(|m| format!("1.{m}")).collect()
}

#[derive(Properties, PartialEq)]
struct SettingProps {
    name: SettingName,
    /// Choices for a select; empty = a text field.
    #[prop_or_default]
    choices: Vec<String>,
    /// The value in effect on the apiserver `set` lines go to (or the cluster's).
    current: String,
    #[prop_or_default]
    hint: Option<K>,
}

/// One `set <name> <value>` row.
#[function_component(Setting)]
fn setting(p: &SettingProps) -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    // What the learner typed or picked; `None` = untouched (the value in effect).
    let picked = use_state(|| None::<String>);
    // A new value in effect (another line changed it) resets the row to it.
    {
        let picked = picked.clone();
        use_effect_with(p.current.clone(), move |_| picked.set(None));
    }
    let name = p.name.as_str();
    let id = format!("set-{}", name.replace('.', "-"));
    let value = picked.as_deref().map(str::trim).unwrap_or("").to_string();
    let select = !p.choices.is_empty();
    let chosen = if select && picked.is_none() { p.current.clone() } else { value.clone() };
    let unchanged = chosen.is_empty() || chosen == p.current;
    let cmd = format!("set {name} {chosen}");
    let onclick = {
        let (cmd, picked) = (cmd.clone(), picked.clone());
        Callback::from(move |_: MouseEvent| {
            picked.set(None);
            lab.dispatch(Action::RunAt(Place::Sim, vec![cmd.clone()]))
        })
    };
    let control = if select {
        let picked = picked.clone();
        let onchange = Callback::from(move |e: Event| {
            picked.set(Some(e.target_unchecked_into::<HtmlSelectElement>().value()))
        });
        let opts = p
            .choices
            .iter()
            .map(|c| html! { <option value={c.clone()} selected={*c == chosen}>{ c.clone() }</option> });
        html! { <select id={id.clone()} {onchange}>{ for opts }</select> }
    } else {
        let picked = picked.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            picked.set(Some(e.target_unchecked_into::<HtmlInputElement>().value()))
        });
        let placeholder =
            if p.current.is_empty() { p.hint.map(|h| tr.t(h).to_string()) } else { Some(p.current.clone()) };
        html! { <input id={id.clone()} type="text" spellcheck="false" value={value.clone()} {placeholder} {oninput} /> }
    };
    let title = unchanged.then(|| tr.t(K::SettingsUnchanged));
    html! {
        <div class="setting">
            <label for={id.clone()} class="mono">{ name }</label>
            { control }
            <button type="button" class="small" data-cmd={cmd} disabled={unchanged} {title} {onclick}>{ tr.t(K::SetBtn) }</button>
        </div>
    }
}

/// The `set feature-gates` row: the gates the model knows in the release the sandbox runs (read
/// from the session, so it follows `set kubernetes`), each offered at the value away from that
/// release's default. Locked gates (GA or deprecated) are not offered: they refuse to change. A
/// gate already at the offered value on the apiserver `set` lines go to is not offered again.
#[function_component(FeatureGates)]
fn feature_gates() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let settings = lab.session().settings();
    let in_effect: Vec<String> = settings.current().map(|a| a.gates.clone()).unwrap_or_default();
    let minor = lab.session().kubernetes_minor();
    let choices: Vec<(String, String)> = features::gates_for(minor)
        .into_iter()
        .filter(|(_, spec)| !spec.locked)
        .map(|(gate, spec)| {
            let value = format!("{}={}", gate.name(), !spec.default);
            let stage = match spec.stage {
                features::Stage::Alpha => "alpha",
                features::Stage::Beta => "beta",
                features::Stage::Ga => "GA",
                features::Stage::Deprecated => "deprecated",
            };
            (value.clone(), format!("{value} ({stage}, 1.{minor})"))
        })
        .filter(|(value, _)| !in_effect.contains(value))
        .collect();
    let picked = use_state(String::new);
    // The pick, while the release still offers it; else the release's first gate.
    let value = choices
        .iter()
        .find(|(v, _)| *v == *picked)
        .or(choices.first())
        .map(|(v, _)| v.clone())
        .unwrap_or_default();
    let cmd = format!("set feature-gates {value}");
    let onclick = {
        let cmd = cmd.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(Action::RunAt(Place::Sim, vec![cmd.clone()])))
    };
    let onchange = {
        let picked = picked.clone();
        Callback::from(move |e: Event| picked.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let opts = choices.iter().map(
        |(v, label)| html! { <option value={v.clone()} selected={*v == value}>{ label.clone() }</option> },
    );
    html! {
        <div class="setting">
            <label for="set-feature-gates" class="mono">{ "feature-gates" }</label>
            <select id="set-feature-gates" {onchange}>{ for opts }</select>
            <button type="button" class="small" data-cmd={cmd} disabled={value.is_empty()} {onclick}>{ tr.t(K::SetBtn) }</button>
        </div>
    }
}

/// The table of the settings in effect: the cluster's, then one row per apiserver.
fn effective(tr: super::i18n::Tr, v: &SettingsView) -> Html {
    let client_go = v.client_go.map_or_else(|| "auto".to_string(), |m| format!("1.{m}"));
    let rows = v.per_apiserver.iter().map(|a| {
        let gates = if a.gates.is_empty() { tr.t(K::SettingsNoGates).to_string() } else { a.gates.join(", ") };
        let cell = |n: SettingName| a.value(n).unwrap_or_else(|| "off".to_string());
        html! {
            <tr data-apiserver={a.number.to_string()} class={classes!((a.number == v.current_apiserver).then_some("current"))}>
                <th scope="row">{ a.number }</th>
                <td data-setting="kubernetes">{ a.kubernetes.clone() }</td>
                <td data-setting="watch-cache">{ cell(SettingName::WatchCache) }</td>
                <td data-setting="cache.lag">{ cell(SettingName::CacheLag) }</td>
                <td data-setting="cache.capacity">{ cell(SettingName::CacheCapacity) }</td>
                <td data-setting="cache.init-delay">{ cell(SettingName::CacheInitDelay) }</td>
                <td data-setting="compaction-interval">{ cell(SettingName::CompactionInterval) }</td>
                <td data-setting="feature-gates">{ gates }</td>
            </tr>
        }
    });
    html! {
        <div id="settings-effective">
            <p class="muted small">{ tr.t(K::SettingsInEffect) }</p>
            <p id="settings-cluster" class="small mono">{ tr.f(K::SettingsCluster, &[&v.apiservers, &v.etcd, &client_go]) }</p>
            <div class="table-scroll">
                <table class="small">
                    <thead><tr>
                        <th scope="col">{ tr.t(K::SettingsApiserver) }</th>
                        <th scope="col" class="mono">{ "kubernetes" }</th>
                        <th scope="col" class="mono">{ "watch-cache" }</th>
                        <th scope="col" class="mono">{ "cache.lag" }</th>
                        <th scope="col" class="mono">{ "cache.capacity" }</th>
                        <th scope="col" class="mono">{ "cache.init-delay" }</th>
                        <th scope="col" class="mono">{ "compaction-interval" }</th>
                        <th scope="col" class="mono">{ "feature-gates" }</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <p id="settings-goto" class="muted small">{ tr.f(K::SettingsGoTo, &[&v.current_apiserver]) }</p>
        </div>
    }
}

/// The Settings panel (closed by default).
#[function_component(SettingsPanel)]
pub fn settings_panel() -> Html {
    let tr = use_tr();
    let lab = use_context::<LabHandle>().expect("LabHandle context");
    let v = lab.session().settings();
    let cur = |n: SettingName| v.current().and_then(|a| a.value(n)).unwrap_or_default();
    let on_off = vec!["on".to_string(), "off".to_string()];
    html! {
        <details class="settings">
            <summary>{ tr.t(K::Settings) }</summary>
            { effective(tr, &v) }
            <Setting name={SettingName::WatchCache} choices={on_off} current={cur(SettingName::WatchCache)} />
            <Setting name={SettingName::CacheCapacity} current={cur(SettingName::CacheCapacity)} hint={K::HintEvents} />
            <Setting name={SettingName::CacheLag} current={cur(SettingName::CacheLag)} hint={K::HintDuration} />
            <Setting name={SettingName::Kubernetes} choices={releases()} current={cur(SettingName::Kubernetes)} />
            <FeatureGates />
            <Setting name={SettingName::Apiservers} current={v.apiservers.to_string()} hint={K::HintCount} />
            <Setting name={SettingName::CompactionInterval} current={cur(SettingName::CompactionInterval)} hint={K::HintDuration} />
        </details>
    }
}
