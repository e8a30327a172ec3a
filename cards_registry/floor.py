"""What the depot asks of the gaming floor, without importing the tables (design: the depot
never imports ``tables``): the tables app registers here, when Django starts, the function
that says whether a table exists and is in service on a day, and the one that says whether
a gaming day is closed in the control register.

``issue_decks`` refuses a table the registered function refuses, and a day already closed
(FR art. 40, LU art. 7: decks leave the cabinet only to be used, at a named table, on a
day being played). Without a registered function (the depot alone), any table number is
accepted and no day is closed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

# (table_number, day) -> None when the table may receive decks, else the reason (French).
TableCheck = Callable[[int, dt.date], str | None]

_table_check: TableCheck | None = None


def register_table_check(function: TableCheck | None) -> None:
    """Register (or, with ``None``, remove) the tables' check of a table number."""
    global _table_check
    _table_check = function


def table_refusal(table_number: int, day: dt.date) -> str | None:
    """Why ``table_number`` may not receive decks for ``day`` (``None``: it may)."""
    return None if _table_check is None else _table_check(int(table_number), day)


# day -> whether the control register's day is closed (nothing is played on it any more).
DayClosed = Callable[[dt.date], bool]

_day_closed: DayClosed | None = None


def register_day_closed(function: DayClosed | None) -> None:
    """Register (or, with ``None``, remove) the tables' check of a closed day."""
    global _day_closed
    _day_closed = function


def day_closed(day: dt.date) -> bool:
    """Whether ``day`` is closed in the control register (``False`` without the tables)."""
    return False if _day_closed is None else bool(_day_closed(day))
