"""The tables' books as the API reads them beside its acts: the delegations, the authorised
minimums, the notices to the minister, the tables, the discrepancies not yet acknowledged,
what an act on a séance concerns and the gaming day an opening falls on."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from casino_ops.services import get_casino

from ..models import AuthorisedMinimum, Delegation, Discrepancy, MinistryNotice, Session, Table

#: the most discrepancies a read of those not acknowledged lists
NOT_ACKNOWLEDGED_AT_MOST = 10000


def delegations() -> QuerySet[Delegation]:
    """The director's delegations of the direction of play (LU art. 51 V), the latest first."""
    return Delegation.objects.select_related("delegate", "granted_by").order_by("-valid_from", "-at")


def authorised_minimums() -> QuerySet[AuthorisedMinimum]:
    """The authorised minimums of the decrees, the latest in force first, with their visa."""
    return AuthorisedMinimum.objects.select_related("stamped_by").order_by("-in_force_on", "-recorded_at")


def ministry_notices() -> QuerySet[MinistryNotice]:
    """The notices to the minister of a raised minimum (LU art. 26), the latest recorded first."""
    return MinistryNotice.objects.order_by("-recorded_at", "-pk")


def tables() -> QuerySet[Table]:
    """The tables, by number."""
    return Table.objects.order_by("number")


def discrepancies_not_acknowledged() -> dict[str, list[int]]:
    """The ids of the discrepancies the director has not yet taken note of, the oldest first."""
    rows = (
        Discrepancy.objects.filter(acknowledgement__isnull=True).order_by("id").values_list("id", flat=True)
    )
    return {"not_acknowledged": list(rows[:NOT_ACKNOWLEDGED_AT_MOST])}


def session_concerned(pk: int) -> Session:
    """The séance an act on it concerns (``Session.DoesNotExist`` when there is none)."""
    return Session.objects.select_related("table").get(pk=pk)


def opening_day() -> dict[str, Any]:
    """The gaming day a séance opened now falls on (it rolls over at the casino's hour)."""
    return {"gaming_day": get_casino().gaming_day(timezone.now())}
