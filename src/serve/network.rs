//! The network in front of the apiserver: how long a watch request takes to reach it.
//!
//! A client's watch starts from the resourceVersion its list returned; on a real network the
//! watch request can arrive late, after enough writes that this resourceVersion has left the
//! watch cache's window (or, with the cache off, fallen below etcd's compaction), and the watch
//! is answered with an `ERROR` 410 frame. The delay is wall time spent before the engine sees
//! the request, so it is not part of the apiserver and not a script line: the recorded script
//! shows the watch line where it arrived, and replays without it.
//!
//! Set with `--watch-delay DURATION` or the serve-only line `network watch-delay DURATION`
//! (at start in a script, on stdin, or through the control endpoint).
//!
//! `network continue-delay DURATION` holds each list continuation (a request with a non-empty
//! `continue`) the same way: a client that pages a list is then still paging when a
//! compaction happens, as one busy with each page would be.
//! Upstream counterpart: none (latency between client-go and kube-apiserver).

use serde_json::{Value, json};

use crate::apiserver::request::Query;
use crate::clock::Duration;

/// The longest delay accepted (a request held longer would only tie up the client).
pub const MAX_DELAY: Duration = Duration(10 * 60 * 1000);

/// Properties of the network between the clients and the apiserver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Network {
    /// Wall time each watch request is held before the apiserver sees it.
    pub watch_delay: Duration,
    /// Wall time each list continuation (non-empty `continue`) is held before the apiserver
    /// sees it.
    pub continue_delay: Duration,
}

/// What a `network …` line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkLine {
    WatchDelay(Duration),
    ContinueDelay(Duration),
}

/// The usage line of the serve-only `network` command.
pub const USAGE: &str =
    "network watch-delay|continue-delay DURATION (e.g. network watch-delay 2s; 0s for none)";

/// Parses a duration for the watch delay (`0s` … [`MAX_DELAY`]).
pub fn parse_delay(text: &str) -> Result<Duration, String> {
    let d = Duration::parse(text).map_err(|e| format!("watch-delay {text:?}: {e}"))?;
    if d > MAX_DELAY {
        return Err(format!("watch-delay {text:?}: at most {MAX_DELAY}"));
    }
    Ok(d)
}

/// `None` when the line is not a `network` line (it is then a script line for the session);
/// otherwise the setting or a message saying what is wrong.
pub fn parse_line(line: &str) -> Option<Result<NetworkLine, String>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("network") {
        return None;
    }
    let r = match (words.next(), words.next(), words.next()) {
        (Some("watch-delay"), Some(d), None) => parse_delay(d).map(NetworkLine::WatchDelay),
        (Some("continue-delay"), Some(d), None) => parse_delay(d)
            .map_err(|e| format!("continue-{}", e.trim_start_matches("watch-")))
            .map(NetworkLine::ContinueDelay),
        _ => Err(format!("usage: {USAGE}")),
    };
    Some(r)
}

impl Network {
    /// Applies a `network` line; the answer is its output object.
    pub fn apply(&mut self, line: NetworkLine) -> Value {
        match line {
            NetworkLine::WatchDelay(d) => {
                self.watch_delay = d;
                json!({"network": {"watch-delay": d.to_string()}})
            }
            NetworkLine::ContinueDelay(d) => {
                self.continue_delay = d;
                json!({"network": {"continue-delay": d.to_string()}})
            }
        }
    }

    /// How long to hold a request to `query` (the raw query string) before the engine sees it:
    /// the watch delay when it is a watch, decoding `watch` as the apiserver does; the continue
    /// delay when it carries a non-empty `continue`.
    pub fn delay_for(&self, query: Option<&str>) -> std::time::Duration {
        let q = query.map(Query::parse);
        let is_watch = q.as_ref().is_some_and(|q| q.bool("watch") == Some(true));
        let is_continue = q.as_ref().is_some_and(|q| q.string("continue").is_some());
        let d = if is_watch {
            self.watch_delay
        } else if is_continue {
            self.continue_delay
        } else {
            Duration(0)
        };
        std::time::Duration::from_millis(d.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_lines_parse_and_only_watches_are_delayed() {
        assert_eq!(parse_line("GET /api/v1/configmaps"), None);
        assert_eq!(parse_line("network watch-delay 2s"), Some(Ok(NetworkLine::WatchDelay(Duration(2000)))));
        assert!(matches!(parse_line("network watch-delay"), Some(Err(m)) if m.contains("usage")));
        assert!(matches!(parse_line("network watch-delay 2s x"), Some(Err(_))));
        assert!(matches!(parse_line("network watch-delay 11m"), Some(Err(m)) if m.contains("at most")));
        assert!(matches!(parse_line("network watch-delay soon"), Some(Err(_))));
        let mut n = Network::default();
        assert_eq!(
            n.apply(NetworkLine::WatchDelay(Duration(1500))),
            json!({"network": {"watch-delay": "1500ms"}})
        );
        let held = std::time::Duration::from_millis(1500);
        assert_eq!(n.delay_for(Some("watch=true&resourceVersion=5")), held);
        // `watch` decodes as the apiserver decodes it: empty or `1` is true, `0`/`false` is not.
        assert_eq!(n.delay_for(Some("watch")), held);
        assert_eq!(n.delay_for(Some("watch=1")), held);
        assert_eq!(n.delay_for(Some("watch=false")), std::time::Duration::ZERO);
        assert_eq!(n.delay_for(Some("limit=500")), std::time::Duration::ZERO);
        assert_eq!(n.delay_for(None), std::time::Duration::ZERO);
        assert_eq!(n.delay_for(Some("limit=2&continue=abc")), std::time::Duration::ZERO);
    }

    #[test]
    fn continue_delay_holds_only_continuations() {
        assert_eq!(
            parse_line("network continue-delay 2s"),
            Some(Ok(NetworkLine::ContinueDelay(Duration(2000))))
        );
        assert!(
            matches!(parse_line("network continue-delay 11m"), Some(Err(m)) if m.starts_with("continue-delay") && m.contains("at most"))
        );
        let mut n = Network::default();
        assert_eq!(
            n.apply(NetworkLine::ContinueDelay(Duration(2000))),
            json!({"network": {"continue-delay": "2s"}})
        );
        let held = std::time::Duration::from_millis(2000);
        assert_eq!(n.delay_for(Some("limit=2&continue=eyJ2Ijo")), held);
        assert_eq!(n.delay_for(Some("limit=2&continue=")), std::time::Duration::ZERO);
        assert_eq!(n.delay_for(Some("limit=2")), std::time::Duration::ZERO);
        assert_eq!(n.delay_for(Some("watch=true&resourceVersion=5")), std::time::Duration::ZERO);
    }
}
