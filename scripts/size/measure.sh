#!/usr/bin/env bash
# The release wasm built as Trunk builds it (www/index.html, Trunk.toml), optimised by wasm-opt
# at one or more settings, with its sizes (raw, gzip -9, brotli q11) and where its bytes are.
#
#   scripts/size/measure.sh [CARGO ARGS...]
#
# CARGO ARGS go to cargo build (e.g. --no-default-features --features sandbox: the engine and Lab
# without the app). Environment:
#   RVLAB_SIZE_OPTS   wasm-opt settings to compare, separated by ";" (default: "-Os", what
#                     www/index.html's data-wasm-opt="s" makes Trunk run)
#   RVLAB_SIZE_OUT    where the builds go (default target/size/<label>)
#   RVLAB_SIZE_LABEL  the label of this build (default: "default", or the cargo args)
#   RVLAB_SIZE_BIN    the binary (default rvlab-web, the app; rvlab-embed with
#                     --no-default-features is the console embed's module, as www/index.html
#                     builds it, there with RVLAB_SIZE_OPTS=-O2)
#
# The steps are Trunk 0.21's: `cargo build --release --target=wasm32-unknown-unknown --bin
# rvlab-web`, `wasm-bindgen --target=web --out-name=rvlab-web --no-typescript`, `wasm-opt
# --output=OUT -Os IN`. The first setting is optimised a second time with -g (names kept) for
# the breakdown by origin. Needs the pinned wasm-bindgen and binaryen of ~/.cache/rvlab/tools
# (`./dev.sh build` installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."

tools=${RVLAB_TOOL_CACHE:-$HOME/.cache/rvlab/tools}
bindgen_version=$(sed -n 's/^wasm_bindgen *= *"\(.*\)"/\1/p' Trunk.toml)
binaryen_major=$(sed -n 's/^wasm_opt *= *"version_\(.*\)"/\1/p' Trunk.toml)
bindgen=$tools/wasm-bindgen-$bindgen_version/bin/wasm-bindgen
wasm_opt=$(ls -d "$tools"/binaryen-"$binaryen_major".*/node_modules/.bin/wasm-opt 2>/dev/null | head -n 1)
[ -x "$bindgen" ] || { echo "no wasm-bindgen $bindgen_version in $tools (./dev.sh build installs it)" >&2; exit 1; }
[ -n "$wasm_opt" ] && [ -x "$wasm_opt" ] || { echo "no binaryen $binaryen_major in $tools (./dev.sh build installs it)" >&2; exit 1; }

label=${RVLAB_SIZE_LABEL:-}
if [ -z "$label" ]; then
  if [ $# -eq 0 ]; then label=default; else label=$(printf '%s' "$*" | tr -c 'A-Za-z0-9_,=-' '_'); fi
fi
out=${RVLAB_SIZE_OUT:-target/size/$label}
mkdir -p "$out"
IFS=';' read -r -a opts <<< "${RVLAB_SIZE_OPTS:--Os}"

bin=${RVLAB_SIZE_BIN:-rvlab-web}
echo "== cargo build --release --target=wasm32-unknown-unknown --bin $bin $*" >&2
cargo build --release --target=wasm32-unknown-unknown --bin "$bin" "$@" >&2
cp "target/wasm32-unknown-unknown/release/$bin.wasm" "$out/cargo.wasm"

echo "== wasm-bindgen $bindgen_version" >&2
"$bindgen" --target=web --out-dir="$out/bindgen" --out-name=rvlab-web --no-typescript "$out/cargo.wasm"

reports=("wasm-bindgen output, no wasm-opt=$out/bindgen/rvlab-web_bg.wasm")
i=0
for opt in "${opts[@]}"; do
  i=$((i + 1))
  echo "== wasm-opt $opt" >&2
  # shellcheck disable=SC2086 # a setting may be several flags (-Oz --converge)
  /usr/bin/time -f "   %es" "$wasm_opt" --output="$out/opt$i.wasm" $opt "$out/bindgen/rvlab-web_bg.wasm" >&2
  reports+=("wasm-opt $opt=$out/opt$i.wasm")
done
# shellcheck disable=SC2086
"$wasm_opt" --output="$out/names.wasm" -g ${opts[0]} "$out/bindgen/rvlab-web_bg.wasm"

echo "== $label: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml || echo ' + uncommitted changes'), cargo args: ${*:-none}"
node scripts/size/report.mjs --js="$out/bindgen/rvlab-web.js" --js=www/rv-playground.js \
  --names="$out/names.wasm" --top="${RVLAB_SIZE_TOP:-25}" "${reports[@]}"
