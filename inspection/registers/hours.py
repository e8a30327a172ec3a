"""Registre des heures des séances (LU art. 71; under FR, an internal book).

The start hours notified to the Ministers of Justice and of Finance (weekdays; Sundays and
holidays), each change notified 24 hours ahead, the closing hour of the authorisation, and
the séances stopped before it with their reason (the players left, or three coups in a row
without a stake).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from house_books import selectors

from . import fmt
from .base import Register, Request, register

HOURS = [
    fmt.column(_("En vigueur à partir du"), 14, "c"),
    fmt.column(_("Avis aux ministres le"), 14, "c"),
    fmt.column(_("Référence de l'avis"), 18),
    fmt.column(_("Début, jours ordinaires"), 12, "c"),
    fmt.column(_("Début, dimanches et jours fériés"), 12, "c"),
    fmt.column(_("Fermeture"), 10, "c"),
    fmt.column(_("Inscrit par"), 14),
]
STOPS = [
    fmt.column(_("Journée"), 10, "c"),
    fmt.column(_("Table"), 8, "c"),
    fmt.column(_("Arrêtée le"), 14, "c"),
    fmt.column(_("Motif"), 24),
    fmt.column(_("Observations"), 22),
    fmt.column(_("Inscrit par"), 14),
]


@register
class Hours(Register):
    name = "hours"
    title = _("Registre des heures des séances")
    model = _("Heures d'ouverture notifiées aux ministres et arrêts avant l'heure de fermeture")
    rule = "house.hours"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        notified = [
            fmt.row(
                HOURS,
                [
                    fmt.moment(h.effective_from),
                    fmt.moment(h.notified_at),
                    h.reference,
                    f"{h.weekday_start:%H:%M}",
                    f"{h.holiday_start:%H:%M}",
                    f"{h.closing:%H:%M}",
                    fmt.person(h.recorded_by),
                ],
            )
            for h in selectors.seance_hours(request.date_from, request.date_to)
        ]
        stops = [
            fmt.row(
                STOPS,
                [
                    fmt.day(s.session.day),
                    s.session.table.number,
                    fmt.moment(s.stopped_at),
                    s.get_reason_display(),
                    s.note,
                    fmt.person(s.recorded_by),
                ],
            )
            for s in selectors.early_stops(request.date_from, request.date_to)
        ]
        return {
            "sections": [
                fmt.section(HOURS, notified, title=_("Heures notifiées")),
                fmt.section(
                    STOPS,
                    stops,
                    title=_("Séances arrêtées avant l'heure de fermeture"),
                    totals=[fmt.total(_("Arrêts de la période"), 5, [(len(stops), "n")])],
                ),
            ]
        }
