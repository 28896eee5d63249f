//! Simulated time: a monotonic virtual clock in milliseconds and the duration syntax scripts use
//! (`500ms`, `61s`, `5m`, `1h`). Nothing in the engine reads the host's clock.

use std::fmt;

/// A point on the simulated clock, in milliseconds since the simulation started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Instant(pub u64);

/// A span of simulated time in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub u64);

impl Duration {
    /// `s` seconds (saturating: a span too long to count in milliseconds is the longest one).
    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1000))
    }
    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms)
    }
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// Parses `250ms`, `3s`, `61s`, `5m`, `1h`, or a compound such as `1m30s`.
    pub fn parse(text: &str) -> Result<Duration, DurationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(DurationError::Empty);
        }
        let text = || t.to_string();
        let mut total: u64 = 0;
        let mut rest = t;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err(DurationError::Invalid { text: text() });
            }
            let n: u64 =
                rest[..digits].parse().map_err(|_| DurationError::NumberTooLarge { text: text() })?;
            rest = &rest[digits..];
            let unit_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
            let unit = &rest[..unit_len];
            rest = &rest[unit_len..];
            let ms = match unit {
                "ms" => 1,
                "s" => 1000,
                "m" => 60_000,
                "h" => 3_600_000,
                "" => return Err(DurationError::MissingUnit { text: text() }),
                _ => return Err(DurationError::UnknownUnit { text: text(), unit: unit.to_string() }),
            };
            total = n
                .checked_mul(ms)
                .and_then(|v| total.checked_add(v))
                .ok_or_else(|| DurationError::TooLarge { text: text() })?;
        }
        Ok(Duration(total))
    }
}

/// Why a duration did not parse. `Display` is the English; `script::syntax` renders it in other
/// languages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DurationError {
    #[error("empty duration; expected e.g. 500ms, 61s, 5m or 1h")]
    Empty,
    #[error("invalid duration {text:?}; expected e.g. 500ms, 61s, 5m or 1h")]
    Invalid { text: String },
    #[error("invalid duration {text:?}: number too large")]
    NumberTooLarge { text: String },
    #[error("invalid duration {text:?}: missing unit; use ms, s, m or h")]
    MissingUnit { text: String },
    #[error("invalid duration {text:?}: unknown unit {unit:?}; use ms, s, m or h")]
    UnknownUnit { text: String, unit: String },
    #[error("invalid duration {text:?}: too large")]
    TooLarge { text: String },
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(1000) { write!(f, "{}s", self.0 / 1000) } else { write!(f, "{}ms", self.0) }
    }
}

impl std::ops::Add<Duration> for Instant {
    type Output = Instant;
    fn add(self, d: Duration) -> Instant {
        Instant(self.0.saturating_add(d.0))
    }
}

impl Instant {
    /// Time elapsed from `earlier` to `self` (zero if `earlier` is later).
    pub fn since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

/// Unix seconds of simulated instant 0 unless a script says otherwise: 2026-01-01T00:00:00Z.
pub const DEFAULT_EPOCH: i64 = 1_767_225_600;

/// The simulation clock. It only moves when the simulation advances it. Its `epoch` (the Unix
/// second at simulated instant 0) is what timestamps in objects are counted from: a fixed date,
/// so scripts print the same output on every run, or the wall clock while `rvlab serve` runs
/// (`set clock.epoch`).
#[derive(Debug, Clone)]
pub struct Clock {
    now: Instant,
    epoch: i64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock { now: Instant(0), epoch: DEFAULT_EPOCH }
    }
}

impl Clock {
    pub fn new() -> Self {
        Self::default()
    }
    /// Unix seconds of simulated instant 0.
    pub fn epoch(&self) -> i64 {
        self.epoch
    }
    pub fn set_epoch(&mut self, unix_secs: i64) {
        self.epoch = unix_secs;
    }
    /// Unix seconds (whole) of the current instant.
    pub fn unix_secs(&self) -> i64 {
        self.epoch.saturating_add((self.now.0 / 1000) as i64)
    }
    pub fn now(&self) -> Instant {
        self.now
    }
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now + d;
    }
    /// Moves the clock forward to `t` (never backwards).
    pub fn advance_to(&mut self, t: Instant) {
        if t > self.now {
            self.now = t;
        }
    }
}

/// A small deterministic PRNG (SplitMix64): jitter and random choices come from a seed, so a
/// script replays identically. The project's one generator: the engine, the soak's schedule and
/// every seeded test draw from it.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A value in `[lo, hi)`; returns `lo` when the range is empty.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo { lo } else { lo + self.next_u64() % (hi - lo) }
    }
    /// A value in `[0, n)` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.range(0, n)
    }
    /// One of `xs`, or `None` when it is empty.
    pub fn choose<T: Copy>(&mut self, xs: &[T]) -> Option<T> {
        let n = u64::try_from(xs.len()).ok()?;
        let i = usize::try_from(self.below(n)).ok()?;
        xs.get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(Duration::parse("61s"), Ok(Duration(61_000)));
        assert_eq!(Duration::parse("5m"), Ok(Duration(300_000)));
        assert_eq!(Duration::parse("1m30s"), Ok(Duration(90_000)));
        assert_eq!(Duration::parse("250ms"), Ok(Duration(250)));
        let t = |s: &str| s.to_string();
        assert_eq!(Duration::parse("5x"), Err(DurationError::UnknownUnit { text: t("5x"), unit: t("x") }));
        assert_eq!(Duration::parse("5"), Err(DurationError::MissingUnit { text: t("5") }));
        assert_eq!(Duration::parse("s"), Err(DurationError::Invalid { text: t("s") }));
        assert_eq!(Duration::parse(" "), Err(DurationError::Empty));
        let huge = "99999999999999999999h";
        assert_eq!(Duration::parse(huge), Err(DurationError::NumberTooLarge { text: t(huge) }));
        assert_eq!(
            Duration::parse("9999999999999999h"),
            Err(DurationError::TooLarge { text: t("9999999999999999h") })
        );
        assert_eq!(
            DurationError::MissingUnit { text: t("5") }.to_string(),
            "invalid duration \"5\": missing unit; use ms, s, m or h"
        );
    }

    #[test]
    fn rng_is_deterministic() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut r = Rng::new(1);
        for _ in 0..100 {
            let v = r.range(300, 600);
            assert!((300..600).contains(&v));
        }
    }
}
