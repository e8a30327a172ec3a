"""The registry of the books, and the capture of the rows an act writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from casino_ops.bookrows import BookManager, BookQuerySet, set_collector
from casino_ops.django_internals import connection_memo, connection_memo_list, live_on_commit
from casino_ops.plugins import Registry

from .rows import read_books

M = TypeVar("M")

__all__ = ["BookManager", "BookQuerySet"]  # declared at the bottom layer, re-exported for the apps

ROWS_KEY = "rows"  # the reserved payload key of the rows an event binds


# --- The registry -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Book:
    model: Any
    table: str
    pk: str  # the primary key's column
    fields: tuple[str, ...]  # regulated fields' names, sorted (the payload's key order)
    columns: tuple[str, ...]  # their columns, same order
    kinds: tuple[
        str, ...
    ]  # how each is written: text, int, bool, decimal, datetime, date, time, json, digest
    append_only: bool
    mutable: frozenset[str]

    @property
    def immutable_columns(self) -> list[str]:
        return [c for f, c in zip(self.fields, self.columns, strict=True) if f not in self.mutable]


#: the books bound to the chain, by table
BOOKS: Registry[Book] = Registry("audit.books.registry.BOOKS")

#: The connection's memo of the book rows written since its last event (:func:`drain`).
MARKS = "_audit_book_marks"


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
    _check_manager(model)
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
    BOOKS.register(book.table, book)
    from django.db.models.signals import m2m_changed, post_save

    post_save.connect(_saved, sender=model, weak=False, dispatch_uid=f"audit.books:{book.table}")
    if model._meta.auto_created:  # a many-to-many's own table: rows added by .add() and .set()
        m2m_changed.connect(_linked, sender=model, weak=False, dispatch_uid=f"audit.books:{book.table}")
    return book


def book(
    *fields: str, append_only: bool = True, mutable: Iterable[str] = (), digest: Iterable[str] = ()
) -> Callable[[type[M]], type[M]]:
    """The model it decorates is a regulated book, declared in its own module
    (:func:`register_book` of the model once its class is made: no ``books.py`` to add to)::

        @book("device", "cleaned_on", "recorded_by", "recorded_at")
        class DeviceCleaning(models.Model): ...
    """

    def declare(model: type[M]) -> type[M]:
        register_book(model, fields, append_only=append_only, mutable=mutable, digest=digest)
        return model

    return declare


def books() -> list[Book]:
    return sorted(BOOKS, key=lambda b: b.table)


def book_for(table: str) -> Book | None:
    return BOOKS.get(table)


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
    connection_memo_list(connection, MARKS).append(mark)


def _saved(sender: Any, instance: Any, raw: bool = False, using: str = "default", **kwargs: Any) -> None:
    if raw or instance.pk is None:
        return
    _collect(using, BOOKS[sender._meta.db_table], [instance.pk])


def _linked(
    sender: Any, instance: Any, action: str, pk_set: set[Any] | None, using: str = "default", **kwargs: Any
) -> None:
    """Rows of a many-to-many's table: Django adds them in bulk without returning their
    keys, so they are found by the two ends the signal names."""
    if action != "post_add" or not pk_set:
        return
    ends = [f for f in sender._meta.fields if f.is_relation]
    near = next(f for f in ends if isinstance(instance, f.related_model))
    far = next(f for f in ends if f is not near)
    pks = sender._default_manager.using(using).filter(
        **{near.attname: instance.pk, f"{far.attname}__in": pk_set}
    )
    _collect(using, BOOKS[sender._meta.db_table], list(pks.values_list("pk", flat=True)))


def _bulk_written(using: str, model: Any, pks: list[Any]) -> None:
    """The rows a book's queryset wrote by ``bulk_create`` or ``update``."""
    book = BOOKS.get(model._meta.db_table)
    if book is not None and book.model is model:
        _collect(using, book, pks)


set_collector(_bulk_written)


def _check_manager(model: Any) -> None:
    """A book's rows written by ``bulk_create`` or ``update`` are captured only through its
    default manager's :class:`BookQuerySet`: a book declared without it is refused at start-up.
    A many-to-many's own table has Django's manager: its rows come by ``m2m_changed``."""
    if model._meta.auto_created:
        return
    queryset = model._default_manager.get_queryset()
    if not isinstance(queryset, BookQuerySet):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"{model._meta.label} is a book: its default manager must be casino_ops.bookrows.BookManager"
            " (objects = BookManager()), whose bulk_create and update bind their rows to the chain"
        )


def drain(connection: Any) -> list[list[Any]]:
    """The rows written in ``connection``'s transaction since the last event, as they stand
    now: ``[[table, pk, {field: value}], ...]`` (sorted), for :func:`audit.chain.record`."""
    using = connection.alias
    marks = connection_memo(connection, MARKS)
    if not marks:
        return []
    # the marks of this act were registered after those of every earlier act of the transaction
    # (drained already, still on the list until the commit): the list is read back to the newest
    # of those, not whole at every act, so a transaction of many acts costs each the same
    since = {id(mark) for mark in marks}
    live = live_on_commit(connection, until=lambda f: type(f) is _Mark and id(f) not in since)
    wanted: dict[Book, dict[Any, None]] = {}
    for mark in marks:
        if id(mark) in live:
            wanted.setdefault(mark.book, {}).update(dict.fromkeys(mark.pks))
    marks.clear()
    rows: list[list[Any]] = []
    ordered = [(book, list(wanted[book])) for book in sorted(wanted, key=lambda b: b.table)]
    for (book, _pks), found in zip(ordered, read_books(ordered, using=using), strict=True):
        for pk, values in found:
            rows.append([book.table, pk, values])
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows
