"""Every page that shows an incident, with an incident from each route that opens one (FR art. 40,
LU art. 7): reported, found at a return, at a destruction, by the replay of a hand log (no
reporter), at the inventory of an opening the officer demanded, and at a check at the table.
Each page answers in French and in English, the officer's and the director's alike."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, Incident, IncidentRoute
from casino_ops.regulations import RegulationError
from tests.support.builders import gaming_day
from tests.support.depot_helpers import issue_and_check

pytestmark = pytest.mark.django_db


def _incident_of_each_route(director: Any, officer: Any, croupier: Any, decks: list[Deck]) -> None:
    day = gaming_day()
    services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=timezone.now(),
        day=day,
        decks=[decks[0]],
        officer_informed=officer,
        officer_informed_at=timezone.now(),
        circumstances="Carte marquée au dos.",
        table_number=1,
    )
    issue_and_check(director=director, croupier=croupier, table_number=1, day=day, decks=decks[1:3])
    services.return_decks(actor=director, table_number=1, day=day, results=[(decks[1], "fit", "", 51)])
    services.return_decks(actor=director, table_number=1, day=day, results=[(decks[2], "worn", "", 52)])
    services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[{"deck": decks[2], "complete": False, "unmarked": True, "remark": "51 cartes"}],
    )
    services.report_incident_from_replay(
        code="INVALID_CARD",
        table_number=2,
        day=day,
        shoe_reference="S-7",
        decks=[decks[3]],
        detail="carte étrangère au sabot",
    )
    demand = services.demand_opening(actor=officer, reason="Contrôle inopiné")
    opening = services.open_for_inspection(actor=director, demand=demand)
    in_cabinet = Deck.objects.filter(status="in_cabinet").order_by("serial")
    found = [d.serial for d in in_cabinet if d.pk != decks[4].pk]
    services.record_inventory(actor=director, opening=opening, found=found)
    issue_and_check(
        director=director, croupier=croupier, table_number=3, day=day, decks=[decks[5]], check=False
    )
    with pytest.raises(RegulationError):
        services.check_at_table(
            actor=croupier,
            deck=decks[5],
            table_number=3,
            day=day,
            witness="Chef de partie",
            order_checked=True,
            cards_counted=53,
            band_intact=True,
            video_reference="CAM-1",
        )
    routes = set(Incident.objects.values_list("route", flat=True))
    assert routes == set(IncidentRoute.values), sorted(set(IncidentRoute.values) - routes)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_showing_incidents_answers_with_one_of_each_route(
    director: Any, officer: Any, croupier: Any, decks: list[Deck], language: str
) -> None:
    _incident_of_each_route(director, officer, croupier, decks)
    incidents = list(Incident.objects.order_by("number"))
    officer_client, director_client = _client(officer), _client(director)
    day = gaming_day().isoformat()
    pages = [
        (officer_client, reverse("portal:incidents")),
        (officer_client, reverse("portal:dashboard")),
        (officer_client, reverse("portal:audit_trail")),
        (officer_client, reverse("portal:books_inspection")),
        (officer_client, reverse("portal:register", args=["incidents"]) + f"?date_from={day}&date_to={day}"),
        (director_client, reverse("admin:cards_registry_incident_changelist")),
        *[(director_client, reverse("admin:cards_registry_incident_change", args=[i.pk])) for i in incidents],
        *[(officer_client, reverse("portal:deck", args=[d.pk])) for d in decks[:6]],
    ]
    for client, url in pages:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, (url, response.status_code)
    listed = html.unescape(
        officer_client.get(reverse("portal:incidents"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    for incident in incidents:
        assert f'id="incident-{incident.pk}"' in listed, incident.route
