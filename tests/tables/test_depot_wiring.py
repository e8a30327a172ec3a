"""The tables call the card depot: no session nor day closed while its decks are out."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from cards_registry import services as depot
from casino_ops.regulations import RegulationError
from tables import services
from tables.models import ControlDay, SessionStatus
from tests.depot_helpers import issue_and_check


def _close(staff, session):
    return services.close_session(
        actor=staff["director"],
        session=session,
        closing_cash=D("30000.00"),
        counted_by=staff["croupier"],
        certified_exact=True,
    )


@pytest.mark.django_db
def test_a_session_and_its_day_stay_open_while_the_tables_decks_are_out(staff, depot_decks, today_session):
    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    day, number = today_session.day, today_session.table.number
    issue_and_check(
        director=staff["director"], croupier=staff["croupier"], table_number=number, day=day, decks=a1
    )
    with pytest.raises(RegulationError) as info:
        _close(staff, today_session)
    err = info.value
    assert err.code == "DECKS_NOT_RETURNED" and err.article == "FR art. 40" and err.field == "session"
    assert "A1-1" in str(err)
    today_session.refresh_from_db()
    assert today_session.status == SessionStatus.OPEN
    # decks of another table out that day: this session may close, the day may not
    depot.return_decks(
        actor=staff["director"], table_number=number, day=day, results=[(d, "fit") for d in a1]
    )
    depot.issue_decks(
        actor=staff["director"], table_number=4, day=day, decks=a1, received_by=staff["croupier"]
    )
    _close(staff, today_session)
    with pytest.raises(RegulationError) as info:
        services.close_day(actor=staff["director"], day=day)
    assert info.value.code == "DECKS_NOT_RETURNED" and info.value.field == "day" and "A1-1" in str(info.value)
    assert not ControlDay.objects.filter(day=day, closed_at__isnull=False).exists()
    depot.return_decks(actor=staff["director"], table_number=4, day=day, results=[(d, "fit") for d in a1])
    assert services.close_day(actor=staff["director"], day=day).is_closed
