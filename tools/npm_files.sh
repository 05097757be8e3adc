#!/usr/bin/env bash
# Copy the named files of one npm package, flat, into a folder, from the npm registry (npm pack: the package's own
# files only, none of its dependencies, nothing installed). Does nothing when every file is already there.
# Usage: tools/npm_files.sh DEST PACKAGE VERSION FILE...   (FILE: a path inside the package)
set -euo pipefail
usage="usage: tools/npm_files.sh DEST PACKAGE VERSION FILE..."
dest=${1:?$usage}
package=${2:?$usage}
version=${3:?$usage}
shift 3
[ "$#" -gt 0 ] || { echo "$usage" >&2; exit 2; }
have_all=1
for f in "$@"; do [ -s "$dest/$(basename "$f")" ] || have_all=0; done
[ "$have_all" = 1 ] && exit 0
command -v npm >/dev/null || { echo "error: npm is missing: apt-get install npm" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "$package@$version" --silent --fetch-timeout=60000 --fetch-retries=2 >/dev/null && tar xzf "$package-$version.tgz")
mkdir -p "$dest"
for f in "$@"; do cp "$tmp/package/$f" "$dest/"; done
echo ">> $package $version: $# file(s) in $dest"
