"""A failed check at the table (a count other than 52, a new deck's band broken) is refused *and*
opens its incident at once, the deck quarantined (FR art. 40 §5, LU art. 7 §5): the refusal rolls
the check back, never the incident."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import Deck, DeckStatus, Incident, IncidentRoute, TableCheck
from tests.support.builders import assert_refused, gaming_day

pytestmark = pytest.mark.django_db


def status(deck: Deck) -> str:
    return Deck.objects.get(pk=deck.pk).status


def check(croupier: Any, deck: Deck, **changes: Any) -> TableCheck:
    values: dict[str, Any] = {
        "actor": croupier,
        "deck": deck,
        "table_number": 1,
        "day": gaming_day(),
        "witness": "Inspecteur de salle",
        "order_checked": True,
        "cards_counted": 52,
        "band_intact": True,
        "video_reference": "CAM-1",
    }
    values.update(changes)
    return services.check_at_table(**values)


@pytest.mark.parametrize(("count", "kind"), [(51, "missing"), (53, "extra")])
def test_a_wrong_count_is_refused_and_opens_its_incident(
    director: Any, croupier: Any, decks: list[Deck], count: int, kind: str
) -> None:
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    with assert_refused("CARD_COUNT", article="FR art. 40", field="cards_counted"):
        check(croupier, decks[0], cards_counted=count)
    assert not TableCheck.objects.exists()  # the check itself is refused
    incident = Incident.objects.get()
    assert (incident.kind, incident.route, incident.table_number) == (kind, IncidentRoute.TABLE_CHECK, 1)
    assert list(incident.decks.all()) == [decks[0]] and f"{count} cartes" in incident.circumstances
    assert status(decks[0]) == DeckStatus.QUARANTINED  # out of play until the officer closes it
    event = AuditEvent.objects.filter(action="depot.incident_reported").get()
    assert event.object_id == str(incident.pk)
    with assert_refused("DECK_QUARANTINED"):
        check(croupier, decks[0])


def test_a_broken_band_is_refused_and_opens_its_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    with assert_refused("BAND_NOT_INTACT", article="FR art. 40", field="band_intact"):
        check(croupier, decks[0], band_intact=False)
    incident = Incident.objects.get()
    assert incident.kind == "band" and status(decks[0]) == DeckStatus.QUARANTINED


def test_a_refusal_that_found_nothing_opens_no_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    with assert_refused("WITNESS_REQUIRED", nothing_recorded=True):
        check(croupier, decks[0], witness=" ")
    with assert_refused("BAND_NOT_INTACT", nothing_recorded=True):
        check(croupier, decks[0], band_intact=None)  # not stated: nothing found
    assert not Incident.objects.exists() and status(decks[0]) == DeckStatus.ISSUED


def test_the_deck_comes_back_quarantined_and_the_officer_decides(
    director: Any, croupier: Any, officer: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    with assert_refused("CARD_COUNT"):
        check(croupier, decks[0], cards_counted=51)
    services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "fit", "", 51)]
    )
    assert status(decks[0]) == DeckStatus.QUARANTINED and Incident.objects.count() == 1
    services.close_incident(actor=officer, incident=Incident.objects.get(), finding="Une carte manque.")
    assert status(decks[0]) == DeckStatus.OUT_OF_USE


def test_the_admin_refuses_a_short_deck_on_its_field_and_the_incident_stays(
    director: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=3, day=gaming_day(), decks=decks[:1])
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("admin:cards_registry_tablecheck_add"),
        {
            "serial": decks[0].serial,
            "table_number": "3",
            "day": gaming_day().isoformat(),
            "witness": "M. Témoin",
            "band_intact": "on",
            "order_checked": "on",
            "cards_counted": "50",
            "video_reference": "CAM2",
        },
    )
    assert response.status_code == 200
    assert "Un jeu compte 52 cartes : 50 comptées" in html.unescape(response.content.decode())
    assert not TableCheck.objects.exists()
    incident = Incident.objects.get()
    assert (incident.kind, incident.table_number) == ("missing", 3)
    assert status(decks[0]) == DeckStatus.QUARANTINED
    # the page says what the refusal opened, as a return short of a card does
    text = html.unescape(response.content.decode())
    assert f"Incident n° {incident.number} ouvert" in text and decks[0].serial in text
    assert "FR art. 40" in text and "Signalez-le sur-le-champ à l'officier" in text


def test_the_admin_form_presumes_no_count(director: Any) -> None:
    client = Client()
    client.force_login(director)
    page = client.get(reverse("admin:cards_registry_tablecheck_add")).content.decode()
    assert 'name="cards_counted"' in page and 'name="cards_counted" value="52"' not in page
