#!/usr/bin/env bash
# Runs fuzz targets one after the other, each for SECONDS (default 180) or for exactly N inputs.
#   ./fuzz/run.sh [SECONDS] [TARGET...]
#   ./fuzz/run.sh --runs N [TARGET...]     # libFuzzer -runs=N: reproducible execution counts
#   ./fuzz/run.sh --record …               # also append each run to fuzz/record.tsv, the record the
#                                          # book's fuzzing page shows, and rewrite that page's tables
# Built with debug assertions (-a), so integer overflow panics too, and without a sanitizer
# (-s none): the code under test is safe Rust, so AddressSanitizer finds nothing the panics do
# not, and costs about half the executions.
# Needs the nightly toolchain and cargo-fuzz $CARGO_FUZZ_VERSION, installed (`cargo install --locked`)
# into the per-machine cache ~/.cache/rvlab/tools/cargo-fuzz-<version>/ if missing, outside the
# clone, so every worktree and every later clone on the machine shares it.
# The committed seeds in fuzz/corpus/<target>/ are read, not written: new inputs go to
# target/fuzz-corpus/<target>/, crashes to target/fuzz-artifacts/<target>/.
# The whole-script targets are built without integer-comparison tracing (--no-trace-compares):
# it costs them half their executions, and what they compare is mostly script words, which
# libFuzzer still learns from its memcmp/strcmp hooks.
# FUZZ_TIMEOUT=S overrides the per-input timeout (10 s, 60 s for the whole-script targets).
# FUZZ_FORK=N runs N libFuzzer workers side by side (-fork=N, one count for the run; crashes,
# timeouts and out-of-memory inputs still stop it and count as findings). It suits the cheap
# targets; for the whole-script ones each short early job spends most of its time re-running a
# sample of the corpus, so use FUZZ_JOBS there.
# FUZZ_JOBS=N runs N whole libFuzzer processes on the same corpus (each reloads what the others
# add every second), each for the time or for its share of --runs; the run counts all their
# inputs, and the first that stops on a finding stops the others. Logs: last-run.<i>.log.
# libFuzzer's whole output goes to target/fuzz-artifacts/<target>/last-run.log as it runs.
# Each run appends one line to target/fuzz-log.tsv: date, target, executions, seconds, findings.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
CARGO_FUZZ_VERSION=0.13.1
fuzz_dir=${RVLAB_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rvlab/tools}/cargo-fuzz-$CARGO_FUZZ_VERSION
export PATH="$fuzz_dir/bin:$PATH"
limit=(-max_total_time=180)
runs=
record=
if [ "${1:-}" = "--record" ]; then record=1; shift; fi
how="run.sh 180"
if [ "${1:-}" = "--runs" ]; then
  [ -n "${2:-}" ] || { echo "usage: $0 --runs N [TARGET...]" >&2; exit 2; }
  limit=(-runs="$2"); runs=$2; how="run.sh --runs $2"; shift 2
elif [ -n "${1:-}" ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  limit=(-max_total_time="$1"); how="run.sh $1"; shift
fi
[ -z "${FUZZ_FORK:-}" ] || how="FUZZ_FORK=$FUZZ_FORK $how"
jobs=${FUZZ_JOBS:-1}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "FUZZ_JOBS: a number of processes, not '$jobs'" >&2; exit 2; }
[ "$jobs" = 1 ] || [ -z "${FUZZ_FORK:-}" ] || { echo "FUZZ_JOBS and FUZZ_FORK: one or the other" >&2; exit 2; }
[ "$jobs" = 1 ] || how="FUZZ_JOBS=$jobs $how"
# Each process's share of --runs.
[ -z "$runs" ] || [ "$jobs" = 1 ] || limit=(-runs=$(((runs + jobs - 1) / jobs)))
[ -z "${FUZZ_TIMEOUT:-}" ] || how="FUZZ_TIMEOUT=$FUZZ_TIMEOUT $how"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(continue_token request parse_line share_link patch kubectl selectors
  protobuf serve_request script_text script_gen embed_api feature_gates against_compare serve_config)
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
if [ "$("$fuzz_dir/bin/cargo-fuzz" --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  # Through a temporary folder renamed at the end: a build cut short never leaves a half tool.
  tmp="$fuzz_dir.partial.$$"
  rm -rf "$tmp" && mkdir -p "$(dirname "$fuzz_dir")"
  CARGO_TARGET_DIR="$tmp.build" cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root "$tmp"
  rm -rf "$tmp.build" "$tmp/.crates.toml" "$tmp/.crates2.json" "$fuzz_dir" && mv "$tmp" "$fuzz_dir"
fi
tgt=${CARGO_TARGET_DIR:-$root/target}
fork=()
[ -z "${FUZZ_FORK:-}" ] || fork=(-fork="$FUZZ_FORK" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
for t in "${targets[@]}"; do
  mkdir -p "$tgt/fuzz-corpus/$t" "$tgt/fuzz-artifacts/$t"
  # A whole script may legitimately simulate up to 10,000 units of timer work per `advance` line
  # (src/script/budget.rs); on 2 shared cores a few such lines take more than 10 s of wall time.
  timeout=10
  build=(-a -s none)
  case "$t" in
    script_text | script_gen) timeout=60 build+=(--no-trace-compares) ;;
    embed_api) timeout=60 ;; # it runs scripts too, each line within the same budget
  esac
  # libFuzzer's timeout is wall time: a run at low priority beside other work needs a longer one
  # (FUZZ_TIMEOUT=900), or a starved input is reported as a hang.
  timeout=${FUZZ_TIMEOUT:-$timeout}
  echo "== $t (${limit[*]}, -timeout=$timeout)"
  # The commit the target is built from (+ when the code under test had changes), taken before
  # the run: a run takes hours, and the checkout may move on meanwhile.
  commit=$(git rev-parse --short HEAD)
  [ -z "$(git status --porcelain -- src fuzz/common fuzz/fuzz_targets Cargo.toml Cargo.lock)" ] || commit="$commit+"
  start=$(date +%s)
  fuzz_cmd=(cargo +nightly fuzz run "${build[@]}" --fuzz-dir fuzz "$t" "$tgt/fuzz-corpus/$t" "fuzz/corpus/$t" --
    "${limit[@]}" ${fork[@]+"${fork[@]}"} -timeout="$timeout" -rss_limit_mb=2048 -max_len=4096
    -artifact_prefix="$tgt/fuzz-artifacts/$t/" -print_final_stats=1)
  logs=("$tgt/fuzz-artifacts/$t/last-run.log")
  if [ "$jobs" = 1 ]; then
    "${fuzz_cmd[@]}" > "${logs[0]}" 2>&1 || true
  else
    # Built once first, so the processes start together.
    cargo +nightly fuzz build "${build[@]}" --fuzz-dir fuzz "$t"
    logs=() pids=()
    for i in $(seq 1 "$jobs"); do
      logs+=("$tgt/fuzz-artifacts/$t/last-run.$i.log")
      "${fuzz_cmd[@]}" > "${logs[-1]}" 2>&1 &
      pids+=($!)
    done
    # Wait for all; one that ends on a finding (libFuzzer's exit code is not 0) ends the others.
    while [ ${#pids[@]} -gt 0 ]; do
      status=0 ended=
      wait -n -p ended "${pids[@]}" || status=$?
      [ -n "$ended" ] || break
      rest=()
      for p in "${pids[@]}"; do [ "$p" = "$ended" ] || rest+=("$p"); done
      pids=(${rest[@]+"${rest[@]}"})
      # (an interrupt by hand ends each with libFuzzer's 72: the others stop too)
      [ "$status" = 0 ] || pkill -INT -f "/release/$t -" 2>/dev/null || true
    done
  fi
  out=$(cat "${logs[@]}" |
    grep -E '^(#[0-9]+ +(INITED|DONE)|#[0-9]+: cov|INFO: (fuzzed for|exiting)|ALARM:|stat::number_of_executed_units|==[0-9]+==|thread .* panicked|SUMMARY|Test unit written|Done )' || true)
  echo "$out"
  # One count per process: their sum.
  execs=$(echo "$out" | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{ n += $1; c++ } END { if (c) print n }')
  findings=$(echo "$out" | grep -c 'ERROR: libFuzzer' || true)
  if [ ${#fork[@]} -gt 0 ]; then
    # The parent reports "#RUNS: cov: … oom/timeout/crash: O/T/C …" after each job.
    last=$(echo "$out" | grep -E '^#[0-9]+: cov' | tail -1)
    execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
    bad=$(echo "$last" | sed -n 's#.*oom/timeout/crash: *\([0-9]*\)/\([0-9]*\)/\([0-9]*\).*#\1 \2 \3#p')
    for n in $bad; do findings=$((findings + n)); done
  fi
  # A timeout is announced by ALARM before its report; without a sanitizer the report can hang in
  # the signal handler (the run is then interrupted by hand), so the ALARM alone counts too.
  if [ "$findings" = 0 ] && echo "$out" | grep -q '^ALARM:'; then findings=1; fi
  seconds=$(( $(date +%s) - start ))
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "${execs:-?}" "$seconds" "$findings" >> "$tgt/fuzz-log.tsv"
  if [ -n "$record" ]; then
    # A run that printed no count (cut short) is recorded with 0 executions and a finding.
    [[ "${execs:-}" =~ ^[0-9]+$ ]] || { execs=0; findings=$((findings > 0 ? findings : 1)); }
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$t" "$execs" "$seconds" "$commit" "$findings" \
      "$how" >> fuzz/record.tsv
  fi
done
if [ -n "$record" ]; then
  RVLAB_WRITE_FUZZ_RECORD=1 cargo test -q --test fuzz_regression the_fuzzing_page_shows_the_record
fi
