"""The quick start's SQLite keeps every guard: a migration that rebuilds a table (SQLite's
way to alter one) loses its triggers, and `migrate` puts them back (audit.apps)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# `manage.py migrate --noinput` as the quick start runs it, then the check, in one process: the
# check reads the file through a new connection, as another process would (Django starts once).
MIGRATE_THEN_CHECK = r"""
import json
from django.core.management import execute_from_command_line
execute_from_command_line(["manage.py", "migrate", "--noinput"])
from django.db import connection
connection.close()
from audit.books.guard import sqlite_guard_statements
from audit.books.registry import books
cursor = connection.cursor()
present = {r[0] for r in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()}
expected = [name for name, _ in sqlite_guard_statements(books())]
cursor.execute(
    "INSERT INTO audit_event (recorded_at, actor_name, action, object_type, object_id, payload, mac) "
    "VALUES ('2026-12-01 10:00:00', 'system', 'table.created', 't', '1', '{}', 'm')"
)
refused = {}
for sql in ("UPDATE audit_event SET payload = '{\"x\":1}'", "DELETE FROM audit_event",
            "UPDATE audit_event SET seq = 1, prev_hash = 'p', hash = 'h', sealed_at = '2026-12-01', payload = 'x'"):
    try:
        cursor.execute(sql)
        refused[sql] = None
    except Exception as exc:
        refused[sql] = str(exc)
print(json.dumps({"missing": sorted(set(expected) - present), "books": len(books()), "refused": refused}))
"""


def test_a_migrated_sqlite_database_holds_every_guard(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "AUDIT_SEALING"}}
    env.update(
        DEBUG="1",
        SECRET_KEY="x",
        DATABASE_URL=f"sqlite:///{tmp_path / 'quick.sqlite3'}",
        DJANGO_SETTINGS_MODULE="casino_ops.settings",
    )
    done = subprocess.run(
        [sys.executable, "-c", MIGRATE_THEN_CHECK],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Applying audit.0001_initial... OK" in done.stdout  # the migrations ran here
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["books"] >= 40
    assert found["missing"] == []
    for sql, error in found["refused"].items():
        assert error and "refused" in error, sql
