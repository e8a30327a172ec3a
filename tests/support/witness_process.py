"""The authority's witness as a real process, for the tests that talk to it over HTTP.

``witness_server`` (module scope): a PostgreSQL database of its own (the test database's
name with ``_witness``), migrated by ``python -m witness migrate``, and gunicorn serving
``witness.wsgi`` on a free port; stopped and dropped at the end. ``stop()`` and ``start()``
take it down and up again (a witness down, a witness restored from a backup).
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from audit.merkle import Tree, leaf_hash, root_of
from tests.support.ports import free_port
from tlog import checkpoint as checkpoints
from tlog import note as notes
from tlog.witness import AddCheckpoint

ROOT = Path(__file__).resolve().parents[2]


def _admin_dsn() -> dict[str, Any]:
    db = settings.DATABASES["default"]
    return {
        "host": db.get("HOST") or "127.0.0.1",
        "port": db.get("PORT") or 5432,
        "user": db.get("USER") or "postgres",
        "password": db.get("PASSWORD") or None,
        "dbname": "postgres",
        "autocommit": True,
    }


class WitnessServer:
    def __init__(self, name: str) -> None:
        self.db = name
        self.key = notes.Signer.generate("witness.authority.example/" + name[-12:], notes.COSIGNATURE_V1)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        dsn = _admin_dsn()
        auth = f"{dsn['user']}" + (f":{dsn['password']}" if dsn["password"] else "")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "witness.settings",
            "WITNESS_DATABASE_URL": f"postgres://{auth}@{dsn['host']}:{dsn['port']}/{name}",
            "WITNESS_SECRET_KEY": "test-witness-secret",
            "WITNESS_KEY": self.key.skey,
            "WITNESS_SECURE_COOKIES": "0",
        }

    @property
    def vkey(self) -> str:
        return self.key.verifier.vkey

    def manage(self, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "witness", *args],
            cwd=ROOT,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            check=check,
        )

    def create(self) -> None:
        with psycopg.connect(**_admin_dsn()) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.db}"')
        self.manage("migrate", "-v0")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--threads",
                "4",
            ]
            + ["--log-level", "warning", "witness.wsgi"],
            cwd=ROOT,
            env=self.env,
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/0/checkpoint", timeout=1)
            except urllib.error.HTTPError:
                return  # 404: it answers
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the witness did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)
            self.process = None

    def drop(self) -> None:
        with psycopg.connect(**_admin_dsn()) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')

    def backup(self, name: str) -> None:
        """A copy of the witness's database as it stands (the witness stopped meanwhile)."""
        with psycopg.connect(**_admin_dsn()) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.db}"')

    def restore(self, name: str) -> None:
        """The witness's database replaced by a backup (the witness stopped meanwhile)."""
        with psycopg.connect(**_admin_dsn()) as conn:
            conn.execute(f'DROP DATABASE "{self.db}" WITH (FORCE)')
            conn.execute(f'ALTER DATABASE "{name}" RENAME TO "{self.db}"')

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        dsn = {**_admin_dsn(), "dbname": self.db}
        with psycopg.connect(**dsn) as conn:
            return conn.execute(query, params).fetchall()

    def add_log(self, *vkeys: str, name: str = "") -> None:
        """The casino's log, as ``python -m witness witness_add_log`` adds it (its own test)."""
        self.sql(
            "INSERT INTO witness_log (origin, name, vkeys, size, root, checkpoint, added_at) "
            "VALUES (%s, %s, %s, 0, '', '', now()) RETURNING id",
            notes.parse_vkey(vkeys[0]).name,
            name,
            "\n".join(vkeys),
        )

    def post(self, body: bytes) -> tuple[int, str, str]:
        request = urllib.request.Request(self.url + "/add-checkpoint", data=body, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.read().decode(), answer.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers.get("Content-Type", "")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    @staticmethod
    def origin_hash(origin: str) -> str:
        return hashlib.sha256(origin.encode()).hexdigest()


def _witness(request: pytest.FixtureRequest, suffix: str) -> Iterator[WitnessServer]:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    base = str(settings.DATABASES["default"]["NAME"]).removeprefix("test_")
    server = WitnessServer(f"test_{base}_witness{suffix}_{worker}")
    server.create()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.drop()


@pytest.fixture(scope="module")
def witness_server(request: pytest.FixtureRequest) -> Iterator[WitnessServer]:
    yield from _witness(request, "")


@pytest.fixture(scope="module")
def second_witness_server(request: pytest.FixtureRequest) -> Iterator[WitnessServer]:
    yield from _witness(request, "2")


def checkpoint_note(django_capture_on_commit_callbacks: Any, n: int = 3) -> Any:
    """``n`` events more and the checkpoint made of them: its signed note (the CheckpointNote)."""
    from audit import notes as casino_notes
    from audit.checkpoints import make_checkpoint
    from tests.support.tampering import record_numbered_events

    record_numbered_events(n)
    with django_capture_on_commit_callbacks(execute=True):
        made = make_checkpoint()
    assert made is not None
    note = casino_notes.note_for(made)
    assert note is not None
    return note


class CasinoLog:
    """A log as a casino keeps it: leaves, its note key, checkpoints of any size."""

    def __init__(self, witness: WitnessServer, *, leaves: int = 0) -> None:
        self.origin = f"casino-{uuid.uuid4().hex[:8]}.example/audit"
        self.key = notes.Signer.generate(self.origin)
        self.leaves = [leaf_hash(f"{self.origin} {i}".encode()) for i in range(leaves)]
        witness.add_log(self.key.verifier.vkey, name="CasinoLog " + self.origin[7:15])

    def grow(self, n: int) -> None:
        start = len(self.leaves)
        self.leaves += [leaf_hash(f"{self.origin} {i}".encode()) for i in range(start, start + n)]

    def checkpoint(
        self, size: int | None = None, *, root: bytes | None = None, key: notes.Signer | None = None
    ) -> str:
        size = len(self.leaves) if size is None else size
        head = checkpoints.Checkpoint(self.origin, size, root or root_of(self.leaves[:size]))
        return notes.sign(head.text, key or self.key)

    def request(self, old: int, size: int | None = None, **kwargs: object) -> bytes:
        size = len(self.leaves) if size is None else size
        tree = Tree(lambda keys: {}, lambda s, e: self.leaves[s:e], 2)
        proof = tree.consistency_proof(old, size) if 0 < old < size else []
        return AddCheckpoint(old, proof, self.checkpoint(size, **kwargs)).body  # type: ignore[arg-type]
