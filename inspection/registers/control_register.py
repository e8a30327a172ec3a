"""Registre de contrôle, modèle n° 12 (FR art. 68, 72; LU art. 10).

Per day: each table's result carried from its advance book (advances,
closing cash, result), corrections in red under the line they correct with
the director's approval in words, the day's total, the closing by the
director and room for the officer's stamp.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext_lazy as _

from tables import selectors as tables

from . import fmt
from .base import Register, Request, place_corrections, register

COLUMNS = [
    fmt.column(_("Table"), 8, "c"),
    fmt.column(_("Séance"), 7, "n"),
    fmt.column(_("Avances"), 12, "n"),
    fmt.column(_("Encaisse"), 12, "n"),
    fmt.column(_("Résultat"), 12, "n"),
    fmt.column(_("Inscrit le, par"), 16),
    fmt.column(_("Audit n°"), 6, "n"),
    fmt.column(_("Rectification : approbation, motif"), 27),
]


def day_section(day: dt.date, data: dict[str, Any]) -> dict[str, Any]:
    lines = place_corrections(data["lines"])
    rows = []
    for line in lines:
        note = ""
        if line["is_correction"]:
            note = f"{line['approval']} — {line['reason']}"
            if line.get("after_visa"):
                note += " — " + _("rectifiée après visa")
        elif line["superseded"]:
            note = str(_("rectifiée ci-dessous"))
        rows.append(
            fmt.row(
                COLUMNS,
                [
                    line["table_code"],
                    line["session_id"],
                    fmt.amount(line["advances"]),
                    fmt.amount(line["closing_cash"]),
                    fmt.amount(line["result"]),
                    f"{fmt.moment(line['at'])}, {line['by'] or ''}",
                    line["audit_seq"] or "",
                    note,
                ],
                line.get("css", ""),
            )
        )
    totals = [
        fmt.total(
            _("Total de la journée"), 4, [(fmt.amount(data["total"]), "n"), ("", ""), ("", ""), ("", "")]
        )
    ]
    closing = [
        (
            _("Clôture par le directeur"),
            _("%(who)s — %(at)s — total arrêté : %(total)s")
            % {
                "who": data["closed_by"],
                "at": fmt.moment(data["closed_at"]),
                "total": fmt.amount(data["total_at_closing"]),
            }
            if data["closed"]
            else _("journée non close"),
        ),
        (_("Visa de l'officier"), _stamp_text(data.get("stamp"))),
    ]
    return fmt.section(
        COLUMNS, rows, title=_("Journée du %(d)s") % {"d": fmt.day(day)}, totals=totals, closing=closing
    )


def _stamp_text(stamp: dict[str, Any] | None) -> str:
    """The officer's visa of the day as printed (room left blank while there is none)."""
    if not stamp:
        return ""
    text = fmt.visa(stamp["by"], stamp["at"], stamp["fingerprint"])
    return f"{text} — {stamp['remark']}" if stamp["remark"] else text


@register
class ControlRegister(Register):
    name = "control-register"
    title = _("Registre de contrôle")
    model = _("Modèle n° 12")
    model_lu = _("Résultats journaliers des tables, arrêtés et totalisés")
    rule = "control_register"
    part_unit = "day"

    def days_with_entries(self, request: Request) -> list[dt.date]:
        return tables.control_days(request.date_from, request.date_to)

    def context(self, request: Request) -> dict[str, Any]:
        read = tables.control_register
        sections = []
        day = request.date_from
        while day <= request.date_to:
            data = read(day)
            if data["lines"] or data["closed"]:
                sections.append(day_section(day, data))
            day += dt.timedelta(days=1)
        return {"sections": sections}
