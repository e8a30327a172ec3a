"""The depot's books, for the printed registers (receipt book, order book, incidents, destructions, the depot's log)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from casino_ops import dates

from ..models import (
    CabinetOpening,
    Correction,
    Deck,
    Destruction,
    DestructionLine,
    Incident,
    KeyHandover,
    Order,
    Reception,
    Sixain,
)

_CORRECTIONS = Prefetch(
    "corrections", queryset=Correction.objects.select_related("approved_by").order_by("at", "id")
)


def _day_range(date_from: dt.date, date_to: dt.date) -> tuple[dt.date, dt.date]:
    if date_to < date_from:
        raise ValueError("date_to is before date_from")
    return date_from, date_to


def receipt_book(date_from: dt.date, date_to: dt.date) -> QuerySet[Reception]:
    """The receipt book (FR model n° 19) for receptions dated ``date_from`` to ``date_to`` (inclusive).

    In book and entry order. Each :class:`Reception` carries, without further query:
    ``book.number``, ``number``, ``received_on``, ``recorded_at``, ``recorded_by``,
    ``delivery_note``, ``over_delivery``, ``manufacturer`` (``code``, ``name``,
    ``approval_reference``), ``order`` (``number``, ``book.number``), ``visa`` (absent
    when not stamped: use ``getattr(r, "visa", None)``; else ``officer`` and ``at``),
    ``sixains.all()`` (``serial``), ``decks.all()`` (``serial``, ``back_colour``,
    ``sixain_id``, ``status``; by serial) and ``corrections.all()`` (``field``,
    ``old_value``, ``new_value``, ``reason``, ``approved_by``, ``at``).
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Reception.objects.filter(received_on__range=(date_from, date_to))
        .select_related("book", "order__book", "manufacturer", "recorded_by", "visa__officer")
        .prefetch_related(
            Prefetch("sixains", queryset=_sixains()),
            Prefetch("decks", queryset=Deck.objects.order_by("serial")),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def _sixains() -> QuerySet[Any]:

    return Sixain.objects.order_by("serial")


def order_book(date_from: dt.date, date_to: dt.date) -> QuerySet[Order]:
    """The purchase-order book (FR model n° 21) for orders dated ``date_from`` to ``date_to``.

    Each :class:`Order`: ``book.number``, ``number``, ``ordered_on``, ``recorded_at``,
    ``recorded_by``, ``note``, ``sent_at``, ``manufacturer`` (``code``, ``name``,
    ``approval_reference``, ``ministry``), ``visa`` (``officer``, ``at``; absent when
    not stamped), ``lines.all()`` (``quantity``, ``unit``, ``back_colour``, ``decks``),
    ``receptions.all()`` (``number``, ``received_on``, ``over_delivery``) and
    ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Order.objects.filter(ordered_on__range=(date_from, date_to))
        .select_related("book", "manufacturer", "recorded_by", "visa__officer")
        .prefetch_related(
            "lines",
            Prefetch("receptions", queryset=Reception.objects.select_related("book").order_by("number")),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def incidents(date_from: dt.date, date_to: dt.date) -> QuerySet[Incident]:
    """The incidents of the gaming days ``date_from`` to ``date_to``, in number order.

    Each :class:`Incident`: ``number``, ``kind`` (``get_kind_display()``), ``occurred_at``,
    ``table_number``, ``day``, ``shoe_reference``, ``officer_informed``,
    ``officer_informed_at``, ``authority_informed``, ``route``, ``card``, ``told_whom``,
    ``told_at`` (with ``later_report``), ``circumstances``, ``reported_by``, ``decks.all()``
    (``serial``, ``back_colour``, ``manufacturer.code``), ``closure`` (absent while
    open; else ``officer``, ``at``, ``finding``, ``decks_fit.all()``) and
    ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Incident.objects.filter(day__range=(date_from, date_to))
        .select_related(
            "book", "officer_informed", "reported_by", "closure__officer", "later_report__officer"
        )
        .prefetch_related(
            Prefetch("decks", queryset=Deck.objects.select_related("manufacturer").order_by("serial")),
            "closure__decks_fit",
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


def destructions(date_from: dt.date, date_to: dt.date) -> QuerySet[Destruction]:
    """The destruction records of ``date_from`` to ``date_to`` (by the local date of ``at``).

    Each :class:`Destruction`: ``number``, ``at``, ``method``, ``officer`` (the
    witness), ``recorded_by``, ``visa`` (``officer``, ``at``; absent when not stamped),
    ``lines.all()`` (``deck.serial``, ``deck.back_colour``, ``deck.manufacturer.code``,
    ``complete``, ``unmarked``, ``remark``) and ``corrections.all()``.
    """
    date_from, date_to = _day_range(date_from, date_to)
    return (
        Destruction.objects.filter(at__date__range=(date_from, date_to))
        .select_related("book", "officer", "recorded_by", "visa__officer")
        .prefetch_related(
            Prefetch(
                "lines",
                queryset=DestructionLine.objects.select_related("deck__manufacturer").order_by(
                    "deck__serial"
                ),
            ),
            _CORRECTIONS,
        )
        .order_by("book__number", "number")
    )


@dataclass(frozen=True)
class DepotLogEntry:
    """A line of the depot log: a cabinet opening or a key handover.

    ``kind`` is ``"opening"`` or ``"key"``; ``who`` the user who opened or gave the
    key; ``receiver`` the key's new holder (key lines); ``purpose`` the opening's
    reason (French label); ``table_number``/``day`` for issues and returns;
    ``demanded_by`` the officer who demanded an inspection or witnessed a
    destruction; ``note`` the free remark.
    """

    at: dt.datetime
    kind: str
    who: Any
    purpose: str = ""
    receiver: Any = None
    table_number: int | None = None
    day: dt.date | None = None
    demanded_by: Any = None
    note: str = ""


def _opening_note(opening: CabinetOpening) -> str:
    """The opening's remark, with the officer's own demand and the inventory made at it."""
    parts = [opening.note] if opening.note else []
    demand = opening.demand
    if demand is not None:
        parts.append(
            f"demande de l'officier du {dates.moment(demand.at)}"
            + (f" : {demand.reason}" if demand.reason else "")
        )
    inventory = getattr(opening, "inventory", None)
    if inventory is not None:
        text = f"inventaire : {inventory.expected} jeux selon les registres, {inventory.found} trouvés"
        if inventory.missing:
            text += f", manquants : {', '.join(inventory.missing)}"
        if inventory.unexpected:
            text += f", en trop : {', '.join(inventory.unexpected)}"
        if inventory.incident is not None:
            text += f" (incident n° {inventory.incident.number})"
        parts.append(text)
    return " ; ".join(parts)


def depot_log(date_from: dt.date, date_to: dt.date) -> list[DepotLogEntry]:
    """Every cabinet opening and key handover of ``date_from`` to ``date_to``, in time order (two queries)."""
    date_from, date_to = _day_range(date_from, date_to)
    lines = [
        DepotLogEntry(
            at=o.at,
            kind="opening",
            who=o.opened_by,
            purpose=o.get_purpose_display(),
            table_number=o.table_number,
            day=o.day,
            demanded_by=o.demanded_by,
            note=_opening_note(o),
        )
        for o in CabinetOpening.objects.filter(at__date__range=(date_from, date_to)).select_related(
            "opened_by", "demanded_by", "demand", "inventory__incident"
        )
    ]
    lines += [
        DepotLogEntry(
            at=k.at, kind="key", who=k.giver, receiver=k.receiver, purpose="remise de la clé", note=k.reason
        )
        for k in KeyHandover.objects.filter(at__date__range=(date_from, date_to)).select_related(
            "giver", "receiver"
        )
    ]
    return sorted(lines, key=lambda line: line.at)
