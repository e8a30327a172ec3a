"""Reads of the tables, for the admin, the API, the portal and the printed registers.

Each function loads what it returns in a fixed number of queries, whatever
the size of the result. Amounts are :class:`~decimal.Decimal`.
"""

from __future__ import annotations

from typing import Any


def deck_shoe_history(deck: Any) -> list[Any]:
    """The shoes and sessions a deck served, as lines of its history (FR art. 40, LU art. 7)."""
    from audit.models import AuditEvent
    from cards_registry.history import HistoryLine

    from .models import ShoeDeck

    rows = list(
        ShoeDeck.objects.filter(deck=deck)
        .select_related("shoe__session__table")
        .order_by("shoe__filled_at", "shoe_id")
    )
    seqs = dict(
        AuditEvent.objects.filter(
            action="shoe.filled", object_type="tables.shoe", object_id__in=[str(r.shoe_id) for r in rows]
        ).values_list("object_id", "seq")
    )
    lines = []
    for row in rows:
        shoe = row.shoe
        session = shoe.session
        lines.append(
            HistoryLine(
                at=shoe.filled_at,
                what=(
                    f"Sabot {shoe.label} garni à la table {session.table.code} "
                    f"(séance n° {session.pk} du {session.day:%d/%m/%Y})"
                ),
                audit_seq=seqs.get(str(shoe.pk)),
            )
        )
    return lines
