"""What the depot asks of the gaming floor, without importing the tables (design: the depot
never imports ``tables``): the tables app registers here, when Django starts, the function
that says whether a table exists and is in service on a day (:data:`TABLE_CHECKS`), and the one
that says whether a gaming day is closed in the control register (:data:`DAY_CLOSED`).

``issue_decks`` refuses a table the registered function refuses, and a day already closed
(FR art. 40, LU art. 7: decks leave the cabinet only to be used, at a named table, on a
day being played). Without a registered function (the depot alone), any table number is
accepted and no day is closed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from casino_ops.plugins import Registry

# (table_number, day) -> None when the table may receive decks, else the reason (French).
TableCheck = Callable[[int, dt.date], str | None]

TABLE_CHECKS: Registry[TableCheck] = Registry("cards_registry.floor.TABLE_CHECKS")


def table_refusal(table_number: int, day: dt.date) -> str | None:
    """Why ``table_number`` may not receive decks for ``day`` (``None``: it may): the first
    registered check's reason."""
    for check in TABLE_CHECKS:
        reason = check(int(table_number), day)
        if reason is not None:
            return reason
    return None


# day -> whether the control register's day is closed (nothing is played on it any more).
DayClosed = Callable[[dt.date], bool]

DAY_CLOSED: Registry[DayClosed] = Registry("cards_registry.floor.DAY_CLOSED")


def day_closed(day: dt.date) -> bool:
    """Whether ``day`` is closed in the control register (``False`` without the tables)."""
    return any(closed(day) for closed in DAY_CLOSED)
