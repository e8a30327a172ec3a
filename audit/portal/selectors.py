"""Reads of the portal and the officers' API over the audit record.

The other apps are read through their own selectors (``cards_registry``,
``tables``); this module only reads the audit app.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from audit.chain import head
from audit.models import AuditEvent


def audit_events(
    *,
    q: str = "",
    action: str = "",
    actor: str = "",
    object_type: str = "",
    object_id: str = "",
    since: dt.date | None = None,
    until: dt.date | None = None,
    before: int | None = None,
) -> QuerySet[AuditEvent]:
    """Sealed events, newest first, filtered; page with ``before`` (a seq)."""
    events = AuditEvent.objects.filter(seq__isnull=False).order_by("-seq")
    if q:
        query = Q(action__icontains=q) | Q(actor_name__icontains=q) | Q(payload__icontains=q)
        query |= Q(object_type__icontains=q) | Q(object_id=q)
        if q.isdigit():
            query |= Q(seq=int(q))
        events = events.filter(query)
    if action:
        events = events.filter(action__startswith=action)
    if actor:
        events = events.filter(actor_name__icontains=actor)
    if object_type:
        events = events.filter(object_type=object_type)
    if object_id:
        events = events.filter(object_id=object_id)
    tz = timezone.get_current_timezone()
    if since:
        events = events.filter(recorded_at__gte=dt.datetime.combine(since, dt.time.min, tzinfo=tz))
    if until:
        events = events.filter(
            recorded_at__lt=dt.datetime.combine(until + dt.timedelta(days=1), dt.time.min, tzinfo=tz)
        )
    if before:
        events = events.filter(seq__lt=before)
    return events


def events_of(obj: Any) -> QuerySet[AuditEvent]:
    """The sealed events about one object, in order."""
    return AuditEvent.objects.filter(
        object_type=obj._meta.label_lower, object_id=str(obj.pk), seq__isnull=False
    ).order_by("seq")


@dataclass
class ChainStatus:
    head_seq: int
    head_hash: str
    pending: int
    checkpoint: Any | None
    checkpoint_matches: bool | None


def chain_status() -> ChainStatus:
    """The head of the chain, events waiting to be sealed, and the last signed
    checkpoint with whether the chain still holds the hash it certified (a cheap
    check; the full recomputation is :func:`audit.chain.verify_chain`)."""
    seq, digest = head()
    pending = AuditEvent.objects.filter(seq__isnull=True).count()
    checkpoint = last_checkpoint()
    matches = None
    if checkpoint is not None:
        cp_seq = getattr(checkpoint, "seq", None) or getattr(checkpoint, "head_seq", None)
        cp_hash = getattr(checkpoint, "hash", None) or getattr(checkpoint, "head_hash", None)
        if cp_seq is not None and cp_hash:
            matches = AuditEvent.objects.filter(seq=cp_seq, hash=cp_hash).exists()
    return ChainStatus(seq, digest, pending, checkpoint, matches)


def last_checkpoint() -> Any | None:
    try:
        from audit.models import Checkpoint  # type: ignore[attr-defined]
    except ImportError:
        return None
    return Checkpoint.objects.order_by("-pk").first()
