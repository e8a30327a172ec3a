"""The checks of the carnet d'enregistrement des orphelins (LU art. 8; under FR, internal
rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal

from ..models import OrphanKind
from .common import money


def check_kind(kind: str, article: str) -> None:
    if kind not in OrphanKind.values:
        raise Refusal.ORPHAN_KIND_UNKNOWN.error(article=article, kind=kind)


def check_found_at(found_at: Any, now: dt.datetime, article: str) -> None:
    """A moment, not after the acts' clock (``now``)."""
    if not isinstance(found_at, dt.datetime):
        raise Refusal.FIELD_INVALID_HOUSE_ORPHANS.error(
            article=article, field="found_at", message=_("Indiquez la date et l'heure de la découverte.")
        )
    if found_at > now:
        raise Refusal.ORPHAN_IN_FUTURE.error(article=article)


def amounts(
    *,
    kind: str,
    amount: Any,
    stake: Any,
    winnings: Any,
    table_number: int | None,
    article: str,
) -> tuple[Decimal | None, Decimal | None, Decimal]:
    """The stake, winnings and amount of a sum found: for a sum abandoned in play, the stake
    forgotten plus its winnings at its table; otherwise the amount alone."""
    stake_value: Decimal | None
    winnings_value: Decimal | None
    if kind == OrphanKind.ABANDONED:
        if stake is None:
            raise Refusal.ORPHAN_STAKE_REQUIRED.error(article=article)
        stake_value = money(stake, "stake", article)
        winnings_value = money(winnings if winnings is not None else 0, "winnings", article, allow_zero=True)
        total = stake_value + winnings_value
        if amount is not None and money(amount, "amount", article) != total:
            raise Refusal.ORPHAN_AMOUNT_MISMATCH.error(article=article, total=dates.amount(total))
        if table_number is None:
            raise Refusal.ORPHAN_TABLE_REQUIRED.error(article=article)
    else:
        if stake is not None or winnings is not None:
            raise Refusal.ORPHAN_STAKE_NOT_IN_PLAY.error(article=article)
        if amount is None:
            raise Refusal.FIELD_REQUIRED_HOUSE_ORPHANS.error(article=article)
        stake_value = winnings_value = None
        total = money(amount, "amount", article)
    return stake_value, winnings_value, total


def check_exercise_open(exercise: int, transferred: bool, article: str, field: str) -> None:
    """An exercise whose balance was paid to the bureau de bienfaisance (``transferred``) is
    closed."""
    if transferred:
        raise Refusal.ORPHANS_EXERCISE_CLOSED.error(article=article, field=field, year=exercise)


def check_repaid_on(
    repaid_on: Any, found_at: dt.datetime, number: int, article: str, *, now: dt.datetime
) -> None:
    """Not before the original entry (number ``number``, found at ``found_at``), not later than the
    day of ``now``."""
    if not isinstance(repaid_on, dt.date) or repaid_on < timezone.localtime(found_at).date():
        raise Refusal.ORPHAN_REPAID_BEFORE_FOUND.error(article=article, n=number)
    if repaid_on > timezone.localdate(now):
        raise Refusal.ORPHAN_REPAID_IN_FUTURE.error(article=article)


def check_repay_within(value: Decimal, left: Decimal, number: int, article: str) -> None:
    """No more than what is left of the entry."""
    if value > left:
        raise Refusal.ORPHAN_REPAY_TOO_MUCH.error(article=article, n=number, left=dates.amount(left))


def exercise_year(exercise: Any, article: str) -> int:
    try:
        year = int(exercise)
    except (TypeError, ValueError):
        year = 0
    if not 2000 <= year <= 2999:
        raise Refusal.FIELD_INVALID_HOUSE_ORPHANS.error(article=article, field="exercise")
    return year


def check_transfer_days(
    exercise: int, transferred_on: Any, minister_notified_on: Any, article: str, *, now: dt.datetime
) -> None:
    """Paid after the exercise's end, not later than the day of ``now``; the minister told the same
    day or after."""
    if not isinstance(transferred_on, dt.date) or transferred_on <= dt.date(exercise, 12, 31):
        raise Refusal.ORPHANS_TRANSFER_BEFORE_END.error(article=article, year=exercise)
    if transferred_on > timezone.localdate(now):
        raise Refusal.ORPHANS_TRANSFER_IN_FUTURE.error(article=article)
    if not isinstance(minister_notified_on, dt.date) or minister_notified_on < transferred_on:
        raise Refusal.ORPHANS_MINISTER_NOT_NOTIFIED.error(article=article)


def check_whole_balance(value: Decimal, balance: Decimal, exercise: int, article: str) -> None:
    """The whole balance is paid: the account is left at zero."""
    if value != balance:
        raise Refusal.ORPHANS_BALANCE_NOT_ZERO.error(
            article=article,
            amount=dates.amount(value),
            year=exercise,
            left=dates.amount(balance - value),
            balance=dates.amount(balance),
        )
