//! The simulation's single entry point: one etcd, the apiservers in front of it, and the clock.
//! Scripts, the UI and tests all drive a cluster through this type.

use crate::apiserver::server::{ApiResponse, ApiServer, Ctx, ServerConfig};
use crate::apiserver::watch::Frame;
use crate::clock::{Clock, Duration};
use crate::store::{MvccError, MvccStore};

/// A watch opened through the cluster: which apiserver serves it, and its stream id there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchHandle {
    pub apiserver: usize,
    pub stream: u64,
}

/// One simulated control plane.
#[derive(Debug, Clone)]
pub struct Cluster {
    clock: Clock,
    etcd: MvccStore,
    apiservers: Vec<ApiServer>,
    uid_seq: u64,
    seed: u64,
}

impl Default for Cluster {
    fn default() -> Self {
        Self::new()
    }
}

impl Cluster {
    /// A fresh cluster: an empty etcd at revision 1 and one apiserver.
    pub fn new() -> Self {
        Cluster {
            clock: Clock::new(),
            etcd: MvccStore::new(),
            apiservers: vec![ApiServer::new(ServerConfig::default())],
            uid_seq: 0,
            seed: 1,
        }
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn etcd(&self) -> &MvccStore {
        &self.etcd
    }

    /// Direct access to etcd beneath the apiservers (the script's `etcd …` lines).
    pub fn etcd_mut(&mut self) -> &mut MvccStore {
        &mut self.etcd
    }

    pub fn apiserver_count(&self) -> usize {
        self.apiservers.len()
    }

    /// Sends one HTTP request to apiserver `index` (0-based).
    pub fn request(&mut self, index: usize, method: &str, target: &str, body: Option<&str>) -> (ApiResponse, Option<WatchHandle>) {
        let Some(server) = self.apiservers.get_mut(index) else {
            let status = crate::apiserver::status::Status::non_api_error(&format!("no apiserver {}", index + 1));
            return (ApiResponse::from_status(&status, "no such apiserver"), None);
        };
        let mut ctx = Ctx { etcd: &mut self.etcd, clock: &self.clock, uid_seq: &mut self.uid_seq, seed: self.seed };
        let resp = server.handle(&mut ctx, method, target, body);
        let handle = resp.watch.map(|stream| WatchHandle { apiserver: index, stream });
        (resp, handle)
    }

    /// Frames sent on a watch since the last read, and whether the server has ended it.
    pub fn read_watch(&mut self, h: WatchHandle) -> Option<(Vec<Frame>, bool)> {
        self.apiservers.get_mut(h.apiserver)?.read_watch(&mut self.etcd, h.stream)
    }

    pub fn cancel_watch(&mut self, h: WatchHandle) -> bool {
        match self.apiservers.get_mut(h.apiserver) {
            Some(s) => s.cancel_watch(&mut self.etcd, h.stream),
            None => false,
        }
    }

    /// etcd Compact at `rev` (the apiserver-level `compact` line does the same today).
    pub fn compact(&mut self, rev: i64) -> Result<(), MvccError> {
        self.etcd.compact(rev).map(|_| ())
    }

    pub fn advance(&mut self, d: Duration) {
        self.clock.advance(d);
    }
}
