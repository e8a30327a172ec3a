"""A book's declaration changed by a migration (a field added or renamed): its rows bound anew.

The chain carries each row as the book was declared when the act wrote it. When a migration
adds a regulated field to a book, or renames one, every row written before no longer reads
as the chain says (a field more, or another name), and verification would fail on all of
them. The migration that changes the book therefore ends with :func:`amend_operations`:

1. it reads every row of the book *as it was declared before* (``before``: the fields,
   their columns now, their kinds) and compares each with the last event that carries it:
   a row that differs, that no event created, or that is gone refuses the migration (the
   amendment never binds a row the chain does not vouch for: tampering stays visible);
2. it records one audited event ``book.amended`` per batch of rows, by the system, carrying
   each row *as declared after* (``after``), with both declarations and the renamings, so
   that from then on the chain says what the rows hold, the new column's values included.

Both declarations are written out in the migration (like the guards' lists), so it runs the
same whatever the books' declaration is later. Pure of the apps: imports only the record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connections, migrations, transaction

from ..actions import Action
from .registry import ROWS_KEY, Book
from .rows import read_rows

#: A field as a migration writes it out: (name, column, kind), kind as audit.books.registry._kind.
FieldSpec = tuple[str, str, str]

#: Rows per ``book.amended`` event.
BATCH = 2000


class BookNotVouched(RuntimeError):
    """The book holds rows the chain does not say: the amendment would hide them."""


def _book(table: str, pk: str, fields: Sequence[FieldSpec]) -> Book:
    ordered = sorted(fields)
    return Book(
        model=None,
        table=table,
        pk=pk,
        fields=tuple(f[0] for f in ordered),
        columns=tuple(f[1] for f in ordered),
        kinds=tuple(f[2] for f in ordered),
        append_only=True,
        mutable=frozenset(),
    )


def _said(table: str, using: str) -> dict[Any, tuple[str, dict[str, Any]]]:
    """pk -> (the event, the values) of the last event carrying each row of ``table``."""
    said: dict[Any, tuple[str, dict[str, Any]]] = {}
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT seq, id, payload FROM audit_event WHERE strpos(payload, %s) > 0 "
            "ORDER BY seq NULLS LAST, id",
            [json.dumps(table)],
        )
        for seq, event_id, payload in cursor.fetchall():
            for row in json.loads(payload).get(ROWS_KEY, []):
                if isinstance(row, list) and len(row) == 3 and row[0] == table and isinstance(row[2], dict):
                    said[row[1]] = (f"event #{seq}" if seq is not None else f"event id {event_id}", row[2])
    return said


def amend_book(
    *,
    table: str,
    pk: str,
    before: Sequence[FieldSpec],
    after: Sequence[FieldSpec],
    renamed: dict[str, str] | None = None,
    reason: str = "",
    using: str = "default",
) -> int:
    """Check every row of ``table`` against the chain as declared ``before``, then bind it anew
    as declared ``after`` (see the module). Returns the number of rows bound; raises
    :class:`BookNotVouched` naming the rows the chain does not vouch for."""
    from ..chain import record  # cycle: the chain drains the books' captured rows

    old, new = _book(table, pk, before), _book(table, pk, after)
    said = _said(table, using)
    problems = []
    with transaction.atomic(using=using):
        found = dict(read_rows(old, list(_all_pks(table, pk, using)), using=using))
        for row_pk, values in found.items():
            event = said.pop(row_pk, None)
            if event is None:
                problems.append(f"{table} pk {row_pk}: no event of the chain created this row")
            elif event[1] != values:
                problems.append(f"{table} pk {row_pk}: differs from {event[0]}")
        problems.extend(
            f"{table} pk {row_pk}: created by {event}, the row is gone"
            for row_pk, (event, _v) in said.items()
        )
        if problems:
            raise BookNotVouched("; ".join(problems[:20]))
        rows = [[table, row_pk, values] for row_pk, values in read_rows(new, list(found), using=using)]
        for start in range(0, len(rows), BATCH):
            record(
                actor=None,
                action=Action.BOOK_AMENDED,
                object_type="book",
                object_id=table,
                payload={
                    "table": table,
                    "reason": reason,
                    "fields_before": list(old.fields),
                    "fields": list(new.fields),
                    "renamed": dict(renamed or {}),
                    ROWS_KEY: rows[start : start + BATCH],
                },
                using=using,
            )
    return len(rows)


def _all_pks(table: str, pk: str, using: str) -> list[Any]:
    with connections[using].cursor() as cursor:
        cursor.execute(f'SELECT "{pk}" FROM "{table}" ORDER BY 1')
        return [r[0] for r in cursor.fetchall()]


def amend_operations(
    *,
    table: str,
    pk: str,
    before: Sequence[FieldSpec],
    after: Sequence[FieldSpec],
    renamed: dict[str, str] | None = None,
    reason: str = "",
) -> Any:
    """The migration operation running :func:`amend_book` (reversed: the rows bound anew as
    declared ``before``, the chain again saying what they hold)."""

    def forward(apps: Any, schema_editor: Any) -> None:
        amend_book(
            table=table,
            pk=pk,
            before=before,
            after=after,
            renamed=renamed,
            reason=reason,
            using=schema_editor.connection.alias,
        )

    def backward(apps: Any, schema_editor: Any) -> None:
        amend_book(
            table=table,
            pk=pk,
            before=after,
            after=before,
            renamed={v: k for k, v in (renamed or {}).items()},
            reason=reason,
            using=schema_editor.connection.alias,
        )

    return migrations.RunPython(forward, backward)
