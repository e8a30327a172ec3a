"""Reading the other books (for the registers, the API, the portal and the inspection)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from .models import Approval, OrphanEntry, OrphanRepayment, OrphanTransfer, TipsCount

ZERO = Decimal("0.00")


def _sum(query: Any, field: str = "amount") -> Decimal:
    return query.aggregate(total=Sum(field))["total"] or ZERO


# -- Orphans ------------------------------------------------------------------------------------


def orphan_entry_balance(entry: Any) -> Decimal:
    """What is left of one entry after its repayments."""
    return entry.amount - _sum(entry.repayments.all())


def orphan_balance(exercise: int) -> Decimal:
    """The credit balance of the account "orphelins" for ``exercise``."""
    return (
        _sum(OrphanEntry.objects.filter(exercise=exercise))
        - _sum(OrphanRepayment.objects.filter(entry__exercise=exercise))
        - _sum(OrphanTransfer.objects.filter(exercise=exercise))
    )


def orphan_entries(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = (
        OrphanEntry.objects.select_related("recorded_by").prefetch_related("repayments").order_by("number")
    )
    if date_from is not None:
        query = query.filter(found_at__date__gte=date_from)
    if date_to is not None:
        query = query.filter(found_at__date__lte=date_to)
    return query


def orphan_repayments(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = OrphanRepayment.objects.select_related("entry", "recorded_by").order_by("repaid_on", "pk")
    if date_from is not None:
        query = query.filter(repaid_on__gte=date_from)
    if date_to is not None:
        query = query.filter(repaid_on__lte=date_to)
    return query


def orphan_transfers(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = OrphanTransfer.objects.select_related("recorded_by").order_by("exercise")
    if date_from is not None:
        query = query.filter(transferred_on__gte=date_from)
    if date_to is not None:
        query = query.filter(transferred_on__lte=date_to)
    return query


def orphan_exercises_open(before: int) -> list[tuple[int, Decimal]]:
    """Exercises before ``before`` with orphans but no transfer: (exercise, balance)."""
    done = set(OrphanTransfer.objects.values_list("exercise", flat=True))
    years = sorted(set(OrphanEntry.objects.filter(exercise__lt=before).values_list("exercise", flat=True)))
    return [(year, orphan_balance(year)) for year in years if year not in done]


# -- Approvals ----------------------------------------------------------------------------------


def approved_on(user: Any, day: dt.date) -> bool:
    """Whether ``user`` holds an approval in force on ``day`` (given on or before it, not
    ended, revoked, resigned or dismissed on or before it)."""
    from django.db.models import Q

    if user is None or not getattr(user, "pk", None):
        return False
    return (
        Approval.objects.filter(person=user, approved_on__lte=day)
        .filter(Q(ended_on__isnull=True) | Q(ended_on__gt=day))
        .exists()
    )


def approvals(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    """Approvals given or ended in the period (all when no period)."""
    from django.db.models import Q

    query = Approval.objects.select_related("person", "recorded_by", "ended_by").order_by("approved_on", "pk")
    if date_from is not None and date_to is not None:
        query = query.filter(
            Q(approved_on__lte=date_to) & (Q(ended_on__isnull=True) | Q(ended_on__gte=date_from))
        )
    return query


# -- Tips ---------------------------------------------------------------------------------------


def tips_counts(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    query = TipsCount.objects.select_related("counted_by", "witness").order_by("day")
    if date_from is not None:
        query = query.filter(day__gte=date_from)
    if date_to is not None:
        query = query.filter(day__lte=date_to)
    return query


def tips_account(date_from: dt.date, date_to: dt.date) -> list[dict[str, Any]]:
    """The account "pourboires": one line per day counted, with the exercise's running total."""
    before = _sum(TipsCount.objects.filter(day__year=date_from.year, day__lt=date_from))
    lines = []
    running = before
    for count in tips_counts(date_from, date_to):
        if count.day.year != (lines[-1]["day"].year if lines else date_from.year):
            running = ZERO
        running += count.amount
        lines.append({"day": count.day, "amount": count.amount, "total": running, "count": count})
    return lines


def days_without_tips_count(days: list[dt.date]) -> list[dt.date]:
    counted = set(TipsCount.objects.filter(day__in=days).values_list("day", flat=True))
    return [d for d in days if d not in counted]
