#!/usr/bin/env bash
# Install the Debian packages the project needs, only those that are missing.
# Usage: tools/ensure_system.sh PKG...
# As root: runs `apt-get update` once and installs what is missing.
# Not root: prints the exact apt-get line to run and exits 1.
set -euo pipefail

missing=()
for pkg in "$@"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: missing system packages: ${missing[*]}" >&2
  echo "run as root:  $line" >&2
  exit 1
fi

echo ">> installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
