//! Watch streams as the apiserver serves them (§E.1): frames of ADDED / MODIFIED / DELETED /
//! BOOKMARK / ERROR, selector transitions, and the etcd-direct source (§E.2, cache disabled).

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::decision::{EndReason, Ended, Path, Rule, Why};
use super::features::Features;
use super::field_selector::SelectionPredicate;
use super::object;
use super::resource::ResourceInfo;
use super::status::Status;
use crate::store::{Event, EventType, MvccStore, RangeRequest, WatchCreateRequest, WatchId};

/// The type of one watch frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameType {
    Added,
    Modified,
    Deleted,
    Bookmark,
    Error,
}

impl FrameType {
    pub const ALL: [FrameType; 5] =
        [FrameType::Added, FrameType::Modified, FrameType::Deleted, FrameType::Bookmark, FrameType::Error];

    /// The type a frame's `"type"` names (`"ADDED"` …), as [`FrameType::as_str`] writes it.
    pub fn parse(name: &str) -> Option<FrameType> {
        FrameType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FrameType::Added => "ADDED",
            FrameType::Modified => "MODIFIED",
            FrameType::Deleted => "DELETED",
            FrameType::Bookmark => "BOOKMARK",
            FrameType::Error => "ERROR",
        }
    }
}

/// One `{"type":…,"object":…}` frame of a watch response. The object is immutable and shared:
/// one change decoded once reaches every watcher as the same object (the cacher's
/// `cachingObject`), so a frame costs a reference, not a copy.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub kind: FrameType,
    pub object: Arc<Value>,
    /// The simulated time the server sent it (not part of the wire format).
    pub sent_at: Option<crate::clock::Instant>,
}

impl Frame {
    /// A frame of `kind` carrying `object`, not sent yet.
    pub fn new(kind: FrameType, object: impl Into<Arc<Value>>) -> Frame {
        Frame { kind, object: object.into(), sent_at: None }
    }

    /// The frame as sent at `at`.
    pub fn sent(mut self, at: crate::clock::Instant) -> Frame {
        self.sent_at = Some(at);
        self
    }

    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(self.kind.as_str().into()));
        m.insert("object".into(), Value::clone(&self.object));
        Value::Object(m)
    }

    pub fn error(status: &Status) -> Frame {
        Frame::new(FrameType::Error, status.to_json())
    }

    /// A BOOKMARK: an empty object of the watched kind (`c.newFunc()` in `cacher.go`) carrying
    /// `metadata.resourceVersion` (and the initial-events-end annotation when it ends the initial
    /// events), serialised as the Go type is: `"creationTimestamp":null` until 1.33
    /// ([`Features::null_creation_timestamp`]); a Pod's non-omitempty `spec.containers` as
    /// `null` and its empty `status` struct as `{}` (`k8s.io/api/core/v1` types.go: `Containers
    /// []Container json:"containers"`, `Status PodStatus json:"status,omitempty"`).
    pub fn bookmark(info: &ResourceInfo, rv: i64, initial_events_end: bool, features: &Features) -> Frame {
        let mut meta = Map::new();
        meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
        if features.null_creation_timestamp {
            meta.insert("creationTimestamp".into(), Value::Null);
        }
        if initial_events_end {
            meta.insert("annotations".into(), json!({"k8s.io/initial-events-end": "true"}));
        }
        let mut object = Map::new();
        object.insert("kind".into(), json!(info.kind));
        object.insert("apiVersion".into(), json!(info.api_version()));
        object.insert("metadata".into(), Value::Object(meta));
        if info.resource == "pods" {
            object.insert("spec".into(), json!({"containers": null}));
            object.insert("status".into(), json!({}));
        }
        Frame::new(FrameType::Bookmark, Value::Object(object))
    }
}

/// Which objects a watch delivers: a key prefix (namespace or all), an optional single name
/// (the legacy `/watch/…/<name>` path) and the label and field selectors.
#[derive(Debug, Clone)]
pub struct WatchFilter {
    pub key_prefix: String,
    pub name: Option<String>,
    pub selector: SelectionPredicate,
}

impl WatchFilter {
    pub fn matches(&self, obj: &Value) -> bool {
        if let Some(n) = &self.name
            && object::name(obj) != n
        {
            return false;
        }
        self.selector.matches(obj)
    }

    fn matches_key(&self, key: &[u8]) -> bool {
        key.starts_with(self.key_prefix.as_bytes())
    }

    /// Turns one etcd event into the frame a client sees, if any (etcd3 watcher's `transform`).
    /// An event that is not a creation but lacks its previous value (compacted away) is the
    /// watcher's error `etcd event received with PrevKv=nil …` (§E.2).
    pub fn transform(&self, info: &ResourceInfo, ev: &Event) -> Result<Option<Frame>, String> {
        if !self.matches_key(&ev.kv.key) {
            return Ok(None);
        }
        let is_create = ev.kind == EventType::Put && ev.kv.version == 1;
        if !is_create && ev.prev_kv.is_none() {
            return Err(format!(
                "etcd event received with PrevKv=nil (key={}, modRevision={}, type={})",
                super::go::strconv::go_quote(&String::from_utf8_lossy(&ev.kv.key)),
                ev.kv.mod_revision,
                if ev.kind == EventType::Put { "PUT" } else { "DELETE" }
            ));
        }
        Ok(self.frame_for(info, ev))
    }

    /// The objects are decoded as every read decodes them ([`object::decode_canonical`]):
    /// `resourceVersion` at its `ObjectMeta` place, as Go's encoder writes the struct.
    fn frame_for(&self, info: &ResourceInfo, ev: &Event) -> Option<Frame> {
        let rev = ev.kv.mod_revision;
        let prev =
            ev.prev_kv.as_ref().and_then(|p| object::decode_canonical(info, &p.value, rev)).map(Arc::new);
        let cur = match ev.kind {
            EventType::Delete => None,
            EventType::Put => Some(Arc::new(object::decode_canonical(info, &ev.kv.value, rev)?)),
        };
        let prev = if ev.kind == EventType::Put && ev.kv.version == 1 { None } else { prev };
        self.frame_for_change(cur, prev, rev)
    }

    /// The one rule turning a change into the frame this watch sees, with selector transitions
    /// (etcd3 `watcher.go` `transform`, cacher `cache_watcher.go` `convertToWatchEvent`):
    /// `cur` is the object after the change (`None` for a delete), `prev` before it (`None` for a
    /// creation). Matching after and before → MODIFIED; only after → ADDED; only before →
    /// DELETED carrying the previous state at the change's revision `rv` (the shared object
    /// itself when it already carries `rv`).
    pub fn frame_for_change(
        &self,
        cur: Option<Arc<Value>>,
        prev: Option<Arc<Value>>,
        rv: i64,
    ) -> Option<Frame> {
        let cur_ok = cur.as_ref().is_some_and(|c| self.matches(c));
        let prev_ok = prev.as_ref().is_some_and(|p| self.matches(p));
        match (cur, prev) {
            (Some(cur), _) if cur_ok && prev_ok => Some(Frame::new(FrameType::Modified, cur)),
            (Some(cur), _) if cur_ok => Some(Frame::new(FrameType::Added, cur)),
            (_, Some(mut last)) if prev_ok => {
                let rv_text = rv.to_string();
                if object::resource_version(&last) != Some(rv_text.as_str()) {
                    object::set_resource_version(Arc::make_mut(&mut last), rv);
                }
                Some(Frame::new(FrameType::Deleted, last))
            }
            _ => None,
        }
    }

    /// True when every object under the prefix passes (no name, no selector): whether a change
    /// is delivered then does not depend on the objects.
    pub fn selects_all(&self) -> bool {
        self.name.is_none() && self.selector.is_empty()
    }

    /// Whether a key lies under this watch's prefix.
    pub fn covers_key(&self, key: &str) -> bool {
        key.starts_with(&self.key_prefix)
    }
}

/// How a watch starts: its id, what it covers, its resourceVersion and options, its deadline.
#[derive(Debug, Clone)]
pub struct WatchArgs {
    pub id: u64,
    pub info: &'static ResourceInfo,
    pub filter: WatchFilter,
    pub rv: Option<u64>,
    pub send_initial_events: Option<bool>,
    pub allow_bookmarks: bool,
    pub deadline: crate::clock::Instant,
    /// The release's defaults (how a BOOKMARK object is serialised).
    pub features: Features,
    /// When the watch request arrives.
    pub now: crate::clock::Instant,
}

/// Where a stream's frames come from.
#[derive(Debug, Clone)]
pub enum WatchSource {
    /// Straight from an etcd watcher (watch cache disabled).
    Etcd(WatchId),
    /// A cache watcher of this resource's cacher (same id as the stream).
    Cache(&'static str),
    /// Nothing more will come.
    Done,
}

/// The server side of one open watch.
#[derive(Debug, Clone)]
pub struct WatchStream {
    pub info: &'static ResourceInfo,
    pub filter: WatchFilter,
    pub source: WatchSource,
    /// Frames sent by the server but not yet read by the client.
    pub pending: VecDeque<Frame>,
    /// True once the server has ended the stream (ERROR, timeout, termination).
    pub closed: bool,
    /// Why the stream ended, for explanations.
    pub close_reason: Option<Ended>,
    /// When the server ends the stream (`timeoutSeconds`).
    pub deadline: Option<crate::clock::Instant>,
    /// The client has stopped reading.
    pub paused: bool,
    /// etcd-direct only: responses taken from etcd's queue so far.
    taken: usize,
    /// etcd-direct only: when etcd sent its responses, as `(n, at)`: the responses before the
    /// `n`-th (counted from the watch's start) not covered by an earlier mark were sent at `at`.
    /// Noted by [`WatchStream::note_sent`] while they still wait in etcd's queue, so taking them
    /// stays lazy (what the 410 paths rely on) and each relayed frame still carries its time.
    sent_marks: VecDeque<(usize, crate::clock::Instant)>,
}

impl WatchStream {
    pub fn new(info: &'static ResourceInfo, filter: WatchFilter, source: WatchSource) -> Self {
        WatchStream {
            info,
            filter,
            source,
            pending: VecDeque::new(),
            closed: false,
            close_reason: None,
            deadline: None,
            paused: false,
            taken: 0,
            sent_marks: VecDeque::new(),
        }
    }

    /// Notes that what etcd has queued for this stream so far was sent by `now` (called whenever
    /// the cluster settles after a write or a step of time, so `now` is when etcd sent it).
    pub fn note_sent(&mut self, etcd: &MvccStore, now: crate::clock::Instant) {
        let WatchSource::Etcd(id) = self.source else { return };
        let sent = self.taken + etcd.queued_watch_responses(id);
        let marked = self.sent_marks.back().map_or(self.taken, |m| m.0);
        if sent > marked {
            self.sent_marks.push_back((sent, now));
        }
    }

    /// When the next response taken from etcd was sent, if noted.
    fn next_sent_at(&mut self) -> Option<crate::clock::Instant> {
        while self.sent_marks.front().is_some_and(|m| m.0 <= self.taken) {
            self.sent_marks.pop_front();
        }
        self.sent_marks.front().map(|m| m.1)
    }

    /// Ends the stream with an ERROR frame carrying `status`.
    pub fn fail(&mut self, status: &Status, reason: Ended, etcd: &mut MvccStore) {
        self.pending.push_back(Frame::error(status));
        self.close(reason, etcd);
    }

    /// Ends the stream cleanly (no frame).
    pub fn close(&mut self, mut reason: Ended, etcd: &mut MvccStore) {
        if reason.path.is_none() {
            reason.path = Some(match self.source {
                WatchSource::Etcd(_) => Path::Etcd,
                _ => Path::WatchCache,
            });
        }
        if let WatchSource::Etcd(id) = self.source {
            etcd.cancel_watch(id);
        }
        self.source = WatchSource::Done;
        self.closed = true;
        self.close_reason.get_or_insert(reason);
    }

    /// Moves what the source has produced into `pending`. etcd's responses wait in its queue
    /// until taken here; each frame carries the time etcd sent its response
    /// ([`WatchStream::note_sent`]), as a cache-served frame carries the time the cache sent it.
    pub fn pump(&mut self, etcd: &mut MvccStore) {
        let WatchSource::Etcd(id) = self.source else { return };
        for resp in etcd.take_watch_responses(id) {
            let at = self.next_sent_at();
            self.taken += 1;
            let stamp = |f: Frame| match at {
                Some(t) => f.sent(t),
                None => f,
            };
            if resp.canceled {
                let status = Status::expired(Status::WATCH_TOO_OLD);
                let mut ended = Ended::new(EndReason::EtcdCompacted);
                ended.path = Some(Path::Etcd);
                self.pending.push_back(stamp(Frame::error(&status)));
                self.close(ended, etcd);
                return;
            }
            for ev in &resp.events {
                match self.filter.transform(self.info, ev) {
                    Ok(Some(f)) => self.pending.push_back(stamp(f)),
                    Ok(None) => {}
                    Err(msg) => {
                        let mut ended = Ended::new(EndReason::PrevKvMissing);
                        ended.path = Some(Path::Etcd);
                        self.pending.push_back(stamp(Frame::error(&Status::internal_error(&msg))));
                        self.close(ended, etcd);
                        return;
                    }
                }
            }
        }
    }

    /// Hands the client every frame sent since the last read (nothing while it is paused).
    pub fn drain(&mut self, etcd: &mut MvccStore) -> Vec<Frame> {
        self.pump(etcd);
        if self.paused {
            return Vec::new();
        }
        self.pending.drain(..).collect()
    }
}

impl WatchStream {
    /// A watch served straight from etcd (watch cache off; etcd3 `watcher.go`): with initial
    /// state (rv unset or 0, or `sendInitialEvents=true`), a list at etcd's current revision as
    /// ADDED events, then an etcd watch from the next revision; otherwise an etcd watch starting
    /// strictly after rv. `why` records which, with its numbers.
    pub fn from_etcd(etcd: &mut MvccStore, args: &WatchArgs, why: &mut Why) -> WatchStream {
        let info = args.info;
        let filter = &args.filter;
        let sie = args.send_initial_events;
        let rv = args.rv.map(|n| super::object::ResourceVersion(n).revision());
        let prefix = filter.key_prefix.clone();
        let range_end = super::etcd3::prefix_range_end(prefix.as_bytes());
        let mut stream = WatchStream::new(info, filter.clone(), WatchSource::Done);
        stream.deadline = Some(args.deadline);
        why.path = Some(Path::Etcd);
        let initial = sie == Some(true) || (sie.is_none() && matches!(rv, None | Some(0)));
        let start_rev;
        if initial {
            // A consistent list, then a watch from its revision + 1.
            let cur = etcd.current_revision();
            if let Ok(resp) = etcd.range(&RangeRequest {
                key: prefix.clone().into_bytes(),
                range_end: range_end.clone(),
                ..Default::default()
            }) {
                for kv in &resp.kvs {
                    if let Some(obj) = object::decode_from_storage(&kv.value, kv.mod_revision)
                        && filter.matches(&obj)
                    {
                        stream.pending.push_back(
                            Frame::new(FrameType::Added, object::canonical(info, obj)).sent(args.now),
                        );
                    }
                }
            }
            why.rule = Rule::WatchListFromEtcd;
            why.initial_events = Some(stream.pending.len());
            why.key_order = Some(true);
            if sie == Some(true) && args.allow_bookmarks {
                stream.pending.push_back(Frame::bookmark(info, cur, true, &args.features).sent(args.now));
                why.end_bookmark = Some(true);
            }
            start_rev = cur.saturating_add(1);
            why.etcd_revision = Some(cur);
            why.start_rv = Some(cur);
        } else {
            let n = match (rv, sie) {
                (None | Some(0), Some(false)) => etcd.current_revision(),
                _ => rv.unwrap_or(0),
            };
            why.rule = Rule::WatchFromEtcd;
            start_rev = n.saturating_add(1);
            why.start_rv = Some(n);
        }
        let id = etcd.watch(WatchCreateRequest {
            key: prefix.into_bytes(),
            range_end,
            start_revision: start_rev,
            prev_kv: true,
            progress_notify: false,
        });
        stream.source = WatchSource::Etcd(id);
        // A catch-up (or a compacted start) is sent as the watch starts.
        stream.note_sent(etcd, args.now);
        stream.pump(etcd);
        stream
    }
}

#[cfg(test)]
mod tests {
    use super::FrameType;

    #[test]
    fn a_frame_type_reads_back_from_its_name() {
        for t in FrameType::ALL {
            assert_eq!(FrameType::parse(t.as_str()), Some(t));
        }
        assert_eq!(FrameType::parse("?"), None);
        assert_eq!(FrameType::parse("added"), None);
    }
}
