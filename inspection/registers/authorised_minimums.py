"""Registre des minima autorisés (FR art. 55-5; LU art. 26, 33).

Each act changing the authorised minimum stake, in the order recorded: the
decree it cites (reference, date, date in force), who recorded it and when,
and the officer's visa without which it does not take effect; the day it
holds from (the later of its date in force and its visa).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from audit.actions import Action
from audit.reads import officer_fingerprints
from tables import selectors as tables

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Acte n°"), 6, "n"),
    fmt.column(_("Minimum autorisé"), 10, "n"),
    fmt.column(_("Arrêté (référence, date)"), 22),
    fmt.column(_("En vigueur le"), 9, "c"),
    fmt.column(_("Inscrit le, par"), 16),
    fmt.column(_("Visa de l'officier"), 17),
    fmt.column(_("Prend effet le"), 9, "c"),
    fmt.column(_("Audit n° (acte / visa)"), 11, "c"),
]


@register
class AuthorisedMinimums(Register):
    name = "authorised-minimums"
    title = _("Registre des minima autorisés")
    model = _("Actes du minimum autorisé par arrêté et visas de l'officier")
    rule = "limits.authorised_minimum"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read = tables.authorised_minimum_book
        acts = read(request.date_from, request.date_to)
        signed = officer_fingerprints(
            ("tables.authorisedminimum", [a["id"] for a in acts]), Action.AUTHORISED_MINIMUM_STAMPED
        )
        rows = []
        for a in acts:
            stamped = (
                fmt.visa(a["stamped_by"], a["stamped_at"], signed.get(str(a["id"]), ""))
                if a["stamped_at"] is not None
                else str(_("non visé : sans effet"))
            )
            seqs = " / ".join(str(s) if s is not None else "—" for s in (a["recorded_seq"], a["stamped_seq"]))
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        a["id"],
                        fmt.amount(a["minimum"]),
                        f"{a['decree_reference']} ({fmt.day(a['decree_date'])})",
                        fmt.day(a["in_force_on"]),
                        f"{fmt.moment(a['recorded_at'])}, {a['recorded_by'] or ''}",
                        stamped,
                        fmt.day(a["effective_from"]),
                        seqs,
                    ],
                )
            )
        pending = sum(1 for a in acts if a["stamped_at"] is None)
        totals = [
            fmt.total(
                _("Actes de la période / en attente du visa"),
                6,
                [(len(acts), "n"), (pending, "n")],
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals)]}
