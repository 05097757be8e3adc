#!/usr/bin/env bash
# Put the reveal.js files that `manim-slides convert --offline` needs into its cache,
# from the npm registry (no CDN). Usage: tools/reveal_assets.sh CACHE_HOME [VERSION]
set -euo pipefail
cache_home=${1:?usage: tools/reveal_assets.sh CACHE_HOME [VERSION]}
version=${2:-6.0.1}
dest="$cache_home/manim-slides/revealjs$version"
files=(dist/reveal.css dist/theme/black.css dist/plugin/highlight/zenburn.css
       dist/reveal.js dist/plugin/notes.js dist/plugin/markdown.js)
have_all=1
for f in "${files[@]}"; do [ -s "$dest/$(basename "$f")" ] || have_all=0; done
[ "$have_all" = 1 ] && exit 0
command -v npm >/dev/null || { echo "error: npm is missing: apt-get install npm" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "reveal.js@$version" --silent >/dev/null && tar xzf "reveal.js-$version.tgz")
mkdir -p "$dest"
for f in "${files[@]}"; do cp "$tmp/package/$f" "$dest/"; done
echo ">> reveal.js $version assets in $dest"
