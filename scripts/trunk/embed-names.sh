#!/bin/sh
# Trunk post_build hook (Trunk.toml [[hooks]]): writes this build's content-hashed file names
# (wasm-bindgen's ES module, the wasm, the stylesheet) into the staged rv-playground.js, so a
# <rv-playground render="page"> element imports the app's module itself (one download and one
# compile for every embed of a page) without fetching index.html to learn the names.
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
js=$dir/rv-playground.js
marker='var BUILD = null; // rvlab:build'
grep -qF "$marker" "$js" || { echo "embed-names.sh: no '$marker' line in $js" >&2; exit 1; }
line="var BUILD = { module: \"./$module\", wasm: \"./$wasm\", css: \"./$css\" }; // rvlab:build"
tmp=$js.tmp
while IFS= read -r l || [ -n "$l" ]; do
  if [ "$l" = "  $marker" ]; then printf '  %s\n' "$line"; else printf '%s\n' "$l"; fi
done < "$js" > "$tmp"
mv "$tmp" "$js"
grep -qF "$line" "$js" || { echo "embed-names.sh: the marker line must be indented by two spaces" >&2; exit 1; }
