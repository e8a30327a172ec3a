"""The contract of ``casino_ops.django_internals``: each function, against the real database,
does what its callers rely on. A Django upgrade that changes an internal fails here first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.management.color import no_style
from django.db import connection, connections, transaction
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from casino_ops.django_internals import (
    CommitHooks,
    body_already_read,
    connection_memo,
    connection_memo_list,
    database_errors,
    database_less_cursor,
    flush_without_post_migrate,
    live_on_commit,
    name_of_test_database,
    postgresql_flush_wrapped,
    registered_admins,
    update_returning,
)


@pytest.mark.django_db
def test_a_memo_lives_on_the_connection_of_the_thread() -> None:
    wrapper = connections["default"]
    assert connection_memo(wrapper, "_contract_memo") is None
    kept = connection_memo_list(wrapper, "_contract_memo")
    kept.append(1)
    assert connection_memo_list(connections["default"], "_contract_memo") is kept
    assert connection_memo(connections["default"], "_contract_memo") == [1]
    kept.clear()
    with pytest.raises(TypeError):  # the proxy has a dictionary of its own
        connection_memo(connection, "_contract_memo")


def _registered_in_a_rolled_back_savepoint(func: Callable[[], None]) -> None:
    try:
        with transaction.atomic():
            connection.on_commit(func)
            raise ZeroDivisionError
    except ZeroDivisionError:
        pass


@pytest.mark.django_db
def test_the_live_on_commit_callables_leave_out_a_rolled_back_savepoints() -> None:
    def kept() -> None:
        pass

    def dropped() -> None:
        pass

    def released() -> None:
        pass

    with transaction.atomic():
        connection.on_commit(kept)
        with transaction.atomic():
            connection.on_commit(released)
        _registered_in_a_rolled_back_savepoint(dropped)
        live = live_on_commit(connection)
        assert {id(kept), id(released)} <= live
        assert id(dropped) not in live


@pytest.mark.django_db
def test_the_live_on_commit_callables_after_a_mark_are_read_from_the_newest_back() -> None:
    """``until``: the callables registered after the newest one it accepts, rolled-back ones left
    out; the list is not read past that one (``until`` is never asked of an older callable)."""
    older = [(lambda: None) for _n in range(3)]
    newer = [(lambda: None) for _n in range(2)]
    asked: list[int] = []

    def until(func: object) -> bool:
        asked.append(id(func))
        return func is older[-1]

    def dropped() -> None:
        pass

    with transaction.atomic():
        for func in older:
            connection.on_commit(func)
        connection.on_commit(newer[0])
        _registered_in_a_rolled_back_savepoint(dropped)
        connection.on_commit(newer[1])
        live = live_on_commit(connection, until=until)
    assert live == {id(func) for func in newer}
    assert asked == [id(newer[1]), id(newer[0]), id(older[-1])]


@pytest.mark.django_db
def test_an_update_returns_the_keys_of_the_rows_it_wrote() -> None:
    groups = [Group.objects.create(name=f"contract {n}") for n in range(3)]
    queryset = Group.objects.filter(name__in=["contract 0", "contract 2"])
    assert len(queryset) == 2  # evaluated: the update forgets these rows
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        done = update_returning(queryset, {"name": Concat(F("name"), Value(" renamed"))})
    assert done is not None
    count, keys = done
    assert count == 2 and sorted(keys) == sorted([groups[0].pk, groups[2].pk])
    sent = [q["sql"] for q in queries.captured_queries if q["sql"] not in {"BEGIN", "COMMIT"}]
    assert len(sent) == 1 and sent[0].startswith("UPDATE") and "RETURNING" in sent[0]  # one statement
    assert {g.name for g in queryset} == set()  # read again, not the forgotten rows
    assert set(Group.objects.filter(name__endswith=" renamed").values_list("name", flat=True)) == {
        "contract 0 renamed",
        "contract 2 renamed",
    }
    assert Group.objects.get(pk=groups[1].pk).name == "contract 1"


@pytest.mark.django_db
def test_an_update_that_is_not_one_plain_statement_is_left_to_django() -> None:
    group = Group.objects.create(name="contract")
    mine = Group.objects.filter(pk=group.pk)
    with transaction.atomic():
        assert update_returning(Group.objects.filter(pk__in=[]), {"name": "x"}) == (0, [])
        assert update_returning(mine, {}) is None
        assert update_returning(mine[:1], {"name": "x"}) is None
        assert update_returning(mine.order_by("name"), {"name": "x"}) is None
    assert Group.objects.get(pk=group.pk).name == "contract"


@pytest.mark.django_db(transaction=True)
def test_the_backend_commits_its_held_writes_with_the_commit_and_drops_them_on_rollback() -> None:
    wrapper = connections["default"]
    assert isinstance(wrapper, CommitHooks)
    insert = "INSERT INTO auth_group (name) VALUES (%s)"
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            wrapper.defer(insert, ["held, committed"])  # type: ignore[attr-defined]
        with transaction.atomic():
            Group.objects.create(name="plain")  # no held write: Django's own commit
    assert [q["sql"] for q in queries.captured_queries].count("COMMIT") == 2  # both logged
    try:
        with transaction.atomic():
            wrapper.defer(insert, ["held, rolled back"])  # type: ignore[attr-defined]
            raise ZeroDivisionError
    except ZeroDivisionError:
        pass
    names = set(Group.objects.values_list("name", flat=True))
    assert {"held, committed", "plain"} <= names and "held, rolled back" not in names


def test_the_admins_registered() -> None:
    admins = registered_admins(admin.site)
    assert AuditEvent in admins
    assert all(admin.site.is_registered(model) for model in admins)
    assert admins[AuditEvent] is admin.site.get_model_admin(AuditEvent)


@pytest.mark.django_db
def test_a_cursor_outside_the_test_database() -> None:
    with database_less_cursor(connection) as cursor:
        cursor.execute("SELECT current_database()")
        (name,) = cursor.fetchone()
    assert name != connection.settings_dict["NAME"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone() == (connection.settings_dict["NAME"],)


@pytest.mark.django_db
def test_the_test_database_is_named() -> None:
    # During the tests, the test database's settings are the connection's own.
    test = connection.settings_dict["TEST"].get("NAME")
    assert name_of_test_database(connection) == (test or f"test_{connection.settings_dict['NAME']}")
    assert name_of_test_database(connection).startswith("test")


def test_a_flush_goes_through_the_wrapper_then_django_again() -> None:
    seen: list[Any] = []

    def wrapper(flush: Any, operations: Any, style: Any, tables: Any, **kwargs: Any) -> list[str]:
        statements = flush(operations, style, tables, **kwargs)
        seen.append((tables, statements))
        return [*statements, "SELECT 'after'"]

    plain = connection.ops.sql_flush(no_style(), ["auth_group"])
    with postgresql_flush_wrapped(wrapper):
        wrapped = connections["default"].ops.sql_flush(no_style(), ["auth_group"])
    assert plain and plain[0].startswith("TRUNCATE")
    assert wrapped == [*plain, "SELECT 'after'"]
    assert seen == [(["auth_group"], plain)]
    assert connection.ops.sql_flush(no_style(), ["auth_group"]) == plain


@pytest.mark.django_db
def test_a_flush_without_post_migrate_sends_no_signal_then_django_again() -> None:
    from django.core.management import call_command
    from django.db.models.signals import post_migrate

    sent: list[str] = []

    def seen(sender: Any, **kwargs: Any) -> None:
        sent.append(sender.label)

    def statements(*args: Any, **kwargs: Any) -> list[str]:
        return ["SELECT 'flushed'"]  # a flush that empties nothing: the signal alone is looked at

    post_migrate.connect(seen, dispatch_uid="contract.flush")
    try:
        with postgresql_flush_wrapped(statements):
            with flush_without_post_migrate():
                call_command("flush", interactive=False, verbosity=0)
            assert sent == []
            call_command("flush", interactive=False, verbosity=0)
        assert "auth" in sent  # Django's flush sends it again
    finally:
        post_migrate.disconnect(dispatch_uid="contract.flush")


def test_a_body_already_read_is_given_else_none() -> None:
    from django.test import RequestFactory

    request = RequestFactory().post("/", data=b"hand log", content_type="text/plain")
    assert body_already_read(request) is None
    assert request.body == b"hand log"
    assert body_already_read(request) == b"hand log"
    fresh = RequestFactory().post("/", data=b"hand log", content_type="text/plain")
    assert fresh.read(4) == b"hand" and body_already_read(fresh) is None  # read in pieces: not kept


@pytest.mark.django_db
def test_the_drivers_errors_are_raised_as_djangos() -> None:
    from django.db import IntegrityError

    Group.objects.create(name="contract twice")
    wrapper = connections["default"]
    with pytest.raises(IntegrityError), transaction.atomic():  # Django's error, not psycopg's
        with database_errors(wrapper), wrapper.connection.cursor() as cursor:
            cursor.execute("INSERT INTO auth_group (name) VALUES ('contract twice')")
