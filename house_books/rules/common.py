"""The checks every book of the casino shares: an amount, a required text, a date, a moment.

Pure checks over plain values: no query, no write; each raises
:class:`~casino_ops.regulations.RegulationError` with the book's article and the field at fault.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone

from casino_ops.refusals import Refusal

CENT = Decimal("0.01")


def money(value: Any, field: str, article: str, *, allow_zero: bool = False) -> Decimal:
    """A positive amount in cents, or a refusal naming ``field``."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError, TypeError):
        amount = None
    if amount is None or not amount.is_finite() or amount != amount.quantize(CENT) or amount < 0:
        raise Refusal.AMOUNT_INVALID_SESSION_INTERRUPTION.error(article=article, field=field, value=value)
    if amount == 0 and not allow_zero:
        raise Refusal.AMOUNT_ZERO.error(article=article, field=field)
    return amount


def required_text(value: Any, field: str, label: str, article: str) -> str:
    text = str(value or "").strip()
    if not text:
        raise Refusal.FIELD_REQUIRED_PEOPLE_ROLES.error(article=article, field=field, what=label)
    return text


def past_date(value: Any, field: str, article: str, *, now: dt.datetime, past_only: bool = True) -> dt.date:
    """A date (not a moment), not in the future (after the day of ``now``) unless ``past_only`` is false."""
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise Refusal.FIELD_INVALID_HOUSE_EXCLUSIONS_ENTRANCE.error(article=article, field=field)
    if past_only and value > timezone.localdate(now):
        raise Refusal.DATE_IN_FUTURE_HOUSE_EXCLUSIONS_ENTRANCE.error(article=article, field=field)
    return value


def past_moment(value: Any, field: str, article: str, *, now: dt.datetime) -> dt.datetime:
    """An aware date and time, not in the future (after ``now``)."""
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise Refusal.FIELD_INVALID_HOUSE_EXCLUSIONS_ENTRANCE_MOMENT.error(article=article, field=field)
    if value > now:
        raise Refusal.DATE_IN_FUTURE_HOUSE_EXCLUSIONS_ENTRANCE_MOMENT.error(article=article, field=field)
    return value
