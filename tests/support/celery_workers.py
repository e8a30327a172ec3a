"""A real Celery worker for the tests that queue registers: its environment (the test database,
the Redis broker, the signing settings of the test) and its process. Shared by the tests that
kill, restart or wait on a worker, so that each says only what differs (its pool, its settings)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from celery import Celery
from django.db import connection

from .processes import stop_process

ROOT = Path(__file__).resolve().parents[2]


def redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def worker_env(settings: Any, **extra: str) -> dict[str, str]:
    """The worker's environment: this test's database and broker, its signing certificate and
    media folder, and ``extra`` settings."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        "CELERY_BROKER_URL": redis_url(),
        "SIGNING_PKCS12": settings.SIGNING_PKCS12,
        "SIGNING_PKCS12_PASSWORD": settings.SIGNING_PKCS12_PASSWORD,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        **extra,
    }


def start_worker(
    env: dict[str, str], queue: str, log: Any, *, name: str = "", pool: tuple[str, ...] = ("-P", "solo")
) -> subprocess.Popen[bytes]:
    """A worker process on ``queue`` (``pool``: ``solo``, one process, by default), writing to
    ``log`` (an open file)."""
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("celery")), "-A", "casino_ops", "worker", *pool, "-Q", queue]
        + ["-n", f"{name or queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        + ["--loglevel=INFO"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=str(ROOT),
    )


@dataclass
class Worker:
    """A worker started by :func:`celery_worker`: its process, its queue, its log and a Celery
    app of its own that sends to it (the project's app stays current)."""

    process: subprocess.Popen[bytes]
    queue: str
    log: Path
    sender: Any

    def send(self, task: str, **options: Any) -> Any:
        return self.sender.send_task(task, queue=self.queue, **options)

    def log_tail(self) -> str:
        return self.log.read_text()[-3000:]


@contextmanager
def celery_worker(
    env: dict[str, str], tmp_path: Path, *, prefix: str = "registers", pool: tuple[str, ...] = ("-P", "solo")
) -> Iterator[Worker]:
    """A worker on a queue of its own (``prefix`` and a random suffix), logging to
    ``tmp_path/worker.log``; stopped and its queue deleted on leaving."""
    queue = f"{prefix}-{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "worker.log"
    with log_path.open("w") as log:
        process = start_worker(env, queue, log, pool=pool)
        sender = Celery(broker=redis_url(), set_as_current=False)
        try:
            yield Worker(process, queue, log_path, sender)
        finally:
            stop_process(process)
            with sender.connection_for_write() as conn:
                conn.default_channel.queue_delete(queue)
