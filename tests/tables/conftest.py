"""Fixtures of the tables' tests: tables, staff, sessions, and a real Celery worker on Redis."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from casino_ops import roles

DAY = dt.date(2026, 11, 30)


def at_day(day: dt.date, hour: int = 14) -> Any:
    """Acts written as if done on ``day`` at ``hour`` (a past gaming day for the tests' fixed dates)."""
    from tables.clock import history_at

    return history_at(dt.datetime.combine(day, dt.time(hour)))


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
def lu_casino(director: Any) -> Any:
    from casino_ops.services import update_casino_settings

    return update_casino_settings(
        actor=director, name="Casino LU", profile="LU", authorised_min_stake=Decimal("5.00")
    )


@pytest.fixture
def open_session(table: Any, staff: dict[str, Any]) -> Any:
    """An FR session of table BJ03: minimum 10, maximum 1,000, advance 30,000."""
    from tables.services import open_session

    with at_day(DAY):
        return open_session(
            actor=staff["director"],
            table=table,
            day=DAY,
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=staff["croupier"],
        )


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


@pytest.fixture
def depot_decks(casino: Any, staff: dict[str, Any]) -> list[Any]:
    """Two sixains (A1-1..6, A2-1..6; three blue and three red backs each) in the card depot's cabinet."""
    from django.utils import timezone

    from cards_registry import services as depot
    from cards_registry.models import Deck

    director, officer = staff["director"], staff["officer"]
    maker = depot.register_manufacturer(
        actor=director,
        code="GRIM",
        name="Cartes Grimaud",
        approval_reference="Agrément INT-2024-017",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2024, 1, 1),
        valid_until=None,
    )
    depot.hand_over_key(actor=director, receiver=director, reason="Ouverture du dépôt")
    order = depot.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=timezone.localdate(),
        lines=[
            {"quantity": 6, "unit": "deck", "back_colour": "bleu"},
            {"quantity": 6, "unit": "deck", "back_colour": "rouge"},
        ],
    )
    depot.stamp_order(actor=officer, order=order)
    depot.send_order(actor=director, order=order)
    sixains = [
        {
            "serial": f"S{p}",
            "decks": [
                {"serial": f"{p}-{i}", "back_colour": "bleu" if i <= 3 else "rouge"} for i in range(1, 7)
            ],
        }
        for p in ("A1", "A2")
    ]
    reception = depot.receive(
        actor=director, order=order, received_on=timezone.localdate(), sixains=sixains, delivery_note="BL 1"
    )
    return list(Deck.objects.filter(reception=reception).order_by("serial"))


@pytest.fixture
def today_session(table: Any, staff: dict[str, Any]) -> Any:
    """An FR session of BJ03 today (decks leave the depot only for the current day)."""
    from django.utils import timezone

    from tables.services import open_session

    with at_day(timezone.localdate()):
        return open_session(
            actor=staff["director"],
            table=table,
            day=timezone.localdate(),
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=staff["croupier"],
        )
