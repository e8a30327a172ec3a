"""A real Celery worker for the tests that queue registers: its environment (the test database,
the Redis broker, the signing settings of the test) and its process. Shared by the tests that
kill, restart or wait on a worker, so that each says only what differs (its pool, its settings)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.db import connection

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
