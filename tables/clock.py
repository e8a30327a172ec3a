"""The time at which the tables' acts are written: now (see :mod:`casino_ops.clock`).

Every act of the tables writes its entries at the moment it is done and opens a
session only for the current gaming day (FR art. 69; LU art. 10: "inscrite séance
tenante"); no form, API call or command can give another time. :func:`history_at`
exists for the demo data alone and for tests that need a fixed day; nothing that a
user reaches calls it. The card depot's acts at the tables read the same clock, so
that a séance written in the past has its decks issued, checked and returned then.
"""

from __future__ import annotations

from casino_ops.clock import history_at, now, today

__all__ = ["history_at", "now", "today"]
