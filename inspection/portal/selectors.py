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

from audit.actions import Action
from audit.chain import FORGED_ACTION, head, sealer
from audit.chain.seal import CLOCK_OBJECT
from audit.models import AuditEvent, Checkpoint
from cards_registry import selectors as depot
from casino_ops import roles
from inspection.models import Report
from tables import selectors as tables
from tables.blackjack import replay


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


_UNREAD: Any = object()


def chain_status(checkpoint: Any = _UNREAD) -> ChainStatus:
    """The head of the chain, events waiting to be sealed, and the last signed
    checkpoint with whether the chain still holds the hash it certified (a cheap
    check; the full recomputation is :func:`audit.chain.verify_chain`). ``checkpoint``:
    the last checkpoint when the caller has already read it."""
    seq, digest = head()
    pending = AuditEvent.objects.filter(seq__isnull=True).count()
    if checkpoint is _UNREAD:
        checkpoint = last_checkpoint()
    matches = None
    if checkpoint is not None:
        cp_seq = getattr(checkpoint, "seq", None) or getattr(checkpoint, "head_seq", None)
        cp_hash = getattr(checkpoint, "hash", None) or getattr(checkpoint, "head_hash", None)
        if cp_seq is not None and cp_hash:
            matches = AuditEvent.objects.filter(seq=cp_seq, hash=cp_hash).exists()
    return ChainStatus(seq, digest, pending, checkpoint, matches)


@dataclass
class ForgedAlarm:
    event_id: str  # the forged event's id (it never gets a sequence number)
    alarm_seq: int | None  # the alarm event that reported it, sealed in its place
    found_at: dt.datetime  # when the sealing pass found it
    action: str  # what the forged event claims to be


@dataclass
class ClockAlarm:
    event_id: str  # the event recorded earlier than the one sealed before it
    alarm_seq: int | None  # the alarm sealed just after it
    recorded_at: dt.datetime  # the alarm's moment (by the clock that ran back)
    behind: dt.timedelta  # how far behind the event sealed before it
    latest: str  # the moment of that event (UTC)

    @property
    def event_seq(self) -> int | None:
        """The event's number in the chain: the alarm is sealed just after it (audit.chain.seal)."""
        return self.alarm_seq - 1 if self.alarm_seq else None


@dataclass
class Alarms:
    forged: list[ForgedAlarm]
    clock: list[ClockAlarm]


def alarms(limit: int = 50) -> Alarms:
    """The alarms the sealer sealed, newest first, in one query: the ``audit.forged_event``
    (events whose MAC fails, left out of the chain) and the ``audit.clock_backwards`` (an event
    recorded earlier than the one sealed before it: the server's clock ran backwards)."""
    import json

    found = Alarms([], [])
    for action, object_id, seq, recorded_at, payload in (
        AuditEvent.objects.filter(Q(action=FORGED_ACTION) | Q(object_type=CLOCK_OBJECT))
        .order_by("-id")
        .values_list("action", "object_id", "seq", "recorded_at", "payload")[:limit]
    ):
        try:
            said = json.loads(payload)
        except ValueError:
            said = {}
        said = said if isinstance(said, dict) else {}
        if action == FORGED_ACTION:
            found.forged.append(ForgedAlarm(object_id, seq, recorded_at, str(said.get("action", ""))))
        elif action == Action.CLOCK_BACKWARDS:
            behind = dt.timedelta(seconds=int(said.get("behind_seconds") or 0))
            found.clock.append(ClockAlarm(object_id, seq, recorded_at, behind, str(said.get("latest", ""))))
    return found


def sealing_late() -> sealer.Waiting | None:
    """The events waiting to be sealed when the oldest waited longer than
    ``AUDIT_SEALING_LATE_AFTER`` (None otherwise): the condition of ``/health/``, the same
    function; read on every request, never cached (no query in inline mode)."""
    return sealer.sealing_late()


def late_after() -> float:
    return sealer.late_after()


def forged_alarms(limit: int = 50) -> list[ForgedAlarm]:
    """The ``audit.forged_event`` alarms raised by the sealer, newest first."""
    return alarms(limit).forged


def last_checkpoint() -> Any | None:
    return Checkpoint.objects.order_by("-seq").first()


# -- the depot and the tables, as querysets for lists (read only) --------------------------------

#: The apps' lists as the portal and the officers' API filter them (read through their selectors).
decks = depot.deck_list
sessions = tables.session_rows
hand_logs = tables.hand_log_rows
discrepancies = tables.discrepancy_rows


def hand_log_report(log: Any) -> dict[str, Any]:
    """The engine's replay report of a stored log.

    Recomputed by the pure engine, and kept in the cache by the log's SHA-256:
    a stored log never changes (FR art. 68), so neither does its report.
    """
    import json

    from django.core.cache import cache

    key = f"portal:replay-report:{log.sha256}"
    report: dict[str, Any] | None = cache.get(key)
    if report is None:
        report = replay(json.loads(log.raw))
        cache.set(key, report, timeout=3600)
    return report


def reports(*, register: str = "", sha256: str = "", state: str = "") -> QuerySet[Any]:
    rows = Report.objects.order_by("-requested_at", "-id")
    if register:
        rows = rows.filter(register=register)
    if sha256:
        rows = rows.filter(sha256=sha256.lower())
    if state:
        rows = rows.filter(state=state)
    return rows


def checkpoints() -> QuerySet[Any]:
    return Checkpoint.objects.order_by("-seq")


def books_version(checkpoint: Any = _UNREAD) -> str:
    """A version of everything the books hold, for caching pages that show them.

    Every change to a regulated book is a service that records an audit event in
    the same transaction (design: one act = one event), so the newest event's id
    moves with every change; the head's sequence number moves when events are
    sealed; the last checkpoint's sequence number when a checkpoint is signed.
    Two queries, on indexes.
    """
    from django.db.models import Max

    top = AuditEvent.objects.aggregate(last_id=Max("id"), head_seq=Max("seq"))
    if checkpoint is _UNREAD:
        checkpoint = last_checkpoint()
    return f"{top['last_id'] or 0}.{top['head_seq'] or 0}.{checkpoint.seq if checkpoint else 0}"


def rendering_variant(user: Any) -> str:
    """Everything besides the books that changes how a cached page reads.

    The active language (words, numbers and dates), the time zone (the times
    shown) and the user's roles (what a page offers). Every cached fragment of
    the portal is keyed on this as well as on :func:`books_version`.
    """
    from django.utils.translation import get_language

    return ":".join(
        (
            get_language() or "",
            timezone.get_current_timezone_name(),
            ",".join(sorted(roles.roles_of(user))),
        )
    )
