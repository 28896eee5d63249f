//! One watch served by the cache (`cache_watcher.go`): its filter and start RV, its bounded
//! channels, what happens when its consumer stops reading (§E.4), bookmarks (§E.5) and its
//! deadline.

use std::collections::VecDeque;

use crate::apiserver::decision::{EndReason, Ended, Path};
use crate::apiserver::features::Features;
use crate::apiserver::resource::ResourceInfo;
use crate::apiserver::watch::{Frame, WatchFilter};
use crate::clock::{Duration, Instant};

/// The bookmark period (§E.5).
pub const BOOKMARK_FREQUENCY: Duration = Duration::from_secs(60);

/// `suggestedWatchChannelSize`: about one second of history, clamped to [10, 100].
pub fn channel_size(capacity: usize) -> usize {
    let per_second = capacity.div_ceil(75);
    per_second.clamp(10, 100)
}

#[derive(Debug, Clone)]
pub struct CacheWatcher {
    info: &'static ResourceInfo,
    pub(super) filter: WatchFilter,
    /// Events with RV ≤ this are not sent (the start RV, or the highest RV replayed).
    pub(super) resource_version: i64,
    /// The RV the watch started from: bookmarks are sent only above it.
    pub(super) started_from: i64,
    allow_bookmarks: bool,
    deadline: Instant,
    next_bookmark: Option<Instant>,
    /// Frames the client has been sent and not yet read.
    delivered: VecDeque<Frame>,
    /// Frames sitting in the watcher's channels while its consumer is not reading.
    buffered: VecDeque<Frame>,
    paused: bool,
    /// Size of each of the input and result channels.
    chan_size: usize,
    pub(super) closed: bool,
    pub(super) close_reason: Option<Ended>,
}

/// What a picture shows of one cache watcher (read only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheWatcherView {
    pub started_from: i64,
    /// Frames delivered and not yet read.
    pub unread: usize,
    /// Frames held in its channels while its consumer does not read.
    pub buffered: usize,
    /// How many fit before it is terminated as a slow consumer.
    pub buffer_limit: usize,
    pub closed: bool,
    pub deadline: Instant,
    pub next_bookmark: Option<Instant>,
}

impl CacheWatcher {
    pub fn new(
        info: &'static ResourceInfo,
        filter: WatchFilter,
        resource_version: i64,
        allow_bookmarks: bool,
        now: Instant,
        deadline: Instant,
        chan_size: usize,
    ) -> Self {
        let mut w = CacheWatcher {
            info,
            filter,
            resource_version,
            started_from: resource_version,
            allow_bookmarks,
            deadline,
            next_bookmark: None,
            delivered: VecDeque::new(),
            buffered: VecDeque::new(),
            paused: false,
            chan_size,
            closed: false,
            close_reason: None,
        };
        w.next_bookmark = w.next_bookmark_time(now);
        w
    }

    /// What a stalled consumer can have in flight before a send blocks: the result channel, the
    /// one event the watcher goroutine holds, and the input channel.
    pub fn in_flight_limit(&self) -> usize {
        2 * self.chan_size + 1
    }

    /// `nextBookmarkTime`: roughly every minute, and once 2 s before the deadline.
    fn next_bookmark_time(&self, now: Instant) -> Option<Instant> {
        if !self.allow_bookmarks {
            return None;
        }
        let mut t = now + BOOKMARK_FREQUENCY;
        let pre_timeout = Instant(self.deadline.0.saturating_sub(2000));
        if pre_timeout < t {
            t = pre_timeout;
        }
        (t > now).then_some(t)
    }

    /// Sends a frame that is part of the initial replay (never terminates the watcher).
    pub fn send_initial(&mut self, frame: Frame) {
        if self.paused {
            self.buffered.push_back(frame);
        } else {
            self.delivered.push_back(frame);
        }
    }

    /// The dispatcher's non-blocking send, then the blocking one within the time budget. Returns
    /// false when the watcher had to be terminated because its consumer is not reading.
    pub fn dispatch(&mut self, frame: Frame) -> bool {
        if self.closed {
            return true;
        }
        if !self.paused {
            self.delivered.push_back(frame);
            return true;
        }
        if self.buffered.len() < self.in_flight_limit() {
            self.buffered.push_back(frame);
            return true;
        }
        // Blocked, and the dispatch budget (≤ 100 ms) runs out with the consumer still away:
        // the watcher is stopped. What sits in its result channel can still be read; the event
        // in hand and the input channel are lost.
        self.buffered.truncate(self.chan_size);
        let mut ended = Ended::new(EndReason::SlowConsumer);
        ended.channel_size = Some(self.chan_size);
        self.close(ended);
        false
    }

    pub fn close(&mut self, mut reason: Ended) {
        reason.path = reason.path.or(Some(Path::WatchCache));
        if !self.closed {
            self.closed = true;
            self.close_reason = Some(reason);
        }
    }

    pub fn pause(&mut self) {
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
        self.delivered.extend(self.buffered.drain(..));
    }

    /// Every frame has been read and the watcher has ended.
    pub fn is_drained(&self) -> bool {
        self.closed && self.buffered.is_empty() && self.delivered.is_empty()
    }

    /// What is left for the client when the cache goes away: the delivered frames and what
    /// fits in the result channel.
    pub fn take_remaining(&mut self) -> Vec<Frame> {
        self.buffered.truncate(self.chan_size);
        self.delivered.drain(..).chain(self.buffered.drain(..)).collect()
    }

    pub fn view(&self) -> CacheWatcherView {
        CacheWatcherView {
            started_from: self.started_from,
            unread: self.delivered.len(),
            buffered: self.buffered.len(),
            buffer_limit: self.in_flight_limit(),
            closed: self.closed,
            deadline: self.deadline,
            next_bookmark: self.next_bookmark,
        }
    }

    /// The client reads every frame delivered so far.
    pub fn read(&mut self) -> Vec<Frame> {
        self.delivered.drain(..).collect()
    }

    /// When this watcher next needs the timer (a bookmark or its deadline).
    pub fn next_due(&self) -> Option<Instant> {
        if self.closed {
            return None;
        }
        Some(match self.next_bookmark {
            Some(b) if b < self.deadline => b,
            _ => self.deadline,
        })
    }

    /// One tick of the cacher's timer: a due bookmark and the deadline.
    pub fn tick(&mut self, now: Instant, cache_rv: i64, features: &Features) {
        if self.closed {
            return;
        }
        if let Some(t) = self.next_bookmark
            && now >= t
        {
            if cache_rv > self.started_from {
                let f = Frame::bookmark(self.info, cache_rv, false, features).sent(now);
                self.dispatch(f);
            }
            self.next_bookmark = self.next_bookmark_time(now);
        }
        if now >= self.deadline && !self.closed {
            self.close(Ended::new(EndReason::Timeout));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // §E.4 channel size = ceil(capacity/75) clamped to [10, 100].
    #[test]
    fn channel_sizes() {
        assert_eq!(channel_size(100), 10);
        assert_eq!(channel_size(1600), 22);
        assert_eq!(channel_size(102_400), 100);
    }
}
