"""The advance book (FR model n° 10), the session report and the lists of sessions and tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from audit.actions import Action
from audit.reads import audit_numbers

from ..models import (
    AdvanceEntry,
    ControlLine,
    Discrepancy,
    EntryKind,
    HandLog,
    MaximumChange,
    Session,
    SessionStatus,
    Shoe,
    Table,
)
from .acts import authorised_minimums_at_opening, interruptions, notice


def person_name(user: Any) -> str | None:
    """A person as the books show him: his full name, else his username (None: nobody)."""
    if user is None:
        return None
    full = f"{user.first_name} {user.last_name}".strip()
    return full or user.get_username()


_name = person_name


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


def delegation_dict(delegation: Any) -> dict[str, Any] | None:
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
    authorised = authorised_minimums_at_opening([s.pk for s in sessions])
    out = []
    for s in sessions:
        entries = [_entry_dict(e, seqs) for e in s.entries.all()]
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
                "ministry_notice_reference": s.ministry_notice_reference,
                # the moment the system recorded the notice (LU art. 26): the eight days run from it
                "ministry_notice_recorded_at": s.ministry_notice.recorded_at if s.ministry_notice else None,
                "delegation": delegation_dict(s.delegation),
                "croupier": _name(s.croupier),
                "opened_at": s.opened_at,
                "opened_by": _name(s.opened_by),
                "status": s.status,
                "status_label": s.get_status_display(),
                "closed_at": s.closed_at,
                "advances_total": s.advances_total,
                "closing_cash": s.closing_cash,
                "result": s.result,
                "entries": entries,
                "interruptions": interruptions(entries),
                "maximum_changes": [
                    {
                        "at": c.at,
                        "previous": c.previous,
                        "maximum": c.maximum,
                        "by": _name(c.by),
                        "display_changed": c.display_changed,
                        "delegation": delegation_dict(c.delegation),
                    }
                    for c in s.maximum_changes.all()
                ],
            }
        )
        out[-1]["notice"] = notice(out[-1], authorised.get(s.pk))
    return out


def _sessions_query() -> Any:
    from django.db.models import Prefetch

    entries = (
        AdvanceEntry.objects.select_related("counted_by", "signed_by", "cashier", "key_holder", "corrects")
        .prefetch_related("corrections")
        .order_by("line")
    )
    return Session.objects.select_related(
        "table", "croupier", "opened_by", "delegation__delegate", "delegation__granted_by", "ministry_notice"
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
             "status", "status_label", "closed_at", "advances_total", "closing_cash",
             "result" (closing cash minus advances, corrections applied; None while open),
             "entries": [  # the book's lines, numbered per table without gaps
                {"id", "line", "kind", "kind_label", "amount", "at", "counted_by",
                 "signed_by", "cashier", "key_holder", "note", "audit_seq",
                 "corrects_line": line number this correction corrects (None otherwise),
                 "corrected_by_lines": [line numbers of corrections of this line]}],
             "interruptions": [...]  (see :func:`tables.selectors.acts.interruptions`),
             "notice": LU art. 26 notice to the minister, or None (see :func:`tables.selectors.acts.notice`),
             "delegation": the delegation under which the maximum was fixed (None: the director),
             "maximum_changes": [{"at", "previous", "maximum", "by", "display_changed",
                                  "delegation"}]}],
         "days": [{"day", "result"}]}  # closed sessions' results totalled per day

    Names are users' full names. Amounts are Decimals. A fixed number of queries whatever the range.
    """
    table = Table.objects.get(number=table_number)
    sessions = list(
        _sessions_query()
        .filter(table=table, day__gte=date_from, day__lte=date_to)
        .order_by("day", "opened_at", "pk")
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
                                          "detail", "acknowledgement": {"by", "at", "note"}
                                          (the director's, None while not acknowledged)}]}],
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
                .prefetch_related(
                    Prefetch(
                        "discrepancies",
                        queryset=Discrepancy.objects.select_related(
                            "acknowledgement", "acknowledgement__by"
                        ).order_by("id"),
                    )
                )
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
                "acknowledgement": _acknowledgement(d),
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


def _acknowledgement(discrepancy: Any) -> dict[str, Any] | None:
    """The director's acknowledgement of a discrepancy (who, when, his observation), or None."""
    ack = getattr(discrepancy, "acknowledgement", None)
    if ack is None:
        return None
    return {"by": _name(ack.by), "at": ack.at, "note": ack.note}


def sessions(*, table: int | None = None, day: dt.date | None = None, status: str | None = None) -> Any:
    """Sessions with their table, newest first (one query)."""
    query = Session.objects.select_related("table").order_by("-day", "table__number", "-opened_at", "-pk")
    if table is not None:
        query = query.filter(table__number=table)
    if day is not None:
        query = query.filter(day=day)
    if status:
        query = query.filter(status=status)
    return query


def session_rows(
    *, table: int | None = None, since: dt.date | None = None, until: dt.date | None = None, status: str = ""
) -> QuerySet[Any]:
    """The sessions, newest first, filtered by table number, period and status."""
    rows = Session.objects.select_related("table", "croupier", "opened_by").order_by(
        "-day", "-opened_at", "-pk"
    )
    if table:
        rows = rows.filter(table__number=table)
    if since:
        rows = rows.filter(day__gte=since)
    if until:
        rows = rows.filter(day__lte=until)
    if status:
        rows = rows.filter(status=status)
    return rows


def table_days(table: int, date_from: dt.date, date_to: dt.date) -> list[dt.date]:
    """The days a table has sessions in the period."""
    return list(
        Session.objects.filter(table__number=table, day__range=(date_from, date_to))
        .order_by("day")
        .values_list("day", flat=True)
        .distinct()
    )


def table_exists(number: int) -> bool:
    return Table.objects.filter(number=number).exists()


def table_in_service(number: int) -> bool:
    """Whether table ``number`` exists and is in service (a shoe is assigned only to such a table)."""
    return Table.objects.filter(number=number, in_service=True).exists()


def table_choices() -> list[tuple[int, str]]:
    """The tables in service, as (number, "n° 3 — BJ03"), by number (a form's choices)."""
    return [
        (number, f"n° {number} — {code}")
        for number, code in Table.objects.filter(in_service=True)
        .order_by("number")
        .values_list("number", "code")
    ]


# -- for the house books (LU art. 51, 54, 63, 71) -------------------------------------------------


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


# -- for the table notices (LU art. 74) -----------------------------------------------------------


def limits_in_force(table_number: int | None = None) -> list[dict[str, Any]]:
    """Each table in service with the limits and the advance of its latest séance (the
    maximum as last changed): ``number``, ``code``, ``minimum``, ``maximum``, ``advance``,
    ``since`` (the opening of that séance, or ``None`` for a table that never played).
    Two queries."""
    tables = Table.objects.filter(in_service=True).order_by("number")
    if table_number is not None:
        tables = tables.filter(number=table_number)
    rows = list(tables)
    last = Session.objects.filter(table=OuterRef("table")).order_by("-opened_at", "-pk").values("pk")[:1]
    latest: dict[int, Session] = {
        session.table_id: session for session in Session.objects.filter(table__in=rows, pk=Subquery(last))
    }
    result = []
    for table in rows:
        session = latest.get(table.pk)
        result.append(
            {
                "number": table.number,
                "code": table.code,
                "minimum": session.minimum if session else None,
                "maximum": session.maximum if session else None,
                "advance": session.advance_amount if session else None,
                "since": session.opened_at if session else None,
            }
        )
    return result


def effective_advances(session: Session) -> list[tuple[int, Decimal]]:
    """The séance's advances as they stand, each corrected by its latest correction (FR art. 68):
    ``[(line, amount)]``, the initial advance first, then the further ones in line order. One query."""
    rows = list(
        AdvanceEntry.objects.filter(session_id=session.pk)
        .filter(kind__in=[EntryKind.INITIAL_ADVANCE, EntryKind.FURTHER_ADVANCE, EntryKind.CORRECTION])
        .order_by("line")
        .values("pk", "line", "kind", "amount", "corrects_id")
    )
    amounts: dict[int, Any] = {}  # an advance always carries its amount
    lines: dict[int, tuple[str, int]] = {}
    for row in rows:
        if row["kind"] == EntryKind.CORRECTION:
            if row["corrects_id"] in amounts:
                amounts[row["corrects_id"]] = row["amount"]
        else:
            amounts[row["pk"]] = row["amount"]
            lines[row["pk"]] = (row["kind"], row["line"])
    ordered = sorted(lines, key=lambda pk: (lines[pk][0] != EntryKind.INITIAL_ADVANCE, lines[pk][1]))
    return [(lines[pk][1], amounts[pk]) for pk in ordered]


def effective_session_advances(query: QuerySet[Session]) -> list[dict[str, Any]]:
    """The séances of ``query`` in the order opened, each with its initial advance as it stands
    (corrected by its latest correction, FR art. 68): ``[{"id", "day", "minimum",
    "advance_amount"}]``. Two queries."""
    found: list[dict[str, Any]] = [
        dict(s)
        for s in query.order_by("day", "opened_at", "pk").values("id", "day", "minimum", "advance_amount")
    ]
    corrected: dict[int, Any] = {}
    for session_id, amount in (
        AdvanceEntry.objects.filter(
            session_id__in=[s["id"] for s in found],
            kind=EntryKind.CORRECTION,
            corrects__kind=EntryKind.INITIAL_ADVANCE,
        )
        .order_by("line")
        .values_list("session_id", "amount")
    ):
        corrected[session_id] = amount
    for s in found:
        s["advance_amount"] = corrected.get(s["id"], s["advance_amount"])
    return found
