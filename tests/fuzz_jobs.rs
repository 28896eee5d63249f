//! `./fuzz/run.sh` with `FUZZ_JOBS=N`: N libFuzzer processes on one target, their counts summed
//! into one run, and a finding in one stopping the others. Run with stand-ins for `rustup`,
//! `cargo` and `cargo-fuzz` on `PATH` that behave as libFuzzer does at its end (it prints
//! `stat::number_of_executed_units` with `-print_final_stats=1`, exits 1 on a finding and 72 on
//! an interrupt), so the script's own logic is what is tested, without a nightly toolchain.

#![cfg(all(unix, not(target_arch = "wasm32")))]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn write_exe(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The stand-in `cargo +nightly fuzz run …`: with `FAKE_FIND=1` the first process to start
/// reports a finding after 0.3 s (5 inputs); every other one runs, as a process whose command
/// line names `…/release/<target> -` like a real fuzzer's (as an argument: `python3` may be a
/// shim that starts another one), until SIGINT (7 inputs, exit 72) or
/// for at most 20 s (1000 inputs, so a run the script failed to stop shows in the sum). Without
/// it each process runs its `-runs=` share and ends cleanly.
const FAKE_CARGO: &str = r#"#!/usr/bin/env bash
[ "$3" = build ] && exit 0
target=$9
for a; do case $a in -runs=*) runs=${a#-runs=} ;; esac; done
if [ "${FAKE_FIND:-}" != 1 ]; then
  echo "Done $runs runs in 0 second(s)"
  echo "stat::number_of_executed_units: $runs"
  exit 0
fi
if mkdir "$FAKE_DIR/first" 2>/dev/null; then
  sleep 0.3
  echo "==1== ERROR: libFuzzer: deadly signal"
  echo "stat::number_of_executed_units: 5"
  exit 1
fi
exec python3 -c '
import signal, sys, time
def stop(*_):
    print("stat::number_of_executed_units: 7", flush=True)
    sys.exit(72)
signal.signal(signal.SIGINT, stop)
for _ in range(200):
    time.sleep(0.1)
print("stat::number_of_executed_units: 1000", flush=True)
' "$FAKE_DIR/release/$target -runs=$runs"
"#;

struct Fake {
    dir: PathBuf,
}

impl Fake {
    fn new(name: &str) -> Fake {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        write_exe(&dir.join("bin/rustup"), "#!/bin/sh\necho nightly-x86_64-unknown-linux-gnu\n");
        write_exe(&dir.join("bin/cargo"), FAKE_CARGO);
        write_exe(&dir.join("tools/cargo-fuzz-0.13.1/bin/cargo-fuzz"), "#!/bin/sh\necho cargo-fuzz 0.13.1\n");
        std::fs::create_dir_all(dir.join("release")).unwrap();
        Fake { dir }
    }

    /// Runs `FUZZ_JOBS=<jobs> ./fuzz/run.sh --runs <runs> <target>`; returns the line it logged
    /// in `fuzz-log.tsv` (date, target, executions, seconds, findings) and its output.
    fn run(&self, jobs: u32, runs: u32, target: &str, find: bool) -> (Vec<String>, String) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path =
            format!("{}:{}", self.dir.join("bin").display(), std::env::var("PATH").unwrap_or_default());
        let out = Command::new("bash")
            .arg(root.join("fuzz/run.sh"))
            .args(["--runs", &runs.to_string(), target])
            .env("PATH", path)
            .env("RVLAB_TOOLS", self.dir.join("tools"))
            .env("CARGO_TARGET_DIR", self.dir.join("target"))
            .env("FUZZ_JOBS", jobs.to_string())
            .env("FAKE_DIR", &self.dir)
            .env("FAKE_FIND", if find { "1" } else { "" })
            .output()
            .unwrap();
        let text =
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "run.sh failed: {text}");
        let log = std::fs::read_to_string(self.dir.join("target/fuzz-log.tsv")).unwrap_or_default();
        let line = log.lines().last().unwrap_or("").split('\t').map(String::from).collect();
        (line, text)
    }
}

#[test]
fn fuzz_jobs_run_each_process_for_its_share_and_sum_the_counts() {
    let fake = Fake::new("fuzz-jobs-share");
    let (line, text) = fake.run(3, 10, "fake_share", false);
    // ⌈10 / 3⌉ = 4 inputs each, three processes.
    assert_eq!(line[1..3], ["fake_share", "12"], "{text}");
    assert_eq!(line[4], "0", "{text}");
    assert!(text.contains("-runs=4"), "{text}");
    for i in 1..=3 {
        assert!(fake.dir.join(format!("target/fuzz-artifacts/fake_share/last-run.{i}.log")).is_file());
    }
}

#[test]
fn a_finding_in_one_fuzz_job_stops_the_others() {
    let fake = Fake::new("fuzz-jobs-finding");
    let (line, text) = fake.run(3, 1_000_000, "fake_finding", true);
    // 5 from the process that found something, 7 from each one interrupted (1000 if not).
    assert_eq!(line[1..3], ["fake_finding", "19"], "{text}");
    assert_eq!(line[4], "1", "{text}");
}
