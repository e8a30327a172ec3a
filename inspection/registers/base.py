"""What a register is, and the registry of their names."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from casino_ops.plugins import Registry
from casino_ops.refusals import Refusal

#: name on the command line -> module of this package (each imported by the package)
MODULES = {
    "receipt-book": "receipt_book",
    "order-book": "order_book",
    "advance-book": "advance_book",
    "control-register": "control_register",
    "incidents": "incidents",
    "destructions": "destructions",
    "depot-log": "depot_log",
    "session-report": "session_report",
    "orphans": "orphans",
    "approvals": "approvals",
    "tips": "tips",
    "hours": "hours",
    "bank-failures": "bank_failures",
    "shoe-devices": "shoe_devices",
    "exclusions": "exclusions",
    "closing": "closing",
    "table-notice": "table_notice",
    "authorised-minimums": "authorised_minimums",
    "numbering": "numbering",
}

#: every register, by its name on the command line (each module registers its own)
REGISTERS: Registry[Register] = Registry("inspection.registers.base.REGISTERS")


@dataclass(frozen=True)
class Request:
    """What to print: a period (inclusive dates) and, for a table's book, the table number."""

    date_from: dt.date
    date_to: dt.date
    table: int | None = None

    @property
    def table_number(self) -> int:
        """The table of a table's book (:meth:`Register.check` refuses a request without one)."""
        if self.table is None:
            raise ValueError("this register is kept per table: the request names none")
        return self.table


class Register:
    """One register: its legal name and model, the rule it applies, how to read its rows."""

    name: ClassVar[str]
    title: ClassVar[Any]
    model: ClassVar[Any]
    #: what the header says instead of ``model`` under LU, when ``model`` is a French model
    #: number (the LU books' models are fixed by the Minister of Finances: no number)
    model_lu: ClassVar[Any] = None
    rule: ClassVar[str]  # key of casino_ops.regulations.ARTICLES
    template: ClassVar[str] = "registers/book.html"
    orientation: ClassVar[str] = "portrait"
    needs_table: ClassVar[bool] = False
    #: printed (and stored) by "month", or by "day" for the daily books
    part_unit: ClassVar[str] = "month"

    def model_for(self, profile: str) -> Any:
        """The model the header names under ``profile``."""
        return self.model_lu if profile == "LU" and self.model_lu is not None else self.model

    def touched_days(self, events: list[tuple[str, str]]) -> set[dt.date]:
        """The days whose lines these audit events (object type, object id) probably changed.

        Only a hint, to make those periods first; whether a period changed is
        decided by its content hash. None known by default.
        """
        return set()

    def days_with_entries(self, request: Request) -> list[dt.date]:
        """A daily book's days that have something to print (its parts); every day by default."""
        days = (request.date_to - request.date_from).days + 1
        return [request.date_from + dt.timedelta(days=i) for i in range(days)]

    def context(self, request: Request) -> dict[str, Any]:
        """The register's rows and totals for ``request`` (from the apps' selectors)."""
        raise NotImplementedError

    def count(self, request: Request) -> int:
        """About how many rows the register has for ``request`` (to split big ones)."""
        from .render import row_count  # cycle: render prints a Register (imports this module)

        return row_count(self.context(request))

    def check(self, request: Request) -> None:
        if request.date_from > request.date_to:
            raise Refusal.REGISTER_BAD_PERIOD.error(
                a=request.date_from.isoformat(), b=request.date_to.isoformat()
            )
        if self.needs_table and request.table is None:
            raise Refusal.REGISTER_TABLE_REQUIRED.error(name=self.title)


def register(cls: type[Register]) -> type[Register]:
    """Class decorator: put a register in the registry under its name."""
    REGISTERS.register(cls.name, cls())
    return cls


def load_all() -> dict[str, Register]:
    """Every register, by name (the package imports each register's module)."""
    return dict(REGISTERS.items())


def register_names() -> list[str]:
    return list(MODULES)


def get_register(name: str) -> Register:
    if name not in MODULES:
        raise Refusal.REGISTER_UNKNOWN.error(name=name, names=", ".join(MODULES))
    return REGISTERS[name]


def visa(who: str | None, at: dt.datetime | None) -> dict[str, Any] | None:
    """A recorded visa as printed: who, when (None when there is none)."""
    if not who:
        return None
    return {"who": who, "at": at}


def place_corrections(rows: Iterable[dict[str, Any]], *, key: str = "id") -> list[dict[str, Any]]:
    """Order rows so that each correction comes right after the entry it corrects.

    A row that corrects another carries ``corrects`` (the corrected row's
    ``key``); it is printed in red and the corrected row is struck through in
    red yet stays legible (FR art. 68: no erasure, a correction is a new entry).
    """
    rows = list(rows)
    by_key = {row.get(key): row for row in rows}
    followers: dict[Any, list[dict[str, Any]]] = {}
    roots = []
    for row in rows:
        target = row.get("corrects")
        if target is not None and target in by_key:
            followers.setdefault(target, []).append(row)
        else:
            roots.append(row)
    for row in rows:
        if row.get("corrects") is not None:
            row["css"] = "correction"
        elif row.get(key) in followers:
            row["css"] = "corrected"
    ordered: list[dict[str, Any]] = []

    def emit(row: dict[str, Any]) -> None:
        ordered.append(row)
        for follower in followers.get(row.get(key), []):
            emit(follower)

    for row in roots:
        emit(row)
    return ordered
