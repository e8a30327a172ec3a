"""The whole verification: the chain, then the books against it.

:func:`verify` is what ``manage.py verify_audit`` and the officers' "check the chain
now" page run. The chain is recomputed in Python (every hash and MAC, see
:func:`audit.chain.verify_chain`); what the books must hold is rebuilt from the same
sealed events' ``"rows"`` (the last event carrying a row wins) and compared with the
books' tables, row by row in the chain's normal form (:func:`audit.books.select_sql`).

On PostgreSQL with ``parallel=True`` (the command), the books' half runs in a second
process, on its own connection, in the very snapshot the chain is read in
(``pg_export_snapshot``): the two halves run on two cores and read the same bytes. Else
it runs after the chain, on the same connection (which also sees the rows of a
transaction in progress, as in a test). On SQLite, event by event through
:class:`audit.books.BookCheck`. Events waiting to be sealed are applied on top (they are
few). The problems are the same sentences, in the same order, whichever way. A payload
is trusted only once the chain holds: the books' findings are used only when every hash
and MAC holds. Then the numbered books' series, in the same snapshot
(:func:`audit.books.check_numbering`: a gap, a number given twice or out of order, a counter
out of step) and the checks the apps above the record plug in (:data:`CHECKS`: the officers'
app registers the printed registers', a row that differs from the event recording its print, or
that no event records), named among the books' problems.
"""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections, transaction

from casino_ops.plugins import Registry

from .books import ROWS_KEY, BookCheck, books, check_numbering, iter_rows, select_sql
from .books.check import _loads, event_name, row_digest
from .books.rows import _fix_json
from .chain import Verification, verify_chain
from .officer_acts import OfficerActs, check_officer_acts

#: What the apps above the record check beside the books, in the same snapshot, once the chain
#: holds: each is given the database's alias and returns its problems, sentences named among the
#: books' (the officers' app: its printed registers against the events recording their prints).
CHECKS: Registry[Callable[[str], list[str]]] = Registry("audit.verification.CHECKS")

_BATCH = 20000
_SNAPSHOT = re.compile(r"[0-9A-F]+-[0-9A-F]+(-[0-9]+)?")


@dataclass
class Outcome:
    chain: Verification
    book_problems: list[str] = field(default_factory=list)
    rows_checked: int = 0
    officer_acts: OfficerActs | None = None

    @property
    def officer_problems(self) -> list[str]:
        return self.officer_acts.problems if self.officer_acts else []

    @property
    def ok(self) -> bool:
        return self.chain.ok and not self.book_problems and not self.officer_problems


def verify(*, using: str = "default", merkle: Any = None, parallel: bool = False) -> Outcome:
    """The chain (and, with ``merkle=True``, the Merkle tree), then the books.

    ``parallel``: on PostgreSQL, outside a transaction and from a process that may fork,
    compare the books in a second process while the chain is hashed here.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        check = BookCheck()
        chain = verify_chain(using=using, merkle=merkle, books=check)
        problems = check.check(using=using) + _beside(using) if chain.chain_ok else []
        acts = check_officer_acts(using) if chain.chain_ok else None
        return Outcome(
            chain=chain, book_problems=problems, rows_checked=check.rows_checked, officer_acts=acts
        )
    pending = BookCheck(sealed_in_database=True)  # only the events waiting to be sealed
    if not parallel or connection.in_atomic_block or multiprocessing.current_process().daemon:
        outermost = not connection.in_atomic_block
        with transaction.atomic(using=using):  # the named cursors need a transaction
            if outermost:  # one snapshot for the chain and the books
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            chain = verify_chain(using=using, merkle=merkle, books=pending)
            if not chain.chain_ok:
                return Outcome(chain=chain)
            found = _compare(connection.connection)
            beside = _beside(using)
    else:
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                cursor.execute("SELECT pg_export_snapshot()")
                snapshot = cursor.fetchone()[0]
            context = multiprocessing.get_context("fork")
            receiver, sender = context.Pipe(duplex=False)
            child = context.Process(
                target=_in_child,
                args=(connection.get_connection_params(), snapshot, sender),
                name="audit-books-check",
            )
            child.start()
            sender.close()
            try:
                chain = verify_chain(
                    using=using,
                    merkle=merkle,
                    books=pending,
                    snapshot=snapshot,
                    processes=getattr(settings, "AUDIT_VERIFY_PROCESSES", 1),
                )
                status, found = receiver.recv()
            finally:
                receiver.close()
                child.join()
            beside = _beside(using) if chain.chain_ok else []
        if status != "ok":
            raise RuntimeError(f"the books check failed: {found}")
        if not chain.chain_ok:
            return Outcome(chain=chain)
    problems, rows_checked = _merge(found, pending, using)
    return Outcome(
        chain=chain,
        book_problems=problems + beside,
        rows_checked=rows_checked,
        officer_acts=check_officer_acts(using),
    )


def _beside(using: str) -> list[str]:
    """What is checked beside the books, in the same snapshot: the numbered books' series, then
    the checks plugged in (:data:`CHECKS`), in the order they were registered."""
    problems = check_numbering(using)
    for check in CHECKS:
        problems += check(using)
    return problems


def _in_child(params: dict[str, Any], snapshot: str, sender: Any) -> None:
    """The books' half, in a forked process on its own connection, in the exporter's snapshot.

    Only the child's own connection is used (never the parent's, which it inherits); the
    process ends with os._exit (multiprocessing's fork start), so nothing of the parent's
    connection is closed from here."""
    import psycopg

    try:
        if not _SNAPSHOT.fullmatch(snapshot):
            raise ValueError(f"unexpected snapshot id {snapshot!r}")
        with psycopg.connect(**params, autocommit=True) as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            conn.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
            sender.send(("ok", _compare(conn)))
            conn.execute("ROLLBACK")
    except BaseException as error:  # reported to the parent, raised there
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()


@dataclass
class _Found:
    # book table -> [(pk, seq, kind)], kind "differ" | "unbound" | "gone"
    problems: dict[str, list[tuple[Any, int | None, str]]]
    rows: dict[str, int]  # book table -> rows in the table


def _tables_holding_rows(conn: Any, tables: list[str]) -> set[str]:
    """Of ``tables``, those holding a row, in one query (a cursor of its own for each book,
    three round trips, is opened only on those: a new casino's books are mostly empty)."""
    from psycopg import sql

    names = list(dict.fromkeys(tables))
    if not names:
        return set()
    query = sql.SQL(" UNION ALL ").join(
        sql.SQL("SELECT {} WHERE EXISTS (SELECT 1 FROM {})").format(sql.Literal(name), sql.Identifier(name))
        for name in names
    )
    with conn.cursor() as cursor:
        cursor.execute(query)
        return {row[0] for row in cursor.fetchall()}


def _compare_book(
    conn: Any, book: Any, wanted: dict[Any, tuple[int, bytes]]
) -> tuple[int, list[tuple[Any, int | None, str]]]:
    """The rows of ``book`` against what the chain said of them (``wanted``, each row met taken
    out of it): how many rows, and those unbound or differing."""
    problems: list[tuple[Any, int | None, str]] = []
    count = 0
    json_at = [i + 1 for i, kind in enumerate(book.kinds) if kind == "json"]
    with conn.cursor(name=f"audit_books_{book.table}") as cursor:
        cursor.execute(select_sql(book))
        while batch := cursor.fetchmany(_BATCH):
            count += len(batch)
            for row in batch:
                if json_at:
                    values = list(row)
                    _fix_json(values, json_at)
                    row = tuple(values)
                said = wanted.pop(row[0], None)
                if said is None:
                    problems.append((row[0], None, "unbound"))
                elif said[1] != row_digest(row[1:]):
                    problems.append((row[0], said[0], "differ"))
    return count, problems


def _compare(conn: Any) -> _Found:
    """On a psycopg connection (its transaction open): every sealed event's rows, the last
    one of each row winning, compared with every book (the rows as the chain writes them).

    The events are read from the newest: the first mention of a row met is the one that
    holds, and only its values are digested (a row written by several acts, once)."""
    # table -> pk -> (seq, digest of the row's values): BookCheck.add_payload, inlined (one call
    # per event is a good part of the time at a million events).
    expected: dict[str, dict[Any, tuple[int, bytes]]] = {}
    with conn.cursor(name="audit_books_events") as cursor:
        cursor.execute(
            "SELECT seq, payload FROM audit_event WHERE seq IS NOT NULL AND strpos(payload, %s) > 0 "
            "ORDER BY seq DESC",
            ['"' + ROWS_KEY + '":[['],
        )
        while batch := cursor.fetchmany(_BATCH):
            for seq, payload in batch:
                rows = _loads(payload).get(ROWS_KEY)
                if not isinstance(rows, list):
                    continue
                for row in reversed(rows):  # in one event too, its last mention of a row holds
                    if not isinstance(row, list) or len(row) != 3 or not isinstance(row[2], dict):
                        continue
                    table, pk, values = row
                    per_table = expected.get(table)
                    if per_table is None:
                        per_table = expected[table] = {}
                    if pk not in per_table:  # else a later event said what the row holds
                        per_table[pk] = (seq, row_digest(tuple(values.values())))
    found = _Found(problems={}, rows={})
    holding = _tables_holding_rows(conn, [book.table for book in books()])
    for book in books():
        wanted = expected.get(book.table, {})
        count, problems = _compare_book(conn, book, wanted) if book.table in holding else (0, [])
        problems.extend((pk, seq, "gone") for pk, (seq, _digest) in wanted.items())
        found.rows[book.table] = count
        if problems:
            found.problems[book.table] = problems
    return found


def _merge(found: _Found, pending: BookCheck, using: str) -> tuple[list[str], int]:
    """The database's findings, with the rows of the events waiting to be sealed on top,
    written as :meth:`audit.books.BookCheck.check` writes them."""
    problems: list[str] = []
    for book in books():
        waiting = pending.expected.get(book.table, {})
        differ: dict[Any, int] = {}
        unbound: list[Any] = []
        gone: list[tuple[int, Any]] = []
        for pk, seq, kind in found.problems.get(book.table, []):
            if pk in waiting:
                continue  # a later event, waiting to be sealed, says what the row holds
            if kind == "unbound":
                unbound.append(pk)
            elif seq is not None:  # a row that differs or is gone names the event that said it
                if kind == "differ":
                    differ[pk] = seq
                else:
                    gone.append((seq, pk))
        if waiting:
            now = {row[0]: row_digest(row[1:]) for row in iter_rows(book, using=using, pks=list(waiting))}
            for pk, (event, digest) in waiting.items():
                if pk not in now:
                    gone.append((event, pk))
                elif now[pk] != digest:
                    differ[pk] = event
        if differ:
            problems.extend(pending._details(book, differ, using))
        for pk in sorted(unbound):
            problems.append(f"{book.table} pk {pk}: no event of the chain created this row")
        for seq, pk in sorted(gone):  # by the event that said it, then by key
            problems.append(f"{book.table} pk {pk}: created by {event_name(seq)}, the row is gone")
    return problems, sum(found.rows.values())
