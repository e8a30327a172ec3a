"""LU art. 8: a sum found is written in the carnet des orphelins at once; one entered late is
named by the self-inspection whatever the delay (not only within the last 31 days), on the
day it is entered as well as on the day it was found."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from house_books import services
from tables.clock import history_at
from tests.support.builders import gaming_day
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _named(day: dt.date | None = None) -> list[Any]:
    return breaches_of("house.orphan_entered_late", day)


def test_an_orphan_entered_forty_days_late_is_named(lu_casino: Any, committee: Any) -> None:
    found_on = timezone.localdate() - dt.timedelta(days=40)
    found_at = timezone.make_aware(dt.datetime.combine(found_on, dt.time(22)))
    with history_at(found_at + dt.timedelta(minutes=5)):  # written at once: nothing to say
        services.record_orphan(
            actor=committee, found_at=found_at, kind="floor", amount="5.00", description="Jeton à terre"
        )
    assert not _named()
    late = services.record_orphan(
        actor=committee, found_at=found_at, kind="floor", amount="10.00", description="Jeton oublié"
    )
    [breach] = _named()
    assert breach.article == "LU art. 8" and f"n° {late.number}" in breach.object
    # named the day it is entered, and on the day it was found
    assert len(_named(gaming_day())) == 1 and len(_named(found_on)) == 1
