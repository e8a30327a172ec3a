"""Tests that make a breach behind the services' back (the self-inspection must find it)
write past the books' database guard, as a superuser could: lifted for the write only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


@contextmanager
def behind_the_guard(*models: Any) -> Iterator[None]:
    """Lift the guard triggers of ``models``' tables for the block, then put them back
    ENABLE ALWAYS (the test suite connects as a superuser, who may)."""
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        # deferred foreign-key checks pending on the table would forbid the ALTER
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in tables:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_rows")
                cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_truncate")


#: The audit record's own guard triggers (audit migration 0010), all ENABLE ALWAYS.
AUDIT_EVENT_TRIGGERS = (
    "audit_event_guard_insert",
    "audit_event_guard_rows",
    "audit_event_guard_delete",
    "audit_event_guard_truncate",
)


def restore_event_guard(cursor: Any) -> None:
    """Put the audit record's guard back after ``DISABLE TRIGGER USER``."""
    for name in AUDIT_EVENT_TRIGGERS:
        cursor.execute(f"ALTER TABLE audit_event ENABLE ALWAYS TRIGGER {name}")
