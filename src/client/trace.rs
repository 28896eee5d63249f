//! What a client did and why: the decision log (one typed [`Decision`] per step, with the numbers
//! it used), the exact requests it sent with their status codes, and the event-handler
//! notifications.
//!
//! The client only records decisions; it never words them. Their English and Chinese renderings
//! live in one place each, `script::why::informer` (the `log` text of `informer show` is the
//! English rendering; with explain on, the output also carries the typed values as `why.log`).
//!
//! Each list keeps a cursor so `informer show` can print only what is new since the last show.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::clock::Instant;

/// An error as a decision names it: a server `Status` (code, reason, message as sent) or an error
/// the client produced itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorInfo {
    /// HTTP code of the Status; 0 for a client-side error.
    pub code: u16,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub reason: String,
    /// The Status message exactly as the server sent it (empty for client-side errors).
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub message: String,
    /// Set when the client itself produced the error.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub client: Option<ClientError>,
}

/// Errors client-go raises without a server `Status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum ClientError {
    /// `reflector.go`: a watch that closed within 1 s without any event ("very short watch").
    VeryShortWatch { after_ms: u64 },
    /// A watch request answered 2xx without opening a stream.
    NoStream { code: u16 },
    /// A list response without `items` ("returned object must be a list").
    NotAList,
    /// A watch ERROR frame whose object is not a `Status`.
    NotAStatus,
}

/// Why `ListAndWatch` returned (what the back-off that follows is for).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Cause {
    /// The list at `rv` failed.
    ListFailed { rv: String, error: ErrorInfo },
    /// The watch request from `from` was refused before streaming.
    WatchRefused { from: String, error: ErrorInfo },
    /// The watch-list from `rv` failed.
    WatchListFailed { rv: String, error: ErrorInfo },
    /// The watch ended with 410 (`isExpiredError`).
    WatchExpired { error: ErrorInfo },
    /// The watch ended with any other error.
    WatchFailed { error: ErrorInfo },
}

/// How the informer's reflector builds its initial state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListMode {
    /// LIST, then WATCH.
    Legacy,
    /// A watch with `sendInitialEvents=true`.
    Streaming,
}

/// One decision a client took, with the numbers it used. Serialized as
/// `{"decision":"<kebab-case id>", …fields in camelCase}`; every id is listed in the book's
/// `site/src/reference/why.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Decision {
    /// The informer starts its reflector on `collection`.
    Start { collection: String, mode: ListMode, apiservers: Vec<usize> },
    /// The first list: `resourceVersion="0"` (any state; the watch cache serves it).
    ListAny { rv: String, limit: i64 },
    /// A list with `resourceVersion=""` because lastSyncRV is unavailable (consistent read).
    ListConsistent { rv: String, limit: i64 },
    /// A relist at lastSyncRV (not older than); unpaginated (`limit` 0) unless an earlier rv="0"
    /// list came back paginated (`paginatedBefore`).
    ListAtLastSync { rv: String, limit: i64, paginated_before: bool },
    /// The list at `rv` returned `items` objects at `listRv` in `requests` requests; lastSyncRV
    /// becomes `listRv`.
    Listed { rv: String, items: usize, list_rv: String, requests: u32 },
    /// ListAndWatch returned; after `backoffMs` the reflector lists again at lastSyncRV `rv`.
    RelistAtLastSync { cause: Cause, backoff_ms: u64, rv: String },
    /// The reflector lists again with `resourceVersion=""`: at once (`backoffMs` absent) after a
    /// 410 / too-large list, or after a back-off once lastSyncRV is unavailable.
    RelistFromScratch {
        cause: Cause,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        backoff_ms: Option<u64>,
    },
    /// ListAndWatch returned before any list succeeded; after `backoffMs` it lists at "0" again.
    RelistAny { cause: Cause, backoff_ms: u64 },
    /// Streaming mode: after `backoffMs`, a new watch-list from lastSyncRV `rv`.
    WatchListAtLastSync { cause: Cause, backoff_ms: u64, rv: String },
    /// Streaming mode: a new watch-list with `resourceVersion=""`, at once (`backoffMs` absent)
    /// after a 410 / too-large watch-list, or after a back-off.
    WatchListFromScratch {
        cause: Cause,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        backoff_ms: Option<u64>,
    },
    /// A watch from `from` (lastSyncRV) with bookmarks and `timeoutSeconds`.
    Watch { from: String, timeout_seconds: u64 },
    /// A watch-list (`sendInitialEvents=true`, NotOlderThan) from `rv` ("" = most recent).
    WatchList { rv: String, timeout_seconds: u64 },
    /// The watch request was refused with a retriable error: back off, then watch again.
    WatchRefusedRetry { from: String, error: ErrorInfo, backoff_ms: u64 },
    /// The watch ended with 429: back off, then watch again from lastSyncRV.
    WatchThrottledRetry { from: String, error: ErrorInfo, backoff_ms: u64 },
    /// The watch-list failed with a retriable error: back off, then the same watch-list again.
    WatchListRetry { rv: String, error: ErrorInfo, backoff_ms: u64 },
    /// The watch-list failed with an error that is not 410 / too large / retriable: LIST + WATCH.
    WatchListFallback { rv: String, error: ErrorInfo },
    /// The watch-list ended cleanly before its initial-events-end bookmark: start it again.
    WatchListRestart,
    /// The server no longer knows the stream.
    StreamGone,
    /// The stream ended with an ERROR frame.
    ErrorFrame { error: ErrorInfo },
    /// A frame without metadata (skipped).
    EventIgnored {
        #[serde(rename = "type")]
        kind: String,
    },
    /// An event on the watch; lastSyncRV becomes `rv`.
    Event {
        #[serde(rename = "type")]
        kind: String,
        #[serde(skip_serializing_if = "String::is_empty", default)]
        name: String,
        rv: String,
    },
    /// An initial event of a watch-list, held in the temporary store (`held` objects so far).
    InitialEvent {
        #[serde(rename = "type")]
        kind: String,
        #[serde(skip_serializing_if = "String::is_empty", default)]
        name: String,
        rv: String,
        held: usize,
    },
    /// The initial-events-end bookmark: replace the store with `items` objects, lastSyncRV `rv`.
    InitialEventsEnd { rv: String, items: usize },
    /// The watch ended without an error: watch again from lastSyncRV (no relist).
    Rewatch { from: String },
    /// The connection to apiserver `from` broke; the next request opens a new one to apiserver
    /// `to` (1-based; the same one when there is no load balancer).
    ConnectionLost { from: usize, to: usize },
    /// The resync period elapsed: every cached object is re-delivered as an update.
    Resync { period_ms: u64, objects: usize },
    /// The requested resync period is below client-go's `minimumResyncPeriod` (1 s) and was
    /// raised to it.
    ResyncRaised { requested_ms: u64, period_ms: u64 },
    /// Safety valve: too many steps at one instant.
    TooManySteps { steps: usize },
    /// The informer was stopped.
    Stopped,
    /// Pager: page `page` failed with 410 Expired on its continue token; one full list at `rv`.
    PagerFullList { page: u32, error: ErrorInfo, rv: String },
    /// Pager: page `page` carried `items` objects and was the last one.
    PageLast { page: u32, items: usize },
    /// Pager: page `page` carried `items` objects at `rv` and a continue token; the next page
    /// sends only `limit` and `continue`.
    PageContinue { page: u32, items: usize, rv: String, limit: i64 },
    /// REST client: `code` with `Retry-After: retryAfterSeconds` → wait and send again (retry
    /// `retry` of `maxRetries`).
    RetryAfter { code: u16, reason: String, retry_after_seconds: i64, retry: u32, max_retries: u32 },
}

/// One decision, stamped with the simulated time it was taken at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub at: Instant,
    pub decision: Decision,
}

/// A decision as an output's `why.log` carries it: `{"at":"1.6s","decision":…}` (read back by
/// the UI to render it in its language, with [`LogEntry::from_json`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// The simulated time, as `fmt_ms` writes it.
    pub at: String,
    #[serde(flatten)]
    pub decision: Decision,
}

// Reading decisions back from their JSON (the UI renders an output's `why.log` in its language).
// Written by hand rather than derived: serde's derive for internally tagged enums buffers every
// value and instantiates each variant's visitor for the buffer, which made these readers about a
// tenth of the browser app's code. The field names and ids are those the derived `Serialize`
// writes; `script::why::informer`'s tests read back a sample of every variant.

/// The fields of one JSON object, read with the types and defaults of the derived `Serialize`
/// side: a missing or mistyped required field is `None` (so the whole value is unreadable);
/// `Option` fields may be absent or `null`.
struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    fn of(v: &'a Value) -> Option<Self> {
        v.as_object().map(Fields)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key)
    }

    fn string(&self, key: &str) -> Option<String> {
        self.get(key)?.as_str().map(str::to_string)
    }

    /// A string field that is left out when empty.
    fn string_or_empty(&self, key: &str) -> Option<String> {
        match self.get(key) {
            None => Some(String::new()),
            Some(v) => v.as_str().map(str::to_string),
        }
    }

    fn uint<T: TryFrom<u64>>(&self, key: &str) -> Option<T> {
        T::try_from(self.get(key)?.as_u64()?).ok()
    }

    fn int(&self, key: &str) -> Option<i64> {
        self.get(key)?.as_i64()
    }

    fn bool(&self, key: &str) -> Option<bool> {
        self.get(key)?.as_bool()
    }

    /// An `Option<u64>` field: absent or `null` is `Some(None)`.
    fn opt_u64(&self, key: &str) -> Option<Option<u64>> {
        match self.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => v.as_u64().map(Some),
        }
    }

    fn error(&self) -> Option<ErrorInfo> {
        ErrorInfo::from_json(self.get("error")?)
    }

    fn cause(&self) -> Option<Cause> {
        Cause::from_json(self.get("cause")?)
    }
}

impl ErrorInfo {
    pub fn from_json(v: &Value) -> Option<ErrorInfo> {
        let f = Fields::of(v)?;
        let client = match f.get("client") {
            None | Some(Value::Null) => None,
            Some(c) => Some(ClientError::from_json(c)?),
        };
        Some(ErrorInfo {
            code: f.uint("code")?,
            reason: f.string_or_empty("reason")?,
            message: f.string_or_empty("message")?,
            client,
        })
    }
}

impl ClientError {
    pub fn from_json(v: &Value) -> Option<ClientError> {
        let f = Fields::of(v)?;
        Some(match f.get("kind")?.as_str()? {
            "very-short-watch" => ClientError::VeryShortWatch { after_ms: f.uint("afterMs")? },
            "no-stream" => ClientError::NoStream { code: f.uint("code")? },
            "not-a-list" => ClientError::NotAList,
            "not-a-status" => ClientError::NotAStatus,
            _ => return None,
        })
    }
}

impl Cause {
    pub fn from_json(v: &Value) -> Option<Cause> {
        let f = Fields::of(v)?;
        Some(match f.get("kind")?.as_str()? {
            "list-failed" => Cause::ListFailed { rv: f.string("rv")?, error: f.error()? },
            "watch-refused" => Cause::WatchRefused { from: f.string("from")?, error: f.error()? },
            "watch-list-failed" => Cause::WatchListFailed { rv: f.string("rv")?, error: f.error()? },
            "watch-expired" => Cause::WatchExpired { error: f.error()? },
            "watch-failed" => Cause::WatchFailed { error: f.error()? },
            _ => return None,
        })
    }
}

impl Decision {
    /// The decision `{"decision":"<id>", …}` as [`Serialize`] writes it; `None` when `v` is not
    /// one (an unknown id, a missing or mistyped field).
    pub fn from_json(v: &Value) -> Option<Decision> {
        let f = Fields::of(v)?;
        Some(match f.get("decision")?.as_str()? {
            "start" => Decision::Start {
                collection: f.string("collection")?,
                mode: ListMode::deserialize(f.get("mode")?).ok()?,
                apiservers: f
                    .get("apiservers")?
                    .as_array()?
                    .iter()
                    .map(|n| usize::try_from(n.as_u64()?).ok())
                    .collect::<Option<_>>()?,
            },
            "list-any" => Decision::ListAny { rv: f.string("rv")?, limit: f.int("limit")? },
            "list-consistent" => Decision::ListConsistent { rv: f.string("rv")?, limit: f.int("limit")? },
            "list-at-last-sync" => Decision::ListAtLastSync {
                rv: f.string("rv")?,
                limit: f.int("limit")?,
                paginated_before: f.bool("paginatedBefore")?,
            },
            "listed" => Decision::Listed {
                rv: f.string("rv")?,
                items: f.uint("items")?,
                list_rv: f.string("listRv")?,
                requests: f.uint("requests")?,
            },
            "relist-at-last-sync" => Decision::RelistAtLastSync {
                cause: f.cause()?,
                backoff_ms: f.uint("backoffMs")?,
                rv: f.string("rv")?,
            },
            "relist-from-scratch" => {
                Decision::RelistFromScratch { cause: f.cause()?, backoff_ms: f.opt_u64("backoffMs")? }
            }
            "relist-any" => Decision::RelistAny { cause: f.cause()?, backoff_ms: f.uint("backoffMs")? },
            "watch-list-at-last-sync" => Decision::WatchListAtLastSync {
                cause: f.cause()?,
                backoff_ms: f.uint("backoffMs")?,
                rv: f.string("rv")?,
            },
            "watch-list-from-scratch" => {
                Decision::WatchListFromScratch { cause: f.cause()?, backoff_ms: f.opt_u64("backoffMs")? }
            }
            "watch" => {
                Decision::Watch { from: f.string("from")?, timeout_seconds: f.uint("timeoutSeconds")? }
            }
            "watch-list" => {
                Decision::WatchList { rv: f.string("rv")?, timeout_seconds: f.uint("timeoutSeconds")? }
            }
            "watch-refused-retry" => Decision::WatchRefusedRetry {
                from: f.string("from")?,
                error: f.error()?,
                backoff_ms: f.uint("backoffMs")?,
            },
            "watch-throttled-retry" => Decision::WatchThrottledRetry {
                from: f.string("from")?,
                error: f.error()?,
                backoff_ms: f.uint("backoffMs")?,
            },
            "watch-list-retry" => Decision::WatchListRetry {
                rv: f.string("rv")?,
                error: f.error()?,
                backoff_ms: f.uint("backoffMs")?,
            },
            "watch-list-fallback" => Decision::WatchListFallback { rv: f.string("rv")?, error: f.error()? },
            "watch-list-restart" => Decision::WatchListRestart,
            "stream-gone" => Decision::StreamGone,
            "error-frame" => Decision::ErrorFrame { error: f.error()? },
            "event-ignored" => Decision::EventIgnored { kind: f.string("type")? },
            "event" => Decision::Event {
                kind: f.string("type")?,
                name: f.string_or_empty("name")?,
                rv: f.string("rv")?,
            },
            "initial-event" => Decision::InitialEvent {
                kind: f.string("type")?,
                name: f.string_or_empty("name")?,
                rv: f.string("rv")?,
                held: f.uint("held")?,
            },
            "initial-events-end" => {
                Decision::InitialEventsEnd { rv: f.string("rv")?, items: f.uint("items")? }
            }
            "rewatch" => Decision::Rewatch { from: f.string("from")? },
            "connection-lost" => Decision::ConnectionLost { from: f.uint("from")?, to: f.uint("to")? },
            "resync" => Decision::Resync { period_ms: f.uint("periodMs")?, objects: f.uint("objects")? },
            "resync-raised" => Decision::ResyncRaised {
                requested_ms: f.uint("requestedMs")?,
                period_ms: f.uint("periodMs")?,
            },
            "too-many-steps" => Decision::TooManySteps { steps: f.uint("steps")? },
            "stopped" => Decision::Stopped,
            "pager-full-list" => {
                Decision::PagerFullList { page: f.uint("page")?, error: f.error()?, rv: f.string("rv")? }
            }
            "page-last" => Decision::PageLast { page: f.uint("page")?, items: f.uint("items")? },
            "page-continue" => Decision::PageContinue {
                page: f.uint("page")?,
                items: f.uint("items")?,
                rv: f.string("rv")?,
                limit: f.int("limit")?,
            },
            "retry-after" => Decision::RetryAfter {
                code: f.uint("code")?,
                reason: f.string("reason")?,
                retry_after_seconds: f.int("retryAfterSeconds")?,
                retry: f.uint("retry")?,
                max_retries: f.uint("maxRetries")?,
            },
            _ => return None,
        })
    }
}

impl LogEntry {
    /// `{"at":"1.6s","decision":…}` as an output's `why.log` carries it.
    pub fn from_json(v: &Value) -> Option<LogEntry> {
        Some(LogEntry { at: Fields::of(v)?.string("at")?, decision: Decision::from_json(v)? })
    }
}

/// One HTTP request as sent on the wire, and the status code it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestLine {
    pub at: Instant,
    pub method: String,
    /// Path and query exactly as client-go sends them (query keys sorted, like Go's
    /// `url.Values.Encode`).
    pub target: String,
    pub code: u16,
    /// 0-based index of the apiserver that answered.
    pub apiserver: usize,
}

impl RequestLine {
    /// `GET /api/v1/namespaces/default/configmaps?limit=500&resourceVersion=0 → 200`.
    pub fn render(&self) -> String {
        format!("{} {} → {}", self.method, self.target, self.code)
    }
}

/// The decision log and request log of one client.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub log: Vec<LogLine>,
    pub requests: Vec<RequestLine>,
    shown_log: usize,
    shown_requests: usize,
}

impl Trace {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn note(&mut self, at: Instant, decision: Decision) {
        self.log.push(LogLine { at, decision });
    }

    pub fn request(&mut self, at: Instant, apiserver: usize, method: &str, target: &str, code: u16) {
        self.requests.push(RequestLine {
            at,
            method: method.to_string(),
            target: target.to_string(),
            code,
            apiserver,
        });
    }

    /// Every request so far, rendered as `METHOD target → code`.
    pub fn request_lines(&self) -> Vec<String> {
        self.requests.iter().map(RequestLine::render).collect()
    }

    /// Decisions logged since the last [`mark_shown`](Self::mark_shown).
    pub fn new_log(&self) -> &[LogLine] {
        &self.log[self.shown_log.min(self.log.len())..]
    }

    /// Requests sent since the last [`mark_shown`](Self::mark_shown).
    pub fn new_requests(&self) -> &[RequestLine] {
        &self.requests[self.shown_requests.min(self.requests.len())..]
    }

    /// Everything so far counts as shown.
    pub fn mark_shown(&mut self) {
        self.shown_log = self.log.len();
        self.shown_requests = self.requests.len();
    }
}

/// `1.6s`, `800ms`, `30s` — how durations appear in the log.
pub fn fmt_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else if ms >= 1000 {
        // Integer arithmetic, no float formatting (exact, and smaller in the wasm).
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        format!("{}s", s.trim_end_matches('0'))
    } else {
        format!("{ms}ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_durations() {
        assert_eq!(fmt_ms(1600), "1.6s");
        assert_eq!(fmt_ms(800), "800ms");
        assert_eq!(fmt_ms(30_000), "30s");
        assert_eq!(fmt_ms(1234), "1.234s");
        assert_eq!(fmt_ms(1050), "1.05s");
        assert_eq!(fmt_ms(90_001), "90.001s");
        // The same text as the float formatting it replaced, everywhere it was used.
        for ms in (1000..200_000).chain([u64::from(u32::MAX), 1_000_000_000_007]) {
            if ms % 1000 != 0 {
                let f = format!("{:.3}", ms as f64 / 1000.0);
                let f = f.trim_end_matches('0').trim_end_matches('.');
                assert_eq!(fmt_ms(ms), format!("{f}s"), "{ms}");
            }
        }
    }

    #[test]
    fn decisions_serialize_as_kebab_ids_with_camel_case_numbers() {
        let d = Decision::RelistAtLastSync {
            cause: Cause::WatchExpired {
                error: ErrorInfo { code: 410, reason: "Expired".into(), message: "m".into(), client: None },
            },
            backoff_ms: 1217,
            rv: "3".into(),
        };
        assert_eq!(
            serde_json::to_value(&d).ok(),
            Some(json!({"decision":"relist-at-last-sync",
                "cause":{"kind":"watch-expired","error":{"code":410,"reason":"Expired","message":"m"}},
                "backoffMs":1217,"rv":"3"}))
        );
        let e = ErrorInfo {
            code: 0,
            reason: String::new(),
            message: String::new(),
            client: Some(ClientError::VeryShortWatch { after_ms: 5 }),
        };
        assert_eq!(
            serde_json::to_value(&e).ok(),
            Some(json!({"code":0,"client":{"kind":"very-short-watch","afterMs":5}}))
        );
        assert_eq!(
            serde_json::to_value(Decision::Event {
                kind: "BOOKMARK".into(),
                name: String::new(),
                rv: "9".into()
            })
            .ok(),
            Some(json!({"decision":"event","type":"BOOKMARK","rv":"9"}))
        );
    }

    #[test]
    fn decisions_read_back_only_when_well_formed() {
        let ok =
            json!({"decision":"relist-from-scratch","cause":{"kind":"watch-expired","error":{"code":410}}});
        assert_eq!(
            Decision::from_json(&ok),
            Some(Decision::RelistFromScratch {
                cause: Cause::WatchExpired {
                    error: ErrorInfo {
                        code: 410,
                        reason: String::new(),
                        message: String::new(),
                        client: None
                    },
                },
                backoff_ms: None,
            })
        );
        let null_backoff = json!({"decision":"relist-from-scratch","backoffMs":null,
            "cause":{"kind":"watch-expired","error":{"code":410}}});
        assert_eq!(Decision::from_json(&null_backoff), Decision::from_json(&ok));
        for bad in [
            json!({"decision":"no-such-decision"}),
            json!({"decision":"watch","from":"3"}),
            json!({"decision":"watch","from":3,"timeoutSeconds":1}),
            json!({"decision":"connection-lost","from":-1,"to":2}),
            json!({"decision":"error-frame","error":{"code":70000}}),
            json!({"decision":"error-frame","error":{"code":0,"client":{"kind":"other"}}}),
            json!({"decision":"start","collection":"c","mode":"sideways","apiservers":[1]}),
            json!(["watch", "3", 1]),
        ] {
            assert_eq!(Decision::from_json(&bad), None, "{bad}");
        }
        assert_eq!(LogEntry::from_json(&json!({"decision":"stopped"})), None, "no `at`");
    }
}
