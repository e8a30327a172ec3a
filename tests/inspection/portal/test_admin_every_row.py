"""Every admin page renders every kind of row the acts create.

Both demos' rows (FR and LU: between them every book of either profile, written by the acts),
and for each model the project registers in the admin: its list, and the change page of one row
of each kind. A kind is a value of one of its choice or yes/no fields (an incident of each route,
a deck in each state, a séance in each status…) and, for each field that may be empty, a row
where it is empty and one where it is not (an incident with no reporter, as the hand-log replay
opens it, was the page that failed). Each page answers 200 to a superuser signed in with his
second factor (he sees every page; he holds no act, which reading needs not).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.db import models
from django.test import RequestFactory
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops.django_internals import registered_admins
from tests.support.clients import signed_in

ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")


def _kinds(rows: models.QuerySet[Any]) -> set[Any]:
    """One row's key for each kind of row ``rows`` hold (see the module's docstring)."""
    model = rows.model
    rows = rows.order_by("pk")
    keys = {rows.values_list("pk", flat=True).first(), rows.values_list("pk", flat=True).last()}
    for field in model._meta.concrete_fields:
        if field.choices or isinstance(field, models.BooleanField):
            for value in rows.values_list(field.attname, flat=True).distinct().order_by():
                keys.add(rows.filter(**{field.attname: value}).values_list("pk", flat=True).first())
        if field.null:
            for empty in (True, False):
                keys.add(
                    rows.filter(**{f"{field.attname}__isnull": empty}).values_list("pk", flat=True).first()
                )
    keys.discard(None)
    return keys


@pytest.mark.django_db
@pytest.mark.parametrize("profile", ["FR", "LU"])
def test_every_admin_page_renders_every_kind_of_row(
    profile: str, request: pytest.FixtureRequest, settings: Any
) -> None:
    request.getfixturevalue("demo" if profile == "FR" else "lu_demo")
    settings.DEBUG = True  # a superuser made on a database in service: recorded (refused otherwise)
    reader = User.objects.create_superuser("lecteur-admin", password="pw-lecteur")
    settings.DEBUG = False  # the pages are read as in service
    client = signed_in(reader, TOTPDevice.objects.create(user=reader, name="app", confirmed=True))
    failed, read, models_with_rows = [], 0, 0
    asked = RequestFactory().get("/admin/")
    asked.user = reader
    for model, model_admin in registered_admins(admin.site).items():
        meta = model._meta
        if meta.app_label not in ADMIN_APPS:
            continue
        base = f"/admin/{meta.app_label}/{meta.model_name}/"
        pages = [base]
        kinds = _kinds(model_admin.get_queryset(asked))  # the rows its admin shows (a book's own)
        models_with_rows += bool(kinds)
        pages += [f"{base}{pk}/change/" for pk in sorted(kinds, key=str)]
        for page in pages:
            answer = client.get(page)
            read += 1
            if answer.status_code != 200:
                failed.append(f"{page}: HTTP {answer.status_code}")
    assert not failed, "\n".join(failed)
    # the demos write most books: a demo that wrote nothing would make this test say nothing
    # (FR: 33 models with rows, 140 pages; LU: 42 and 159, when this was written)
    least_models, least_pages = {"FR": (30, 120), "LU": (38, 140)}[profile]
    assert models_with_rows >= least_models and read >= least_pages, (models_with_rows, read)
