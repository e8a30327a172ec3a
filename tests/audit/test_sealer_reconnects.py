"""The sealer never stops silently: a lost connection (the server restarted, the backend
killed, the database refusing connections) is logged with its attempt count and retried with
a capped exponential back-off, never an exit; once sealing resumes after an interruption longer
than ``AUDIT_SEALING_LATE_AFTER`` (or the sealer finds events that waited longer), it seals an
alarm event ``audit.sealing_interrupted`` with the interruption's start, end and the events
that waited."""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

import audit
from audit.actions import Action
from audit.chain import run_sealer, verify_chain
from audit.chain.sealer import backoff
from audit.models import AuditEvent


@pytest.fixture
def sealer_mode(settings: Any) -> None:
    settings.AUDIT_SEALING = "sealer"


def _act(n: int, name: str = "thing") -> None:
    with transaction.atomic():
        for i in range(n):
            audit.record(actor=None, action=Action.TABLE_CREATED, object_type=f"test.{name}", object_id=i)


def _until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _waiting() -> int:
    return AuditEvent.objects.filter(seq__isnull=True).count()


class _SealerThread:
    """``run_sealer`` in a thread of its own: its own connection to the test database, as the
    command's process has; its backend's pid is read before each pass (no query)."""

    def __init__(self) -> None:
        self.stopping = False
        self.pids: list[int] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _before_pass(self) -> None:
        conn = connections["default"].connection
        if conn is not None and (not self.pids or self.pids[-1] != conn.info.backend_pid):
            self.pids.append(conn.info.backend_pid)

    def _run(self) -> None:
        try:
            run_sealer(lambda: self.stopping, interval=0.02, between_passes=self._before_pass)
        except BaseException as error:  # the test fails on it below
            self.error = error
        finally:
            connections.close_all()

    def __enter__(self) -> _SealerThread:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping = True
        self.thread.join(timeout=60)


def _admin() -> psycopg.Connection[Any]:
    """A connection of the server's administrator, to another database of the server (a
    database's own sessions cannot refuse connections to it)."""
    params = connection.get_connection_params()
    kept = {k: v for k, v in params.items() if k in {"user", "password", "host", "port"}}
    return psycopg.connect(**kept, dbname="postgres", autocommit=True)


@pytest.fixture
def admin() -> Iterator[psycopg.Connection[Any]]:
    conn = _admin()
    try:
        yield conn
    finally:
        conn.execute(f'ALTER DATABASE "{connection.settings_dict["NAME"]}" ALLOW_CONNECTIONS true')
        conn.close()


def test_the_back_off_doubles_from_half_a_second_to_thirty():
    assert [backoff(n) for n in range(1, 10)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]


@pytest.mark.django_db(transaction=True)
def test_a_killed_connection_is_logged_and_sealing_resumes_without_exiting(sealer_mode, admin, caplog):
    caplog.set_level(logging.WARNING, logger="audit.chain.sealer")
    with _SealerThread() as sealer:
        _act(3)
        _until(lambda: _waiting() == 0 and sealer.pids)
        admin.execute("SELECT pg_terminate_backend(%s)", [sealer.pids[-1]])
        _act(2)
        _until(lambda: _waiting() == 0 and len(sealer.pids) == 2)
        assert sealer.thread.is_alive() and sealer.error is None
    assert sealer.error is None
    assert not sealer.thread.is_alive()
    lost = [r for r in caplog.records if "connection to the database lost" in r.getMessage()]
    assert lost and "attempt 1" in lost[0].getMessage() and lost[0].levelno == logging.WARNING
    assert any("sealing resumed" in r.getMessage() for r in caplog.records)
    result = verify_chain()
    assert result.ok and result.events == 5 and result.pending == 0
    # a blink, far shorter than AUDIT_SEALING_LATE_AFTER: no alarm
    assert not AuditEvent.objects.filter(action=Action.SEALING_INTERRUPTED).exists()


@pytest.mark.django_db(transaction=True)
def test_an_interruption_longer_than_the_setting_seals_an_alarm(sealer_mode, settings, admin, caplog):
    settings.AUDIT_SEALING_LATE_AFTER = 1
    name = connection.settings_dict["NAME"]
    with _SealerThread() as sealer:
        _act(1)
        _until(lambda: _waiting() == 0 and sealer.pids)
        # the sealer cut from the database (its backend ended, new connections refused) while
        # the acts, already connected, go on recording
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(%s)", [sealer.pids[-1]])
        _act(4, "during")
        time.sleep(2.0)
        assert _waiting() == 4
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        _until(
            lambda: AuditEvent.objects.filter(action=Action.SEALING_INTERRUPTED, seq__isnull=False).exists()
        )
        assert sealer.thread.is_alive()
    assert sealer.error is None
    attempts = [r.getMessage() for r in caplog.records if "connection to the database lost" in r.getMessage()]
    assert len(attempts) >= 2 and "attempt 2" in attempts[1]
    alarm = AuditEvent.objects.get(action=Action.SEALING_INTERRUPTED)
    payload = json.loads(alarm.payload)
    started, ended = (dt.datetime.fromisoformat(payload[k]) for k in ("started_at", "ended_at"))
    # the interruption runs from the end of the sealer's last pass (which may end a moment
    # after its backend was cut) and covers every event that waited
    first_waiting = AuditEvent.objects.filter(object_type="test.during").order_by("id")[0].recorded_at
    assert started <= first_waiting and (ended - started).total_seconds() >= 2
    assert payload["waited"] == 4 and payload["failed_attempts"] >= 2
    assert alarm.actor_name == "system" and alarm.object_type == "audit.sealer"
    # sealed after the events that waited, in the chain like any act
    during = AuditEvent.objects.filter(object_type="test.during").values_list("seq", flat=True)
    assert max(during) < alarm.seq
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_events_that_waited_while_the_sealer_was_down_raise_the_alarm_at_its_start(sealer_mode, settings):
    settings.AUDIT_SEALING_LATE_AFTER = 0.5
    _act(3, "waited")  # no sealer runs
    oldest = AuditEvent.objects.order_by("id").values_list("recorded_at", flat=True).first()
    time.sleep(1.0)
    _act(1, "fresh")
    started = timezone.now()
    stops = iter([False, True])
    run_sealer(lambda: next(stops), interval=0)
    alarm = AuditEvent.objects.get(action=Action.SEALING_INTERRUPTED)
    payload = json.loads(alarm.payload)
    assert dt.datetime.fromisoformat(payload["started_at"]) == oldest
    assert dt.datetime.fromisoformat(payload["ended_at"]) >= started
    assert payload["waited"] == 4 and payload["failed_attempts"] == 0
    assert alarm.seq == 5 and verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_events_sealed_in_time_raise_no_alarm(sealer_mode, settings):
    settings.AUDIT_SEALING_LATE_AFTER = 60
    _act(2)
    time.sleep(0.5)
    stops = iter([False, True])
    run_sealer(lambda: next(stops), interval=0)
    assert AuditEvent.objects.filter(seq__isnull=False).count() == 2
    assert not AuditEvent.objects.filter(action=Action.SEALING_INTERRUPTED).exists()
