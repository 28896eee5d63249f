//! The countdowns of the read model, drawn by the system view and listed in the table.

#[allow(unused_imports)]
use super::*;

/// What a timer counts down to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerKind {
    /// The next etcd response on its way to a lagging watch cache.
    Arrival,
    /// The freshness wait a consistent read arriving now would have.
    FreshWait,
    /// A (re)initialising watch cache becoming ready.
    Ready,
    /// A watch's `timeoutSeconds` deadline.
    Deadline,
    /// A watch's next BOOKMARK.
    Bookmark,
    /// The compactor's next round.
    Compaction,
}

impl TimerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TimerKind::Arrival => "arrival",
            TimerKind::FreshWait => "fresh-wait",
            TimerKind::Ready => "ready",
            TimerKind::Deadline => "deadline",
            TimerKind::Bookmark => "bookmark",
            TimerKind::Compaction => "compaction",
        }
    }
}

/// The tier a timer belongs to (it is drawn on that tier's heading line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Clients,
    Apiservers,
    Etcd,
}

/// One countdown the system view draws, from the read model.
#[derive(Clone, Debug, PartialEq)]
pub struct Timer {
    pub kind: TimerKind,
    pub tier: Tier,
    /// Whose timer: `w2`, an informer's name, `apiserver 2 · configmaps`, `etcd`.
    pub owner: String,
    /// When it fires (simulated ms) and how long from now.
    pub due_ms: u64,
    pub in_ms: u64,
    /// The whole period, when known (the arc shows the part left).
    pub period_ms: Option<u64>,
    pub text: String,
}

/// Watch timers shown one by one; the rest are counted in one chip.
pub const MAX_WATCH_TIMERS: usize = 4;

/// Every timer of the read model, in the UI language: caches (next arrival, the freshness wait,
/// readiness; only the caches of `resources`, the ones the pictures draw), watches and informers (deadline, next bookmark; the soonest `max_watch_timers`,
/// the others counted in one chip), and the compactor's next round.
pub fn timer_list(
    tr: Tr,
    v: &crate::script::view::View,
    resources: &[&str],
    max_watch_timers: usize,
) -> Vec<Timer> {
    use crate::script::view::{FRESHNESS_WAIT_MS, FreshWait};
    let now = v.now_ms;
    let mut out = Vec::new();
    let t = |kind, owner: String, due: u64, period: Option<u64>, text: String| Timer {
        kind,
        tier: match kind {
            TimerKind::Arrival | TimerKind::FreshWait | TimerKind::Ready => Tier::Apiservers,
            TimerKind::Deadline | TimerKind::Bookmark => Tier::Clients,
            TimerKind::Compaction => Tier::Etcd,
        },
        owner,
        due_ms: due,
        in_ms: due.saturating_sub(now),
        period_ms: period,
        text,
    };
    for c in v.apiservers.iter().flat_map(|a| a.caches.iter()).filter(|c| resources.contains(&c.resource)) {
        let owner = format!("{} · {}", tr.f(K::TlApiserver, &[&c.apiserver]), c.resource);
        if let Some(at) = c.ready_at_ms {
            let text = tr.f(K::SvTimerReady, &[&owner, &duration_text(at.saturating_sub(now))]);
            out.push(t(TimerKind::Ready, owner.clone(), at, None, text));
        }
        if let Some(&(rev, at)) = c.in_flight_revs.first() {
            let text = tr.f(K::SvTimerArrive, &[&owner, &rev, &duration_text(at.saturating_sub(now))]);
            out.push(t(TimerKind::Arrival, owner.clone(), at, Some(c.lag_ms), text));
        }
        match c.fresh_wait(now) {
            // A wait of 0 (a progress notification answers at once) is no wait to show.
            Some(FreshWait::Waits(ms)) if ms > 0 => {
                let text = tr.f(K::SvTimerFresh, &[&owner, &duration_text(ms)]);
                out.push(t(TimerKind::FreshWait, owner, now + ms, Some(FRESHNESS_WAIT_MS), text));
            }
            Some(FreshWait::TimesOut) => {
                let text = tr.f(K::SvTimerFreshOut, &[&owner, &duration_text(FRESHNESS_WAIT_MS)]);
                out.push(t(
                    TimerKind::FreshWait,
                    owner,
                    now + FRESHNESS_WAIT_MS,
                    Some(FRESHNESS_WAIT_MS),
                    text,
                ));
            }
            // No wait, or one of 0 ms.
            Some(FreshWait::Waits(_)) | None => {}
        }
    }
    let streams = v
        .watches
        .iter()
        .filter_map(|w| w.stream.as_ref().filter(|s| !s.closed).map(|s| (w.id.clone(), s)))
        .chain(
            v.informers
                .iter()
                .filter_map(|i| i.watch.as_ref().filter(|s| !s.closed).map(|s| (i.name.clone(), s))),
        );
    let mut watch_timers: Vec<Timer> = Vec::new();
    for (id, s) in streams {
        if let Some(d) = s.deadline_ms {
            let text = tr.f(K::SvTimerDeadline, &[&id, &duration_text(d.saturating_sub(now))]);
            watch_timers.push(t(TimerKind::Deadline, id.clone(), d, None, text));
        }
        if let Some(b) = s.next_bookmark_ms {
            let period = crate::apiserver::cacher::cache_watcher::BOOKMARK_FREQUENCY.0;
            let text = tr.f(K::SvTimerBookmark, &[&id, &duration_text(b.saturating_sub(now))]);
            watch_timers.push(t(TimerKind::Bookmark, id, b, Some(period), text));
        }
    }
    // The soonest get a chip each; the rest are counted in one chip that opens them.
    let due: Vec<u64> = watch_timers.iter().map(|t| t.due_ms).collect();
    let (shown, rest) = crate::ui::picture::chips::soonest(&due, max_watch_timers);
    let more = rest.len();
    out.extend(shown.into_iter().map(|i| watch_timers[i].clone()));
    if more > 0 {
        out.push(Timer {
            kind: TimerKind::Deadline,
            tier: Tier::Clients,
            owner: String::new(),
            due_ms: 0,
            in_ms: 0,
            period_ms: None,
            text: tr.f(K::SvTimersMore, &[&more]),
        });
    }
    if let Some(next) = v.apiservers.iter().filter_map(|a| a.next_compaction_ms).min() {
        let text = tr.f(K::SvNextRound, &[&duration_text(next.saturating_sub(now))]);
        out.push(t(TimerKind::Compaction, "etcd".into(), next, None, text));
    }
    out
}
