"""Fixtures of the tables' tests: tables, staff, sessions, and a real Celery worker on Redis."""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from casino_ops import roles
from tests.support import builders

DAY = dt.date(2026, 11, 30)


at_day = builders.at_day


@pytest.fixture
def staff(users: dict[str, Any]) -> dict[str, Any]:
    return {
        "director": users[roles.DIRECTOR],
        "committee": users[roles.COMMITTEE],
        "croupier": users[roles.CROUPIER],
        "cashier": users[roles.CASHIER],
        "officer": users[roles.OFFICER],
    }


@pytest.fixture
def table(casino: Any, director: Any) -> Any:
    from tables.services import create_table

    return create_table(actor=director, number=3, code="BJ03")


@pytest.fixture
def lu_casino(casino: Any, director: Any) -> Any:
    """The casino under the Luxembourg règlement, set before any act (the regulation is fixed from
    the books' first act, ``PROFILE_FIXED``): a test asks for it before its ``table``."""
    from house_books.services.casino import update_casino_settings

    return update_casino_settings(
        actor=director, name="Casino LU", profile="LU", authorised_min_stake=Decimal("5.00")
    )


@pytest.fixture
def open_session(table: Any, staff: dict[str, Any]) -> Any:
    """An FR session of table BJ03: minimum 10, maximum 1,000, advance 30,000, played: a shoe
    filled from a sixain the depot issued to the table for its day, the decks then brought
    back (so that a test may close it whenever it likes)."""
    session = builders.open_session(table, director=staff["director"], croupier=staff["croupier"], day=DAY)
    builders.shoe(session, croupier=staff["croupier"], hour=14)
    builders.return_decks(session, hour=14)
    return session


@pytest.fixture
def unplayed_session(table: Any, staff: dict[str, Any]) -> Any:
    """An FR session of table BJ03 with no shoe: no decks of the depot at the table."""
    return builders.open_session(table, director=staff["director"], croupier=staff["croupier"], day=DAY)


@pytest.fixture
def celery_worker_on_redis(settings: Any) -> Iterator[Any]:
    """A real Celery worker (threads, in this process, so it sees the test database) on the
    Redis of TEST_REDIS_URL. For transactional tests only."""
    from celery.contrib.testing.worker import start_worker

    from casino_ops.celery import app

    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    settings.CELERY_BROKER_URL = url
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    app.conf.update(broker_url=url, task_always_eager=False, result_backend="django-db")
    if app._pool is not None:  # connections made for another broker
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    from django.db import connections

    # the worker's threads open their own connections: closed after each task, so that
    # none is left on the test database when it is dropped
    max_age = connections.settings["default"].get("CONN_MAX_AGE", 0)
    connections.settings["default"]["CONN_MAX_AGE"] = 0
    try:
        with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=20):
            yield app
    finally:
        connections.settings["default"]["CONN_MAX_AGE"] = max_age
        app.conf.update(saved)


class FinishedTasks:
    """The tasks the worker has finished (Celery's ``task_postrun``), to wait on."""

    def __init__(self) -> None:
        self.done: list[tuple[str, tuple[Any, ...]]] = []
        self.changed = threading.Condition()

    def finished(self, task: Any = None, args: Any = None, **kwargs: Any) -> None:
        with self.changed:
            self.done.append((task.name, tuple(args or ())))
            self.changed.notify_all()

    def wait(self, task: Any, *args: Any, count: int = 1, timeout: float = 60) -> bool:
        """``task`` finished ``count`` times with ``args``, within ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: self.done.count((task.name, args)) >= count, timeout)


@pytest.fixture
def finished_tasks() -> Iterator[FinishedTasks]:
    from celery.signals import task_postrun

    tasks = FinishedTasks()
    task_postrun.connect(tasks.finished, weak=False)
    yield tasks
    task_postrun.disconnect(tasks.finished)


@pytest.fixture
def depot_decks(casino: Any, staff: dict[str, Any]) -> list[Any]:
    """Two sixains (A1-1..6, A2-1..6; three blue and three red backs each) in the card depot's cabinet."""
    return builders.depot_with_decks(staff["director"], staff["officer"], delivery_note="BL 1").decks


@pytest.fixture
def today_session(table: Any, staff: dict[str, Any]) -> Any:
    """An FR session of BJ03 today (decks leave the depot only for the current day)."""

    return builders.open_session(
        table, director=staff["director"], croupier=staff["croupier"], day=builders.gaming_day()
    )
