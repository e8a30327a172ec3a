#!/usr/bin/env bash
# Makes .venv when missing and installs a requirements file into it with uv (pinned below),
# which installs the pinned wheels in seconds where pip takes most of a minute; pip does it
# when uv cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9
PYTHON=${PYTHON:-python3}
requirements=${1:-requirements.txt}
# pip for .venv: its own, or else this Python's, pointed at it
venv_pip() {
  if .venv/bin/python -m pip --version >/dev/null 2>&1; then
    .venv/bin/python -m pip "$@"
  else
    "$PYTHON" -m pip --python .venv/bin/python "$@"
  fi
}
if [ ! -x .venv/bin/python ]; then
  # Without a pip of its own (ensurepip takes seconds) when this Python's pip can fill it.
  "$PYTHON" -m venv --without-pip .venv
  if ! "$PYTHON" -m pip --python .venv/bin/python --version >/dev/null 2>&1; then
    .venv/bin/python -m ensurepip --upgrade --default-pip >/dev/null
  fi
fi
if [ ! -x .venv/bin/uv ] || ! .venv/bin/uv --version 2>/dev/null | grep -q "^uv $UV_VERSION"; then
  venv_pip install --quiet "uv==$UV_VERSION" || true
fi
if [ -x .venv/bin/uv ] && .venv/bin/uv pip install --quiet --python .venv/bin/python -r "$requirements"; then
  exit 0
fi
echo "uv could not install $requirements: pip does" >&2
venv_pip install --quiet --upgrade pip
venv_pip install --quiet -r "$requirements"
