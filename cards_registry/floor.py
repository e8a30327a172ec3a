"""What the depot asks of the gaming floor, without importing the tables (design: the depot
never imports ``tables``): the tables app registers here, when Django starts, the function
that says whether a table exists and is in service on a day.

``issue_decks`` refuses a table the registered function refuses (FR art. 40, LU art. 7:
decks leave the cabinet only to be used, at a named table). Without a registered
function (the depot alone), any table number is accepted.
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
