"""The checks of the table notice (LU art. 74, last paragraph; under FR, internal rules): pure,
no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal


def table_number(table: Any, article: str) -> int:
    """The number of ``table`` (a table or its number), a positive integer."""
    number = getattr(table, "number", table)
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    if number <= 0:
        raise Refusal.FIELD_INVALID_HOUSE_TABLE_NOTICE.error(article=article, field="table")
    return number


def check_day(day: Any, article: str, *, now: dt.datetime) -> None:
    """A date, not after the day of ``now``."""
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise Refusal.FIELD_INVALID_HOUSE_TABLE_NOTICE.error(
            article=article, field="day", message=_("Indiquez une date.")
        )
    if day > timezone.localdate(now):
        raise Refusal.DATE_IN_FUTURE_HOUSE_TABLE_NOTICE.error(article=article)


def check_limits(number: int, rows: list[Any], article: str) -> None:
    """The table is in service (``rows``: its limits in force) and has held a séance."""
    if not rows:
        raise Refusal.TABLE_NOT_IN_SERVICE_HOUSE_TABLE_NOTICE.error(article=article, n=number)
    if rows[0]["minimum"] is None:
        raise Refusal.TABLE_WITHOUT_LIMITS.error(article=article, n=number)
