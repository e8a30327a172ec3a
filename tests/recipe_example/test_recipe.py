"""The recipe of a new act, worked (docs/development.md): a cleaning of a shoe device under LU.

This app of the tests holds exactly the recipe's files (model, migration, rules, service with
its declaration, this test; no register: the book is not printed), and the project derives the
rest from the declaration: the API's endpoint, the admin's page and its "Ajouter" form, the
event's label, the refusal's row in the table, the act's row in the access table and in the
permission matrix. The act is then recorded, and refused, through the API and the admin."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import resolve, reverse

from audit.actions import DECLARED_ACTIONS, Action, every_action
from audit.books import book_for
from audit.models import AuditEvent
from casino_ops import access, clock, refusal_table, roles
from casino_ops.access import Act
from casino_ops.acts import REGISTRY
from casino_ops.admin_acts import DeclaredBookAdmin
from casino_ops.api import DeclaredActView
from casino_ops.refusals import DECLARED_REFUSALS, Refusal
from casino_ops.regulations import cite
from inspection.portal.labels import action_label
from tests.support.clients import signed_in
from tests.support.permission_matrix import ACT_TABLE, APIS, EXPECTATIONS, Api
from tests.support.refusals import assert_refused
from tests.support.walks import api_view_list

APP = Path(__file__).resolve().parent
#: The recipe's files, at most six: model, migration, rules, service and declaration, register
#: (none here: the book is not printed), test.
RECIPE = {
    "models.py",
    "migrations/0001_device_cleanings.py",
    "rules.py",
    "services.py",
    "test_recipe.py",
}
DECLARED = "tests.recipe_example.services.clean_device"
LU_ARTICLE = "LU art. 32, 40, 52"


def test_the_recipe_is_at_most_six_files() -> None:
    files = {
        path.relative_to(APP).as_posix()
        for path in APP.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    markers = {name for name in files if name.endswith("__init__.py")}
    assert markers == {"__init__.py", "migrations/__init__.py"}
    assert all((APP / name).stat().st_size == 0 for name in markers), "a package's marker holds nothing"
    assert files - markers == RECIPE
    assert len(RECIPE) <= 6


def test_the_act_its_event_and_its_refusal_are_declared_beside_it() -> None:
    declared = REGISTRY[DECLARED]
    [act] = declared.acts
    assert isinstance(act, Act) and act not in list(Act) and act in access.declared_acts()
    assert Act("recipe.clean_device") is act and act.name == "CLEAN_DEVICE"
    rule = access.rule_of(act)
    assert (rule.roles, rule.code, rule.rule) == ((roles.DIRECTOR,), "DEVICE_BY_DIRECTOR", "house.devices")
    [action] = declared.actions
    assert Action(action) is DECLARED_ACTIONS["DEVICE_CLEANED"] and Action(action) in every_action()
    assert Action(action) not in list(Action)
    refusal = DECLARED_REFUSALS["CLEANING_IN_FUTURE"]
    assert isinstance(refusal, Refusal) and refusal not in list(Refusal)
    assert declared.refusals == ("CLEANING_IN_FUTURE",) and refusal.field == "cleaned_on"
    assert book_for("recipe_example_devicecleaning") is not None  # declared on the model (@book)


def test_the_doors_are_derived_from_the_declaration() -> None:
    declared = REGISTRY[DECLARED]
    model = apps.get_model("recipe_example", "DeviceCleaning")
    # the API's endpoint, walked with the apps' (and so held by their tests)
    url = reverse("acts:clean-device")
    assert url == "/api/acts/device-cleanings/"
    view = resolve(url).func.view_class  # type: ignore[attr-defined]
    assert issubclass(view, DeclaredActView) and view.declared is declared
    assert ("acts:clean-device", view) in [(name, v) for name, v, _kw in api_view_list()]
    # the admin's page, its "Ajouter" a form of the schema's fields calling the service
    model_admin = admin.site.get_model_admin(model)
    assert isinstance(model_admin, DeclaredBookAdmin) and model_admin.add_form is not None
    assert model_admin.add_form.declared is declared and model_admin.add_acts == declared.acts
    assert list(model_admin.add_form.base_fields) == list(declared.schema().fields)
    assert reverse("admin:recipe_example_devicecleaning_add") == "/admin/recipe_example/devicecleaning/add/"
    # the event's label
    assert action_label("recipe.device_cleaned") == "Sabot nettoyé"
    # the refusal's row in the generated table, which the product's table leaves out
    row = ("CLEANING_IN_FUTURE", "règlement intérieur du casino", LU_ARTICLE, "tests.recipe_example.rules")
    assert row in [(r.code, r.fr, r.lu, r.module) for r in refusal_table.refusals(apps=("tests",))]
    assert "`CLEANING_IN_FUTURE`" in refusal_table.markdown(apps=("tests",))
    assert "CLEANING_IN_FUTURE" not in refusal_table.markdown()
    # the permission matrix: who may, from the access table's declared row
    assert ACT_TABLE[declared.acts[0]] == ("D", cite("house.devices", "FR"))
    assert EXPECTATIONS["acts:clean-device"] == Api("", acts=declared.acts)
    assert "acts:clean-device" in APIS


@pytest.fixture
def luxembourg(director: Any) -> Any:
    from house_books.services.casino import update_casino_settings

    return update_casino_settings(
        actor=director, name="Casino de test", profile="LU", authorised_min_stake=Decimal("5.00")
    )


@pytest.fixture
def device(luxembourg: Any, director: Any) -> Any:
    from house_books.services.devices import register_device

    return register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")


def _cleanings() -> int:
    return int(AuditEvent.objects.filter(action="recipe.device_cleaned").count())


@pytest.mark.django_db
def test_a_cleaning_recorded_and_refused_through_the_api(device: Any, director: Any, committee: Any) -> None:
    today = clock.gaming_date(clock.now())
    url = reverse("acts:clean-device")
    client = signed_in(director)
    answered = client.post(
        url, {"device": device.pk, "cleaned_on": today.isoformat()}, content_type="application/json"
    )
    assert answered.status_code == 201, answered.content
    cleaning = apps.get_model("recipe_example", "DeviceCleaning").objects.get(pk=answered.json()["id"])
    assert (cleaning.device, cleaning.cleaned_on, cleaning.recorded_by) == (device, today, director)
    assert _cleanings() == 1
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    refused = client.post(url, {"device": device.pk, "cleaned_on": tomorrow}, content_type="application/json")
    assert_refused("CLEANING_IN_FUTURE", article=LU_ARTICLE, field="cleaned_on", response=refused)
    assert _cleanings() == 1
    # who may not: the committee member, refused with the act's code and article (403)
    body = {"device": device.pk, "cleaned_on": today.isoformat()}
    assert_refused(
        "DEVICE_BY_DIRECTOR",
        article=LU_ARTICLE,
        field="actor",
        status=403,
        response=signed_in(committee).post(url, body, content_type="application/json"),
    )
    assert _cleanings() == 1


@pytest.mark.django_db
def test_a_cleaning_recorded_and_refused_through_the_admin(device: Any, director: Any) -> None:
    today = clock.gaming_date(clock.now())
    url = reverse("admin:recipe_example_devicecleaning_add")
    client = signed_in(director)
    assert client.get(url).status_code == 200
    done = client.post(url, {"device": device.pk, "cleaned_on": today.isoformat()})
    assert done.status_code == 302, done.content[:2000]
    assert _cleanings() == 1
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    assert_refused(
        "CLEANING_IN_FUTURE",
        article=LU_ARTICLE,
        field="cleaned_on",
        response=client.post(url, {"device": device.pk, "cleaned_on": tomorrow}),
    )
    assert _cleanings() == 1
