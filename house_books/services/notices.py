"""The table notice (LU art. 74, last paragraph; under FR, the casino's internal rules).

The director shows at each black-jack table its number, and posts a notice giving, as a
table, the amount of its advance (encaisse), the minimum stake and the maximum. The notice
records the limits and the advance in force at the table when it is posted (those of its
latest séance, as the tables' books give them); a later change calls for a new notice.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.regulations import RegulationError, cite
from tables import selectors as tables

from ..models import TableNotice
from ._shared import create, profile, require_management

RULE = "house.table_notice"


def _table_number(table: Any, article: str) -> int:
    number = getattr(table, "number", table)
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    if number <= 0:
        raise RegulationError("FIELD_INVALID", _("Indiquez le numéro de la table."), article, field="table")
    return number


@transaction.atomic
def post_table_notice(*, actor: User, table: Any, day: dt.date) -> TableNotice:
    """The notice posted at ``table`` (a table or its number) on ``day``: its number, its
    advance, its minimum and its maximum in force."""
    article = cite(RULE, profile())
    require_management(actor, article)
    number = _table_number(table, article)
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field="day")
    if day > timezone.localdate():
        raise RegulationError("DATE_IN_FUTURE", _("Cette journée est dans le futur."), article, field="day")
    rows = tables.limits_in_force(number)
    if not rows:
        raise RegulationError(
            "TABLE_NOT_IN_SERVICE",
            _("La table n° %(n)s n'existe pas ou n'est pas en service.") % {"n": number},
            article,
            field="table",
        )
    limits = rows[0]
    if limits["minimum"] is None:
        raise RegulationError(
            "TABLE_WITHOUT_LIMITS",
            _(
                "La table n° %(n)s n'a encore tenu aucune séance : ses limites et son avance ne sont pas fixées."
            )
            % {"n": number},
            article,
            field="table",
        )
    notice = create(
        TableNotice,
        article,
        table_number=number,
        table_code=limits["code"],
        day=day,
        advance=limits["advance"],
        minimum=limits["minimum"],
        maximum=limits["maximum"],
        posted_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_TABLE_NOTICE_POSTED,
        obj=notice,
        payload={
            "table_number": number,
            "day": day,
            "advance": notice.advance,
            "minimum": notice.minimum,
            "maximum": notice.maximum,
        },
    )
    return notice
