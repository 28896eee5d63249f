//! The book's soak page (`site/src/project/soak.md`), rendered from a run's report
//! (`site/src/data/soak.json`): `rvlab-soak --render-page FILE` prints it; `./dev.sh soak
//! --record` writes both; `tests/soak.rs` checks that the committed page is the rendering of
//! the committed data.

use serde_json::Value;

fn n(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => group(f as i64),
        Some(f) => format!("{f}"),
        None => v.as_str().map_or_else(|| v.to_string(), str::to_string),
    }
}

/// 1234567 → 1,234,567.
fn group(i: i64) -> String {
    let s = i.unsigned_abs().to_string();
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k > 0 && (s.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if i < 0 { format!("-{out}") } else { out }
}

fn mib(kib: &Value) -> String {
    format!("{:.1} MiB", kib.as_f64().unwrap_or(0.0) / 1024.0)
}

fn ms(v: &Value) -> String {
    format!("{:.1} ms", v.as_f64().unwrap_or(0.0))
}

pub fn render(r: &Value) -> String {
    let mut md = String::new();
    md.push_str(PREAMBLE);
    let seconds = r["seconds"].as_f64().unwrap_or(0.0);
    md.push_str(&format!(
        "\n## The record\n\n`./dev.sh soak {} --record` on {}, {} (the data: [`soak.json`](../data/soak.json)).{}\n\n",
        seconds as u64,
        n(&r["date"]),
        n(&r["machine"]),
        if seconds < 600.0 {
            format!(
                " This run lasted {} s, not the 600 s of the full record: run `./dev.sh soak 600 --record` to \
                 replace it.",
                seconds as u64
            )
        } else {
            String::new()
        }
    ));
    let f = &r["faults"];
    let h = &r["hostile"]["byKind"];
    let lat = &r["getLatencyMs"];
    let rss = &r["rssKiB"];
    let rows: Vec<(String, String)> = vec![
        (
            "load".into(),
            format!(
                "{} raw watch slots ({} slow readers), {} writers at {} writes/s each, {} real clients, over {}",
                n(&r["watchSlots"]),
                n(&r["slowReaders"]),
                n(&r["writers"]),
                n(&r["writesPerSecondPerWriter"]),
                r["realClients"].as_array().map_or(0, Vec::len),
                if r["tls"] == true { "HTTPS" } else { "plain HTTP" }
            ),
        ),
        (
            "watches".into(),
            format!(
                "{} held at once at the peak; {} watch requests in all",
                n(&r["watchesHeldPeak"]),
                n(&r["watchesOpened"])
            ),
        ),
        (
            "events delivered".into(),
            format!("{}, every one checked against the writers' answers", n(&r["eventsChecked"])),
        ),
        ("writes".into(), format!("{} creates and updates, {} deletes", n(&r["writes"]), n(&r["deletes"]))),
        ("requests per second".into(), n(&r["requestsPerSecond"])),
        (
            "timed GET".into(),
            format!(
                "`GET {}` every 100 ms: {} samples, p50 {}, **p99 {}**, max {}; {} unanswered",
                n(&lat["path"]),
                n(&lat["samples"]),
                ms(&lat["p50"]),
                ms(&lat["p99"]),
                ms(&lat["max"]),
                n(&lat["unanswered"])
            ),
        ),
        (
            "faults".into(),
            format!(
                "{} apiserver restarts, {} lagging-apiserver phases, {} `network watch-delay` phases, {} compactions, \
                 {} watches dropped by the server and {} by their client, {} half-open connections, {} stale watches",
                n(&f["restarts"]),
                n(&f["laggingApiserverPhases"]),
                n(&f["watchDelayPhases"]),
                n(&f["compactions"]),
                n(&f["droppedByServer"]),
                n(&f["droppedByClient"]),
                n(&f["halfOpen"]),
                n(&f["staleWatches"])
            ),
        ),
        (
            "hostile clients".into(),
            format!(
                "{} in all: {} not-TLS byte streams, {} plain HTTP requests to the HTTPS port, {} garbage HTTP requests, \
                 {} bodies over 3 MiB (413), {} watches never read; each answered as kube-apiserver answers it",
                n(&r["hostile"]["total"]),
                n(&h["garbageBytes"]),
                n(&h["plainHttpToHttps"]),
                n(&h["garbageHttp"]),
                n(&h["oversizedBody"]),
                n(&h["neverReads"])
            ),
        ),
        (
            "watch ends".into(),
            format!(
                "{} × 410 (each explained by its message), {} × 429 or 504 retried, {} closed at their \
                 timeoutSeconds of simulated time while the clock ran ahead (by {} s over the run), {} slow readers cut off{}",
                n(&r["expired410"]),
                n(&r["retried429or504"]),
                n(&r["closedAtSimulatedTimeout"]),
                n(&r["simulatedClockAheadS"]),
                n(&r["slowConsumerCutOff"]),
                // Reports from before the soak read the server's log have no such count.
                r.get("normalReadersCutOff").filter(|v| !v.is_null()).map_or(String::new(), |v| format!(
                    ", {} normal readers cut off as slow consumers (so the server's log says)",
                    n(v)
                ))
            ),
        ),
        (
            "server memory (RSS)".into(),
            format!(
                "idle {}; start (after {} s of load) {}; peak {}; {} s after the clients left {} ({:.0}% of the start)",
                mib(&rss["idle"]),
                n(&rss["warmUpSeconds"]),
                mib(&rss["startAfterWarmUp"]),
                mib(&rss["peak"]),
                n(&rss["settleSeconds"]),
                mib(&rss["afterClientsLeft"]),
                rss["ratio"].as_f64().unwrap_or(0.0) * 100.0
            ),
        ),
        (
            "server log".into(),
            format!(
                "{} lines, {} bytes (`GET /rvlab/v1/script`)",
                n(&r["serverLog"]["lines"]),
                n(&r["serverLog"]["bytes"])
            ),
        ),
        (
            "lost".into(),
            format!("{} (failures: {})", n(&r["lost"]), r["failures"].as_array().map_or(0, Vec::len)),
        ),
    ];
    md.push_str("| | |\n|---|---|\n");
    for (k, v) in rows {
        md.push_str(&format!("| {k} | {v} |\n"));
    }
    md.push_str(
        "\n### The real clients\n\n| client | updates seen | objects held | errors surfaced | processes | out of order or twice | equal to the server's state |\n|---|---|---|---|---|---|---|\n",
    );
    for c in r["realClients"].as_array().into_iter().flatten() {
        let conv = c["equalServerStateAfterS"]
            .as_f64()
            .map_or_else(|| "**no**".to_string(), |s| format!("yes, {s:.1} s after the drain"));
        let errors = c["firstErrors"].as_array().map(|e| {
            e.iter().filter_map(Value::as_str).map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        });
        md.push_str(&format!(
            "| {} | {} | {} | {}{} | {} | {} | {} |\n",
            n(&c["client"]),
            n(&c["updates"]),
            n(&c["objectsHeld"]),
            n(&c["errorsSurfaced"]),
            errors.filter(|e| !e.is_empty()).map_or_else(String::new, |e| format!(" ({e})")),
            n(&c["processes"]),
            n(&c["outOfOrderOrTwice"]),
            conv
        ));
    }
    let failures: Vec<&str> =
        r["failures"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !failures.is_empty() {
        md.push_str(&format!("\n### Checks that failed ({})\n\n", failures.len()));
        for f in failures.iter().take(10) {
            md.push_str(&format!("- {}\n", f.replace('|', "\\|")));
        }
        if failures.len() > 10 {
            md.push_str(&format!("- … and {} more (all in the data)\n", failures.len() - 10));
        }
    }
    md.push_str(POSTSCRIPT);
    md
}

const PREAMBLE: &str = r#"# The soak: real clients, faults and hostile connections

<!-- Generated by `./dev.sh soak SECONDS --record` (src/bin/rvlab-soak/page.rs) from
     site/src/data/soak.json: edit those, not this file. -->

`./dev.sh soak [SECONDS]` (60 by default; `./dev.sh test` runs it for 60 s as its own phase, and
`cargo test --test soak` for 20 s) starts `rvlab serve` over HTTPS on loopback and, at once:

- **real clients**, against the kubeconfig it wrote (which carries the CA): two
  `kubectl get configmaps --watch --output-watch-events -o json` processes (started again
  whenever one exits), the Python client's watch loop (`kubernetes` 37.0.2), client-node's
  informer (`@kubernetes/client-node` 1.4.0) and the kube-rs controller (5.0.0) — the drivers
  of [How your client library recovers](../concepts/client-libraries.md);
- **200 raw watches and 20 writers**: the writers create, update and delete their own
  ConfigMaps in `default` (3 writes a second each); every watch has a random `timeoutSeconds`
  of 4–11 s and resumes from the last resourceVersion it saw, as client-go's reflector does
  (a relist after a 410, a retry after a 429 or a 504); ten of them read one frame a second
  through a 4 KiB receive buffer;
- **a fault schedule** through the [control endpoint](../reference/serve.md#the-control-endpoint),
  every 15 s: `restart apiserver 1`; `apiserver 2` (a second apiserver whose watch cache lags
  2 s takes every new connection for 4 s); `network watch-delay 1s` for 2.5 s. Throughout:
  `set cache.capacity 500` so the watch cache's window moves within seconds, `compact` every
  3 s, `drop wN` of three recent watches every 4 s, a watch dropped by its client every 0.5 s,
  a stale watch (from the run's first resourceVersion) every 2 s, half-open connections;
- **hostile connections** coming and going, one every 2 s in turn: bytes that are not TLS,
  plain HTTP to the HTTPS port, garbage HTTP inside TLS, a body over 3 MiB, a watch whose
  client never reads (held 5 s, then gone). Each answer is checked against what kube-apiserver
  answers ([Clients that misbehave](../reference/serve.md#clients-that-misbehave));
- a **timed GET** of one ConfigMap every 100 ms.

At the end — the writers stop, the network and the load balancer are set back, the watches
have 10 s to deliver the last write — the run fails (exit 1) unless:

- every raw watch stream delivered, in order, with no gap and no duplicate, every change after
  its start, and ended only for a cause that explains it: its `timeoutSeconds`, a 410 whose
  message shows its start below the window, a 429/504 retried, a `drop` or a restart that ran
  while it was open, or the slow-consumer rule: for the slow readers always, for any other
  when the server's log (the served record, replayed with `set explain on`) ends a watch with
  the same start and `timeoutSeconds` as `slow-consumer` while the stream was open (and an end
  at its `timeoutSeconds` of simulated time, sooner in wall time, is counted apart when the
  log says `timeout`);
- every real client's cache equals the server's state (a list at the end) within 45 s of the
  drain: the same names at the same resourceVersions; no kubectl process saw an event older
  than the one before it or an object's resourceVersion twice, no library's cache showed an
  object going back to an older resourceVersion or coming back at one it had before it was
  deleted, and every object any client held is one a writer wrote;
- nothing written was lost: the server's state is what the writers' last answers say, and
  etcd's revision moved by exactly the writes and deletes;
- the server answered every timed GET (within 5 s);
- the server's resident memory, 5 s after the clients left, is within 10% of its start.
  *Start* is the resident size after 100 s of the full load (in a shorter run, 20 s before the
  load ends, but not before half the run): by then the clients are connected, their caches
  filled, etcd's history at its steady size and the watch cache's window too — it doubles while
  its oldest event is younger than 75 s (`eventFreshDuration`) and then fills, so a start taken
  after 10 s counted its growth as the server's. An idle server's size is printed too, but a
  growth from idle says nothing about a leak.
"#;

const POSTSCRIPT: &str = r#"
## What the soak found

- **A wait moved everyone's clock (fixed).** `rvlab serve` runs one simulated clock that
  follows the wall. A request that had to wait for a lagging apiserver's watch cache was
  modelled by moving that clock on by the wait; afterwards it stayed ahead of the wall, and
  every watch's `timeoutSeconds` (simulated time) ended sooner in wall time than its client
  asked: 447 s ahead over the 600 s record run before the fix. In kube-apiserver a wait blocks
  only the request that waits. The server now holds such a request (a consistent read, a read
  at a resourceVersion the cache has not reached) in wall time on its own connection and runs
  it once the cache has caught up, or after the 3 s with the timeout's answer, recorded as
  `GET … waited=<duration>@<revision>` so that the record still replays
  ([Time](../reference/serve.md#time)). The soak still samples the simulated clock
  (`advance 0s` through the control endpoint), and counts apart a stream that ended sooner in
  wall time than its `timeoutSeconds` when the server's log ends it at its timeout ("closed at
  their timeoutSeconds of simulated time": none are expected now, and the count no longer
  rests on the sampled clock alone). In 60 s runs (a debug build on a loaded machine) the
  simulated clock's lead over the wall, which grew through the run to 8.7 s before, stayed
  within the control endpoint's own latency (at most 1.5 s there), and the streams counted
  that way went from 447 to none.
- **The server's log was kept whole in memory.** Every recorded line stayed in memory for
  `GET /rvlab/v1/script` and the live view's backlog, with the outputs of the most recent lines
  (32 MiB), so the log grew with the load for as long as the server ran (49 MB of lines after
  600 s). The log now goes to files that those endpoints stream from (the outputs rotate within
  32 MiB of disk); its size at the end is in the table.
- **Every watch ever served was remembered.** For every watch id the session kept the stream
  (`apiserver::server` `watches`) and a record of what its client read (`script::view`
  `ReadFrames`, up to 500 resourceVersions, for the playground's pictures), long after the watch
  ended, and a run like this one opens tens of thousands of watches; the resident size grew
  with them (6.4× its start after 600 s). A real apiserver forgets a watch when it ends.
  `rvlab serve` now records `set keep-ended-watches 100` at its start: of the watches that
  ended for their client, the session keeps the latest 100 (the live view draws them) and
  forgets the older ones, the same way when the record is replayed; a later line naming a
  forgotten watch is refused as `watch-gone`. With both, the memory check judges again.
- **Freed memory stayed with the process.** With watches forgotten, the 600 s record still
  failed the memory check: 24.5 MiB after the warm-up, 34.4 MiB 5 s after the clients left,
  the size climbing slowly under the load (to about 32 MiB at 455 s), with a step at 460 s,
  and never coming down. A session driven in the soak's pattern (watches timing out and
  resuming, cancels, drops, stale watches, writers over a fixed set of names, compactions,
  restarts, the second apiserver; `tests/bounded_session.rs`) holds no more live heap after
  300 s of simulated load than after its first 100 s (about 4 MiB, counted by the test's
  allocator), so nothing the engine keeps grows: glibc's `malloc` kept what was freed. It
  gives back only a free top of its heap, past a threshold it raises (up to 32 MiB) each time
  a large buffer such as a request body is freed, and never the free pages below a live
  allocation. `rvlab serve` now fixes that threshold and the mmap threshold at glibc's initial
  128 KiB and hands the heap's free pages back every 2 s (`malloc_trim`; `serve::heap`). A
  300 s run then: 24.7 MiB after the warm-up, 22.5 MiB 5 s after the clients left (91%).
  Under the load the resident size still rises (to about 29 MiB at 300 s, as in the run
  before) and falls back once the clients are gone. The 600 s record above, with it: 23.2 MiB
  after the warm-up, a peak of 34.8 MiB, 25.3 MiB after the clients left (109%).
- **The watch cache's window takes 75 s to fill.** Its history grows while its oldest event is
  younger than 75 s, so under a steady load the server's memory grows for the first 75 s and
  then holds (a 120 s run: +17% from 10 s to the end). The memory check takes its start after
  100 s of load (in a shorter run, 20 s before the load ends).
- **Watches that end together, early: slow consumers.** Now and then every raw watch ends at
  once, seconds before its `timeoutSeconds`, with no restart, no drop and no compaction just
  before. The server's log says why: replayed, each of those streams ends with
  `"ended": "slow-consumer"`, the cacher's rule for a watcher whose buffer stays full for the
  dispatch budget (`storage/cacher/cache_watcher.go` `add` @ v1.34.0, "Forcing … watcher close due to
  unresponsiveness"). The soak reads all of its raw streams on one thread; when a burst (many
  watches resuming at once after a restart, each replaying the history it missed) meets a
  loaded 2-core machine, that thread falls behind, every connection's buffers fill, and the
  server pauses the watches and cuts them off, as kube-apiserver does with a client that does
  not read. The model is faithful here: the soak now reads the server's log at the end and
  counts such an end as explained ("normal readers cut off as slow consumers"; a 120 s run's log
  had 76 such ends, in bursts of up to 18 at once). Every client resumed from where it was,
  and nothing was lost.
- **The compactors write too.** Each round of an apiserver's compactor writes `compact_rev_key`
  (a revision of its own), so over a long run etcd's revision moves by the writes, the deletes
  and the compactor rounds; the soak counts the rounds (`etcd get compact_rev_key`).
"#;
