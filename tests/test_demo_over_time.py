"""Both demos obey their own rules: ``inspect_books`` finds nothing at seeding, and once time has
run (two days, forty days later, nothing more done) it names only the acts the casino's next
hours owe: the end of the demo's own gaming day, still in play when it was seeded (its decks and
shoes back, its séances closed, its discrepancies seen, its day closed), and, once the exercise
is over, the payment of the orphans' balance. Nothing the demo left pending turns into a breach:
no incident never closed, no entry never stamped, no fact of an authority never visaed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from casino_ops.checks import Breach, inspect
from house_books.checks import _OUTSIDE_HOURS
from tables.models import Session
from tests.support.builders import gaming_day

pytestmark = pytest.mark.django_db

# What the end of the demo's gaming day does (FR art. 40, 69, 72, 55-4; LU art. 7, 10, 32, 40)
END_OF_THE_DAY = {
    "depot.decks_out",
    "house.devices_missing",
    "tables.day_not_closed",
    "tables.discrepancy_not_acknowledged",
    "tables.session_past_gaming_day",
}


def _owed(breach: Breach, demo_day: dt.date, then: dt.datetime) -> bool:
    """Is ``breach`` an act the casino owes after the demo, not a rule the demo broke?"""
    if breach.check in END_OF_THE_DAY:
        return f"{demo_day:%d/%m/%Y}" in f"{breach.object} {breach.detail}"
    if breach.check == "house.session_outside_hours":  # LU art. 71: its séances in play, not yet closed
        still_open = str(_OUTSIDE_HOURS["open_late"])
        return breach.detail == still_open and f"{demo_day:%d/%m/%Y}" in breach.object
    if breach.check == "house.orphans_not_transferred":  # the year-end payment, once the year is over
        return then.year > demo_day.year and str(demo_day.year) in breach.object
    return False


def _inspect_over_time() -> None:
    assert [b.as_dict() for b in inspect().breaches] == []
    # the demo's own day: that of its last séances (the run may have seeded it before a roll-over)
    demo_day, seeded = Session.objects.latest("day").day, timezone.now()
    assert demo_day in (gaming_day(), gaming_day() - dt.timedelta(days=1))
    for days in (2, 40):
        then = seeded + dt.timedelta(days=days)
        with time_machine.travel(then, tick=False):
            found = inspect().breaches
            assert [b.as_dict() for b in found if not _owed(b, demo_day, then)] == [], f"{days} days later"
            # what the end of the day owes is named, with its article
            assert {b.check for b in found} >= {"depot.decks_out", "tables.day_not_closed"}


def test_the_fr_demo_inspects_clean_at_seeding_and_after_time_has_run(demo: Any) -> None:
    _inspect_over_time()


def test_the_lu_demo_inspects_clean_at_seeding_and_after_time_has_run(lu_demo: Any) -> None:
    _inspect_over_time()
