//! The revision timeline: an SVG drawn by Yew, one SVG unit per CSS pixel (the picture is laid
//! out for the width its container has, so text is drawn at the size the style sheet says).
//! x = etcd's global revision. Rows, top to bottom, each owning its label lane so labels never
//! meet: the axis; the reads (every list answered, at its list RV, and every continue token, a
//! chip numbered by page at the revision it pins); one lane per key with a bar per version and
//! tombstones for deletes; the compaction row (compacted zone and every compactor round); one
//! row per watch cache window (named by apiserver and resource); one row per watch (start,
//! frames, bookmarks, cursor, and an end mark with its cause). Only the visible revision range
//! is drawn, and a lane with more changes than fit is drawn as per-column counts, so a
//! 100,000-revision history stays cheap. When revisions would be narrower than a pointer
//! target, stretches holding nothing but writes fold into one narrow mark each ([`Axis::plan`]),
//! whose button on the axis opens it; each new picture is drawn in stages from the one before
//! ([`Step`]).
//!
//! [`build`] is pure (session + log → [`Model`]); [`Axis`] is the one mapping from revisions to
//! x, shared with the system view (`ui::system`), which the browser tests use to check that
//! each element is where the state says. Every mark carries `data-kind`, `data-rv` and
//! `data-line` (issue 14's stable hooks).

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::i18n::{K, Tr, use_tr};
pub use super::picture::axis::*;
pub use super::picture::{Mark, MarkKind};

mod nav;
mod reads;
use super::model::Entry;
use crate::apiserver::cacher::FRESHNESS_TIMEOUT;
use crate::apiserver::decision::EndReason;
use crate::script::Session;
use crate::script::view::{FrameKind, View};

/// Lanes drawn one by one; the other keys share one aggregate lane.
pub const MAX_LANES: usize = 14;
/// Watch rows drawn in all; beyond it, `MAX_WATCH_ROWS - FOLD_ROWS` are drawn one by one and
/// the others fold into one row per apiserver.
pub const MAX_WATCH_ROWS: usize = 8;
pub const FOLD_ROWS: usize = 3;
/// Columns of an aggregated lane.
pub const BUCKETS: usize = 180;
/// A lane with more changes than this in the window is aggregated.
pub const DENSE: usize = 120;
/// The compactor's bookkeeping key (one write per round), hidden from the lanes.
pub const COMPACT_KEY: &str = crate::apiserver::compactor::COMPACT_REV_KEY;

/// Every revision of the window at which something is drawn besides a key's write: reads
/// (lists, tokens, refusals), watch starts, frames, bookmarks, cursors and ends, each watch
/// cache's oldest startable RV, its RV and the revisions still on their way to it, the
/// compaction boundary and every round, informers' lastSyncRV, and etcd's head (a cache's
/// snapshot of a write is part of that write: it does not hold a stretch open). Runs of at least
/// [`MIN_FOLD`] revisions between them are the stretches the axis may fold.
pub fn quiet_stretches(m: &Model) -> Vec<(i64, i64)> {
    quiet_stretches_in(m.window, &busy_revisions(m))
}

/// The revisions [`quiet_stretches`] keeps open.
pub fn busy_revisions(m: &Model) -> Vec<i64> {
    let mut at: Vec<i64> = Vec::new();
    at.extend(m.marks.iter().map(|mk| mk.rv));
    for wr in &m.watches {
        at.extend(wr.start.iter().chain(&wr.frames).chain(&wr.bookmarks).chain(&wr.cursor));
        at.extend(wr.end.as_ref().map(|e| e.rv));
    }
    for c in m.view.apiservers.iter().flat_map(|a| a.caches.iter()) {
        at.extend([c.oldest_startable_rv, c.rv]);
        at.extend(c.in_flight_revs.iter().map(|(r, _)| *r));
    }
    at.extend(m.compact);
    at.extend(m.rounds.iter().map(|(_, r)| *r));
    at.extend(m.view.informers.iter().filter_map(|i| i.last_sync_rv.parse::<i64>().ok()));
    at.push(m.current);
    at
}

impl Axis {
    /// Lays out `m` for a container `width` px wide ([`Axis::plan_around`] its busy revisions).
    pub fn plan(m: &Model, width: f64, opened: &[(i64, i64)]) -> Axis {
        Axis::plan_around(m.window, &busy_revisions(m), width, opened)
    }
}

/// The width of `text` as the pictures draw it, measured by the browser: an offscreen SVG
/// `<text>` styled like the pictures' labels (`getComputedTextLength`), so 中文 and any font the
/// page ends up with are measured, not guessed. Cached per string.
pub fn text_width(text: &str) -> f64 {
    measure(text, false)
}

/// [`text_width`] in bold (the selected line's labels).
pub fn bold_width(text: &str) -> f64 {
    measure(text, true)
}

fn measure(text: &str, bold: bool) -> f64 {
    let key = if bold { format!("\u{1}{text}") } else { text.to_string() };
    if let Some(w) = CACHE.with(|c| c.borrow().get(&key).copied()) {
        return w;
    }
    let measured = PROBE.with(|p| {
        let p = p.as_ref()?;
        p.set_attribute("font-weight", if bold { "700" } else { "400" }).ok()?;
        p.set_text_content(Some(text));
        let f: js_sys::Function =
            js_sys::Reflect::get(p, &"getComputedTextLength".into()).ok()?.dyn_into().ok()?;
        f.call0(p).ok()?.as_f64()
    });
    // Without a document (never in a browser): a generous bound, CJK a full em.
    let w = measured.unwrap_or_else(|| super::picture::estimate_width(text));
    CACHE.with(|c| c.borrow_mut().insert(key, w));
    w
}

thread_local! {
    static PROBE: Option<web_sys::Element> = probe();
    static CACHE: RefCell<HashMap<String, f64>> = RefCell::new(HashMap::new());
}

/// Forgets the measured label widths (after the page's style sheet changed).
pub fn remeasure() {
    CACHE.with(|c| c.borrow_mut().clear());
}

/// The hidden `<svg class="timeline"><text class="lbl">` that [`text_width`] measures with.
fn probe() -> Option<web_sys::Element> {
    const NS: &str = "http://www.w3.org/2000/svg";
    let doc = web_sys::window()?.document()?;
    let svg = doc.create_element_ns(Some(NS), "svg").ok()?;
    svg.set_attribute("class", "timeline").ok()?;
    svg.set_attribute("aria-hidden", "true").ok()?;
    svg.set_attribute("width", "10").ok()?;
    svg.set_attribute("height", "10").ok()?;
    svg.set_attribute("style", "position:absolute;left:-10000px;top:0;visibility:hidden").ok()?;
    let text = doc.create_element_ns(Some(NS), "text").ok()?;
    text.set_attribute("class", "lbl").ok()?;
    svg.append_child(&text).ok()?;
    doc.body()?.append_child(&svg).ok()?;
    Some(text)
}

/// `text` cut (with a leading or trailing "…") to fit `max` pixels.
pub fn fit(text: &str, max: f64, keep_end: bool) -> String {
    if text_width(text) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (1..chars.len()).rev() {
        let s: String = if keep_end {
            std::iter::once('…').chain(chars[chars.len() - n..].iter().copied()).collect()
        } else {
            chars[..n].iter().copied().chain(std::iter::once('…')).collect()
        };
        if text_width(&s) <= max {
            return s;
        }
    }
    String::new()
}

/// `text` broken into lines of at most `max` pixels: at spaces, and between CJK characters
/// (which need no space); a word wider than a line is cut with "…".
pub fn wrap(text: &str, max: f64) -> Vec<String> {
    // Tokens: (preceded by a space, text).
    let mut tokens: Vec<(bool, String)> = Vec::new();
    let mut space = false;
    for c in text.chars() {
        if c == ' ' {
            space = true;
            continue;
        }
        let wide = !c.is_ascii();
        match tokens.last_mut() {
            Some((_, t)) if !space && !wide && t.chars().last().is_some_and(|l| l.is_ascii()) => t.push(c),
            _ => tokens.push((space, c.to_string())),
        }
        space = false;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (sp, t) in tokens {
        let joined = if cur.is_empty() {
            t.clone()
        } else if sp {
            format!("{cur} {t}")
        } else {
            format!("{cur}{t}")
        };
        if cur.is_empty() || text_width(&joined) <= max {
            cur = joined;
        } else {
            lines.push(fit(&cur, max, false));
            cur = t;
        }
    }
    if !cur.is_empty() {
        lines.push(fit(&cur, max, false));
    }
    lines
}

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

/// How a watch ended, as the engine and the frames read say.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEnd {
    /// Where it is drawn: the requested RV for a refused start, else the last RV it delivered.
    pub rv: i64,
    /// The log entry that saw the end (the `events` read), or the one that opened it.
    pub entry: usize,
    /// The code of the ERROR frame that ended it (None: it just stopped, no ERROR frame).
    pub code: Option<u16>,
    /// The `ended` value of the engine's typed decision.
    pub cause: Option<EndReason>,
}

/// One watch the script opened.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchRow {
    pub id: String,
    pub entry: usize,
    pub apiserver: usize,
    pub resource: String,
    /// The RV it asked to start after (exclusive), if one.
    pub start: Option<i64>,
    /// The RVs of the frames its client read, and of the bookmarks among them.
    pub frames: Vec<i64>,
    pub bookmarks: Vec<i64>,
    /// The newest RV its client read.
    pub cursor: Option<i64>,
    /// Frames held for a consumer that stopped reading, and how many fit.
    pub buffered: usize,
    pub buffer_limit: usize,
    pub paused: bool,
    pub end: Option<WatchEnd>,
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
    /// Keys beyond [`MAX_LANES`] that change in the window, and their changes per column.
    pub more_keys: usize,
    pub more: Vec<u32>,
    /// `compact_rev_key` writes (hidden from the lanes, explained in the legend).
    pub compact_key_writes: usize,
    pub marks: Vec<Mark>,
    pub caches: Vec<CacheBand>,
    pub watches: Vec<WatchRow>,
    /// The read model this was built from (the system view draws it).
    pub view: View,
}

impl Model {
    /// Nothing happened yet: no writes, no reads, no watches.
    pub fn is_empty(&self) -> bool {
        self.keys == 0 && self.marks.is_empty() && self.watches.is_empty() && self.current <= 1
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
        for w in &m.watches {
            let old = p.watches.iter().find(|o| o.id == w.id && o.entry == w.entry);
            let seen = |r: &i64| old.is_some_and(|o| o.frames.contains(r) || o.bookmarks.contains(r));
            for r in w.frames.iter().chain(&w.bookmarks).filter(|r| !seen(r)) {
                s.frames.push((w.id.clone(), *r));
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

/// The reads the log's outputs carry ([`super::picture::marks`]).
pub fn marks(entries: &[Entry], head: i64) -> Vec<Mark> {
    super::picture::marks(entries.iter().map(|e| (&*e.line, e.out.as_deref())), head)
}

/// The watches of the read model as rows.
pub fn watch_rows(view: &View) -> Vec<WatchRow> {
    view.watches
        .iter()
        .map(|w| {
            let entry = w.line.saturating_sub(1);
            let start = w.requested_rv.filter(|r| *r > 0).or(w.stream.as_ref().and_then(|s| s.started_from));
            let frames: Vec<i64> =
                w.read.rvs.iter().filter(|(_, k)| *k == FrameKind::Event).map(|(r, _)| *r).collect();
            let bookmarks =
                w.read.rvs.iter().filter(|(_, k)| *k == FrameKind::Bookmark).map(|(r, _)| *r).collect();
            let closed = w.read.ended || w.stream.as_ref().is_some_and(|s| s.closed);
            let end = closed.then(|| WatchEnd {
                rv: w.read.last_rv.or(start).unwrap_or(view.revision),
                entry: w.read.ended_line.map_or(entry, |l| l.saturating_sub(1)),
                code: w.read.error_code,
                cause: w.ended.as_ref().map(|e| e.ended),
            });
            WatchRow {
                id: w.id.clone(),
                entry,
                apiserver: w.apiserver,
                resource: w.resource.to_string(),
                start,
                frames,
                bookmarks,
                cursor: w.read.last_rv,
                buffered: w.stream.as_ref().map_or(0, |s| s.buffered),
                buffer_limit: w.stream.as_ref().map_or(0, |s| s.buffer_limit),
                paused: w.stream.as_ref().is_some_and(|s| s.paused),
                end,
            }
        })
        .collect()
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

/// Builds the picture's data for `window` (None = every revision).
pub fn build(session: &Session, entries: &[Entry], window: Option<Window>) -> Model {
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
        if lanes.len() >= MAX_LANES {
            more_keys += 1;
            for &i in &changes {
                more[bucket(revs[i].rev, w)] += 1;
            }
            continue;
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
        lanes.push(Lane { key: lane.key, short: lane.short, body, changes: changes.len(), recent });
    }
    let watches = watch_rows(&view);
    for r in
        watches.iter().map(|w| w.resource.clone()).chain(view.informers.iter().map(|i| i.resource.clone()))
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
        more,
        compact_key_writes,
        marks,
        caches: caches(&view, &resources),
        watches,
        view,
    }
}

/// A tick step whose labels fit: at most one label per `min_px` pixels.
/// "4m48s", "5s", "1h2m".
pub fn duration_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    match (h, m, sec) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s}s"),
        (h, m, _) => format!("{h}h{m}m"),
    }
}

fn tick_step(span: i64, plot_px: f64, min_px: f64) -> i64 {
    let max_ticks = ((plot_px / min_px).floor() as i64).max(1);
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if span / (step * m) < max_ticks {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// A coordinate with one decimal, formatted with integer arithmetic only (float formatting
/// would pull a float printer into the wasm).
pub fn f(x: f64) -> String {
    let v = (x * 10.0).round() as i64;
    let sign = if v < 0 { "-" } else { "" };
    let v = v.abs();
    format!("{sign}{}.{}", v / 10, v % 10)
}

/// Text drawn from its left edge at (`x`, baseline `y`), with its measured width recorded.
pub fn label(class: &str, x: f64, y: f64, text: String, for_kind: &str) -> Html {
    let w = text_width(&text);
    html! {
        <text class={classes!("lbl", class.to_string())} x={f(x)} y={f(y)} data-label-for={for_kind.to_string()} data-w={f(w)}>{ text }</text>
    }
}

/// A row label in the gutter: one line, or two when the row names an owner and a thing.
pub fn gutter_label(g: Geom, y_mid: f64, first: &str, second: Option<&str>, title: &str) -> Html {
    gutter_label_as("", g, y_mid, first, second, title)
}

/// [`gutter_label`] with an extra class on the label (`watch-label` names a watch's row).
pub fn gutter_label_as(
    class: &'static str,
    g: Geom,
    y_mid: f64,
    first: &str,
    second: Option<&str>,
    title: &str,
) -> Html {
    let one = match second {
        Some(s) => format!("{first} · {s}"),
        None => first.to_string(),
    };
    let extra = (!class.is_empty()).then_some(class);
    if g.stacked() {
        // On its own line above the row's drawing, as wide as the picture.
        let t = fit(&one, g.x1 - g.x0, second.is_none());
        let y = y_mid - g.content_h() / 2.0 - 4.0;
        return html! {
            <text class={classes!("row-label", "above", extra)} x={f(g.x0)} y={f(y)} data-label-for="row">{ t }<title>{ title.to_string() }</title></text>
        };
    }
    let max = g.x0 - 12.0;
    if second.is_none() || text_width(&one) <= max {
        let t = fit(&one, max, second.is_none());
        return html! {
            <text class={classes!("row-label", extra)} x="6" y={f(y_mid + 4.0)} data-label-for="row">{ t }<title>{ title.to_string() }</title></text>
        };
    }
    let a = fit(first, max, false);
    let b = fit(second.unwrap_or_default(), max, false);
    html! {
        <text class={classes!("row-label", "two", extra)} x="6" y={f(y_mid - 3.0)} data-label-for="row">
            <tspan x="6" y={f(y_mid - 3.0)}>{ a }</tspan>
            <tspan x="6" y={f(y_mid + 11.0)}>{ b }</tspan>
            <title>{ title.to_string() }</title>
        </text>
    }
}

/// The selected line's marking around a mark, beyond colour: a dashed ring (its label turns bold).
fn sel_ring(x: f64, y: f64, w: f64, h: f64) -> Html {
    html! { <g class="sel"><rect class="sel-ring" x={f(x)} y={f(y)} width={f(w)} height={f(h)} rx={f(h.min(w) / 2.0)} /></g> }
}

/// An invisible 24 × 24 px pointer target around (`x`, `y`).
fn hit(x: f64, y: f64) -> Html {
    html! { <rect class="hit" x={f(x - 12.0)} y={f(y - 12.0)} width="24" height="24" /> }
}

/// How an ended watch is drawn: its glyph class, and the short text next to it.
fn end_text(tr: Tr, e: &WatchEnd) -> (bool, String) {
    use EndReason as R;
    match (e.code, e.cause) {
        (Some(code), Some(R::CacheWindow)) => (true, tr.f(K::TlEndCacheWindow, &[&code])),
        (Some(code), Some(R::EtcdCompacted)) => (true, tr.f(K::TlEndEtcdCompacted, &[&code])),
        (Some(code), Some(R::CacheNotFresh)) => {
            let wait = crate::script::why::span(FRESHNESS_TIMEOUT, super::why::lang(tr));
            (true, tr.f(K::TlEndNotFresh, &[&code, &wait]))
        }
        (Some(code), Some(R::PrevKvMissing)) => (true, tr.f(K::TlEndPrevKv, &[&code])),
        (Some(code), _) => (true, tr.f(K::TlEndError, &[&code])),
        (None, Some(R::EtcdCompacted)) => (false, tr.t(K::TlEndRelisted).to_string()),
        (None, Some(R::CacheOff)) => (false, tr.t(K::TlEndCacheOff).to_string()),
        (None, Some(R::SlowConsumer)) => (false, tr.t(K::TlEndSlow).to_string()),
        (None, Some(R::Timeout)) => (false, tr.t(K::TlEndTimeout).to_string()),
        (None, Some(R::Cancelled)) => (false, tr.t(K::TlEndCancelled).to_string()),
        (None, Some(R::Restart)) => (false, tr.t(K::TlEndRestart).to_string()),
        (None, _) => (false, tr.t(K::TlEndClean).to_string()),
    }
}

/// The `ended` value as the JSON contract spells it (`data-cause`).
fn cause_name(c: EndReason) -> Option<String> {
    serde_json::to_value(c).ok().and_then(|v| v.as_str().map(str::to_string))
}

/// The glyph of a watch end at (`x`, `cy`): ✕ for an ERROR frame, a square for a clean close.
fn end_glyph(error: bool, x: f64, cy: f64) -> Html {
    if error {
        let r = 6.0;
        let d = format!(
            "M{} {}L{} {}M{} {}L{} {}",
            f(x - r),
            f(cy - r),
            f(x + r),
            f(cy + r),
            f(x - r),
            f(cy + r),
            f(x + r),
            f(cy - r)
        );
        html! { <path class="end-x" {d} /> }
    } else {
        html! { <rect class="end-sq" x={f(x - 5.0)} y={f(cy - 5.0)} width="10" height="10" /> }
    }
}

#[derive(Properties, PartialEq)]
pub struct PictureProps {
    pub model: std::rc::Rc<Model>,
    /// The revision axis (the layout for the container's width, and the folded stretches).
    pub axis: std::rc::Rc<Axis>,
    /// The entry shown in the response viewer (its marks are emphasised).
    #[prop_or_default]
    pub selected: Option<usize>,
    #[prop_or_default]
    pub hovered: Option<usize>,
    #[prop_or_default]
    pub on_select: Callback<usize>,
    #[prop_or_default]
    pub on_hover: Callback<Option<usize>>,
    /// What changed since the previous picture: those marks appear in the step's last stage.
    #[prop_or_default]
    pub step: std::rc::Rc<Step>,
    /// A fold's button was pressed: show that stretch.
    #[prop_or_default]
    pub on_open_fold: Callback<(i64, i64)>,
}

/// Each fold's button on the axis: (left, width, text, line). All say as much as fits on one
/// line without meeting another ("⋯ 37 revisions, writes only — show", "⋯ 37 — show", "⋯ 37");
/// when even the shortest do not, they take two lines. Returns them and the lines used.
fn fold_pills(tr: Tr, axis: &Axis) -> (Vec<(f64, f64, String, usize)>, usize) {
    let g = axis.g;
    let place = |k: K, rows: usize| -> Option<Vec<(f64, f64, String, usize)>> {
        let mut placed: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rows];
        axis.folds
            .iter()
            .map(|(a, b)| {
                let text = tr.f(k, &[&(b - a + 1)]);
                let tw = text_width(&text) + 12.0;
                let mid = axis.x(*a as f64) + FOLD_W / 2.0;
                let l = (mid - tw / 2.0).min(g.x1 - tw).max(g.x0.min(mid - tw / 2.0)).max(0.0);
                pack(&mut placed, l, l + tw).map(|row| (l, tw, text, row))
            })
            .collect()
    };
    if axis.folds.is_empty() {
        return (Vec::new(), 0);
    }
    for k in [K::TlFoldLong, K::TlFoldShort, K::TlFoldTiny] {
        if let Some(p) = place(k, 1) {
            return (p, 1);
        }
    }
    match place(K::TlFoldTiny, 2) {
        Some(p) => (p, 2),
        // Never overprinted: beyond two lines, each fold says only "⋯" (its title says more).
        None => (
            axis.folds
                .iter()
                .map(|(a, _)| (axis.x(*a as f64) + FOLD_W / 2.0 - 11.0, 22.0, "⋯".to_string(), 0))
                .collect(),
            1,
        ),
    }
}

/// Moves the keyboard focus to the `i`th fold of the picture `e` happened in.
fn focus_fold(e: &KeyboardEvent, i: usize) {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(next) = el
        .closest("svg")
        .ok()
        .flatten()
        .and_then(|svg| svg.query_selector(&format!("g.fold[data-i='{i}']")).ok().flatten())
    else {
        return;
    };
    if let Ok(focus) =
        js_sys::Reflect::get(&next, &"focus".into()).and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = focus.call0(&next);
    }
}

/// Interval packing: the first of `rows` sub-rows where [`a`, `b`] meets nothing placed.
fn pack(placed: &mut [Vec<(f64, f64)>], a: f64, b: f64) -> Option<usize> {
    for (i, row) in placed.iter_mut().enumerate() {
        if row.iter().all(|(x, y)| b + 2.0 <= *x || a >= *y + 2.0) {
            row.push((a, b));
            return Some(i);
        }
    }
    None
}

/// The SVG and its table equivalent, for a model.
#[function_component(Picture)]
pub fn picture(p: &PictureProps) -> Html {
    let tr = use_tr();
    let reads_open = use_state(|| false);
    let svg_ref = use_node_ref();
    {
        let svg_ref = svg_ref.clone();
        use_effect(move || {
            if let Some(svg) = svg_ref.cast::<web_sys::Element>() {
                nav::ensure_tab_stop(&svg);
            }
        });
    }
    let m = &*p.model;
    let w = m.window;
    let axis = &*p.axis;
    let g = axis.g;
    let x = |rev: f64| axis.x(rev);
    let clamp = |v: f64| v.clamp(g.x0, g.x1);
    let mark_attrs = |entry: usize| {
        let hl = p.selected == Some(entry) || p.hovered == Some(entry);
        let onclick = p.on_select.reform(move |_: MouseEvent| entry);
        let onmouseenter = p.on_hover.reform(move |_: MouseEvent| Some(entry));
        let onmouseleave = p.on_hover.reform(|_: MouseEvent| None);
        (hl, onclick, onmouseenter, onmouseleave)
    };
    let change = &*p.step;
    let fresh = change.fresh();
    let mut y = 0.0;
    let mut parts: Vec<Html> = Vec::new();

    // Axis: tick labels at least their width + 16 px apart, never inside a fold; with folds, a
    // line above the ticks holds each fold's button.
    let widest = text_width(&w.hi.to_string()).max(text_width("8"));
    let min_gap = widest + 16.0;
    let folded: i64 = axis.folds.iter().map(|(a, b)| b - a + 1).sum();
    let step =
        tick_step((w.span() - folded).max(1), (g.x1 - g.x0) - axis.folds.len() as f64 * FOLD_W, min_gap);
    let first_tick = ((w.lo + step - 1) / step) * step;
    let (pills, pill_rows) = fold_pills(tr, axis);
    let fold_line = pill_rows as f64 * FOLD_LINE;
    let axis_y = AXIS_H + g.label_line() + fold_line;
    let mut last_tick = f64::NEG_INFINITY;
    let ticks: Vec<Html> = (0..)
        .map(|i| first_tick + i * step)
        .take_while(|r| *r <= w.hi)
        .filter(|r| axis.fold_of(*r).is_none())
        .filter_map(|r| {
            let xr = x(r as f64 + 0.5);
            if xr - last_tick < min_gap {
                return None;
            }
            last_tick = xr;
            Some(html! { <g class="tick"><line x1={f(xr)} x2={f(xr)} y1={f(axis_y - 4.0)} y2={f(axis_y)} />
            <text x={f(xr)} y={f(axis_y - 8.0)} data-label-for="axis">{ r }</text></g> })
        })
        .collect();
    parts.push(html! { <g class="axis" key="axis">
        if g.stacked() {
            <text class="row-label above" x={f(g.x0)} y="11" data-label-for="row">{ tr.t(K::TlRevision) }</text>
        } else {
            <text class="row-label" x="6" y={f(axis_y - 8.0)} data-label-for="row">{ tr.t(K::TlRevision) }</text>
        }
        { for ticks }
    </g> });
    let fold_top = g.label_line() + 2.0;
    y += axis_y + 4.0;
    let plot_top = y;

    // Reads: lists (◆), continue-token chips and refusals; a crowd behind "+N".
    let toggle_reads = {
        let open = reads_open.clone();
        Callback::from(move |()| open.set(!*open))
    };
    if let Some((row, h)) = reads::reads_row(tr, m, axis, y, p, *reads_open, toggle_reads) {
        parts.push(row);
        y += h;
    }

    let mut zone_at: Option<(i64, f64, String)> = None;

    // Watches: one row each; beyond [`MAX_WATCH_ROWS`], the first few and one summary row per
    // apiserver for the rest.
    let shown = m.watches.len().min(if m.watches.len() > MAX_WATCH_ROWS {
        MAX_WATCH_ROWS - FOLD_ROWS
    } else {
        MAX_WATCH_ROWS
    });
    for wr in &m.watches[..shown] {
        let cy = g.mid(y);
        let row_name =
            fit(&format!("{} · {}", wr.id, tr.f(K::TlApiserver, &[&wr.apiserver])), g.x1 - g.x0, false);
        let in_w = |r: i64| r >= w.lo && r <= w.hi;
        let from = wr.start.unwrap_or(w.lo - 1);
        let to = wr.end.as_ref().map(|e| e.rv).or(wr.cursor).unwrap_or(m.current);
        let xa = clamp(x(from as f64 + 1.0));
        let xb = clamp(x(to as f64 + 0.5));
        let (hl, onclick, onmouseenter, onmouseleave) = mark_attrs(wr.entry);
        let start = wr.start.filter(|r| in_w(*r)).map(|r| {
            let xs = x(r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "watch-start", change.started.contains(&wr.id).then_some(fresh))} data-kind="watch-start" data-rv={r.to_string()} data-line={(wr.entry + 1).to_string()} data-apiserver={wr.apiserver.to_string()}>
                    <title>{ tr.f(K::TlWatchStart, &[&wr.id, &r]) }</title>
                    { hit(xs, cy) }
                    <circle cx={f(xs)} cy={f(cy)} r="5" />
                </g>
            }
        });
        let ticks = wr.frames.iter().filter(|r| in_w(**r)).map(|r| {
            let xt = x(*r as f64 + 0.5);
            html! { <line class={classes!("frame", change.new_frame(&wr.id, *r).then_some(fresh))} x1={f(xt)} x2={f(xt)} y1={f(cy - 6.0)} y2={f(cy + 6.0)} /> }
        });
        let bookmarks = wr.bookmarks.iter().filter(|r| in_w(**r)).map(|r| {
            let xb = x(*r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "bookmark", change.new_frame(&wr.id, *r).then_some(fresh))} data-kind="bookmark" data-rv={r.to_string()} data-line={(wr.entry + 1).to_string()}>
                    <title>{ tr.f(K::TlBookmark, &[&wr.id, r]) }</title>
                    { hit(xb, cy) }
                    <path d={format!("M{} {}l5 5l-5 5l-5 -5z", f(xb), f(cy - 5.0))} />
                </g>
            }
        });
        let cursor = wr.cursor.filter(|r| in_w(*r) && wr.end.is_none()).map(|r| {
            let xc = x(r as f64 + 0.5);
            html! {
                <g class={classes!("mark", "watch", hl.then_some("hl"))} data-kind="watch-frame" data-rv={r.to_string()} data-line={(wr.entry + 1).to_string()} data-x={f(xc)} data-nav="" tabindex="-1" role="button"
                    onclick={onclick.clone()} onmouseenter={onmouseenter.clone()} onmouseleave={onmouseleave.clone()}>
                    <title>{ tr.f(K::TlWatchAt, &[&wr.id, &r]) }</title>
                    { hit(xc, cy) }
                    { for hl.then(|| sel_ring(xc - 9.0, cy - 9.0, 18.0, 18.0)) }
                    <path d={format!("M{} {}l8 5l-8 5z", f(xc - 3.0), f(cy - 5.0))} />
                </g>
            }
        });
        let mut right_edge = xb + 8.0;
        let mut extra_line = 0.0;
        let end = wr.end.as_ref().map(|e| {
            let xe = clamp(x(e.rv as f64 + 0.5));
            let (error, text) = end_text(tr, e);
            let (ehl, eclick, eenter, eleave) = mark_attrs(e.entry);
            // The selected line's labels are bold: measured so.
            let width_of = |t: &str| if ehl { bold_width(t) } else { text_width(t) };
            let tw = width_of(&text);
            let lx = if xe + 10.0 + tw <= g.x1 { Some(xe + 10.0) } else if xe - 10.0 - tw >= xa.min(xe) - 0.1 && xe - 10.0 - tw >= g.x0 { Some(xe - 10.0 - tw) } else { None };
            if let Some(lx) = lx {
                right_edge = right_edge.max(lx + tw);
            }
            // No room beside the mark: on a phone, the row's label line takes it, right of the
            // row's name (cut with "…" only if even that line is too short; the title has it all).
            let above = (lx.is_none() && g.stacked()).then(|| {
                let name = text_width(&row_name) + 12.0;
                if name + tw <= g.x1 - g.x0 {
                    (g.x1 - tw, cy - g.content_h() / 2.0 - 4.0, text.clone())
                } else {
                    // Not even there: a line of its own under the row, under the mark.
                    extra_line = LABEL_LINE;
                    let t = fit(&text, g.x1 - g.x0 - (tw - text_width(&text)), false);
                    let w2 = width_of(&t);
                    ((xe - w2 / 2.0).min(g.x1 - w2).max(g.x0), cy + g.content_h() / 2.0 + 10.0, t)
                }
            });
            let lx = lx.map(|lx| (lx, cy + 4.0, text.clone())).or(above);
            html! {
                <g class={classes!("mark", "watch-end", if error { "error" } else { "clean" }, ehl.then_some("hl"), change.ended.contains(&wr.id).then_some(fresh))} data-kind="watch-end"
                    data-cause={e.cause.and_then(cause_name)} data-code={e.code.map(|c| c.to_string())}
                    data-apiserver={wr.apiserver.to_string()} data-rv={e.rv.to_string()} data-line={(e.entry + 1).to_string()}
                    data-nav="" tabindex="-1" role="button" onclick={eclick} onmouseenter={eenter} onmouseleave={eleave}>
                    <title>{ tr.f(K::TlWatchEnded, &[&wr.id, &text]) }</title>
                    { hit(xe, cy) }
                    { for ehl.then(|| sel_ring(xe - 9.0, cy - 9.0, 18.0, 18.0)) }
                    { end_glyph(error, xe, cy) }
                    { for lx.map(|(lx, ly, t)| label("end-label", lx, ly, t, "watch-end")) }
                </g>
            }
        });
        let buffer = (wr.end.is_none() && wr.paused && wr.buffer_limit > 0)
            .then(|| {
                let text = tr.f(K::TlBuffer, &[&wr.buffered, &wr.buffer_limit]);
                let tw = text_width(&text);
                (right_edge + tw <= g.x1).then(|| label("buffer-label", right_edge, cy + 4.0, text, "buffer"))
            })
            .flatten();
        parts.push(html! {
            <g class="row watch-row" key={format!("watch-{}", wr.id)} data-watch={wr.id.clone()} data-apiserver={wr.apiserver.to_string()} data-resource={wr.resource.clone()}>
                { gutter_label_as("watch-label", g, cy, &wr.id, Some(&tr.f(K::TlApiserver, &[&wr.apiserver])), &tr.f(K::TlWatchRow, &[&wr.id, &wr.apiserver, &wr.resource])) }
                <line class={classes!("bar", wr.end.is_some().then_some("ended"))} x1={f(xa)} x2={f(xb.max(xa))} y1={f(cy)} y2={f(cy)} />
                <g class="frames">{ for ticks }</g>
                <g>{ for start }</g>
                <g class="bookmarks">{ for bookmarks }</g>
                <g>{ for cursor }</g>
                <g>{ for end }</g>
                <g>{ for buffer }</g>
            </g>
        });
        y += g.row_h() + extra_line;
    }
    if m.watches.len() > shown {
        let rest = &m.watches[shown..];
        let mut servers: Vec<usize> = rest.iter().map(|w| w.apiserver).collect();
        servers.sort_unstable();
        servers.dedup();
        for n in servers {
            let group: Vec<&WatchRow> = rest.iter().filter(|w| w.apiserver == n).collect();
            let errors = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_some())).count();
            let clean = group.iter().filter(|w| w.end.as_ref().is_some_and(|e| e.code.is_none())).count();
            let (rh, cy) = g.two_line_row(y);
            let bars = cursor_bars(tr, axis, cy, &group);
            let first = tr.f(K::TlMoreWatchesOn, &[&group.len()]);
            let second = tr.f(K::TlApiserver, &[&n]);
            let title = tr.f(K::TlMoreWatches, &[&group.len(), &errors, &clean]);
            let ends = (errors + clean > 0).then(|| tr.f(K::TlFoldedEnds, &[&errors, &clean]));
            let second = match &ends {
                Some(e) => format!("{second} · {e}"),
                None => second,
            };
            parts.push(html! {
                <g class="row watch-row more" key={format!("fold-{n}")} data-kind="watch-summary" data-apiserver={n.to_string()} data-count={group.len().to_string()}
                    data-errors={errors.to_string()} data-clean={clean.to_string()}>
                    { gutter_label(g, cy, &first, Some(&second), &title) }
                    { bars }
                </g>
            });
            y += rh;
        }
    }
    // Watch cache windows: one row each, named in the gutter, its numbers on or beside the band.
    for c in &m.caches {
        let lo = c.oldest.max(w.lo);
        let hi = c.rv.min(w.hi);
        let cy = g.mid(y);
        let name = tr.f(K::TlApiserver, &[&c.apiserver]);
        let title = tr.f(K::TlCacheAt, &[&c.apiserver, &c.resource, &c.oldest, &c.rv]);
        let band = (hi >= lo).then(|| {
            let x1 = x(lo as f64);
            let x2 = x(hi as f64 + 0.5);
            let text = if c.ready {
                tr.f(K::TlCacheBand, &[&c.oldest, &c.rv, &c.held, &c.capacity])
            } else {
                tr.t(K::TlCacheNotReady).to_string()
            };
            let tw = text_width(&text);
            let tx = if x2 - x1 >= tw + 12.0 {
                Some(x1 + 6.0)
            } else if x2 + 6.0 + tw <= g.x1 {
                Some(x2 + 6.0)
            } else if x1 - 6.0 - tw >= g.x0 {
                Some(x1 - 6.0 - tw)
            } else {
                None
            };
            html! { <>
                <rect class={classes!("band", (!c.ready).then_some("unready"))} x={f(x1)} y={f(cy - 8.0)} width={f((x2 - x1).max(2.0))} height="16" rx="3" />
                { for tx.map(|tx| label("band-label", tx, cy + 4.0, text.clone(), "cache-window")) }
            </> }
        });
        parts.push(html! {
            <g class="row cache" key={format!("cache-{}-{}", c.apiserver, c.resource)} data-kind="cache-window" data-apiserver={c.apiserver.to_string()} data-resource={c.resource.clone()}
                data-rv={c.rv.to_string()} data-from={c.oldest.to_string()}>
                <title>{ title }</title>
                { gutter_label(g, cy, &name, Some(&c.resource), &tr.f(K::TlCacheRow, &[&c.apiserver, &c.resource])) }
                { for band }
            </g>
        });
        y += g.row_h();
    }

    // Compaction: the zone over the lanes and a row of rounds.
    if let Some(c) = m.compact {
        let xe = clamp(x(c as f64));
        let label_c = tr.f(K::TlCompacted, &[&c]);
        zone_at = (c > w.lo).then_some((c, xe, label_c.clone()));
        let cy = g.mid(y);
        // Every ✂ first (marks are never covered), then the boundary's label, then each round's
        // label where it fits.
        let in_w: Vec<(usize, i64)> =
            m.rounds.iter().copied().filter(|(_, r)| *r >= w.lo && *r <= w.hi).collect();
        let round_xs: Vec<f64> = in_w.iter().map(|(_, r)| x(*r as f64)).collect();
        let round_texts: Vec<String> = in_w.iter().map(|(n, _)| tr.f(K::TlRound, &[n])).collect();
        let round_ws: Vec<f64> = round_texts.iter().map(|t| text_width(t)).collect();
        let boundary_x = Some(xe);
        let row = super::picture::compaction_row(
            boundary_x,
            text_width(&label_c),
            &round_xs,
            &round_ws,
            (g.x0, g.x1),
        );
        // Never left out: beside its ✂, or on the row's second line.
        let (lx, line) = row.boundary;
        let boundary_label = Some(label(
            "compact-label",
            lx,
            cy + 4.0 + line as f64 * g.content_h(),
            label_c.clone(),
            "compaction",
        ));
        let extra_lines = row.lines - 1;
        let rounds = in_w.iter().zip(round_texts).zip(&row.rounds).map(|(((n, r), text), at)| {
            let xr = x(*r as f64);
            let lbl = at.map(|lx| label("round-label", lx, cy + 4.0, text.clone(), "compaction"));
            html! {
                <g class="mark compaction" data-kind="compaction" data-rev={r.to_string()} data-rv={r.to_string()} data-round={n.to_string()}>
                    <title>{ tr.f(K::TlRoundTitle, &[n, r]) }</title>
                    { hit(xr, cy) }
                    <path class="scissors" d={format!("M{} {}l5 0l-5 5m5 -5l-5 -5", f(xr - 5.0), f(cy))} />
                    <circle class="scissors" cx={f(xr - 5.0)} cy={f(cy)} r="2.5" />
                    { for lbl }
                </g>
            }
        }).collect::<Vec<_>>();
        // A `compact` line (not a round) is still a compaction: one mark at its revision.
        let manual = (m.rounds.iter().all(|(_, r)| *r != c) && c >= w.lo && c <= w.hi).then(|| html! {
            <g class="mark compaction" data-kind="compaction" data-rev={c.to_string()} data-rv={c.to_string()}>
                <title>{ label_c.clone() }</title>
                { hit(xe, cy) }
                <path class="scissors" d={format!("M{} {}l5 0l-5 5m5 -5l-5 -5", f(xe - 5.0), f(cy))} />
                <circle class="scissors" cx={f(xe - 5.0)} cy={f(cy)} r="2.5" />
            </g>
        });
        parts.push(html! { <g class="row compacted" key="compaction">
            { gutter_label(g, cy, tr.t(K::TlCompaction), None, tr.t(K::TlCompaction)) }
            { for boundary_label }
            { for manual }
            { for rounds }
        </g> });
        y += g.row_h() + extra_lines as f64 * g.content_h();
    }

    // Key lanes.
    for lane in &m.lanes {
        let top = y + g.label_line();
        let body = match &lane.body {
            LaneBody::Segs { segs, tombs } => {
                let bars = segs.iter().map(|s| {
                    let x1 = clamp(x(s.start as f64));
                    let x2 = clamp(x(s.end as f64));
                    let end_label = if s.open { tr.f(K::TlNow, &[&m.current]) } else { (s.end - 1).to_string() };
                    let title = tr.f(K::TlVersion, &[&lane.key, &s.start, &end_label, &s.create, &s.version]);
                    html! {
                        <rect class={classes!("seg", if s.version % 2 == 0 { "even" } else { "odd" }, s.open.then_some("open"))}
                            data-rev={s.start.to_string()} data-version={s.version.to_string()}
                            x={f(x1)} y={f(top + 4.0)} width={f((x2 - x1).max(1.0))} height={f(LANE_H - 8.0)} rx="2">
                            <title>{ title }</title>
                        </rect>
                    }
                });
                let crosses = tombs.iter().map(|t| {
                    let xt = x(*t as f64 + 0.5);
                    let r = 5.0;
                    let cy = top + LANE_H / 2.0;
                    let d = format!("M{} {}L{} {}M{} {}L{} {}", f(xt - r), f(cy - r), f(xt + r), f(cy + r), f(xt - r), f(cy + r), f(xt + r), f(cy - r));
                    html! { <path class="tomb" data-rev={t.to_string()} {d}><title>{ tr.f(K::TlTombstone, &[&lane.key, t]) }</title></path> }
                });
                html! { <>{ for bars }{ for crosses }</> }
            }
            LaneBody::Buckets(b) => buckets(tr, &lane.key, b, axis, top),
        };
        parts.push(html! {
            <g class="lane" key={format!("lane-{}", lane.key)} data-key={lane.key.clone()}>
                { lane_label(g, y, &lane.short, &lane.key, true) }
                { body }
            </g>
        });
        y += g.lane_h();
    }
    if m.more_keys > 0 {
        let l = tr.f(K::TlMoreKeys, &[&m.more_keys]);
        parts.push(html! {
            <g class="lane more" key="more-keys" id="tl-more">
                { lane_label(g, y, &l, &l, false) }
                { buckets(tr, &l, &m.more, axis, y + g.label_line()) }
            </g>
        });
        y += g.lane_h();
    }

    // The compacted zone over every plot row (it lets pointer events through to the marks).
    if let Some((c, xe, label_c)) = zone_at {
        parts.push(html! {
            <g class="compacted" key="zone">
                <rect id="tl-compacted" class="zone" data-rev={c.to_string()} x={f(g.x0)} y={f(plot_top)} width={f(xe - g.x0)} height={f((y - plot_top).max(0.0))}>
                    <title>{ label_c }</title>
                </rect>
                <line id="tl-compact-line" x1={f(xe)} x2={f(xe)} y1={f(plot_top)} y2={f(y)} />
            </g>
        });
    }
    let height = y + 6.0;

    // The folds: a narrow strip over every row, and a button on the axis saying what it holds
    // (as long a text as fits between its neighbours). One Tab stop for all of them: the first
    // is tabbable, ← → move between them, Enter or Space shows the stretch.
    let folds = axis.folds.iter().zip(&pills).enumerate().map(|(i, ((a, b), (l, tw, text, row)))| {
        let (a, b, l, tw) = (*a, *b, *l, *tw);
        let text = text.clone();
        let n = b - a + 1;
        let xa = x(a as f64);
        let fold_top = fold_top + *row as f64 * FOLD_LINE;
        let title = tr.f(K::TlFoldTitle, &[&a, &b, &n]);
        let open = p.on_open_fold.reform(move |_: MouseEvent| (a, b));
        let on_key = {
            let open = p.on_open_fold.clone();
            Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
                "Enter" | " " => {
                    e.prevent_default();
                    open.emit((a, b));
                }
                "ArrowRight" | "ArrowLeft" => {
                    e.prevent_default();
                    let to = if e.key() == "ArrowRight" { i + 1 } else { i.wrapping_sub(1) };
                    focus_fold(&e, to);
                }
                _ => {}
            })
        };
        let strip_top = g.label_line() + 2.0 + fold_line - 2.0;
        // The strip lies under the rows (their labels and bars stay readable over it); the
        // button is drawn over everything.
        let strip = html! {
            <g class="fold-under" key={format!("strip-{a}-{b}")} data-from={a.to_string()} data-to={b.to_string()} onclick={open.clone()}>
                <rect class="fold-strip" x={f(xa)} y={f(strip_top)} width={f(FOLD_W)} height={f((height - 4.0 - strip_top).max(0.0))} />
                <path class="fold-edge" d={format!("M{} {}V{}M{} {}V{}", f(xa), f(strip_top), f(height - 4.0), f(xa + FOLD_W), f(strip_top), f(height - 4.0))} />
            </g>
        };
        let button = html! {
            <g class="fold" key={format!("fold-{a}-{b}")} data-kind="fold" data-i={i.to_string()} data-from={a.to_string()} data-to={b.to_string()}
                data-count={n.to_string()} role="button" tabindex={if i == 0 { "0" } else { "-1" }} aria-label={title.clone()}
                onclick={open} onkeydown={on_key}>
                <title>{ title }</title>
                <rect class="hit" x={f(l)} y={f(fold_top - 3.0)} width={f(tw)} height="24" />
                <rect class="fold-pill" x={f(l)} y={f(fold_top)} width={f(tw)} height="18" rx="9" />
                { label("fold-label", l + 6.0, fold_top + 13.0, text, "fold") }
            </g>
        };
        (strip, button)
    }).collect::<Vec<_>>();
    let (strips, folds): (Vec<Html>, Vec<Html>) = folds.into_iter().unzip();

    let img_label = tr.f(K::TlImgLabel, &[&w.lo, &w.hi, &m.keys, &m.current]);
    html! {
        <div class="tl-wrap">
            <svg id="timeline-svg" ref={svg_ref} class="timeline" role="group" aria-label={img_label} aria-describedby="tl-keys"
                width={f(g.width)} height={f(height)} viewBox={format!("0 0 {} {}", f(g.width), f(height))}
                data-lo={w.lo.to_string()} data-hi={w.hi.to_string()} data-x0={f(g.x0)} data-x1={f(g.x1)} data-width={f(g.width)}
                data-current={m.current.to_string()} data-folds={axis.folds_attr()}>
                <g class="fold-strips" aria-hidden="true">{ for strips }</g>
                <g class="rows" onkeydown={Callback::from(nav::on_key)}>{ for parts }</g>
                <g class="folds">{ for folds }</g>
            </svg>
            <p id="tl-keys" class="visually-hidden">{ tr.t(K::TlMarksKeys) }</p>
            { table(tr, m) }
        </div>
    }
}

/// A cursor histogram for watches drawn together: one bar per revision they stand at (where
/// they ended, else the newest RV read, else where they started), as tall as how many stand there.
pub fn cursor_bars(tr: Tr, axis: &Axis, cy: f64, group: &[&WatchRow]) -> Html {
    let w = axis.w;
    let mut at: Vec<(i64, usize)> = Vec::new();
    for c in group
        .iter()
        .filter_map(|wr| wr.end.as_ref().map(|e| e.rv).or(wr.cursor).or(wr.start))
        .filter(|r| *r >= w.lo && *r <= w.hi)
    {
        match at.iter_mut().find(|(r, _)| *r == c) {
            Some((_, k)) => *k += 1,
            None => at.push((c, 1)),
        }
    }
    let most = at.iter().map(|(_, k)| *k).max().unwrap_or(1) as f64;
    let bars = at.iter().map(|(r, k)| {
        let xr = axis.x(*r as f64 + 0.5);
        let h = 4.0 + 12.0 * (*k as f64 / most);
        html! { <rect class="cursor-bar" data-rv={r.to_string()} data-count={k.to_string()} x={f(xr - 2.0)} y={f(cy + 8.0 - h)} width="4" height={f(h)}>
            <title>{ tr.f(K::TlFoldedAt, &[k, r]) }</title></rect> }
    });
    html! { <g class="cursors">{ for bars }</g> }
}

/// A key lane's label: in the gutter, or on its own line above the lane when stacked; `keep_end`
/// keeps a key's end (its name) when it must be cut.
fn lane_label(g: Geom, y: f64, text: &str, title: &str, keep_end: bool) -> Html {
    let (x, y, max) =
        if g.stacked() { (g.x0, y + 11.0, g.x1 - g.x0) } else { (6.0, y + LANE_H / 2.0 + 4.0, g.x0 - 12.0) };
    html! {
        <text class={classes!("row-label", "lane-label", g.stacked().then_some("above"))} x={f(x)} y={f(y)} data-label-for="row">{ fit(text, max, keep_end) }<title>{ title.to_string() }</title></text>
    }
}

fn buckets(tr: Tr, key: &str, b: &[u32], axis: &Axis, y: f64) -> Html {
    let w = axis.w;
    let max = b.iter().copied().max().unwrap_or(1).max(1) as f64;
    let cols = b.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| {
        let lo = w.lo + (i as i64 * w.span()) / BUCKETS as i64;
        let hi = (w.lo + ((i as i64 + 1) * w.span()) / BUCKETS as i64 - 1).max(lo);
        let (x1, x2) = (axis.x(lo as f64), axis.x(hi as f64 + 1.0));
        let op = 0.3 + 0.7 * (*n as f64 / max);
        html! {
            <rect class="bucket" x={f(x1)} y={f(y + 4.0)} width={f((x2 - x1).max(1.0))} height={f(LANE_H - 8.0)}
                style={format!("opacity:{}", f(op))}><title>{ tr.f(K::TlAggregate, &[&key, n, &lo, &hi]) }</title></rect>
        }
    });
    html! { <g class="dense">{ for cols }</g> }
}

/// The table equivalent of the picture (for screen readers and for copying): every key, every
/// mark, every cache window, every watch with how it ended.
fn table(tr: Tr, m: &Model) -> Html {
    let rows = m.lanes.iter().map(|l| {
        let mut parts: Vec<String> = l
            .recent
            .iter()
            .map(|(r, v, tomb)| if *tomb { tr.f(K::TlDeletedAt, &[r]) } else { format!("{r}: v{v}") })
            .collect();
        if l.changes > l.recent.len() {
            parts.insert(0, "…".into());
        }
        html! { <tr><td class="mono">{ l.key.clone() }</td><td class="mono">{ parts.join(", ") }</td></tr> }
    });
    let marks = m.marks.iter().map(|mk| {
        let text = match mk.kind {
            MarkKind::List => tr.f(K::TlListAt, &[&(mk.entry + 1), &mk.rv]),
            MarkKind::Refused { code } => tr.f(K::TlRefusedAt, &[&(mk.entry + 1), &code, &mk.rv]),
            MarkKind::Token { page, latest: true } => tr.f(K::TlTokenLatest, &[&(mk.entry + 1), &page]),
            MarkKind::Token { page, latest: false } => tr.f(K::TlTokenAt, &[&(mk.entry + 1), &mk.rv, &page]),
        };
        html! { <li>{ text }</li> }
    });
    let watches = m.watches.iter().map(|w| {
        let mut text = match w.start {
            Some(s) => tr.f(K::TlWatchStart, &[&w.id, &s]),
            None => tr.f(K::TlWatchRow, &[&w.id, &w.apiserver, &w.resource]),
        };
        if let Some(c) = w.cursor {
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
    let nothing = m.marks.is_empty() && m.caches.is_empty() && m.compact.is_none() && m.watches.is_empty();
    html! {
        <details id="tl-table" class="tl-table">
            <summary>{ tr.t(K::TlTable) }</summary>
            <table class="grid">
                <thead><tr><th>{ tr.t(K::TlColKey) }</th><th>{ tr.t(K::TlColChanges) }</th></tr></thead>
                <tbody>{ for rows }</tbody>
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

// ---- timers: the countdowns of the read model, drawn by the system view and listed in the table

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
            _ => {}
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
    let mut watch_timers = Vec::new();
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
    watch_timers.sort_by_key(|t| t.due_ms);
    let more = watch_timers.len().saturating_sub(max_watch_timers);
    watch_timers.truncate(max_watch_timers);
    out.extend(watch_timers);
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
