"""The sealer survives a PostgreSQL restart: a private cluster (initdb and pg_ctl of the
installed server, on a free port, run as the ``postgres`` OS user when the tests run as root:
PostgreSQL refuses root) holds a copy of the test database's schema; ``manage.py audit_sealer``
runs on it as production runs it; events are written, the cluster is stopped for longer than
``AUDIT_SEALING_LATE_AFTER`` and started again, more events are written, and every event ends
up sealed by the same sealer process, with the alarm ``audit.sealing_interrupted`` sealed after
them. The cluster is stopped and removed whatever happens."""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError, connection, connections, transaction

import audit
from audit.actions import Action
from audit.chain import verify_chain
from audit.models import AuditEvent
from casino_ops.postgresql.base import DatabaseWrapper
from tests.support.ports import free_port
from tests.support.processes import stop_process

ROOT = Path(__file__).resolve().parents[2]
ALIAS = "private_cluster"

pytestmark = pytest.mark.slow


def _server_bin() -> Path | None:
    """The directory of the installed server's initdb and pg_ctl (the newest version)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


@dataclass
class Cluster:
    bin: Path
    data: Path
    port: int
    as_user: list[str]

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.data} "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=off -c shared_buffers=16MB"
        )
        self._pg_ctl("-l", str(self.data / "server.log"), "-w", "-t", "30", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        self._pg_ctl("-m", mode, "-w", "-t", "30", "stop")

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def psql(self, *args: str) -> None:
        subprocess.run(
            [str(self.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
             str(self.port), "-U", "postgres", *args],
            check=True,
            capture_output=True,
            timeout=60,
        )  # fmt: skip


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of the test's own, stopped and removed whatever happens."""
    server = _server_bin()
    if server is None or not (server / "initdb").exists():
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) installed to start a private cluster")
    as_user: list[str] = []
    owner = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: as the postgres OS user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("the tests run as root and there is no postgres OS user to run a cluster as")
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("the tests run as root and runuser is missing to run a cluster as postgres")
        as_user = [runuser, "-u", "postgres", "--"]
    top = Path(tempfile.mkdtemp(prefix="sealer-cluster-"))
    if owner is not None:
        os.chown(top, owner.pw_uid, owner.pw_gid)
    made = Cluster(server, top / "data", free_port(), as_user)
    try:
        subprocess.run(
            [*as_user, str(server / "initdb"), "-D", str(made.data), "-U", "postgres", "--auth=trust",
             "-E", "UTF8", "--locale=C", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=120,
        )  # fmt: skip
        made.start()
        yield made
    finally:
        try:
            made.stop("immediate")
        except (subprocess.SubprocessError, OSError):
            pass  # never started, or already stopped
        shutil.rmtree(top, ignore_errors=True)


def _copy_schema(cluster: Cluster, name: str) -> None:
    """The test database's schema (tables, indexes, the chain's guard triggers) in ``name``."""
    source = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": str(source.get("PASSWORD") or "")}
    dump = subprocess.run(
        [str(cluster.bin / "pg_dump"), "--schema-only", "--no-owner", "--no-privileges",
         "-h", str(source["HOST"] or "127.0.0.1"), "-p", str(source["PORT"] or 5432),
         "-U", str(source["USER"]), str(source["NAME"])],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    ).stdout  # fmt: skip
    schema = cluster.data.parent / "schema.sql"
    schema.write_bytes(dump)
    cluster.psql("-d", "postgres", "-c", f"CREATE DATABASE {name}")
    cluster.psql("-d", name, "-f", str(schema))


@pytest.fixture
def private_db(cluster: Cluster, db: Any, settings: Any) -> Iterator[str]:
    """The cluster's database as a connection of this process (``ALIAS``), sealer mode: a
    connection made here, outside the test databases (which Django keeps to the test's)."""
    settings.AUDIT_SEALING = "sealer"
    _copy_schema(cluster, "casino")
    private = {**connection.settings_dict, "NAME": "casino", "HOST": "127.0.0.1", "PORT": str(cluster.port)}
    connections[ALIAS] = DatabaseWrapper({**private, "USER": "postgres", "PASSWORD": ""}, alias=ALIAS)
    try:
        yield ALIAS
    finally:
        connections[ALIAS].close()
        del connections[ALIAS]


def _write(n: int, name: str) -> None:
    """``n`` acts' events committed in the cluster, retried while the server is starting."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with transaction.atomic(using=ALIAS):
                for i in range(n):
                    audit.record(
                        actor=None,
                        action=Action.TABLE_CREATED,
                        object_type=f"test.{name}",
                        object_id=i,
                        using=ALIAS,
                    )
            return
        except (OperationalError, InterfaceError):
            connections[ALIAS].close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _events() -> Any:
    return AuditEvent.objects.using(ALIAS)


def _sessions() -> int:
    """The sessions of the cluster's database but this process's."""
    with connections[ALIAS].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def _until(condition: Any, sealer: subprocess.Popen[Any], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert sealer.poll() is None, "the sealer exited"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_the_sealer_survives_a_postgresql_restart_and_seals_the_alarm(
    cluster: Cluster, private_db: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": cluster.url("casino"),
        "AUDIT_SEALING": "sealer",
        "AUDIT_SEALING_LATE_AFTER": "1",
        "LOG_LEVEL": "WARNING",
    }
    log = (tmp_path / "sealer.log").open("w+")
    sealer = subprocess.Popen(
        [sys.executable, "manage.py", "audit_sealer", "--interval", "0.05"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _until(lambda: _sessions() > 0, sealer)  # the sealer started (its own session open)
        _write(5, "before")
        _until(lambda: not _events().filter(seq__isnull=True).exists(), sealer)
        connections[ALIAS].close()
        cluster.stop()  # the sealer's connection ends with the server
        time.sleep(2.0)  # longer than AUDIT_SEALING_LATE_AFTER
        cluster.start()
        _write(5, "after")
        _until(
            lambda: _events().filter(action=Action.SEALING_INTERRUPTED, seq__isnull=False).exists(), sealer
        )
        _until(lambda: not _events().filter(seq__isnull=True).exists(), sealer)
        assert sealer.poll() is None  # the same process, never restarted
    finally:
        stop_process(sealer)
        log.seek(0)
        output = log.read()
        log.close()
    assert sealer.returncode == 0, output
    assert "connection to the database lost (attempt 1" in output
    assert "sealing resumed after" in output
    seqs = list(_events().order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 12))  # 10 acts and the alarm, none skipped
    alarm = _events().get(action=Action.SEALING_INTERRUPTED)
    assert alarm.seq > 5  # after the events sealed before the restart: one alarm, for the restart
    payload = json.loads(alarm.payload)
    assert payload["seconds"] >= 2 and payload["failed_attempts"] >= 1 and 0 <= payload["waited"] <= 5
    result = verify_chain(using=ALIAS, checkpoints=False)
    assert result.ok and result.events == 11 and result.pending == 0
