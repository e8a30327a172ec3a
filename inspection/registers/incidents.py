"""Registre des incidents de cartes (FR art. 40; LU art. 7).

A missing, extra, marked or foreign card is reported at once to the officer,
with the circumstances; the decks are quarantined until the incident is
closed with the officer's findings.
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
        read = depot.incidents
        records = list(read(request.date_from, request.date_to))
        signed = officer_fingerprints(records, Action.DEPOT_INCIDENT_CLOSED)
        rows: list[dict[str, Any]] = []
        open_count = 0
        settings_of = depot.depot_settings
        late_after = settings_of().incident_report_minutes
        for i in records:
            closure = getattr(i, "closure", None)
            if closure is None:
                open_count += 1
                closed = str(_("en cours"))
            else:
                visa = fmt.visa(closure.officer, closure.at, signed.get(str(i.pk), ""))
                closed = f"{closure.finding} — {visa}"
            where = " / ".join(str(x) for x in (i.table_number, i.shoe_reference) if x)
            decks = ", ".join(fmt.deck_label(d) for d in i.decks.all())
            if getattr(i, "card", ""):
                decks = "; ".join(x for x in (decks, _("carte : %(card)s") % {"card": i.card}) if x)
            told = _told(i, late_after)
            corrections = fmt.corrections_of(i, i.number)
            rows.append(
                fmt.row(
                    COLUMNS,
                    [
                        i.number,
                        fmt.moment(i.occurred_at),
                        where,
                        f"{i.get_kind_display()} ({i.get_route_display()})"
                        if hasattr(i, "get_route_display")
                        else i.get_kind_display(),
                        decks,
                        i.circumstances,
                        fmt.person(i.reported_by) or _("le système"),
                        told,
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


def _told(incident: Any, late_after: int | None) -> str:
    """Whom the incident was reported to and when, the delay, flagged late past the depot's threshold."""
    told_at = getattr(incident, "told_at", incident.officer_informed_at)
    if told_at is None:
        return "NON SIGNALÉ"
    whom = incident.told_whom if hasattr(incident, "told_whom") else fmt.person(incident.officer_informed)
    minutes = max(0, int((told_at - incident.occurred_at).total_seconds() // 60))
    late = late_after is not None and minutes > late_after
    declared = getattr(incident, "declared_told_at", None)
    said = ""
    if declared is not None and declared != told_at:
        said = " — " + _("déclaré avisé le %(at)s") % {"at": fmt.moment(declared)}
        late = late or (late_after is not None and (told_at - declared).total_seconds() > late_after * 60)
    late_said = " — " + str(_("EN RETARD")) if late else ""
    return f"{whom}, {fmt.moment(told_at)} (+{minutes} min{late_said}){said}"
