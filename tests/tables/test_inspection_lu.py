"""The tables' checks under the Luxembourg règlement (LU art. 10): a day over and never closed, a
day closed and left without the officer's visa (planted as in test_control_day.py, the books then
read under LU), a séance of an LU casino left open past its gaming day, an advance line unsigned
(as in test_inspection.py): each named with its LU article."""

from __future__ import annotations

from typing import Any

import pytest

from casino_ops.inspection import inspect
from tables import services
from tables.models import ControlDay
from tests.builders import books_read_under
from tests.tables.conftest import DAY
from tests.tables.test_control_day import _close_even

pytestmark = pytest.mark.django_db


def _named(check: str) -> list[Any]:
    return [b for b in inspect().breaches if b.check == check]


def test_lu_a_day_never_closed_then_never_stamped(staff: Any, open_session: Any, settings: Any) -> None:
    books_read_under("LU")
    [never_closed] = _named("tables.day_not_closed")
    assert never_closed.article == "LU art. 10" and "30/11/2026" in never_closed.object
    _close_even(staff, open_session)
    services.close_day(actor=staff["director"], day=DAY)
    assert not _named("tables.day_not_closed") and not _named("tables.day_not_stamped")
    settings.CONTROL_REGISTER_STAMP_DAYS = 0
    [unstamped] = _named("tables.day_not_stamped")
    assert unstamped.article == "LU art. 10" and "30/11/2026" in unstamped.object
    services.stamp_control_day(actor=staff["officer"], control_day=ControlDay.objects.get(day=DAY))
    assert not _named("tables.day_not_stamped")


@pytest.fixture
def lu_session(lu_casino: Any, staff: Any, table: Any) -> Any:
    """An LU séance of table BJ03 on DAY (over), its shoe assigned (LU art. 32 §3, 40), left open."""
    from decimal import Decimal

    from tests import builders

    builders.shoe_for(table, DAY, staff["director"])
    with builders.at_day(DAY):
        return services.open_session(
            actor=staff["director"],
            table=table,
            day=DAY,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("20000.00"),
            guarantee_fund=Decimal("25000.00"),
            croupier=staff["croupier"],
        )


def test_lu_a_seance_open_past_its_gaming_day(lu_session: Any) -> None:
    [breach] = _named("tables.session_past_gaming_day")
    assert breach.article == "LU art. 10" and "BJ03" in breach.object


def test_lu_an_advance_line_unsigned(staff: Any, lu_session: Any) -> None:
    from decimal import Decimal

    from tables.models import AdvanceEntry, EntryKind

    AdvanceEntry.objects.create(
        table=lu_session.table,
        line=99,
        session=lu_session,
        kind=EntryKind.FURTHER_ADVANCE,
        amount=Decimal("20000.00"),
        at=lu_session.opened_at,
        counted_by=staff["croupier"],
    )
    [breach] = _named("tables.entries_unsigned")
    assert breach.article == "LU art. 10" and "99" in breach.detail
