//! `rvlab-bench [smoke|full|web] [--scale=F] [--sizes=N,…] [--reps=N] [scenario…]`: runs the
//! benchmarks of `rvlab::bench` natively and prints one `BENCH\t<id>\t<value>\t<unit>\t<note>`
//! line per number (`./dev.sh bench` joins them with the browser's). `--scale` multiplies every
//! size (`Config::scaled`), `--sizes` sets the list sizes, `--reps` the repetitions. Heap bytes come from a counting allocator, the resident size
//! from /proc/self/status.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    #[global_allocator]
    static A: rvlab::bench::CountingAlloc = rvlab::bench::CountingAlloc;

    fn now() -> f64 {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1000.0
    }
    fn heap() -> usize {
        rvlab::bench::live_heap_bytes()
    }
    fn rss() -> Option<u64> {
        let s = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    pub fn main() {
        let mut args: Vec<String> = std::env::args().skip(1).collect();
        let cfg_name = if args.first().is_some_and(|a| rvlab::bench::Config::named(a).is_some()) {
            args.remove(0)
        } else {
            "full".to_string()
        };
        let Some(mut cfg) = rvlab::bench::Config::named(&cfg_name) else { unreachable!() };
        // `--scale=0.01` scales every size, `--sizes=10000,100000` sets the list sizes, `--reps=N`
        // the repetitions.
        if let Some(f) = args.iter().find_map(|a| a.strip_prefix("--scale=")) {
            match f.parse::<f64>() {
                Ok(f) => cfg = cfg.scaled(f),
                Err(_) => {
                    eprintln!("rvlab-bench: --scale takes a number, not {f:?}");
                    std::process::exit(2);
                }
            }
        }
        args.retain(|a| {
            if a.starts_with("--scale=") {
                false
            } else if let Some(v) = a.strip_prefix("--sizes=") {
                cfg.list_sizes = v.split(',').filter_map(|x| x.parse().ok()).collect();
                false
            } else if let Some(v) = a.strip_prefix("--reps=") {
                cfg.reps = v.parse().unwrap_or(cfg.reps).max(1);
                false
            } else {
                true
            }
        });
        let probes = rvlab::bench::Probes { now, heap: Some(heap), rss: Some(rss) };
        let mut emit = |r: rvlab::bench::Row| {
            println!("{}", r.line());
            use std::io::Write;
            let _ = std::io::stdout().flush();
        };
        type Scenario = fn(&rvlab::bench::Config, &rvlab::bench::Probes, &mut dyn FnMut(rvlab::bench::Row));
        let all: [(&str, Scenario); 9] = [
            ("writes", rvlab::bench::writes),
            ("store_writes", rvlab::bench::store_writes),
            ("fanout", rvlab::bench::fanout),
            ("compaction", rvlab::bench::compaction),
            ("memory", rvlab::bench::memory),
            ("console", rvlab::bench::console),
            ("history", rvlab::bench::history),
            ("relist", rvlab::bench::relist),
            ("lists", rvlab::bench::lists),
        ];
        let chosen: Vec<(&str, Scenario)> = if args.is_empty() {
            all.iter().filter(|(n, _)| *n != "store_writes").copied().collect() // writes runs it
        } else {
            let mut v = Vec::new();
            for a in &args {
                match all.iter().find(|(n, _)| n == a) {
                    Some(s) => v.push(*s),
                    None => {
                        eprintln!(
                            "rvlab-bench: unknown scenario {a:?} (writes store_writes fanout compaction memory console history relist lists)"
                        );
                        std::process::exit(2);
                    }
                }
            }
            v
        };
        let smoke = rvlab::bench::Config::smoke();
        for (name, f) in chosen {
            // The same warm-up as in the browser (there it lets V8 tier the code up): one
            // unrecorded pass at smoke sizes. The memory scenario measures the heap, not time.
            if name != "memory" && cfg_name != "smoke" {
                f(&smoke, &probes, &mut |_| {});
            }
            f(&cfg, &probes, &mut emit);
        }
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}
