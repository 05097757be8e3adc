#!/usr/bin/env bash
# Put the reveal.js files that `manim-slides convert --offline` needs into its cache,
# from the npm registry (no CDN). Usage: tools/reveal_assets.sh CACHE_HOME [VERSION]
set -euo pipefail
cache_home=${1:?usage: tools/reveal_assets.sh CACHE_HOME [VERSION]}
version=${2:-6.0.1}
bash "$(dirname "$0")/npm_files.sh" "$cache_home/manim-slides/revealjs$version" reveal.js "$version" \
  dist/reveal.css dist/theme/black.css dist/plugin/highlight/zenburn.css \
  dist/reveal.js dist/plugin/notes.js dist/plugin/markdown.js
