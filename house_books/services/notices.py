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

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from tables import selectors as tables

from ..models import TableNotice
from ..rules import notices as rules
from ._shared import create, profile

RULE = "house.table_notice"


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_TABLE_NOTICE_POSTED,
    article="house.table_notice",
    gate_cites_article=True,
)
@transaction.atomic
def post_table_notice(*, actor: User, table: Any, day: dt.date) -> TableNotice:
    """The notice posted at ``table`` (a table or its number) on ``day``: its number, its
    advance, its minimum and its maximum in force."""
    article = cite(RULE, profile())
    number = rules.table_number(table, article)
    rules.check_day(day, article, now=timezone.now())
    rows = tables.limits_in_force(number)
    rules.check_limits(number, rows, article)
    limits = rows[0]
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
