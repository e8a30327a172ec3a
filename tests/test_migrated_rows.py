"""After a transactional test, the next test finds the rows migrate left (content types,
permissions, the roles' groups) under their keys, and the demo seeded on them still loads
without being seeded again. The tests of this file run in order, on one worker (pytest-django
runs the transactional tests after the others: those that follow the change are transactional
too, to come after it)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from casino_ops import roles
from conftest import MIGRATED, _migrated


def _differences() -> dict[str, int]:
    """Per table migrate left rows in: how many rows differ from those it left."""
    found = {}
    with connection.cursor() as cursor:
        for table in _migrated:
            cursor.execute(
                f'SELECT count(*) FROM ((TABLE "{table}" EXCEPT TABLE {MIGRATED}."{table}")'
                f' UNION ALL (TABLE {MIGRATED}."{table}" EXCEPT TABLE "{table}")) AS d'
            )
            found[table] = cursor.fetchone()[0]
    return found


@pytest.mark.django_db
def test_migrate_left_the_content_types_permissions_and_roles() -> None:
    assert {"django_content_type", "auth_permission", "auth_group", "auth_group_permissions"} <= set(
        _migrated
    )
    assert set(_differences().values()) == {0}


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_changes_them_and_commits(demo) -> None:
    Group.objects.filter(name=roles.OFFICER).delete()
    ContentType.objects.create(app_label="ailleurs", model="autre")
    assert any(_differences().values())


@pytest.mark.django_db(transaction=True)
def test_the_next_test_finds_them_as_migrate_left_them_keys_included() -> None:
    assert set(_differences().values()) == {0}
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence('auth_permission', 'id')")
        cursor.execute(f"SELECT last_value FROM {cursor.fetchone()[0]}")
        (value,) = cursor.fetchone()
        cursor.execute(f'SELECT max(id) FROM {MIGRATED}."auth_permission"')
        assert value == cursor.fetchone()[0]  # the next permission takes the key it would have
    assert not ContentType.objects.filter(app_label="ailleurs").exists()


@pytest.mark.django_db(transaction=True)
def test_the_demo_seeded_before_the_flush_loads_without_being_seeded_again() -> None:
    from tests.support import demo_rows

    seeded = demo_rows._seeded["FR"]
    assert demo_rows.current(seeded)
    assert demo_rows.loaded("FR") is seeded
