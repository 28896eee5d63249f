#!/bin/sh
# Trunk post_build hook (Trunk.toml [[hooks]]): writes this build's content-hashed file names
# (the app's ES module, its wasm and the stylesheet; the console embed's module and wasm) into
# the staged rv-playground.js, so an <rv-playground render="page"> element imports the modules
# itself (one download and one compile for every embed of a page) without fetching index.html
# to learn the names. Trunk names the console embed's module (built as a "worker") without a
# hash: it is renamed here by its content's, so no host serves a stale one. The staged
# rv-playground.js also loses its comments (whole comment lines only; the source keeps them):
# a documentation page downloads it with every embed.
# Fails the build when the names are not found exactly once or the marker line is missing.
set -eu
dir=${TRUNK_STAGING_DIR:?run by Trunk as a post_build hook}
one() { # one GLOB-PATTERN: the single staged file matching it, as a relative name
  set -- "$dir"/$1
  [ "$#" -eq 1 ] && [ -f "$1" ] || { echo "embed-names.sh: expected one file for $1 in $dir" >&2; exit 1; }
  basename "$1"
}
module=$(one 'rvlab-web-*[!g].js')
wasm=$(one 'rvlab-web-*_bg.wasm')
css=$(one 'style-*.css')
one 'rvlab-embed.js' > /dev/null
one 'rvlab-embed_bg.wasm' > /dev/null
hash=$(cat "$dir/rvlab-embed.js" "$dir/rvlab-embed_bg.wasm" | sha256sum | cut -c1-16)
case $hash in
  *[!0-9a-f]* | "") echo "embed-names.sh: no content hash of the console module (is sha256sum installed?)" >&2; exit 1 ;;
esac
[ "${#hash}" -eq 16 ] || { echo "embed-names.sh: the content hash '$hash' is not 16 hex digits" >&2; exit 1; }
cmodule=rvlab-embed-$hash.js
cwasm=rvlab-embed-${hash}_bg.wasm
mv "$dir/rvlab-embed.js" "$dir/$cmodule"
mv "$dir/rvlab-embed_bg.wasm" "$dir/$cwasm"
js=$dir/rv-playground.js
marker='var BUILD = null; // rvlab:build'
grep -qF "$marker" "$js" || { echo "embed-names.sh: no '$marker' line in $js" >&2; exit 1; }
line="var BUILD = { module: \"./$module\", wasm: \"./$wasm\", css: \"./$css\", console: { module: \"./$cmodule\", wasm: \"./$cwasm\" } }; // rvlab:build"
tmp=$js.tmp
# Lines that are only a comment (// …, or the lines of a /* … */ block that starts a line) go.
# A block that ends mid-line (code after its */) stops the build: only whole lines are dropped.
awk -v marker="  $marker" -v line="  $line" '
  $0 == marker { print line; next }
  block {
    if ($0 ~ /\*\//) {
      if ($0 !~ /\*\/[ \t]*$/) { print "embed-names.sh: rv-playground.js line " NR ": code after a comment block" > "/dev/stderr"; bad = 1; exit 1 }
      block = 0
    }
    next
  }
  /^[ \t]*\/\*/ {
    if ($0 ~ /\*\/[ \t]*$/) next
    if ($0 ~ /\*\//) { print "embed-names.sh: rv-playground.js line " NR ": code after a comment" > "/dev/stderr"; bad = 1; exit 1 }
    block = 1; next
  }
  /^[ \t]*\/\// { next }
  { print }
  END { if (bad) exit 1 }
' "$js" > "$tmp"
mv "$tmp" "$js"
grep -qF "$line" "$js" || { echo "embed-names.sh: the marker line must be indented by two spaces" >&2; exit 1; }
