#!/usr/bin/env bash
# The whole test suite on PostgreSQL (psycopg 3) and Redis, with lint and the
# migrations check. Starts PostgreSQL and Redis where they are installed but
# stopped. The tests run on every core (pytest-xdist: one database and one Redis
# database per worker; TEST_WORKERS to choose how many). Extra arguments go to
# pytest. Prints its wall time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
STARTED=$SECONDS
report_time() { echo "scripts/test.sh: wall time $(( (SECONDS - STARTED) / 60 )) min $(( (SECONDS - STARTED) % 60 )) s"; }
trap report_time EXIT
# The suite starts many Python processes (manage.py commands, Celery workers, the quick
# start's fresh install): each compiles again every module it imports unless Python may keep
# the compiled bytecode beside the source, which an environment may forbid.
unset PYTHONDONTWRITEBYTECODE

scripts/system-deps.sh test
scripts/install.sh requirements-dev.txt

# Services: PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  fi
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi

export DJANGO_SETTINGS_MODULE=tests.settings
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/0}"

.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy and the migrations check (a dozen seconds on one core) run beside the tests; what they
# print is shown after them, and either failing fails the run.
checks=$(mktemp -d)
trap 'rm -rf "$checks"; report_time' EXIT
run_check() {
  local name=$1
  shift
  ( "$@" > "$checks/$name.out" 2>&1 && echo 0 > "$checks/$name.status" || echo 1 > "$checks/$name.status" ) &
}
# mypy keeps its cache with the user's caches, as uv does, not in the checkout: a new clone
# checks again only the modules whose source differs from what the cache recorded.
run_check mypy env MYPY_CACHE_DIR="${MYPY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/casino-compliance/mypy}" .venv/bin/mypy
run_check migrations .venv/bin/python manage.py makemigrations --check --dry-run
status=0
# Each file whole to one worker, the longest files first (tests/support/scheduling.py).
.venv/bin/python -m pytest -n "${TEST_WORKERS:-auto}" --dist loadfile --no-loadscope-reorder "$@" || status=$?
wait
for name in mypy migrations; do
  cat "$checks/$name.out"
  [ "$(cat "$checks/$name.status")" = 0 ] || { echo "scripts/test.sh: $name failed" >&2; status=1; }
done
exit "$status"
