"""Rapport mensuel des exceptions de numérotation (FR art. 39, 68; LU art. 6, 10).

Every numbered book of the casino (audit.books.numbering: the depot's orders, receipts,
incidents and destructions, the advance book's lines, the shoes, the orphans…): the numbers
given in the month, each gap, number given twice or out of order with its explanation, the
entries replaced by a correction with the correction's explanation, and the depot's counters
out of step. Signed and kept as a register, as internal-control rules require of a numbered
form's exceptions (NJAC 13:69D-1.5).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from audit.books.numbering import numbering_report

from . import fmt
from .base import Register, Request, register

SERIES = [
    fmt.column(_("Registre numéroté"), 46),
    fmt.column(_("Premier n°"), 10, "c"),
    fmt.column(_("Dernier n°"), 10, "c"),
    fmt.column(_("Numéros attribués"), 12, "c"),
    fmt.column(_("Exceptions"), 12, "c"),
]
EXCEPTIONS = [
    fmt.column(_("Registre numéroté"), 34),
    fmt.column(_("Exception"), 36),
    fmt.column(_("Explication"), 30),
]
REPLACED = [
    fmt.column(_("Registre numéroté"), 40),
    fmt.column(_("N° remplacé"), 10, "c"),
    fmt.column(_("Remplacé par le n°"), 12, "c"),
    fmt.column(_("Explication"), 38),
]

#: What a gap, a repeat or a reorder is explained by: nothing the application writes; the
#: report says so, for the casino to explain it to the authority.
UNEXPLAINED = _("Aucune explication inscrite : à justifier auprès de l'autorité")


def _moment(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


@register
class Numbering(Register):
    name = "numbering"
    title = _("Rapport des exceptions de numérotation")
    model = _("Registres numérotés : lacunes, numéros annulés ou remplacés, et leurs explications")
    rule = "books.no_erasure"

    def context(self, request: Request) -> dict[str, Any]:
        series, replaced, counters = numbering_report(
            _moment(request.date_from), _moment(request.date_to + dt.timedelta(days=1))
        )
        rows = [
            fmt.row(
                SERIES,
                [s.book, s.first or "—", s.last or "—", s.given, len(s.exceptions) or _("aucune")],
            )
            for s in series
        ]
        exceptions = [
            fmt.row(EXCEPTIONS, [s.book, exception, UNEXPLAINED])
            for s in series
            for exception in s.exceptions
        ] + [fmt.row(EXCEPTIONS, [_("Compteur du dépôt"), problem, UNEXPLAINED]) for problem in counters]
        replacements = [
            fmt.row(REPLACED, [r.book, r.number, r.by, r.explanation or _("(sans explication)")])
            for r in replaced
        ]
        return {
            "sections": [
                fmt.section(
                    SERIES,
                    rows,
                    title=_("Numéros attribués dans la période"),
                    totals=[fmt.total(_("Numéros attribués"), 3, [(sum(s.given for s in series), "n")])],
                ),
                fmt.section(
                    EXCEPTIONS,
                    exceptions,
                    title=_("Lacunes, numéros en double ou dans le désordre"),
                    totals=[fmt.total(_("Exceptions"), 2, [(len(exceptions), "n")])],
                ),
                fmt.section(
                    REPLACED,
                    replacements,
                    title=_("Numéros remplacés par une correction"),
                    totals=[fmt.total(_("Numéros remplacés"), 3, [(len(replacements), "n")])],
                ),
            ]
        }
