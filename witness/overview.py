"""The authority's view of the logs it witnesses: last cosigned size and time, lag, refusals,
and split views (two checkpoints of one size with different roots)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from .models import Log, Refusal, SplitView


@dataclass
class Row:
    log: Log
    lag: dt.timedelta | None
    refusals: list[Refusal] = field(default_factory=list)
    refused: int = 0
    split_views: list[Refusal] = field(default_factory=list)
    peer_splits: list[SplitView] = field(default_factory=list)


def overview(*, refusals_shown: int = 5) -> list[Row]:
    now = timezone.now()
    rows = []
    logs = Log.objects.annotate(
        refused=Count("refusals"), splits=Count("refusals", filter=Q(refusals__status=422))
    )
    recent: dict[int, list[Refusal]] = {}
    for refusal in Refusal.objects.select_related("log").order_by("-received_at", "-id")[
        : 50 * refusals_shown
    ]:
        recent.setdefault(refusal.log.pk, []).append(refusal)
    splits: dict[int, list[SplitView]] = {}
    for split in SplitView.objects.order_by("-found_at"):
        splits.setdefault(split.log.pk, []).append(split)
    for log in logs:
        mine = recent.get(log.pk, [])
        rows.append(
            Row(
                log=log,
                lag=now - log.cosigned_at if log.cosigned_at else None,
                refusals=mine[:refusals_shown],
                refused=getattr(log, "refused", 0),
                split_views=[r for r in mine if r.split_view],
                peer_splits=splits.get(log.pk, []),
            )
        )
    return rows
