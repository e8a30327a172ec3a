"""Verification: recompute every hash and MAC, then the checkpoints and the waiting events."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections

from ..actions import Action
from ..merkle import TreeBuilder
from ..models import AuditEvent
from .hashing import GENESIS, _hmac, _key, format_time, mac_holds
from .rows import _copy_lines, _rows_generic, _rows_postgresql


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


_SNAPSHOT = re.compile(r"[0-9A-F]+-[0-9A-F]+(-[0-9]+)?")
_LINE = 128  # each line: hash (64), mac (64), then the hashed message
_STAMP = 27  # an event's moment, first in its content: YYYY-MM-DDTHH:MM:SS.ffffffZ


def _moment(stamp: bytes) -> dt.datetime:
    return dt.datetime.strptime(stamp.decode(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)


#: The sealer's alarm of a clock that ran backwards (audit.chain.seal), as its content holds it.
_CLOCK_ALARM = b"\x1f" + Action.CLOCK_BACKWARDS.value.encode() + b"\x1f"


def _in_time(problems: list[str], seq: int, content: bytes, latest: bytes, tolerance: dt.timedelta) -> bytes:
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
        problems.append(
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


@dataclass
class _Walked:
    """One pass over (a range of) the chain: where it stopped and what it found."""

    expected: int  # the next sequence expected (the broken one, when broken)
    prev: bytes  # the last hash that held
    broken_at: int | None = None
    reason: str = ""
    clock_problems: list[str] = field(default_factory=list)
    hashes_at: dict[int, str] = field(default_factory=dict)
    first_prev: bytes = b""  # the range's first event's stored previous hash (its link, checked after)
    first_line: bytes = b""  # the range's first line (to name a break at its link)
    first_stamp: bytes = b""  # the range's first event's moment, and the latest of all its events
    latest: bytes = b""


def _walk(
    rows: Any,
    expected: int,
    prev: bytes | None,
    key: bytes,
    keep: set[int],
    tolerance: dt.timedelta,
    add_leaf: Any = None,
    add_rows: Any = None,
) -> _Walked:
    """Recompute the hashes and MACs of ``rows`` (batches of lines, see :mod:`.rows`) from the
    event ``expected`` on, linked to ``prev`` (None: a range whose first link is checked by the
    caller, against the range before it); stop at the first break."""
    sha256 = hashlib.sha256
    mac_of = _hmac(key).hexdigest
    walked = _Walked(expected=expected, prev=prev or b"")
    latest = b""  # the latest moment of the events so far (fixed-width UTC stamps sort as text)
    for lines in rows:
        if prev is None and lines:  # a range: its first link is the caller's to check
            walked.first_line = lines[0]
            prev = walked.first_prev = lines[0][_LINE:].split(b"\x1f", 1)[0]
            walked.first_stamp = lines[0][_LINE:].split(b"\x1f", 3)[2][:_STAMP]
        for line in lines:
            # One prefix test checks both the link to the previous hash and the number.
            if not line.startswith(b"%s\x1f%d\x1f" % (prev, expected), _LINE):
                walked.broken_at, walked.reason = _diagnose(line[_LINE:], expected, prev or b"")
                break
            digest = line[:64]
            message = line[_LINE:]
            if sha256(message).hexdigest().encode() != digest:
                walked.broken_at = expected
                walked.reason = f"event {expected} does not match its hash (its content was changed)"
                break
            content = message.split(b"\x1f", 2)[2]
            if mac_of(content).encode() != line[64:_LINE]:
                walked.broken_at = expected
                walked.reason = (
                    f"event {expected} does not match its MAC (written or rewritten without the "
                    "application's key: forged)"
                )
                break
            latest = _in_time(walked.clock_problems, expected, content, latest, tolerance)
            if add_leaf is not None:
                add_leaf(sha256(b"\x00" + content).digest())
            if add_rows is not None:
                add_rows(expected, content)
            prev = digest
            if keep and expected in keep:
                walked.hashes_at[expected] = digest.decode()
            expected += 1
        if walked.broken_at is not None:
            break
    for _rest in rows:  # finish the COPY stream so the connection is free again
        pass
    walked.expected, walked.prev, walked.latest = expected, prev or b"", latest
    return walked


def _walk_in_ranges(
    connection: Any, snapshot: str, processes: int, key: bytes, keep: set[int], tolerance: dt.timedelta
) -> _Walked | None:
    """The chain split by sequence into ``processes`` ranges, each walked in a forked process on
    its own connection in ``snapshot``; then the links between the ranges checked here, in
    order, so that the first break found is the one pass's. None (walk it in one pass) when the
    chain is too short to gain from it, or when an event at the start of a range is earlier
    than one before the range (the clock check needs the moments in order: the one pass says it
    the same way)."""
    import multiprocessing

    with connection.cursor() as cursor:
        cursor.execute("SELECT max(seq) FROM audit_event")
        top = cursor.fetchone()[0] or 0
    size = max(int(getattr(settings, "AUDIT_VERIFY_MIN_RANGE", 200_000)), 1)
    count = min(processes, top // size)
    if count < 2 or not _SNAPSHOT.fullmatch(snapshot):
        return None
    bounds = [top * i // count for i in range(count + 1)]
    bounds[0], bounds[-1] = None, None  # the first and last ranges are open: every row is read
    context = multiprocessing.get_context("fork")
    params = connection.get_connection_params()
    pipes, children = [], []
    for i in range(count):
        receiver, sender = context.Pipe(duplex=False)
        start = 1 if i == 0 else bounds[i] + 1
        child = context.Process(
            target=_range_child,
            args=(params, snapshot, bounds[i], bounds[i + 1], start, key, keep, tolerance, sender),
            name=f"audit-chain-range-{i + 1}",
        )
        child.start()
        sender.close()
        pipes.append(receiver)
        children.append(child)
    parts: list[Any] = []
    try:
        for receiver in pipes:
            parts.append(receiver.recv())
    finally:
        for receiver in pipes:
            receiver.close()
        for child in children:
            child.join()
    for status, found in parts:
        if status != "ok":
            raise RuntimeError(f"a range of the chain could not be checked: {found}")
    walked = _Walked(expected=1, prev=GENESIS.encode())
    latest = b""
    for i, (_status, part) in enumerate(parts):
        if i > 0:
            if not part.first_line:
                continue  # no event in this range: the next range's first line says what is missing
            if latest and part.first_stamp < latest:
                return None  # the clock ran backwards across the ranges' edge: the one pass says it
            # The link between the ranges: the one pass's test, on the range's first line.
            if not part.first_line.startswith(b"%s\x1f%d\x1f" % (walked.prev, walked.expected), _LINE):
                walked.broken_at, walked.reason = _diagnose(
                    part.first_line[_LINE:], walked.expected, walked.prev
                )
                return walked
        walked.clock_problems += part.clock_problems
        walked.hashes_at.update(part.hashes_at)
        walked.expected, walked.prev = part.expected, part.prev
        latest = max(latest, part.latest)
        if part.broken_at is not None:
            walked.broken_at, walked.reason = part.broken_at, part.reason
            return walked
    return walked


def _range_child(
    params: dict[str, Any],
    snapshot: str,
    low: int | None,
    high: int | None,
    start: int,
    key: bytes,
    keep: set[int],
    tolerance: dt.timedelta,
    sender: Any,
) -> None:
    """One range of the chain, in a forked process on its own connection in the exporter's
    snapshot (only that connection is used; the process ends with os._exit)."""
    import psycopg

    try:
        with psycopg.connect(**params, autocommit=True) as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            conn.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
            rows = _copy_lines(conn, low, high)
            walked = _walk(rows, start, GENESIS.encode() if low is None else None, key, keep, tolerance)
            conn.execute("ROLLBACK")
        sender.send(("ok", walked))
    except BaseException as error:  # reported to the parent, raised there
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()


def verify_chain(
    *,
    using: str = "default",
    checkpoints: bool = True,
    keep_hashes_at: set[int] | None = None,
    merkle: Any = None,
    books: Any = None,
    snapshot: str = "",
    processes: int = 1,
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

    ``snapshot`` (PostgreSQL: an exported snapshot of the transaction this runs in) and
    ``processes`` > 1: without ``merkle`` nor ``books`` rows to feed in order, the chain is
    split by sequence into ranges of at least ``AUDIT_VERIFY_MIN_RANGE`` events, each hashed
    in a process of its own on its own connection in that snapshot (:func:`_walk_in_ranges`);
    the result is the same, sentence for sentence, as the one pass.
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
    key = _key()
    tolerance = dt.timedelta(seconds=getattr(settings, "AUDIT_CLOCK_TOLERANCE", 60))
    add_leaf = merkle.add if merkle is not None else None
    add_rows = books.add if books is not None and not books.sealed_in_database else None
    result = Verification(events=0, head_seq=0, head_hash=GENESIS)
    walked = None
    if snapshot and processes > 1 and add_leaf is None and add_rows is None:
        walked = _walk_in_ranges(connection, snapshot, processes, key, keep, tolerance)
    if walked is None:
        rows = _rows_postgresql(using) if connection.vendor == "postgresql" else _rows_generic(using)
        walked = _walk(rows, 1, GENESIS.encode(), key, keep, tolerance, add_leaf, add_rows)
    expected, prev = walked.expected, walked.prev
    result.broken_at, result.reason = walked.broken_at, walked.reason
    result.clock_problems, result.hashes_at = walked.clock_problems, walked.hashes_at
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
