//! The table equivalent of the timeline: every key, mark, window, watch and timer in text.

#[allow(unused_imports)]
use super::*;

#[derive(Properties, PartialEq)]
struct KeyRowProps {
    name: String,
    recent: Vec<(i64, i64, bool)>,
    changes: usize,
}

/// One key's row: its last few changes inside the window.
#[function_component(KeyRow)]
fn key_row(p: &KeyRowProps) -> Html {
    let tr = use_tr();
    let mut parts: Vec<String> = p
        .recent
        .iter()
        .map(|(r, v, tomb)| if *tomb { tr.f(K::TlDeletedAt, &[r]) } else { format!("{r}: v{v}") })
        .collect();
    if p.changes > p.recent.len() {
        parts.insert(0, "…".into());
    }
    html! { <tr><td class="mono">{ p.name.clone() }</td><td class="mono">{ parts.join(", ") }</td></tr> }
}

/// The table equivalent of the picture (for screen readers and for copying): every key, every
/// mark, every cache window, every watch with how it ended. Its key rows (one per key: 10,000
/// at 10k objects) are drawn only while the learner has it `open`: shut, nobody reads them, and
/// each line would build and compare them all again.
pub(super) fn table(tr: Tr, m: &Model, open: &UseStateHandle<bool>) -> Html {
    // One keyed component per key: a command changes a few keys, and the other rows keep their
    // props and are neither formatted nor reconciled again.
    let rows = open.then(|| {
        m.lanes.iter().chain(&m.more_lanes).map(|l| {
            html! { <KeyRow key={l.key.as_str()} name={l.key.clone()} recent={l.recent.clone()} changes={l.changes} /> }
        })
    });
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::Element>() {
                open.set(d.has_attribute("open"));
            }
        })
    };
    let marks = m.marks.iter().map(|mk| {
        let text = match mk.kind {
            MarkKind::List => tr.f(K::TlListAt, &[&(mk.entry + 1), &mk.rv]),
            MarkKind::Refused { code } => tr.f(K::TlRefusedAt, &[&(mk.entry + 1), &code, &mk.rv]),
            MarkKind::Token { page, latest: true } => tr.f(K::TlTokenLatest, &[&(mk.entry + 1), &page]),
            MarkKind::Token { page, latest: false } => tr.f(K::TlTokenAt, &[&(mk.entry + 1), &mk.rv, &page]),
        };
        html! { <li>{ text }</li> }
    });
    let watches = m.view.watches.iter().map(|w| {
        let mut text = match w.start {
            Some(s) => tr.f(K::TlWatchStart, &[&w.id, &s]),
            None => tr.f(K::TlWatchRow, &[&w.id, &w.apiserver, &w.resource]),
        };
        if let Some(c) = w.read.last_rv {
            text.push_str(" · ");
            text.push_str(&tr.f(K::TlWatchAt, &[&w.id, &c]));
        }
        if let Some(e) = &w.end {
            text.push_str(" · ");
            text.push_str(&tr.f(K::TlWatchEnded, &[&w.id, &end_text(tr, e).1]));
        }
        html! { <li data-watch={w.id.clone()}>{ text }</li> }
    });
    let caches = m
        .caches
        .iter()
        .map(|c| html! { <li>{ tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest, &c.rv]) }</li> });
    let compact = m.compact.map(|c| html! { <li>{ tr.f(K::TlCompacted, &[&c]) }</li> });
    let rounds = m.rounds.iter().map(|(n, r)| html! { <li>{ tr.f(K::TlRoundTitle, &[n, r]) }</li> });
    let v = &m.view;
    let lags = v.apiservers.iter().flat_map(|a| a.caches.iter()).filter(|c| c.rv < v.revision && c.in_flight > 0).map(|c| {
        let dur = duration_text(c.lag_ms);
        html! { <li>{ tr.f(K::SvLagTitle, &[&c.apiserver, &c.resource, &(v.revision - c.rv), &c.in_flight, &dur]) }</li> }
    });
    let informers = v
        .informers
        .iter()
        .map(|i| html! { <li>{ tr.f(K::SvInformerTitle, &[&i.name, &i.state, &i.last_sync_rv]) }</li> });
    let drawn: Vec<&str> = m.caches.iter().map(|c| c.resource.as_str()).collect();
    let timers = timer_list(tr, v, &drawn, usize::MAX)
        .into_iter()
        .map(|t| html! { <li data-timer={t.kind.as_str()}>{ t.text }</li> });
    let nothing =
        m.marks.is_empty() && m.caches.is_empty() && m.compact.is_none() && m.view.watches.is_empty();
    html! {
        <details id="tl-table" class="tl-table" {ontoggle}>
            <summary>{ tr.t(K::TlTable) }</summary>
            <table class="grid">
                <thead><tr><th>{ tr.t(K::TlColKey) }</th><th>{ tr.t(K::TlColChanges) }</th></tr></thead>
                <tbody>{ for rows.into_iter().flatten() }</tbody>
            </table>
            <p class="small muted">{ tr.t(K::TlMarks) }</p>
            if nothing {
                <p class="small muted">{ tr.t(K::TlNoMarks) }</p>
            } else {
                <ul class="small">{ for compact }{ for rounds }{ for marks }{ for watches }{ for caches }{ for lags }{ for informers }{ for timers }</ul>
            }
        </details>
    }
}
