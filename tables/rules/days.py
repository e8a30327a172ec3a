"""The control register's day: closed once ended, stamped once closed; its lines and the advance
book corrected (FR art. 42, 49, 53, 68, 72; LU art. 9, 10, 21, 22)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.refusals import Refusal

from .advances import check_further_advance


def day_has_ended(day: dt.date, now: dt.datetime) -> bool:
    """A gaming day has ended once its date is over: from midnight the play of the evening
    may run on until the roll-over, but no séance of that day opens any more."""
    return timezone.localtime(now).date() > day


def check_day_may_close(day: dt.date, *, opened: dt.date, now: dt.datetime, article: str) -> None:
    """Only a past gaming day, or the current one once it has ended (at ``now``), is closed;
    never a day to come nor a day before the casino opened (``opened``) (FR art. 72)."""
    if day < opened:
        raise Refusal.DAY_BEFORE_OPENING.error(article=article, d=dates.day(day), o=dates.day(opened))
    if not day_has_ended(day, now):
        raise Refusal.DAY_NOT_ENDED.error(article=article, d=dates.day(day))


def check_sessions_closed(running: list[str], profile: str) -> None:
    """The day closes once every séance of it is closed (FR art. 72); ``running``: their tables."""
    if running:
        raise Refusal.SESSIONS_NOT_CLOSED.error(profile, t=", ".join(running))


def check_day_stampable(control_day: Any, article: str) -> None:
    """An officer stamps a day closed, once (FR art. 72)."""
    if not control_day.is_closed:
        raise Refusal.DAY_NOT_CLOSED.error(article=article, d=dates.day(control_day.day))
    if control_day.is_stamped:
        raise Refusal.ALREADY_STAMPED_CONTROL_REGISTER.error(article=article, d=dates.day(control_day.day))


def check_corrected_result(result: Any, profile: str) -> None:
    """A corrected result is an amount of at most two decimals (FR art. 68)."""
    if not isinstance(result, Decimal) or not result.is_finite() or result.as_tuple().exponent < -2:  # type: ignore[operator]
        raise Refusal.AMOUNT_INVALID_BOOKS_NO_ERASURE.error(profile)


def correctable_amount(entry: Any, amount_kinds: tuple[str, ...], profile: str) -> Decimal:
    """Only an amount of the advance book is corrected (FR art. 68): the amount the entry wrote."""
    if entry.kind not in amount_kinds or entry.amount is None:
        raise Refusal.NOT_CORRECTABLE.error(profile)
    written: Decimal = entry.amount
    return written


def check_corrected_advance(
    *, further: bool, amount: Decimal, initial: Decimal, advances: list[tuple[int, Decimal]], profile: str
) -> None:
    """A corrected advance obeys the rules of the advance it corrects (FR art. 42, 49, 53; LU art.
    9, 21, 22): each further advance equals the initial one (``initial``); the initial one is not
    corrected away from the further ones (``advances``, as corrected: the initial first). The
    refusal names the corrected amount."""
    if further:
        check_further_advance(amount, initial, profile)
        return
    others = [(line, value) for line, value in advances[1:] if value != amount]
    if others:
        raise Refusal.ADVANCE_NOT_EQUAL.error(
            profile,
            message=_(
                "Les avances complémentaires de la séance (lignes %(l)s) sont de %(a)s : chaque avance "
                "est égale à l'avance initiale, qui ne se corrige pas à un autre montant."
            ),
            l=", ".join(str(line) for line, _value in others),
            a=dates.amount(others[0][1]),
        )
