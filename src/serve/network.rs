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
}

/// What a `network …` line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkLine {
    WatchDelay(Duration),
}

/// The usage line of the serve-only `network` command.
pub const USAGE: &str = "network watch-delay DURATION (e.g. network watch-delay 2s; 0s for none)";

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
        }
    }

    /// How long to hold a request to `query` (the raw query string) before the engine sees it:
    /// the watch delay when it is a watch, decoding `watch` as the apiserver does.
    pub fn delay_for(&self, query: Option<&str>) -> std::time::Duration {
        let is_watch = query.is_some_and(|q| Query::parse(q).bool("watch") == Some(true));
        if is_watch && self.watch_delay.0 > 0 {
            std::time::Duration::from_millis(self.watch_delay.0)
        } else {
            std::time::Duration::ZERO
        }
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
    }
}
