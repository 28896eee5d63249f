#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 180) each, one after the other.
#   ./fuzz/run.sh [SECONDS] [TARGET...]
# Built with debug assertions (-a), so integer overflow panics too.
# Needs the nightly toolchain and cargo-fuzz (installed into .tools/ if missing).
# The committed seeds in fuzz/corpus/<target>/ are read, not written: new inputs go to
# target/fuzz-corpus/<target>/, crashes to target/fuzz-artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$root/.tools/bin:$PATH"
secs=${1:-180}; shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(continue_token request parse_line script_text script_gen share_link)
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked --root "$root/.tools"
tgt=${CARGO_TARGET_DIR:-$root/target}
for t in "${targets[@]}"; do
  mkdir -p "$tgt/fuzz-corpus/$t" "$tgt/fuzz-artifacts/$t"
  echo "== $t (${secs}s)"
  cargo +nightly fuzz run -a --fuzz-dir fuzz "$t" "$tgt/fuzz-corpus/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$tgt/fuzz-artifacts/$t/" -print_final_stats=1 2>&1 |
    grep -E '^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|==[0-9]+==|thread .* panicked|SUMMARY|Test unit written|Done )' || true
done
