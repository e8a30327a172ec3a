"""The time at which the regulated acts are written: now.

Every act writes its entries at the moment it is done (FR art. 69; LU art. 10: "inscrite
séance tenante"); no form, API call or command can give another time. :func:`history_at`
exists for the demo data alone (``manage.py seed_demo`` writes the past days' books as they
would have been written then, the depot's decks issued to a séance's table included) and for
tests that need a fixed day; nothing that a user reaches calls it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import timezone

_AT: ContextVar[dt.datetime | None] = ContextVar("casino_history_at", default=None)


def now() -> dt.datetime:
    return _AT.get() or timezone.now()


def today() -> dt.date:
    """The calendar date of :func:`now` in the casino's time zone."""
    return timezone.localdate(now())


def gaming_date(moment: dt.datetime, rollover: dt.time = dt.time(6, 0)) -> dt.date:
    """The gaming day of ``moment`` under a roll-over hour: before it, the evening's day before."""
    local = timezone.localtime(moment)
    return local.date() - dt.timedelta(days=1) if local.time() < rollover else local.date()


def demo_today() -> dt.date:
    """Demo data only: the demo's "today", the gaming day now belongs to (the casino's roll-over
    hour, 06:00 before the casino is set). Seeded between midnight and the roll-over, the demo's
    day is the evening's, so that none of its acts is written in the future."""
    from casino_ops.models import CasinoSettings  # cycle: the models read the clock

    casino = CasinoSettings.objects.first()
    return casino.gaming_day(now()) if casino is not None else gaming_date(now())


@contextmanager
def history_at(moment: dt.datetime) -> Iterator[None]:
    """Demo data and tests only: the acts inside are written as if done at ``moment``."""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    token = _AT.set(moment)
    try:
        yield
    finally:
        _AT.reset(token)
