//! The benchmarks of `rvlab::bench` in headless Chromium (wasm-bindgen-test), printed as the
//! same `BENCH\t…` lines as the native `rvlab-bench`, so `./dev.sh bench` can put them side by
//! side. Nothing is asserted about time.
//!
//! Sizes: `Config::web()` (the native sizes, the 1M-object lists included), or
//! `Config::smoke()` when built with `RVLAB_BENCH=smoke`; `RVLAB_BENCH_SCALE=F` at build time
//! multiplies every size (`Config::scaled`). Run: `RVLAB_BENCH=web cargo test --release --target
//! wasm32-unknown-unknown --test bench_web -- --nocapture` (or `./dev.sh bench`).
#![cfg(target_arch = "wasm32")]

use rvlab::bench::{self, Config, Probes, Row};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[global_allocator]
static A: rvlab::bench::CountingAlloc = rvlab::bench::CountingAlloc;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(js_namespace = console, js_name = log)]
    fn console_log(s: &str);
}

fn now() -> f64 {
    performance_now()
}

fn heap() -> usize {
    rvlab::bench::live_heap_bytes()
}

/// The wasm linear memory (what the tab holds for the module; it never shrinks).
fn linear_memory() -> Option<u64> {
    Some(core::arch::wasm32::memory_size(0) as u64 * 65_536)
}

fn config() -> Config {
    let cfg = Config::named(option_env!("RVLAB_BENCH").unwrap_or("web")).unwrap_or_else(Config::web);
    match option_env!("RVLAB_BENCH_SCALE").and_then(|f| f.parse::<f64>().ok()) {
        Some(f) => cfg.scaled(f),
        None => cfg,
    }
}

fn probes() -> Probes {
    Probes { now, heap: Some(heap), rss: Some(linear_memory) }
}

fn emit(r: Row) {
    console_log(&r.line());
}

/// Runs `f` once at smoke sizes first, unrecorded: V8 starts wasm in its baseline compiler and
/// tiers hot functions up while they run, which would otherwise be billed to whichever scenario
/// comes first.
fn warm(f: fn(&Config, &Probes, &mut dyn FnMut(Row))) {
    f(&Config::smoke(), &probes(), &mut |_| {});
}

// One test per group so that each stays within the runner's per-test timeout.

#[wasm_bindgen_test]
fn bench_1_memory_compaction_fanout() {
    let (cfg, p) = (config(), probes());
    bench::memory(&cfg, &p, &mut emit);
    warm(bench::compaction);
    bench::compaction(&cfg, &p, &mut emit);
    warm(bench::fanout);
    bench::fanout(&cfg, &p, &mut emit);
}

#[wasm_bindgen_test]
fn bench_2_writes() {
    warm(bench::writes);
    bench::writes(&config(), &probes(), &mut emit);
}

#[wasm_bindgen_test]
fn bench_3_console_and_timeline() {
    let (cfg, p) = (config(), probes());
    warm(bench::console);
    bench::console(&cfg, &p, &mut emit);
    // The timeline's model (pure Rust, the part before Yew renders the SVG) at N revisions.
    let revs = if cfg.console_objects < 10_000 { 2_000 } else { 100_000 };
    let mut s = rvlab::script::Session::with_explain(true);
    for i in 0..revs {
        let name = format!("cm-{:07}", i % 1000);
        let line =
            format!("etcd put /registry/configmaps/default/{name} {}", bench::configmap_json(&name, i));
        s.run_line(i + 1, &line);
    }
    let mut samples = Vec::new();
    for _ in 0..cfg.reps {
        let t0 = now();
        // As for each line while the fold beyond the lane limit and the table are shut.
        let m = rvlab::ui::timeline::build(&s, &[], None, false);
        samples.push(now() - t0);
        std::hint::black_box(&m);
    }
    emit(Row {
        id: "timeline.model".into(),
        value: bench::median(samples),
        unit: "ms",
        note: format!(
            "timeline::build at {revs} revisions over 1000 keys (model only, no DOM; the folded keys counted, not given lanes)"
        ),
    });
}

#[wasm_bindgen_test]
fn bench_4_relist() {
    warm(bench::relist);
    bench::relist(&config(), &probes(), &mut emit);
}

#[wasm_bindgen_test]
fn bench_5_lists() {
    warm(bench::lists);
    bench::lists(&config(), &probes(), &mut emit);
}

#[wasm_bindgen_test]
fn bench_6_history() {
    warm(bench::history);
    bench::history(&config(), &probes(), &mut emit);
}
