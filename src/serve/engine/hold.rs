//! A request that would wait for its watch cache, held in wall time: its own task sleeps while
//! every other client and the clock go on, then it runs as `GET … waited=<duration>@<revision>`
//! (`apiserver::cacher::Held`), which answers what kube-apiserver answers after that wait
//! without moving the one simulated clock. In kube-apiserver only the request that waits
//! blocks (`waitUntilFreshAndBlock`, apiserver `storage/cacher/watch_cache.go` and
//! `cacher.go` @ v1.34.0); a script's own `GET` waits by moving the clock, as a script runs one
//! line at a time.

use super::Engine;
use crate::clock::Duration;

/// A request that would wait for a watch cache to catch up: it is held in wall time (its own
/// task sleeps, everything else goes on) and then run as a line with
/// `waited=<duration>@<revision>` ([`Engine::held_line`]), so that the wait moves no one's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    /// How long to hold it, in wall time.
    pub wall: std::time::Duration,
    /// Simulated time when it arrived.
    pub arrived_ms: u64,
    /// etcd's revision when it arrived: what a consistent read waits for.
    pub revision: i64,
    /// It waits for a (Kubernetes 1.30) watch cache initialising after a restart
    /// (`ready.wait`, no timeout of its own): once ready, it is asked again whether it waits for
    /// the cache to catch up, and its line carries no `waited=`.
    pub until_ready: bool,
}

impl Engine {
    /// Whether a request arriving now would wait for its watch cache, and how long to hold it.
    /// A read the cacher serves waits until the cache reaches a revision
    /// (`waitUntilFreshAndBlock`, `storage/cacher/cacher.go` @ v1.34.0): a consistent read
    /// (a list without `resourceVersion` or `continue` routed to the cache, or a watch-list
    /// without `resourceVersion`: `sendInitialEvents=true`, also by default) waits for etcd's
    /// revision now; a get or list at `resourceVersion=n` the cache serves, or a watch-list from
    /// n, waits for n. It is held until the cache is predicted to get there (what is queued
    /// for it, else the progress notification the wait asks etcd for, one lag away: as
    /// [`Cacher::fresh_at`] predicts it), or for the whole 3 s when it will not, after which its
    /// line answers what kube-apiserver answers on timeout. With Kubernetes 1.30 a read that
    /// waits for a restarted cache to initialise is held until it is ready ([`Hold::until_ready`]).
    ///
    /// [`Cacher::fresh_at`]: crate::apiserver::cacher::Cacher::fresh_at
    pub fn hold_for(&mut self, method: &str, target: &str) -> Option<Hold> {
        use crate::apiserver::cacher::delegator::{ListShape, MatchShape, ReadPath, route_get, route_list};
        use crate::apiserver::verb::Verb;
        use crate::script::view::FRESHNESS_WAIT_MS;
        if method != "GET" {
            return None;
        }
        let features = self.session.current_features();
        let req = crate::apiserver::validation::parse_and_validate(method, target, None, features.watch_list)
            .ok()?;
        let o = &req.options;
        if o.continue_token.is_some() {
            return None;
        }
        let rv = match o.resource_version.as_deref() {
            None | Some("") => None,
            Some(v) => Some(v.parse::<u64>().ok()?),
        };
        let head = self.session.revision();
        let list_path = (req.verb == Verb::List).then(|| {
            let shape = ListShape {
                rv,
                rv_match: MatchShape::of(o.resource_version_match.as_ref()),
                limit: o.limit,
                continue_rv: None,
                has_selector: !o.label_selector.is_empty() || !o.field_selector.is_empty(),
            };
            route_list(&shape, &features, true).0
        });
        // 1.30 (`cacher.go` `Get`, `GetList`, `Watch`: `ready.wait`): a get at a resourceVersion,
        // a list the cache serves other than at rv=0, and every watch wait for a cache that is
        // initialising.
        let waits_ready = !features.resilient_watch_cache_init
            && match req.verb {
                Verb::Get => rv.is_some_and(|n| n > 0),
                Verb::List => matches!(
                    list_path,
                    Some(ReadPath::CacheMin(_) | ReadPath::CacheConsistent | ReadPath::CacheSnapshot(_))
                ),
                Verb::Watch => true,
                _ => false,
            };
        if waits_ready {
            self.sync_clock();
            let apiserver = self.session.current_apiserver();
            let now = self.session.now_ms();
            let ready_at = self
                .session
                .cache_windows()
                .into_iter()
                .find(|w| w.apiserver == apiserver && w.resource == req.resource.resource)
                .and_then(|w| w.ready_at_ms.filter(|_| !w.ready));
            if let Some(at) = ready_at {
                let wall = std::time::Duration::from_secs_f64(
                    at.saturating_sub(now) as f64 / 1000.0 / self.clock.speed,
                );
                return Some(Hold { wall, arrived_ms: now, revision: head, until_ready: true });
            }
        }
        // The revision the read waits for (etcd's now for a consistent read).
        let wait_for = |n: u64| i64::try_from(n).ok();
        let target_rev = match req.verb {
            Verb::List => match list_path? {
                ReadPath::CacheConsistent => Some(head),
                ReadPath::CacheMin(n) | ReadPath::CacheSnapshot(n) => wait_for(n),
                ReadPath::CacheAny
                | ReadPath::EtcdLatest
                | ReadPath::EtcdNotOlderThan(_)
                | ReadPath::EtcdAt(_) => None,
            },
            Verb::Get => match route_get(rv, true).0 {
                ReadPath::CacheMin(n) => wait_for(n),
                _ => None,
            },
            Verb::Watch if o.send_initial_events == Some(true) => match rv {
                None => Some(head),
                Some(n) => wait_for(n).filter(|n| *n > 0),
            },
            _ => None,
        }?;
        self.sync_clock();
        let apiserver = self.session.current_apiserver();
        let window = self
            .session
            .cache_windows()
            .into_iter()
            .find(|w| w.apiserver == apiserver && w.resource == req.resource.resource)?;
        if !window.ready || window.rv >= target_rev {
            return None;
        }
        let now = self.session.now_ms();
        // The events on their way that bring the cache there, else the progress notification
        // (etcd's revision, behind everything queued): a revision etcd has not reached never.
        let queued = window.in_flight_revs.iter().find(|(r, _)| *r >= target_rev).map(|(_, t)| *t);
        let progress = || {
            let last = window.in_flight_revs.iter().map(|(_, t)| *t).max().unwrap_or(0);
            (target_rev <= head).then(|| (now + window.lag_ms).max(last))
        };
        let wait_ms = match queued.or_else(progress) {
            Some(at) if at.saturating_sub(now) <= FRESHNESS_WAIT_MS => at.saturating_sub(now),
            _ => FRESHNESS_WAIT_MS,
        };
        let wall = std::time::Duration::from_secs_f64(wait_ms as f64 / 1000.0 / self.clock.speed);
        Some(Hold { wall, arrived_ms: now, revision: head, until_ready: false })
    }

    /// The line for a request `hold` held: its line (`GET <target>…`) with
    /// `waited=<simulated time since it arrived>@<revision>` after the target.
    pub fn held_line(&mut self, line: &str, target: &str, hold: Hold) -> String {
        if hold.until_ready {
            return line.to_string();
        }
        self.sync_clock();
        let waited = Duration(self.session.now_ms().saturating_sub(hold.arrived_ms));
        let head = format!("GET {target}");
        match line.strip_prefix(&head) {
            Some(rest) => format!("{head} waited={waited}@{}{rest}", hold.revision),
            None => line.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use serde_json::Value;
    use tokio::sync::mpsc;

    use super::*;
    use crate::script::Session;
    use crate::serve::engine::WATCH_QUEUE;

    /// Opens a configmap watch and attaches a client queue to it: its id and the queue.
    fn watched(e: &mut Engine) -> (String, mpsc::Receiver<Bytes>) {
        let out = e.run("GET /api/v1/namespaces/default/configmaps?watch=true").output;
        let id = out["watch"].as_str().unwrap().to_string();
        let (tx, rx) = mpsc::channel(WATCH_QUEUE);
        e.attach_watch(id.clone(), tx, None);
        (id, rx)
    }

    const CMS: &str = "/api/v1/namespaces/default/configmaps";

    /// Holds a request as the server does (`serve::route`): its task sleeps the hold in wall
    /// time, then it runs with its wait on the line.
    fn held(e: &mut Engine, hold: Hold) -> Value {
        held_at(e, CMS, hold)
    }

    fn held_at(e: &mut Engine, target: &str, hold: Hold) -> Value {
        std::thread::sleep(hold.wall);
        let line = e.held_line(&format!("GET {target}"), target, hold);
        e.run(&line).output
    }

    /// A lagging apiserver whose cache is behind etcd by one write, with a client watching
    /// from before that write.
    fn lagging(lag: &str, speed: f64) -> (Engine, String, mpsc::Receiver<Bytes>) {
        let mut e = Engine::new(speed, None).unwrap();
        e.begin(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000));
        e.run("set explain on");
        e.run(&format!("set cache.lag {lag}"));
        let (id, rx) = watched(&mut e);
        e.run(&format!(r#"POST {CMS} {{"metadata":{{"name":"a"}}}}"#));
        (e, id, rx)
    }

    /// The simulated clock against the wall (`WallClock::target_ms`): ahead by how much.
    fn ahead_ms(e: &Engine) -> u64 {
        e.session().now_ms().saturating_sub(e.clock.target_ms())
    }

    #[test]
    fn a_consistent_read_of_a_lagging_cache_is_held_and_moves_no_clock() {
        // 2× speed: the cache's 2 s lag is a second of wall time.
        let (mut e, _, _rx) = lagging("2s", 2.0);
        let hold = e.hold_for("GET", CMS).expect("the cache is behind etcd: the read waits");
        assert!(hold.wall <= std::time::Duration::from_millis(1000), "{hold:?}");
        let revision = e.session().revision();
        assert_eq!(hold.revision, revision);
        let out = held(&mut e, hold);
        assert_eq!(out["code"], 200, "{out}");
        // Served by the cache once it caught up, from the revision etcd had when the read came.
        assert_eq!(out["why"]["path"], "watch-cache", "{out}");
        assert_eq!(out["why"]["etcdRevision"], revision, "{out}");
        assert_eq!(out["body"]["items"][0]["metadata"]["name"], "a");
        let line = e.lines().last().unwrap().clone();
        assert!(line.starts_with(&format!("GET {CMS} waited=")), "{line}");
        assert!(line.ends_with(&format!("@{revision}")), "{line}");
        // The wait took no one's time: the clock is where the wall is (a tick's rounding).
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
        // Nothing to hold on an up-to-date cache.
        assert_eq!(e.hold_for("GET", CMS), None);
        e.run(&format!(r#"POST {CMS} {{"metadata":{{"name":"b"}}}}"#));
        assert!(e.hold_for("GET", &format!("{CMS}?limit=5")).is_some());
        // A watch without resourceVersion is a watch-list (sendInitialEvents defaults to true):
        // it waits for the cache too; a watch from a resourceVersion, a write do not.
        assert!(e.hold_for("GET", &format!("{CMS}?watch=true")).is_some());
        assert_eq!(e.hold_for("GET", &format!("{CMS}?watch=true&resourceVersion=1")), None);
        assert_eq!(e.hold_for("GET", &format!("{CMS}?resourceVersion=0")), None);
        assert_eq!(e.hold_for("POST", CMS), None);
    }

    #[test]
    fn the_held_record_replays_to_what_the_clients_saw() {
        let (mut e, id, _rx) = lagging("2s", 2.0);
        let hold = e.hold_for("GET", CMS).unwrap();
        e.run(&format!(r#"POST {CMS} {{"metadata":{{"name":"b"}}}}"#));
        held(&mut e, hold);
        std::thread::sleep(std::time::Duration::from_millis(300));
        e.tick();
        e.run(&format!("events {id}"));
        let served: Vec<Value> =
            e.outputs().unwrap().into_lines().iter().map(|o| serde_json::from_str(o).unwrap()).collect();
        let replayed = Session::new().run_script(&e.lines().join("\n"));
        assert_eq!(replayed.len(), served.len());
        for (r, s) in replayed.iter().zip(&served) {
            assert_eq!(r, s);
        }
    }

    /// A consistent read the cache cannot serve within 3 s is held for the 3 s, then read from
    /// etcd (`storage/cacher/delegator.go` `GetList` @ v1.36.0: on `IsTooLargeResourceVersion`
    /// the read falls back to etcd), or — with ConsistentListFromCacheSkipTimeoutFallback (1.37)
    /// — answered 429 `Timeout: Too large resource version: <n>, current: <rv>`
    /// (`errors.NewTooManyRequests(err.Error(), resourceVersionTooHighRetrySeconds)`): at the
    /// wall time kube-apiserver answers, without moving the clock.
    #[test]
    fn a_consistent_read_that_times_out_answers_after_three_seconds_of_wall_time() {
        let (mut e, _, _rx) = lagging("60s", 100.0);
        let hold = e.hold_for("GET", CMS).unwrap();
        assert_eq!(hold.wall, std::time::Duration::from_millis(30), "3 s at 100×");
        let out = held(&mut e, hold);
        assert_eq!(out["code"], 200, "{out}");
        assert_eq!(out["why"]["outcome"], "consistent-read-timeout", "{out}");
        assert_eq!(out["why"]["path"], "etcd", "{out}");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));

        let (mut e, _, _rx) = lagging("60s", 100.0);
        e.run("set feature-gates ConsistentListFromCacheSkipTimeoutFallback=true");
        let hold = e.hold_for("GET", CMS).unwrap();
        let rev = hold.revision;
        let out = held(&mut e, hold);
        assert_eq!(out["code"], 429, "{out}");
        assert_eq!(out["body"]["reason"], "TooManyRequests");
        assert_eq!(
            out["body"]["message"],
            format!("Timeout: Too large resource version: {rev}, current: {}", rev - 1)
        );
        assert_eq!(out["body"]["details"]["retryAfterSeconds"], 1);
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
    }

    /// A watch-list (`sendInitialEvents=true` by default without a resourceVersion) waits for
    /// the cache to reach etcd's revision before its initial events (`cacher.go`
    /// `waitUntilWatchCacheFreshAndForceAllEvents` @ v1.34.0): held, it starts with the object
    /// written just before it, without moving the clock.
    #[test]
    fn a_held_watch_list_starts_once_the_cache_has_caught_up() {
        let (mut e, _, _rx) = lagging("2s", 2.0);
        let target = format!("{CMS}?watch=true");
        let hold = e.hold_for("GET", &target).expect("a watch-list waits for the lagging cache");
        let out = held_at(&mut e, &target, hold);
        assert_eq!(out["code"], 200, "{out}");
        let id = out["watch"].as_str().expect("a watch").to_string();
        assert_eq!(out["why"]["etcdRevision"], hold.revision, "{out}");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
        let frames = e.run(&format!("events {id}")).output;
        let added: Vec<&str> = frames["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["type"] == "ADDED")
            .filter_map(|f| f["object"]["metadata"]["name"].as_str())
            .collect();
        assert_eq!(added, ["a"], "{frames}");
    }

    /// A consistent read of a resource whose cache no event brings to etcd's revision (the last
    /// write was to another resource): the progress notification the wait asked for when the
    /// read came brings it there one lag later, and the held read is served then.
    #[test]
    fn a_held_read_gets_the_progress_notification_it_asked_for_when_it_came() {
        let (mut e, _, _rx) = lagging("2s", 2.0);
        std::thread::sleep(std::time::Duration::from_millis(1100));
        e.tick();
        let pod = r#"{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}"#;
        assert_eq!(e.run(&format!("POST /api/v1/namespaces/default/pods {pod}")).output["code"], 201);
        let hold = e.hold_for("GET", CMS).expect("the configmaps cache is below etcd's revision");
        let out = held(&mut e, hold);
        assert_eq!(out["code"], 200, "{out}");
        assert_eq!(out["why"]["path"], "watch-cache", "{out}");
        assert_eq!(out["why"]["etcdRevision"], hold.revision, "{out}");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
    }

    /// A get at a resourceVersion the lagging cache does not reach within 3 s: held 3 s, then
    /// the 504 of `waitUntilFreshAndBlock` (apiserver `storage/cacher/watch_cache.go` @ v1.34.0:
    /// `errors.NewTimeoutError("Too large resource version: …, current: …", 1)` with the
    /// `ResourceVersionTooLarge` cause); one it reaches sooner is served once it has.
    #[test]
    fn a_read_at_a_resource_version_the_cache_has_not_reached_is_held_too() {
        let (mut e, _, _rx) = lagging("60s", 100.0);
        let rev = e.session().revision();
        let target = format!("{CMS}/a?resourceVersion={rev}");
        let hold = e.hold_for("GET", &target).expect("the cache is below the resourceVersion");
        assert_eq!(hold.wall, std::time::Duration::from_millis(30), "3 s at 100×");
        let out = held_at(&mut e, &target, hold);
        assert_eq!(out["code"], 504, "{out}");
        assert_eq!(out["body"]["reason"], "Timeout");
        assert_eq!(
            out["body"]["message"],
            format!("Timeout: Too large resource version: {rev}, current: {}", rev - 1)
        );
        assert_eq!(out["body"]["details"]["retryAfterSeconds"], 1);
        assert_eq!(out["body"]["details"]["causes"][0]["reason"], "ResourceVersionTooLarge");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));

        let (mut e, _, _rx) = lagging("2s", 2.0);
        let rev = e.session().revision();
        let target = format!("{CMS}?resourceVersion={rev}&resourceVersionMatch=NotOlderThan");
        let hold = e.hold_for("GET", &target).unwrap();
        assert!(hold.wall <= std::time::Duration::from_millis(1000), "{hold:?}");
        let out = held_at(&mut e, &target, hold);
        assert_eq!(out["code"], 200, "{out}");
        assert_eq!(out["why"]["path"], "watch-cache", "{out}");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
        // At a resourceVersion the cache has: nothing to hold.
        assert_eq!(e.hold_for("GET", &format!("{CMS}?resourceVersion={}", rev - 1)), None);
    }

    /// Kubernetes 1.30 (no ResilientWatchCacheInitialization): a read the cache serves waits
    /// for a restarted cache to initialise (`cacher.go` `GetList`, `ready.wait` @ v1.30.0);
    /// held in wall time until it is ready, it is served by the cache without moving the clock.
    #[test]
    fn a_read_waiting_for_a_1_30_cache_to_initialise_is_held_until_it_is_ready() {
        let mut e = Engine::new(10.0, None).unwrap();
        e.begin(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000));
        e.run("set explain on");
        e.run("set kubernetes 1.30");
        e.run(&format!(r#"POST {CMS} {{"metadata":{{"name":"a"}}}}"#));
        e.run("set cache.init-delay 5s");
        e.run("restart apiserver 1");
        let target = format!("{CMS}?resourceVersion=2");
        let hold = e.hold_for("GET", &target).expect("the cache is initialising");
        assert!(hold.until_ready, "{hold:?}");
        assert!(hold.wall <= std::time::Duration::from_millis(500), "5 s at 10×: {hold:?}");
        // rv=0 goes to etcd at once (`cache-not-ready`): nothing to hold.
        assert_eq!(e.hold_for("GET", &format!("{CMS}?resourceVersion=0")), None);
        std::thread::sleep(hold.wall);
        assert_eq!(e.hold_for("GET", &target), None, "ready, and the cache has rv 2");
        let line = e.held_line(&format!("GET {target}"), &target, hold);
        assert_eq!(line, format!("GET {target}"));
        let out = e.run(&line).output;
        assert_eq!(out["code"], 200, "{out}");
        assert_eq!(out["why"]["path"], "watch-cache", "{out}");
        assert!(ahead_ms(&e) <= 5, "ahead by {} ms", ahead_ms(&e));
    }
}
