"""Fixtures shared by the whole test suite."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.backends.postgresql.operations import DatabaseOperations

_original_sql_flush = DatabaseOperations.sql_flush


def _sql_flush_keeping_guard(self: DatabaseOperations, style: Any, tables: Any, **kwargs: Any) -> list[str]:
    """Transactional tests empty every table between tests with TRUNCATE, which the
    audit record's guard refuses. The test suite (a superuser, which may always
    disable triggers) lifts the guard for that flush only, then restores it
    ENABLE ALWAYS."""
    statements = _original_sql_flush(self, style, tables, **kwargs)
    guarded = [table for table in _guarded() if table in tables]
    if statements and guarded:
        return [
            *(f"ALTER TABLE {table} DISABLE TRIGGER {table}_guard_truncate" for table in guarded),
            *statements,
            *(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {table}_guard_truncate" for table in guarded),
        ]
    return statements


# The tables whose guard (a statement trigger "<table>_guard_truncate") refuses TRUNCATE.
_GUARDED = ("audit_event", "audit_checkpoint", "audit_merkle_node")


def _guarded() -> list[str]:
    """The audit tables and every regulated book (audit.books), whose guards refuse TRUNCATE."""
    from audit.books import books

    return [*_GUARDED, *(book.table for book in books())]


DatabaseOperations.sql_flush = _sql_flush_keeping_guard  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def audit_witness(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test its own witness directory (production requires one): a checkpoint a test wrote
    is never seen by another test, whose database no longer holds it."""
    if not settings.AUDIT_WITNESS_STORAGE:
        settings.AUDIT_WITNESS_DIR = str(tmp_path_factory.mktemp("witness", numbered=True))


@pytest.fixture
def users(db: None) -> dict[str, Any]:
    """One user per role, keyed by role name, plus ``superuser``-free staff defaults."""
    from tests.builders import users_by_role

    return users_by_role()


@pytest.fixture
def director(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.DIRECTOR]


@pytest.fixture
def officer(users: dict[str, Any]) -> Any:
    from casino_ops import roles

    return users[roles.OFFICER]


@pytest.fixture
def casino(director: Any) -> Any:
    """The casino's settings: FR, authorised minimum 5.00."""
    from tests.builders import casino_settings

    return casino_settings(director)
