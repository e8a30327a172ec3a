"""The tables' demo data: sessions, advances, closings, a closed day, replayed hand logs with faults; a second seeding refused (--if-empty does nothing)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit.chain import verify_chain
from tables import selectors
from tables.models import AdvanceEntry, ControlDay, Discrepancy, HandLog, Replay, Session, Shoe
from tests.support.builders import gaming_day


def decks_issued_to_table(number, day):
    from cards_registry.models import IssueLine

    return set(
        IssueLine.objects.filter(issue__table_number=number, issue__day=day).values_list("deck_id", flat=True)
    )


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
    # a second seeding: nothing written into books in service (FR art. 68), --if-empty does nothing
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(CommandError, match="SEED_DATABASE_IN_SERVICE"):
            call_command("seed_demo", stdout=StringIO())
        call_command("seed_demo", "--if-empty", stdout=StringIO())
    assert _snapshot() == first
    yesterday = gaming_day() - dt.timedelta(days=1)
    register = selectors.control_register(yesterday)
    assert register["closed"] and len(register["tables"]) == 4
    assert any(line["is_correction"] for line in register["lines"])
    assert HandLog.objects.count() == Replay.objects.count() >= 10
    codes = set(Discrepancy.objects.values_list("code", flat=True))
    assert {"SETTLEMENT_MISMATCH", "ILLEGAL_DOUBLE", "BET_BELOW_MIN", "LIMITS_MISMATCH"} <= codes
    assert Session.objects.filter(day=gaming_day(), status="open").count() == 2
    # every hand log comes from a shoe of decks the depot issued to its table for its day
    assert not HandLog.objects.filter(shoe__isnull=True).exists()
    assert Shoe.objects.count() == HandLog.objects.count()
    played = Session.objects.exclude(hand_logs=None) | Session.objects.exclude(result=None).exclude(result=0)
    assert not played.filter(shoes=None).exists()
    for shoe in Shoe.objects.select_related("session__table"):
        issued = decks_issued_to_table(shoe.session.table.number, shoe.session.day)
        assert set(shoe.decks.values_list("deck_id", flat=True)) <= issued
    assert selectors.dealer_error_summary(by="table")[0]["rounds"] > 0
    assert verify_chain().ok
