"""Registre des défaillances de la contrepartie (LU art. 11; under FR, an internal book).

When the casino can no longer hold the bank, the counterpart games stop at once and the
authorisation lapses; the officer present and the Minister of Finances are told at once.
No séance opens again before a new authorisation, written here against the failure.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Survenue le"), 12, "c"),
    fmt.column(_("Circonstances"), 22),
    fmt.column(_("Fonctionnaire présent"), 14),
    fmt.column(_("Avisé le"), 12, "c"),
    fmt.column(_("Ministre des Finances avisé le"), 12, "c"),
    fmt.column(_("Nouvelle autorisation"), 16),
    fmt.column(_("Inscrit par"), 12),
]


@register
class BankFailures(Register):
    name = "bank-failures"
    title = _("Registre des défaillances de la contrepartie")
    model = _("Arrêt des jeux, avis au fonctionnaire et au ministre, nouvelle autorisation")
    rule = "house.bank"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        rows = []
        for failure in selectors.bank_failures(request.date_from, request.date_to):
            authorisation = getattr(failure, "new_authorisation", None)
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        fmt.moment(failure.occurred_at),
                        failure.description,
                        failure.officer_name,
                        fmt.moment(failure.officer_told_at),
                        fmt.moment(failure.minister_told_at),
                        f"{authorisation.reference} — {fmt.day(authorisation.granted_on)}"
                        if authorisation is not None
                        else _("aucune : les séances ne rouvrent pas"),
                        fmt.person(failure.recorded_by),
                    ],
                )
            )
        totals = [fmt.total(_("Défaillances de la période"), 6, [(len(rows), "n")])]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
