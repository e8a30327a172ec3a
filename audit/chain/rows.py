"""Reading the sealed chain in order: streamed with COPY on PostgreSQL, by query elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import connections

from ..models import AuditEvent
from .hashing import _US, CONTENT_FIELDS, HASHED_FIELDS, format_time

# Rows are sent in groups of _GROUP, each one COPY row holding its events joined by
# the record separator (chr 30): the per-row cost of the protocol is paid once per
# group, and COPY streams while Python hashes. Neither separator ever occurs in a
# field (JSON escapes control characters; one-line fields refuse them), and COPY's
# text format does not escape them.
_GROUP = 2000
_COPY_SQL = (
    "COPY (SELECT string_agg(hash || coalesce(mac, repeat('-', 64)) || concat_ws(chr(31), prev_hash, seq::text, "
    "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
    f"{', '.join(CONTENT_FIELDS)}), chr(30) ORDER BY seq) "
    "FROM audit_event WHERE seq IS NOT NULL{bounds} "
    f"GROUP BY (seq - 1) / {_GROUP} ORDER BY (seq - 1) / {_GROUP}) TO STDOUT"
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
    getattr(connection, "flush_deferred", lambda: None)()  # events held for the commit
    yield from _copy_lines(connection.connection)


def _copy_lines(raw: Any, low: int | None = None, high: int | None = None) -> Iterator[list[bytes]]:
    """The lines of the sealed events (``low`` < seq <= ``high``, each bound when given) on
    the psycopg connection ``raw``, in order."""
    bounds = "".join(
        f" AND seq {op} {int(bound)}" for op, bound in ((">", low), ("<=", high)) if bound is not None
    )
    with raw.cursor() as cursor, cursor.copy(_COPY_SQL.format(bounds=bounds)) as copy:
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
        .values_list("hash", "mac", *HASHED_FIELDS)
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
