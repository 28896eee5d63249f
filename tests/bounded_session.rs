//! The served engine forgets what it is done with: a session driven in the soak's pattern
//! (`./dev.sh soak`: watches that time out and resume, cancels, drops, stale watches, writers
//! over a fixed set of names, compactions, apiserver restarts and a second apiserver taking
//! the requests, under `set keep-ended-watches 100` as `rvlab serve` records it) holds no more
//! live heap after 300 s of simulated load than after its first 100 s, and keeps only the
//! latest 100 ended watches besides the open ones. The bytes are counted by this test binary's
//! allocator (live bytes, not the resident size, which the C allocator decides).
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use rvlab::clock::Rng;
use rvlab::script::Session;
use serde_json::Value;

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE.fetch_add(n as isize - l.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const WRITERS: u64 = 20;
const KEYS_PER_WRITER: u64 = 10;
/// Raw watch slots (the soak has 200; fewer keep the debug build's run short).
const SLOTS: usize = 40;
/// Half-second steps: 100 s of warm-up, then 200 s more.
const WARM_UP: usize = 200;
const STEPS: usize = 600;

struct Driver {
    s: Session,
    line: usize,
}

impl Driver {
    fn run(&mut self, l: &str) -> Value {
        self.line += 1;
        self.s.run_line(self.line, l).unwrap_or_default()
    }
}

#[test]
fn a_session_under_the_soaks_load_holds_no_more_after_its_warm_up() {
    let mut d = Driver { s: Session::new(), line: 0 };
    for l in ["set keep-ended-watches 100", "set apiservers 2", "set cache.capacity 500"] {
        assert!(d.run(l).get("error").is_none(), "{l}");
    }
    // The same load on every run.
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut exists = [false; (WRITERS * KEYS_PER_WRITER) as usize];
    let mut newest = 1i64;
    let mut open: Vec<String> = Vec::new();
    let mut warm_peak = 0isize;
    let mut later_peak = 0isize;
    let mut compactions = 0;
    for step in 1..=STEPS {
        // 20 writers at 3 writes a second.
        for _ in 0..30 {
            let (w, k) = (rng.below(WRITERS), rng.below(KEYS_PER_WRITER));
            let i = (w * KEYS_PER_WRITER + k) as usize;
            let name = format!("soak-{w}-{k}");
            let obj = format!(r#"{{"metadata":{{"name":"{name}"}},"data":{{"seq":"{step}"}}}}"#);
            let line = if !exists[i] {
                exists[i] = true;
                format!("POST /api/v1/namespaces/default/configmaps {obj}")
            } else if rng.below(10) < 7 {
                format!("PUT /api/v1/namespaces/default/configmaps/{name} {obj}")
            } else {
                exists[i] = false;
                format!("DELETE /api/v1/namespaces/default/configmaps/{name}")
            };
            let out = d.run(&line);
            let rv = out["body"]["metadata"]["resourceVersion"].as_str().and_then(|r| r.parse().ok());
            newest = newest.max(rv.unwrap_or(0));
        }
        // Every slot holds a watch with a timeout of 4–11 s, resumed from the newest write.
        while open.len() < SLOTS {
            let t = 4 + rng.below(8);
            let out = d.run(&format!(
                "GET /api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds={t}&resourceVersion={newest}"
            ));
            let Some(id) = out["watch"].as_str() else { break };
            open.push(id.to_string());
        }
        // A stale watch every 2 s.
        if step % 4 == 0 {
            let out = d.run("GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1");
            open.extend(out["watch"].as_str().map(str::to_string));
        }
        d.run("advance 500ms");
        let mut still = Vec::new();
        for id in std::mem::take(&mut open) {
            let out = d.run(&format!("events {id}"));
            if out["closed"] != true && out.get("error").is_none() {
                still.push(id);
            }
        }
        open = still;
        // A watch dropped by its client every 0.5 s, three by the server every 4 s.
        if !open.is_empty() {
            let id = open.remove(rng.below(open.len() as u64) as usize);
            d.run(&format!("cancel {id}"));
        }
        if step % 8 == 0 {
            for id in open.split_off(open.len().saturating_sub(3)) {
                d.run(&format!("drop {id}"));
                d.run(&format!("events {id}"));
            }
        }
        if step % 6 == 0 {
            let out = d.run(&format!("compact {}", (newest - 1000).max(newest / 2)));
            compactions += usize::from(out.get("compacted").is_some());
        }
        match step % 30 {
            4 => assert_eq!(d.run("restart apiserver 1")["restarted"], 1),
            10 => assert_eq!(d.run("apiserver 2")["apiserver"], 2),
            18 => assert_eq!(d.run("apiserver 1")["apiserver"], 1),
            _ => {}
        }
        if step % 20 == 0 {
            let live = LIVE.load(Ordering::Relaxed);
            if step <= WARM_UP {
                warm_peak = warm_peak.max(live);
            } else {
                later_peak = later_peak.max(live);
            }
            let (session, streams) = d.s.kept_watches();
            assert!(
                session <= 100 + open.len() + 1,
                "step {step}: {session} watches kept, {} open",
                open.len()
            );
            assert_eq!(session, streams, "the apiservers keep the session's watches only");
        }
    }
    println!(
        "live heap: {} KiB after the warm-up, at most {} KiB after",
        warm_peak / 1024,
        later_peak / 1024
    );
    assert!(compactions > 50 && d.line > 40_000, "the load ran: {compactions} compactions, {} lines", d.line);
    assert!(
        later_peak * 10 <= warm_peak * 11,
        "live heap grew: {} KiB after the warm-up, {} KiB later",
        warm_peak / 1024,
        later_peak / 1024
    );
}
