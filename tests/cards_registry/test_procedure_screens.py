"""The procedure's acts on screen: the admin (decks by serial or sixain, never an id), the
officers' portal (his demand to open the cabinet, the report of an incident), the
self-inspection's panel on the dashboard and the admin's index, the incidents register."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from cards_registry import services
from cards_registry.models import (
    CabinetDemand,
    Correction,
    Deck,
    DeckStatus,
    Incident,
    IncidentReport,
    OutOfUseDeclaration,
)
from inspection.registers.base import Request
from inspection.registers.incidents import Incidents
from tests.support.clients import signed_in

pytestmark = pytest.mark.django_db


def test_admin_declares_a_sixain_out_of_use_by_its_serial(director: Any, decks: list[Deck], key: Any) -> None:
    client = signed_in(director)
    response = client.post(
        reverse("admin:cards_registry_outofusedeclaration_add"),
        {"serials": "", "sixains": "SA2", "reason": "Dos décolorés"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert OutOfUseDeclaration.objects.get().decks.count() == 6
    refused = client.post(
        reverse("admin:cards_registry_outofusedeclaration_add"),
        {"serials": "NOPE", "sixains": "", "reason": "x"},
    )
    assert refused.status_code == 200 and "Jeu inconnu : NOPE." in refused.content.decode()


def test_admin_records_a_foreign_card_and_corrects_a_serial_in_words(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    client = signed_in(director)
    now = timezone.localtime()
    response = client.post(
        reverse("admin:cards_registry_incident_add"),
        {
            "kind": "foreign",
            "occurred_at": (now - dt.timedelta(minutes=2)).strftime("%Y-%m-%d %H:%M:%S"),
            "day": now.date().isoformat(),
            "serials": "",
            "sixains": "",
            "card": "As de pique, dos vert",
            "officer_informed": officer.pk,
            "officer_informed_at": now.strftime("%Y-%m-%d %H:%M:%S"),
            "circumstances": "Trouvée au sol",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Incident.objects.get().card == "As de pique, dos vert"
    deck = decks[0]
    url = reverse("admin:cards_registry_correction_add")
    data = {"entry": f"deck:{deck.pk}", "field": "serial", "new_value": "A1-1b", "reason": "Erreur de saisie"}
    assert f"Jeu GRIM:{deck.serial}" in client.get(url).content.decode()
    missing = client.post(url, {**data, "approval": ""})
    assert missing.status_code == 200 and not Correction.objects.exists()
    assert client.post(url, {**data, "approval": "Approuvé, le directeur"}).status_code == 302
    assert Correction.objects.get().approval_words == "Approuvé, le directeur"


def test_the_officer_demands_the_opening_from_the_portal(officer: Any, casino: Any) -> None:
    client = signed_in(officer)
    assert "cabinet-demand" in client.get("/inspection/").content.decode()
    response = client.post(reverse("portal:demand_opening"), {"reason": "Contrôle inopiné"}, follow=True)
    assert response.redirect_chain[0][1] == 302
    demand = CabinetDemand.objects.get()
    assert demand.officer == officer
    # the officer is told when, at the casino's hour
    assert f"enregistrée le {timezone.localtime(demand.at):%d/%m/%Y %H:%M}." in response.content.decode()


def test_the_officer_records_when_he_was_told(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=1, day=timezone.localdate(), decks=decks[:1])
    services.return_decks(
        actor=director, table_number=1, day=timezone.localdate(), results=[(decks[0], "marked", "", 52)]
    )
    incident = Incident.objects.get()
    client = signed_in(officer)
    assert f"Incident n° {incident.number} —" in client.get("/inspection/").content.decode()
    page = client.get(reverse("portal:books_inspection")).content.decode()
    assert f"Incident n° {incident.number} —" in page and "non signalé" in page
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.QUARANTINED
    assert client.post(reverse("portal:incident_told", args=[incident.pk]), {}).status_code == 302
    assert IncidentReport.objects.get(incident=incident).officer == officer


def test_the_panel_on_the_dashboard_and_the_admin_index(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    Deck.objects.filter(pk=decks[0].pk).update(status=DeckStatus.IN_PLAY)
    client = signed_in(officer)
    live = client.get(reverse("portal:books_inspection")).content.decode()
    assert "depot.deck_states" in live and "FR art. 40" in live
    dashboard = client.get("/inspection/").content.decode()  # the last inspection, stored
    assert "depot.deck_states" in dashboard and reverse("portal:books_inspection") in dashboard
    index = signed_in(director).get(reverse("admin:index")).content.decode()
    assert 'id="inspection"' in index and "depot.deck_states" in index


def test_the_incidents_register_shows_whom_when_and_the_delay(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    now = timezone.now()
    services.report_incident(
        actor=director,
        kind="marked",
        occurred_at=now - dt.timedelta(hours=1),
        day=timezone.localdate(),
        decks=decks[:1],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Signalé une heure après",
    )
    services.report_incident_from_replay(
        code="INVALID_CARD",
        table_number=2,
        day=timezone.localdate(),
        shoe_reference="S",
        decks=[],
        detail="ZZ",
    )
    day = timezone.localdate()
    context = Incidents().context(Request(date_from=day, date_to=day))
    cells = [
        " | ".join(str(c) for c in row.get("cells", row.values())) for row in context["sections"][0]["rows"]
    ]
    assert any("+60 min — EN RETARD" in c for c in cells), cells
    assert any("NON SIGNALÉ" in c and "rejeu" in c for c in cells), cells


def test_admin_return_counts_each_deck_and_opens_the_incident(
    director: Any, officer: Any, decks: list[Deck], key: Any
) -> None:
    services.issue_decks(actor=director, table_number=1, day=timezone.localdate(), decks=decks[:2])
    client = signed_in(director)
    response = client.post(
        reverse("admin:cards_registry_deckreturn_add"),
        {
            "table_number": 1,
            "day": timezone.localdate().isoformat(),
            "deck_1": "A1-1",
            "result_1": "fit",
            "cards_1": "51",
            "remark_1": "une dame manque",
            "deck_2": "A1-2",
            "result_2": "fit",
            "cards_2": "52",
            "officer_informed": officer.pk,
            "officer_informed_at": timezone.localtime().strftime("%Y-%m-%d %H:%M:%S"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    incident = Incident.objects.get()
    assert (incident.kind, incident.officer_informed) == ("missing", officer)
    page = client.get(reverse("admin:cards_registry_incident_change", args=[incident.pk])).content.decode()
    assert "+0 min" in page


def test_admin_checks_a_deck_at_the_table_by_its_serial(director: Any, decks: list[Deck], key: Any) -> None:
    """The unsealing at the table has its admin page: the deck named by serial, never an id."""
    from cards_registry.models import TableCheck

    day = timezone.localdate()
    services.issue_decks(actor=director, table_number=3, day=day, decks=[decks[0]])
    client = signed_in(director)
    url = reverse("admin:cards_registry_tablecheck_add")
    data = {
        "serial": decks[0].serial,
        "table_number": "3",
        "day": day.isoformat(),
        "witness": "M. Témoin",
        "band_intact": "on",
        "order_checked": "on",
        "cards_counted": "52",
        "video_reference": "",
    }
    refused = client.post(url, data)
    assert refused.status_code == 200 and "référence de l" in refused.content.decode()
    assert not TableCheck.objects.exists()
    unknown = client.post(url, {**data, "serial": "NOPE", "video_reference": "CAM2"})
    assert unknown.status_code == 200 and "Jeu inconnu : NOPE." in unknown.content.decode()
    response = client.post(url, {**data, "video_reference": "CAM2 14:02"})
    assert response.status_code == 302, response.content.decode()[:3000]
    check = TableCheck.objects.get()
    assert check.issue_line.deck == decks[0] and check.new_deck and check.witness == "M. Témoin"
    decks[0].refresh_from_db()
    assert decks[0].status == DeckStatus.IN_PLAY
    page = client.get(reverse("admin:cards_registry_tablecheck_change", args=[check.pk])).content.decode()
    assert decks[0].serial in page and "CAM2 14:02" in page
