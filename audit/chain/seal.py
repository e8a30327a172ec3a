"""Sealing: each committed event gets the next number, the previous hash and its own."""

from __future__ import annotations

import datetime as dt
import hmac
import time
from collections.abc import Callable
from typing import Any

import psycopg
from django.db import connections, router, transaction
from django.utils import timezone

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
)

_LOCK_KEY = 0x6A75_6469_7401  # advisory lock key of the chain's sealers
#: Seconds between the starts of two passes of the sealer (``audit_sealer --interval``):
#: an event is sealed within about this long after its commit. A pass costs the same
#: few statements whatever it seals, so longer intervals seal bigger, cheaper batches.
SEALER_INTERVAL = 1.0


INSERT_SQL = (
    f"INSERT INTO {AuditEvent._meta.db_table} "
    "(recorded_at, actor_id, actor_name, action, object_type, object_id, payload, mac) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)


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


def run_sealer(
    should_stop: Callable[[], bool],
    *,
    interval: float = SEALER_INTERVAL,
    limit: int = 5000,
    between_passes: Callable[[], None] | None = None,
    using: str | None = None,
) -> int:
    """Seal continuously until ``should_stop()``, then once more; return how many.

    One pass every ``interval`` seconds at most (a pass that found a full batch
    goes on at once): an event waits for at most one interval plus one pass, and
    under load each pass seals a batch, so the sealer's cost per event stays
    small (one transaction, one statement to read, one to write, per pass rather
    than per event). ``between_passes`` runs before each pass (the command closes
    stale connections there).
    """
    total = 0
    while not should_stop():
        started = time.monotonic()
        if between_passes is not None:
            between_passes()
        sealed = seal_pending(using=using, limit=limit)
        total += sealed
        if sealed < limit:
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
    return total + seal_pending(using=using, limit=limit)  # what was committed before the stop


def _seal(using: str, *, limit: int | None) -> list[tuple[int, str, str, dt.datetime, int]]:
    return _seal_pass(using, limit=limit)[0]


def _seal_pass(
    using: str, *, limit: int | None, after_id: int = 0
) -> tuple[list[tuple[int, str, str, dt.datetime, int]], int, int]:
    """One sealing pass under the chain's lock.

    Returns the (seq, prev, hash, sealed_at, id) rows sealed, how many unsealed
    events were read, and the last id read. An event whose MAC fails is left
    out (for ever unsealed) and an alarm event naming it is sealed instead.
    """
    # No savepoint inside the act's transaction: a failure there fails the act anyway.
    with transaction.atomic(using=using, savepoint=False):
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
        fetched, last_id = len(pending), pending[-1][0]
        key = _key()
        genuine = []
        forged = []
        for event_id, recorded_at, actor_name, action, otype, oid, payload, mac in pending:
            stamp = format_time(recorded_at)
            content = event_bytes(
                recorded_at=stamp,
                actor_name=actor_name,
                action=action,
                object_type=otype,
                object_id=oid,
                payload=payload,
            )
            if mac and hmac.compare_digest(event_mac(content, key), mac):
                genuine.append((event_id, stamp, actor_name, action, otype, oid, payload))
            else:
                forged.append((event_id, stamp, actor_name, action, otype, oid))
        if forged:
            genuine.extend(_raise_alarms(using, forged, key))
        if not genuine:
            return [], fetched, last_id
        seq, prev = head(using)
        sealed_at = timezone.now()
        rows = []
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
            rows.append((seq, prev, digest, sealed_at, event_id))
            prev = digest
        _write_seals(using, rows)
        return rows, fetched, last_id


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
        alarm = AuditEvent(
            recorded_at=timezone.now(),
            actor_name="system",
            action=FORGED_ACTION,
            object_type=FORGED_OBJECT,
            object_id=str(event_id),
            payload=canonical_json(
                {
                    "event_id": event_id,
                    "recorded_at": stamp,
                    "actor_name": actor_name,
                    "action": action,
                    "object_type": otype,
                    "object_id": oid,
                    "reason": "mac",
                }
            ),
        )
        alarm_stamp = format_time(alarm.recorded_at)
        alarm.mac = event_mac(
            event_bytes(
                recorded_at=alarm_stamp,
                actor_name=alarm.actor_name,
                action=alarm.action,
                object_type=alarm.object_type,
                object_id=alarm.object_id,
                payload=alarm.payload,
            ),
            key,
        )
        _insert(using, alarm, None)
        alarms.append(
            (
                alarm.id,
                alarm_stamp,
                alarm.actor_name,
                alarm.action,
                alarm.object_type,
                alarm.object_id,
                alarm.payload,
            )
        )
    return alarms


def _write_seals(using: str, rows: list[tuple[int, str, str, dt.datetime, int]]) -> None:
    table = AuditEvent._meta.db_table
    connection = connections[using]
    if connection.vendor == "postgresql":
        # One statement for the whole pass, its arrays bound by the server (the pass
        # has already read through Django's cursor: nothing is held for the commit).
        seqs, prevs, digests, _, ids = zip(*rows, strict=True)
        with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
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
