#!/usr/bin/env bash
# Quick start: a virtual environment, the demo casino on SQLite, tasks in-process,
# the admin on http://127.0.0.1:8000/admin/.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r requirements.txt
scripts/system-deps.sh runtime || echo "warning: could not install the PDF libraries; registers will not render" >&2

export DEBUG="${DEBUG:-1}"
unset DATABASE_URL CELERY_BROKER_URL
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo
echo "Serving the admin on http://127.0.0.1:8000/admin/ (Ctrl-C to stop)"
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
