"""Steps 1 and 2 of docs/operations.md, "Putting a new casino in service", run as written: the
database and its two roles, migrate as the owner, the application's rights given by the page's
SQL; then the application, running as the role that owns nothing, makes the first director, a
table, a table chief and opens a séance, and can neither remove an audit event, empty the
record nor turn its guards off."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

pytestmark = pytest.mark.slow

ROOT = Path(settings.BASE_DIR)
SECTION = "### Putting a new casino in service"


def _sql_blocks() -> list[str]:
    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    section = doc[doc.index(SECTION) :].split("\n### ", 1)[0]
    return [
        re.sub(r"^ {3}", "", block, flags=re.M) for block in re.findall(r"```sql\n(.*?)```", section, re.S)
    ]


def _manage(*args: str, url: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": url, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def test_the_application_runs_as_a_role_that_owns_nothing() -> None:
    server = settings.DATABASES["default"]
    admin_url = f"postgres://{server['USER']}@{server['HOST'] or '127.0.0.1'}:{server['PORT'] or 5432}"
    if server.get("PASSWORD"):
        admin_url = admin_url.replace("@", f":{server['PASSWORD']}@", 1)
    suffix = uuid.uuid4().hex[:8]
    owner, app, name = f"casino_owner_{suffix}", f"casino_app_{suffix}", f"casino_{suffix}"
    host = f"{server['HOST'] or '127.0.0.1'}:{server['PORT'] or 5432}"
    owner_url, app_url = f"postgres://{owner}:pw@{host}/{name}", f"postgres://{app}:pw@{host}/{name}"

    def ours(sql: str) -> str:
        sql = sql.replace("casino_owner", owner).replace("casino_app", app).replace("'…'", "'pw'")
        return sql.replace("CREATE DATABASE casino ", f"CREATE DATABASE {name} ")

    create, grants = _sql_blocks()
    try:
        # 1. the database and its two roles, as the page writes them
        with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
            for statement in filter(str.strip, ours(create).split(";")):
                conn.execute(statement)
        # 2. migrate as the owner, then the application's rights
        _manage("migrate", "--no-input", url=owner_url)
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute(ours(grants))
        # 3-7. the application as its own role: the director, a table, a table chief, a séance
        password = {"NEW_PASSWORD": "Une-phrase-de-passe-longue-42"}
        _manage(
            "add_staff",
            "jmarchal",
            "--role",
            "Directeur responsable",
            "--password-env",
            "NEW_PASSWORD",
            url=app_url,
            **password,
        )
        _manage("create_table", "--number", "1", "--code", "BJ01", "--user", "jmarchal", url=app_url)
        _manage(
            "add_staff",
            "lbernard",
            "--role",
            "Chef de table / croupier",
            "--by",
            "jmarchal",
            "--password-env",
            "NEW_PASSWORD",
            url=app_url,
            **password,
        )
        opened = _manage(
            "shell",
            "-c",
            "from decimal import Decimal as D; from django.contrib.auth.models import User;"
            "from house_books.services.casino import update_casino_settings;"
            "from tables.models import Table; from tables.services import open_session;"
            "d = User.objects.get(username='jmarchal');"
            "update_casino_settings(actor=d, name='Casino des Thermes', profile='FR', authorised_min_stake=D('5.00'));"
            "s = open_session(actor=d, table=Table.objects.get(code='BJ01'), minimum=D('10.00'), maximum=D('1000.00'),"
            " advance_amount=D('30000.00'), croupier=User.objects.get(username='lbernard'));"
            "print('séance', s.pk, s.status)",
            url=app_url,
        )
        assert "séance" in opened.stdout and "open" in opened.stdout
        _manage("verify_audit", "--no-witness", url=app_url)
        # the role owns nothing: no audit event removed, the record not emptied, no guard off
        with psycopg.connect(app_url, autocommit=True) as conn:
            for forbidden in (
                "DELETE FROM audit_event",
                "TRUNCATE audit_event",
                "ALTER TABLE audit_event DISABLE TRIGGER ALL",
                "DELETE FROM audit_checkpoint",
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(forbidden)
    finally:
        with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"DROP ROLE IF EXISTS {app}")
            conn.execute(f"DROP ROLE IF EXISTS {owner}")
