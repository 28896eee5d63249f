//! `rvlab-soak`: `rvlab serve` under load, faults and hostile clients, with real client
//! libraries, checked against what the writers wrote.
//!
//! It starts `rvlab serve` on free loopback ports — HTTPS by default, every client trusting the
//! CA from the kubeconfig it writes (`--http` for plain HTTP) — and for `--seconds` of wall time
//! runs at once:
//!
//! - the real clients ([`clients`]): `--kubectl` processes of `kubectl get configmaps --watch`,
//!   the Python client's watch loop, client-node's informer and the kube-rs controller;
//! - `--watches` raw watches and `--writers` writers ([`raw`]): the writers create, update and
//!   delete their own configmaps in `default`; every watch resumes from the last
//!   resourceVersion it saw, as client-go's reflector does;
//! - the fault schedule and hostile clients ([`faults`]): apiserver restarts, a lagging second
//!   apiserver behind the load balancer, `network watch-delay`, compaction every few seconds,
//!   watches dropped from either side, half-open connections, bytes that are not TLS, garbage
//!   HTTP, oversized bodies, watches never read;
//! - a simple GET (`/api/v1/namespaces/default`) every 100 ms, timed.
//!
//! At the end (after [`raw::DRAIN`]): every raw stream delivered, in order, with no gap and no
//! duplicate, every change after its start, or ended for a cause that explains it; every real
//! client's cache equals the server's state (a list at the end), none saw an object go back or
//! an event twice, and every object any of them held is one a writer wrote; the server's state
//! is what the writers' answers say it is (nothing lost) and etcd's revision moved by exactly
//! the writes and deletes; the server answered every timed GET; and, once the clients have
//! left and [`SETTLE`] has passed, the server's resident memory is within 10% of its start.
//! "Start" is the resident size after [`WARM_UP`] of the full load, or, in a shorter run, 20 s
//! before the load ends (but not before half the run; [`warm_up`]) (clients connected, caches filled, the watch cache's window and etcd's history at or
//! near their steady size): before that, the memory the run needs in steady state is still
//! being allocated, and a growth from an idle server says nothing about a leak. The server's
//! log is on disk (`serve::spool`); its size, measured through `GET /rvlab/v1/script`
//! ([`net::LogSize`]), is reported beside. A run shorter than twice [`MIN_WARM_UP`], or with
//! `--memory report`, prints the memory figures without judging them.
//!
//! A stream a normal reader saw end early is explained only by what the server says: at the end
//! the soak reads the server's log (`GET /rvlab/v1/script`) and replays it ([`ends`]) for the
//! `why` of every watch end. `RVLAB_SOAK_RECORD=FILE` keeps the log (`rvlab serve --record`),
//! `RVLAB_SOAK_TIMELINE=1` prints the faults and the sampled clock.
//!
//! One JSON object on stdout reports the figures; the exit code is 1 when a check failed.
//! A real client that cannot be found is named on stderr (`SKIPPED: …`) and in the report, and is
//! a failure with `--require-clients` (set by `./dev.sh`, or `RVLAB_REQUIRE_TOOLS` / `CI`).
//!
//! Host only; loopback only; bounded in time (it stops by itself) and in connections.
//! Usage: `rvlab-soak [--seconds N] [--watches N] [--writers N] [--slow N] [--rate N]
//! [--kubectl N] [--seed N] [--server PATH] [--http] [--no-clients] [--require-clients]
//! [--memory judge|report]
//! [--python PATH] [--client-node DIR] [--controller PATH] [--kubectl-bin PATH]`
//! (`./dev.sh soak [SECONDS]`, `tests/soak.rs`); `rvlab-soak --render-page REPORT.json` prints
//! the book's page for a report ([`page`]).

#[cfg(not(target_arch = "wasm32"))]
mod clients;
#[cfg(not(target_arch = "wasm32"))]
mod ends;
#[cfg(not(target_arch = "wasm32"))]
mod faults;
#[cfg(not(target_arch = "wasm32"))]
mod net;
#[cfg(not(target_arch = "wasm32"))]
mod page;
#[cfg(not(target_arch = "wasm32"))]
mod raw;
#[cfg(not(target_arch = "wasm32"))]
mod run;
#[cfg(not(target_arch = "wasm32"))]
mod state;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(host_main());
}

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// The collection the writers and the raw watches use.
#[cfg(not(target_arch = "wasm32"))]
pub const NS_PATH: &str = "/api/v1/namespaces/default/configmaps";

/// How long the full load runs before the server's resident memory is taken as its start. The
/// watch cache's history doubles its capacity while its oldest event is younger than 75 s
/// (`eventFreshDuration`, `apiserver::cacher::watch_cache`) and then fills it: under the soak's
/// load it reaches its steady size after about 100 s; a start taken before counts its growth as
/// the server's.
#[cfg(not(target_arch = "wasm32"))]
pub const WARM_UP: Duration = Duration::from_secs(100);

/// The warm-up of a run of `seconds`: [`WARM_UP`], or in a shorter run 20 s before the load
/// ends, but at least half the run.
#[cfg(not(target_arch = "wasm32"))]
pub fn warm_up(seconds: u64) -> Duration {
    let late = Duration::from_secs(seconds.saturating_sub(20).max(seconds / 2));
    WARM_UP.min(late)
}
/// The shortest warm-up whose start is judged: before it, clients are still connecting.
#[cfg(not(target_arch = "wasm32"))]
pub const MIN_WARM_UP: Duration = Duration::from_secs(10);
/// How long after the clients leave the server's resident memory is taken as its end.
#[cfg(not(target_arch = "wasm32"))]
pub const SETTLE: Duration = Duration::from_secs(5);

#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone)]
pub struct Config {
    pub seconds: u64,
    pub watches: usize,
    pub writers: usize,
    pub slow: usize,
    /// Writes per second per writer (each writer waits for its answer too).
    pub rate: u64,
    pub kubectl: usize,
    pub seed: u64,
    pub server: PathBuf,
    pub http: bool,
    pub clients: bool,
    pub require_clients: bool,
    /// `--memory report`: the memory figures are printed, not judged.
    pub judge_memory: bool,
    pub tools: clients::Tools,
}

#[cfg(not(target_arch = "wasm32"))]
impl Config {
    fn parse(args: &[String]) -> Result<Config, String> {
        let server = std::env::current_exe().map_err(|e| e.to_string())?.with_file_name(if cfg!(windows) {
            "rvlab.exe"
        } else {
            "rvlab"
        });
        let require_clients =
            std::env::var_os("RVLAB_REQUIRE_TOOLS").is_some() || std::env::var_os("CI").is_some();
        let mut c = Config {
            seconds: 60,
            watches: 200,
            writers: 20,
            slow: 10,
            rate: 3,
            kubectl: 2,
            seed: 1,
            server,
            http: false,
            clients: true,
            require_clients,
            judge_memory: true,
            tools: clients::Tools::default(),
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut path = || it.next().map(PathBuf::from).ok_or_else(|| format!("{a} needs a value"));
            match a.as_str() {
                "--server" => c.server = path()?,
                "--python" => c.tools.python = Some(path()?),
                "--client-node" => c.tools.client_node = Some(path()?),
                "--controller" => c.tools.controller = Some(path()?),
                "--kubectl-bin" => c.tools.kubectl = Some(path()?),
                "--http" => c.http = true,
                "--no-clients" => c.clients = false,
                "--require-clients" => c.require_clients = true,
                "--memory" => match it.next().map(String::as_str) {
                    Some("judge") => c.judge_memory = true,
                    Some("report") => c.judge_memory = false,
                    other => return Err(format!("--memory takes judge or report, not {other:?}")),
                },
                _ => {
                    let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                    let num = |max: u64| -> Result<u64, String> {
                        v.parse::<u64>()
                            .ok()
                            .filter(|n| *n <= max)
                            .ok_or_else(|| format!("{a} {v:?}: expected a number, at most {max}"))
                    };
                    match a.as_str() {
                        "--seconds" => c.seconds = num(3600)?.max(1),
                        "--watches" => c.watches = num(1000)? as usize,
                        "--writers" => c.writers = num(100)?.max(1) as usize,
                        "--slow" => c.slow = num(1000)? as usize,
                        "--rate" => c.rate = num(1000)?.max(1),
                        "--kubectl" => c.kubectl = num(20)? as usize,
                        "--seed" => c.seed = num(u64::MAX)?,
                        other => return Err(format!("unknown argument {other}")),
                    }
                }
            }
        }
        c.slow = c.slow.min(c.watches);
        Ok(c)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn host_main() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, file] = args.as_slice()
        && flag == "--render-page"
    {
        let report = std::fs::read_to_string(file)
            .map_err(|e| format!("{file}: {e}"))
            .and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{file}: {e}")));
        return match report {
            Ok(r) => {
                print!("{}", page::render(&r));
                0
            }
            Err(e) => {
                eprintln!("rvlab-soak: {e}");
                2
            }
        };
    }
    let cfg = match Config::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("rvlab-soak: {e}");
            return 2;
        }
    };
    let rt = match tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("rvlab-soak: {e}");
            return 1;
        }
    };
    let local = tokio::task::LocalSet::new();
    match local.block_on(&rt, run::run(cfg)) {
        Ok((report, ok)) => {
            println!("{report}");
            if ok { 0 } else { 1 }
        }
        Err(e) => {
            eprintln!("rvlab-soak: {e}");
            1
        }
    }
}
