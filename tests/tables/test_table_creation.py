"""A table is put on the floor by the director or a committee member from any of the three
doors: the admin's "Ajouter", the API and a command, each through ``create_table`` (its
refusals on their field, with the article)."""

from __future__ import annotations

import html
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from audit.models import AuditEvent
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_the_admin_adds_a_table(casino: Any, staff: dict[str, Any]) -> None:
    client = Client()
    client.force_login(staff["director"])
    listing = client.get("/admin/tables/table/").content.decode()
    assert "/admin/tables/table/add/" in listing  # "Ajouter" is offered to the director
    response = client.post("/admin/tables/table/add/", {"number": "5", "code": "BJ05", "boxes": "7"})
    assert response.status_code == 302, html.unescape(response.content.decode())[:2000]
    table = Table.objects.get(number=5)
    assert (table.code, table.boxes, table.in_service) == ("BJ05", 7, True)
    assert AuditEvent.objects.filter(action="table.created", object_id=str(table.pk)).exists()
    # a number taken is refused on its field, nothing more is recorded
    again = client.post("/admin/tables/table/add/", {"number": "5", "code": "BJ55", "boxes": "7"})
    assert again.status_code == 200 and "La table n° 5 existe déjà" in html.unescape(again.content.decode())
    assert Table.objects.count() == 1
    # the table chief may not put a table on the floor: no "Ajouter"
    chief = Client()
    chief.force_login(staff["croupier"])
    assert chief.get("/admin/tables/table/add/").status_code == 403


def test_the_api_creates_a_table_and_lists_them(casino: Any, staff: dict[str, Any]) -> None:
    client = Client()
    client.force_login(staff["director"])
    created = client.post(
        "/api/tables/tables/", {"number": 6, "code": "BJ06"}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    assert created.json() == {
        "id": Table.objects.get(number=6).pk,
        "number": 6,
        "code": "BJ06",
        "boxes": 7,
        "in_service": True,
    }
    listed = client.get("/api/tables/tables/").json()
    assert [t["code"] for t in listed] == ["BJ06"]
    bad = client.post(
        "/api/tables/tables/", {"number": 7, "code": "BJ07", "boxes": 9}, content_type="application/json"
    )
    assert bad.status_code == 400 and bad.json()["field"] == "boxes" and bad.json()["article"]
    chief = Client()
    chief.force_login(staff["croupier"])
    refused = chief.post(
        "/api/tables/tables/", {"number": 8, "code": "BJ08"}, content_type="application/json"
    )
    assert refused.status_code == 403 and refused.json()["field"] == "actor"
    assert not Table.objects.filter(number__in=[7, 8]).exists()


def test_the_command_creates_a_table(casino: Any, staff: dict[str, Any]) -> None:
    out = StringIO()
    call_command(
        "create_table",
        "--number",
        "4",
        "--code",
        "BJ04",
        "--boxes",
        "6",
        "--user",
        staff["director"].username,
        stdout=out,
    )
    table = Table.objects.get(number=4)
    assert table.boxes == 6 and "BJ04" in out.getvalue()
    with pytest.raises(CommandError) as refused:
        call_command("create_table", "--number", "4", "--code", "BJ44", "--user", staff["director"].username)
    assert "TABLE_NUMBER_TAKEN" in str(refused.value)
    with pytest.raises(CommandError) as refused:
        call_command("create_table", "--number", "9", "--code", "BJ09", "--user", staff["croupier"].username)
    assert "ROLE_REQUIRED" in str(refused.value) or "MANAGEMENT_REQUIRED" in str(refused.value)
