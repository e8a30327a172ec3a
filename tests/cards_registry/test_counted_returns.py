"""Returns are counted, never presumed (FR art. 40 §5, LU art. 7 §5): every deck comes back with
the cards counted by hand; a count other than 52 or a marked card opens its incident at once,
and every entry point (service, API, admin action, admin form) says so."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.urls import reverse

from cards_registry import services
from cards_registry.models import Deck, DeckReturn, DeckStatus, Incident, IncidentRoute
from tests.support.builders import assert_refused, gaming_day
from tests.support.clients import signed_in

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def status(deck: Deck) -> str:
    return Deck.objects.get(pk=deck.pk).status


def issued(director: Any, decks: list[Deck], table: int = 1) -> None:
    services.issue_decks(actor=director, table_number=table, day=gaming_day(), decks=decks)


def test_the_service_refuses_a_deck_returned_without_its_count(director: Any, decks: list[Deck]) -> None:
    issued(director, decks[:2])
    for line in [
        (decks[0], "fit"),
        (decks[0], "fit", ""),
        (decks[0], "fit", "", None),
        (decks[0], "fit", "", ""),
    ]:
        with assert_refused("CARD_COUNT", article="FR art. 40", field="results", nothing_recorded=True):
            services.return_decks(actor=director, table_number=1, day=gaming_day(), results=[line])
    assert not DeckReturn.objects.exists() and status(decks[0]) == DeckStatus.ISSUED
    services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "fit", "", 52)]
    )
    assert status(decks[0]) == DeckStatus.IN_CABINET


def test_the_api_refuses_a_return_without_the_count(director: Any, decks: list[Deck]) -> None:
    issued(director, decks[:1])
    api = signed_in(director)
    body = {"table_number": 1, "day": str(gaming_day()), "results": [{"deck": "A1-1", "result": "fit"}]}
    refused = api.post("/api/depot/returns/", body, content_type="application/json")
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["field"], refused.json()["article"]) == (
        "CARD_COUNT",
        "results",
        "FR art. 40",
    )
    assert status(decks[0]) == DeckStatus.ISSUED and not DeckReturn.objects.exists()


def test_the_admins_bulk_return_wants_the_count_and_says_a_short_deck_is_quarantined(
    director: Any, decks: list[Deck]
) -> None:
    issued(director, decks[:2], table=4)
    client = signed_in(director)
    url = reverse("admin:cards_registry_deck_changelist")
    form = {
        "action": "return_fit",
        "_act": "1",
        "_selected_action": [decks[0].pk],
        "table_number": 4,
        "day": gaming_day(),
    }
    response = client.post(url, form, follow=True)
    assert "rien n'est présumé" in text(response)
    assert status(decks[0]) == DeckStatus.ISSUED and not DeckReturn.objects.exists()

    response = client.post(url, {**form, f"cards_{decks[0].pk}": 51}, follow=True)
    shown = [text(response)]
    incident = Incident.objects.get(route=IncidentRoute.RETURN)
    assert incident.kind == "missing" and status(decks[0]) == DeckStatus.QUARANTINED
    assert any(f"Incident n° {incident.number} ouvert" in m and "A1-1" in m for m in shown), shown
    assert not any("rendus, comptés et examinés" in m for m in shown)

    response = client.post(
        url, {**form, "_selected_action": [decks[1].pk], f"cards_{decks[1].pk}": 52}, follow=True
    )
    assert "Jeux rendus, comptés et examinés." in text(response)
    assert status(decks[1]) == DeckStatus.IN_CABINET


def test_the_return_form_offers_the_results_as_choices_in_the_active_language(director: Any) -> None:
    client = signed_in(director)
    url = reverse("admin:cards_registry_deckreturn_add")
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<option value="marked">hors d&#x27;usage : marqué</option>' in french, french
    assert '<option value="quarantined"' not in french  # the incident's, never chosen
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="marked">out of use: marked</option>' in english
    assert 'name="cards_1"' in english and 'name="cards_1" value="52"' not in english


def test_a_short_return_through_the_form_says_the_deck_is_quarantined_not_back(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    issued(director, decks[:2])
    client = signed_in(director)
    url = reverse("admin:cards_registry_deckreturn_add")
    form = {
        "table_number": 1,
        "day": gaming_day().isoformat(),
        "deck_1": "A1-1",
        "result_1": "fit",
        "cards_1": "",
        "remark_1": "une dame manque",
        "deck_2": "A1-2",
        "result_2": "fit",
        "cards_2": "52",
    }
    refused = client.post(url, form)
    assert refused.status_code == 200 and "Comptez les cartes" in text(refused)
    assert not DeckReturn.objects.exists()

    response = client.post(url, {**form, "cards_1": "51"}, follow=True)
    page = text(response)
    incident = Incident.objects.get(route=IncidentRoute.RETURN)
    assert status(decks[0]) == DeckStatus.QUARANTINED and status(decks[1]) == DeckStatus.IN_CABINET
    assert f"Incident n° {incident.number} ouvert" in page
    assert "ajouté avec succès" not in page and "was added successfully" not in page
    assert f"A1-1 : consigné : incident n° {incident.number} ouvert, 51 cartes" in page
    assert "A1-1 : apte, remis au dépôt" not in page
    assert "A1-2 : apte, remis au dépôt, 52 cartes" in page


def test_the_count_of_a_returned_deck_is_guarded_by_the_database(director: Any, decks: list[Deck]) -> None:
    """The count decides whether an incident opens: once written, the database refuses to change it."""
    from django.db import DatabaseError, transaction

    from cards_registry.models import ReturnLine

    issued(director, decks[:1])
    back = services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "fit", "", 52)]
    )
    with pytest.raises(DatabaseError), transaction.atomic():
        ReturnLine.objects.filter(deck_return=back).update(cards_counted=51)
    assert back.lines.get().cards_counted == 52
