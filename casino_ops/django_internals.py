"""Every use of Django's private API, in one module: a Django upgrade is this file to read.

The project leans on a few of Django's internals where its public API has no door: the
record binds the rows an act wrote to the act's event (the transaction's on-commit list), a
book's bulk ``update`` returns the keys it wrote, the PostgreSQL backend sends held writes
with the ``COMMIT``, the test suite copies databases and flushes guarded tables. Each is a
named function here, its docstring saying which internal it relies on and since which Django
version; ``tests/casino_ops/test_django_internals.py`` runs each one against the real
database, so that an upgrade breaking one fails there first, and
``tests/test_private_django_api.py`` fails on a use of Django's private API anywhere else.

Checked against Django 5.2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import EmptyResultSet
from django.db import models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import debug_transaction  # type: ignore[attr-defined]  # not in the stubs
from django.db.models import sql
from django.utils.connection import ConnectionProxy

if TYPE_CHECKING:
    from django.contrib.admin import AdminSite
    from django.http import HttpRequest

# -- a connection's own memo ------------------------------------------------------------


def connection_memo(connection: Any, key: str) -> list[Any] | None:
    """The list kept under ``key`` on ``connection`` (``None`` when none was kept).

    Relies on: a ``DatabaseWrapper`` being a plain object with an instance ``__dict__``
    (every Django version; ``connections[alias]`` returns the same object within a thread,
    Django ≥ 3.0's ``asgiref.local``). Read through ``__dict__`` so that a wrapper without
    the attribute costs one dictionary look-up and no ``AttributeError``. ``connection``
    is a wrapper (``connections[alias]``), never the ``django.db.connection`` proxy, whose
    ``__dict__`` is its own."""
    if type(connection) is ConnectionProxy:
        raise TypeError("a connection's memo is on connections[alias], not on the proxy")
    return cast("list[Any] | None", connection.__dict__.get(key))


def connection_memo_list(connection: Any, key: str) -> list[Any]:
    """The list kept under ``key`` on ``connection``, made empty the first time (see
    :func:`connection_memo`)."""
    if type(connection) is ConnectionProxy:
        raise TypeError("a connection's memo is on connections[alias], not on the proxy")
    return cast("list[Any]", connection.__dict__.setdefault(key, []))


# -- the transaction's on-commit list -----------------------------------------------------


def live_on_commit(connection: BaseDatabaseWrapper, until: Callable[[Any], bool] | None = None) -> set[int]:
    """The ``id()`` of every callable still registered with ``connection.on_commit`` in the
    current transaction: one registered inside a savepoint since rolled back is gone. With
    ``until``, only those registered after the last callable ``until`` accepts (read from the
    newest back, so that a long transaction's earlier callables are not read again each time).

    Relies on: ``BaseDatabaseWrapper.run_on_commit``, a list of ``(savepoint ids, func,
    robust)`` (the triple since Django 4.2, ``robust``; a pair before), kept in the order of
    registration, from which ``savepoint_rollback`` removes the entries of the savepoint it rolls
    back (Django ≥ 1.9)."""
    if until is None:
        return {id(entry[1]) for entry in connection.run_on_commit}
    live: set[int] = set()
    for entry in reversed(connection.run_on_commit):
        if until(entry[1]):
            break
        live.add(id(entry[1]))
    return live


# -- a queryset's UPDATE returning its keys -----------------------------------------------


def update_returning(queryset: models.QuerySet[Any], values: dict[str, Any]) -> tuple[int, list[Any]] | None:
    """PostgreSQL: Django's own ``UPDATE`` of ``queryset`` with ``values``, which also returns
    the primary keys of the rows it wrote (``RETURNING``): ``(count, keys)``. ``None`` where
    Django's ``update`` would do more than one plain statement (a parent's fields, a composite
    key, a slice, a combinator, an annotation, an ordering), or on another database: the
    caller then reads the keys first and calls ``update``.

    Relies on: ``QuerySet._for_write`` and ``QuerySet._result_cache`` (every version);
    ``Query.chain(sql.UpdateQuery)``, ``UpdateQuery.add_update_values``,
    ``related_updates``, ``clear_select_clause`` and ``SQLUpdateCompiler.as_sql`` returning
    ``("", ())`` when there is nothing to set (Django ≥ 2.0); ``Options.is_composite_pk``
    (Django ≥ 5.2). The statement is Django's ``QuerySet.update`` up to its ``execute_sql``."""
    queryset._for_write = True  # type: ignore[attr-defined]  # Django's own, not in the stubs
    db = queryset.db
    from django.db import connections

    connection = connections[db]
    meta = queryset.model._meta
    query = queryset.query
    if (
        connection.vendor != "postgresql"
        or not values
        or query.is_sliced
        or query.combinator
        or meta.is_composite_pk
    ):
        return None
    update = cast(sql.UpdateQuery, query.chain(sql.UpdateQuery))
    update.add_update_values(values)
    if update.related_updates or update.annotations or update.order_by:
        return None
    update.clear_select_clause()
    compiler = update.get_compiler(db)
    with transaction.mark_for_rollback_on_error(using=db):
        try:
            statement, params = compiler.as_sql()
        except EmptyResultSet:
            return 0, []  # no row can match: Django sends nothing either
        if not statement:
            return None
        with connection.cursor() as cursor:
            cursor.execute(f"{statement} RETURNING {connection.ops.quote_name(meta.pk.column)}", params)
            keys = [row[0] for row in cursor.fetchall()]
    queryset._result_cache = None
    return len(keys), keys


# -- the driver's errors as Django's ----------------------------------------------------


def database_errors(connection: BaseDatabaseWrapper) -> Any:
    """A context manager raising the driver's errors (``psycopg.errors.…``) as Django's
    (``django.db.IntegrityError``…), for statements sent on the raw connection.

    Relies on: ``BaseDatabaseWrapper.wrap_database_errors`` (Django ≥ 1.6), the
    ``DatabaseErrorWrapper`` that Django's own cursors use."""
    return connection.wrap_database_errors


# -- the backend's transaction end -----------------------------------------------------


class CommitHooks(BaseDatabaseWrapper):
    """A database backend's hooks at the transaction's end, for a backend deriving from this
    class and Django's own (``class DatabaseWrapper(CommitHooks, base.DatabaseWrapper)``):
    :meth:`statements_before_commit` gives what to send with the ``COMMIT``,
    :meth:`commit_with` sends them and commits, :meth:`before_rollback` runs before Django's
    rollback.

    Relies on: ``BaseDatabaseWrapper._commit`` and ``_rollback``, the hooks that
    ``commit()`` and ``rollback()`` call with the connection open and their checks done
    (Django ≥ 1.6); ``django.db.backends.utils.debug_transaction`` (Django ≥ 4.2), which logs
    the ``COMMIT`` as Django's own ``_commit`` does."""

    def statements_before_commit(self) -> list[str]:
        return []

    def commit_with(self, statements: list[str]) -> None:
        raise NotImplementedError

    def before_rollback(self) -> None:
        pass

    def _commit(self) -> None:
        statements = self.statements_before_commit()
        if not statements or self.connection is None:
            super()._commit()  # type: ignore[misc]  # Django's private hook, absent from the stubs
            return
        with debug_transaction(self, "COMMIT"), database_errors(self):
            self.commit_with(statements)

    def _rollback(self) -> None:
        self.before_rollback()
        super()._rollback()  # type: ignore[misc]


# -- a request's body ---------------------------------------------------------------


def body_already_read(request: HttpRequest) -> bytes | None:
    """The body of ``request`` when Django has already read it in full (``request.body``, or
    a parser that asked for it), else ``None``: the stream is still to be read, in pieces.

    Relies on: ``HttpRequest._body``, set once the body is read in full (every version);
    the public ``request.body`` would read it whole, past any limit of the caller's."""
    return cast("bytes | None", getattr(request, "_body", None))


# -- the admin's registry -------------------------------------------------------------


def registered_admins(site: AdminSite) -> dict[type[models.Model], Any]:
    """Every model registered with ``site`` and its ``ModelAdmin`` (a copy).

    Relies on: ``AdminSite._registry`` (every version); Django's public API answers for one
    model only (``is_registered``, ``get_model_admin`` since Django 5.0)."""
    return dict(site._registry)


# -- the test suite's databases ---------------------------------------------------------


@contextmanager
def database_less_cursor(connection: BaseDatabaseWrapper) -> Iterator[Any]:
    """A cursor on the server's maintenance database (``postgres``), not on ``connection``'s
    own: to create, copy or drop a database.

    Relies on: ``BaseDatabaseWrapper._nodb_cursor()`` (Django ≥ 3.1; PostgreSQL's falls back
    to the first database when ``postgres`` cannot be reached)."""
    with connection._nodb_cursor() as cursor:
        yield cursor


def name_of_test_database(connection: BaseDatabaseWrapper) -> str:
    """The name of ``connection``'s test database (``TEST["NAME"]``, else ``test_`` and its
    name), whatever the connection's current ``NAME``.

    Relies on: ``BaseDatabaseCreation._get_test_db_name()`` (every version)."""
    return cast(str, connection.creation._get_test_db_name())  # type: ignore[attr-defined]


@contextmanager
def postgresql_flush_wrapped(wrapper: Callable[..., list[str]]) -> Iterator[None]:
    """While open, the statements of every PostgreSQL flush (``flush``, the end of a
    transactional test) are ``wrapper(django_flush, operations, style, tables, **kwargs)``:
    of every connection of the process, since a flush may come through any of them.

    Relies on: ``DatabaseOperations.sql_flush(style, tables, *, reset_sequences,
    allow_cascade)`` being the one source of a flush's statements (Django ≥ 3.1), patched on
    the class."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    flush = DatabaseOperations.sql_flush

    def sql_flush(self: DatabaseOperations, style: Any, tables: Any, **kwargs: Any) -> list[str]:
        return wrapper(flush, self, style, tables, **kwargs)

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        DatabaseOperations.sql_flush = flush  # type: ignore[method-assign]


@contextmanager
def flush_without_post_migrate() -> Iterator[None]:
    """While open, the ``flush`` command sends no ``post_migrate`` signal: for a flush whose
    own statements write back every row migrate left (the test suite's, after a transactional
    test), the signal's handlers would only read them all again and write nothing.

    Relies on: ``django.core.management.commands.flush`` calling the module-level name
    ``emit_post_migrate_signal`` it imports from ``django.core.management.sql`` (every version
    since 1.7), patched on that module."""
    from django.core.management.commands import flush

    emit = flush.emit_post_migrate_signal  # type: ignore[attr-defined]  # not in the stubs
    flush.emit_post_migrate_signal = lambda *args, **kwargs: None  # type: ignore[attr-defined]
    try:
        yield
    finally:
        flush.emit_post_migrate_signal = emit  # type: ignore[attr-defined]
