"""Procès-verbal de cessation de l'exploitation (LU art. 52; under FR, the casino's internal rules).

When the director stops the operation he leaves the books to the agents of control; the
exclusion file, the cards and the shoes are destroyed or handed to the successor before an
officer of the Gendarmerie, whose visa the act bears.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from audit.actions import Action
from audit.reads import officer_fingerprints
from house_books import selectors

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Cessation le"), 12, "c"),
    fmt.column(_("Documents laissés"), 16),
    fmt.column(_("Cartes, sabots, fichier des exclus"), 14),
    fmt.column(_("Fonctionnaire présent"), 14),
    fmt.column(_("Inscrit par"), 12),
    fmt.column(_("Visa du fonctionnaire"), 16),
]
LIST = [fmt.column(_("Objet"), 30), fmt.column(_("Détail"), 70)]


@register
class Closing(Register):
    name = "closing"
    title = _("Procès-verbal de cessation de l'exploitation")
    model = _("Documents remis, cartes, sabots et fichier des exclus détruits ou remis")
    rule = "house.closing"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        sections = []
        for closing in selectors.closings(request.date_from, request.date_to):
            disposal = closing.get_disposal_display()
            if closing.successor:
                disposal = f"{disposal} : {closing.successor}"
            signed = officer_fingerprints([closing], Action.HOUSE_CLOSING_STAMPED)
            visa = fmt.visa(closing.visa_by, closing.visa_at, signed.get(str(closing.pk), ""))
            if visa and closing.visa_remark:
                visa = f"{visa} — {closing.visa_remark}"
            head = fmt.row(
                COLUMNS,
                [
                    fmt.moment(closing.closed_at),
                    closing.get_documents_left_at_display(),
                    disposal,
                    closing.officer_name,
                    fmt.person(closing.recorded_by),
                    visa or _("non visé"),
                ],
            )
            sections.append(fmt.section(COLUMNS, [head]))
            decks = ", ".join(f"{d['manufacturer']} {d['serial']}" for d in closing.decks)
            devices = ", ".join(f"n° {n}" for n in closing.devices)
            rows = [fmt.row(LIST, [_("Document laissé"), line]) for line in closing.document_list()]
            rows += [
                fmt.row(LIST, [_("Jeux de cartes (%(n)s)") % {"n": len(closing.decks)}, decks or "—"]),
                fmt.row(LIST, [_("Sabots (%(n)s)") % {"n": len(closing.devices)}, devices or "—"]),
                fmt.row(
                    LIST,
                    [_("Fichier des exclus"), _("%(n)s fiches") % {"n": closing.exclusion_entries}],
                ),
            ]
            sections.append(fmt.section(LIST, rows, title=_("Inventaire remis ou détruit")))
        return {"sections": sections}
