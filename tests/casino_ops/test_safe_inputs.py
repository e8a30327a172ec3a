"""Every form and every API input goes through the project's safe validation (casino_ops.forms,
casino_ops.validation): no control character, digits 0-9 only in a number or a date, dates in
the casino's window, texts no longer than their column."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest
from django import forms
from django.contrib import admin
from rest_framework import serializers

from casino_ops.django_internals import registered_admins
from casino_ops.forms import SafeFormMixin
from casino_ops.validation import SafeSerializerMixin
from tables.admin.act_forms import AuthorisedMinimumForm, DelegationForm
from tables.models import AuthorisedMinimum, Delegation

PROJECT_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
SKIPPED = (".migrations", ".management", ".settings", ".wsgi", ".celery")


def _import_everything() -> None:
    for app in PROJECT_APPS:
        package = importlib.import_module(app)
        for module in pkgutil.walk_packages(package.__path__, f"{app}."):
            if not any(part in module.name for part in SKIPPED):
                importlib.import_module(module.name)


def _subclasses(base: type) -> set[type]:
    found: set[type] = set()
    for sub in base.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return {c for c in found if c.__module__.split(".")[0] in PROJECT_APPS}


def test_every_form_of_the_project_is_safe():
    _import_everything()
    unsafe = sorted(
        f"{c.__module__}.{c.__qualname__}"
        for c in _subclasses(forms.BaseForm)
        if not issubclass(c, SafeFormMixin)
    )
    assert unsafe == [], f"forms without SafeFormMixin: {unsafe}"


def test_every_admin_that_takes_input_uses_a_safe_form(rf, users):
    from casino_ops import roles

    request = rf.get("/admin/")
    request.user = users[roles.DIRECTOR]
    unsafe = []
    for model, model_admin in registered_admins(admin.site).items():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        for change, allowed in (
            (False, model_admin.has_add_permission(request)),
            (True, model_admin.has_change_permission(request)),
        ):
            if not allowed:
                continue
            # an admin whose "Ajouter" page runs its own act form names it ``act_form``
            form = (not change and getattr(model_admin, "act_form", None)) or model_admin.get_form(
                request, None, change=change
            )
            if form.base_fields and not issubclass(form, SafeFormMixin):
                unsafe.append(f"{type(model_admin).__name__} ({'change' if change else 'add'})")
    assert unsafe == []


def test_every_serializer_that_takes_input_is_safe():
    _import_everything()
    unsafe = []
    for cls in _subclasses(serializers.BaseSerializer):
        if issubclass(cls, SafeSerializerMixin) or cls.__module__.startswith("casino_ops.validation"):
            continue
        try:
            fields = cls().fields
        except Exception:  # a serializer that needs its context: judged by its class alone
            fields = {"?": serializers.CharField()}
        if any(not f.read_only for f in fields.values()):
            unsafe.append(f"{cls.__module__}.{cls.__qualname__}")
    assert sorted(unsafe) == [], f"serializers with input fields but no SafeSerializerMixin: {unsafe}"


MINIMUM = {
    "minimum": "12",
    "decree_reference": "Arrêté du 20/11/2026",
    "decree_date": "2026-11-20",
    "in_force_on": "2026-11-25",
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field,value",
    [
        ("minimum", "١٢"),
        ("minimum", "１２"),
        ("decree_date", "0001-01-01"),
        ("in_force_on", "9999-12-31"),
        ("decree_reference", "a\x00b"),
    ],
)
def test_the_authorised_minimum_refuses_absurd_input_in_the_form_and_the_api(
    client, users, casino, field, value
):
    from casino_ops import roles

    form = AuthorisedMinimumForm(data={**MINIMUM, field: value})
    assert not form.is_valid() and field in form.errors
    client.force_login(users[roles.DIRECTOR])
    response = client.post(
        "/api/tables/authorised-minimums/", {**MINIMUM, field: value}, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not AuthorisedMinimum.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field,value",
    [
        ("approved_on", "0001-01-01"),
        ("valid_from", "9999-12-31"),
        ("valid_until", "٢٠٢٦-١٢-٠١"),
        ("approval_reference", "x\x07"),
    ],
)
def test_the_delegation_refuses_absurd_input_in_the_form_and_the_api(client, users, casino, field, value):
    from casino_ops import roles

    committee = users[roles.COMMITTEE]
    data: dict[str, Any] = {
        "approval_reference": "Agrément MJ 2026-14",
        "approved_on": "2026-11-20",
        "valid_from": "2026-11-20",
        field: value,
    }
    form = DelegationForm(data={**data, "delegate": committee.pk})
    assert not form.is_valid() and field in form.errors
    client.force_login(users[roles.DIRECTOR])
    response = client.post(
        "/api/tables/delegations/", {**data, "delegate": committee.username}, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not Delegation.objects.exists()
