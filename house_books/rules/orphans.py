"""The checks of the carnet d'enregistrement des orphelins (LU art. 8; under FR, internal
rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.regulations import RegulationError

from ..models import OrphanKind
from .common import money


def check_kind(kind: str, article: str) -> None:
    if kind not in OrphanKind.values:
        raise RegulationError(
            "ORPHAN_KIND_UNKNOWN",
            _(
                "Nature inconnue « %(kind)s » : trouvé à terre, laissé sur une table ou abandonné en cours de partie."
            )
            % {"kind": kind},
            article,
            field="kind",
        )


def check_found_at(found_at: Any, now: dt.datetime, article: str) -> None:
    """A moment, not after the acts' clock (``now``)."""
    if not isinstance(found_at, dt.datetime):
        raise RegulationError(
            "FIELD_INVALID", _("Indiquez la date et l'heure de la découverte."), article, field="found_at"
        )
    if found_at > now:
        raise RegulationError(
            "ORPHAN_IN_FUTURE",
            _("Une somme ne peut pas être trouvée dans le futur."),
            article,
            field="found_at",
        )


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
            raise RegulationError(
                "ORPHAN_STAKE_REQUIRED",
                _("Pour une mise abandonnée en cours de partie, indiquez la mise initialement oubliée."),
                article,
                field="stake",
            )
        stake_value = money(stake, "stake", article)
        winnings_value = money(winnings if winnings is not None else 0, "winnings", article, allow_zero=True)
        total = stake_value + winnings_value
        if amount is not None and money(amount, "amount", article) != total:
            raise RegulationError(
                "ORPHAN_AMOUNT_MISMATCH",
                _("Le montant d'une mise abandonnée est la mise oubliée plus ses gains cumulés : %(total)s.")
                % {"total": dates.amount(total)},
                article,
                field="amount",
            )
        if table_number is None:
            raise RegulationError(
                "ORPHAN_TABLE_REQUIRED",
                _("Indiquez la table où la mise a été abandonnée."),
                article,
                field="table_number",
            )
    else:
        if stake is not None or winnings is not None:
            raise RegulationError(
                "ORPHAN_STAKE_NOT_IN_PLAY",
                _("Mise et gains ne s'indiquent que pour une somme abandonnée en cours de partie."),
                article,
                field="stake",
            )
        if amount is None:
            raise RegulationError("FIELD_REQUIRED", _("Indiquez le montant trouvé."), article, field="amount")
        stake_value = winnings_value = None
        total = money(amount, "amount", article)
    return stake_value, winnings_value, total


def check_exercise_open(exercise: int, transferred: bool, article: str, field: str) -> None:
    """An exercise whose balance was paid to the bureau de bienfaisance (``transferred``) is
    closed."""
    if transferred:
        raise RegulationError(
            "ORPHANS_EXERCISE_CLOSED",
            _(
                "L'exercice %(year)s des orphelins est soldé : son solde a été versé au bureau de bienfaisance."
            )
            % {"year": exercise},
            article,
            field=field,
        )


def check_repaid_on(repaid_on: Any, found_at: dt.datetime, number: int, article: str) -> None:
    """Not before the original entry (number ``number``, found at ``found_at``), not later than today."""
    if not isinstance(repaid_on, dt.date) or repaid_on < timezone.localtime(found_at).date():
        raise RegulationError(
            "ORPHAN_REPAID_BEFORE_FOUND",
            _("Le remboursement ne peut pas précéder l'inscription primitive (n° %(n)s).") % {"n": number},
            article,
            field="repaid_on",
        )
    if repaid_on > timezone.localdate():
        raise RegulationError(
            "ORPHAN_REPAID_IN_FUTURE",
            _("La date du remboursement est dans le futur."),
            article,
            field="repaid_on",
        )


def check_repay_within(value: Decimal, left: Decimal, number: int, article: str) -> None:
    """No more than what is left of the entry."""
    if value > left:
        raise RegulationError(
            "ORPHAN_REPAY_TOO_MUCH",
            _("On ne peut rembourser plus que l'inscription n° %(n)s : il en reste %(left)s.")
            % {"n": number, "left": dates.amount(left)},
            article,
            field="amount",
        )


def exercise_year(exercise: Any, article: str) -> int:
    try:
        year = int(exercise)
    except (TypeError, ValueError):
        year = 0
    if not 2000 <= year <= 2999:
        raise RegulationError("FIELD_INVALID", _("Indiquez l'exercice (l'année)."), article, field="exercise")
    return year


def check_transfer_days(exercise: int, transferred_on: Any, minister_notified_on: Any, article: str) -> None:
    """Paid after the exercise's end, not later than today; the minister told the same day or after."""
    if not isinstance(transferred_on, dt.date) or transferred_on <= dt.date(exercise, 12, 31):
        raise RegulationError(
            "ORPHANS_TRANSFER_BEFORE_END",
            _("Le versement se fait en fin d'exercice : après le 31/12/%(year)s.") % {"year": exercise},
            article,
            field="transferred_on",
        )
    if transferred_on > timezone.localdate():
        raise RegulationError(
            "ORPHANS_TRANSFER_IN_FUTURE",
            _("La date du versement est dans le futur."),
            article,
            field="transferred_on",
        )
    if not isinstance(minister_notified_on, dt.date) or minister_notified_on < transferred_on:
        raise RegulationError(
            "ORPHANS_MINISTER_NOT_NOTIFIED",
            _(
                "L'avis au Ministre des Finances suit le versement : indiquez sa date (le jour même ou après)."
            ),
            article,
            field="minister_notified_on",
        )


def check_whole_balance(value: Decimal, balance: Decimal, exercise: int, article: str) -> None:
    """The whole balance is paid: the account is left at zero."""
    if value != balance:
        raise RegulationError(
            "ORPHANS_BALANCE_NOT_ZERO",
            _(
                "Le versement de %(amount)s laisserait le compte « orphelins » %(year)s à %(left)s : versez tout le solde (%(balance)s)."
            )
            % {
                "amount": dates.amount(value),
                "year": exercise,
                "left": dates.amount(balance - value),
                "balance": dates.amount(balance),
            },
            article,
            field="amount",
        )
