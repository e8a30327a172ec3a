"""The admin writes its amounts as the registers do: "30 000,00" in French (the narrow
no-break space of the printed registers), "30,000.00" in English, in the lists' columns, on
the read-only pages and in their inlines; every admin of the project shows its amounts so."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib import admin
from django.urls import reverse

from casino_ops import roles
from casino_ops.admin_display import is_amount
from casino_ops.django_internals import registered_admins

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"
SHOWN = {"fr": f"30{NNBSP}000,00", "en": "30,000.00"}
UNGROUPED = {"fr": "30000,00", "en": "30000.00"}


def _page(client: Any, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Language"] == language
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_advances_list_writes_its_amounts_grouped(client, staff, open_session, language):
    client.force_login(staff["director"])
    page = _page(client, reverse("admin:tables_advanceentry_changelist"), language)
    assert SHOWN[language] in page
    assert UNGROUPED[language] not in page
    # the column keeps its name and its ordering by the amount
    assert 'class="field-amount"' in page and "o=4" in page


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_sessions_list_and_page_write_their_amounts_grouped(client, staff, open_session, language):
    client.force_login(staff["director"])
    listed = _page(client, reverse("admin:tables_session_changelist"), language)
    assert SHOWN[language] in listed and UNGROUPED[language] not in listed
    # the page of the séance: its advance, and the advance book's line in the inline
    page = _page(client, reverse("admin:tables_session_change", args=[open_session.pk]), language)
    assert page.count(SHOWN[language]) >= 2, "the séance's advance and its line in the advance book"
    assert UNGROUPED[language] not in page
    assert "column-amount" in page  # the inline's column is named by its field, as before


def _registered() -> list[tuple[Any, Any]]:
    return [
        (model, model_admin)
        for model, model_admin in registered_admins(admin.site).items()
        if model._meta.app_label
        in ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
    ]


def _raw_amounts(model: Any, names: Any) -> list[str]:
    found = []
    for name in names:
        if isinstance(name, (list, tuple)):
            found += _raw_amounts(model, name)
            continue
        if not isinstance(name, str):
            continue
        try:
            field = model._meta.get_field(name)
        except Exception:  # a method's name: not a field
            continue
        if is_amount(field):
            found.append(name)
    return found


def test_no_admin_shows_an_amount_as_django_writes_a_decimal(rf, users, casino):
    """Every list column and read-only field that is an amount goes through the one helper
    (casino_ops.admin_display.amount_column), on every page and inline of the project."""
    request = rf.get("/admin/")
    request.user = users[roles.DIRECTOR]
    raw = []
    for model, model_admin in _registered():
        admins = [(model, model_admin)] + [
            (inline.model, inline(model, admin.site)) for inline in model_admin.inlines
        ]
        for owner, shown in admins:
            if hasattr(shown, "get_list_display"):
                raw += [
                    f"{owner.__name__} list: {n}"
                    for n in _raw_amounts(owner, shown.get_list_display(request))
                ]
            readonly = shown.get_readonly_fields(request, owner())
            raw += [f"{owner.__name__} page: {n}" for n in _raw_amounts(owner, readonly)]
    assert raw == []
