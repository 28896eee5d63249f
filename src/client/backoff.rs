//! The reflector's back-off (client-go `tools/cache/reflector.go` builds it; apimachinery
//! `util/wait/backoff.go` runs it): 0.8 s doubling to a 30 s cap, jittered, back to 0.8 s every
//! two minutes — counted from where each client-go release's construction starts it.

use crate::clock::{Duration, Instant, Rng};

/// When the reflector's back-off goes back to 0.8 s: apimachinery's `backoffManager.Step` resets
/// when more than 2 min have passed since `lastStart`, and sets `lastStart` only when it resets
/// (`wait/backoff.go`, read at the 1.37 cycle) — a periodic reset, not "2 min without a back-off".
/// The two client-go constructions differ only in where `lastStart` begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackoffReset {
    /// client-go ≤ 1.35: `wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0, clock)`
    /// builds a `backoffManager` without `lastStart` (Go's zero time): the first back-off resets
    /// and anchors the 2-minute period.
    FromFirstBackoff,
    /// client-go 1.36+: `wait.Backoff{Duration: 800ms, Factor: 2.0, Jitter: 1.0, Cap: 30s}
    /// .DelayWithReset(clock, 2m)`: `lastStart` is the reflector's creation.
    FromCreation,
}

impl BackoffReset {
    /// The construction client-go release 1.`minor` uses.
    pub fn for_client_go(minor: u32) -> BackoffReset {
        if minor >= 36 { BackoffReset::FromCreation } else { BackoffReset::FromFirstBackoff }
    }
}

/// The reflector's back-off: 0.8 s doubling, capped at 30 s, each wait jittered by up to +100 %
/// (`Backoff.Step` + `Jitter(d, 1.0)` = d + rand·d), back to 0.8 s every 2 min ([`BackoffReset`]).
#[derive(Debug, Clone)]
pub struct Backoff {
    initial_ms: u64,
    cap_ms: u64,
    reset_ms: u64,
    duration_ms: u64,
    capped: bool,
    /// `lastStart`; `None` = Go's zero time (every back-off is more than 2 min after it).
    last_start: Option<Instant>,
}

impl Backoff {
    pub fn new(created: Instant, reset: BackoffReset) -> Self {
        Backoff {
            initial_ms: 800,
            cap_ms: 30_000,
            reset_ms: 120_000,
            duration_ms: 800,
            capped: false,
            last_start: match reset {
                BackoffReset::FromFirstBackoff => None,
                BackoffReset::FromCreation => Some(created),
            },
        }
    }

    /// The next wait (`backoffManager.Step` → `Backoff.Step`).
    pub fn next(&mut self, now: Instant, rng: &mut Rng) -> Duration {
        if self.last_start.is_none_or(|t| now.since(t).as_millis() > self.reset_ms) {
            self.duration_ms = self.initial_ms;
            self.capped = false;
            self.last_start = Some(now);
        }
        let d = self.duration_ms;
        if !self.capped {
            self.duration_ms = d.saturating_mul(2);
            if self.duration_ms > self.cap_ms {
                self.duration_ms = self.cap_ms;
                self.capped = true;
            }
        }
        Duration::from_millis(rng.range(d, d.saturating_mul(2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // apimachinery `wait/backoff.go` `backoffManager.Step`: 0.8 s doubling to the 30 s cap,
    // jittered into [d, 2d); reset when more than 2 min passed since `lastStart`, which only a
    // reset moves. client-go ≤ 1.35 (`NewExponentialBackoffManager`): `lastStart` starts at Go's
    // zero time; 1.36+ (`DelayWithReset`): at the reflector's creation.
    #[test]
    fn backoff_doubles_to_the_cap_and_resets_every_two_minutes() {
        for reset in [BackoffReset::FromFirstBackoff, BackoffReset::FromCreation] {
            let mut rng = Rng::new(1);
            let mut b = Backoff::new(Instant(0), reset);
            let mut t = Instant(0);
            let want = [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000];
            for base in want {
                let d = b.next(t, &mut rng).as_millis();
                assert!(d >= base && d < 2 * base, "{reset:?}: {d} not in [{base}, {})", 2 * base);
                t = t + Duration::from_secs(1);
            }
            // More than 2 minutes since the anchor (0 s in both): start again at 0.8 s.
            let d = b.next(t + Duration::from_secs(121), &mut rng).as_millis();
            assert!((800..1600).contains(&d), "{reset:?}: {d}");
        }
    }

    // The two anchors differ: a reflector created at 0 whose first back-off comes at 100 s.
    // `DelayWithReset` resets at the first back-off after 120 s (since creation); the old manager
    // anchored at 100 s keeps doubling until 220 s. Neither resets on "2 min without a back-off"
    // alone: a back-off every 90 s still resets once the period since the last reset is over.
    #[test]
    fn where_the_two_minutes_count_from() {
        let base = |reset, times: &[u64]| {
            let mut rng = Rng::new(3);
            let mut b = Backoff::new(Instant(0), reset);
            times
                .iter()
                .map(|s| {
                    let d = b.next(Instant(s * 1000), &mut rng).as_millis();
                    [800u64, 1600, 3200, 6400].into_iter().find(|x| d >= *x && d < 2 * x).unwrap_or(0)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(base(BackoffReset::FromCreation, &[100, 110, 130]), [800, 1600, 800]);
        assert_eq!(base(BackoffReset::FromFirstBackoff, &[100, 110, 130]), [800, 1600, 3200]);
        assert_eq!(base(BackoffReset::FromFirstBackoff, &[0, 90, 180, 270]), [800, 1600, 800, 1600]);
        assert_eq!(BackoffReset::for_client_go(35), BackoffReset::FromFirstBackoff);
        assert_eq!(BackoffReset::for_client_go(36), BackoffReset::FromCreation);
    }
}
