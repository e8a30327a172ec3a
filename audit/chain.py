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

Authenticated at the source
---------------------------
:func:`record` computes, in the same INSERT, ``mac``: the HMAC-SHA256 of the
event's canonical bytes (:func:`event_bytes`) keyed by ``AUDIT_EVENT_KEY``, a
secret of the application that the database never holds. A sealing pass
recomputes it and never seals an event whose MAC fails: such an event stays
out of the chain for ever (its ``seq`` stays empty), an alarm event
``audit.forged_event`` naming its id is sealed in its place, and
``verify_audit`` reports it. Verification also recomputes the MAC of every
sealed event, so that whoever holds the database but not the key cannot
rewrite the chain even after the last checkpoint. The MAC is unique: a genuine
event copied into the table again is refused.

What the hash covers
--------------------
``sha256(US.join([prev_hash, seq, recorded_at, actor_name, action,
object_type, object_id, payload]))`` in UTF-8, where US is the unit separator
``\\x1f``, ``recorded_at`` is ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` in UTC,
``payload`` the canonical JSON (sorted keys, no spaces, UTF-8; JSON escapes
control characters, so it never holds US), and ``prev_hash`` of the first event
64 zeros. No one-line field may contain US, a tab or a line break, so the
framing is unambiguous.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connections, models, router, transaction
from django.utils import timezone

from .actions import Action
from .books import ROWS_KEY, drain
from .merkle import TreeBuilder
from .models import AuditEvent

GENESIS = "0" * 64
_US = "\x1f"  # the unit separator frames the hashed fields; no field may hold it
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
    message = _US.join(
        [prev_hash, str(seq), recorded_at, actor_name, action, object_type, object_id, payload]
    )
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


FORGED_ACTION = Action.FORGED_EVENT
FORGED_OBJECT = "audit.auditevent"


def event_bytes(
    *, recorded_at: str, actor_name: str, action: str, object_type: str, object_id: str, payload: str
) -> bytes:
    """An event's canonical bytes: what its MAC covers and its Merkle leaf (RFC 9162).

    ``US.join([recorded_at, actor_name, action, object_type, object_id, payload])``
    in UTF-8: exactly the end of the message its chain hash covers, after
    ``prev_hash`` and ``seq``.
    """
    return _US.join([recorded_at, actor_name, action, object_type, object_id, payload]).encode("utf-8")


def _key() -> bytes:
    key = getattr(settings, "AUDIT_EVENT_KEY", "") or ""
    if not key:
        raise RuntimeError("AUDIT_EVENT_KEY is not set: no audit event can be authenticated")
    return key.encode("utf-8")


class _Hmac:
    """HMAC-SHA256 (RFC 2104) with the key's inner and outer states computed once:
    OpenSSL's one-shot HMAC costs several times a SHA-256 of an event here."""

    def __init__(self, key: bytes) -> None:
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def hexdigest(self, content: bytes) -> str:
        inner = self._inner.copy()
        inner.update(content)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()


_hmacs: dict[bytes, _Hmac] = {}


def _hmac(key: bytes | None = None) -> _Hmac:
    key = key or _key()
    found = _hmacs.get(key)
    if found is None:
        found = _hmacs[key] = _Hmac(key)
    return found


def event_mac(content: bytes, key: bytes | None = None) -> str:
    """HMAC-SHA256 of an event's canonical bytes, keyed by AUDIT_EVENT_KEY (hex)."""
    return _hmac(key).hexdigest(content)


def _one_line(name: str, value: str) -> str:
    if any(c in value for c in "\n\r\t\x1f"):
        raise ValueError(f"audit field {name} may not contain a line break or separator: {value!r}")
    return value


def record(
    *,
    actor: Any,
    action: Action,
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
    if not isinstance(action, Action):
        raise TypeError(f"audit.record() takes an audit.actions.Action, not {action!r}")
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
    event = AuditEvent(
        recorded_at=timezone.now(),
        actor=user,
        actor_name=_one_line("actor_name", actor_name),
        action=_one_line("action", action),
        object_type=_one_line("object_type", object_type),
        object_id=_one_line("object_id", "" if object_id is None else str(object_id)),
        payload=canonical_json(_with_rows(connections[using], payload)),
    )
    event.mac = event_mac(
        event_bytes(
            recorded_at=format_time(event.recorded_at),
            actor_name=event.actor_name,
            action=event.action,
            object_type=event.object_type,
            object_id=event.object_id,
            payload=event.payload,
        )
    )
    _insert(using, event, user.pk if user is not None else None)
    event._state.adding = False
    event._state.db = using
    if settings.AUDIT_SEALING == "inline":
        for seq, prev, digest, sealed_at, event_id in _seal(using, limit=None):
            if event_id == event.id:
                event.seq, event.prev_hash, event.hash, event.sealed_at = seq, prev, digest, sealed_at
    return event


def _with_rows(connection: Any, payload: dict[str, Any] | None) -> dict[str, Any]:
    """The payload, plus the regulated rows the act wrote (audit.books), under "rows"."""
    if not connection.__dict__.get("_audit_book_marks"):
        return payload or {}  # no row of a book written since the last event

    rows = drain(connection)
    if not rows:
        return payload or {}
    if payload and ROWS_KEY in payload:
        raise ValueError(f"audit payload key {ROWS_KEY!r} is reserved for the regulated rows")
    return {**(payload or {}), ROWS_KEY: rows}


def _insert(using: str, event: AuditEvent, actor_id: int | None) -> None:
    # One plain INSERT: the record must cost the act as little as possible.
    with connections[using].cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {AuditEvent._meta.db_table} "
            "(recorded_at, actor_id, actor_name, action, object_type, object_id, payload, mac) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
            [
                event.recorded_at,
                actor_id,
                event.actor_name,
                event.action,
                event.object_type,
                event.object_id,
                event.payload,
                event.mac,
            ],
        )
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
    return (row[0], row[1]) if row else (0, GENESIS)


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


def _raise_alarms(using: str, forged: list[tuple], key: bytes) -> list[tuple]:
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
    with connections[using].cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET seq = %s, prev_hash = %s, hash = %s, sealed_at = %s "
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
    # Signed checkpoints (audit.checkpoints): how many were checked, and what
    # does not hold, each problem naming its checkpoint.
    checkpoints: int = 0
    checkpoint_problems: list[str] = field(default_factory=list)
    hashes_at: dict[int, str] = field(default_factory=dict)
    # Unsealed events whose MAC fails (forged behind the application's back).
    forged: list[str] = field(default_factory=list)
    # The witness outside the database (audit.checkpoints): where, how many checkpoints it holds.
    witness: str = ""
    witnessed: int = 0
    tree_checked: bool = False  # the Merkle tree heads and stored subtrees were checked too

    @property
    def chain_ok(self) -> bool:
        return self.broken_at is None

    @property
    def ok(self) -> bool:
        return self.broken_at is None and not self.checkpoint_problems and not self.forged

    def describe(self) -> str:
        if self.broken_at is not None:
            return f"event {self.broken_at}: {self.reason}"
        return "; ".join(self.checkpoint_problems + self.forged)


# Rows are sent in groups of _GROUP, each one COPY row holding its events joined by
# the record separator (chr 30): the per-row cost of the protocol is paid once per
# group, and COPY streams while Python hashes. Neither separator ever occurs in a
# field (JSON escapes control characters; one-line fields refuse them), and COPY's
# text format does not escape them.
_GROUP = 2000
_COPY_SQL = (
    "COPY (SELECT string_agg(hash || coalesce(mac, repeat('-', 64)) || concat_ws(chr(31), prev_hash, seq::text, "
    "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
    "actor_name, action, object_type, object_id, payload), chr(30) ORDER BY seq) "
    f"FROM audit_event WHERE seq IS NOT NULL GROUP BY (seq - 1) / {_GROUP} "
    f"ORDER BY (seq - 1) / {_GROUP}) TO STDOUT"
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
    """Sealed events in order, in batches of ``hash + message`` lines, streamed with COPY.

    PostgreSQL only assembles the stored fields; the hash is recomputed here.
    """
    connection = connections[using]
    connection.ensure_connection()
    raw = connection.connection
    with raw.cursor() as cursor, cursor.copy(_COPY_SQL) as copy:
        rest = b""
        for chunk in copy:
            data = rest + bytes(chunk)
            if not data.endswith(b"\n"):  # a group arrives in pieces
                rest = data
                continue
            rest = b""
            lines = data[:-1].split(b"\x1e")
            if b"\\" in data:
                lines = [_copy_unescape(line) if b"\\" in line else line for line in lines]
            yield lines


def _rows_generic(using: str) -> Iterator[list[bytes]]:
    query = (
        AuditEvent.objects.using(using)
        .filter(seq__isnull=False)
        .order_by("seq")
        .values_list(
            "hash",
            "mac",
            "prev_hash",
            "seq",
            "recorded_at",
            "actor_name",
            "action",
            "object_type",
            "object_id",
            "payload",
        )
    )
    batch: list[bytes] = []
    for digest, mac, prev, seq, recorded_at, *rest in query.iterator(chunk_size=_GROUP):
        message = _US.join([prev or "", str(seq), format_time(recorded_at), *rest])
        batch.append(f"{digest or '':<64.64}{mac or '':-<64.64}{message}".encode())
        if len(batch) == _GROUP:
            yield batch
            batch = []
    if batch:
        yield batch


_LINE = 128  # each line: hash (64), mac (64), then the hashed message


def _diagnose(message: bytes, expected: int, prev: bytes) -> tuple[int, str]:
    prev_b, seq_b, _rest = message.split(b"\x1f", 2)
    seq = int(seq_b)
    if seq > expected:
        return expected, f"event {expected} is missing (next found: {seq})"
    if seq < expected:
        return expected, f"event {seq} is out of order"
    return seq, f"event {seq} does not point at the hash of event {seq - 1}"


def verify_chain(
    *,
    using: str = "default",
    checkpoints: bool = True,
    keep_hashes_at: set[int] | None = None,
    merkle: Any = None,
    books: Any = None,
) -> Verification:
    """Recompute the whole chain; stop at the first event that breaks it.

    Every event's hash and MAC are recomputed. Then every signed checkpoint is
    checked (``checkpoints``): its signature, and the chain's hash at its
    sequence against the signed one, so that a chain rewritten with recomputed
    hashes is caught; and the witness outside the database. ``keep_hashes_at``:
    sequences whose hash to keep in ``hashes_at`` (default: those of the
    checkpoints). ``merkle``: an object with ``add(leaf_hash)`` that receives
    each event's RFC 9162 leaf hash in order (see :mod:`audit.merkle`), or True
    to also check the Merkle tree: every checkpoint's signed tree head (stored
    and witnessed) and the stored subtree hashes. ``books``: an object with
    ``add(seq, content)`` and ``add_payload(-id, payload)`` (see
    :class:`audit.books.BookCheck`) that receives each sealed event's canonical
    bytes in order, then the payload of each genuine event waiting to be sealed.
    """
    context = None
    if checkpoints:
        from .checkpoints import CheckContext  # cycle: the checkpoints import the chain

        context = CheckContext()
    if keep_hashes_at is None:
        keep_hashes_at = context.seqs if context is not None else set()
    keep = keep_hashes_at
    check_tree = merkle is True
    if check_tree:
        merkle = TreeBuilder(roots_at=set(keep))
    connection = connections[using]
    rows = _rows_postgresql(using) if connection.vendor == "postgresql" else _rows_generic(using)
    sha256 = hashlib.sha256
    key = _key()
    mac_of = _hmac(key).hexdigest
    add_leaf = merkle.add if merkle is not None else None
    add_rows = books.add if books is not None and not books.sealed_in_database else None
    expected = 1
    prev = GENESIS.encode()
    result = Verification(events=0, head_seq=0, head_hash=GENESIS)
    broken = False
    for lines in rows:
        for line in lines:
            # One prefix test checks both the link to the previous hash and the number.
            if not line.startswith(b"%s\x1f%d\x1f" % (prev, expected), _LINE):
                result.broken_at, result.reason = _diagnose(line[_LINE:], expected, prev)
                broken = True
                break
            digest = line[:64]
            message = line[_LINE:]
            if sha256(message).hexdigest().encode() != digest:
                result.broken_at = expected
                result.reason = f"event {expected} does not match its hash (its content was changed)"
                broken = True
                break
            content = message.split(b"\x1f", 2)[2]
            if mac_of(content).encode() != line[64:_LINE]:
                result.broken_at = expected
                result.reason = (
                    f"event {expected} does not match its MAC (written or rewritten without the "
                    "application's key: forged)"
                )
                broken = True
                break
            if add_leaf is not None:
                add_leaf(sha256(b"\x00" + content).digest())
            if add_rows is not None:
                add_rows(expected, content)
            prev = digest
            if keep and expected in keep:
                result.hashes_at[expected] = digest.decode()
            expected += 1
        if broken:
            break
    for _rest in rows:  # finish the COPY stream so the connection is free again
        pass
    result.events = expected - 1
    result.head_seq = expected - 1
    result.head_hash = prev.decode()
    _check_pending(using, result, key, books)
    if context is not None:
        _check_checkpoints(context, result, merkle if check_tree else None)
    return result


def _check_checkpoints(context: Any, result: Verification, tree: Any) -> None:
    """The signed checkpoints against the hashes kept, the witness, and (``tree``: the
    Merkle tree built while reading, when it is to be checked) their signed tree heads."""
    result.checkpoints, result.checkpoint_problems = context.check(
        result.hashes_at, verified_to=result.head_seq, broken=result.broken_at is not None
    )
    result.witness = str(context.witness) if context.witness is not None else ""
    result.witnessed = len(context.witnessed)
    if tree is not None and result.broken_at is None:
        result.checkpoint_problems.extend(context.check_tree(tree))
        result.tree_checked = True


def _check_pending(using: str, result: Verification, key: bytes, books: Any = None) -> None:
    """Unsealed events: those waiting (MAC holds) and the forged ones (MAC fails)."""
    waiting = []
    for event_id, recorded_at, actor_name, action, otype, oid, payload, mac in (
        AuditEvent.objects.using(using)
        .filter(seq__isnull=True)
        .order_by("id")
        .values_list(
            "id", "recorded_at", "actor_name", "action", "object_type", "object_id", "payload", "mac"
        )
        .iterator()
    ):
        content = event_bytes(
            recorded_at=format_time(recorded_at),
            actor_name=actor_name,
            action=action,
            object_type=otype,
            object_id=oid,
            payload=payload,
        )
        if mac and hmac.compare_digest(event_mac(content, key), mac):
            waiting.append(recorded_at)
            if books is not None:
                books.add_payload(-event_id, payload)
        else:
            result.forged.append(
                f"event id {event_id} ({action} {otype}:{oid} by {actor_name}, recorded "
                f"{format_time(recorded_at)}): its MAC does not hold, it is never sealed"
            )
    result.pending = len(waiting)
    result.oldest_pending = waiting[0] if waiting else None
