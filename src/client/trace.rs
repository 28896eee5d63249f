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

use crate::clock::Instant;

/// An error as a decision names it: a server `Status` (code, reason, message as sent) or an error
/// the client produced itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
/// `{"decision":"<kebab-case id>", …fields in camelCase}`; every id is listed in the README.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
/// the UI to render it in its language).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// The simulated time, as `fmt_ms` writes it.
    pub at: String,
    #[serde(flatten)]
    pub decision: Decision,
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
        let s = format!("{:.3}", ms as f64 / 1000.0);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        format!("{s}s")
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
}
