"""The server says when the sealer is late: ``/health/`` answers 503 naming the oldest event
waiting to be sealed once it has waited longer than ``AUDIT_SEALING_LATE_AFTER`` seconds (the
sealer stopped, or cut from the database), 200 otherwise."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from audit.models import AuditEvent
from tests.audit.test_checkpoints import _record


@pytest.mark.django_db
def test_health_says_when_events_wait_to_be_sealed_too_long(settings: Any) -> None:
    settings.AUDIT_SEALING = "sealer"
    settings.AUDIT_SEALING_LATE_AFTER = 60
    response = Client().get("/health/")
    assert response.status_code == 200 and response.json()["status"] == "ok"
    _record(2)
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
