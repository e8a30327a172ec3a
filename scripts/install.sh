#!/usr/bin/env bash
# Installs a requirements file into .venv with uv (pinned below), which installs the pinned
# wheels in seconds where pip takes most of a minute; pip does it when uv cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9
requirements=${1:-requirements.txt}
if [ ! -x .venv/bin/uv ] || ! .venv/bin/uv --version 2>/dev/null | grep -q "^uv $UV_VERSION"; then
  .venv/bin/python -m pip install --quiet "uv==$UV_VERSION" || true
fi
if [ -x .venv/bin/uv ] && .venv/bin/uv pip install --quiet --python .venv/bin/python -r "$requirements"; then
  exit 0
fi
echo "uv could not install $requirements: pip does" >&2
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r "$requirements"
