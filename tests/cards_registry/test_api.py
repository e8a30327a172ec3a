"""The depot's API for its new acts: the same services, decks named by serial or sixain,
refusals as ``{code, message, field, article}``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, DeckStatus, Incident, IncidentRoute
from tests.support.builders import PEOPLE_AND_RECORD_CHECKS, gaming_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def test_report_an_incident_by_serial_and_a_refusal_as_json(
    api: Client, officer: Any, decks: list[Deck]
) -> None:
    now = timezone.now()
    body = {
        "kind": "marked",
        "occurred_at": (now - timezone.timedelta(minutes=2)).isoformat(),
        "day": str(gaming_day()),
        "decks": ["A1-1"],
        "officer_informed": officer.get_username(),
        "officer_informed_at": now.isoformat(),
        "circumstances": "Corne au dos",
    }
    response = api.post("/api/depot/incidents/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["decks"] == ["A1-1"]
    assert Deck.objects.get(serial="A1-1").status == DeckStatus.QUARANTINED
    refused = api.post(
        "/api/depot/incidents/",
        {**body, "decks": ["A1-2"], "officer_informed": ""},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "OFFICER_NOT_TOLD",
        "message": refused.json()["message"],
        "field": "officer_informed",
        "article": "FR art. 40",
    }
    unknown = api.post("/api/depot/incidents/", {**body, "decks": ["NOPE"]}, content_type="application/json")
    assert (unknown.status_code, unknown.json()["code"], unknown.json()["field"]) == (
        400,
        "DECK_UNKNOWN",
        "decks",
    )


def test_a_return_counted_through_the_api_opens_the_incident(
    api: Client, director: Any, decks: list[Deck]
) -> None:
    today = str(gaming_day())
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:2])
    assert [d["serial"] for d in api.get(f"/api/depot/returns/?table=1&day={today}").json()] == [
        "A1-1",
        "A1-2",
    ]
    response = api.post(
        "/api/depot/returns/",
        {
            "table_number": 1,
            "day": today,
            "results": [
                {"deck": "A1-1", "result": "fit", "cards_counted": 51},
                {"deck": "GRIM:A1-2", "result": "fit", "cards_counted": 52},
            ],
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["incidents"] == [1]
    assert Incident.objects.get().route == IncidentRoute.RETURN
    assert api.get("/api/depot/returns/").json() == []


def test_declare_a_sixain_out_of_use(api: Client, decks: list[Deck], key: Any) -> None:
    response = api.post(
        "/api/depot/out-of-use/",
        {"sixains": ["SA2"], "reason": "Dos décolorés"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert sorted(response.json()["decks"]) == [f"A2-{i}" for i in range(1, 7)]
    assert len(api.get("/api/depot/out-of-use/").json()) == 6
    bad = api.post(
        "/api/depot/out-of-use/", {"sixains": ["SA2"], "reason": ""}, content_type="application/json"
    )
    assert (bad.status_code, bad.json()["field"], bad.json()["article"]) == (400, "reason", "FR art. 39")


def test_the_inspection_through_the_api(api: Client, decks: list[Deck]) -> None:
    body = api.get("/api/depot/inspection/").json()
    kept = [b for b in body["breaches"] if not str(b["check"]).startswith(PEOPLE_AND_RECORD_CHECKS)]
    assert kept == [] and "depot.decks_out" in body["checks"]


@pytest.mark.parametrize(
    ("url", "body", "code", "field", "article"),
    [
        ("/api/depot/incidents/", {"day": "2026-11-30"}, "FIELD_REQUIRED", "kind", "FR art. 40"),
        (
            "/api/depot/incidents/",
            {"kind": "marked", "occurred_at": "2026-11-30T21:00:00+01:00", "day": "30/11/2026"},
            "FIELD_INVALID",
            "day",
            "FR art. 40",
        ),
        (
            "/api/depot/returns/",
            {"table_number": "un", "day": "2026-11-30"},
            "FIELD_INVALID",
            "table_number",
            "FR art. 40",
        ),
        (
            "/api/depot/returns/",
            {"table_number": 1, "day": "2026-11-30", "results": []},
            "FIELD_REQUIRED",
            "results",
            "FR art. 40",
        ),
        (
            "/api/depot/returns/",
            {
                "table_number": 1,
                "day": "2026-11-30",
                "results": [{"deck": "A1-1", "cards_counted": "52 cartes"}],
            },
            "FIELD_INVALID",
            "results",
            "FR art. 40",
        ),
        (
            "/api/depot/out-of-use/",
            {"decks": "A1-1", "reason": "Usé"},
            "FIELD_INVALID",
            "decks",
            "FR art. 39",
        ),
        # naive moments at the ends of the calendar: no time zone can hold them (was a 500)
        *(
            (
                "/api/depot/incidents/",
                {"kind": "marked", "occurred_at": moment, "day": "2026-11-30", "decks": ["A1-1"]},
                "FIELD_INVALID",
                "occurred_at",
                "FR art. 40",
            )
            for moment in ("0001-01-01T00:00:00", "0001-01-01T00:30", "9999-12-31T23:59:59")
        ),
    ],
)
def test_a_bad_input_is_refused_naming_its_field_and_article(
    api: Client, decks: list[Deck], url: str, body: dict[str, Any], code: str, field: str, article: str
) -> None:
    response = api.post(url, body, content_type="application/json")
    assert response.status_code == 400, response.content
    refusal = response.json()
    assert (refusal["code"], refusal["field"], refusal["article"]) == (code, field, article), refusal
    assert not Incident.objects.exists() and Deck.objects.filter(status=DeckStatus.OUT_OF_USE).count() == 0


def test_a_bad_query_is_refused_naming_its_field(api: Client) -> None:
    response = api.get("/api/depot/returns/?day=hier")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("FIELD_INVALID", "day")


def test_a_role_without_the_depots_act_is_refused_with_its_article(croupier: Any, decks: list[Deck]) -> None:
    client = Client()
    client.force_login(croupier)
    response = client.post(
        "/api/depot/out-of-use/", {"decks": ["A1-1"], "reason": "Usé"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert (response.json()["code"], response.json()["field"], response.json()["article"]) == (
        "ROLE_REQUIRED",
        "actor",
        "FR art. 39",
    )
    assert client.get("/api/depot/out-of-use/").status_code == 200  # he reads the decks
    assert Deck.objects.filter(status=DeckStatus.OUT_OF_USE).count() == 0
