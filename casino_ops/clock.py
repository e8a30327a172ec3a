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
