//! What one `advance` line may simulate. Time jumps from one due timer to the next, so idle
//! stretches cost nothing; what does cost is work the user asked for on a timer: a compaction
//! round (a revision written and a compaction, per apiserver, every `compaction-interval`) and an
//! informer resync (every cached object re-delivered to the handler, every `resync=` period). A
//! week at `resync=1s` is 604,800 resyncs, each one handler call per cached object: seconds of
//! work, which would freeze the browser tab. So an `advance` is refused, before anything runs,
//! when it would take more than [`MAX_TIMER_ROUNDS`] compaction rounds and resync handler calls,
//! and the answer says how far one line may go instead.
//! No upstream counterpart (a real cluster just takes the time).

use crate::client::informer::Informer;
use crate::clock::Duration;
use crate::cluster::{Cluster, MAX_ADVANCE};

/// The most timer work (compaction rounds plus resync handler calls) one `advance` may run.
pub const MAX_TIMER_ROUNDS: u64 = 10_000;
/// An `advance` this short always runs, however many timers there are.
pub const ALWAYS_ALLOWED: Duration = Duration::from_secs(1);

/// The periodic timers running now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timers {
    /// Each apiserver's compaction interval (compactors that are on).
    pub compactions: Vec<Duration>,
    /// Each running informer's resync period and how many objects it holds (what one resync
    /// re-delivers; at least 1 is counted, it may list some during the advance).
    pub resyncs: Vec<(Duration, u64)>,
}

/// An `advance` refused because of the work it would take (its words: `script::refusal`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooMuchWork {
    pub requested: Duration,
    /// Compaction rounds and resync handler calls it would run (at most, with the objects the
    /// informers hold now).
    pub compactions: u64,
    pub resync_calls: u64,
    /// The longest `advance` allowed with these timers.
    pub max: Duration,
}

impl Timers {
    pub fn of<'a>(cluster: &Cluster, informers: impl Iterator<Item = &'a Informer>) -> Timers {
        Timers {
            compactions: cluster.compaction_intervals().collect(),
            resyncs: informers
                .filter_map(|i| Some((i.resync_period()?, i.cached_objects() as u64)))
                .collect(),
        }
    }

    /// At most how many times `periods` fire within `d` (one more each than whole periods fit:
    /// a timer may be due at once).
    fn rounds(periods: &[Duration], d: Duration) -> u64 {
        periods.iter().map(|p| d.0 / p.0.max(1) + 1).fold(0, u64::saturating_add)
    }

    /// At most how many handler calls the resyncs make within `d`.
    fn resync_calls(&self, d: Duration) -> u64 {
        self.resyncs
            .iter()
            .map(|(p, objects)| Self::rounds(&[*p], d).saturating_mul((*objects).max(1)))
            .fold(0, u64::saturating_add)
    }

    /// The longest `advance` that stays within [`MAX_TIMER_ROUNDS`] (whole seconds, at least
    /// [`ALWAYS_ALLOWED`], at most [`MAX_ADVANCE`]).
    pub fn max_advance(&self) -> Duration {
        let fits = |secs: u64| {
            let d = Duration::from_secs(secs);
            Self::rounds(&self.compactions, d).saturating_add(self.resync_calls(d)) <= MAX_TIMER_ROUNDS
        };
        let (mut lo, mut hi) = (ALWAYS_ALLOWED.0 / 1000, MAX_ADVANCE.0 / 1000);
        if fits(hi) {
            return MAX_ADVANCE;
        }
        // `fits` is monotone: the largest second count that fits, by bisection.
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        Duration::from_secs(lo)
    }

    /// `Ok` when an `advance` of `d` may run.
    pub fn check(&self, d: Duration) -> Result<(), TooMuchWork> {
        let max = self.max_advance();
        if d <= max {
            return Ok(());
        }
        Err(TooMuchWork {
            requested: d,
            compactions: Self::rounds(&self.compactions, d),
            resync_calls: self.resync_calls(d),
            max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timers(compactions: &[u64], resyncs: &[(u64, u64)]) -> Timers {
        Timers {
            compactions: compactions.iter().map(|s| Duration::from_secs(*s)).collect(),
            resyncs: resyncs.iter().map(|(s, n)| (Duration::from_secs(*s), *n)).collect(),
        }
    }

    #[test]
    fn defaults_allow_the_longest_advance() {
        // Three apiservers compacting every 5 minutes: 3 × 2017 rounds in 168h.
        assert_eq!(timers(&[300, 300, 300], &[]).max_advance(), MAX_ADVANCE);
        assert_eq!(timers(&[], &[]).max_advance(), MAX_ADVANCE);
    }

    #[test]
    fn a_one_second_resync_allows_about_ten_thousand_seconds() {
        let t = timers(&[300], &[(1, 1)]);
        let max = t.max_advance();
        // 9,965 s: at most 9,966 resyncs + 34 compaction rounds = 10,000; one second more is 10,001.
        assert_eq!(max, Duration::from_secs(9_965));
        assert!(t.check(Duration::from_secs(9_966)).is_err());
        assert!(t.check(max).is_ok());
        let e = t.check(Duration::from_secs(168 * 3600)).unwrap_err();
        assert_eq!((e.resync_calls, e.compactions), (604_801, 2_017));
    }

    // Each resync re-delivers every cached object: 50 objects every 10 s is 5 calls a second.
    #[test]
    fn resyncs_count_one_call_per_cached_object() {
        let t = timers(&[], &[(10, 50)]);
        assert_eq!(t.max_advance(), Duration::from_secs(1_999), "200 resyncs × 50 = 10,000");
        let e = t.check(Duration::from_secs(3600)).unwrap_err();
        assert_eq!(e.resync_calls, 361 * 50);
    }

    #[test]
    fn one_second_always_runs() {
        let many = timers(&[], &vec![(1, 0); 20_000]);
        assert_eq!(many.max_advance(), ALWAYS_ALLOWED);
        assert!(many.check(ALWAYS_ALLOWED).is_ok());
        assert!(many.check(Duration::from_secs(2)).is_err());
    }
}
