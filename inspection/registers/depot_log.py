"""Journal de l'armoire « dépôt des cartes » et de sa clé (FR art. 39; LU art. 6).

Every opening of the cabinet (why, by whom, for which table and day, at
whose demand) and every handover of its single key, in time order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

from cards_registry import selectors as depot

from . import fmt
from .base import Register, Request, register

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

COLUMNS = [
    fmt.column(_("N°"), 5, "n"),
    fmt.column(_("Date et heure"), 12, "c"),
    fmt.column(_("Acte"), 12),
    fmt.column(_("Par"), 14),
    fmt.column(_("Clé remise à"), 14),
    fmt.column(_("Table / journée"), 11, "c"),
    fmt.column(_("À la demande de l'officier"), 14),
    fmt.column(_("Observations"), 18),
]


@register
class DepotLog(Register):
    name = "depot-log"
    title = _("Journal de l'armoire « dépôt des cartes » et de sa clé")
    model = _("Ouvertures de l'armoire et remises de l'unique clé")
    rule = "depot.cabinet_key"

    def context(self, request: Request) -> dict[str, Any]:
        read = depot.depot_log
        entries = list(read(request.date_from, request.date_to))
        rows = []
        openings = keys = 0
        for n, e in enumerate(entries, 1):
            act: StrOrPromise
            if e.kind == "key":
                keys += 1
                act = _("Remise de la clé")
            else:
                openings += 1
                act = f"Ouverture : {e.purpose}"
            where = " — ".join(x for x in (e.table_number and f"table {e.table_number}", fmt.day(e.day)) if x)
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        n,
                        fmt.moment(e.at),
                        act,
                        fmt.person(e.who),
                        fmt.person(e.receiver),
                        where,
                        fmt.person(e.demanded_by),
                        e.note,
                    ],
                )
            )
        totals = [
            fmt.total(
                _("Ouvertures / remises de clé"),
                2,
                [(openings, "n"), (keys, "n"), ("", ""), ("", ""), ("", ""), ("", "")],
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
