"""The book of roles (FR art. 68, 69; LU art. 10, 51, 54): the director gives and takes back the
roles, and writes a person's new name, by an act; the users' own pages no longer change either."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from casino_ops import roles
from casino_ops.acts import declaration

from .. import services
from ..books import book_fields
from ..models import RoleEntry, RoleEntryKind
from . import ActAdmin, ActForm
from .people import PersonChoice, people

#: The roles the casino's act gives: every one but the officer's (the authority's enrolment).
GRANTABLE = [(role, label) for role, label in roles.LABELS.items() if role != roles.OFFICER]


class RoleEntryForm(ActForm):
    declared = declaration(services.grant_role)
    kind = forms.ChoiceField(label=_("acte"), choices=RoleEntryKind.choices)
    person = PersonChoice(label=_("personne"), queryset=people())
    role = forms.ChoiceField(label=_("rôle"), choices=[("", "—"), *GRANTABLE], required=False)
    first_name = forms.CharField(label=_("nouveau prénom"), max_length=150, required=False)
    last_name = forms.CharField(label=_("nouveau nom"), max_length=150, required=False)
    reason = forms.CharField(label=_("motif"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))

    class Meta(ActForm.Meta):
        model = RoleEntry

    def act(self, actor: Any, data: dict[str, Any]) -> RoleEntry:
        kind, person, reason = data["kind"], data["person"], data["reason"]
        if kind == RoleEntryKind.NAME:
            return services.rename_person(
                actor=actor,
                person=person,
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
                reason=reason,
            )
        act = services.grant_role if kind == RoleEntryKind.GRANT else services.withdraw_role
        return act(actor=actor, person=person, role=data.get("role") or "", reason=reason)


@admin.register(RoleEntry)
class RoleEntryAdmin(ActAdmin):
    add_form = RoleEntryForm
    list_display = ("recorded_at", "kind", "person_name", "role", "reason", "recorded_by")
    list_filter = ("kind", "role")
    search_fields = ("person__username", "person__last_name", "person_name", "reason")
    detail_fields = book_fields(RoleEntry)


# -- The users' pages: accounts only, never roles or names ------------------------------------

User = get_user_model()
admin.site.unregister(Group)
admin.site.unregister(User)


class RoleFilter(admin.SimpleListFilter):
    """The users by role, each role by its name."""

    title = _("rôle")
    parameter_name = "role"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(role, label) for role, label in roles.LABELS.items()]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        return queryset.filter(groups__name=self.value()) if self.value() else queryset


@admin.register(User)
class AccountAdmin(UserAdmin):  # type: ignore[type-arg]
    """A user's account (password, e-mail, active): the server's administrator keeps it. The roles
    (groups), the rights, the superuser's flag and the names (the username once made) are not
    edited here: the roles and names by the director's act in the book of roles, the rest not at
    all."""

    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (_("Informations personnelles"), {"fields": ("first_name", "last_name", "email")}),
        (_("Compte"), {"fields": ("is_active", "is_staff", "last_login", "date_joined")}),
        (_("Rôles (livre des rôles)"), {"fields": ("roles_display",)}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "usable_password", "password1", "password2")}),
    )
    list_display = ("username", "first_name", "last_name", "roles_display", "is_active", "is_staff")
    list_filter = ("is_active", "is_staff", RoleFilter)
    filter_horizontal = ()

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("groups")

    @admin.display(description=_("rôles"))
    def roles_display(self, obj: Any) -> str:
        """Each role by its name (the group's code is the machine's, never shown)."""
        names = [str(roles.LABELS.get(group.name, group.name)) for group in obj.groups.all()]
        return ", ".join(sorted(names)) or "—"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = ["roles_display", "last_login", "date_joined"]
        if obj is not None:
            fixed += ["username", "first_name", "last_name"]
        return fixed
