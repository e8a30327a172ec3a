"""The checks of the table notice (LU art. 74, last paragraph; under FR, internal rules): pure,
no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError


def table_number(table: Any, article: str) -> int:
    """The number of ``table`` (a table or its number), a positive integer."""
    number = getattr(table, "number", table)
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    if number <= 0:
        raise RegulationError("FIELD_INVALID", _("Indiquez le numéro de la table."), article, field="table")
    return number


def check_day(day: Any, article: str) -> None:
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field="day")
    if day > timezone.localdate():
        raise RegulationError("DATE_IN_FUTURE", _("Cette journée est dans le futur."), article, field="day")


def check_limits(number: int, rows: list[Any], article: str) -> None:
    """The table is in service (``rows``: its limits in force) and has held a séance."""
    if not rows:
        raise RegulationError(
            "TABLE_NOT_IN_SERVICE",
            _("La table n° %(n)s n'existe pas ou n'est pas en service.") % {"n": number},
            article,
            field="table",
        )
    if rows[0]["minimum"] is None:
        raise RegulationError(
            "TABLE_WITHOUT_LIMITS",
            _(
                "La table n° %(n)s n'a encore tenu aucune séance : ses limites et son avance ne sont pas fixées."
            )
            % {"n": number},
            article,
            field="table",
        )
