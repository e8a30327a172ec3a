"""Each bench of ``bench/`` run at a tiny size, as a process of its own, on its own databases
(``BENCH_DB_SUFFIX``: the test database's name, so that two runs never drop each other's): it
must exit 0, every check of its own work printed ``ok`` and none ``FAILED`` (bench/checks.py).
A bench whose procedure no longer matches the project (a refused act, a renamed field) fails
here instead of printing a figure for work it did not do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A bench test's marks (a module's ``pytestmark``) when the bench makes a database: slow, and
#: the run's migrated test database set up first, as for any test that uses it, since the
#: bench's database is a copy of it (:func:`template`). The order of the files reads it
#: (tests/support/scheduling.py): a file that needs no database may start while one is migrated.
BENCH_WITH_DATABASE = [pytest.mark.slow, pytest.mark.usefixtures("django_db_setup")]


def server_url() -> str:
    """The PostgreSQL server of the tests' database, its ``postgres`` database."""
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    return url.rsplit("/", 1)[0] + "/postgres"


def suffix() -> str:
    """The benches' databases are named after this test process's own database."""
    name = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test").rsplit("/", 1)[1]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"_{name}{'_' + worker if worker else ''}"


_TEMPLATE: dict[str, str] = {}  # the databases this process's benches are copies of


def _manage(database: str, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    env.update(
        DATABASE_URL=server_url().rsplit("/", 1)[0] + "/" + database,
        DJANGO_SETTINGS_MODULE="tests.settings",
        PYTHONPATH=str(ROOT),
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        drop_database(database)
        raise AssertionError((done.stdout + done.stderr)[-4000:])


def _create(name: str, template: str = "") -> None:
    import psycopg

    drop_database(name)
    with psycopg.connect(server_url().replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


def template(seeded: bool = False) -> str:
    """A database migrated once per test process (named after its own, ``BENCH_DB_SUFFIX``):
    each bench creates its own as a copy of it (``BENCH_DB_TEMPLATE``, bench/checks.py), so that
    its ``migrate`` has nothing left to apply; ``seeded``: a copy of it with the demo seeded
    (``BENCH_DB_TEMPLATE_SEEDED``), for the benches that seed it first thing. Dropped at the
    session's end (conftest.py)."""
    if "migrated" not in _TEMPLATE:
        name = "bench_template" + suffix()
        if not _copy_of_the_migrated_test_database(name):
            _create(name)
            _manage(name, "migrate", "-v0")
        _TEMPLATE["migrated"] = name
    if seeded and "seeded" not in _TEMPLATE:
        name = "bench_template_seeded" + suffix()
        _create(name, _TEMPLATE["migrated"])
        _manage(name, "seed_demo", "-v0")
        _TEMPLATE["seeded"] = name
    return _TEMPLATE["seeded" if seeded else "migrated"]


def _copy_of_the_migrated_test_database(name: str) -> bool:
    """Under pytest-xdist, the test database one worker migrated for the run is kept untouched
    for the others to copy (the root conftest.py, ``TEST_MIGRATED_DATABASE``): the benches'
    migrated database is a copy of it too, as migrate (of the same code, with the test settings)
    would have left it. False when there is none (a run without workers): migrate then."""
    import psycopg

    migrated = os.environ.get("TEST_MIGRATED_DATABASE")
    if not migrated:
        return False
    try:
        _create(name, migrated)
    except psycopg.Error:
        drop_database(name)
        return False
    return True


def drop_template() -> None:
    while _TEMPLATE:
        drop_database(_TEMPLATE.popitem()[1])


def run_bench(
    script: str, *args: str, timeout: float = 600, seeded: bool = False, database: bool = True, **environ: str
) -> str:
    """Run ``bench/<script>`` with ``args``; assert it exited 0 with its checks all ``ok``;
    return what it printed. ``seeded``: the bench seeds the demo first thing (the test settings),
    its database may be a copy of one seeded (``template(seeded=True)``); ``database=False``: the
    bench makes no database of its own (none is migrated for it)."""
    redis = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL"}}
    env.update(
        DATABASE_URL=server_url(),
        BENCH_DB_SUFFIX=suffix(),
        BENCH_REDIS_URL=redis,
        CELERY_BROKER_URL=redis,
        PYTHONPATH=str(ROOT),
    )
    if database:
        env["BENCH_DB_TEMPLATE"] = template()
    if seeded:
        env["BENCH_DB_TEMPLATE_SEEDED"] = template(seeded=True)
    env.update(environ)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    assert "check   : ok:" in done.stdout, out[-4000:]
    assert "FAILED" not in done.stdout, out[-4000:]
    return done.stdout


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(server_url().replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
