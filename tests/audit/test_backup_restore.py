"""Backups: a pg_dump of the demo restored into a fresh database verifies and inspects clean
(verify_audit and inspect_books exit 0 there, against the same witness), and a restore to an
older point, a dump made before the last witnessed checkpoint, is caught by the witness."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection, transaction

import audit
from audit.actions import Action
from audit.checkpoints import make_checkpoint

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _url(name: str) -> str:
    db = django_settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgresql://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@pytest.fixture
def restored_names() -> Iterator[list[str]]:
    """Databases restored by the test, named after the test database, dropped at the end."""
    names: list[str] = []
    yield names
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _dump(path: Path) -> None:
    name = django_settings.DATABASES["default"]["NAME"]
    subprocess.run(["pg_dump", "--format=custom", f"--file={path}", _url(name)], check=True, timeout=300)


def _restore(dump: Path, name: str, restored_names: list[str]) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    restored_names.append(name)
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={_url(name)}", str(dump)],
        check=True,
        timeout=300,
    )
    return _url(name)


def _manage(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """A command of the restored casino, run as an operator would, on the restored database."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": url,
        "AUDIT_WITNESS_DIR": django_settings.AUDIT_WITNESS_DIR,
        "SIGNING_PKCS12": django_settings.SIGNING_PKCS12,
        "SIGNING_PKCS12_PASSWORD": django_settings.SIGNING_PKCS12_PASSWORD,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_a_dump_of_the_demo_restores_clean_and_an_older_one_is_caught_by_the_witness(
    witness: Path, restored_names: list[str], tmp_path: Path
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail("pg_dump and pg_restore are needed (postgresql-client)")
    call_command("seed_demo", verbosity=0)
    make_checkpoint()
    older = tmp_path / "older.dump"
    _dump(older)
    # the casino goes on: more acts, a checkpoint witnessed after the older dump
    with transaction.atomic():
        for i in range(3):
            audit.record(
                actor=None, action=Action.TABLE_CREATED, object_type="test.thing", object_id=i, payload={}
            )
    later = make_checkpoint()
    assert later is not None and (witness / f"checkpoint-{later.number:010d}.json").exists()
    latest = tmp_path / "latest.dump"
    _dump(latest)

    base = django_settings.DATABASES["default"]["NAME"]
    url = _restore(latest, f"{base}_restored_{os.getpid()}", restored_names)
    for command in ("verify_audit", "inspect_books"):
        done = _manage(url, command)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
        if command == "verify_audit":
            assert "OK:" in done.stdout

    url = _restore(older, f"{base}_older_{os.getpid()}", restored_names)
    done = _manage(url, "verify_audit")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"point de contrôle témoin n° {later.number}" in done.stderr
    assert "la base de données ne le contient plus" in done.stderr
