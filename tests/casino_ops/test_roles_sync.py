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
