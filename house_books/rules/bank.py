"""The checks of the bank's failure and of the new authorisation (LU art. 11, 23; under FR,
the casino's internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.utils import timezone

from casino_ops.refusals import Refusal

from .common import money


def moment(value: Any, field: str, article: str, *, now: dt.datetime) -> dt.datetime:
    """An aware date and time, not after ``now``."""
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise Refusal.FIELD_INVALID_HOUSE_BANK.error(article=article, field=field)
    if value > now:
        raise Refusal.DATE_IN_FUTURE.error(article=article, field=field)
    return value


def check_notices_after(
    occurred_at: dt.datetime, notices: Iterable[tuple[str, dt.datetime]], article: str
) -> None:
    """Each notice (``field``, its moment) follows the failure."""
    for field, told in notices:
        if told < occurred_at:
            raise Refusal.NOTICE_BEFORE_FAILURE.error(article=article, field=field)


def counts_of_open_seances(
    counts: Mapping[int, Any], open_now: list[Any], article: str
) -> list[tuple[Any, Decimal]]:
    """Each open séance (``open_now``) with the cash counted at its table: every table stops,
    so each one's cash is counted and written as at the end of play (LU art. 23)."""
    numbers = {session.table.number for session in open_now}
    for number in counts:
        if number not in numbers:
            raise Refusal.BANK_FAILURE_NO_SEANCE.error(article=article, t=number)
    found = []
    for session in open_now:
        number = session.table.number
        if counts.get(number) in (None, ""):
            raise Refusal.BANK_FAILURE_COUNT_MISSING.error(article=article, t=number)
        found.append((session, money(counts[number], "counts", article, allow_zero=True)))
    return found


def check_no_failure_pending(pending: bool, article: str) -> None:
    if pending:
        raise Refusal.BANK_FAILURE_PENDING.error(article=article)


def check_authorisation_not_recorded(recorded: bool, article: str) -> None:
    if recorded:
        raise Refusal.AUTHORISATION_RECORDED.error(article=article)


def check_granted_on(granted_on: Any, occurred_at: dt.datetime, article: str, *, now: dt.datetime) -> None:
    """A date after the failure, not later than the day of ``now``."""
    if not isinstance(granted_on, dt.date) or isinstance(granted_on, dt.datetime):
        raise Refusal.FIELD_INVALID_HOUSE_BANK_DAY.error(article=article)
    if granted_on > timezone.localdate(now) or granted_on < timezone.localtime(occurred_at).date():
        raise Refusal.AUTHORISATION_DATE.error(article=article)
