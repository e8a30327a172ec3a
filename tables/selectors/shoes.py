"""Shoes, hand logs, their discrepancies and the dealers' errors (FR art. 55-4, 55-5; LU art. 32, 33)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from audit.actions import Action
from audit.reads import audit_numbers
from cards_registry.history import HistoryLine
from casino_ops import dates

from ..models import (
    Discrepancy,
    HandLog,
    Shoe,
    ShoeDeck,
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
                    f"(séance n° {session.pk} du {dates.day(session.day)})"
                ),
                audit_seq=seqs.get(str(shoe.pk)),
            )
        )
    return lines


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
