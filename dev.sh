#!/usr/bin/env bash
# rvlab developer entry point. The README's two commands:
#   ./dev.sh serve   install what is missing, then `trunk serve`: the playground on http://127.0.0.1:8080/,
#                    rebuilt and reloaded when src/, www/ or lessons/ change
#   ./dev.sh test    install what is missing, run every native and browser test, print "N passed, N failed"
# and the others:
#   ./dev.sh build   `trunk build --release`: the bundle in dist/ (static files to host anywhere)
#   ./dev.sh book    the book (site/) with the playground, served on http://127.0.0.1:3000/
#   ./dev.sh bench | shots | soak   benchmarks, screenshots, the load-and-fault run
# Tools are pinned and compiled or installed once per machine, not once per clone, into
# ${XDG_CACHE_HOME:-~/.cache}/rvlab/tools/<tool>-<version>/ (RVLAB_TOOLS overrides); every clone
# on the machine, CI's fresh clone included, reuses them. Debian packages come from apt.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1
ROOT=$PWD
TOOL_CACHE=${RVLAB_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rvlab/tools}
# Pins. Trunk 0.21.x (0.22 needs a newer rustc); wasm-bindgen-cli and wasm-opt are the versions
# Trunk.toml's [tools] names (read from there, so the two never disagree).
TRUNK_VERSION=0.21.14
toml_tool() { sed -n "s/^$1 *= *\"\\(.*\\)\"/\\1/p" Trunk.toml | head -n 1; }
WASM_BINDGEN_VERSION=$(toml_tool wasm_bindgen)
BINARYEN_MAJOR=$(toml_tool wasm_opt | sed 's/^version_//')
BINARYEN_VERSION=$BINARYEN_MAJOR.0.0
# mdBook for the book (site/): no watch/serve/search, so it builds in minutes.
MDBOOK_VERSION=0.5.4
PLAYWRIGHT_VERSION=1.65.1
PY_KUBERNETES_VERSION=37.0.2

TRUNK_DIR=$TOOL_CACHE/trunk-$TRUNK_VERSION
BINDGEN_DIR=$TOOL_CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION
BINARYEN_DIR=$TOOL_CACHE/binaryen-$BINARYEN_VERSION
MDBOOK_DIR=$TOOL_CACHE/mdbook-$MDBOOK_VERSION
PLAYWRIGHT_DIR=$TOOL_CACHE/playwright-core-$PLAYWRIGHT_VERSION
PYVENV_DIR=$TOOL_CACHE/python-kubernetes-$PY_KUBERNETES_VERSION
# @kubernetes/client-node for tests/serve_tls.rs (2.x needs Node 22; Debian's is 20).
CLIENT_NODE_VERSION=1.4.0
CLIENT_NODE_DIR=$TOOL_CACHE/client-node-$CLIENT_NODE_VERSION
export PATH="$TRUNK_DIR/bin:$BINDGEN_DIR/bin:$BINARYEN_DIR/node_modules/.bin:$MDBOOK_DIR/bin:$HOME/.cargo/bin:$PATH"
# For the Node checks (site/check.mjs, tests/embed/*.mjs, scripts/bench/*.mjs) and tests/serve_clients.rs.
export PLAYWRIGHT_CORE=$PLAYWRIGHT_DIR/node_modules/playwright-core
export RVLAB_PYTHON=$PYVENV_DIR/bin/python
export RVLAB_CLIENT_NODE=$CLIENT_NODE_DIR

START=$SECONDS
say() { printf '==> [%ss] %s\n' "$((SECONDS - START))" "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

# Phases and the time each took, printed at the end of `./dev.sh test`.
PHASES=()
PHASE_NAME="" PHASE_START=0
phase() { # phase NAME: ends the running phase (if any) and starts NAME ("" ends only)
  [ -z "$PHASE_NAME" ] || PHASES+=("$(printf '%6ss  %s' "$((SECONDS - PHASE_START))" "$PHASE_NAME")")
  PHASE_NAME=$1 PHASE_START=$SECONDS
  [ -z "$1" ] || say "$1"
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

# cargo_tool DIR CRATE ARGS...: `cargo install` into the per-machine cache DIR (through a
# temporary folder renamed at the end, so a build cut short or run twice at once never leaves a
# half tool). These tools are built once per machine, so build time matters more than their
# speed: a quick release profile (no LTO, many codegen units, opt-level 1), or with --debug in
# ARGS an unoptimised build without debug info (for tools that mostly wait on others).
cargo_tool() {
  local dir=$1 crate=$2; shift 2
  local tmp="$dir.partial.$$"
  rm -rf "$tmp" && mkdir -p "$(dirname "$dir")" || return 1
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    CARGO_PROFILE_DEV_DEBUG=0 \
    CARGO_TARGET_DIR="$tmp.build" cargo install "$crate" "$@" --root "$tmp" || { rm -rf "$tmp" "$tmp.build"; return 1; }
  rm -rf "$tmp.build" "$tmp/.crates.toml" "$tmp/.crates2.json"
  rm -rf "$dir" && mv "$tmp" "$dir"
}

# npm_tool DIR PACKAGE@VERSION...: npm packages into the per-machine cache DIR (same renaming).
npm_tool() {
  local dir=$1; shift
  command -v npm >/dev/null || { apt_install nodejs npm || return 1; }
  local tmp="$dir.partial.$$"
  rm -rf "$tmp" && mkdir -p "$tmp" || return 1
  npm install --silent --no-audit --no-fund --save-exact --prefix "$tmp" "$@" >&2 || { rm -rf "$tmp"; return 1; }
  rm -rf "$dir" && mv "$tmp" "$dir"
}

have_trunk() { [ "$("$TRUNK_DIR/bin/trunk" --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; }
have_bindgen() {
  [ "$("$BINDGEN_DIR/bin/wasm-bindgen" --version 2>/dev/null)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ] \
    && [ -x "$BINDGEN_DIR/bin/wasm-bindgen-test-runner" ]
}
have_binaryen() { "$BINARYEN_DIR/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version_$BINARYEN_MAJOR)"; }
have_mdbook() { [ "$("$MDBOOK_DIR/bin/mdbook" --version 2>/dev/null)" = "mdbook v$MDBOOK_VERSION" ]; }
have_playwright() { [ "$(node "$PLAYWRIGHT_CORE/cli.js" --version 2>/dev/null)" = "Version $PLAYWRIGHT_VERSION" ]; }

# install_cargo_tools NAME...: compiles the missing ones of trunk, wasm-bindgen, mdbook into the
# cache, at the same time (each cargo keeps both cores busy only part of the time: build
# scripts, linking). The compile happens once per machine; logs go to the cache on failure.
install_cargo_tools() {
  local pids=() names=() logs="$TOOL_CACHE/logs" t
  mkdir -p "$logs" || return 1
  for t in "$@"; do
    case "$t" in
      trunk) have_trunk && continue
        # Trunk runs cargo, wasm-bindgen and wasm-opt and hashes a few files: unoptimised is quick
        # enough, and without the default features (TLS for its own downloads, an update check)
        # it never reaches for the network, which --offline forbids anyway. About 3 minutes.
        say "compiling Trunk $TRUNK_VERSION into $TRUNK_DIR (a few minutes on 2 cores, once per machine)"
        cargo_tool "$TRUNK_DIR" trunk --version "=$TRUNK_VERSION" --locked --no-default-features --debug > "$logs/trunk.log" 2>&1 & ;;
      wasm-bindgen) have_bindgen && continue
        say "compiling wasm-bindgen-cli $WASM_BINDGEN_VERSION into $BINDGEN_DIR (a few minutes, once per machine)"
        # No --locked: the CLI's own lockfile names crates the registry may not carry.
        cargo_tool "$BINDGEN_DIR" wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" > "$logs/wasm-bindgen.log" 2>&1 & ;;
      mdbook) have_mdbook && continue
        say "compiling mdBook $MDBOOK_VERSION into $MDBOOK_DIR (a few minutes, once per machine)"
        cargo_tool "$MDBOOK_DIR" mdbook --version "=$MDBOOK_VERSION" --locked --no-default-features --debug > "$logs/mdbook.log" 2>&1 & ;;
      *) die "install_cargo_tools: unknown tool $t" ;;
    esac
    pids+=($!) names+=("$t")
  done
  local i status=0
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      tail -n 30 "$logs/${names[$i]}.log" >&2
      say "installing ${names[$i]} failed (whole log: $logs/${names[$i]}.log)"; status=1
    fi
  done
  return "$status"
}

# need_web_tools [mdbook]: Rust with the wasm32 target, the crates in Cargo.lock, and the pinned
# Trunk, wasm-bindgen-cli (the version in Trunk.toml, which must be Cargo.lock's) and binaryen.
need_web_tools() {
  need_rust
  [ -f Cargo.lock ] || cargo generate-lockfile >&2 || die "could not resolve dependencies (is crates.io reachable?)"
  local locked
  locked=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  [ -n "$WASM_BINDGEN_VERSION" ] && [ "$locked" = "$WASM_BINDGEN_VERSION" ] \
    || die "Trunk.toml pins wasm-bindgen '$WASM_BINDGEN_VERSION' but Cargo.lock has '$locked': make them equal"
  [ -n "$BINARYEN_MAJOR" ] || die "Trunk.toml's [tools] names no wasm_opt version"
  cargo fetch --quiet >&2 || die "could not download the crates in Cargo.lock (is crates.io reachable?)"
  if ! have_binaryen; then
    say "installing binaryen $BINARYEN_VERSION (wasm-opt) from npm into $BINARYEN_DIR"
    npm_tool "$BINARYEN_DIR" "binaryen@$BINARYEN_VERSION" || die "installing binaryen failed"
  fi
  install_cargo_tools trunk wasm-bindgen "$@" || die "installing the pinned tools failed"
}

need_playwright() {
  have_playwright && return 0
  say "installing playwright-core $PLAYWRIGHT_VERSION into $PLAYWRIGHT_DIR"
  npm_tool "$PLAYWRIGHT_DIR" "playwright-core@$PLAYWRIGHT_VERSION"
}

have_client_node() { [ "$(node -p "require('$CLIENT_NODE_DIR/node_modules/@kubernetes/client-node/package.json').version" 2>/dev/null)" = "$CLIENT_NODE_VERSION" ]; }
need_client_node() {
  have_client_node && return 0
  say "installing @kubernetes/client-node $CLIENT_NODE_VERSION into $CLIENT_NODE_DIR"
  npm_tool "$CLIENT_NODE_DIR" "@kubernetes/client-node@$CLIENT_NODE_VERSION"
}

# The official Kubernetes Python client, pinned, in a virtualenv in the cache (tests/serve_clients.rs).
need_python_client() {
  "$RVLAB_PYTHON" -c "import kubernetes; assert kubernetes.__version__ == '$PY_KUBERNETES_VERSION'" 2>/dev/null && return 0
  say "installing the Python client kubernetes==$PY_KUBERNETES_VERSION into $PYVENV_DIR"
  rm -rf "$PYVENV_DIR"
  # Debian's python3 makes a venv only with python3-venv (ensurepip) installed.
  python3 -m venv "$PYVENV_DIR" >&2 2>/dev/null || {
    rm -rf "$PYVENV_DIR"; apt_install python3-venv
    python3 -m venv "$PYVENV_DIR" >&2 || die "python3 -m venv failed"
  }
  # Until this succeeds the import check above fails, so a cut-short install is made again.
  "$PYVENV_DIR/bin/pip" install --quiet "kubernetes==$PY_KUBERNETES_VERSION" >&2 || die "pip install kubernetes failed"
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

# trunk_build release|debug DIST: the playground's static bundle in DIST, built by Trunk from
# www/index.html (Trunk.toml): the rvlab-web binary for wasm32, wasm-bindgen's ES module,
# wasm-opt on release builds, content-hashed names with SHA-384 integrity, relative URLs, and
# the files the page copies beside it (icon, rv-playground.js, example pages, lessons/).
trunk_build() {
  local mode=$1 dist=${2%/} flags=()
  [ "$mode" = release ] && flags=(--release)
  trunk --offline=true build "${flags[@]}" --dist "$dist" >&2 \
    || { cargo fetch >&2 && trunk --offline=true build "${flags[@]}" --dist "$dist" >&2; }
}

# ./dev.sh build [DIR]: the release bundle into DIR (dist/), ready to host as static files.
cmd_build() {
  local dist="${1:-dist}"
  need_web_tools
  say "trunk build --release into $dist"
  trunk_build release "$dist" || die "build failed"
  say "built: $dist/ (static files with relative URLs: host it under any path)"
}

# ./dev.sh serve [TRUNK SERVE FLAGS]: `trunk serve` on http://127.0.0.1:8080/ (Trunk.toml's
# [serve]); it rebuilds and reloads the page when src/, www/ or lessons/ change. A debug build
# (quick to rebuild); `./dev.sh serve --release` serves what `./dev.sh build` makes.
cmd_serve() {
  need_web_tools
  say "trunk serve: http://127.0.0.1:8080/ (Ctrl-C stops it)"
  exec trunk --offline=true serve "$@"
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

# One checked step of `./dev.sh test`: check NAME COMMAND... counts it as one passed or failed test.
check() {
  local name=$1; shift
  if "$@" >&2; then PASSED=$((PASSED + 1)); else say "$name FAILED"; FAILED=$((FAILED + 1)); STATUS=1; failed_part "$name"; fi
}

cmd_test() {
  STATUS=0
  # The tests that drive kubectl, etcd, the Python client and client-node skip without them under
  # a plain `cargo test`; here, where they are installed, a missing one is a failure.
  export RVLAB_REQUIRE_TOOLS=1
  local logs; logs=$(mktemp -d)
  phase "installing what is missing (pinned tools into $TOOL_CACHE, Debian packages)"
  need_rust
  # The Debian packages, the npm tools and the Python client install while the tools compile.
  local side_log="$logs/side-installs.log"
  ( apt_install chromium chromium-driver etcd-server && need_playwright && need_python_client && need_client_node ) > "$side_log" 2>&1 &
  local side=$!
  need_web_tools mdbook
  wait "$side" || { cat "$side_log" >&2; die "installing Debian packages, playwright-core, the Python client or client-node failed"; }
  command -v kubectl >/dev/null || say "kubectl is not on PATH: tests/serve_clients.rs will fail (see site/src/reference/serve.md, 'Tested with real clients')"

  phase "cargo fmt --check"
  check "cargo fmt --check (run cargo fmt)" cargo fmt --check

  phase "cargo clippy -D warnings (native and wasm32)"
  check "clippy (native)" cargo clippy --offline --all-targets -- -D warnings
  check "clippy (wasm32)" cargo clippy --offline --all-targets --target wasm32-unknown-unknown -- -D warnings
  # The console embed's module is built without the default features (www/index.html).
  check "clippy (wasm32, the console embed's module)" cargo clippy --offline --target wasm32-unknown-unknown --no-default-features --bin rvlab-embed -- -D warnings

  phase "trunk build --release (dist/)"
  check "trunk build --release" trunk_build release dist

  phase "embedding API (Lab, <rv-playground>.run) in headless Chromium, against rvlab run"
  { cargo build --offline --quiet --bin rvlab \
      && node tests/embed/check.mjs dist "${CARGO_TARGET_DIR:-$ROOT/target}/debug/rvlab"; } 2>&1 | tee "$logs/embed.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "embedding API: $(grep -a '^not ok' "$logs/embed.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/embed.log"

  phase "embeds a documentation page can live with (heights, panels, captions, no 404; headless Chromium)"
  node tests/embed/layout.mjs dist 2>&1 | tee "$logs/embed-layout.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "embed layout: $(grep -a '^not ok' "$logs/embed-layout.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/embed-layout.log"

  phase "five embeds on one page share one module (rendered in the page; headless Chromium)"
  node tests/embed/inpage.mjs dist 2>&1 | tee "$logs/embed-inpage.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "embeds in the page: $(grep -a '^not ok' "$logs/embed-inpage.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/embed-inpage.log"

  phase "the console embed a documentation page shows first (its module, rows, run(), the full playground on demand; headless Chromium)"
  node tests/embed/console.mjs dist 2>&1 | tee "$logs/embed-console.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "console embed: $(grep -a '^not ok' "$logs/embed-console.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/embed-console.log"

  phase "the page's keyboard and phone flow (skip link, 390 px order, response after Send; headless Chromium)"
  node tests/page/flow.mjs dist 2>&1 | tee "$logs/page-flow.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "page flow: $(grep -a '^not ok' "$logs/page-flow.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/page-flow.log"

  phase "native tests"
  cargo test --offline --no-fail-fast --all-targets -- --include-ignored 2>&1 | tee "$logs/native.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "native tests: $(grep -aE '^    [A-Za-z0-9_:]+$|^test .* FAILED$|could not compile' "$logs/native.log" | tr -s ' ' | sort -u | head -n 20 | paste -sd, -)"; }
  count_results "$logs/native.log"

  phase "native tests of the console embed's build (without the default features: no app, no extras)"
  cargo test --offline --no-fail-fast --no-default-features --lib -- script::extra embed::console 2>&1 | tee "$logs/native-console.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "native tests (console embed's build): $(grep -aE '^test .* FAILED$|could not compile' "$logs/native-console.log" | head -n 10 | paste -sd, -)"; }
  count_results "$logs/native-console.log"

  phase "scripts and lessons with expectations (rvlab test scripts/ lessons/)"
  cargo run --offline --quiet --bin rvlab -- test scripts/ lessons/ 2>&1 | tee "$logs/scripts.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "scripts and lessons: $(grep -aiE 'fail' "$logs/scripts.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/scripts.log"

  phase "browser tests (wasm-bindgen-test in headless Chromium)"
  cargo test --offline --target wasm32-unknown-unknown --test web 2>&1 | tee "$logs/web.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "browser tests: $(grep -aE '^test .* FAILED$|^    [A-Za-z0-9_:]+$|Failed to detect test|might have timed out' "$logs/web.log" | sort -u | head -n 20 | paste -sd, -)"; }
  grep -aq 'test result:' "$logs/web.log" || { FAILED=$((FAILED + 1)); STATUS=1; failed_part "browser tests: no result line (the runner gave up: WASM_BINDGEN_TEST_TIMEOUT in .cargo/config.toml)"; }
  count_results "$logs/web.log"

  phase "trunk serve: the page, its files, and a reload after a change (headless Chromium)"
  node tests/trunk/serve.mjs 2>&1 | tee "$logs/trunk-serve.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "trunk serve: $(grep -aE '^not ok' "$logs/trunk-serve.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/trunk-serve.log"

  phase "the book (mdBook $MDBOOK_VERSION, every page and embed checked in headless Chromium)"
  site_test 2>&1 | tee "$logs/site.log" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || { STATUS=1; failed_part "the book: $(grep -aE '^not ok|^site:' "$logs/site.log" | head -n 10 | paste -sd, -)"; }
  count_plain "$logs/site.log"

  phase "soak (60 s: rvlab serve over HTTPS, real clients, faults, hostile clients)"
  check "soak (rvlab-soak, 60 s)" soak_ci

  phase "benchmark smoke run (every scenario at tiny sizes, native and in the browser)"
  check "benchmark smoke run" bench_smoke

  phase ""
  echo "time per phase (seconds):"
  printf '%s\n' "${PHASES[@]}"
  printf '%6ss  total\n' "$((SECONDS - START))"
  if [ "$STATUS" -ne 0 ] && [ "$FAILED" -eq 0 ]; then FAILED=1; fi
  local part
  for part in "${FAILED_PARTS[@]}"; do echo "FAILED: $part"; done
  echo "$PASSED passed, $FAILED failed"
  return "$STATUS"
}

# In a subshell: cmd_bench exports its own CARGO_TARGET_DIR and may die.
bench_smoke() ( cmd_bench --smoke )

# build_book DIR: mdBook builds site/ into DIR and the playground's release build (dist/) goes
# beside it as DIR/playground/.
build_book() {
  local out=${1%/}
  [ -f dist/index.html ] || { echo "site: no playground build in dist/ (the release build failed)"; return 1; }
  rm -rf "$out"
  mdbook build site --dest-dir "$(realpath -m "$out")" >&2 || { echo "site: mdbook build failed"; return 1; }
  cp -r dist "$out/playground"
}

# The book: built with the playground beside it, then site/check.mjs serves it under a sub-path
# and checks every page and embed in headless Chromium. Prints the check's "N passed, N failed".
site_test() {
  have_mdbook || { echo "site: mdBook $MDBOOK_VERSION is not installed"; return 1; }
  have_playwright || { echo "site: playwright-core $PLAYWRIGHT_VERSION is not installed"; return 1; }
  build_book site/book || return 1
  node site/check.mjs site/book
}

# ./dev.sh book [PORT]: builds the playground and the book, and serves the book on
# http://127.0.0.1:PORT/ (3000).
cmd_book() {
  local port=${1:-3000}
  need_web_tools mdbook
  say "trunk build --release into dist/"
  trunk_build release dist || die "build failed"
  build_book site/book || die "the book did not build"
  echo "rvlab book: http://127.0.0.1:$port/ (Ctrl-C stops it)"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory site/book
}

# ./dev.sh bench [--smoke] [--markdown]: every benchmark natively (rvlab-bench) and in headless
# Chromium (tests/bench_web.rs), plus page metrics of the release build (scripts/bench/page.mjs),
# joined by scripts/bench/table.mjs into issue 19's table (native, wasm, their ratio, the page
# figure, target, met?), then every scenario and the page metrics. --markdown prints the tables
# ready for the book (they are also written to target/bench/table.md; a full-size run rewrites
# site/src/project/performance.md).
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
  if trunk_build release "$dist"; then
    node scripts/bench/page.mjs "$dist" --objects="$objects" --runs="$runs" > "$out/page.txt" || status=1
    say "one and five embeds on a page, in the page and in frames (issue 34)"
    node scripts/bench/embeds.mjs "$dist" --runs="$runs" >> "$out/page.txt" || status=1
  else
    say "the release build failed: no page metrics"; status=1
  fi
  local title
  title="Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ { print $2 }') GB, load average $(cut -d' ' -f1-3 /proc/loadavg)), rustc $(rustc --version | cut -d' ' -f2), Chromium $(chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)"
  [ "$scale" != "1" ] && title="$title; SCALED sizes (RVLAB_BENCH_SCALE=$scale): not for the book"
  node scripts/bench/table.mjs --markdown --title="$title" "$out/native.txt" "$out/wasm.txt" "$out/page.txt" > "$CARGO_TARGET_DIR/table.md" || status=1
  # --markdown at full size also rewrites the book's performance page (between its markers).
  local page=""
  [ -n "$markdown" ] && [ "$scale" = "1" ] && page="--page=$ROOT/site/src/project/performance.md"
  node scripts/bench/table.mjs $markdown $page --title="$title" "$out/native.txt" "$out/wasm.txt" "$out/page.txt" || status=1
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
  trunk_build debug "$dist" || die "the build failed"
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
  node tests/page/flow.mjs "$dist" --shots "$out/flow" >/dev/null || { say "FAILED: tests/page/flow.mjs (shots/flow)"; status=1; }
  echo "screenshots in $out"
  return "$status"
}

# ./dev.sh soak [SECONDS] [--record]: rvlab serve (HTTPS, release build, loopback only) under
# load, faults and hostile clients for SECONDS (60) of wall time plus a drain: kubectl watches,
# the Python client's watch loop, client-node's informer and the kube-rs controller, 200 raw
# watches (10 deliberately slow) and 20 writers, apiserver restarts, a lagging second
# apiserver, `network watch-delay`, compaction every 3 s, watches dropped from either side,
# half-open and hostile connections. Every watch and every client's cache is checked against
# what the writers wrote (src/bin/rvlab-soak/main.rs). Prints the report (one JSON object) and
# exits non-zero when a check failed. --record writes the report (passing or not) to
# site/src/data/soak.json and renders site/src/project/soak.md from it. `./dev.sh test` runs a
# 60 s soak as its own phase (soak_ci); `tests/soak.rs` runs a short version.
cmd_soak() {
  local seconds=60 record=0 a
  for a in "$@"; do
    case "$a" in
      --record) record=1 ;;
      *) [[ "$a" =~ ^[0-9]+$ ]] || die "soak takes SECONDS and --record, not $a"; seconds=$a ;;
    esac
  done
  need_rust
  soak_clients || die "installing the Python client or client-node failed"
  say "building rvlab, rvlab-soak and the kube-rs controller (release)"
  local bins=(--bin rvlab --bin rvlab-soak --example controller)
  cargo build --offline --release "${bins[@]}" >&2 \
    || { cargo fetch >&2 && cargo build --offline --release "${bins[@]}" >&2; } || die "build failed"
  local dir="${CARGO_TARGET_DIR:-$ROOT/target}/release" out status=0
  out=$(mktemp)
  say "soak: ${seconds}s, real clients, 200 watches, 20 writers, faults, hostile clients"
  "$dir/rvlab-soak" --seconds "$seconds" --require-clients --server "$dir/rvlab" \
    --controller "$dir/examples/controller" > "$out" || status=$?
  cat "$out"
  if [ "$record" -eq 1 ]; then
    # A failed check is recorded too: the page lists it.
    python3 -m json.tool "$out" > site/src/data/soak.json || die "writing site/src/data/soak.json failed"
    "$dir/rvlab-soak" --render-page site/src/data/soak.json > site/src/project/soak.md || die "rendering the page failed"
    say "wrote site/src/data/soak.json and site/src/project/soak.md"
  fi
  rm -f "$out"
  return "$status"
}

# The real clients the soak drives: kubectl on PATH, the Python client and client-node in the
# tool cache (installed when missing).
soak_clients() {
  command -v kubectl >/dev/null || { echo "kubectl is not on PATH (see site/src/reference/serve.md, 'Tested with real clients')" >&2; return 1; }
  need_python_client >&2 && need_client_node >&2
}

# The 60 s soak of `./dev.sh test`: the test build (debug, already built by the native tests),
# every real client required, a smaller raw load than the release run so that the unoptimised
# server keeps up. Its memory is judged: 5 s after the clients left, the server's resident size
# is within 10% of its size 20 s before the load ended (after 40 s: the watch cache's window is
# then near its steady size; the log is on disk and only the latest ended watches are kept, see
# site/src/project/soak.md).
soak_ci() {
  soak_clients || return 1
  cargo build --offline --quiet --bin rvlab --bin rvlab-soak --example controller || return 1
  local dir="${CARGO_TARGET_DIR:-$ROOT/target}/debug"
  "$dir/rvlab-soak" --seconds 60 --require-clients --server "$dir/rvlab" \
    --controller "$dir/examples/controller" --watches 60 --writers 8 --slow 4 --memory judge
}

# ./dev.sh recovery: runs tests/recovery.rs writing its data (site/src/data/recovery/: each
# library's requests under each fault and its recorded session), then renders the chapter
# site/src/concepts/client-libraries.md from that data. `./dev.sh test` runs the same test
# without writing: the committed chapter must be the rendering, the live runs the same shapes.
cmd_recovery() {
  need_rust
  need_python_client
  need_client_node
  say "client libraries under five faults (writing site/src/data/recovery/)"
  rm -f "$ROOT"/site/src/data/recovery/*.json "$ROOT"/site/src/data/recovery/*.rv
  RVLAB_WRITE_RECOVERY=1 RVLAB_CLIENT_NODE="$CLIENT_NODE_DIR" cargo test --offline --test recovery >&2 || die "a recovery run failed"
  say "rendering site/src/concepts/client-libraries.md"
  RVLAB_WRITE_RECOVERY=chapter cargo test --offline --test recovery the_chapter >&2 || die "rendering failed"
}

case "${1:-}" in
  serve) shift; cmd_serve "$@" ;;
  book) shift; cmd_book "$@" ;;
  build) shift; cmd_build "$@" ;;
  test) cmd_test ;;
  bench) shift; cmd_bench "$@" ;;
  shots) cmd_shots ;;
  soak) shift; cmd_soak "$@" ;;
  recovery) cmd_recovery ;;
  *) echo "usage: ./dev.sh serve [TRUNK FLAGS] | build [DIR] | test | book [PORT] | bench [--smoke] [--markdown] | shots | soak [SECONDS] [--record] | recovery" >&2; exit 2 ;;
esac
