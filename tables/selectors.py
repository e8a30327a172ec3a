"""Reads of the tables, for the admin, the API, the portal and the printed registers.

Each function loads what it returns in a fixed number of queries, whatever
the size of the result. Amounts are :class:`~decimal.Decimal`.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from audit.actions import Action
from audit.selectors import audit_numbers
from cards_registry.history import HistoryLine

from .models import (
    AdvanceEntry,
    AuthorisedMinimum,
    ControlDay,
    ControlLine,
    Discrepancy,
    HandLog,
    MaximumChange,
    Session,
    Shoe,
    ShoeDeck,
    Table,
)


def deck_shoe_history(deck: Any) -> list[Any]:
    """The shoes and sessions a deck served, as lines of its history (FR art. 40, LU art. 7)."""
    rows = list(
        ShoeDeck.objects.filter(deck=deck)
        .select_related("shoe__session__table")
        .order_by("shoe__filled_at", "shoe_id")
    )
    seqs = audit_numbers([row.shoe for row in rows], Action.SHOE_FILLED)
    lines = []
    for row in rows:
        shoe = row.shoe
        session = shoe.session
        lines.append(
            HistoryLine(
                at=shoe.filled_at,
                what=(
                    f"Sabot {shoe.label} garni à la table {session.table.code} "
                    f"(séance n° {session.pk} du {session.day:%d/%m/%Y})"
                ),
                audit_seq=seqs.get(str(shoe.pk)),
            )
        )
    return lines


# -- the advance book (FR model n° 10) ---------------------------------------------------------


def _name(user: Any) -> str | None:
    if user is None:
        return None
    full = f"{user.first_name} {user.last_name}".strip()
    return full or user.get_username()


_ENTRY_EVENT = {
    "initial_advance": ("tables.session", Action.SESSION_OPENED),
    "closing": ("tables.session", Action.SESSION_CLOSED),
    "further_advance": ("tables.advanceentry", Action.SESSION_ADVANCE_ADDED),
    "interruption_counted": ("tables.advanceentry", Action.SESSION_INTERRUPTED),
    "interruption_locked": ("tables.advanceentry", Action.SESSION_INTERRUPTED),
    "resumption": ("tables.advanceentry", Action.SESSION_RESUMED),
    "correction": ("tables.advanceentry", Action.ADVANCE_BOOK_CORRECTED),
}


def _advance_seqs(sessions: list[Any]) -> dict[tuple[str, str, str], int | None]:
    """``{(object_type, object_id, action): seq}`` for the advance book's entries of ``sessions``."""
    seqs: dict[tuple[str, str, str], int | None] = {}
    for action in (Action.SESSION_OPENED, Action.SESSION_CLOSED):
        for oid, seq in audit_numbers(sessions, action).items():
            seqs[("tables.session", oid, action)] = seq
    entries = [e for s in sessions for e in s.entries.all()]
    entry_actions = {a for otype, a in _ENTRY_EVENT.values() if otype == "tables.advanceentry"}
    numbers = audit_numbers(entries, entry_actions)
    for entry in entries:
        if str(entry.pk) in numbers:
            seqs[("tables.advanceentry", str(entry.pk), _ENTRY_EVENT[entry.kind][1])] = numbers[str(entry.pk)]
    return seqs


def _entry_dict(entry: Any, seqs: dict[tuple[str, str, str], int | None]) -> dict[str, Any]:
    otype, action = _ENTRY_EVENT[entry.kind]
    oid = entry.session_id if otype == "tables.session" else entry.pk
    return {
        "id": entry.pk,
        "line": entry.line,
        "kind": entry.kind,
        "kind_label": str(entry.get_kind_display()),
        "amount": entry.amount,
        "at": entry.at,
        "counted_by": _name(entry.counted_by),
        "signed_by": _name(entry.signed_by),
        "cashier": _name(entry.cashier),
        "key_holder": _name(entry.key_holder),
        "corrects_line": entry.corrects.line if entry.corrects_id else None,
        "corrected_by_lines": [c.line for c in entry.corrections.all()],
        "note": entry.note,
        "audit_seq": seqs.get((otype, str(oid), action)),
    }


def _delegation_dict(delegation: Any) -> dict[str, Any] | None:
    """The delegation under which a committee member fixed the maximum (LU art. 51 V), as the
    registers show it: the delegate, the minister's approval, the dates."""
    if delegation is None:
        return None
    return {
        "id": delegation.pk,
        "delegate": _name(delegation.delegate),
        "approval_reference": delegation.approval_reference,
        "approved_on": delegation.approved_on,
        "valid_from": delegation.valid_from,
        "valid_until": delegation.valid_until,
        "granted_by": _name(delegation.granted_by),
    }


def _session_dicts(sessions: list[Any]) -> list[dict[str, Any]]:
    seqs = _advance_seqs(sessions)
    out = []
    for s in sessions:
        out.append(
            {
                "id": s.pk,
                "table_number": s.table.number,
                "table_code": s.table.code,
                "day": s.day,
                "fiscal_year": s.fiscal_year,
                "profile": s.profile,
                "house_rules": s.house_rules,
                "minimum": s.minimum,
                "maximum": s.maximum,
                "advance_amount": s.advance_amount,
                "guarantee_fund": s.guarantee_fund,
                "ministry_notified_on": s.ministry_notified_on,
                "delegation": _delegation_dict(s.delegation),
                "croupier": _name(s.croupier),
                "opened_at": s.opened_at,
                "opened_by": _name(s.opened_by),
                "status": s.status,
                "closed_at": s.closed_at,
                "advances_total": s.advances_total,
                "closing_cash": s.closing_cash,
                "result": s.result,
                "entries": [_entry_dict(e, seqs) for e in s.entries.all()],
                "maximum_changes": [
                    {
                        "at": c.at,
                        "previous": c.previous,
                        "maximum": c.maximum,
                        "by": _name(c.by),
                        "display_changed": c.display_changed,
                        "delegation": _delegation_dict(c.delegation),
                    }
                    for c in s.maximum_changes.all()
                ],
            }
        )
    return out


def _sessions_query() -> Any:
    from django.db.models import Prefetch

    entries = (
        AdvanceEntry.objects.select_related("counted_by", "signed_by", "cashier", "key_holder", "corrects")
        .prefetch_related("corrections")
        .order_by("line")
    )
    return Session.objects.select_related(
        "table", "croupier", "opened_by", "delegation__delegate", "delegation__granted_by"
    ).prefetch_related(
        Prefetch("entries", queryset=entries),
        Prefetch(
            "maximum_changes",
            queryset=MaximumChange.objects.select_related(
                "by", "delegation__delegate", "delegation__granted_by"
            ).order_by("at"),
        ),
    )


def advance_book(table_number: int, date_from: dt.date, date_to: dt.date) -> dict[str, Any]:
    """The advance book of one table (carnet d'avances, FR model n° 10; FR art. 42, 69; LU art. 9, 10).

    Shape::

        {"table_number": 3, "table_code": "BJ03", "date_from": date, "date_to": date,
         "sessions": [  # in order of opening
            {"id", "table_number", "table_code", "day", "fiscal_year", "profile",
             "house_rules", "minimum", "maximum" (current), "advance_amount",
             "guarantee_fund" (LU), "croupier", "opened_at", "opened_by" (signer),
             "status", "closed_at", "advances_total", "closing_cash",
             "result" (closing cash minus advances, corrections applied; None while open),
             "entries": [  # the book's lines, numbered per table without gaps
                {"id", "line", "kind", "kind_label", "amount", "at", "counted_by",
                 "signed_by", "cashier", "key_holder", "note", "audit_seq",
                 "corrects_line": line number this correction corrects (None otherwise),
                 "corrected_by_lines": [line numbers of corrections of this line]}],
             "maximum_changes": [{"at", "previous", "maximum", "by", "display_changed"}]}],
         "days": [{"day", "result"}]}  # closed sessions' results totalled per day

    Names are users' full names. Amounts are Decimals. A fixed number of queries whatever the range.
    """
    table = Table.objects.get(number=table_number)
    sessions = list(
        _sessions_query()
        .filter(table=table, day__gte=date_from, day__lte=date_to)
        .order_by("day", "opened_at")
    )
    data = _session_dicts(sessions)
    days: dict[dt.date, Decimal] = {}
    for s in data:
        if s["result"] is not None:
            days[s["day"]] = days.get(s["day"], Decimal("0.00")) + s["result"]
    return {
        "table_number": table.number,
        "table_code": table.code,
        "date_from": date_from,
        "date_to": date_to,
        "sessions": data,
        "days": [{"day": d, "result": r} for d, r in sorted(days.items())],
    }


# -- the control register (FR model n° 12) -----------------------------------------------------


def control_register(day: dt.date) -> dict[str, Any]:
    """The control register for one day (registre de contrôle, FR model n° 12; FR art. 68, 72).

    Shape::

        {"day": date, "closed": bool, "closed_at", "closed_by",
         "total_at_closing": Decimal | None (as written when the director closed the day),
         "total": Decimal (sum of the effective lines, corrections applied),
         "lines": [  # every line in the order written, corrections included
            {"id", "table_number", "table_code", "session_id", "advances",
             "closing_cash", "result", "at", "by",
             "corrects": id of the line it corrects (None for an original line),
             "is_correction": bool, "approval", "reason",
             "superseded": bool (a later correction replaces it), "audit_seq"}],
         "tables": [{"table_number", "table_code", "result"}]}  # effective results per table

    A fixed number of queries whatever the number of lines.
    """
    control_day = ControlDay.objects.select_related("closed_by").filter(day=day).first()
    if control_day is None:
        return {
            "day": day,
            "closed": False,
            "closed_at": None,
            "closed_by": None,
            "total_at_closing": None,
            "total": Decimal("0.00"),
            "lines": [],
            "tables": [],
        }
    lines = list(
        ControlLine.objects.filter(control_day=control_day).select_related("table", "by").order_by("id")
    )
    latest: dict[int, int] = {}
    for line in lines:
        latest[line.corrects_id or line.pk] = line.pk
    effective = set(latest.values())
    corrected = audit_numbers(lines, Action.CONTROL_REGISTER_CORRECTED)
    closed = audit_numbers(("tables.session", [line.session_id for line in lines]), Action.SESSION_CLOSED)
    rows = []
    per_table: dict[int, dict[str, Any]] = {}
    total = Decimal("0.00")
    for line in lines:
        if line.corrects_id:
            seq = corrected.get(str(line.pk))
        else:
            seq = closed.get(str(line.session_id))
        rows.append(
            {
                "id": line.pk,
                "table_number": line.table.number,
                "table_code": line.table.code,
                "session_id": line.session_id,
                "advances": line.advances,
                "closing_cash": line.closing_cash,
                "result": line.result,
                "at": line.at,
                "by": _name(line.by),
                "corrects": line.corrects_id,
                "is_correction": line.corrects_id is not None,
                "approval": line.approval,
                "reason": line.reason,
                "superseded": line.pk not in effective,
                "audit_seq": seq,
            }
        )
        if line.pk in effective:
            total += line.result
            t = per_table.setdefault(
                line.table.number,
                {"table_number": line.table.number, "table_code": line.table.code, "result": Decimal("0.00")},
            )
            t["result"] += line.result
    return {
        "day": day,
        "closed": control_day.is_closed,
        "closed_at": control_day.closed_at,
        "closed_by": _name(control_day.closed_by),
        "total_at_closing": control_day.total,
        "total": total,
        "lines": rows,
        "tables": [per_table[k] for k in sorted(per_table)],
    }


# -- the session report -----------------------------------------------------------------------


def session_report(session_id: int) -> dict[str, Any]:
    """Everything about one session, with its hand logs and their replay discrepancies.

    Shape: the session dict of :func:`advance_book` (entries, corrections and
    maximum changes included), plus::

        "shoes": [{"id", "number", "label", "filled_at", "croupier",
                   "decks": [{"serial", "back_colour"}]}],
        "hand_logs": [{"id", "sha256", "shoe_label", "shoe_id" (or None), "rounds",
                       "source", "uploaded_at", "uploaded_by", "croupier",
                       "replayed": bool, "ok": bool | None, "overpaid", "underpaid",
                       "discrepancies": [{"code", "round", "box", "hand", "player",
                                          "expected", "recorded", "delta", "article",
                                          "detail"}]}],
        "control_lines": [{"id", "result", "corrects", "at", "approval", "reason"}],
        "summary": {"rounds", "hand_logs", "replayed", "discrepancies",
                    "by_code": {code: count}, "overpaid", "underpaid"}

    ``overpaid`` is what the table paid wrongly in the players' favour,
    ``underpaid`` in the house's favour. A fixed number of queries whatever the number of logs.
    """
    from django.db.models import Prefetch

    session = (
        _sessions_query()
        .prefetch_related(
            Prefetch(
                "shoes",
                queryset=Shoe.objects.select_related("croupier").prefetch_related("decks").order_by("number"),
            ),
            Prefetch(
                "hand_logs",
                queryset=HandLog.objects.select_related("uploaded_by", "croupier", "replay")
                .prefetch_related(Prefetch("discrepancies", queryset=Discrepancy.objects.order_by("id")))
                .order_by("uploaded_at", "id"),
            ),
            Prefetch("control_lines", queryset=ControlLine.objects.order_by("id")),
        )
        .get(pk=session_id)
    )
    data = _session_dicts([session])[0]
    data["shoes"] = [
        {
            "id": shoe.pk,
            "number": shoe.number,
            "label": shoe.label,
            "filled_at": shoe.filled_at,
            "croupier": _name(shoe.croupier),
            "decks": [{"serial": d.serial, "back_colour": d.back_colour} for d in shoe.decks.all()],
        }
        for shoe in session.shoes.all()
    ]
    logs = []
    by_code: dict[str, int] = {}
    overpaid = underpaid = Decimal("0.00")
    rounds = replayed = count = 0
    for log in session.hand_logs.all():
        replay = getattr(log, "replay", None)
        discs = [
            {
                "code": d.code,
                "round": d.round,
                "box": d.box,
                "hand": d.hand,
                "player": d.player or None,
                "expected": d.expected,
                "recorded": d.recorded,
                "delta": d.delta,
                "article": d.article,
                "detail": d.detail,
            }
            for d in log.discrepancies.all()
        ]
        for d in discs:
            by_code[d["code"]] = by_code.get(d["code"], 0) + 1
        rounds += log.rounds
        count += len(discs)
        if replay is not None:
            replayed += 1
            overpaid += replay.overpaid
            underpaid += replay.underpaid
        logs.append(
            {
                "id": log.pk,
                "sha256": log.sha256,
                "shoe_label": log.shoe_label,
                "shoe_id": log.shoe_id,
                "rounds": log.rounds,
                "source": log.source,
                "uploaded_at": log.uploaded_at,
                "uploaded_by": _name(log.uploaded_by),
                "croupier": _name(log.croupier),
                "replayed": replay is not None,
                "ok": replay.ok if replay is not None else None,
                "overpaid": replay.overpaid if replay is not None else None,
                "underpaid": replay.underpaid if replay is not None else None,
                "discrepancies": discs,
            }
        )
    data["hand_logs"] = logs
    data["control_lines"] = [
        {
            "id": c.pk,
            "result": c.result,
            "corrects": c.corrects_id,
            "at": c.at,
            "approval": c.approval,
            "reason": c.reason,
        }
        for c in session.control_lines.all()
    ]
    data["summary"] = {
        "rounds": rounds,
        "hand_logs": len(logs),
        "replayed": replayed,
        "discrepancies": count,
        "by_code": dict(sorted(by_code.items())),
        "overpaid": overpaid,
        "underpaid": underpaid,
    }
    return data


# -- dealer errors ------------------------------------------------------------------------------

GROUPS = {
    "table": ("session__table__number", "session__table__code"),
    "session": ("session_id", "session__day"),
    "croupier": ("croupier_id", "croupier__username"),
}


def dealer_error_summary(
    *, by: str = "table", date_from: dt.date | None = None, date_to: dt.date | None = None
) -> list[dict[str, Any]]:
    """Dealer errors per table, session or croupier (``by``), over the replayed hand logs.

    Each row: ``{"key", "label", "hand_logs", "rounds", "discrepancies" (total),
    "by_code": {code: count}, "overpaid", "underpaid"}`` — ``overpaid`` is money
    paid wrongly to players, ``underpaid`` wrongly kept by the house (settlement
    discrepancies, FR art. 55-4 1° / LU art. 32 1.). Rows in key order. Two queries.
    """
    from django.db.models import Count, Sum

    if by not in GROUPS:
        raise ValueError(f"by must be one of {sorted(GROUPS)}")
    key, label = GROUPS[by]
    logs = HandLog.objects.filter(replay__isnull=False)
    discs = Discrepancy.objects.all()
    if date_from:
        logs = logs.filter(session__day__gte=date_from)
        discs = discs.filter(session__day__gte=date_from)
    if date_to:
        logs = logs.filter(session__day__lte=date_to)
        discs = discs.filter(session__day__lte=date_to)
    rows: dict[Any, dict[str, Any]] = {}
    for row in logs.values(key, label).annotate(
        n=Count("id"), rounds=Sum("rounds"), over=Sum("replay__overpaid"), under=Sum("replay__underpaid")
    ):
        rows[row[key]] = {
            "key": row[key],
            "label": str(row[label]),
            "hand_logs": row["n"],
            "rounds": row["rounds"] or 0,
            "discrepancies": 0,
            "by_code": {},
            "overpaid": row["over"] or Decimal("0.00"),
            "underpaid": row["under"] or Decimal("0.00"),
        }
    dkey = key.replace("croupier_id", "hand_log__croupier_id").replace("croupier__", "hand_log__croupier__")
    for row in (
        discs.filter(hand_log__replay__isnull=False)
        .values(dkey, "code")
        .annotate(n=Count("id"))
        .order_by(dkey, "code")
    ):
        target = rows.get(row[dkey])
        if target is not None:
            target["by_code"][row["code"]] = row["n"]
            target["discrepancies"] += row["n"]
    return [rows[k] for k in sorted(rows, key=lambda k: (k is None, k))]


# -- lists for the API and the admin --------------------------------------------------------------


def sessions(*, table: int | None = None, day: dt.date | None = None, status: str | None = None) -> Any:
    """Sessions with their table, newest first (one query)."""
    query = Session.objects.select_related("table").order_by("-day", "table__number", "-opened_at")
    if table is not None:
        query = query.filter(table__number=table)
    if day is not None:
        query = query.filter(day=day)
    if status:
        query = query.filter(status=status)
    return query


def hand_logs(*, session_id: int | None = None) -> Any:
    """Hand logs with their replay and discrepancies (a fixed number of queries for any number of logs)."""
    from django.db.models import Prefetch

    query = (
        HandLog.objects.select_related("replay")
        .prefetch_related(Prefetch("discrepancies", queryset=Discrepancy.objects.order_by("id")))
        .order_by("uploaded_at", "id")
    )
    if session_id is not None:
        query = query.filter(session_id=session_id)
    return query


def rounds_served_by_deck(deck_id: int) -> list[dict[str, Any]]:
    """The shoes a deck served and the hand logs (rounds) dealt from them, to trace an incident
    on the deck to the rounds it may have touched (FR art. 40, LU art. 7). A fixed number of queries.

    Each item: ``{"shoe", "session_id", "table_code", "day",
    "hand_logs": [{"id", "sha256", "rounds"}]}``, in the order the shoes were filled.
    """
    from django.db.models import Prefetch

    shoes = (
        Shoe.objects.filter(decks__deck_id=deck_id)
        .select_related("session__table")
        .prefetch_related(Prefetch("hand_logs", queryset=HandLog.objects.order_by("uploaded_at", "id")))
        .order_by("filled_at", "id")
        .distinct()
    )
    return [
        {
            "shoe": shoe.label,
            "session_id": shoe.session_id,
            "table_code": shoe.session.table.code,
            "day": shoe.session.day,
            "hand_logs": [
                {"id": log.pk, "sha256": log.sha256, "rounds": log.rounds} for log in shoe.hand_logs.all()
            ],
        }
        for shoe in shoes
    ]


def effective_control_lines(control_day: Any) -> list[Any]:
    """The day's lines of the control register, each original line replaced by its latest
    correction (FR art. 68, 72); one query."""
    latest: dict[int, Any] = {}
    for line in control_day.lines.order_by("id"):
        latest[line.corrects_id or line.pk] = line
    return list(latest.values())


def authorised_minimums_to_stamp() -> list[dict[str, Any]]:
    """The acts of the authorised minimum awaiting an officer's visa (for the officers' visas page):
    ``[{"id", "minimum", "decree_reference", "decree_date", "in_force_on", "recorded_by", "recorded_at"}]``."""
    rows = AuthorisedMinimum.objects.filter(stamped_at__isnull=True).select_related("recorded_by")
    return [
        {
            "id": a.pk,
            "minimum": a.minimum,
            "decree_reference": a.decree_reference,
            "decree_date": a.decree_date,
            "in_force_on": a.in_force_on,
            "recorded_by": _name(a.recorded_by),
            "recorded_at": a.recorded_at,
        }
        for a in rows.order_by("in_force_on", "recorded_at")
    ]


# -- what the officers' side reads (portal, registers) ---------------------------------------


def recent_discrepancy_rows(limit: int = 30) -> list[dict[str, Any]]:
    """The last discrepancies found in a round, newest first, with their table, shoe and
    whether their log breaks the rounds' numbering (``misnumbered``)."""
    misnumbered = Discrepancy.objects.filter(hand_log=OuterRef("hand_log"), code="ROUND_NUMBERING")
    return list(
        Discrepancy.objects.filter(~Q(round=None))
        .annotate(misnumbered=Exists(misnumbered))
        .order_by("-id")
        .values(
            "hand_log_id",
            "round",
            "code",
            "box",
            "article",
            "misnumbered",
            "session__table__code",
            "hand_log__shoe_label",
        )[:limit]
    )


def round_positions(log_id: int) -> dict[Any, int]:
    """A stored log's round numbers → their first position in the log."""
    positions: dict[Any, int] = {}
    for i, r in enumerate(json.loads(HandLog.objects.get(pk=log_id).raw).get("rounds", []), start=1):
        positions.setdefault(r.get("number"), i)
    return positions


def authorised_minimum_acts() -> QuerySet[Any]:
    """Every act of the authorised minimum (an officer stamps one by its id)."""
    return AuthorisedMinimum.objects.all()


def session_rows(
    *, table: int | None = None, since: dt.date | None = None, until: dt.date | None = None, status: str = ""
) -> QuerySet[Any]:
    """The sessions, newest first, filtered by table number, period and status."""
    rows = Session.objects.select_related("table", "croupier", "opened_by").order_by("-day", "-opened_at")
    if table:
        rows = rows.filter(table__number=table)
    if since:
        rows = rows.filter(day__gte=since)
    if until:
        rows = rows.filter(day__lte=until)
    if status:
        rows = rows.filter(status=status)
    return rows


def hand_log_rows(
    *, session: int | None = None, table: int | None = None, ok: bool | None = None
) -> QuerySet[Any]:
    """The stored hand logs, newest first, filtered by session, table number and replay outcome."""
    rows = HandLog.objects.select_related("session__table", "uploaded_by", "croupier", "replay").order_by(
        "-uploaded_at", "-id"
    )
    if session:
        rows = rows.filter(session_id=session)
    if table:
        rows = rows.filter(session__table__number=table)
    if ok is not None:
        rows = rows.filter(replay__ok=ok)
    return rows


def discrepancy_rows(
    *,
    code: str = "",
    table: int | None = None,
    session: int | None = None,
    hand_log: int | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
    round_number: int | None = None,
) -> QuerySet[Any]:
    """The discrepancies, newest log first, filtered by code, table, session, log, period, round."""
    rows = Discrepancy.objects.select_related("session__table", "hand_log").order_by(
        "-hand_log__uploaded_at", "-id"
    )
    if code:
        rows = rows.filter(code=code)
    if table:
        rows = rows.filter(session__table__number=table)
    if session:
        rows = rows.filter(session_id=session)
    if hand_log:
        rows = rows.filter(hand_log_id=hand_log)
    if round_number is not None:
        rows = rows.filter(round=round_number)
    if since:
        rows = rows.filter(session__day__gte=since)
    if until:
        rows = rows.filter(session__day__lte=until)
    return rows


def table_days(table: int, date_from: dt.date, date_to: dt.date) -> list[dt.date]:
    """The days a table has sessions in the period."""
    return list(
        Session.objects.filter(table__number=table, day__range=(date_from, date_to))
        .order_by("day")
        .values_list("day", flat=True)
        .distinct()
    )


def control_days(date_from: dt.date, date_to: dt.date) -> list[dt.date]:
    """The days of the control register in the period."""
    return list(
        ControlDay.objects.filter(day__range=(date_from, date_to))
        .order_by("day")
        .values_list("day", flat=True)
    )


def table_exists(number: int) -> bool:
    return Table.objects.filter(number=number).exists()


# -- for the house books (LU art. 51, 54, 63, 71) -------------------------------------------------

from .models import SessionStatus  # noqa: E402  (appended here; the file may be split by concern)


def open_sessions() -> QuerySet[Session]:
    """Sessions not yet closed (open or interrupted), with their table, by table number."""
    return (
        Session.objects.exclude(status=SessionStatus.CLOSED).select_related("table").order_by("table__number")
    )


def advance_entries(first: dt.date, last: dt.date) -> QuerySet[AdvanceEntry]:
    """The advance books' entries of days ``first``..``last``, with who signed and counted them."""
    return AdvanceEntry.objects.filter(session__day__gte=first, session__day__lte=last).select_related(
        "session__table", "signed_by", "counted_by"
    )
