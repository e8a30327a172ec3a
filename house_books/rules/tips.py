"""The checks of the register of tips (LU art. 57; under FR, internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from casino_ops import dates
from casino_ops.refusals import Refusal


def check_count_day(day: Any, moment: dt.datetime, article: str, *, now: dt.datetime) -> None:
    """The box of a day gone or begun (by ``now``) is counted, on that day or after it."""
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise Refusal.FIELD_INVALID_HOUSE_TIPS.error(article=article)
    if day > timezone.localdate(now) or moment > now:
        raise Refusal.TIPS_IN_FUTURE.error(article=article)
    if timezone.localtime(moment).date() < day:
        raise Refusal.TIPS_COUNTED_BEFORE_DAY.error(article=article)


def check_witness(actor: User, witness: Any, article: str) -> None:
    """The count is made before a witness, not the one who counts."""
    if witness is None or getattr(witness, "pk", None) == actor.pk:
        raise Refusal.TIPS_WITNESS_REQUIRED.error(article=article)


def check_not_counted(day: dt.date, already_counted: bool, article: str) -> None:
    """One count per day."""
    if already_counted:
        raise Refusal.TIPS_ALREADY_COUNTED.error(article=article, day=dates.day(day))
