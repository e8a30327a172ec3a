#!/usr/bin/env bash
# Quick start: a virtual environment, the demo casino on SQLite, tasks in-process,
# the admin on http://127.0.0.1:8000/admin/ (HOST and PORT change the address).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install.sh requirements.txt
scripts/system-deps.sh runtime || echo "warning: could not install the PDF libraries; registers will not render" >&2

export DEBUG="${DEBUG:-1}"
# Static files collected and served by WhiteNoise, compressed and cached, as in production.
export STATIC_MANIFEST="${STATIC_MANIFEST:-1}"
unset DATABASE_URL CELERY_BROKER_URL
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
mkdir -p var
# Registers and checkpoints are signed: without a configured certificate the
# demo makes its own (a demo CA and signer under var/dev-certificate/).
if [ -z "${SIGNING_PKCS12:-}" ]; then
  if [ ! -f var/signing.env ]; then
    .venv/bin/python manage.py make_dev_certificate --out var/dev-certificate > var/signing.env
  fi
  set -a; . var/signing.env; set +a
fi
# Every audit event carries an HMAC keyed by a secret the database never holds:
# the demo makes its own key under var/ (production sets AUDIT_EVENT_KEY).
if [ -z "${AUDIT_EVENT_KEY:-}" ]; then
  if [ ! -f var/audit-key.env ]; then
    (umask 077; .venv/bin/python -c 'import secrets; print("AUDIT_EVENT_KEY=" + secrets.token_hex(32))' > var/audit-key.env)
  fi
  set -a; . var/audit-key.env; set +a
fi
# Officers are enrolled by their authority: the demo makes a demo authority under
# var/dev-authority/ (its key is demo only: a real authority keeps it on its own machine and
# gives the casino its certificate), which enrols the demo officer with the published demo
# software passkey; OFFICER_DEMO_PASSKEY lets him sign with it from the browser (docs/officers.md).
if [ -z "${OFFICER_AUTHORITY_CERTIFICATE:-}" ]; then
  if [ ! -f var/authority.env ]; then
    .venv/bin/python manage.py make_dev_authority --out var/dev-authority > var/authority.env
  fi
  set -a; . var/authority.env; set +a
fi
export OFFICER_DEMO_PASSKEY="${OFFICER_DEMO_PASSKEY:-1}"
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py seed_demo --if-empty
.venv/bin/python manage.py collectstatic --noinput --verbosity 0
echo "Serving the admin on http://$HOST:$PORT/admin/ and the officers' portal on http://$HOST:$PORT/inspection/ (Ctrl-C to stop)"
exec .venv/bin/python manage.py runserver --nostatic "$HOST:$PORT"
