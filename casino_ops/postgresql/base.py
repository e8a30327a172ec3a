"""PostgreSQL (psycopg 3) with writes deferred to the commit, in the same round trip.

Django's own PostgreSQL backend, plus :meth:`DatabaseWrapper.defer`: a write that
belongs to the current transaction but that the transaction itself never reads
back (an audit event, in sealer mode) is held by the connection and sent with the
transaction's ``COMMIT``, as one simple query (``INSERT …; COMMIT``): the write
costs no round trip of its own. On this machine's loopback a round trip is about
a third of a short transaction.

Nothing can observe the difference: the held writes are sent first, before any
other statement that goes through Django's cursor (a read of the table they
write, a savepoint rolled back, anything else), and before the raw connection
is lent (:meth:`flush_deferred`); a rollback drops them with the transaction. Only
``RELEASE SAVEPOINT`` lets them wait, as it changes nothing a write would see.
If a held write fails, the commit fails with its error and the transaction is
rolled back, as if the write had been sent at once. :meth:`DatabaseWrapper.batch`
sends the held writes and a few statements whose rows the caller needs in the
same way: one round trip for them all (the audit record's inline sealing).

A held write may name a prepared statement (``defer(..., prepared="name")``): the
connection then sends ``EXECUTE name(…)`` and, the first time only, ``PREPARE name
AS …`` in the same batch, so the server parses and plans the statement once per
connection instead of once per write. SQL-level prepared statements live in the
server session: behind a pooler in transaction mode (PgBouncer ``pool_mode =
transaction``), set ``OPTIONS["prepare_held_writes"] = False``
(``DATABASE_PREPARED_STATEMENTS=0``) and the plain statement is sent instead; with
Django's own pool (``OPTIONS["pool"]``) nothing is prepared.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from django.db import DataError
from django.db.backends.postgresql import base

from casino_ops.django_internals import CommitHooks, database_errors

#: The statements of the held writes, split at their placeholders (a few, reused).
_PARTS: dict[str, list[str]] = {}
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class DatabaseWrapper(CommitHooks, base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: list[str] = []
        self._deferred_cursor: psycopg.ClientCursor[Any] | None = None
        self._plain_literals = False  # set once connected (init_connection_state)
        self._prepare_held = True  # OPTIONS["prepare_held_writes"]
        self._prepared: set[str] = set()  # prepared on this connection (or in the held batch)
        self._preparing: set[str] = set()  # their PREPARE is in the held batch, not yet sent
        self._unsure: set[str] = set()  # sent in a batch that failed: prepared or not

    # -- the deferred writes -------------------------------------------------
    def defer(self, sql: str, params: Sequence[Any], *, prepared: str | None = None) -> None:
        """Hold one write (``sql`` with ``%s`` placeholders and no other ``%``) until
        the commit or the next statement, whichever comes first. Only inside a
        transaction. ``prepared``: the name (lower case) of the prepared statement
        that runs ``sql`` on this connection, prepared with the first write."""
        if not self.in_atomic_block and self.get_autocommit():
            raise RuntimeError("a deferred write needs a transaction")
        if self.connection is None:
            self.ensure_connection()
        statements = self._statements(sql, params, prepared)
        if not self._deferred:
            self.execute_wrappers.append(self._flush_before)
        self._deferred.extend(statements)

    def batch(
        self, statements: Sequence[tuple[str, Sequence[Any], str | None]]
    ) -> list[list[tuple[Any, ...]]]:
        """Send the held writes, then ``statements`` (each ``(sql, params, prepared)``,
        as for :meth:`defer`), as one simple query: one round trip for them all. Each
        runs in turn, with its own snapshot (a statement sees what was committed
        before it started, as in separate round trips). Returns the rows of each
        statement (none for a statement that returns no rows). Inside a transaction."""
        if not self.in_atomic_block and self.get_autocommit():
            raise RuntimeError("a batch needs a transaction")
        if self.connection is None:
            self.ensure_connection()
        preparing = set(self._preparing)
        try:
            built = [self._statements(sql, params, prepared) for sql, params, prepared in statements]
        except Exception:
            self._prepared -= self._preparing - preparing  # their PREPARE is not to be sent
            self._preparing = preparing
            raise
        texts = self._take_deferred()
        ends = []
        for statement in built:
            texts.extend(statement)
            ends.append(len(texts) - 1)
        rows: dict[int, list[tuple[Any, ...]]] = {}
        with database_errors(self):
            self._send_held("; ".join(texts))
            cursor = self._cursor_for_deferred()
            index = 0
            while True:
                if index in ends:
                    rows[index] = cursor.fetchall() if cursor.description is not None else []
                index += 1
                if not cursor.nextset():
                    break
        return [rows[end] for end in ends]

    def _statements(self, sql: str, params: Sequence[Any], prepared: str | None) -> list[str]:
        """``sql`` with ``params`` as statements to send: ``EXECUTE`` (after its
        ``PREPARE``, the first time) when ``prepared`` names it, else the statement
        itself with its values quoted in."""
        parts = _PARTS.get(sql)
        if parts is None:
            parts = _PARTS[sql] = sql.split("%s")
        if len(parts) != len(params) + 1:
            raise ValueError(f"{len(parts) - 1} placeholders for {len(params)} values")
        literal, plain = self._literal, self._plain_literals
        values = []
        for value in params:
            # Text, the most of a held write, quoted here without a call (as _literal does).
            if type(value) is str and plain and "\x00" not in value:
                values.append("'" + value.replace("'", "''") + "'")
            else:
                values.append(literal(value))
        if prepared is not None and self._prepare_held:
            arguments = f"({', '.join(values)})" if values else ""
            return [*self._prepare(prepared, parts), f"EXECUTE {prepared}{arguments}"]
        pieces = [parts[0]]
        for value_sql, part in zip(values, parts[1:], strict=True):
            pieces.append(value_sql)
            pieces.append(part)
        return ["".join(pieces)]

    def _prepare(self, name: str, parts: list[str]) -> list[str]:
        """The PREPARE to send before the first EXECUTE of ``name`` (none if done)."""
        if not _NAME.fullmatch(name):
            raise ValueError(f"not a prepared statement's name: {name!r}")
        if name in self._unsure:
            # A batch that held its PREPARE failed: the server may have kept it or not
            # (a PREPARE outlives its transaction's rollback).
            self._unsure.discard(name)
            with database_errors(self):
                row = (
                    self._cursor_for_deferred()
                    .execute("SELECT count(*) FROM pg_prepared_statements WHERE name = %s", [name])
                    .fetchone()
                )
            if row and row[0]:
                self._prepared.add(name)
        if name in self._prepared:
            return []
        self._prepared.add(name)
        self._preparing.add(name)
        body = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], start=1))
        return [f"PREPARE {name} AS {body}"]

    def _send_held(self, sql: str) -> None:
        """Send held writes; a PREPARE among them is sure to exist only if all went well."""
        preparing, self._preparing = self._preparing, set()
        try:
            self._cursor_for_deferred().execute(sql)
        except Exception:
            self._prepared -= preparing
            self._unsure |= preparing
            raise

    def flush_deferred(self) -> None:
        """Send the held writes now (before reading through the raw connection)."""
        statements = self._take_deferred()
        if statements:
            with database_errors(self):
                self._send_held("; ".join(statements))

    def _literal(self, value: Any) -> str:
        """``value`` as an SQL literal. Text, integers and moments, the values of the
        held writes, are quoted here (a tenth of the cost of psycopg's general
        adapters): with ``standard_conforming_strings`` on and UTF-8 (both checked
        once per connection), a quote is the only character to double inside '...'.
        Anything else goes through psycopg's own quoting."""
        if value is None:
            return "NULL"
        kind = type(value)
        if kind is str and self._plain_literals:
            if "\x00" in value:
                raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
            text: str = value
            return "'" + text.replace("'", "''") + "'"
        if kind is int:
            return str(value)
        if kind is dt.datetime and value.tzinfo is not None:
            return f"'{value.isoformat()}'::timestamptz"
        with database_errors(self):
            return self._cursor_for_deferred().mogrify("%s", [value])

    def get_connection_params(self) -> dict[str, Any]:
        options = self.settings_dict["OPTIONS"]
        # A pooled session (OPTIONS["pool"]) outlives this wrapper's knowledge of what
        # it prepared: never prepare there.
        self._prepare_held = bool(options.get("prepare_held_writes", True)) and not options.get("pool")
        params: dict[str, Any] = super().get_connection_params()
        params.pop("prepare_held_writes", None)  # this backend's, not psycopg's
        return params

    def init_connection_state(self) -> None:
        self._prepared, self._preparing, self._unsure = set(), set(), set()  # a new session
        super().init_connection_state()
        info = self.connection.info
        self._plain_literals = (
            info.parameter_status("standard_conforming_strings") == "on" and info.encoding == "utf-8"
        )

    def _cursor_for_deferred(self) -> psycopg.ClientCursor[Any]:
        # One client-side binding cursor per connection: it quotes the held writes'
        # values and sends them (a simple query may hold several statements).
        cursor = self._deferred_cursor
        if cursor is None or cursor.connection is not self.connection or cursor.closed:
            cursor = self._deferred_cursor = psycopg.ClientCursor(self.connection)
        return cursor

    def _take_deferred(self) -> list[str]:
        """The held writes, no longer held (to send or to drop)."""
        statements, self._deferred = self._deferred, []
        if self._flush_before in self.execute_wrappers:
            self.execute_wrappers.remove(self._flush_before)
        return statements

    def _flush_before(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
    ) -> Any:
        if not sql.startswith("RELEASE SAVEPOINT"):
            self.flush_deferred()
        return execute(sql, params, many, context)

    # -- the transaction's end (casino_ops.django_internals.CommitHooks) -----------
    def statements_before_commit(self) -> list[str]:
        return self._take_deferred()

    def commit_with(self, statements: list[str]) -> None:
        # One simple query: the writes, then COMMIT. psycopg then finds the
        # transaction closed and its commit() sends nothing more.
        self._send_held("; ".join([*statements, "COMMIT"]))
        self.connection.commit()

    def _drop_deferred(self) -> None:
        self._take_deferred()
        self._prepared -= self._preparing  # their PREPARE was never sent
        self._preparing = set()

    def before_rollback(self) -> None:
        self._drop_deferred()

    def close(self) -> None:
        self._drop_deferred()
        super().close()
        self._prepared, self._unsure = set(), set()
