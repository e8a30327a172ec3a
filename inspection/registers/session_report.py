"""Rapport de séance: a table's sessions with their hand logs replayed (FR art. 55-4, 69).

Per session: the advance book's lines, the shoes and their decks, every hand
log with its SHA-256 and the discrepancies the replay found, each with the
article it breaks, and the amounts paid wrongly either way.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino_ops.admin_display import house_rule_labels
from inspection.portal import labels
from tables import selectors as tables

from . import fmt
from .advance_book import session_sections, table_days
from .base import Register, Request, register

DISCREPANCIES = [
    fmt.column(_("Journal de mains"), 11, "hash"),
    fmt.column(_("Manche"), 5, "n"),
    fmt.column(_("Case / main"), 6, "c"),
    fmt.column(_("Écart"), 20, "wrap"),
    fmt.column(_("Attendu"), 8, "n"),
    fmt.column(_("Inscrit"), 8, "n"),
    fmt.column(_("Différence"), 8, "n"),
    fmt.column(_("Article"), 9),
    fmt.column(_("Détail"), 11),
    fmt.column(_("Pris en compte par le directeur"), 14),
]
LOGS = [
    fmt.column(_("Journal de mains (SHA-256)"), 30, "hash"),
    fmt.column(_("Sabot"), 14, "wrap"),
    fmt.column(_("Manches"), 7, "n"),
    fmt.column(_("Déposé le, par"), 19),
    fmt.column(_("Rejoué"), 8, "c"),
    fmt.column(_("Trop payé / moins payé"), 22, "n"),
]


# The keys of a discrepancy's detail (tables.rules.logs), by what they name.
_DETAIL_KEYS = {
    "log": _("journal"),
    "session": _("séance"),
    "min": _("minimum"),
    "max": _("maximum"),
    "shoe_id": _("sabot du journal"),
    "boxes": _("cases"),
    "layout": _("cases du tapis"),
}
_AMOUNT = re.compile(r"^-?\d+\.\d{2}$")


def _detail_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{_detail_key(k)} {_detail_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return " / ".join(_detail_value(v) for v in value)
    if isinstance(value, bool):
        return str(_("oui") if value else _("non"))
    if value is None:
        return "—"
    if isinstance(value, str) and _AMOUNT.match(value):
        return fmt.amount(value)
    return str(value)


def _detail_key(key: str) -> str:
    label = _DETAIL_KEYS.get(key) or house_rule_labels().get(key)
    return str(label) if label else key.replace("_", " ")


def _detail(detail: Any, session_id: Any = None) -> str:
    """What the replay or the receipt found, in words: ``journal : minimum 25,00, maximum
    2 500,00; séance : minimum 10,00…`` (the engine's keys by their labels, amounts in French;
    the séance's own number is the report's section, not repeated)."""
    if isinstance(detail, str):
        try:
            detail = json.loads(detail) if detail.strip()[:1] in ("{", "[") else detail
        except ValueError:
            pass
    if isinstance(detail, dict):
        return "; ".join(
            f"{_detail_key(k)} : {_detail_value(v)}"
            for k, v in detail.items()
            if not (k == "session" and v == session_id)
        )
    if isinstance(detail, list | tuple):
        return "; ".join(_detail_value(v) for v in detail)
    return "" if detail in (None, "{}", "[]") else str(detail)


def _box_hand(box: Any, hand: Any) -> str:
    """``2 / 1``; one of them alone when the other is unknown; nothing for a whole log."""
    return " / ".join(str(v) for v in (box, hand) if v not in (None, ""))


def _acknowledged(ack: dict[str, Any] | None) -> str:
    """The director's acknowledgement of a discrepancy as printed: who, when, his observation."""
    if ack is None:
        return str(_("non"))
    text = f"{ack['by'] or ''} — {fmt.moment(ack['at'])}"
    return f"{text} ({ack['note']})" if ack["note"] else text


def report_sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    sections = session_sections(data)
    shoes = "; ".join(
        f"{s['label']} ({fmt.moment(s['filled_at'])}, {s['croupier'] or ''}) : "
        + fmt.serial_ranges(d["serial"] for d in s["decks"])
        for s in data.get("shoes", [])
    )
    log_rows, disc_rows = [], []
    acknowledged = 0
    for log in data.get("hand_logs", []):
        status = _("non") if not log["replayed"] else (_("conforme") if log["ok"] else _("écarts"))
        log_rows.append(
            fmt.row(
                LOGS,
                [
                    log["sha256"],
                    log["shoe_label"],
                    log["rounds"],
                    f"{fmt.moment(log['uploaded_at'])}, {log['uploaded_by'] or ''}",
                    status,
                    f"{fmt.amount(log['overpaid'])} / {fmt.amount(log['underpaid'])}",
                ],
            )
        )
        for d in log["discrepancies"]:
            disc_rows.append(
                fmt.row(
                    DISCREPANCIES,
                    [
                        log["sha256"][:12],
                        d["round"] if d["round"] is not None else "",
                        _box_hand(d["box"], d["hand"]),
                        labels.discrepancy_label(d["code"]),
                        fmt.amount(d["expected"]) if d["expected"] is not None else "",
                        fmt.amount(d["recorded"]) if d["recorded"] is not None else "",
                        fmt.amount(d["delta"]) if d["delta"] is not None else "",
                        d["article"],
                        _detail(d["detail"], data.get("id")),
                        _acknowledged(d.get("acknowledgement")),
                    ],
                )
            )
            acknowledged += d.get("acknowledgement") is not None
    summary = data.get("summary", {})
    sections.append(
        fmt.section(
            LOGS,
            log_rows,
            title=_("Journaux de mains et rejeu"),
            meta=[(_("Sabots"), shoes or "—"), (_("Manches"), summary.get("rounds", 0))],
        )
    )
    sections.append(
        fmt.section(
            DISCREPANCIES,
            disc_rows,
            title=_("Écarts constatés au rejeu"),
            meta=[
                (labels.discrepancy_label(code), count) for code, count in summary.get("by_code", {}).items()
            ]
            + (
                [(_("Pris en compte par le directeur"), f"{acknowledged} / {len(disc_rows)}")]
                if disc_rows
                else []
            ),
            totals=[
                fmt.total(
                    _("Trop payé aux joueurs / moins payé"),
                    6,
                    [
                        (fmt.amount(summary.get("overpaid")), "n"),
                        (fmt.amount(summary.get("underpaid")), "n"),
                        ("", ""),
                        ("", ""),
                    ],
                )
            ],
        )
    )
    return sections


@register
class SessionReport(Register):
    name = "session-report"
    title = _("Rapport de séance")
    model = _("Séances, journaux de mains et écarts au rejeu")
    rule = "game.play"
    needs_table = True
    part_unit = "day"

    def days_with_entries(self, request: Request) -> list[dt.date]:
        return table_days(request)

    def context(self, request: Request) -> dict[str, Any]:
        book = tables.advance_book
        report = tables.session_report
        sessions = book(request.table_number, request.date_from, request.date_to)["sessions"]
        sections: list[dict[str, Any]] = []
        for s in sessions:
            sections.extend(report_sections(report(s["id"])))
        return {"sections": sections}
