"""The server says when the sealer is late: ``/health/`` answers 503 naming the oldest event
waiting to be sealed once it has waited longer than ``AUDIT_SEALING_LATE_AFTER`` seconds (the
sealer stopped, or cut from the database), 200 otherwise."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from audit.actions import Action
from audit.chain import run_sealer, seal_pending
from audit.chain.seal import INSERT_SQL
from audit.models import AuditEvent
from tests.support.tampering import record_events


@pytest.mark.django_db
def test_health_says_when_events_wait_to_be_sealed_too_long(settings: Any) -> None:
    settings.AUDIT_SEALING = "sealer"
    settings.AUDIT_SEALING_LATE_AFTER = 60
    response = Client().get("/health/")
    assert response.status_code == 200 and response.json()["status"] == "ok"
    record_events(2)
    assert AuditEvent.objects.filter(seq__isnull=True).count() == 2
    assert Client().get("/health/").status_code == 200  # just recorded: the sealer has time
    with connection.cursor() as cursor:  # as if the sealer had been stopped five minutes ago
        cursor.execute("ALTER TABLE audit_event DISABLE TRIGGER USER")
        cursor.execute("UPDATE audit_event SET recorded_at = recorded_at - interval '5 minutes'")
        for name in ("guard_insert", "guard_rows", "guard_delete", "guard_truncate"):
            cursor.execute(f"ALTER TABLE audit_event ENABLE ALWAYS TRIGGER audit_event_{name}")
    response = Client().get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "sealing_late" and body["waiting"] == 2 and body["oldest_seconds"] >= 300
    assert dt.datetime.fromisoformat(body["oldest"])


@pytest.mark.django_db(transaction=True)
def test_a_forged_event_reported_by_its_alarm_is_not_waiting(settings: Any) -> None:
    """An event whose MAC fails is never sealed: once the sealer has sealed its alarm
    (``audit.forged_event``), it no longer counts as waiting, neither for ``/health/`` nor for the
    sealer's own alarm at its next start."""
    settings.AUDIT_SEALING = "sealer"
    settings.AUDIT_SEALING_LATE_AFTER = 0.5
    with connection.cursor() as cursor:  # written without the application's key
        cursor.execute(
            INSERT_SQL, [timezone.now(), None, "system", "table.created", "t", "1", "{}", "f" * 64]
        )
    assert seal_pending() == 1  # the alarm, sealed in its place
    assert AuditEvent.objects.filter(action="audit.forged_event", seq__isnull=False).count() == 1
    time.sleep(1.0)
    assert AuditEvent.objects.filter(seq__isnull=True).count() == 1  # the forged event, for ever
    assert Client().get("/health/").status_code == 200
    stops = iter([False, True])
    run_sealer(lambda: next(stops), interval=0)
    assert not AuditEvent.objects.filter(action=Action.SEALING_INTERRUPTED).exists()
