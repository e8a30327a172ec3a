"""Reading a book's rows in their normal form, as the chain carries them."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry reads rows back through this module
    from .registry import Book


_UTC_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'


# --- Reading a book's rows, as the chain carries them ---------------------------------


def _sql_expression(column: str, kind: str) -> str:
    quoted = f'"{column}"'
    if kind == "datetime":
        return f"to_char({quoted} AT TIME ZONE 'UTC', '{_UTC_FORMAT}')"
    if kind == "date":
        return f"to_char({quoted}, 'YYYY-MM-DD')"
    if kind == "time":
        return f"{quoted}::text"
    if kind == "decimal":
        return f"{quoted}::text"
    if kind == "json":
        return f"{quoted}::text"
    if kind == "digest":
        return f"encode(sha256(convert_to({quoted}, 'UTF8')), 'hex')"
    return quoted


def select_sql(book: Book) -> str:
    """PostgreSQL: the primary key, then each field as the chain writes it (JSON's types)."""
    expressions = ", ".join(_sql_expression(c, k) for c, k in zip(book.columns, book.kinds, strict=True))
    return f'SELECT "{book.pk}", {expressions} FROM "{book.table}"'


def _python_value(value: Any, kind: str) -> Any:
    """The same normal form as :func:`select_sql`, from a value Django read (any database)."""
    if value is None:
        return None
    if kind == "datetime":
        return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if kind in ("date", "time"):
        return value.isoformat()
    if kind == "decimal":
        return str(value)
    if kind == "json":
        return _canonical(value)
    if kind == "digest":
        return hashlib.sha256(value.encode("utf-8")).hexdigest()
    if kind == "bool":
        return bool(value)
    return value


def _canonical(value: Any) -> str:
    from ..chain import canonical_json  # cycle: the chain imports the books (drain, ROWS_KEY)

    return canonical_json(value)


def _fix_json(values: list[Any], json_at: list[int]) -> None:
    for i in json_at:
        if values[i] is not None:
            values[i] = _canonical(json.loads(values[i]))


def _json_fixed(row: tuple[Any, ...], json_at: list[int]) -> tuple[Any, ...]:
    """``row`` (its key first) with its JSON columns, at ``json_at``, as the chain writes them."""
    if not json_at:
        return row
    values = list(row)
    _fix_json(values, json_at)
    return tuple(values)


def _json_columns(book: Book) -> list[int]:
    """Where the book's JSON values stand in a row that starts with its key."""
    return [i + 1 for i, k in enumerate(book.kinds) if k == "json"]


def _keyed(book: Book, rows: Iterable[tuple[Any, ...]]) -> list[tuple[Any, dict[str, Any]]]:
    """``(pk, {field: value})`` for each row, by key."""
    found = [(row[0], dict(zip(book.fields, row[1:], strict=True))) for row in rows]
    found.sort(key=lambda r: r[0])
    return found


def iter_rows(
    book: Book, *, using: str = "default", pks: list[Any] | None = None
) -> Iterator[tuple[Any, ...]]:
    """``(pk, value, value, ...)`` for every row of ``book`` (or those of ``pks``), each value
    as the chain writes it, in the order of ``book.fields``."""
    from django.db import connections

    connection = connections[using]
    json_at = _json_columns(book)
    if connection.vendor == "postgresql":
        sql = select_sql(book)
        params: list[Any] = []
        if pks is not None:
            sql += f' WHERE "{book.pk}" = ANY(%s)'
            params = [list(pks)]
        if pks is None:
            from django.db import transaction

            connection.ensure_connection()
            # A server-side cursor (inside a transaction) streams the table in batches.
            with (
                transaction.atomic(using=using),
                connection.connection.cursor(name="audit_books_check") as cursor,
            ):
                cursor.itersize = 20000
                cursor.execute(sql)
                for row in cursor:
                    yield _json_fixed(row, json_at)
            return
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for row in cursor.fetchall():
                yield _json_fixed(row, json_at)
        return
    manager = book.model._base_manager.using(using)
    query = manager.all() if pks is None else manager.filter(pk__in=pks)
    kinds = book.kinds
    for row in query.values_list("pk", *book.fields).iterator(chunk_size=5000):
        yield (row[0], *(_python_value(v, k) for v, k in zip(row[1:], kinds, strict=True)))


def read_rows(book: Book, pks: list[Any], *, using: str = "default") -> list[tuple[Any, dict[str, Any]]]:
    return _keyed(book, iter_rows(book, using=using, pks=pks))


def read_books(
    wanted: list[tuple[Book, list[Any]]], *, using: str = "default"
) -> list[list[tuple[Any, dict[str, Any]]]]:
    """:func:`read_rows` of each ``(book, pks)``, in one round trip where the connection
    sends several statements at once (PostgreSQL, ``casino_ops.postgresql``): an act that
    writes rows of several books has them all read back for its event by one query instead
    of one per book. The same statements, the same values, in the same transaction."""
    from django.db import connections

    connection = connections[using]
    if len(wanted) < 2 or connection.vendor != "postgresql" or not hasattr(connection, "batch"):
        return [read_rows(book, pks, using=using) for book, pks in wanted]
    fetched = connection.batch(
        [(f'{select_sql(book)} WHERE "{book.pk}" = ANY(%s)', [list(pks)], None) for book, pks in wanted]
    )
    return [
        _keyed(book, (_json_fixed(row, _json_columns(book)) for row in rows))
        for (book, _pks), rows in zip(wanted, fetched, strict=True)
    ]
