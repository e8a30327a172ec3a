#!/usr/bin/env bash
# Debian packages the project uses: "runtime" (WeasyPrint's libraries, fonts) or
# "test" (also poppler-utils and NSS tools to check signed PDFs, openssl for the
# exported checkpoints, procps for the worker tests, Chromium for
# browser tests). Installs only what is missing; needs root or sudo for that.
set -euo pipefail
what=${1:-test}
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
if [ "$what" = test ]; then
  packages+=(poppler-utils libnss3-tools openssl procps chromium chromium-driver)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
command -v apt-get >/dev/null || { echo "apt-get not found: install ${missing[*]} by hand" >&2; exit 1; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
