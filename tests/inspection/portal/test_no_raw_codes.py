"""Raw codes, JSON and database ids never reach a director or an officer:
every admin page (each registered model's list and the change page of its first entry, the
acts' pages) and every portal page, read as the browser shows them, without the code captions
(where a code is given under its words on purpose), must not show an object as
``app.model:pk``, a JSON object, a refusal or discrepancy code in capitals, an act's code of the
record (``cards.deck_issued``), a role's code (``chef_de_table``) or a bare id (``#123``,
``pk=12``). Each is said in words, with a link to the object."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from audit.actions import Action
from casino_ops import roles
from tests.support.browser import admin_acts_pages, every_admin_page, portal_pages
from tests.support.pages import visible_text
from tests.support.samples import module_casino, module_clients, module_devices, module_samples, module_users  # noqa: F401 - made once for the module

ADMIN_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
# The role codes that are no French word of their own ("directeur", "caissier", "officier" are).
ROLE_CODES = [role for role in roles.ALL_ROLES if "_" in role]
RAW = {
    "object code": re.compile(r"\b[a-z_]+\.[a-z_]+:\d+\b"),
    "JSON": re.compile(r"\{\"|\[\{"),
    "code in capitals": re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"),
    "act code": re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(a.value) for a in Action) + r")(?![\w])"),
    "role code": re.compile(r"\b(?:" + "|".join(ROLE_CODES) + r")\b"),
    "bare id": re.compile(r"(?<![\w&])#\d+\b|\bpk=\d+|\bid=\d+"),
}


def raw_codes(page: str) -> list[str]:
    text = visible_text(page)
    found = []
    for what, pattern in RAW.items():
        for match in pattern.finditer(text):
            start = max(match.start() - 40, 0)
            found.append(f"{what} {match.group(0)!r} in …{text[start : match.end() + 40]}…")
    return found


def admin_pages(samples: Any, apps: tuple[str, ...]) -> dict[str, str]:
    """Every registered model's list and its first entry's page, with the acts' pages."""
    return {**dict(admin_acts_pages(samples)), **every_admin_page(apps)}


def test_the_patterns_catch_what_they_name() -> None:
    assert raw_codes("<p>cards_registry.deck:12</p>")
    assert raw_codes('<p>{"serial": "A1"}</p>')
    assert raw_codes("<p>DECK_NOT_IN_CABINET</p>")
    assert raw_codes(f"<p>{Action.DEPOT_ORDER_CREATED.value}</p>")
    assert raw_codes("<td>chef_de_table</td>")
    assert raw_codes("<td>#123</td>")
    assert not raw_codes('<p>Règlement faux <span class="code-caption">SETTLEMENT_MISMATCH</span></p>')
    assert not raw_codes("<p>Jeu A1-1, incident n° 3 (u_chef_de_table)</p>")


@pytest.mark.django_db
def test_no_admin_page_shows_a_raw_code(samples, clients) -> None:
    from tables.models import ControlDay

    ControlDay.objects.get_or_create(day=samples.session.day)  # the day's page, its closing rules
    client = clients[roles.DIRECTOR]
    problems = []
    for language in ("fr", "en"):
        for name, url in admin_pages(samples, ADMIN_APPS).items():
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (name, url, response.status_code)
            problems += [
                f"{language} {name} ({url}): {found}" for found in raw_codes(response.content.decode())
            ]
        # the decks' actions, each on its page of its own
        for action in ("issue", "check_at_table", "return_fit", "destroy"):
            response = client.post(
                reverse("admin:cards_registry_deck_changelist"),
                {"action": action, "_selected_action": [samples.deck.pk]},
                HTTP_ACCEPT_LANGUAGE=language,
            )
            assert response.status_code == 200, action
            problems += [
                f"{language} deck action {action}: {found}" for found in raw_codes(response.content.decode())
            ]
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_the_accounts_pages_name_the_roles_in_words(samples, settings) -> None:
    """The server's administrator reads the users' accounts: their roles by their names."""
    settings.DEBUG = True  # a superuser made on a database in service: recorded (refused otherwise)
    settings.TWO_FACTOR_REQUIRED = False
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.create_superuser("u_admin", password="pw-admin-1234"))
    croupier = samples.users[roles.CROUPIER]
    problems = []
    for url in (
        reverse("admin:auth_user_changelist"),
        reverse("admin:auth_user_changelist") + f"?role={roles.CROUPIER}",
        reverse("admin:auth_user_change", args=[croupier.pk]),
    ):
        page = client.get(url).content.decode()

        problems += [f"{url}: {found}" for found in raw_codes(page)]
        assert str(roles.LABELS[roles.CROUPIER]) in page, url
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_no_portal_page_shows_a_raw_code(samples, clients) -> None:
    client = clients[roles.OFFICER]
    problems = []
    for language in ("fr", "en"):
        for name, url in portal_pages(samples):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (name, url, response.status_code)
            problems += [
                f"{language} {name} ({url}): {found}" for found in raw_codes(response.content.decode())
            ]
    assert not problems, "\n".join(problems)
