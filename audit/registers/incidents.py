"""Registre des incidents de cartes (FR art. 40; LU art. 7).

A missing, extra, marked or foreign card is reported at once to the officer,
with the circumstances; the decks are quarantined until the incident is
closed with the officer's findings.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from . import fmt
from .base import Register, Request, register, selector

COLUMNS = [
    fmt.column(_("N°"), 5, "n"),
    fmt.column(_("Survenu le"), 9, "c"),
    fmt.column(_("Table / sabot"), 8, "c"),
    fmt.column(_("Nature"), 9),
    fmt.column(_("Jeux concernés"), 14),
    fmt.column(_("Circonstances"), 19),
    fmt.column(_("Signalé par"), 9),
    fmt.column(_("Officier avisé (quand)"), 11, "visa"),
    fmt.column(_("Clôture : constatations, visa de l'officier"), 16, "visa"),
]


@register
class Incidents(Register):
    name = "incidents"
    title = _("Registre des incidents de cartes")
    model = _("Incidents signalés à l'officier")
    rule = "depot.incident"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read = selector("cards_registry.selectors", "incidents")
        records = list(read(request.date_from, request.date_to)) if read else []
        rows: list[dict[str, Any]] = []
        open_count = 0
        for i in records:
            closure = getattr(i, "closure", None)
            if closure is None:
                open_count += 1
                closed = "en cours"
            else:
                closed = f"{closure.finding} — {fmt.visa(closure.officer, closure.at)}"
            where = " / ".join(str(x) for x in (i.table_number, i.shoe_reference) if x)
            decks = ", ".join(fmt.deck_label(d) for d in i.decks.all())
            corrections = fmt.corrections_of(i, i.number)
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        i.number,
                        fmt.moment(i.occurred_at),
                        where,
                        i.get_kind_display(),
                        decks,
                        i.circumstances,
                        fmt.person(i.reported_by),
                        fmt.visa(i.officer_informed, i.officer_informed_at),
                        closed,
                    ],
                    "corrected" if corrections else "",
                )
            )
            rows.extend(corrections)
        totals = [
            fmt.total(
                _("Incidents de la période / encore ouverts"),
                4,
                [(len(records), "n"), ("", ""), ("", ""), (open_count, "n"), ("", "")],
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
