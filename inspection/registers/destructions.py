"""Procès-verbaux de destruction des jeux (FR art. 39; LU art. 6).

Each destruction, made in front of an officer who checks that every deck is
complete and unmarked, then stamps the entry: the decks, the checks, the
method, the witness and the recorded visa.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from audit.actions import Action
from audit.reads import officer_fingerprints
from cards_registry import selectors as depot

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("N°"), 6, "n"),
    fmt.column(_("Date et heure"), 11, "c"),
    fmt.column(_("Jeux détruits (fabricant, n° d'ordre, dos)"), 29),
    fmt.column(_("Complets / non marqués"), 10, "c"),
    fmt.column(_("Mode de destruction"), 10),
    fmt.column(_("Officier présent"), 11),
    fmt.column(_("Visa de l'officier"), 13, "visa"),
    fmt.column(_("Observations"), 10),
]


def destruction_section(records: list[Any], *, title: Any = "") -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    decks = 0
    signed = officer_fingerprints(records, Action.DEPOT_DESTRUCTION_STAMPED)
    for d in records:
        lines = list(d.lines.all())
        decks += len(lines)
        serials = ", ".join(fmt.deck_label(ln.deck) for ln in lines)
        checks = str(
            _("oui") if all(ln.complete and ln.unmarked for ln in lines) else _("NON — voir observations")
        )
        remarks = " ; ".join(f"{ln.deck.serial} : {ln.remark}" for ln in lines if ln.remark)
        corrections = fmt.corrections_of(d, d.number)
        rows.append(
            fmt.row(
                COLUMNS,
                [
                    d.number,
                    fmt.moment(d.at),
                    serials,
                    checks,
                    d.method,
                    fmt.person(d.officer),
                    fmt.visa_of(d, fingerprints=signed),
                    remarks,
                ],
                "corrected" if corrections else "",
            )
        )
        rows.extend(corrections)
    return fmt.section(
        COLUMNS,
        rows,
        title=title,
        totals=[
            fmt.total(
                _("Jeux détruits dans la période"),
                2,
                [(decks, "n"), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")],
            )
        ],
    )


@register
class Destructions(Register):
    name = "destructions"
    title = _("Registre des destructions de jeux de cartes")
    model = _("Procès-verbaux de destruction (carnet n° 19)")
    model_lu = _("Procès-verbaux de destruction")
    rule = "depot.destruction"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        read = depot.destructions
        records = list(read(request.date_from, request.date_to))
        return {"sections": [destruction_section(records)]}
