"""The roles' groups are made once per migrate, after every app's permissions exist."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.core.management.sql import emit_post_migrate_signal

from casino_ops import roles

pytestmark = pytest.mark.django_db


def test_the_roles_are_synchronised_once_per_migrate_with_every_permission() -> None:
    Group.objects.filter(name=roles.OFFICER).delete()
    with mock.patch("casino_ops.roles.sync_role_permissions", wraps=roles.sync_role_permissions) as sync:
        emit_post_migrate_signal(0, False, "default")
    assert sync.call_count == 1
    officer = Group.objects.get(name=roles.OFFICER)
    held = {
        f"{p.content_type.app_label}.{p.codename}" for p in officer.permissions.select_related("content_type")
    }
    assert held == set(roles.ROLE_PERMISSIONS[roles.OFFICER])


def test_the_roles_rows_are_written_in_one_order_whatever_the_hash_seed() -> None:
    """The roles' groups in the order of the roles, each group's permissions by key: a database
    migrated by one process holds the same rows, keys included, as one migrated by another
    (a set's order changes with the interpreter's hash seed)."""
    Group.objects.all().delete()
    roles.sync_role_permissions()
    through = Group.permissions.through
    rows = list(through.objects.order_by("pk").values_list("group__name", "permission_id"))
    expected = [
        (group.name, pk)
        for group in Group.objects.order_by("pk")
        for pk in sorted(group.permissions.values_list("pk", flat=True))
    ]
    assert [group.name for group in Group.objects.order_by("pk")] == list(roles.ALL_ROLES)
    assert rows == expected
