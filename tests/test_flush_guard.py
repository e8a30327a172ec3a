"""The TRUNCATE guards are lifted only for the flush after a transactional test (the root
conftest's teardown hook): Django's operations stay as Django made them, and every test runs
with the guards as production has them."""

from __future__ import annotations

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
