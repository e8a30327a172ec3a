"""The tables on the floor: a table's number is its cash box's and advance book's (FR art. 42; LU art. 9)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

import audit
from casino_ops.regulations import RegulationError

from ..models import (
    Table,
)


@transaction.atomic
def create_table(*, actor: Any, number: int, code: str, boxes: int = 7) -> Table:
    """Put a blackjack table on the floor; its number is its cash box's and advance book's."""
    if Table.objects.filter(number=number).exists():
        raise RegulationError(
            "TABLE_NUMBER_TAKEN",
            _("La table n° %(n)s existe déjà.") % {"n": number},
            field="number",
        )
    if not 1 <= boxes <= 7:
        raise RegulationError(
            "TOO_MANY_BOXES",
            _("Une table de black-jack a de 1 à 7 cases."),
            "FR art. 55-4",
            field="boxes",
        )
    table = Table.objects.create(number=number, code=code, boxes=boxes)
    audit.record(
        actor=actor,
        action="table.created",
        obj=table,
        payload={"number": number, "code": code, "boxes": boxes, "game": table.game},
    )
    return table
