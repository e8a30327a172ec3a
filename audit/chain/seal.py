"""Sealing: each committed event gets the next number, the previous hash and its own."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import psycopg
from django.conf import settings
from django.db import connections, router, transaction
from django.utils import timezone

from casino_ops.django_internals import database_errors
from casino_ops.postgresql.base import DatabaseWrapper

from ..actions import Action
from ..models import AuditEvent
from .hashing import (
    FORGED_ACTION,
    FORGED_OBJECT,
    GENESIS,
    _key,
    canonical_json,
    event_bytes,
    event_hash,
    event_mac,
    format_time,
    mac_holds,
)

_LOCK_KEY = 0x6A75_6469_7401  # advisory lock key of the chain's sealers
#: Seconds between the starts of two passes of the sealer (``audit_sealer --interval``):
#: an event is sealed within about this long after its commit. A pass costs the same
#: few statements whatever it seals, so longer intervals seal bigger, cheaper batches.
#: When nothing waits, the sealer only looks (one statement, about 0.15 ms of the
#: client's CPU): at 0.1 s an idle sealer costs a small fraction of a percent of one
#: core, and an event waits about 50 ms on average rather than half a second
#: (docs/development.md, the benchmarks).
SEALER_INTERVAL = 0.1


_TABLE = AuditEvent._meta.db_table
INSERT_SQL = (
    f"INSERT INTO {_TABLE} "
    "(recorded_at, actor_id, actor_name, action, object_type, object_id, payload, mac) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)
# Inline sealing on PostgreSQL (insert_and_seal): raw statements, each prepared once
# per connection. The pending events are found by the partial index on unsealed
# events (audit_event_pending), the head by the unique index on seq.
_LOCK_SQL = "SELECT pg_advisory_xact_lock(%s)"
_PENDING_SQL = (
    "SELECT id, recorded_at, actor_name, action, object_type, object_id, payload, mac "
    f"FROM {_TABLE} WHERE seq IS NULL ORDER BY id"
)
# The sealer's look before a pass: one statement, no transaction, no lock (an idle pass
# was four round trips: BEGIN, the lock, the read, COMMIT).
_ANY_PENDING_SQL = f"SELECT EXISTS (SELECT 1 FROM {_TABLE} WHERE seq IS NULL)"
_PENDING_AFTER_SQL = (
    "SELECT id, recorded_at, actor_name, action, object_type, object_id, payload, mac "
    f"FROM {_TABLE} WHERE seq IS NULL AND id > %s ORDER BY id LIMIT %s"
)
# the head, and its moment (an event recorded earlier than it beyond the tolerance: the clock ran back)
_HEAD_SQL = f"SELECT seq, hash, recorded_at FROM {_TABLE} WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1"
_SEAL_SQL = (
    f"UPDATE {_TABLE} SET seq = %s, prev_hash = %s, hash = %s, sealed_at = %s WHERE id = %s AND seq IS NULL"
)

#: A pending event as read for sealing: id, recorded_at, actor_name, action,
#: object_type, object_id, payload, mac.
Pending = tuple[int, dt.datetime, str, str, str, str, str, str | None]
#: A seal: seq, prev_hash, hash, sealed_at, id.
Seal = tuple[int, str, str, dt.datetime, int]


def _insert_params(event: AuditEvent, actor_id: int | None) -> list[Any]:
    return [
        event.recorded_at,
        actor_id,
        event.actor_name,
        event.action,
        event.object_type,
        event.object_id,
        event.payload,
        event.mac,
    ]


def _insert(using: str, event: AuditEvent, actor_id: int | None) -> None:
    # One plain INSERT: the record must cost the act as little as possible.
    with connections[using].cursor() as cursor:
        cursor.execute(f"{INSERT_SQL} RETURNING id", _insert_params(event, actor_id))
        event.id = cursor.fetchone()[0]


def insert_and_seal(using: str, params: list[Any]) -> tuple[int, list[Seal]]:
    """Inline sealing on PostgreSQL: insert one event (``params`` as for INSERT_SQL)
    and seal every pending event, itself included; return its id and the seals.

    The chain's lock, the INSERT, the read of the pending events and of the head go
    in one round trip (each statement sees what was committed before it started,
    so the reads see every event sealed before the lock was granted); the seals are
    held for the commit (``defer``), in the same round trip as the COMMIT. The lock
    is held from that first round trip to the commit, no longer.
    """
    connection = cast(DatabaseWrapper, connections[using])  # the caller checked: it has batch()
    _, inserted, pending, top = connection.batch(
        [
            (_LOCK_SQL, [_LOCK_KEY], None),
            (f"{INSERT_SQL} RETURNING id", params, "audit_event_insert_id"),
            (_PENDING_SQL, [], "audit_event_pending"),
            (_HEAD_SQL, [], "audit_event_head"),
        ]
    )
    seals = _seal_events(using, pending, top[0] if top else (0, GENESIS))
    for seal in seals:
        connection.defer(_SEAL_SQL, seal, prepared="audit_event_seal")
    return inserted[0][0], seals


def _lock_chain(using: str) -> None:
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])
    # SQLite: the transaction already holds the database's single write lock
    # (transaction_mode IMMEDIATE in the settings).


def head(using: str = "default") -> tuple[int, str]:
    """The last sealed sequence number and its hash (0 and GENESIS when empty)."""
    row = (
        AuditEvent.objects.using(using)
        .filter(seq__isnull=False)
        .order_by("-seq")
        .values_list("seq", "hash")
        .first()
    )
    if row is None or row[0] is None:
        return 0, GENESIS
    return row[0], row[1] or ""


def _head_with_moment(using: str) -> tuple[int, str, dt.datetime | None]:
    """The head as :func:`head` gives it, and the moment it was recorded (None when empty)."""
    row = (
        AuditEvent.objects.using(using)
        .filter(seq__isnull=False)
        .order_by("-seq")
        .values_list("seq", "hash", "recorded_at")
        .first()
    )
    if row is None or row[0] is None:
        return 0, GENESIS, None
    return row[0], row[1] or "", row[2]


def seal_pending(*, using: str | None = None, limit: int = 5000) -> int:
    """Seal every committed, unsealed event in ``id`` order; return how many."""
    using = using or router.db_for_write(AuditEvent)
    total = 0
    after = 0
    while True:
        sealed, fetched, after = _seal_pass(using, limit=limit, after_id=after)
        total += len(sealed)
        if fetched < limit:
            return total


def _any_pending(using: str) -> bool:
    """Some event is committed and not sealed (or is forged, and never will be)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_ANY_PENDING_SQL)
        return bool(cursor.fetchone()[0])


def _seal(using: str, *, limit: int | None) -> list[Seal]:
    return _seal_pass(using, limit=limit)[0]


def _seal_pass(using: str, *, limit: int | None, after_id: int = 0) -> tuple[list[Seal], int, int]:
    """One sealing pass under the chain's lock.

    Returns the (seq, prev, hash, sealed_at, id) rows sealed, how many unsealed
    events were read, and the last id read. An event whose MAC fails is left
    out (for ever unsealed) and an alarm event naming it is sealed instead.
    """
    # No savepoint inside the act's transaction: a failure there fails the act anyway.
    with transaction.atomic(using=using, savepoint=False):
        connection = connections[using]
        if isinstance(connection, DatabaseWrapper):
            # PostgreSQL: the chain's lock, the read of the pending events and of the head
            # in one round trip (each statement sees what was committed before it started:
            # the reads see every event sealed before the lock was granted), as
            # insert_and_seal does; then the one UPDATE of the pass.
            _, pending, top = connection.batch(
                [
                    (_LOCK_SQL, [_LOCK_KEY], None),
                    (_PENDING_AFTER_SQL, [after_id, limit or 2**62], "audit_event_pending_after"),
                    (_HEAD_SQL, [], "audit_event_head"),
                ]
            )
            if not pending:
                return [], 0, after_id
            seals = _seal_events(using, cast(list[Pending], pending), top[0] if top else (0, GENESIS))
            if seals:
                _write_seals(using, seals)
            return seals, len(pending), pending[-1][0]
        _lock_chain(using)
        query = (
            AuditEvent.objects.using(using)
            .filter(seq__isnull=True, id__gt=after_id)
            .order_by("id")
            .values_list(
                "id", "recorded_at", "actor_name", "action", "object_type", "object_id", "payload", "mac"
            )
        )
        pending = list(query[:limit] if limit else query)
        if not pending:
            return [], 0, after_id
        seals = _seal_events(using, pending, _head_with_moment(using))
        if seals:
            _write_seals(using, seals)
        return seals, len(pending), pending[-1][0]


def _seal_events(using: str, pending: list[Pending], top: tuple[Any, ...]) -> list[Seal]:
    """The seals of the pending events (read in id order, under the chain's lock)
    after the head ``top`` (seq, hash and, when known, its moment). An event whose MAC fails is
    left out (for ever unsealed) and an alarm event naming it is recorded and sealed instead. An
    event recorded earlier than the one sealed before it, beyond ``AUDIT_CLOCK_TOLERANCE``, is
    followed by an alarm ``audit.clock_backwards`` (:func:`_clock_alarms`)."""
    key = _key()
    genuine = []
    forged = []
    for event_id, recorded_at, actor_name, action, otype, oid, payload, mac in pending:
        stamp = format_time(recorded_at)
        if mac_holds(
            mac,
            key,
            recorded_at=stamp,
            actor_name=actor_name,
            action=action,
            object_type=otype,
            object_id=oid,
            payload=payload,
        ):
            genuine.append((event_id, stamp, actor_name, action, otype, oid, payload))
        else:
            forged.append((event_id, stamp, actor_name, action, otype, oid))
    if forged:
        genuine.extend(_raise_alarms(using, forged, key))
    if len(top) > 2:
        genuine = _clock_alarms(using, genuine, top[2], key)
    seq, prev = top[0], top[1]
    sealed_at = timezone.now()
    seals = []
    for event_id, stamp, actor_name, action, otype, oid, payload in genuine:
        seq += 1
        digest = event_hash(
            prev_hash=prev,
            seq=seq,
            recorded_at=stamp,
            actor_name=actor_name,
            action=action,
            object_type=otype,
            object_id=oid,
            payload=payload,
        )
        seals.append((seq, prev, digest, sealed_at, event_id))
        prev = digest
    return seals


#: The object of a clock alarm (the event recorded too early is its id): the index on the objects
#: finds the alarms (/health/, the dashboard) without reading the chain.
CLOCK_OBJECT = "audit.clock"


def _clock_alarms(
    using: str, genuine: list[tuple[Any, ...]], head_at: dt.datetime | None, key: bytes
) -> list[tuple[Any, ...]]:
    """``genuine`` (the events about to be sealed, in order), each event recorded earlier than the
    event sealed before it by more than ``AUDIT_CLOCK_TOLERANCE`` followed by an alarm naming it.

    Once per incident: after a clock put back three hours, the first event is behind the head, the
    next ones follow it in order (FR art. 68: the moments of the books are the system's). Two
    writers a moment apart may be sealed in the other order: within the tolerance, no alarm."""
    tolerance = dt.timedelta(seconds=getattr(settings, "AUDIT_CLOCK_TOLERANCE", 60))
    latest = format_time(head_at) if head_at is not None else ""
    out: list[tuple[Any, ...]] = []
    for event in genuine:
        out.append(event)
        stamp = event[1]
        if not latest or stamp >= latest:  # fixed-width UTC stamps sort as text
            latest = stamp
            continue
        behind = _moment(latest) - _moment(stamp)
        if behind <= tolerance:
            continue
        payload = {
            "event_id": event[0],
            "action": event[3],
            "recorded_at": stamp,
            "latest": latest,
            "behind_seconds": int(behind.total_seconds()),
        }
        out.append(_alarm(using, Action.CLOCK_BACKWARDS, CLOCK_OBJECT, str(event[0]), payload, key))
        latest = stamp  # the events after it are measured from it: one alarm per incident
    return out


def _moment(stamp: str) -> dt.datetime:
    return dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)


def _alarm(
    using: str, action: str, object_type: str, object_id: str, payload: dict[str, Any], key: bytes
) -> tuple[int, str, str, str, str, str, str]:
    """Insert an alarm event of the system (its MAC made with ``key``); as a pending event to seal."""
    alarm = AuditEvent(
        recorded_at=timezone.now(),
        actor_name="system",
        action=action,
        object_type=object_type,
        object_id=object_id,
        payload=canonical_json(payload),
    )
    stamp = format_time(alarm.recorded_at)
    alarm.mac = event_mac(
        event_bytes(
            recorded_at=stamp,
            actor_name=alarm.actor_name,
            action=alarm.action,
            object_type=alarm.object_type,
            object_id=alarm.object_id,
            payload=alarm.payload,
        ),
        key,
    )
    _insert(using, alarm, None)
    return (
        alarm.id,
        stamp,
        alarm.actor_name,
        alarm.action,
        alarm.object_type,
        alarm.object_id,
        alarm.payload,
    )


def _raise_alarms(
    using: str, forged: list[tuple[int, str, str, str, str, str]], key: bytes
) -> list[tuple[int, str, str, str, str, str, str]]:
    """Record one alarm event per forged event not yet reported; return them to seal."""
    ids = [str(f[0]) for f in forged]
    known = set(
        AuditEvent.objects.using(using)
        .filter(action=FORGED_ACTION, object_type=FORGED_OBJECT, object_id__in=ids)
        .values_list("object_id", flat=True)
    )
    alarms = []
    for event_id, stamp, actor_name, action, otype, oid in forged:
        if str(event_id) in known:
            continue
        payload = {
            "event_id": event_id,
            "recorded_at": stamp,
            "actor_name": actor_name,
            "action": action,
            "object_type": otype,
            "object_id": oid,
            "reason": "mac",
        }
        alarms.append(_alarm(using, FORGED_ACTION, FORGED_OBJECT, str(event_id), payload, key))
    return alarms


def _write_seals(using: str, rows: list[Seal]) -> None:
    table = _TABLE
    connection = connections[using]
    if connection.vendor == "postgresql":
        # One statement for the whole pass, its arrays bound by the server (the pass
        # has already read through Django's cursor: nothing is held for the commit).
        seqs, prevs, digests, _, ids = zip(*rows, strict=True)
        with database_errors(connection), psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(
                f"UPDATE {table} AS e SET seq = v.seq, prev_hash = v.prev, hash = v.hash, sealed_at = %s "
                "FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[]) AS v(id, seq, prev, hash) "
                "WHERE e.id = v.id AND e.seq IS NULL",
                [rows[0][3], list(ids), list(seqs), list(prevs), list(digests)],
            )
        return
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET seq = %s, prev_hash = %s, hash = %s, sealed_at = %s "
            "WHERE id = %s AND seq IS NULL",
            rows,
        )
