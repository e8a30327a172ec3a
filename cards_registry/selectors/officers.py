"""What the officers' side reads (portal, registers): entries to stamp, incidents, decks, days."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from ..models import (
    Correction,
    Deck,
    Destruction,
    Incident,
    Manufacturer,
    Order,
    Reception,
    SixainCap,
)


def orders_awaiting_visa() -> list[Order]:
    """Orders (n° 21) with no officer's visa yet."""
    return list(
        Order.objects.filter(visa__isnull=True)
        .select_related("book", "manufacturer")
        .order_by("book__number", "number")
    )


def receptions_awaiting_visa() -> list[Reception]:
    """Receipt-book entries (n° 19) with no officer's visa yet."""
    return list(
        Reception.objects.filter(visa__isnull=True)
        .select_related("book", "manufacturer", "order__book")
        .order_by("book__number", "number")
    )


def destructions_awaiting_visa(officer: Any) -> list[Destruction]:
    """The destructions ``officer`` witnessed and has not stamped yet."""
    return list(
        Destruction.objects.filter(visa__isnull=True, officer=officer)
        .select_related("book")
        .order_by("book__number", "number")
    )


def makers_awaiting_visa() -> list[Manufacturer]:
    """Makers whose approval, as the director recorded it, has no officer's visa yet (FR art. 39,
    LU art. 6)."""
    return list(Manufacturer.objects.filter(approval_visa__isnull=True).order_by("code"))


def sixain_cap_in_force() -> SixainCap | None:
    """The last number of sixains the director recorded as the ministry's (LU art. 6), or None."""
    return SixainCap.objects.select_related("recorded_by", "visa").order_by("-recorded_at", "-id").first()


def sixain_caps_awaiting_visa() -> list[SixainCap]:
    """The sixain cap in force (LU art. 6) when it has no officer's visa yet (a cap replaced
    since is no longer the depot's and awaits nothing)."""
    cap = sixain_cap_in_force()
    return [cap] if cap is not None and not hasattr(cap, "visa") else []


def authority_facts_to_stamp(kind: str) -> QuerySet[Any]:
    """The facts of an authority an officer stamps, of one kind: ``manufacturer`` or ``sixain_cap``."""
    facts: dict[str, QuerySet[Any]] = {
        "manufacturer": Manufacturer.objects.all(),
        "sixain_cap": SixainCap.objects.all(),
    }
    return facts[kind]


def entries_to_stamp(kind: str) -> QuerySet[Any]:
    """The book entries an officer stamps, of one kind: ``order``, ``reception`` or ``destruction``."""
    books: dict[str, QuerySet[Any]] = {
        "order": Order.objects.all(),
        "reception": Reception.objects.all(),
        "destruction": Destruction.objects.all(),
    }
    return books[kind]


def all_incidents() -> QuerySet[Incident]:
    """Every incident, with its decks (an officer finds one by its id)."""
    return Incident.objects.prefetch_related("decks")


def open_incidents(*, with_decks: bool = True) -> list[Incident]:
    """The incidents not closed yet, in the book's order."""
    rows = Incident.objects.filter(closure__isnull=True).select_related("book", "reported_by")
    if with_decks:
        rows = rows.prefetch_related("decks")
    return list(rows.order_by("book__number", "number"))


def unreported_incidents() -> list[Incident]:
    """Incidents found by a return, a destruction or a replay and not yet reported to an officer."""
    return list(
        Incident.objects.filter(officer_informed_at__isnull=True, later_report__isnull=True).order_by(
            "number"
        )
    )


def deck_list(*, serial: str = "", status: str = "", manufacturer: str = "") -> QuerySet[Deck]:
    """The decks, filtered by serial (part of it), status and maker's code."""
    rows = Deck.objects.select_related("manufacturer", "sixain", "reception").order_by(
        "manufacturer__code", "serial"
    )
    if serial:
        rows = rows.filter(serial__icontains=serial)
    if status:
        rows = rows.filter(status=status)
    if manufacturer:
        rows = rows.filter(manufacturer__code=manufacturer)
    return rows


def receipt_book_days(reception_ids: Iterable[int], correction_ids: Iterable[int]) -> set[dt.date]:
    """The receipt book's days of these receptions and of the receptions these corrections correct."""
    days = set(Reception.objects.filter(pk__in=list(reception_ids)).values_list("received_on", flat=True))
    days |= set(
        Correction.objects.filter(pk__in=list(correction_ids), reception__isnull=False).values_list(
            "reception__received_on", flat=True
        )
    )
    return days
