"""A correction has the consequences the act would have had (FR art. 68 with FR art. 40 §5,
LU art. 7 §5): a return corrected to "marked" or to a short count opens the incident and takes
the deck out of play; a check at the table corrected to a wrong count does the same."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cards_registry import services
from cards_registry.models import Deck, DeckStatus, Incident, IncidentRoute, ReturnLine, TableCheck
from tests.support.builders import assert_refused, gaming_day

pytestmark = pytest.mark.django_db

APPROVAL = "Approuvé, le directeur responsable"


def status(deck: Deck) -> str:
    return Deck.objects.get(pk=deck.pk).status


def checked(director: Any, croupier: Any, deck: Deck, table: int = 1) -> TableCheck:
    services.issue_decks(actor=director, table_number=table, day=gaming_day(), decks=[deck])
    return services.check_at_table(
        actor=croupier,
        deck=deck,
        table_number=table,
        day=gaming_day(),
        witness="Inspecteur de salle",
        order_checked=True,
        cards_counted=52,
        band_intact=True,
        video_reference="CAM-1",
    )


def returned_fit(director: Any, deck: Deck, table: int = 1) -> ReturnLine:
    back = services.return_decks(
        actor=director, table_number=table, day=gaming_day(), results=[(deck, "fit", "", 52)]
    )
    return back.lines.get()


def correct(director: Any, entry: Any, field: str, value: str) -> Any:
    return services.record_correction(
        actor=director,
        entry=entry,
        field=field,
        new_value=value,
        reason="Erreur de saisie",
        approval=APPROVAL,
    )


def test_a_return_corrected_to_marked_opens_the_incident_and_takes_the_deck_out_of_play(
    director: Any, croupier: Any, officer: Any, decks: list[Deck]
) -> None:
    checked(director, croupier, decks[0])
    line = returned_fit(director, decks[0])
    checked(director, croupier, decks[0], table=2)  # back in play at another table
    assert status(decks[0]) == DeckStatus.IN_PLAY
    correct(director, line, "result", "marked")
    incident = Incident.objects.get()
    assert (incident.kind, incident.route, incident.table_number) == ("marked", IncidentRoute.RETURN, 1)
    assert list(incident.decks.all()) == [decks[0]]
    assert status(decks[0]) == DeckStatus.QUARANTINED  # out of play at once
    assert incident.occurred_at == line.deck_return.at  # found at the return: reported since
    services.close_incident(actor=officer, incident=incident, finding="Marque confirmée.")
    assert status(decks[0]) == DeckStatus.OUT_OF_USE


def test_a_return_corrected_to_a_short_count_opens_the_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    checked(director, croupier, decks[0])
    line = returned_fit(director, decks[0])
    assert status(decks[0]) == DeckStatus.IN_CABINET
    correct(director, line, "cards_counted", "51")
    assert Incident.objects.get().kind == "missing"
    assert status(decks[0]) == DeckStatus.QUARANTINED
    with assert_refused("DECK_QUARANTINED"):
        services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=[decks[0]])


def test_a_quarantined_deck_is_named_by_the_new_incident_without_moving(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    checked(director, croupier, decks[0])
    back = services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "marked", "", 52)]
    )
    correct(director, back.lines.get(), "cards_counted", "50")
    kinds = sorted(Incident.objects.values_list("kind", flat=True))
    assert kinds == ["marked", "missing"] and status(decks[0]) == DeckStatus.QUARANTINED
    assert list(Incident.objects.get(kind="missing").decks.all()) == [decks[0]]


def test_a_fit_return_corrected_to_worn_goes_out_of_use(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    checked(director, croupier, decks[0])
    line = returned_fit(director, decks[0])
    correct(director, line, "result", "worn")
    assert status(decks[0]) == DeckStatus.OUT_OF_USE and not Incident.objects.exists()


def test_a_check_at_the_table_corrected_to_a_wrong_count_opens_the_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    check = checked(director, croupier, decks[0])
    correct(director, check, "cards_counted", "53")
    incident = Incident.objects.get()
    assert (incident.kind, incident.route) == ("extra", IncidentRoute.TABLE_CHECK)
    assert status(decks[0]) == DeckStatus.QUARANTINED


def test_a_check_corrected_to_a_broken_band_opens_the_incident(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    check = checked(director, croupier, decks[0])
    correct(director, check, "band_intact", "non")
    assert Incident.objects.get().kind == "band" and status(decks[0]) == DeckStatus.QUARANTINED


def test_a_correction_the_act_would_refuse_is_refused(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    check = checked(director, croupier, decks[0])
    line = returned_fit(director, decks[0])
    for entry, field, value in (
        (line, "result", "quarantined"),
        (line, "result", "bon"),
        (line, "cards_counted", "-1"),
        (check, "band_intact", "peut-être"),
    ):
        with assert_refused(
            "CORRECTION_VALUE", article="FR art. 40", field="new_value", nothing_recorded=True
        ):
            correct(director, entry, field, value)


def test_the_admins_correction_opens_the_incident(director: Any, croupier: Any, decks: list[Deck]) -> None:
    checked(director, croupier, decks[0])
    line = returned_fit(director, decks[0])
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("admin:cards_registry_correction_add"),
        {
            "entry": f"returnline:{line.pk}",
            "field": "result",
            "new_value": "marked",
            "reason": "Marque vue au second examen",
            "approval": APPROVAL,
        },
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Incident.objects.get().kind == "marked"
    assert status(decks[0]) == DeckStatus.QUARANTINED
