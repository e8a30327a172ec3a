"""The tables' demo data: sessions, advances, closings, a closed day, replayed hand logs with faults; idempotent."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from audit.chain import verify_chain
from tables import selectors
from tables.models import AdvanceEntry, ControlDay, Discrepancy, HandLog, Replay, Session, Shoe
from tests.builders import gaming_day


def _snapshot():
    return (
        list(Session.objects.order_by("id").values()),
        list(AdvanceEntry.objects.order_by("id").values()),
        list(HandLog.objects.order_by("id").values_list("sha256", flat=True)),
        Discrepancy.objects.count(),
        list(ControlDay.objects.values()),
    )


@pytest.mark.django_db
def test_demo_tables(demo, django_capture_on_commit_callbacks):
    first = _snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo")
    assert _snapshot() == first
    yesterday = gaming_day() - dt.timedelta(days=1)
    register = selectors.control_register(yesterday)
    assert register["closed"] and len(register["tables"]) == 4
    assert any(line["is_correction"] for line in register["lines"])
    assert HandLog.objects.count() == Replay.objects.count() >= 10
    codes = set(Discrepancy.objects.values_list("code", flat=True))
    assert {"SETTLEMENT_MISMATCH", "ILLEGAL_DOUBLE", "BET_BELOW_MIN", "LIMITS_MISMATCH"} <= codes
    assert Session.objects.filter(day=gaming_day(), status="open").count() == 2
    assert Shoe.objects.count() == 1 and Shoe.objects.get().hand_logs.count() == 1
    assert selectors.dealer_error_summary(by="table")[0]["rounds"] > 0
    assert verify_chain().ok
