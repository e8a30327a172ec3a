"""The default manager of every regulated book's model (``objects = BookManager()``).

``bulk_create`` and ``update`` send no signal, so the rows they write are reported here to
the record, which binds them to the act's event like the rows ``save()`` writes. The
manager sits at the bottom layer so that every app's books, ``casino_ops``'s own included,
can declare it; the record (``audit.books``) installs the collector when it loads. Without
a collector (the record not loaded), the querysets are Django's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.db import connections, models

from .django_internals import update_returning

_M = TypeVar("_M", bound=models.Model)

Collector = Callable[[str, Any, list[Any]], None]
_collector: Collector | None = None


def set_collector(collector: Collector | None) -> None:
    """``collector(using, model, pks)`` receives the rows a book's queryset wrote in bulk."""
    global _collector
    _collector = collector


class BookQuerySet(models.QuerySet[_M]):
    """The queryset of a regulated book's default manager: its bulk writes are reported."""

    def bulk_create(self, objs: Iterable[_M], *args: Any, **kwargs: Any) -> list[_M]:
        made = super().bulk_create(objs, *args, **kwargs)
        if _collector is not None:
            _collector(
                self.db, self.model._meta.concrete_model, [obj.pk for obj in made if obj.pk is not None]
            )
        return made

    def update(self, **kwargs: Any) -> int:
        if _collector is None or not connections[self.db].in_atomic_block:
            return super().update(**kwargs)
        # PostgreSQL: Django's own UPDATE, which also returns the keys of the rows it wrote
        # (RETURNING): one statement instead of a SELECT of the keys, then the UPDATE; the same
        # rows, read in the same transaction.
        returned = update_returning(self, kwargs)
        if returned is not None:
            done, pks = returned
        else:
            pks = list(self.values_list("pk", flat=True))
            done = super().update(**kwargs)
        _collector(self.db, self.model._meta.concrete_model, pks)
        return done


class BookManager(models.Manager[_M]):
    """The default manager of every regulated book (``objects = BookManager()``): its
    querysets are :class:`BookQuerySet`."""

    def get_queryset(self) -> BookQuerySet[_M]:
        return BookQuerySet(self.model, using=self._db)
