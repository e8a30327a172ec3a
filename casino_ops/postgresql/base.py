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
rolled back, as if the write had been sent at once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from django.db import DataError
from django.db.backends.postgresql import base
from django.db.backends.utils import debug_transaction  # type: ignore[attr-defined]  # not in the stubs

#: The statements of the held writes, split at their placeholders (a few, reused).
_PARTS: dict[str, list[str]] = {}


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: list[str] = []
        self._deferred_cursor: psycopg.ClientCursor[Any] | None = None
        self._plain_literals = False  # set once connected (init_connection_state)

    # -- the deferred writes -------------------------------------------------
    def defer(self, sql: str, params: Sequence[Any]) -> None:
        """Hold one write (``sql`` with ``%s`` placeholders and no other ``%``) until
        the commit or the next statement, whichever comes first. Only inside a
        transaction."""
        if not self.in_atomic_block and self.get_autocommit():
            raise RuntimeError("a deferred write needs a transaction")
        if self.connection is None:
            self.ensure_connection()
        parts = _PARTS.get(sql)
        if parts is None:
            parts = _PARTS[sql] = sql.split("%s")
        if len(parts) != len(params) + 1:
            raise ValueError(f"{len(parts) - 1} placeholders for {len(params)} values")
        literal, plain = self._literal, self._plain_literals
        pieces = [parts[0]]
        for value, part in zip(params, parts[1:], strict=True):
            # Text, the most of a held write, quoted here without a call (as _literal does).
            if type(value) is str and plain and "\x00" not in value:
                pieces.append("'" + value.replace("'", "''") + "'")
            else:
                pieces.append(literal(value))
            pieces.append(part)
        if not self._deferred:
            self.execute_wrappers.append(self._flush_before)
        self._deferred.append("".join(pieces))

    def flush_deferred(self) -> None:
        """Send the held writes now (before reading through the raw connection)."""
        statements = self._take_deferred()
        if statements:
            with self.wrap_database_errors:
                self._cursor_for_deferred().execute("; ".join(statements))

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
        with self.wrap_database_errors:
            return self._cursor_for_deferred().mogrify("%s", [value])

    def init_connection_state(self) -> None:
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

    # -- the transaction's end (Django's private hooks, absent from the stubs) -----
    def _commit(self) -> None:
        statements = self._take_deferred()
        if not statements or self.connection is None:
            super()._commit()  # type: ignore[misc]
            return
        with debug_transaction(self, "COMMIT"), self.wrap_database_errors:
            # One simple query: the writes, then COMMIT. psycopg then finds the
            # transaction closed and its commit() sends nothing more.
            self._cursor_for_deferred().execute("; ".join([*statements, "COMMIT"]))
            self.connection.commit()
        return None

    def _rollback(self) -> None:
        self._take_deferred()
        super()._rollback()  # type: ignore[misc]

    def close(self) -> None:
        self._take_deferred()
        super().close()
