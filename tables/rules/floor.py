"""The tables on the floor: their numbers, their boxes, in service or not (FR art. 40, 42; LU art. 7, 9)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal


def check_new_table(number: int, boxes: int, *, taken: bool, profile: str) -> None:
    """A table's number is its own (``taken``: another table has it); it has one to seven boxes."""
    if taken:
        raise Refusal.TABLE_NUMBER_TAKEN.error(n=number)
    if not 1 <= boxes <= 7:
        raise Refusal.TOO_MANY_BOXES.error(profile)


def check_not_taken_meanwhile(taken: bool, number: int, code: str, profile: str) -> None:
    """A table created at the same moment by someone else took the number or the code (``taken``)."""
    if taken:
        raise Refusal.TABLE_NUMBER_TAKEN_ADVANCE_BOOK.error(profile, n=number, c=code)


def check_service_changed(table: Any, in_service: bool, profile: str) -> None:
    """A table is put in service, or out of it, from the other state."""
    if table.in_service == in_service:
        raise Refusal.TABLE_SERVICE_UNCHANGED.error(
            profile, t=table.code, state=_("en service") if in_service else _("hors service")
        )
