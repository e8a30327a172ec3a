"""The control register's checks under the Luxembourg règlement (LU art. 10): a day over and never
closed, a day closed and left without the officer's visa, each planted as in its FR test
(test_control_day.py) and named with its LU article once the books are read under LU."""

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
