//! The timeline's data, built from the session and the log ([`build`]): key lanes, reads, watch
//! cache windows, watches and how they ended, and what changed since the previous picture
//! ([`Step`]). Pure: no DOM.

#[allow(unused_imports)]
use super::*;

/// One version of a key: written at `start`, replaced (or deleted) at `end` (exclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct Seg {
    pub start: i64,
    pub end: i64,
    pub create: i64,
    pub version: i64,
    /// The last version, still current.
    pub open: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LaneBody {
    Segs {
        segs: Vec<Seg>,
        tombs: Vec<i64>,
    },
    /// Changes per column (too many to draw one by one).
    Buckets(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub key: String,
    /// The label: the key below the apiserver's prefix (from the read model).
    pub short: String,
    pub body: LaneBody,
    /// Changes inside the window.
    pub changes: usize,
    /// The last few changes inside the window: (revision, version, is a tombstone).
    pub recent: Vec<(i64, i64, bool)>,
}

/// One apiserver's watch cache window for one resource.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheBand {
    pub apiserver: usize,
    pub resource: String,
    pub oldest: i64,
    pub rv: i64,
    pub held: usize,
    pub capacity: usize,
    pub ready: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub window: Window,
    pub current: i64,
    pub compact: Option<i64>,
    /// Compactor rounds: (round number, revision compacted to).
    pub rounds: Vec<(usize, i64)>,
    pub keys: usize,
    pub lanes: Vec<Lane>,
    /// Keys beyond [`MAX_LANES`] that change in the window, their changes in all, and per
    /// column.
    pub more_keys: usize,
    pub more_changes: usize,
    pub more: Vec<u32>,
    /// The lanes of those keys, drawn once the learner opens the fold (`picture::lanes`) or the
    /// table: built only when [`build`] is asked for every lane (else empty).
    pub more_lanes: Vec<Lane>,
    /// `compact_rev_key` writes (hidden from the lanes, explained in the legend).
    pub compact_key_writes: usize,
    pub marks: Vec<Mark>,
    pub caches: Vec<CacheBand>,
    /// The read model this was built from (the system view draws it).
    pub view: View,
}

impl Model {
    /// Nothing happened yet: no writes, no reads, no watches.
    pub fn is_empty(&self) -> bool {
        self.keys == 0 && self.marks.is_empty() && self.view.watches.is_empty() && self.current <= 1
    }
}

/// What changed from the previous picture to this one (a scrubber step, a new line, a Play
/// tick), so each step is drawn in stages: the request travels (and the revisions that reached a
/// lagging watch cache rise to it), then the decision and the bands and heads move, then the
/// answer appears (new marks, frames and ends). Read from two read-model snapshots; nothing here
/// decides anything the engine did not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// Counts the pictures' steps; its parity names the animations, so a step restarts them on
    /// the elements the last step animated too.
    pub n: u64,
    /// Revisions that reached a watch cache since the previous picture: (apiserver, resource, rv).
    pub landed: Vec<(usize, String, i64)>,
    /// Frames (events and bookmarks) a watch's client read since then: (watch id, rv).
    pub frames: Vec<(String, i64)>,
    /// Watches that started or ended since then.
    pub started: Vec<String>,
    pub ended: Vec<String>,
    /// Reads (lists, tokens, refusals) new since then: (log entry, rv).
    pub marks: Vec<(usize, i64)>,
}

impl Step {
    /// The change from `prev` to `m`, numbered `n`.
    pub fn between(prev: Option<&Model>, m: &Model, n: u64) -> Step {
        let mut s = Step { n, ..Step::default() };
        let Some(p) = prev else { return s };
        for c in m.view.apiservers.iter().flat_map(|a| a.caches.iter()) {
            let Some(old) = p
                .view
                .apiservers
                .iter()
                .flat_map(|a| a.caches.iter())
                .find(|o| o.apiserver == c.apiserver && o.resource == c.resource)
            else {
                continue;
            };
            for (r, _) in &old.in_flight_revs {
                if *r > old.rv && *r <= c.rv && c.in_flight_revs.iter().all(|(q, _)| q != r) {
                    s.landed.push((c.apiserver, c.resource.to_string(), *r));
                }
            }
        }
        for w in &m.view.watches {
            let old = p.view.watches.iter().find(|o| o.id == w.id && o.line == w.line);
            let seen = |r: i64| old.is_some_and(|o| o.events().chain(o.bookmarks()).any(|q| q == r));
            for r in w.events().chain(w.bookmarks()).filter(|r| !seen(*r)) {
                s.frames.push((w.id.clone(), r));
            }
            if old.is_none() {
                s.started.push(w.id.clone());
            }
            if w.end.is_some() && old.is_none_or(|o| o.end.is_none()) {
                s.ended.push(w.id.clone());
            }
        }
        for mk in &m.marks {
            if !p.marks.iter().any(|o| o.entry == mk.entry && o.rv == mk.rv && o.kind == mk.kind) {
                s.marks.push((mk.entry, mk.rv));
            }
        }
        s
    }

    /// The class an element this step changed wears (`fresh-a` / `fresh-b`, by the parity of
    /// [`Step::n`]).
    pub fn fresh(&self) -> &'static str {
        if self.n.is_multiple_of(2) { "fresh-a" } else { "fresh-b" }
    }

    pub fn new_frame(&self, id: &str, rv: i64) -> bool {
        self.frames.iter().any(|(w, r)| w == id && *r == rv)
    }
}

fn bucket(rev: i64, w: Window) -> usize {
    (((rev - w.lo) as f64 / w.span() as f64) * BUCKETS as f64).clamp(0.0, (BUCKETS - 1) as f64) as usize
}

/// The reads the log's outputs carry ([`crate::ui::picture::marks`]).
pub fn marks(entries: &[Entry], head: i64) -> Vec<Mark> {
    crate::ui::picture::marks(entries.iter().map(|e| (&*e.reply, e.why.as_deref())), head)
}

/// The watch cache windows worth drawing: every apiserver's cache of each resource the sandbox
/// has written, listed or watched.
pub fn caches(view: &View, resources: &[String]) -> Vec<CacheBand> {
    view.apiservers
        .iter()
        .flat_map(|a| a.caches.iter())
        .filter(|c| resources.iter().any(|r| r == c.resource))
        .map(|c| CacheBand {
            apiserver: c.apiserver,
            resource: c.resource.to_string(),
            oldest: c.oldest_startable_rv,
            rv: c.rv,
            held: c.history_len,
            capacity: c.capacity,
            ready: c.ready,
        })
        .collect()
}

/// The whole range of revisions, `1..=current`.
pub fn full_window(session: &Session) -> Window {
    Window { lo: 1, hi: session.revision().max(1) }
}

/// Builds the picture's data for `window` (None = every revision). The lanes of the keys beyond
/// [`MAX_LANES`] only when `every_lane` (the learner opened them or the table): at 10k objects
/// they are 10,000 lanes nobody sees, and every line would build them again.
pub fn build(session: &Session, entries: &[Entry], window: Option<Window>, every_lane: bool) -> Model {
    let view = session.view();
    let current = view.revision.max(1);
    let w = match window {
        None => Window { lo: 1, hi: current },
        Some(w) => {
            let hi = w.hi.clamp(1, current);
            Window { lo: w.lo.clamp(1, hi), hi }
        }
    };
    let mut lanes = Vec::new();
    let mut more = vec![0u32; BUCKETS];
    let mut more_keys = 0;
    let mut more_changes = 0;
    let mut more_lanes = Vec::new();
    let mut keys = 0;
    let mut compact_key_writes = 0;
    let mut resources: Vec<String> = Vec::new();
    for lane in session.revision_lanes() {
        if lane.key == COMPACT_KEY {
            compact_key_writes = lane.changes.len();
            continue;
        }
        keys += 1;
        if let Some(r) = &lane.resource
            && !resources.contains(r)
        {
            resources.push(r.clone());
        }
        let revs = &lane.changes;
        // First revision whose version reaches into the window.
        let first = revs.partition_point(|r| r.rev < w.lo).saturating_sub(1);
        let in_window: Vec<usize> = (first..revs.len()).take_while(|&i| revs[i].rev <= w.hi).collect();
        let visible = in_window.iter().any(|&i| {
            let (rev, tomb) = (revs[i].rev, revs[i].deleted);
            let end = revs.get(i + 1).map_or(current + 1, |n| n.rev);
            if tomb { rev >= w.lo } else { end > w.lo }
        });
        if !visible {
            continue;
        }
        let changes: Vec<usize> = in_window.iter().copied().filter(|&i| revs[i].rev >= w.lo).collect();
        let folded = lanes.len() >= MAX_LANES;
        if folded {
            more_keys += 1;
            more_changes += changes.len();
            for &i in &changes {
                more[bucket(revs[i].rev, w)] += 1;
            }
            if !every_lane {
                continue;
            }
        }
        let recent = changes
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|&i| (revs[i].rev, revs[i].version, revs[i].deleted))
            .collect();
        let body = if changes.len() > DENSE {
            let mut b = vec![0u32; BUCKETS];
            for &i in &changes {
                b[bucket(revs[i].rev, w)] += 1;
            }
            LaneBody::Buckets(b)
        } else {
            let mut segs = Vec::new();
            let mut tombs = Vec::new();
            for &i in &in_window {
                let c = revs[i];
                if c.deleted {
                    if c.rev >= w.lo {
                        tombs.push(c.rev);
                    }
                    continue;
                }
                let next = revs.get(i + 1).map(|n| n.rev);
                let end = next.unwrap_or(current + 1);
                if end > w.lo {
                    segs.push(Seg {
                        start: c.rev,
                        end,
                        create: c.create_rev,
                        version: c.version,
                        open: next.is_none(),
                    });
                }
            }
            LaneBody::Segs { segs, tombs }
        };
        let lane = Lane { key: lane.key, short: lane.short, body, changes: changes.len(), recent };
        if folded { more_lanes.push(lane) } else { lanes.push(lane) }
    }
    for r in view
        .watches
        .iter()
        .map(|w| w.resource.to_string())
        .chain(view.informers.iter().map(|i| i.resource.clone()))
    {
        if !r.is_empty() && !resources.contains(&r) {
            resources.push(r);
        }
    }
    let marks = marks(entries, current);
    if !marks.is_empty() && resources.is_empty() {
        resources.push("configmaps".into());
    }
    resources.sort();
    Model {
        window: w,
        current,
        compact: view.compacted,
        rounds: view.compactions.iter().map(|c| (c.round, c.revision)).collect(),
        keys,
        lanes,
        more_keys,
        more_changes,
        more,
        more_lanes,
        compact_key_writes,
        marks,
        caches: caches(&view, &resources),
        view,
    }
}
