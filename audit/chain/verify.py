"""Verification: recompute every hash and MAC, then the checkpoints and the waiting events."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections

from ..actions import Action
from ..merkle import TreeBuilder
from ..models import AuditEvent
from .hashing import GENESIS, _hmac, _key, format_time, mac_holds
from .rows import _rows_generic, _rows_postgresql


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
    # The highest sequence the witness vouches for (a checkpoint or the sealer's head mark) and
    # when: the events after it could be removed whole unseen (the window).
    witnessed_seq: int | None = None
    witnessed_at: str = ""
    # Events recorded earlier than a sealed event before them, beyond the tolerance
    # (AUDIT_CLOCK_TOLERANCE): the server's clock ran backwards (FR art. 68).
    clock_problems: list[str] = field(default_factory=list)

    @property
    def chain_ok(self) -> bool:
        return self.broken_at is None

    @property
    def ok(self) -> bool:
        return (
            self.broken_at is None
            and not self.checkpoint_problems
            and not self.forged
            and not self.clock_problems
        )

    def describe(self) -> str:
        if self.broken_at is not None:
            return f"event {self.broken_at}: {self.reason}"
        return "; ".join(self.checkpoint_problems + self.forged + self.clock_problems)


_LINE = 128  # each line: hash (64), mac (64), then the hashed message
_STAMP = 27  # an event's moment, first in its content: YYYY-MM-DDTHH:MM:SS.ffffffZ


def _moment(stamp: bytes) -> dt.datetime:
    return dt.datetime.strptime(stamp.decode(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)


#: The sealer's alarm of a clock that ran backwards (audit.chain.seal), as its content holds it.
_CLOCK_ALARM = b"\x1f" + Action.CLOCK_BACKWARDS.value.encode() + b"\x1f"


def _in_time(result: Verification, seq: int, content: bytes, latest: bytes, tolerance: dt.timedelta) -> bytes:
    """The latest moment so far, after the event ``seq`` (its ``content``, its moment first). An
    event earlier than one sealed before it: two writers a moment apart may be sealed in the other
    order (within ``tolerance``); beyond it, the server's clock ran backwards. The sealer's alarm
    of that incident (sealed just after the event it names) is not named again: the events after
    it are measured from it, so that one incident is one problem."""
    stamp = content[:_STAMP]
    if stamp >= latest:
        return stamp
    if content.startswith(b"system" + _CLOCK_ALARM, _STAMP + 1):
        return stamp
    behind = _moment(latest) - _moment(stamp)
    if behind > tolerance:
        result.clock_problems.append(
            f"event {seq} recorded at {stamp.decode()}, {behind} before an event sealed ahead of it "
            f"({latest.decode()}): the clock ran backwards"
        )
    return latest


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
        from ..checkpoints import CheckContext  # cycle: the checkpoints import the chain

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
    latest = b""  # the latest moment of the events so far (fixed-width UTC stamps sort as text)
    tolerance = dt.timedelta(seconds=getattr(settings, "AUDIT_CLOCK_TOLERANCE", 60))
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
            latest = _in_time(result, expected, content, latest, tolerance)
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
    last = context.last_witnessed()
    if last is not None:
        result.witnessed_seq, result.witnessed_at = last
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
        if mac_holds(
            mac,
            key,
            recorded_at=format_time(recorded_at),
            actor_name=actor_name,
            action=action,
            object_type=otype,
            object_id=oid,
            payload=payload,
        ):
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


def id_gaps(using: str = "default") -> list[str]:
    """The events' ids are given in order by the database: ids missing between the first and the
    last event, and ids given after the last one, are acts rolled back after their event was
    written, or events removed (the newest acts removed whole leave the ids after them unused)."""
    connection = connections[using]
    found = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), min(id), max(id) FROM audit_event")
        count, low, high = cursor.fetchone()
        if not count:
            return []
        missing = high - low + 1 - count
        if missing:
            found.append(
                f"{missing} event id(s) missing between id {low} and id {high} "
                "(acts rolled back after their event was written, or events removed)"
            )
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence('audit_event', 'id')")
            sequence = cursor.fetchone()[0]
            if sequence:
                cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                last, called = cursor.fetchone()
                if called and last > high:
                    found.append(
                        f"{last - high} event id(s) given after the newest event (id {high}) are not in the "
                        "record (acts rolled back, or the newest events removed)"
                    )
    return found
