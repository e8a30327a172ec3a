"""A new casino put in service from the documentation alone (docs/operations.md, "Putting a new
casino in service"), on a fresh database and without the demo: the first director made by the
command, his second factor enrolled at his first sign-in, the casino set, a table put on the
floor, a table chief added by his role's French name, and a séance opened: each step as the
page says, through the same doors (commands, the admin's pages)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django_otp.oath import TOTP

from tables.models import Session, SessionStatus, Table

DOC = Path(settings.BASE_DIR) / "docs" / "operations.md"


class _Form(HTMLParser):
    """The fields of a page's form with the values the page gives them (what a browser sends)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.values[name] = a.get("value", "on")
            else:
                self.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.values[self._textarea] += data


def _form(page: bytes) -> dict[str, str]:
    parser = _Form()
    parser.feed(page.decode())
    return parser.values


def _post_form(client: Client, url: str, **changes: str) -> Any:
    """GET the page, fill the fields as its form gives them, change ``changes``, POST."""
    values = _form(client.get(url).content)
    values.update(changes)
    return client.post(url, values)


@pytest.mark.django_db
def test_a_new_casino_is_put_in_service_from_the_docs(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.TWO_FACTOR_REQUIRED = True  # the production default
    doc = DOC.read_text(encoding="utf-8")
    assert "## Putting a new casino in service" in doc
    # 1. The first director, by the command (there is nobody yet to make him in the admin).
    command = 'add_staff jmarchal --role "Directeur responsable"'
    assert f"python manage.py {command}" in doc
    monkeypatch.setenv("NEW_PASSWORD", "Une-phrase-de-passe-longue-42")
    out = StringIO()
    call_command(
        "add_staff", "jmarchal", "--role", "Directeur responsable", "--first-name", "Jeanne",
        "--last-name", "Marchal", "--password-env", "NEW_PASSWORD", stdout=out,
    )  # fmt: skip
    assert "première connexion" in out.getvalue()
    director = get_user_model().objects.get(username="jmarchal")
    assert director.is_staff and director.groups.filter(name="directeur").exists()
    # 2. His first sign-in: the password, then his authentication app enrolled (the key shown).
    client = Client()
    signed = client.post(
        "/admin/login/?next=/admin/", {"username": "jmarchal", "password": "Une-phrase-de-passe-longue-42"}
    )
    assert signed.status_code == 302
    enrol = client.get("/inspection/verification/?next=/admin/")
    secret = re.search(r'<code class="secret">([A-Z2-7]+)</code>', enrol.content.decode())
    assert secret, enrol.content.decode()[:1500]
    import base64

    code = f"{TOTP(base64.b32decode(secret.group(1))).token():06d}"
    verified = client.post("/inspection/verification/?next=/admin/", {"code": code, "next": "/admin/"})
    assert verified.status_code == 302 and client.get("/admin/").status_code == 200
    # 3. The casino: its name, its regulation, the authorised minimum of its decree.
    assert "/admin/casino_ops/casinosettings/add/" in doc
    response = _post_form(
        client,
        "/admin/casino_ops/casinosettings/add/",
        name="Casino des Thermes",
        profile="FR",
        authorised_min_stake="5.00",
        authorisation_reference="Arrêté du 2 janvier 2026",
    )
    assert response.status_code == 302, html.unescape(response.content.decode())[-3000:]
    # 4. Its tables.
    assert "/admin/tables/table/add/" in doc
    response = client.post("/admin/tables/table/add/", {"number": "1", "code": "BJ01", "boxes": "7"})
    assert response.status_code == 302 and Table.objects.get().code == "BJ01"
    # 5. The staff, by their roles' French names.
    assert (
        'add_staff lbernard --role "Chef de table / croupier" --first-name Lucie --last-name Bernard --by jmarchal'
        in doc
    )
    call_command(
        "add_staff", "lbernard", "--role", "Chef de table / croupier", "--first-name", "Lucie",
        "--last-name", "Bernard", "--password-env", "NEW_PASSWORD", "--by", "jmarchal", stdout=StringIO(),
    )  # fmt: skip
    chief = get_user_model().objects.get(username="lbernard")
    assert chief.is_staff  # no "Statut équipe" box to tick: the command marks whoever works in the admin
    # 6. A séance opened: its limits and its initial advance (3,000 times the minimum, FR art. 49).
    assert "/admin/tables/session/add/" in doc
    response = _post_form(
        client,
        "/admin/tables/session/add/",
        table=str(Table.objects.get().pk),
        minimum="10.00",
        maximum="1000.00",
        advance_amount="30000.00",
        croupier=str(chief.pk),
    )
    assert response.status_code == 302, html.unescape(response.content.decode())[-3000:]
    session = Session.objects.get()
    assert (session.status, session.table.code, session.croupier) == (SessionStatus.OPEN, "BJ01", chief)
    # the table chief signs in with his password alone (no second factor for his role)
    chief_client = Client()
    assert (
        chief_client.post(
            "/admin/login/?next=/admin/",
            {"username": "lbernard", "password": "Une-phrase-de-passe-longue-42"},
        ).status_code
        == 302
    )
    assert chief_client.get("/admin/").status_code == 200
