"""The regulated books bound to the audit chain.

Each app declares, in its own ``books`` module, which of its models are books and
which of their fields are regulated (what the registers print or the rules read):
:func:`register_book`, or on the model itself with the class decorator :func:`book`. Then:

- every row of a book that an act creates or changes is captured, whatever the
  way it was written (``save()``, ``objects.create()``, ``bulk_create()``,
  ``update()``; a book's default manager is :class:`BookManager`, whose queryset
  captures the last two, which send no signal), into the act's transaction; :func:`audit.chain.record`
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

The package, by concern: :mod:`.registry` (the registry and the capture),
:mod:`.rows` (the normal form a row is read in), :mod:`.check`, :mod:`.guard` and
:mod:`.amend` (a book's declaration changed by a migration: its rows checked, then bound anew),
:mod:`.numbering` (the numbered books' series: no gap, no number twice, none out of order).
"""

from __future__ import annotations

from .amend import BookNotVouched, amend_book, amend_operations
from .check import BookCheck, event_name
from .guard import guard_operations, guard_sql
from .numbering import check_numbering, numberings, register_numbering
from .registry import (
    MARKS,
    ROWS_KEY,
    Book,
    BookManager,
    BookQuerySet,
    book,
    book_for,
    books,
    drain,
    register_book,
)
from .rows import iter_rows, read_rows, select_sql

__all__ = [
    "Book",
    "BookNotVouched",
    "amend_book",
    "amend_operations",
    "BookCheck",
    "BookManager",
    "BookQuerySet",
    "MARKS",
    "ROWS_KEY",
    "book",
    "book_for",
    "books",
    "check_numbering",
    "numberings",
    "register_numbering",
    "drain",
    "event_name",
    "guard_operations",
    "guard_sql",
    "iter_rows",
    "read_rows",
    "register_book",
    "select_sql",
]
