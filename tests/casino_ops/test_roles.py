import pytest
from django.contrib.auth.models import Group, Permission

from casino_ops import roles


@pytest.mark.django_db
@pytest.mark.parametrize("role", roles.ALL_ROLES)
def test_each_role_has_exactly_its_permissions(role):
    group = Group.objects.get(name=role)
    held = {
        f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")
    }
    assert held == roles.ROLE_PERMISSIONS[role]


@pytest.mark.django_db
def test_every_listed_permission_exists():
    existing = {
        f"{p.content_type.app_label}.{p.codename}" for p in Permission.objects.select_related("content_type")
    }
    for role, perms in roles.ROLE_PERMISSIONS.items():
        assert perms <= existing, (role, perms - existing)


@pytest.mark.django_db
def test_only_the_director_may_change_the_casino_settings(users, casino):
    """No role holds the model's change permission: the admin asks casino_ops.access."""
    from django.contrib import admin
    from django.test import RequestFactory

    from casino_ops.models import CasinoSettings

    settings_admin = admin.site.get_model_admin(CasinoSettings)
    for role, user in users.items():
        assert not user.has_perm("casino_ops.change_casinosettings")
        request = RequestFactory().get("/admin/")
        request.user = user
        assert settings_admin.has_change_permission(request, casino) == (role == roles.DIRECTOR)


@pytest.mark.django_db
def test_officers_read_but_do_not_change(users):
    officer = users[roles.OFFICER]
    assert officer.has_perm("audit.view_auditevent")
    changing = [
        p for p in roles.ROLE_PERMISSIONS[roles.OFFICER] if ".change_" in p or ".delete_" in p or ".add_" in p
    ]
    assert changing == [] or all("visa" in p or "incident" in p for p in changing)
