"""One gate: the roles hold the models' view permissions only (reads), and every write of the
admin (add, change, delete) asks casino_ops.access for the act the page performs, never a
model permission."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission, User
from django.test import RequestFactory

from casino_ops import roles
from casino_ops.django_internals import registered_admins

APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")


def _writes(perms: set[str]) -> list[str]:
    return sorted(p for p in perms if not p.split(".", 1)[1].startswith("view_"))


def test_roles_hold_view_permissions_only() -> None:
    for role, perms in roles.ROLE_PERMISSIONS.items():
        assert _writes(perms) == [], role


@pytest.mark.django_db
def test_the_role_groups_hold_view_permissions_only() -> None:
    held = Permission.objects.filter(group__name__in=roles.ALL_ROLES).exclude(codename__startswith="view_")
    assert sorted(held.values_list("codename", flat=True)) == []


def _admins() -> list[tuple[Any, Any]]:
    return [(m, a) for m, a in registered_admins(admin.site).items() if m._meta.app_label in APPS]


def _request(user: Any) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


@pytest.mark.django_db
def test_model_permissions_open_no_write_in_the_admin(casino: Any) -> None:
    """A staff account holding every add, change and delete permission of the project's models,
    but no role, may add, change or delete nothing in the admin."""
    user = User.objects.create_user("tous_droits", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=APPS))
    request = _request(user)
    for model, model_admin in _admins():
        name = model._meta.label
        assert not model_admin.has_add_permission(request), name
        assert not model_admin.has_change_permission(request), name
        assert not model_admin.has_delete_permission(request), name


@pytest.mark.django_db
def test_the_admin_asks_access_for_the_act_not_the_group(users: dict[str, Any], casino: Any) -> None:
    """The director's group stripped of every model permission: the acts of his role are still
    offered (access decides them), the reads are not."""
    from casino_ops.models import CasinoSettings
    from inspection.models import Report
    from tables.models import Session

    director = users[roles.DIRECTOR]
    for group in director.groups.all():
        group.permissions.clear()
    director = User.objects.get(pk=director.pk)  # no cached permissions
    request = _request(director)
    assert admin.site.get_model_admin(Session).has_add_permission(request)
    assert admin.site.get_model_admin(Report).has_add_permission(request)
    assert admin.site.get_model_admin(CasinoSettings).has_change_permission(request, casino)
    assert not admin.site.get_model_admin(Session).has_view_permission(request)
