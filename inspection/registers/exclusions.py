"""Fichier des exclus (LU art. 68, 69, 75; under FR, an internal book).

The exclusions pronounced by the Minister of Justice and notified to the director, the
exclusions and refusals of admission by the management with their notice to the minister,
and the radiations. Only the person's name and birth date, the grounds and the dates.
Then the entries refused at the door (LU art. 67, 75), under the exclusion each enforces.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.services import get_casino
from house_books import selectors

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Nom et prénoms"), 15),
    fmt.column(_("Né(e) le"), 8, "c"),
    fmt.column(_("Mesure"), 13),
    fmt.column(_("Décidée le"), 8, "c"),
    fmt.column(_("Référence"), 12),
    fmt.column(_("Motif"), 14),
    fmt.column(_("Notifiée au directeur / avis au ministre"), 12, "c"),
    fmt.column(_("Radiée le"), 8, "c"),
    fmt.column(_("Référence de la radiation"), 10),
]

REFUSED_COLUMNS = [
    fmt.column(_("Exclusion appliquée"), 28),
    fmt.column(_("Entrée refusée le"), 12, "c"),
    fmt.column(_("Personne identifiée à l'entrée"), 24),
    fmt.column(_("Physionomiste"), 16),
    fmt.column(_("Observations"), 20),
]


def _refused_section(request: Request) -> dict[str, Any]:
    entries = list(selectors.refused_entries(request.date_from, request.date_to))
    rows = [
        fmt.row(
            REFUSED_COLUMNS,
            [
                f"{e.exclusion.last_name.upper()} {e.exclusion.first_names} — "
                f"{fmt.day(e.exclusion.decided_on)} — {e.exclusion.reference}",
                fmt.moment(e.refused_at),
                f"{e.last_name.upper()} {e.first_names} ({fmt.day(e.birth_date)})",
                e.physionomiste,
                e.remark,
            ],
        )
        for e in entries
    ]
    totals = [fmt.total(_("Entrées refusées de la période"), 4, [(len(entries), "n")])]
    return fmt.section(
        REFUSED_COLUMNS, rows, title=_("Entrées refusées aux exclus (LU art. 67, 75)"), totals=totals
    )


@register
class Exclusions(Register):
    name = "exclusions"
    title = _("Fichier des exclus des salles de jeux")
    model = _("Exclusions du Ministre de la Justice, exclusions et refus d'admission par la direction")
    rule = "house.exclusions"
    orientation = "landscape"

    def context(self, request: Request) -> dict[str, Any]:
        records = list(selectors.exclusions(request.date_from, request.date_to))
        # the notice's day is the director's word; beside it, the day the system recorded it when
        # another (LU art. 68, 69)
        recorded = selectors.exclusion_notice_recordings(records)
        casino = get_casino()
        rows = []
        in_force = 0
        for e in records:
            if e.lifted_on is None or e.lifted_on > request.date_to:
                in_force += 1
            by_minister = e.origin == "minister"
            measure = f"{e.get_kind_display()} — {e.get_origin_display()}"
            ground = e.get_ground_display() if by_minister else e.reasons
            notice = (
                fmt.day(e.director_notified_on)
                if by_minister
                else (
                    f"{fmt.day(e.minister_notified_on)} ({e.notice_reference})"
                    if e.minister_notified_on
                    else ""
                )
            )
            declared = e.director_notified_on if by_minister else e.minister_notified_on
            if declared is not None and e.pk in recorded:
                if casino.gaming_day(recorded[e.pk]) != declared:
                    written = timezone.localtime(recorded[e.pk]).date()
                    notice += " — " + str(_("inscrit le %(d)s") % {"d": fmt.day(written)})
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        f"{e.last_name.upper()} {e.first_names}",
                        fmt.day(e.birth_date),
                        measure,
                        fmt.day(e.decided_on),
                        e.reference,
                        ground,
                        notice,
                        fmt.day(e.lifted_on),
                        e.lift_reference,
                    ],
                    "corrected" if e.lifted_on and e.lifted_on <= request.date_to else "",
                )
            )
        totals = [
            fmt.total(
                _("Mesures de la période / en vigueur à la fin de la période"),
                7,
                [(len(records), "n"), (in_force, "n")],
            )
        ]
        return {"sections": [fmt.section(COLUMNS, rows, totals=totals), _refused_section(request)]}
