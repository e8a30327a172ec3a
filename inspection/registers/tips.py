"""Registre des pourboires (LU art. 57; under FR, an internal book).

Tips are paid at once into a box and counted every day; the day's whole amount is
entered in the account "pourboires" (its running total over the exercise).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors as house

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Journée"), 10, "c"),
    fmt.column(_("Tirelire"), 14),
    fmt.column(_("Compté le"), 13, "c"),
    fmt.column(_("Compté par"), 14),
    fmt.column(_("Témoin"), 14),
    fmt.column(_("Montant du jour"), 11, "n"),
    fmt.column(_("Compte « pourboires » : cumul de l'exercice"), 12, "n"),
    fmt.column(_("Observations"), 12),
]


@register
class Tips(Register):
    name = "tips"
    title = _("Registre des pourboires")
    model = _("Comptage journalier de la tirelire et compte « pourboires »")
    rule = "house.tips"

    def context(self, request: Request) -> dict[str, Any]:
        read = house.tips_account
        lines = read(request.date_from, request.date_to)
        rows = [
            fmt.row(
                COLUMNS,
                [
                    fmt.day(line["day"]),
                    line["count"].box,
                    fmt.moment(line["count"].counted_at),
                    fmt.person(line["count"].counted_by),
                    fmt.person(line["count"].witness),
                    fmt.amount(line["amount"]),
                    fmt.amount(line["total"]),
                    line["count"].note,
                ],
            )
            for line in lines
        ]
        total = sum((line["amount"] for line in lines), Decimal("0"))
        totals = [fmt.total(_("Pourboires de la période"), 5, [(fmt.amount(total), "n"), ("", ""), ("", "")])]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
