//! What a client did and why: the decision log (plain words, one line per step), the exact
//! requests it sent with their status codes, and the event-handler notifications.
//!
//! Each list keeps a cursor so `informer show` can print only what is new since the last show.

use crate::clock::Instant;

/// One decision, stamped with the simulated time it was taken at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub at: Instant,
    pub text: String,
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

    pub fn note(&mut self, at: Instant, text: impl Into<String>) {
        self.log.push(LogLine { at, text: text.into() });
    }

    pub fn request(&mut self, at: Instant, method: &str, target: &str, code: u16) {
        self.requests.push(RequestLine { at, method: method.to_string(), target: target.to_string(), code });
    }

    /// Every decision so far, as text.
    pub fn lines(&self) -> Vec<String> {
        self.log.iter().map(|l| l.text.clone()).collect()
    }

    /// Every request so far, rendered as `METHOD target → code`.
    pub fn request_lines(&self) -> Vec<String> {
        self.requests.iter().map(RequestLine::render).collect()
    }

    /// Decisions logged since the last [`mark_shown`](Self::mark_shown).
    pub fn new_log(&self) -> Vec<String> {
        self.log[self.shown_log.min(self.log.len())..].iter().map(|l| l.text.clone()).collect()
    }

    /// Requests sent since the last [`mark_shown`](Self::mark_shown).
    pub fn new_requests(&self) -> Vec<String> {
        self.requests[self.shown_requests.min(self.requests.len())..]
            .iter()
            .map(RequestLine::render)
            .collect()
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

    #[test]
    fn formats_durations() {
        assert_eq!(fmt_ms(1600), "1.6s");
        assert_eq!(fmt_ms(800), "800ms");
        assert_eq!(fmt_ms(30_000), "30s");
        assert_eq!(fmt_ms(1234), "1.234s");
    }
}
