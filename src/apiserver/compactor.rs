//! The apiserver's compactor (k8s.io/apiserver `storage/etcd3/compact.go`, §A.6): every interval
//! a CAS transaction on `compact_rev_key` (which itself writes a revision), and the winner
//! compacts etcd to the revision it saw one interval earlier.

use crate::clock::{Duration, Instant};
use crate::store::{
    Compare, CompareResult, CompareTarget, MvccStore, PutRequest, RangeRequest, RequestOp, ResponseOp,
    TxnRequest,
};

/// The key the apiservers race on.
pub const COMPACT_REV_KEY: &str = "compact_rev_key";
/// `--etcd-compaction-interval` default.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(300);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compactor {
    /// `None` = switched off.
    pub interval: Option<Duration>,
    last_run: Instant,
    /// The version of `compact_rev_key` this apiserver last saw ("compactTime").
    compact_time: i64,
    /// The revision it observed in the previous round.
    rev: i64,
}

/// What one round did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub won: bool,
    /// The revision compacted to, if any.
    pub compacted: Option<i64>,
    /// etcd's revision after the CAS.
    pub revision: i64,
}

impl Compactor {
    pub fn new(now: Instant) -> Self {
        Compactor { interval: Some(DEFAULT_INTERVAL), last_run: now, compact_time: 0, rev: 0 }
    }

    pub fn next_due(&self) -> Option<Instant> {
        self.interval.map(|i| self.last_run + i)
    }

    pub fn set_interval(&mut self, interval: Option<Duration>, now: Instant) {
        self.interval = interval.filter(|d| d.0 > 0);
        self.last_run = now;
    }

    /// One round of `compact()`: the CAS on `compact_rev_key`, then Compact(previous rev).
    pub fn run(&mut self, etcd: &mut MvccStore, now: Instant) -> Round {
        self.last_run = now;
        let key = COMPACT_REV_KEY.as_bytes().to_vec();
        let resp = etcd.txn(TxnRequest {
            compare: vec![Compare {
                key: key.clone(),
                result: CompareResult::Equal,
                target: CompareTarget::Version(self.compact_time),
            }],
            success: vec![RequestOp::Put(PutRequest {
                key: key.clone(),
                value: self.rev.to_string().into_bytes(),
                ..Default::default()
            })],
            failure: vec![RequestOp::Range(RangeRequest { key, ..Default::default() })],
        });
        let Ok(resp) = resp else {
            return Round { won: false, compacted: None, revision: etcd.current_revision() };
        };
        let cur_rev = resp.header.revision;
        if !resp.succeeded {
            if let Some(ResponseOp::Range(r)) = resp.responses.first() {
                self.compact_time = r.kvs.first().map(|kv| kv.version).unwrap_or(0);
            }
            self.rev = cur_rev;
            return Round { won: false, compacted: None, revision: cur_rev };
        }
        self.compact_time += 1;
        let target = self.rev;
        self.rev = cur_rev;
        if target == 0 {
            return Round { won: true, compacted: None, revision: cur_rev };
        }
        let compacted = etcd.compact(target).ok().map(|_| target);
        Round { won: true, compacted, revision: cur_rev }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // §A.6 each round adds a revision; the second round compacts to what the first one saw.
    #[test]
    fn rounds_compact_one_interval_behind() {
        let mut etcd = MvccStore::new();
        let mut c = Compactor::new(Instant(0));
        etcd.put(PutRequest { key: b"/a".to_vec(), value: b"1".to_vec(), ..Default::default() });
        let r1 = c.run(&mut etcd, Instant(300_000));
        assert_eq!(r1, Round { won: true, compacted: None, revision: 3 });
        etcd.put(PutRequest { key: b"/a".to_vec(), value: b"2".to_vec(), ..Default::default() });
        let r2 = c.run(&mut etcd, Instant(600_000));
        assert_eq!(r2, Round { won: true, compacted: Some(3), revision: 5 });
        assert_eq!(etcd.compact_revision(), Some(3));
        // A second apiserver that has not run yet loses the race and learns the version.
        let mut other = Compactor::new(Instant(0));
        let r = other.run(&mut etcd, Instant(600_000));
        assert!(!r.won);
        assert_eq!(other.compact_time, 2);
    }
}
