"""Verification: the books against the chain (:class:`BookCheck`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..models import AuditEvent
from .registry import ROWS_KEY, Book, books
from .rows import iter_rows, read_rows

_loads: Callable[[bytes | str], Any]
_dumps: Callable[[Any], bytes] | None
try:  # the books check parses every event's payload: orjson does it several times faster
    import orjson

    _loads, _dumps = orjson.loads, orjson.dumps
except ImportError:  # pragma: no cover
    _loads, _dumps = json.loads, None


# --- Verification: the books against the chain ---------------------------------------

#: The values JSON writes one way each and no two alike (orjson: a float's NaN and infinities are
#: written ``null`` as None is, a UUID or an Enum as its text or number).
_SCALARS = frozenset((str, int, bool, type(None)))
_sha256 = hashlib.sha256


def row_digest(values: tuple[Any, ...]) -> bytes:
    """The SHA-256 of a row's values in an exact encoding, to compare a row with the chain.

    A row of texts, integers, booleans and nulls only (each exactly of its type) is encoded as
    JSON (orjson: a value's type and all its digits, a text's every character); any other row,
    or one JSON does not write (an integer beyond 64 bits, a lone surrogate), as ``r`` then its
    ``repr`` (a value's type and all its digits, a text's every character escaped or itself).
    JSON starts with ``[``, never ``r``: the two encodings never meet. Both sides of the
    comparison (the chain's payload, the book's row) digest with this one function.

    Not Python's ``hash()``: ``hash(n) == hash(n + 2**61 - 1)`` and ``hash(-1) == hash(-2)``,
    so a key moved by either would compare equal."""
    if _dumps is not None and _SCALARS.issuperset(map(type, values)):
        try:
            return _sha256(_dumps(values)).digest()
        except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, a lone surrogate
            pass
    return _sha256(b"r" + repr(values).encode("utf-8", "surrogatepass")).digest()


_MARKER = b'"' + ROWS_KEY.encode() + b'":[['


@dataclass
class BookCheck:
    """Receives each event's payload (sealed, in seq order; then the waiting ones) and
    compares the books with what the chain says they hold."""

    # table -> pk -> (seq or -id of a waiting event, digest of the row's values: row_digest)
    expected: dict[str, dict[Any, tuple[int, bytes]]] = field(default_factory=dict)
    rows_bound: int = 0
    rows_checked: int = 0
    problems: list[str] = field(default_factory=list)
    # The sealed events' rows are compared by PostgreSQL (audit.verification): only the
    # events waiting to be sealed come here, through add_payload.
    sealed_in_database: bool = False

    def add(self, seq: int, content: bytes) -> None:
        """``content``: the event's canonical bytes (its payload is after the last US)."""
        if _MARKER not in content:
            return
        self.add_payload(seq, content[content.rfind(b"\x1f") + 1 :])

    def add_payload(self, seq: int, payload: bytes | str) -> None:
        rows = _loads(payload).get(ROWS_KEY)
        if not isinstance(rows, list):
            return
        expected = self.expected
        for row in rows:
            try:
                table, pk, values = row
            except (TypeError, ValueError):
                continue
            if not isinstance(values, dict):
                continue
            per_table = expected.get(table)
            if per_table is None:
                per_table = expected[table] = {}
            per_table[pk] = (seq, row_digest(tuple(values.values())))
            self.rows_bound += 1

    def check(self, using: str = "default") -> list[str]:
        """Compare every book with the chain; return the problems (also kept in ``problems``)."""
        problems: list[str] = []
        for book in books():
            wanted = dict(self.expected.get(book.table, {}))
            differ: dict[Any, int] = {}
            unbound: list[Any] = []
            for row in iter_rows(book, using=using):
                self.rows_checked += 1
                pk = row[0]
                said = wanted.pop(pk, None)
                if said is None:
                    unbound.append(pk)
                elif said[1] != row_digest(row[1:]):
                    differ[pk] = said[0]
            if differ:
                problems.extend(self._details(book, differ, using))
            for pk in sorted(unbound):
                problems.append(f"{book.table} pk {pk}: no event of the chain created this row")
            # By the event that said it, then by key (as audit.verification names them).
            for pk, (seq, _h) in sorted(wanted.items(), key=lambda item: (item[1][0], item[0])):
                problems.append(f"{book.table} pk {pk}: created by {event_name(seq)}, the row is gone")
        self.problems = problems
        return problems

    def _details(self, book: Book, differ: dict[Any, int], using: str) -> list[str]:
        seqs = {s for s in differ.values() if s > 0}
        ids = {-s for s in differ.values() if s < 0}
        payloads: dict[int, dict[str, Any]] = {}
        for seq, payload in (
            AuditEvent.objects.using(using).filter(seq__in=seqs).values_list("seq", "payload")
        ):
            if seq is not None:  # filtered on seq: always
                payloads[seq] = json.loads(payload)
        for event_id, payload in (
            AuditEvent.objects.using(using).filter(id__in=ids).values_list("id", "payload")
        ):
            payloads[-event_id] = json.loads(payload)
        found = dict(read_rows(book, list(differ), using=using))
        out = []
        for pk in sorted(differ):
            seq = differ[pk]
            said: dict[str, Any] = {}
            for table, row_pk, values in payloads.get(seq, {}).get(ROWS_KEY, []):
                if table == book.table and row_pk == pk:
                    said = values
            now = found.get(pk, {})
            named = False
            for name in book.fields:
                if said.get(name) != now.get(name):
                    what = " (SHA-256 of the stored text)" if name in _digests(book) else ""
                    out.append(
                        f"{book.table} pk {pk} field {name}{what}: the chain says {said.get(name)!r} "
                        f"({event_name(seq)}), found {now.get(name)!r}"
                    )
                    named = True
            if not named:
                out.append(f"{book.table} pk {pk}: differs from {event_name(seq)}")
        return out


def _digests(book: Book) -> set[str]:
    return {f for f, k in zip(book.fields, book.kinds, strict=True) if k == "digest"}


def event_name(seq: int) -> str:
    """An event named in a problem: its number in the chain, or its id while it waits to be sealed."""
    return f"event #{seq}" if seq > 0 else f"event id {-seq} (waiting to be sealed)"
