"""Registre des agréments (LU art. 51 IV-V, 54, 63; under FR, an internal book).

The director and the committee members approved by the Minister of Justice, the
staff of the gaming rooms approved before they start work, and the ends: a
revocation (every power ends that day), a resignation or a dismissal notified to
the minister.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors as house

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Personne"), 15),
    fmt.column(_("Fonction / emploi"), 16),
    fmt.column(_("Agréé le"), 8, "c"),
    fmt.column(_("Référence de l'agrément"), 15),
    fmt.column(_("Fin le"), 8, "c"),
    fmt.column(_("Nature de la fin"), 12),
    fmt.column(_("Référence ou motifs"), 14),
    fmt.column(_("Avis au ministre"), 8, "c"),
]


@register
class Approvals(Register):
    name = "approvals"
    title = _("Registre des agréments de la direction et du personnel")
    model = _("Agréments du Ministre de la Justice, retraits, démissions et renvois")
    rule = "house.approvals"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read = house.approvals
        records = list(read(request.date_from, request.date_to))
        rows = []
        in_force = 0
        for a in records:
            if a.ended_on is None or a.ended_on > request.date_to:
                in_force += 1
            function = a.get_function_display() + (f" — {a.job}" if a.job else "")
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        fmt.person(a.person),
                        function,
                        fmt.day(a.approved_on),
                        a.reference,
                        fmt.day(a.ended_on),
                        a.get_end_kind_display() if a.end_kind else "",
                        a.end_reference,
                        fmt.day(a.minister_notified_on),
                    ],
                    "corrected" if a.end_kind == "revoked" else "",
                )
            )
        totals = [
            fmt.total(
                _("Agréments de la période / en vigueur à la fin de la période"),
                6,
                [(len(records), "n"), (in_force, "n")],
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
