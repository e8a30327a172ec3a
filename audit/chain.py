"""The hash chain of the audit record: record, seal, verify.

How an event enters the chain
-----------------------------
1. :func:`record` inserts the event in the caller's transaction, unsealed
   (``seq``, ``prev_hash`` and ``hash`` empty). If the act rolls back, so does
   its event; if it commits, so does its event. That is one INSERT.
2. :func:`seal_pending` takes every unsealed event that is committed, in
   ``id`` order, and gives each the next sequence number, the previous hash and
   its own hash. Sealers are serialised by a lock (a PostgreSQL advisory lock;
   SQLite serialises writers by itself), so the chain never forks and never
   skips a number.

Where sealing runs (setting ``AUDIT_SEALING``):

- ``inline`` (default): :func:`record` seals at once, inside the caller's
  transaction. Writers then wait for each other until commit; simple, and an
  event is in the chain the moment its act is committed.
- ``sealer``: ``manage.py audit_sealer`` seals continuously, just after
  commit, as Certificate Transparency logs merge entries after a short delay.
  Writers no longer wait for each other. An event waits at most one polling
  interval (``--interval``, 0.1 s by default) plus one sealing pass; the Celery
  beat task ``audit.tasks.seal_chain`` seals every minute as a safety net.
  No committed event can be skipped: the database refuses the deletion of any
  event, sealed or not, and refuses every update but the one that seals an
  unsealed event; every sealing pass takes *all* unsealed committed events, so
  an event is sealed by the first pass that starts after its commit.
  ``verify_audit`` reports events still waiting and their age.

What the hash covers
--------------------
``sha256("\\n".join([prev_hash, seq, recorded_at, actor_name, action,
object_type, object_id, payload]))`` in UTF-8, where ``recorded_at`` is
``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in UTC, ``payload`` the canonical JSON (sorted
keys, no spaces, UTF-8), and ``prev_hash`` of the first event 64 zeros. None
of the one-line fields may contain a newline, so the framing is unambiguous.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connections, models, router, transaction
from django.utils import timezone

from .models import AuditEvent

GENESIS = "0" * 64
_LOCK_KEY = 0x6A75_6469_7401  # advisory lock key of the chain's sealers


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, set | frozenset | tuple):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    raise TypeError(f"cannot record a value of type {type(value).__name__} in an audit payload")


def canonical_json(payload: Any) -> str:
    """Sorted keys, no spaces, UTF-8: the same payload always gives the same text."""
    return json.dumps(
        payload,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=_json_default,
    )


def format_time(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(
    *,
    prev_hash: str,
    seq: int,
    recorded_at: str,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
) -> str:
    message = "\n".join(
        [prev_hash, str(seq), recorded_at, actor_name, action, object_type, object_id, payload]
    )
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


def _one_line(name: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"audit field {name} may not contain a line break: {value!r}")
    return value


def record(
    *,
    actor: Any,
    action: str,
    obj: models.Model | None = None,
    object_type: str | None = None,
    object_id: str | int | None = None,
    payload: dict[str, Any] | None = None,
    using: str | None = None,
) -> AuditEvent:
    """Record one regulated act in the caller's transaction.

    ``actor`` is the acting user (``None`` for the system itself); ``obj`` the
    model instance acted upon (or give ``object_type`` and ``object_id``);
    ``payload`` what the act recorded, as plain JSON-able data.
    """
    using = using or router.db_for_write(AuditEvent)
    if not connections[using].in_atomic_block:
        raise RuntimeError("audit.record() must run inside the transaction of the act it records")
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = obj.pk if object_id is None else object_id
    if not object_type:
        raise ValueError("audit.record() needs obj or object_type")
    user = actor if getattr(actor, "is_authenticated", False) else None
    actor_name = user.get_username() if user is not None else "system"
    event = AuditEvent.objects.using(using).create(
        recorded_at=timezone.now(),
        actor=user,
        actor_name=_one_line("actor_name", actor_name),
        action=_one_line("action", action),
        object_type=_one_line("object_type", object_type),
        object_id=_one_line("object_id", "" if object_id is None else str(object_id)),
        payload=canonical_json(payload or {}),
    )
    if settings.AUDIT_SEALING == "inline":
        seal_pending(using=using)
        event.refresh_from_db(using=using, fields=["seq", "prev_hash", "hash", "sealed_at"])
    return event


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
    return (row[0], row[1]) if row else (0, GENESIS)


def seal_pending(*, using: str | None = None, limit: int = 5000) -> int:
    """Seal every committed, unsealed event in ``id`` order; return how many."""
    using = using or router.db_for_write(AuditEvent)
    total = 0
    while True:
        with transaction.atomic(using=using):
            _lock_chain(using)
            pending = list(
                AuditEvent.objects.using(using)
                .filter(seq__isnull=True)
                .order_by("id")
                .values_list(
                    "id",
                    "recorded_at",
                    "actor_name",
                    "action",
                    "object_type",
                    "object_id",
                    "payload",
                )[:limit]
            )
            if not pending:
                return total
            seq, prev = head(using)
            sealed_at = timezone.now()
            rows = []
            for event_id, recorded_at, actor_name, action, otype, oid, payload in pending:
                seq += 1
                digest = event_hash(
                    prev_hash=prev,
                    seq=seq,
                    recorded_at=format_time(recorded_at),
                    actor_name=actor_name,
                    action=action,
                    object_type=otype,
                    object_id=oid,
                    payload=payload,
                )
                rows.append((seq, prev, digest, sealed_at, event_id))
                prev = digest
            _write_seals(using, rows)
            total += len(rows)
        if len(pending) < limit:
            return total


def _write_seals(using: str, rows: list[tuple[int, str, str, dt.datetime, int]]) -> None:
    table = AuditEvent._meta.db_table
    with connections[using].cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET seq = %s, prev_hash = %s, hash = %s, sealed_at = %s "  # noqa: S608
            "WHERE id = %s AND seq IS NULL",
            rows,
        )


# --- Verification ---------------------------------------------------------------


@dataclass
class Verification:
    events: int
    head_seq: int
    head_hash: str
    broken_at: int | None = None
    reason: str = ""
    pending: int = 0
    oldest_pending: dt.datetime | None = None

    @property
    def ok(self) -> bool:
        return self.broken_at is None


_COPY_SQL = (
    "COPY (SELECT seq, hash, prev_hash, "
    "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
    "actor_name, action, object_type, object_id, payload "
    "FROM audit_event WHERE seq IS NOT NULL ORDER BY seq) TO STDOUT"
)

_COPY_ESCAPES = {
    ord("b"): b"\b",
    ord("f"): b"\f",
    ord("n"): b"\n",
    ord("r"): b"\r",
    ord("t"): b"\t",
    ord("v"): b"\v",
    ord("\\"): b"\\",
}


def _copy_unescape(field: bytes) -> bytes:
    """Undo COPY's text-format escaping (only met when a field holds a backslash)."""
    out = bytearray()
    i, n = 0, len(field)
    while i < n:
        c = field[i]
        if c == 0x5C and i + 1 < n:
            nxt = field[i + 1]
            if nxt in _COPY_ESCAPES:
                out += _COPY_ESCAPES[nxt]
                i += 2
                continue
            if 0x30 <= nxt <= 0x37:  # octal
                j = i + 1
                while j < n and j < i + 4 and 0x30 <= field[j] <= 0x37:
                    j += 1
                out.append(int(field[i + 1 : j], 8))
                i = j
                continue
            out.append(nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def _rows_postgresql(using: str) -> Iterator[list[bytes]]:
    """Sealed events in order, as raw fields, streamed with COPY (fast)."""
    connection = connections[using]
    connection.ensure_connection()
    raw = connection.connection
    with raw.cursor() as cursor, cursor.copy(_COPY_SQL) as copy:
        rest = b""
        for chunk in copy:
            data = rest + bytes(chunk)
            lines = data.split(b"\n")
            rest = lines.pop()
            for line in lines:
                fields = line.split(b"\t")
                if b"\\" in line:
                    fields = [_copy_unescape(f) for f in fields]
                yield fields
        if rest:
            yield rest.split(b"\t")


def _rows_generic(using: str) -> Iterator[list[bytes]]:
    query = (
        AuditEvent.objects.using(using)
        .filter(seq__isnull=False)
        .order_by("seq")
        .values_list(
            "seq",
            "hash",
            "prev_hash",
            "recorded_at",
            "actor_name",
            "action",
            "object_type",
            "object_id",
            "payload",
        )
    )
    for seq, digest, prev, recorded_at, *rest in query.iterator(chunk_size=5000):
        yield [
            str(seq).encode(),
            (digest or "").encode(),
            (prev or "").encode(),
            format_time(recorded_at).encode(),
            *(value.encode("utf-8") for value in rest),
        ]


def verify_chain(*, using: str = "default") -> Verification:
    """Recompute the whole chain; stop at the first event that breaks it."""
    connection = connections[using]
    rows = _rows_postgresql(using) if connection.vendor == "postgresql" else _rows_generic(using)
    sha256 = hashlib.sha256
    expected = 1
    prev = GENESIS.encode()
    join = b"\n".join
    result = Verification(events=0, head_seq=0, head_hash=GENESIS)
    for fields in rows:
        seq_b, digest, prev_b = fields[0], fields[1], fields[2]
        seq = int(seq_b)
        if seq != expected:
            result.broken_at = expected
            result.reason = (
                f"event {expected} is missing (next found: {seq})"
                if seq > expected
                else f"event {seq} is out of order"
            )
            break
        if prev_b != prev:
            result.broken_at = seq
            result.reason = f"event {seq} does not point at the hash of event {seq - 1}"
            break
        if sha256(join((prev_b, seq_b, *fields[3:]))).hexdigest().encode() != digest:
            result.broken_at = seq
            result.reason = f"event {seq} does not match its hash (its content was changed)"
            break
        prev = digest
        expected += 1
    for _rest in rows:  # finish the COPY stream so the connection is free again
        pass
    result.events = expected - 1
    result.head_seq = expected - 1
    result.head_hash = prev.decode()
    pending = AuditEvent.objects.using(using).filter(seq__isnull=True)
    result.pending = pending.count()
    if result.pending:
        result.oldest_pending = pending.order_by("id").values_list("recorded_at", flat=True).first()
    return result
