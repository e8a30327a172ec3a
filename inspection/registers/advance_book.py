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


INTERRUPTIONS = [
    fmt.column(_("Ligne"), 6, "n"),
    fmt.column(_("Interrompue le"), 12, "c"),
    fmt.column(_("Mode"), 14),
    fmt.column(_("Encaisse comptée"), 11, "n"),
    fmt.column(_("Compté par"), 12),
    fmt.column(_("Signé par / caissier"), 15),
    fmt.column(_("Clé détenue par"), 12),
    fmt.column(_("Reprise le, par (ligne)"), 18),
]


def _fixed_by(who: str | None, item: dict[str, Any]) -> str:
    """Who fixed the maximum: the director, or his delegate with the delegation act (LU art. 51 V)."""
    if item.get("delegation"):
        return f"{who or ''}{_delegated(item)}"
    return f"{who or ''} ({_('directeur')})"


def _notice(n: dict[str, Any] | None) -> str:
    """The séance's notice to the minister (LU art. 26) as printed."""
    if n is None:
        return ""
    above = (
        str(_("minimum supérieur au minimum autorisé (%(a)s)")) % {"a": fmt.amount(n["authorised_minimum"])}
        if n["required"]
        else str(_("minimum non supérieur au minimum autorisé"))
    )
    if n["notified_on"] is None:
        return str(_("aucune information du ministre")) + f" — {above}"
    reference = n.get("reference") or ""
    said = str(_("ministre informé le %(d)s, %(n)s jours avant la séance%(late)s — %(above)s")) % {
        "d": fmt.day(n["notified_on"])
        + (
            " (" + str(_("information inscrite le %(r)s")) % {"r": fmt.moment(n["recorded_at"])} + ")"
            if n.get("recorded_at")
            else ""
        ),
        "n": n["days_ahead"],
        "late": "" if n["in_time"] or not n["required"] else " (" + str(_("moins de huit jours")) + ")",
        "above": above,
    }
    if reference:
        return f"{said} — " + str(_("référence %(reference)s")) % {"reference": reference}
    return f"{said} — " + str(_("sans référence")) if n["required"] else said


def interruptions_section(s: dict[str, Any]) -> dict[str, Any] | None:
    """A séance's interruptions and resumptions (FR art. 69; LU art. 23), or None without any."""
    items = s.get("interruptions") or []
    if not items:
        return None
    rows = []
    for i in items:
        mode = _("encaisse comptée") if i["mode"] == "counted" else _("encaisse sous clé")
        signed = " / ".join(x for x in (i["signed_by"], i["cashier"]) if x)
        resumed = (
            f"{fmt.moment(i['resumed_at'])}, {i['resumed_by'] or ''} ({i['resumed_line']})"
            if i["resumed_at"] is not None
            else str(_("non reprise"))
        )
        rows.append(
            fmt.row(
                INTERRUPTIONS,
                [
                    i["line"],
                    fmt.moment(i["at"]),
                    mode,
                    fmt.amount(i["amount"]),
                    i["counted_by"] or "",
                    signed,
                    i["key_holder"] or "",
                    resumed,
                ],
            )
        )
    return fmt.section(
        INTERRUPTIONS,
        rows,
        title=_("Séance n° %(id)s — interruptions et reprises") % {"id": s["id"]},
    )


def session_sections(s: dict[str, Any]) -> list[dict[str, Any]]:
    """A séance in the advance book: its lines, then its interruptions when it has any."""
    extra = interruptions_section(s)
    return [session_section(s)] + ([extra] if extra is not None else [])


def session_section(s: dict[str, Any]) -> dict[str, Any]:
    entries = [dict(e) for e in s["entries"]]
    by_line = {e["line"]: e for e in entries}
    rows: list[dict[str, Any]] = []
    for e in entries:
        note = e["note"]
        if e.get("corrects_line"):
            note = (_("Rectifie la ligne %(n)s.") % {"n": e["corrects_line"]} + f" {note}").strip()
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
        (
            _("Ouverte par"),
            _("%(who)s le %(at)s") % {"who": s["opened_by"] or "", "at": fmt.moment(s["opened_at"])},
        ),
        (_("Maximum fixé par"), _fixed_by(s["opened_by"], s)),
    ]
    notice = _notice(s.get("notice"))
    if notice:
        meta.append((_("Information du ministre (huit jours avant)"), notice))
    changes = "; ".join(
        f"{fmt.moment(c['at'])} : {fmt.amount(c['previous'])} → {fmt.amount(c['maximum'])} ({_fixed_by(c['by'], c)})"
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
    model_lu = _("Carnet d'avances de la table")
    rule = "advance.book"
    needs_table = True
    part_unit = "day"

    def days_with_entries(self, request: Request) -> list[dt.date]:
        return table_days(request)

    def context(self, request: Request) -> dict[str, Any]:
        read = tables.advance_book
        book = read(request.table_number, request.date_from, request.date_to)
        sections = [section for s in book["sessions"] for section in session_sections(s)]
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
