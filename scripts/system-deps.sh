#!/usr/bin/env bash
# Debian packages the project uses: "runtime" (WeasyPrint's libraries, fonts) or
# "test" (also poppler-utils and NSS tools to check signed PDFs, openssl for the
# exported checkpoints, procps for the worker tests, gettext to check the English
# catalogue, Chromium for browser tests, npm for axe-core, the accessibility checker
# the browser tests inject into every page). Installs only what is missing; needs root or sudo for that.
set -euo pipefail
what=${1:-test}
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
if [ "$what" = test ]; then
  packages+=(poppler-utils libnss3-tools openssl procps chromium chromium-driver gettext)
  command -v npm >/dev/null || packages+=(npm)
fi
# axe-core for the browser tests, from the npm registry at a pinned version, into
# test-output/ (ignored by git). tests/inspection/portal/test_browser.py pins the same version.
AXE_VERSION=4.14.1
install_axe() {
  [ "$what" = test ] || return 0
  local prefix
  prefix="$(cd "$(dirname "$0")/.." && pwd)/test-output/node-deps"
  [ -f "$prefix/node_modules/axe-core/axe.min.js" ] \
    && grep -q "\"version\": \"$AXE_VERSION\"" "$prefix/node_modules/axe-core/package.json" && return 0
  command -v npm >/dev/null || { echo "npm not found: axe-core not installed" >&2; return 0; }
  npm install --no-audit --no-fund --silent --prefix "$prefix" "axe-core@$AXE_VERSION" >/dev/null
}
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then install_axe; exit 0; fi
command -v apt-get >/dev/null || { echo "apt-get not found: install ${missing[*]} by hand" >&2; exit 1; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_axe
