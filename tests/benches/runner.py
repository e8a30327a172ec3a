"""Each bench of ``bench/`` run at a tiny size, as a process of its own, on its own databases
(``BENCH_DB_SUFFIX``: the test database's name, so that two runs never drop each other's): it
must exit 0, every check of its own work printed ``ok`` and none ``FAILED`` (bench/checks.py).
A bench whose procedure no longer matches the project (a refused act, a renamed field) fails
here instead of printing a figure for work it did not do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def server_url() -> str:
    """The PostgreSQL server of the tests' database, its ``postgres`` database."""
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    return url.rsplit("/", 1)[0] + "/postgres"


def suffix() -> str:
    """The benches' databases are named after this test process's own database."""
    name = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test").rsplit("/", 1)[1]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"_{name}{'_' + worker if worker else ''}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_TEMPLATE: list[str] = []  # the migrated database this process's benches are copies of


def template() -> str:
    """A database migrated once per test process (named after its own, ``BENCH_DB_SUFFIX``):
    each bench creates its own as a copy of it (``BENCH_DB_TEMPLATE``, bench/checks.py), so that
    its ``migrate`` has nothing left to apply. Dropped at the session's end (conftest.py)."""
    if not _TEMPLATE:
        name = "bench_template" + suffix()
        drop_database(name)
        import psycopg

        with psycopg.connect(
            server_url().replace("postgres://", "postgresql://", 1), autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
        env.update(
            DATABASE_URL=server_url().rsplit("/", 1)[0] + "/" + name,
            DJANGO_SETTINGS_MODULE="tests.settings",
            PYTHONPATH=str(ROOT),
        )
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            drop_database(name)
            raise AssertionError((done.stdout + done.stderr)[-4000:])
        _TEMPLATE.append(name)
    return _TEMPLATE[0]


def drop_template() -> None:
    while _TEMPLATE:
        drop_database(_TEMPLATE.pop())


def run_bench(script: str, *args: str, timeout: float = 600, **environ: str) -> str:
    """Run ``bench/<script>`` with ``args``; assert it exited 0 with its checks all ``ok``;
    return what it printed."""
    redis = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL"}}
    env.update(
        DATABASE_URL=server_url(),
        BENCH_DB_SUFFIX=suffix(),
        BENCH_DB_TEMPLATE=template(),
        BENCH_REDIS_URL=redis,
        CELERY_BROKER_URL=redis,
        PYTHONPATH=str(ROOT),
    )
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
