"""The clock never runs backwards unseen: an event recorded earlier than the event sealed before it,
beyond AUDIT_CLOCK_TOLERANCE, makes the sealing pass seal an alarm ``audit.clock_backwards`` in the
chain, once per incident (not once per event), shown on the officers' dashboard and by /health/
(FR art. 68; LU art. 10)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from audit.actions import Action
from audit.chain import format_time
from audit.models import AuditEvent

pytestmark = pytest.mark.django_db


def _alarms() -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=Action.CLOCK_BACKWARDS).order_by("id"))


def test_a_clock_moved_back_three_hours_seals_one_alarm(director: Any, casino: Any) -> None:
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    # a few seconds back (two writers a moment apart) raises nothing
    with time_machine.travel(timezone.now() - dt.timedelta(seconds=5), tick=False):
        create_table(actor=director, number=4, code="BJ04")
    assert _alarms() == []
    back = timezone.now() - dt.timedelta(hours=3)
    with time_machine.travel(back, tick=True):
        create_table(actor=director, number=5, code="BJ05")
        create_table(actor=director, number=6, code="BJ06")  # the same incident: no second alarm
    [alarm] = _alarms()
    late = AuditEvent.objects.get(action=Action.TABLE_CREATED, object_id=str(_table(5)))
    assert alarm.seq == late.seq + 1  # sealed in the chain just after the event it names
    said = json.loads(alarm.payload)
    assert said["event_id"] == late.id and said["behind_seconds"] >= 3 * 3600 - 60
    previous = AuditEvent.objects.get(seq=late.seq - 1)  # the event sealed before it
    assert previous.object_id == str(_table(4)) and said["latest"] == format_time(previous.recorded_at)
    # the clock put right, acts go on without alarm
    create_table(actor=director, number=7, code="BJ07")
    assert len(_alarms()) == 1
    # verify_audit names the incident once, the event that went back (not its alarm, nor the acts after)
    from audit.verification import verify

    problems = verify().chain.clock_problems
    assert len(problems) == 1 and problems[0].startswith(f"event {late.seq} recorded at")
    body = Client().get("/health/").json()
    assert body["clock_backwards"]["seq"] == alarm.seq
    assert body["clock_backwards"]["behind_seconds"] >= 3 * 3600 - 60


def test_health_says_nothing_of_a_clock_that_never_ran_back(director: Any, casino: Any) -> None:
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    body = Client().get("/health/").json()
    assert body == {"status": "ok"}


def test_the_sealer_raises_the_alarm_too(director: Any, casino: Any, settings: Any) -> None:
    """Sealer mode: the events wait for the sealer's pass, which raises the alarm."""
    from audit.chain import seal_pending
    from tables.services import create_table

    settings.AUDIT_SEALING = "sealer"
    create_table(actor=director, number=3, code="BJ03")
    seal_pending()
    with time_machine.travel(timezone.now() - dt.timedelta(hours=3), tick=True):
        create_table(actor=director, number=4, code="BJ04")
        create_table(actor=director, number=5, code="BJ05")
    seal_pending()
    assert len(_alarms()) == 1 and _alarms()[0].seq is not None


def test_the_dashboard_shows_the_alarm(director: Any, casino: Any, users: dict[str, Any]) -> None:
    from casino_ops import roles
    from tables.services import create_table
    from tests.support.clients import make_devices, signed_in

    create_table(actor=director, number=3, code="BJ03")
    with time_machine.travel(timezone.now() - dt.timedelta(hours=3), tick=True):
        create_table(actor=director, number=4, code="BJ04")
    [alarm] = _alarms()
    client = signed_in(users[roles.OFFICER], make_devices(users)[roles.OFFICER])
    page = client.get("/inspection/").content.decode()
    assert "Horloge du serveur revenue en arrière" in page and f"n° {alarm.seq}" in page


def _table(number: int) -> int:
    from tables.models import Table

    return Table.objects.get(number=number).pk
