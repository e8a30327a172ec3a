"""Carnet des sabots (LU art. 32 §3, 40, 52; under FR, an internal book).

The shoes of an approved model, numbered by the casino and kept in the card cabinet, and
their assignment by the director to a table for each séance.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors

from . import fmt
from .base import Register, Request, register

DEVICES = [
    fmt.column(_("N° du casino"), 8, "c"),
    fmt.column(_("Modèle agréé"), 20),
    fmt.column(_("Décision d'agrément"), 18),
    fmt.column(_("État"), 14),
    fmt.column(_("Inscrit le"), 12, "c"),
]
ASSIGNMENTS = [
    fmt.column(_("Journée"), 10, "c"),
    fmt.column(_("Table"), 8, "c"),
    fmt.column(_("Sabot n°"), 8, "c"),
    fmt.column(_("Affecté par"), 16),
    fmt.column(_("Rentré à l'armoire le"), 14, "c"),
]


@register
class ShoeDevices(Register):
    name = "shoe-devices"
    title = _("Carnet des sabots")
    model = _("Sabots numérotés, déposés à l'armoire et affectés aux tables par le directeur")
    rule = "house.devices"

    def context(self, request: Request) -> dict[str, Any]:
        devices = [
            fmt.row(
                DEVICES,
                [
                    d.number,
                    d.approved_model,
                    d.approval_reference,
                    d.get_state_display(),
                    fmt.moment(d.recorded_at),
                ],
            )
            for d in selectors.devices()
        ]
        assignments = [
            fmt.row(
                ASSIGNMENTS,
                [
                    fmt.day(a.day),
                    a.table_number,
                    a.device.number,
                    fmt.person(a.assigned_by),
                    fmt.moment(a.returned_at),
                ],
            )
            for a in selectors.device_assignments(request.date_from, request.date_to)
        ]
        return {
            "sections": [
                fmt.section(DEVICES, devices, title=_("Inventaire des sabots")),
                fmt.section(
                    ASSIGNMENTS,
                    assignments,
                    title=_("Affectations aux séances"),
                    totals=[fmt.total(_("Affectations de la période"), 4, [(len(assignments), "n")])],
                ),
            ]
        }
