"""Carnet d'avances d'une table, modèle n° 10 (FR art. 42, 68, 69; LU art. 9, 10).

Per session: the initial advance and each further advance, counted by the
croupier and signed by the director or a committee member; the closing cash
certified "exact"; corrections in red right under the line they correct;
the session closed and totalled; the days totalled.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext_lazy as _

from tables import selectors as tables

from . import fmt
from .base import Register, Request, register

COLUMNS = [
    fmt.column(_("Ligne"), 6, "n"),
    fmt.column(_("Date et heure"), 12, "c"),
    fmt.column(_("Nature"), 14),
    fmt.column(_("Montant"), 11, "n"),
    fmt.column(_("Compté par"), 12),
    fmt.column(_("Signé (« exact ») par"), 13),
    fmt.column(_("Caissier / clé"), 11),
    fmt.column(_("Audit n°"), 6, "n"),
    fmt.column(_("Observations"), 15),
]


def _delegated(item: dict[str, Any]) -> str:
    """The maximum fixed by the director's delegate (LU art. 51 V): the delegation act, as printed."""
    d = item.get("delegation")
    if not d:
        return ""
    return " — " + str(
        _("maximum fixé par délégation du directeur (%(r)s, agréé le %(a)s, en vigueur du %(f)s)")
    ) % {
        "r": d["approval_reference"],
        "a": fmt.day(d["approved_on"]),
        "f": fmt.day(d["valid_from"]),
    }


def session_section(s: dict[str, Any]) -> dict[str, Any]:
    entries = [dict(e) for e in s["entries"]]
    by_line = {e["line"]: e for e in entries}
    rows: list[dict[str, Any]] = []
    for e in entries:
        note = e["note"]
        if e.get("corrects_line"):
            note = f"Rectifie la ligne {e['corrects_line']}. {note}".strip()
            target = by_line.get(e["corrects_line"])
            e["css"] = "correction"
            if target is not None:
                target["css"] = target.get("css") or "corrected"
        rows.append(
            fmt.row(
                COLUMNS,
                [
                    e["line"],
                    fmt.moment(e["at"]),
                    e["kind_label"],
                    fmt.amount(e["amount"]),
                    e["counted_by"] or "",
                    e["signed_by"] or "",
                    " / ".join(x for x in (e["cashier"], e["key_holder"]) if x),
                    e["audit_seq"] or "",
                    note,
                ],
                e.get("css", ""),
            )
        )
    rows = _corrections_after_targets(rows, entries)
    meta = [
        (_("Journée"), fmt.day(s["day"])),
        (_("Minimum / maximum"), f"{fmt.amount(s['minimum'])} / {fmt.amount(s['maximum'])}"),
        (_("Avance fixée"), fmt.amount(s["advance_amount"])),
        (_("Croupier"), s["croupier"] or ""),
        (_("Ouverte par"), f"{s['opened_by'] or ''} le {fmt.moment(s['opened_at'])}{_delegated(s)}"),
    ]
    changes = "; ".join(
        f"{fmt.moment(c['at'])} : {fmt.amount(c['previous'])} → {fmt.amount(c['maximum'])} ({c['by']}{_delegated(c)})"
        for c in s.get("maximum_changes", [])
    )
    if changes:
        meta.append((_("Changements du maximum"), changes))
    totals = [
        fmt.total(_("Total des avances"), 3, [(fmt.amount(s["advances_total"]), "n")] + [("", "")] * 5),
        fmt.total(_("Encaisse à la fermeture"), 3, [(fmt.amount(s["closing_cash"]), "n")] + [("", "")] * 5),
        fmt.total(_("Résultat de la séance"), 3, [(fmt.amount(s["result"]), "n")] + [("", "")] * 5),
    ]
    closing = [
        (_("Séance close le"), fmt.moment(s["closed_at"]) or _("séance ouverte")),
        (
            _("Certifié « exact » par"),
            next(
                (e["signed_by"] for e in reversed(s["entries"]) if e["kind"] == "closing" and e["signed_by"]),
                "",
            ),
        ),
    ]
    return fmt.section(
        COLUMNS,
        rows,
        title=_("Séance n° %(id)s — table %(t)s") % {"id": s["id"], "t": s["table_code"]},
        meta=meta,
        totals=totals,
        closing=closing,
    )


def _corrections_after_targets(
    rows: list[dict[str, Any]], entries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Put each correcting line right after the line it corrects (by book line number)."""
    order: list[int] = []
    index = {e["line"]: i for i, e in enumerate(entries)}
    followers: dict[int, list[int]] = {}
    for i, e in enumerate(entries):
        target = e.get("corrects_line")
        if target in index:
            followers.setdefault(index[target], []).append(i)
        else:
            order.append(i)

    out: list[int] = []

    def emit(i: int) -> None:
        out.append(i)
        for j in followers.get(i, []):
            emit(j)

    for i in order:
        emit(i)
    return [rows[i] for i in out]


def table_days(request: Request) -> list[dt.date]:
    """The days a table has sessions in the period (the daily parts of its books)."""
    return tables.table_days(request.table_number, request.date_from, request.date_to)


@register
class AdvanceBook(Register):
    name = "advance-book"
    title = _("Carnet d'avances")
    model = _("Modèle n° 10")
    rule = "advance.book"
    needs_table = True
    part_unit = "day"

    def days_with_entries(self, request: Request) -> list[dt.date]:
        return table_days(request)

    def context(self, request: Request) -> dict[str, Any]:
        read = tables.advance_book
        book = read(request.table_number, request.date_from, request.date_to)
        sections = [session_section(s) for s in book["sessions"]]
        if book["days"]:
            columns = [fmt.column(_("Journée"), 50, "c"), fmt.column(_("Résultat de la journée"), 50, "n")]
            sections.append(
                fmt.section(
                    columns,
                    [fmt.row(columns, [fmt.day(d["day"]), fmt.amount(d["result"])]) for d in book["days"]],
                    title=_("Totaux par journée"),
                )
            )
        return {"sections": sections}
