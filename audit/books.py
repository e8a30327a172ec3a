"""The regulated books bound to the audit chain.

Each app declares, in its own ``books`` module, which of its models are books and
which of their fields are regulated (what the registers print or the rules read):
:func:`register_book`. Then:

- every row of a book that an act creates or changes is captured, whatever the
  way it was written (``save()``, ``objects.create()``, ``bulk_create()``,
  ``QuerySet.update()``), into the act's transaction; :func:`audit.chain.record`
  drains what was captured into its event's payload under the reserved key
  ``"rows"``: ``[[table, pk, {field: value, ...}], ...]``, each row read back from
  the database as it stands when the act records itself. Rows written in a
  savepoint that rolled back are left out (they are gone);
- :class:`BookCheck` rebuilds, from the chain alone, what each book must hold now
  (the last event carrying a row wins) and compares it with the tables: a row that
  differs (naming the field, the value the chain says, the event that says it and
  the value found), a row no event created, a row an event created that is gone.
  A field declared as a digest (a hand log's raw text) is carried as the SHA-256
  of its UTF-8 bytes: the stored bytes must still hash to what the chain recorded;
- :func:`guard_sql` builds the triggers (enabled ALWAYS) that keep the books
  append-only in the database: no DELETE, no TRUNCATE, no UPDATE of a column that
  never changes after the act (only the ``mutable`` ones may move). The apps'
  migrations write their lists out and call it; it imports nothing of the apps.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .models import AuditEvent

try:  # the books check parses every event's payload: orjson does it several times faster
    from orjson import loads as _loads
except ImportError:  # pragma: no cover
    _loads = json.loads

ROWS_KEY = "rows"  # the reserved payload key of the rows an event binds

_UTC_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'


# --- The registry -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Book:
    model: Any
    table: str
    pk: str  # the primary key's column
    fields: tuple[str, ...]  # regulated fields' names, sorted (the payload's key order)
    columns: tuple[str, ...]  # their columns, same order
    # how each is written: text, int, bool, decimal, datetime, date, time, json, digest
    kinds: tuple[str, ...]
    append_only: bool
    mutable: frozenset[str]

    @property
    def immutable_columns(self) -> list[str]:
        return [c for f, c in zip(self.fields, self.columns, strict=True) if f not in self.mutable]


_BOOKS: dict[Any, Book] = {}
_BY_TABLE: dict[str, Book] = {}


def _kind(model_field: Any, digest: bool) -> str:
    if digest:
        return "digest"
    internal = model_field.get_internal_type()
    if model_field.is_relation:
        internal = model_field.target_field.get_internal_type()
    if internal == "DecimalField":
        return "decimal"
    if internal == "DateTimeField":
        return "datetime"
    if internal == "DateField":
        return "date"
    if internal == "TimeField":
        return "time"
    if internal == "JSONField":
        return "json"
    if internal in {"BooleanField", "NullBooleanField"}:
        return "bool"
    return "value"


def register_book(
    model: Any,
    fields: Iterable[str],
    *,
    append_only: bool = True,
    mutable: Iterable[str] = (),
    digest: Iterable[str] = (),
) -> Book:
    """Declare ``model`` a regulated book: ``fields`` are bound to the chain.

    ``append_only``: its rows are never deleted. ``mutable``: the fields an act may
    change after the row is written (the others never change: the database refuses
    it). ``digest``: text fields carried by the SHA-256 of their UTF-8 bytes.
    """
    names = sorted(set(fields))
    mutable, digest = frozenset(mutable), frozenset(digest)
    unknown = (mutable | digest) - set(names)
    if unknown:
        raise ValueError(f"{model._meta.label}: {sorted(unknown)} are not among the book's fields")
    model_fields = [model._meta.get_field(name) for name in names]
    book = Book(
        model=model,
        table=model._meta.db_table,
        pk=model._meta.pk.column,
        fields=tuple(names),
        columns=tuple(f.column for f in model_fields),
        kinds=tuple(_kind(f, f.name in digest) for f in model_fields),
        append_only=append_only,
        mutable=mutable,
    )
    _BOOKS[model] = book
    _BY_TABLE[book.table] = book
    from django.db.models.signals import post_save

    post_save.connect(_saved, sender=model, weak=False, dispatch_uid=f"audit.books:{book.table}")
    _install()
    return book


def books() -> list[Book]:
    return sorted(_BY_TABLE.values(), key=lambda b: b.table)


def book_for(table: str) -> Book | None:
    return _BY_TABLE.get(table)


# --- Capture: the rows an act writes ------------------------------------------------


class _Mark:
    """One write of book rows, registered with the transaction's on-commit list: a
    savepoint that rolls back drops it from there, so its rows are left out."""

    __slots__ = ("book", "pks")

    def __init__(self, book: Book, pks: list[Any]) -> None:
        self.book, self.pks = book, pks

    def __call__(self) -> None:  # run after commit: nothing to do
        pass


def _collect(using: str, book: Book, pks: list[Any]) -> None:
    from django.db import connections

    connection = connections[using]
    if not connection.in_atomic_block or not pks:
        return  # not inside an act's transaction: no event can bind it
    mark = _Mark(book, pks)
    connection.on_commit(mark)
    connection.__dict__.setdefault("_audit_book_marks", []).append(mark)


def _saved(sender: Any, instance: Any, raw: bool = False, using: str = "default", **kwargs: Any) -> None:
    if raw or instance.pk is None:
        return
    _collect(using, _BOOKS[sender], [instance.pk])


_installed = False


def _install() -> None:
    """``bulk_create`` and ``QuerySet.update`` send no signal: they register their rows here."""
    global _installed
    if _installed:
        return
    _installed = True
    from django.db import connections
    from django.db.models.query import QuerySet

    bulk_create = QuerySet.bulk_create
    update = QuerySet.update

    def audited_bulk_create(self: QuerySet, objs: Iterable[Any], *args: Any, **kwargs: Any) -> list[Any]:
        made = bulk_create(self, objs, *args, **kwargs)
        book = _BOOKS.get(self.model)
        if book is not None:
            _collect(self.db, book, [obj.pk for obj in made if obj.pk is not None])
        return made

    def audited_update(self: QuerySet, **kwargs: Any) -> int:
        book = _BOOKS.get(self.model)
        if book is None or not connections[self.db].in_atomic_block:
            return update(self, **kwargs)
        pks = list(self.values_list("pk", flat=True))
        done = update(self, **kwargs)
        _collect(self.db, book, pks)
        return done

    audited_bulk_create.__doc__ = bulk_create.__doc__
    audited_update.__doc__ = update.__doc__
    QuerySet.bulk_create = audited_bulk_create  # type: ignore[method-assign]
    QuerySet.update = audited_update  # type: ignore[method-assign]


def drain(connection: Any) -> list[list[Any]]:
    """The rows written in ``connection``'s transaction since the last event, as they stand
    now: ``[[table, pk, {field: value}], ...]`` (sorted), for :func:`audit.chain.record`."""
    using = connection.alias
    marks = connection.__dict__.get("_audit_book_marks")
    if not marks:
        return []
    live = {id(entry[1]) for entry in connection.run_on_commit}
    wanted: dict[Book, dict[Any, None]] = {}
    for mark in marks:
        if id(mark) in live:
            wanted.setdefault(mark.book, {}).update(dict.fromkeys(mark.pks))
    marks.clear()
    rows: list[list[Any]] = []
    for book in sorted(wanted, key=lambda b: b.table):
        for pk, values in read_rows(book, list(wanted[book]), using=using):
            rows.append([book.table, pk, values])
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows


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
    from .chain import canonical_json  # cycle: the chain imports the books (drain, ROWS_KEY)

    return canonical_json(value)


def _fix_json(values: list[Any], json_at: list[int]) -> None:
    for i in json_at:
        if values[i] is not None:
            values[i] = _canonical(json.loads(values[i]))


def iter_rows(book: Book, *, using: str = "default", pks: list[Any] | None = None) -> Iterator[tuple]:
    """``(pk, value, value, ...)`` for every row of ``book`` (or those of ``pks``), each value
    as the chain writes it, in the order of ``book.fields``."""
    from django.db import connections

    connection = connections[using]
    json_at = [i for i, k in enumerate(book.kinds) if k == "json"]
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
                    if json_at:
                        values = list(row)
                        _fix_json(values, [i + 1 for i in json_at])
                        row = tuple(values)
                    yield row
            return
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for row in cursor.fetchall():
                if json_at:
                    values = list(row)
                    _fix_json(values, [i + 1 for i in json_at])
                    row = tuple(values)
                yield row
        return
    manager = book.model._base_manager.using(using)
    query = manager.all() if pks is None else manager.filter(pk__in=pks)
    kinds = book.kinds
    for row in query.values_list("pk", *book.fields).iterator(chunk_size=5000):
        yield (row[0], *(_python_value(v, k) for v, k in zip(row[1:], kinds, strict=True)))


def read_rows(book: Book, pks: list[Any], *, using: str = "default") -> list[tuple[Any, dict[str, Any]]]:
    found = []
    for row in iter_rows(book, using=using, pks=pks):
        found.append((row[0], dict(zip(book.fields, row[1:], strict=True))))
    found.sort(key=lambda r: r[0])
    return found


# --- Verification: the books against the chain ---------------------------------------


_MARKER = b'"' + ROWS_KEY.encode() + b'":[['


@dataclass
class BookCheck:
    """Receives each event's payload (sealed, in seq order; then the waiting ones) and
    compares the books with what the chain says they hold."""

    # table -> pk -> (seq or -id of a waiting event, hash of the row's values)
    expected: dict[str, dict[Any, tuple[int, int]]] = field(default_factory=dict)
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
            per_table[pk] = (seq, hash(tuple(values.values())))
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
                elif said[1] != hash(row[1:]):
                    differ[pk] = said[0]
            if differ:
                problems.extend(self._details(book, differ, using))
            for pk in sorted(unbound):
                problems.append(f"{book.table} pk {pk}: no event of the chain created this row")
            for pk, (seq, _h) in sorted(wanted.items(), key=lambda item: item[1][0]):
                problems.append(f"{book.table} pk {pk}: created by {_event(seq)}, the row is gone")
        self.problems = problems
        return problems

    def _details(self, book: Book, differ: dict[Any, int], using: str) -> list[str]:
        seqs = {s for s in differ.values() if s > 0}
        ids = {-s for s in differ.values() if s < 0}
        payloads: dict[int, dict] = {}
        for seq, payload in (
            AuditEvent.objects.using(using).filter(seq__in=seqs).values_list("seq", "payload")
        ):
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
                        f"({_event(seq)}), found {now.get(name)!r}"
                    )
                    named = True
            if not named:
                out.append(f"{book.table} pk {pk}: differs from {_event(seq)}")
        return out


def _digests(book: Book) -> set[str]:
    return {f for f, k in zip(book.fields, book.kinds, strict=True) if k == "digest"}


def _event(seq: int) -> str:
    return f"event #{seq}" if seq > 0 else f"event id {-seq} (waiting to be sealed)"


# --- The database's guard -----------------------------------------------------------


def guard_sql(
    vendor: str, table: str, immutable: Iterable[str], *, append_only: bool = True
) -> tuple[list[str], list[str]]:
    """The statements that install and remove a book's guard on ``vendor``.

    PostgreSQL: a row trigger ``<table>_guard_rows`` refuses DELETE (``append_only``)
    and any UPDATE that changes a column of ``immutable``; a statement trigger
    ``<table>_guard_truncate`` refuses TRUNCATE; both ENABLE ALWAYS, so
    ``session_replication_role = replica`` does not skip them. SQLite: the same
    refusals as BEFORE triggers (it has no TRUNCATE). Pure: imports nothing.
    """
    immutable = list(immutable)
    if vendor == "postgresql":
        changed = " OR ".join(f'NEW."{c}" IS DISTINCT FROM OLD."{c}"' for c in immutable) or "FALSE"
        delete = "TRUE" if append_only else "FALSE"
        function = f"{table}_guard"
        install = [
            f"""CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF {changed} THEN
            RAISE EXCEPTION '{table}: a registered entry is never changed (FR art. 68): UPDATE refused'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    ELSIF TG_OP = 'DELETE' THEN
        IF {delete} THEN
            RAISE EXCEPTION '{table}: a registered entry is never erased (FR art. 68): DELETE refused'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '{table}: a registered book is never erased (FR art. 68): % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$""",
            f"CREATE TRIGGER {table}_guard_rows BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {function}()",
            f"CREATE TRIGGER {table}_guard_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
            f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_rows",
            f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_truncate",
        ]
        remove = [
            f"DROP TRIGGER IF EXISTS {table}_guard_rows ON {table}",
            f"DROP TRIGGER IF EXISTS {table}_guard_truncate ON {table}",
            f"DROP FUNCTION IF EXISTS {function}()",
        ]
        return install, remove
    if vendor == "sqlite":
        install, remove = [], []
        if immutable:
            changed = " OR ".join(f'NEW."{c}" IS NOT OLD."{c}"' for c in immutable)
            install.append(
                f"CREATE TRIGGER {table}_guard_update BEFORE UPDATE ON {table} WHEN {changed} "
                f"BEGIN SELECT RAISE(ABORT, '{table}: a registered entry is never changed (FR art. 68)'); END"
            )
            remove.append(f"DROP TRIGGER IF EXISTS {table}_guard_update")
        if append_only:
            install.append(
                f"CREATE TRIGGER {table}_guard_delete BEFORE DELETE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table}: a registered entry is never erased (FR art. 68)'); END"
            )
            remove.append(f"DROP TRIGGER IF EXISTS {table}_guard_delete")
        return install, remove
    raise RuntimeError(f"the books need PostgreSQL or SQLite, not {vendor}")


def guard_operations(guards: list[tuple[str, list[str], bool]]) -> Any:
    """A migration operation installing the guards ``[(table, immutable columns, append_only)]``."""
    from django.db import migrations

    def install(apps: Any, schema_editor: Any) -> None:
        for table, immutable, append_only in guards:
            statements, _remove = guard_sql(
                schema_editor.connection.vendor, table, immutable, append_only=append_only
            )
            for statement in statements:
                schema_editor.execute(statement, params=None)

    def remove(apps: Any, schema_editor: Any) -> None:
        for table, immutable, append_only in guards:
            _install, statements = guard_sql(
                schema_editor.connection.vendor, table, immutable, append_only=append_only
            )
            for statement in statements:
                schema_editor.execute(statement, params=None)

    return migrations.RunPython(install, remove)
