"""Reading the other books (for the registers, the API, the portal and the inspection)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import Sum

ZERO = Decimal("0.00")


def _sum(query: Any, field: str = "amount") -> Decimal:
    return query.aggregate(total=Sum(field))["total"] or ZERO


# -- Orphans ------------------------------------------------------------------------------------


def orphan_entry_balance(entry: Any) -> Decimal:
    """What is left of one entry after its repayments."""
    return entry.amount - _sum(entry.repayments.all())


def orphan_balance(exercise: int) -> Decimal:
    """The credit balance of the account "orphelins" for ``exercise``."""
    from .models import OrphanEntry, OrphanRepayment, OrphanTransfer

    return (
        _sum(OrphanEntry.objects.filter(exercise=exercise))
        - _sum(OrphanRepayment.objects.filter(entry__exercise=exercise))
        - _sum(OrphanTransfer.objects.filter(exercise=exercise))
    )


def orphan_entries(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    from .models import OrphanEntry

    query = (
        OrphanEntry.objects.select_related("recorded_by").prefetch_related("repayments").order_by("number")
    )
    if date_from is not None:
        query = query.filter(found_at__date__gte=date_from)
    if date_to is not None:
        query = query.filter(found_at__date__lte=date_to)
    return query


def orphan_repayments(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    from .models import OrphanRepayment

    query = OrphanRepayment.objects.select_related("entry", "recorded_by").order_by("repaid_on", "pk")
    if date_from is not None:
        query = query.filter(repaid_on__gte=date_from)
    if date_to is not None:
        query = query.filter(repaid_on__lte=date_to)
    return query


def orphan_transfers(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    from .models import OrphanTransfer

    query = OrphanTransfer.objects.select_related("recorded_by").order_by("exercise")
    if date_from is not None:
        query = query.filter(transferred_on__gte=date_from)
    if date_to is not None:
        query = query.filter(transferred_on__lte=date_to)
    return query


def orphan_exercises_open(before: int) -> list[tuple[int, Decimal]]:
    """Exercises before ``before`` with orphans but no transfer: (exercise, balance)."""
    from .models import OrphanEntry, OrphanTransfer

    done = set(OrphanTransfer.objects.values_list("exercise", flat=True))
    years = sorted(set(OrphanEntry.objects.filter(exercise__lt=before).values_list("exercise", flat=True)))
    return [(year, orphan_balance(year)) for year in years if year not in done]


# -- Approvals ----------------------------------------------------------------------------------


def approved_on(user: Any, day: dt.date) -> bool:
    """Whether ``user`` holds an approval in force on ``day`` (given on or before it, not
    ended, revoked, resigned or dismissed on or before it)."""
    from django.db.models import Q

    from .models import Approval

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

    from .models import Approval

    query = Approval.objects.select_related("person", "recorded_by", "ended_by").order_by("approved_on", "pk")
    if date_from is not None and date_to is not None:
        query = query.filter(
            Q(approved_on__lte=date_to) & (Q(ended_on__isnull=True) | Q(ended_on__gte=date_from))
        )
    return query


# -- Tips ---------------------------------------------------------------------------------------


def tips_counts(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    from .models import TipsCount

    query = TipsCount.objects.select_related("counted_by", "witness").order_by("day")
    if date_from is not None:
        query = query.filter(day__gte=date_from)
    if date_to is not None:
        query = query.filter(day__lte=date_to)
    return query


def tips_account(date_from: dt.date, date_to: dt.date) -> list[dict[str, Any]]:
    """The account "pourboires": one line per day counted, with the exercise's running total."""
    from .models import TipsCount

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
    from .models import TipsCount

    counted = set(TipsCount.objects.filter(day__in=days).values_list("day", flat=True))
    return [d for d in days if d not in counted]


# -- Exclusions ---------------------------------------------------------------------------------


def exclusions(date_from: dt.date | None = None, date_to: dt.date | None = None) -> Any:
    """The fichier des exclus: measures in force during the period (decided by its end, not
    lifted before its start), oldest first."""
    from django.db.models import Q

    from .models import Exclusion

    query = Exclusion.objects.select_related("recorded_by").order_by("decided_on", "pk")
    if date_to is not None:
        query = query.filter(decided_on__lte=date_to)
    if date_from is not None:
        query = query.filter(Q(lifted_on__isnull=True) | Q(lifted_on__gte=date_from))
    return query


def own_exclusions_not_notified(today: dt.date, notice_days: int) -> Any:
    """The casino's own exclusions whose notice to the minister is missing past the delay,
    or was given late."""
    from django.db.models import F, Q

    from .models import Exclusion, ExclusionOrigin

    limit = dt.timedelta(days=notice_days)
    return (
        Exclusion.objects.filter(origin=ExclusionOrigin.CASINO)
        .filter(
            Q(minister_notified_on__isnull=True, decided_on__lt=today - limit)
            | Q(minister_notified_on__gt=F("decided_on") + limit)
        )
        .order_by("decided_on", "pk")
    )
