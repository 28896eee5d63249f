#!/usr/bin/env bash
# rvlab developer entry point. The README's two commands:
#   ./dev.sh serve   install what is missing, build, serve the playground on http://127.0.0.1:8080
#   ./dev.sh test    install what is missing, run every native and browser test, print "N passed, N failed"
#   ./dev.sh build   the release bundle into dist/ (static files to host anywhere)
#   ./dev.sh shots   screenshots of the pictures in their key states, into shots/
# Everything installed lands in .tools/ (pinned versions) or comes from Debian's packages.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1
ROOT=$PWD
TOOLS=$ROOT/.tools
BINARYEN_VERSION=132.0.0
# mdBook for the documentation site (site/): no watch/serve/search, so it builds in minutes.
MDBOOK_VERSION=0.5.4
export PATH="$TOOLS/bin:$TOOLS/npm/node_modules/.bin:$HOME/.cargo/bin:$PATH"

START=$SECONDS
say() { printf '==> [%ss] %s\n' "$((SECONDS - START))" "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

# The wasm-bindgen version the CLI must match exactly: the one in Cargo.lock.
bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

need_rust() {
  command -v cargo >/dev/null && command -v rustup >/dev/null \
    || die "cargo and rustup are required: install Rust from rustup.rs, then run this again"
  { cargo fmt --version && cargo clippy --version; } >/dev/null 2>&1 || {
    say "adding the rustfmt and clippy components"
    rustup component add rustfmt clippy >&2 || die "could not add rustfmt and clippy (rustup component add rustfmt clippy)"
  }
  rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || {
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown >&2 || die "could not add the wasm32 target (rustup target add wasm32-unknown-unknown)"
  }
}

# tool_install CRATE ARGS...: cargo install into .tools with a quick release profile (no LTO, many
# codegen units, opt-level 1): these tools are built once per machine and do little work, so
# build time matters more than their speed. Each gets its own target dir (they may run at once).
tool_install() {
  local crate=$1; shift
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    CARGO_TARGET_DIR="$TOOLS/build/$crate" cargo install "$crate" "$@" --root "$TOOLS" >&2 || return 1
  rm -rf "$TOOLS/build/$crate"
}

need_web_tools() {
  need_rust
  [ -f Cargo.lock ] || cargo generate-lockfile >&2 || die "could not resolve dependencies (is crates.io reachable?)"
  cargo fetch --quiet >&2 || die "could not download the crates in Cargo.lock (is crates.io reachable?)"
  local bg; bg=$(bindgen_version)
  [ -n "$bg" ] || die "no wasm-bindgen in Cargo.lock"
  if [ "$("$TOOLS/bin/wasm-bindgen" --version 2>/dev/null)" != "wasm-bindgen $bg" ]; then
    say "installing wasm-bindgen-cli $bg into .tools (a few minutes once)"
    # No --locked: the CLI's own lockfile names crates the registry may not carry.
    tool_install wasm-bindgen-cli --version "=$bg" --force || die "installing wasm-bindgen-cli failed"
  fi
  if ! "$TOOLS/npm/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
    command -v npm >/dev/null || die "npm is required for wasm-opt (binaryen): apt-get install nodejs npm"
    say "installing binaryen $BINARYEN_VERSION (wasm-opt) into .tools/npm"
    npm install --silent --no-audit --no-fund --prefix "$TOOLS/npm" "binaryen@$BINARYEN_VERSION" >&2 || die "installing binaryen failed"
  fi
}

# The official Kubernetes Python client, pinned, in a project-local virtualenv (tests/serve_clients.rs).
PY_KUBERNETES_VERSION=37.0.2
need_python_client() {
  local py="$TOOLS/pyvenv/bin/python"
  if ! "$py" -c "import kubernetes; assert kubernetes.__version__ == '$PY_KUBERNETES_VERSION'" 2>/dev/null; then
    say "installing the Python client kubernetes==$PY_KUBERNETES_VERSION into .tools/pyvenv"
    rm -rf "$TOOLS/pyvenv"
    # Debian's python3 makes a venv only with python3-venv (ensurepip) installed.
    python3 -m venv "$TOOLS/pyvenv" >&2 2>/dev/null || {
      rm -rf "$TOOLS/pyvenv"; apt_install python3-venv
      python3 -m venv "$TOOLS/pyvenv" >&2 || die "python3 -m venv failed"
    }
    "$TOOLS/pyvenv/bin/pip" install --quiet "kubernetes==$PY_KUBERNETES_VERSION" >&2 || die "pip install kubernetes failed"
  fi
}

apt_install() { # apt_install PACKAGE... (only those missing)
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && sudo="sudo"; } \
    || die "need root (or sudo) to install: ${missing[*]}"
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2 \
    || die "apt-get install ${missing[*]} failed"
}

# web_build release|debug DIST: the playground's static bundle in DIST. cargo builds the
# rvlab-web binary for wasm32; wasm-bindgen (pinned to Cargo.lock) makes its ES module; a release
# build goes through wasm-opt -O. The JS, wasm and CSS get content-hashed names (a new build is
# never served from a stale cache) and the placeholders in www/index.html (CSS, JS, WASM between
# at-signs, and their _SRI) become those names and their SHA-384 digests; favicon.svg, embed-example.html, rv-playground.js and
# lessons/ are copied beside them. Every URL is relative: the bundle works under any sub-path.
web_build() {
  local mode=$1 dist=${2%/} flags=()
  [ "$mode" = release ] && flags=(--release)
  local wasm="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/$mode/rvlab-web.wasm"
  cargo build --offline --target wasm32-unknown-unknown --bin rvlab-web "${flags[@]}" >&2 \
    || { cargo fetch >&2 && cargo build --offline --target wasm32-unknown-unknown --bin rvlab-web "${flags[@]}" >&2; } \
    || return 1
  local stage="$dist.stage" app css
  app="rvlab-web-$(sha256sum "$wasm" | cut -c1-16)"
  css="style-$(sha256sum www/style.css | cut -c1-16).css"
  rm -rf "$stage" && mkdir -p "$stage" || return 1
  # Generated under the plain name (wasm-bindgen writes it into every import of the wasm), renamed after.
  wasm-bindgen --target web --no-typescript --out-dir "$stage" --out-name rvlab-web "$wasm" >&2 || return 1
  if [ "$mode" = release ]; then
    wasm-opt -O "$stage/rvlab-web_bg.wasm" -o "$stage/${app}_bg.wasm" >&2 || return 1
    rm "$stage/rvlab-web_bg.wasm"
  else
    mv "$stage/rvlab-web_bg.wasm" "$stage/${app}_bg.wasm" || return 1
  fi
  sed "s/rvlab-web_bg\.wasm/${app}_bg.wasm/g" "$stage/rvlab-web.js" > "$stage/$app.js" && rm "$stage/rvlab-web.js" || return 1
  cp www/style.css "$stage/$css" && cp www/favicon.svg www/embed-example.html www/embed-api-example.html www/rv-playground.js "$stage/" \
    && cp -r lessons "$stage/lessons" || return 1
  sri() { python3 -c 'import base64, hashlib, sys; print("sha384-" + base64.b64encode(hashlib.sha384(open(sys.argv[1], "rb").read()).digest()).decode())' "$1"; }
  sed -e "s|@CSS@|$css|g; s|@JS@|$app.js|g; s|@WASM@|${app}_bg.wasm|g" \
    -e "s|@CSS_SRI@|$(sri "$stage/$css")|; s|@JS_SRI@|$(sri "$stage/$app.js")|; s|@WASM_SRI@|$(sri "$stage/${app}_bg.wasm")|" \
    www/index.html > "$stage/index.html" || return 1
  if grep -q '@[A-Z_]*@' "$stage/index.html"; then say "web_build: a placeholder is left in index.html"; return 1; fi
  rm -rf "$dist" && mv "$stage" "$dist"
}

# ./dev.sh build [DIR]: the release bundle into DIR (dist/), ready to host as static files.
cmd_build() {
  local dist="${1:-dist}"
  need_web_tools
  say "building the playground (release) into $dist"
  web_build release "$dist" || die "build failed"
  say "built: $dist/ (static files with relative URLs: host it under any path)"
}

cmd_serve() {
  need_web_tools
  say "building the playground (release)"
  web_build release dist || die "build failed"
  echo "rvlab playground: http://127.0.0.1:8080/"
  exec python3 -m http.server 8080 --bind 127.0.0.1 --directory dist
}

PASSED=0
FAILED=0
FAILED_PARTS=()
failed_part() { FAILED_PARTS+=("$1"); }
count_results() { # count_results LOGFILE: add up every "test result:" line of cargo / wasm-bindgen-test
  local p f
  p=$(grep -aoE 'test result: [A-Za-z]+\. [0-9]+ passed' "$1" | awk '{s+=$4} END {print s+0}')
  f=$(grep -aoE '[0-9]+ failed' <(grep -a 'test result:' "$1") | awk '{s+=$1} END {print s+0}')
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
}

count_plain() { # count_plain LOGFILE: the closing "N passed, N failed" line of rvlab test
  local line
  line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
  [ -n "$line" ] || { FAILED=$((FAILED + 1)); return; }
  PASSED=$((PASSED + $(echo "$line" | awk '{print $1}')))
  FAILED=$((FAILED + $(echo "$line" | awk '{print $3}')))
}

cmd_test() {
  need_web_tools
  apt_install chromium chromium-driver etcd-server
  local logs; logs=$(mktemp -d)
  local status=0

  say "cargo fmt --check"
  if cargo fmt --check >&2; then PASSED=$((PASSED + 1)); else say "cargo fmt --check FAILED (run cargo fmt)"; FAILED=$((FAILED + 1)); status=1; failed_part "cargo fmt --check"; fi

  say "cargo clippy -D warnings (native and wasm32)"
  if cargo clippy --offline --all-targets -- -D warnings >&2; then PASSED=$((PASSED + 1)); else say "clippy (native) FAILED"; FAILED=$((FAILED + 1)); status=1; failed_part "clippy (native)"; fi
  if cargo clippy --offline --all-targets --target wasm32-unknown-unknown -- -D warnings >&2; then PASSED=$((PASSED + 1)); else say "clippy (wasm32) FAILED"; FAILED=$((FAILED + 1)); status=1; failed_part "clippy (wasm32)"; fi

  say "release build of the playground (dist/)"
  if ! web_build release dist; then
    say "release build FAILED"; FAILED=$((FAILED + 1)); status=1; failed_part "release build"
  fi

  say "clients for tests/serve_clients.rs: kubectl on PATH, the Python client in .tools/pyvenv"
  command -v kubectl >/dev/null || say "kubectl is not on PATH: tests/serve_clients.rs will fail (see README, 'Use it with real clients')"
  need_python_client

  say "native tests"
  RVLAB_PYTHON="$TOOLS/pyvenv/bin/python" cargo test --offline --no-fail-fast --all-targets -- --include-ignored 2>&1 | tee "$logs/native.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { status=1; failed_part "native tests: $(grep -aE '^    [A-Za-z0-9_:]+$|^test .* FAILED$|could not compile' "$logs/native.log" | tr -s ' ' | sort -u | head -n 20 | paste -sd, -)"; }
  count_results "$logs/native.log"

  say "scripts and lessons with expectations (rvlab test scripts/ lessons/)"
  cargo run --offline --quiet --bin rvlab -- test scripts/ lessons/ 2>&1 | tee "$logs/scripts.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { status=1; failed_part "scripts and lessons: $(grep -aiE 'fail' "$logs/scripts.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/scripts.log"

  # mdBook (for the site check below) builds meanwhile, at a lower priority than the browser.
  local mdbook_pid=""
  if [ "$("$TOOLS/bin/mdbook" --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    (renice -n 15 "$BASHPID" >/dev/null; need_mdbook) > "$logs/mdbook.log" 2>&1 & mdbook_pid=$!
  fi

  say "browser tests (headless Chromium)"
  cargo test --offline --target wasm32-unknown-unknown --test web 2>&1 | tee "$logs/web.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { status=1; failed_part "browser tests: $(grep -aE '^test .* FAILED$|^    [A-Za-z0-9_:]+$|Failed to detect test|might have timed out' "$logs/web.log" | sort -u | head -n 20 | paste -sd, -)"; }
  grep -aq 'test result:' "$logs/web.log" || { FAILED=$((FAILED + 1)); failed_part "browser tests: no result line (the runner gave up: WASM_BINDGEN_TEST_TIMEOUT in .cargo/config.toml)"; }
  count_results "$logs/web.log"

  [ -z "$mdbook_pid" ] || wait "$mdbook_pid" || cat "$logs/mdbook.log" >&2
  say "documentation site (mdBook $MDBOOK_VERSION, embeds checked in headless Chromium)"
  site_test 2>&1 | tee "$logs/site.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { status=1; failed_part "documentation site: $(grep -aE '^not ok|^site:' "$logs/site.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/site.log"

  say "benchmark smoke run (every scenario at tiny sizes, native and in the browser)"
  if (cmd_bench --smoke) >&2; then PASSED=$((PASSED + 1)); else FAILED=$((FAILED + 1)); status=1; failed_part "benchmark smoke run"; fi

  if [ "$status" -ne 0 ] && [ "$FAILED" -eq 0 ]; then FAILED=1; fi
  local part
  for part in "${FAILED_PARTS[@]}"; do echo "FAILED: $part"; done
  echo "$PASSED passed, $FAILED failed"
  return "$status"
}

PLAYWRIGHT_VERSION=1.65.1

need_playwright() {
  if [ "$("$TOOLS/npm/node_modules/playwright-core/cli.js" --version 2>/dev/null)" != "Version $PLAYWRIGHT_VERSION" ]; then
    say "installing playwright-core $PLAYWRIGHT_VERSION into .tools/npm"
    npm install --silent --no-audit --no-fund --save-exact --prefix "$TOOLS/npm" "playwright-core@$PLAYWRIGHT_VERSION" >&2 || return 1
  fi
}

need_mdbook() {
  if [ "$("$TOOLS/bin/mdbook" --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    say "installing mdbook $MDBOOK_VERSION into .tools (a few minutes once)"
    tool_install mdbook --version "=$MDBOOK_VERSION" --locked --no-default-features || return 1
  fi
}

# The documentation site: mdBook builds site/ into site/book, the playground's release build
# (dist/) goes beside it as site/book/playground/, and site/check.mjs serves it under a sub-path
# and checks every embed in headless Chromium. Prints the check's "N passed, N failed".
site_test() {
  need_mdbook || { echo "site: installing mdbook $MDBOOK_VERSION failed"; return 1; }
  need_playwright || { echo "site: installing playwright-core failed"; return 1; }
  [ -f dist/index.html ] || { echo "site: no playground build in dist/ (the release build failed)"; return 1; }
  rm -rf site/book
  "$TOOLS/bin/mdbook" build site >&2 || { echo "site: mdbook build failed"; return 1; }
  cp -r dist site/book/playground || return 1
  node site/check.mjs site/book
}

# ./dev.sh bench [--smoke] [--markdown]: every benchmark natively (rvlab-bench) and in headless
# Chromium (tests/bench_web.rs), plus page metrics of the release build (scripts/bench/page.mjs),
# joined by scripts/bench/table.mjs into issue 19's table (native, wasm, their ratio, the page
# figure, target, met?), then every scenario and the page metrics. --markdown prints the tables
# ready for README.md (they are also written to target/bench/table.md).
# --smoke (or RVLAB_BENCH=smoke) runs every scenario at tiny sizes in debug builds, without page
# metrics: a compile-and-run check for CI. RVLAB_BENCH_SCALE=0.01 runs the whole timed pipeline
# with every size scaled (a quick end-to-end check of the full command; its numbers mean little).
# Timed benches build with opt-level 3 (the shipped wasm uses "z") in target/bench, so they never
# disturb the normal build; page metrics use the shipped release profile.
cmd_bench() {
  local smoke=0 markdown=""
  for a in "$@"; do
    case "$a" in
      --smoke) smoke=1 ;;
      --markdown) markdown=--markdown ;;
      *) die "bench takes --smoke and --markdown, not $a" ;;
    esac
  done
  [ "${RVLAB_BENCH:-}" = "smoke" ] && smoke=1
  local scale="${RVLAB_BENCH_SCALE:-1}"
  [[ "$scale" =~ ^[0-9]*\.?[0-9]+$ ]] || die "RVLAB_BENCH_SCALE must be a number, not $scale"
  need_web_tools
  apt_install chromium chromium-driver
  local out; out=$(mktemp -d)
  local status=0
  # The smoke run reuses the test build; timed runs build with opt-level 3 in their own dir.
  if [ "$smoke" -eq 1 ]; then
    export CARGO_TARGET_DIR="${BENCH_TARGET_DIR:-$ROOT/target}"
  else
    export CARGO_TARGET_DIR="${BENCH_TARGET_DIR:-$ROOT/target/bench}"
  fi
  if [ "$smoke" -eq 1 ]; then
    say "native benchmarks (smoke)"
    cargo run --offline --quiet --bin rvlab-bench -- smoke > "$out/native.txt" || status=1
    say "browser benchmarks (smoke, headless Chromium)"
    RVLAB_BENCH=smoke cargo test --offline --target wasm32-unknown-unknown --test bench_web -- --nocapture > "$out/wasm.txt" 2>&1 || { cat "$out/wasm.txt" >&2; status=1; }
    node scripts/bench/table.mjs $markdown \
      --title="rvlab benchmarks, SMOKE sizes (debug builds; the numbers only show that every scenario runs)" \
      "$out/native.txt" "$out/wasm.txt" || status=1
    [ "$status" -eq 0 ] && echo "bench smoke: ok" || echo "bench smoke: FAILED"
    return "$status"
  fi
  local scaled="" objects=10000 runs=7
  if [ "$scale" != "1" ]; then
    scaled="--scale=$scale"
    objects=$(awk -v f="$scale" 'BEGIN { n = int(10000 * f + 0.5); print (n < 100 ? 100 : n) }')
    runs=3
  fi
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=3
  say "native benchmarks (release, opt-level 3; takes several minutes: 1M-object lists) $scaled"
  cargo build --offline --release --bin rvlab-bench >&2 || die "building rvlab-bench failed"
  "$CARGO_TARGET_DIR/release/rvlab-bench" full $scaled > "$out/native.txt" || status=1
  say "browser benchmarks (release, opt-level 3, headless Chromium) $scaled"
  RVLAB_BENCH=web RVLAB_BENCH_SCALE="$scale" WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT_BENCH:-3600}" \
    cargo test --offline --release --target wasm32-unknown-unknown --test bench_web -- --nocapture > "$out/wasm.txt" 2>&1 \
    || { tail -n 30 "$out/wasm.txt" >&2; status=1; }
  unset CARGO_PROFILE_RELEASE_OPT_LEVEL
  say "page metrics (release build into target/bench/dist, playwright-core $PLAYWRIGHT_VERSION, $objects objects, $runs runs)"
  need_playwright || die "installing playwright-core failed"
  local dist="$CARGO_TARGET_DIR/dist"
  if web_build release "$dist"; then
    node scripts/bench/page.mjs "$dist" --objects="$objects" --runs="$runs" > "$out/page.txt" || status=1
  else
    say "the release build failed: no page metrics"; status=1
  fi
  local title
  title="Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ { print $2 }') GB, load average $(cut -d' ' -f1-3 /proc/loadavg)), rustc $(rustc --version | cut -d' ' -f2), Chromium $(chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)"
  [ "$scale" != "1" ] && title="$title; SCALED sizes (RVLAB_BENCH_SCALE=$scale): not for the README"
  node scripts/bench/table.mjs --markdown --title="$title" "$out/native.txt" "$out/wasm.txt" "$out/page.txt" > "$CARGO_TARGET_DIR/table.md" || status=1
  node scripts/bench/table.mjs $markdown --title="$title" "$out/native.txt" "$out/wasm.txt" "$out/page.txt" || status=1
  say "raw results in $out; the markdown tables in $CARGO_TARGET_DIR/table.md"
  return "$status"
}

# ./dev.sh shots: PNG screenshots of the pictures in their key states (headless Chromium, CJK
# fonts), into shots/. Scenarios are the scripts in scripts/shots/ (each also checked by
# `rvlab test`), opened as embeds (`?embed=1&script=…`); the rest are the first visit, a lesson,
# an 800 px embed, 390 px, dark, 中文 and a greyscale copy. Served on 127.0.0.1:$SHOTS_PORT.
cmd_shots() {
  need_web_tools
  apt_install chromium fonts-noto-cjk
  local out="$ROOT/shots" dist="$ROOT/target/shots-dist" port="${SHOTS_PORT:-8091}"
  say "building the playground (debug) into $dist"
  web_build debug "$dist" || die "the build failed"
  mkdir -p "$out" && rm -f "$out"/*.png
  cat > "$dist/shots-grey.html" <<'HTML'
<!doctype html><meta charset="utf-8"><title>greyscale</title>
<style>html,body{margin:0}iframe{border:0;width:100vw;height:100vh;filter:grayscale(1)}</style>
<iframe id="f"></iframe><script>document.getElementById('f').src='index.html'+location.search</script>
HTML
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist" >/dev/null 2>&1 &
  local server=$!
  trap 'kill "$server" 2>/dev/null' RETURN
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
  local status=0
  shot() { # shot NAME WIDTH HEIGHT PAGE QUERY
    local file="$out/$1.png"
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
      --window-size="$2,$3" --virtual-time-budget=6000 --screenshot="$file" \
      "http://127.0.0.1:$port/$4?$5" >/dev/null 2>&1
    if [ -s "$file" ]; then say "shot $1 ($2×$3)"; else say "FAILED: shot $1"; status=1; fi
  }
  script_q() { # the query that opens scripts/shots/$1.rv as an embed
    printf 'embed=1&motion=reduce&script=%s' "$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(open(sys.argv[1]).read()))' "scripts/shots/$1.rv")"
  }
  shot first-visit 1280 900 index.html "lang=en&motion=reduce"
  for f in scripts/shots/*.rv; do
    local name; name=$(basename "$f" .rv)
    shot "$name" 1280 1100 index.html "lang=en&$(script_q "$name")"
  done
  shot lesson-08 1280 1000 index.html "lang=en&motion=reduce&lesson=two-410s"
  shot embed-800 800 700 index.html "lang=en&embed=1&motion=reduce&lesson=continue-after-compaction"
  shot two-apiservers-390 390 1400 index.html "lang=en&$(script_q two-apiservers)"
  shot slow-consumer-390 390 1400 index.html "lang=en&$(script_q slow-consumer)"
  shot two-apiservers-dark 1280 1100 index.html "lang=en&theme=dark&$(script_q two-apiservers)"
  shot two-apiservers-zh 1280 1100 index.html "lang=zh&$(script_q two-apiservers)"
  shot informer-relist-zh-390 390 1400 index.html "lang=zh&$(script_q informer-relist)"
  shot two-apiservers-grey 1280 1100 shots-grey.html "lang=en&$(script_q two-apiservers)"
  echo "screenshots in $out"
  return "$status"
}

# ./dev.sh soak [SECONDS]: rvlab serve under load and faults (release build, loopback only):
# 200 watches (10 deliberately slow), 20 writers, compaction every 3 s, watches dropped
# mid-stream, half-open connections, for SECONDS (60) of wall time plus a short drain; every
# watch is checked against what the writers wrote. Prints the report (one JSON object) and
# exits non-zero when anything was lost or unexplained. `tests/soak.rs` runs a short version.
cmd_soak() {
  local seconds="${1:-60}"
  need_rust
  say "building rvlab and rvlab-soak (release)"
  cargo build --offline --release --bin rvlab --bin rvlab-soak >&2 \
    || { cargo fetch >&2 && cargo build --offline --release --bin rvlab --bin rvlab-soak >&2; } || die "build failed"
  say "soak: ${seconds}s, 200 watches, 20 writers"
  "$ROOT/target/release/rvlab-soak" --seconds "$seconds" --watches 200 --writers 20 --slow 10 \
    --server "$ROOT/target/release/rvlab"
}

case "${1:-}" in
  serve) cmd_serve ;;
  build) shift; cmd_build "$@" ;;
  test) cmd_test ;;
  bench) shift; cmd_bench "$@" ;;
  shots) cmd_shots ;;
  soak) shift; cmd_soak "$@" ;;
  *) echo "usage: ./dev.sh serve | build [DIR] | test | bench [--smoke] [--markdown] | shots | soak [SECONDS]" >&2; exit 2 ;;
esac
