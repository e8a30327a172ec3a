"""The time at which the tables' acts are written: now.

Every act of the tables writes its entries at the moment it is done and opens a
session only for the current gaming day (FR art. 69; LU art. 10: "inscrite séance
tenante"); no form, API call or command can give another time. :func:`history_at`
exists for the demo data alone (``manage.py seed_demo`` writes yesterday's books as
they would have been written then) and for tests that need a fixed day; nothing that
a user reaches calls it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import timezone

_AT: ContextVar[dt.datetime | None] = ContextVar("tables_history_at", default=None)


def now() -> dt.datetime:
    return _AT.get() or timezone.now()


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
