"""The guards are lifted only for the flush after a transactional test (the root conftest's
teardown hook: the DELETE guards of the tables it empties): Django's operations stay as Django
made them, every test runs with the guards as production has them, and the flush leaves nothing
of the test behind it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.backends.postgresql.operations import DatabaseOperations

from conftest import _guarded


def _truncate_guards() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE %s", ["%\\_guard\\_truncate"]
        )
        return dict(cursor.fetchall())


def test_django_flush_is_left_as_django_made_it() -> None:
    assert DatabaseOperations.sql_flush.__module__ == "django.db.backends.postgresql.operations"
    assert DatabaseOperations.sql_flush.__qualname__ == "DatabaseOperations.sql_flush"
    assert "sql_flush" not in vars(connection.ops)


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_runs_with_every_truncate_guard_on() -> None:
    assert "sql_flush" not in vars(connection.ops)
    guards = _truncate_guards()
    assert {f"{table}_guard_truncate" for table in _guarded()} <= set(guards)
    assert set(guards.values()) == {"A"}  # ENABLE ALWAYS
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE audit_event")


@pytest.mark.django_db
def test_a_test_in_a_transaction_runs_with_every_truncate_guard_on() -> None:
    assert set(_truncate_guards().values()) == {"A"}


def _user_triggers() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal")
        return dict(cursor.fetchall())


def _tables_with_rows() -> set[str]:
    from conftest import _migrated

    found = set()
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
            cursor.execute(f'SELECT EXISTS (SELECT FROM "{table}")')
            if cursor.fetchone()[0] and table not in _migrated:
                found.add(table)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_writes_the_record_and_guarded_books(director: Any, casino: Any) -> None:
    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    assert {"audit_event", "tables_table", "casino_ops_casinosettings"} <= _tables_with_rows()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tables_table")  # its guard refuses, in the test as in production


@pytest.mark.django_db(transaction=True)
def test_its_flush_emptied_every_table_and_left_every_guard_enabled_always() -> None:
    """After the test above: its rows are gone, the guards its flush lifted are back."""
    assert _tables_with_rows() == set()
    triggers = _user_triggers()
    assert {"audit_event_guard_delete", "tables_table_guard_rows"} <= set(triggers)
    assert set(triggers.values()) == {"A"}  # ENABLE ALWAYS, as migrate left them
