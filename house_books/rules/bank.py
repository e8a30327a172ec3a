"""The checks of the bank's failure and of the new authorisation (LU art. 11, 23; under FR,
the casino's internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

from .common import money


def moment(value: Any, field: str, article: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date et une heure."), article, field=field)
    if value > timezone.now():
        raise RegulationError("DATE_IN_FUTURE", _("Ce moment est dans le futur."), article, field=field)
    return value


def check_notices_after(
    occurred_at: dt.datetime, notices: Iterable[tuple[str, dt.datetime]], article: str
) -> None:
    """Each notice (``field``, its moment) follows the failure."""
    for field, told in notices:
        if told < occurred_at:
            raise RegulationError(
                "NOTICE_BEFORE_FAILURE",
                _("L'avis suit la défaillance."),
                article,
                field=field,
            )


def counts_of_open_seances(
    counts: Mapping[int, Any], open_now: list[Any], article: str
) -> list[tuple[Any, Decimal]]:
    """Each open séance (``open_now``) with the cash counted at its table: every table stops,
    so each one's cash is counted and written as at the end of play (LU art. 23)."""
    numbers = {session.table.number for session in open_now}
    for number in counts:
        if number not in numbers:
            raise RegulationError(
                "BANK_FAILURE_NO_SEANCE",
                _("Aucune séance n'est ouverte à la table %(t)s.") % {"t": number},
                article,
                field="counts",
            )
    found = []
    for session in open_now:
        number = session.table.number
        if counts.get(number) in (None, ""):
            raise RegulationError(
                "BANK_FAILURE_COUNT_MISSING",
                _(
                    "Toutes les tables s'arrêtent : indiquez l'encaisse comptée à la table %(t)s, inscrite comme en fin de partie."
                )
                % {"t": number},
                article,
                field="counts",
            )
        found.append((session, money(counts[number], "counts", article, allow_zero=True)))
    return found


def check_no_failure_pending(pending: bool, article: str) -> None:
    if pending:
        raise RegulationError(
            "BANK_FAILURE_PENDING",
            _("Une défaillance est déjà inscrite sans nouvelle autorisation."),
            article,
            field="occurred_at",
        )


def check_authorisation_not_recorded(recorded: bool, article: str) -> None:
    if recorded:
        raise RegulationError(
            "AUTHORISATION_RECORDED",
            _("La nouvelle autorisation est déjà inscrite."),
            article,
            field="failure",
        )


def check_granted_on(granted_on: Any, occurred_at: dt.datetime, article: str) -> None:
    """A date after the failure, not later than today."""
    if not isinstance(granted_on, dt.date) or isinstance(granted_on, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field="granted_on")
    if granted_on > timezone.localdate() or granted_on < timezone.localtime(occurred_at).date():
        raise RegulationError(
            "AUTHORISATION_DATE",
            _("La nouvelle autorisation est accordée après la défaillance, au plus tard aujourd'hui."),
            article,
            field="granted_on",
        )
