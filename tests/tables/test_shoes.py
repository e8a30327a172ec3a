"""Shoes filled from a sixain issued by the card depot; the decks' history shows the shoes they served."""

from __future__ import annotations

import html
import json

import pytest

from audit.models import AuditEvent
from cards_registry import services as depot
from cards_registry.models import Deck, DeckStatus, Incident, IncidentKind, IncidentRoute
from cards_registry.selectors import deck_history
from casino_ops.regulations import RegulationError
from tables import selectors, services
from tables.blackjack.simulator import simulate_shoe
from tables.models import HandLog, Shoe
from tests.support.builders import assert_refused, books_read_under
from tests.support.depot_helpers import issue_and_check
from tests.tables.conftest import at_day


def _issue(staff, session, decks, check=True):
    return issue_and_check(
        director=staff["director"],
        croupier=staff["croupier"],
        table_number=session.table.number,
        day=session.day,
        decks=decks,
        check=check,
    )


@pytest.mark.django_db
def test_shoe_filled_from_an_issued_sixain_records_the_serials(
    staff, depot_decks, today_session, django_capture_on_commit_callbacks
):
    sixain = [d for d in depot_decks if d.serial.startswith("A1-")]
    _issue(staff, today_session, sixain)
    shoe = services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in sixain])
    assert sorted(shoe.decks.values_list("serial", flat=True)) == [f"A1-{i}" for i in range(1, 7)]
    assert shoe.number == 1 and shoe.label.startswith("BJ03-")
    # the deck's history shows the shoe and the session it served
    lines = deck_history(sixain[0])
    served = [line for line in lines if shoe.label in line.what]
    assert len(served) == 1 and served[0].audit_seq is not None and "BJ03" in served[0].what
    # a hand log naming the shoe is linked to it, and an incident on a deck finds its rounds
    log = simulate_shoe(1, "FR", table="BJ03", shoe_id=shoe.label, limits=("10.00", "1000.00"))
    with django_capture_on_commit_callbacks(execute=True):
        received = services.upload_hand_log(
            actor=staff["croupier"], session=today_session, raw=json.dumps(log).encode(), source="api"
        )
    assert received.shoe == shoe and HandLog.objects.get().croupier == staff["croupier"]
    touched = selectors.rounds_served_by_deck(sixain[0].pk)
    assert touched == [
        {
            "shoe": shoe.label,
            "session_id": today_session.pk,
            "table_code": "BJ03",
            "day": today_session.day,
            "hand_logs": [{"id": received.pk, "sha256": received.sha256, "rounds": len(log["rounds"])}],
        }
    ]


@pytest.mark.django_db
def test_shoe_refuses_decks_not_issued_and_a_wrong_sixain(staff, depot_decks, today_session):
    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    a2 = [d for d in depot_decks if d.serial.startswith("A2-")]
    with pytest.raises(RegulationError) as info:
        services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a1])
    assert (
        info.value.code == "DECK_NOT_ISSUED"
        and info.value.article == "FR art. 40"
        and info.value.field == "decks"
    )
    _issue(staff, today_session, a1 + a2)
    wrong = a1[:5]  # five decks: not a sixain of three backs of each colour
    with pytest.raises(RegulationError) as info:
        services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in wrong])
    assert info.value.code == "SIXAIN_COMPOSITION" and info.value.article == "FR art. 55-4"
    with pytest.raises(RegulationError) as info:
        services.fill_shoe(actor=staff["cashier"], session=today_session, deck_ids=[d.pk for d in a2])
    assert info.value.code == "COUNTED_BY_STAFF"
    shoe = services.fill_shoe(
        actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a2], label="BJ03-X"
    )
    assert shoe.label == "BJ03-X"


@pytest.mark.django_db
def test_a_shoe_takes_only_decks_checked_at_the_table_and_in_no_other_live_shoe(
    staff, depot_decks, today_session, table
):
    from tables.models import Shoe

    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    a2 = [d for d in depot_decks if d.serial.startswith("A2-")]
    _issue(staff, today_session, a1, check=False)
    with pytest.raises(RegulationError) as info:
        services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a1])
    # the refusal names the serials, not the ids
    assert info.value.code == "DECK_NOT_CHECKED" and info.value.field == "decks"
    assert info.value.article == "FR art. 40" and "A1-1" in str(info.value) and not Shoe.objects.exists()
    for deck in a1:
        depot.check_at_table(
            actor=staff["croupier"],
            deck=deck,
            table_number=table.number,
            day=today_session.day,
            witness="Chef de partie",
            order_checked=True,
            cards_counted=52,
            band_intact=True,
            video_reference="CAM-1",
        )
    first = services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a1])
    # a new shoe of the same session replaces its previous one: the same decks may go in again
    again = services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in a1])
    assert again.number == first.number + 1
    # decks returned while still in that live shoe, then issued to another table: refused there
    depot.return_decks(
        actor=staff["director"],
        table_number=table.number,
        day=today_session.day,
        results=[(d, "fit", "", 52) for d in a1],
    )
    other_table = services.create_table(actor=staff["director"], number=4, code="BJ04")
    with at_day(today_session.day):
        other = services.open_session(
            actor=staff["director"],
            table=other_table,
            day=today_session.day,
            minimum=today_session.minimum,
            maximum=today_session.maximum,
            advance_amount=today_session.advance_amount,
            croupier=staff["croupier"],
        )
    issue_and_check(
        director=staff["director"], croupier=staff["croupier"], table_number=4, day=other.day, decks=a1
    )
    with pytest.raises(RegulationError) as info:
        services.fill_shoe(actor=staff["croupier"], session=other, deck_ids=[d.pk for d in a1])
    assert info.value.code == "DECK_IN_ANOTHER_SHOE" and info.value.field == "decks"
    assert "A1-1" in str(info.value) and not Shoe.objects.filter(session=other).exists()
    assert a2  # the other sixain stays in the cabinet


@pytest.mark.django_db
def test_a_wrong_composition_is_refused_and_opens_its_incident(staff, depot_decks, today_session):
    """Four blue backs and two red at the table: refused (FR art. 55-4) *and* an incident opened
    at once on those decks, quarantined, which the refusal's rollback does not undo."""
    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    a2 = [d for d in depot_decks if d.serial.startswith("A2-")]
    _issue(staff, today_session, a1 + a2)
    blue = [d for d in a1 + a2 if d.back_colour == "bleu"][:4]
    red = [d for d in a1 + a2 if d.back_colour == "rouge"][:2]
    wrong = blue + red
    with assert_refused("SIXAIN_COMPOSITION", article="FR art. 55-4", field="decks"):
        services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in wrong])
    assert not Shoe.objects.exists()  # the shoe itself is refused
    incident = Incident.objects.get()
    assert (incident.kind, incident.route, incident.table_number, incident.day) == (
        IncidentKind.FOREIGN,
        IncidentRoute.TABLE_CHECK,
        today_session.table.number,
        today_session.day,
    )
    assert sorted(d.pk for d in incident.decks.all()) == sorted(d.pk for d in wrong)
    assert "4 × bleu" in incident.circumstances and "2 × rouge" in incident.circumstances
    assert {Deck.objects.get(pk=d.pk).status for d in wrong} == {DeckStatus.QUARANTINED}
    event = AuditEvent.objects.filter(action="depot.incident_reported").get()
    assert event.object_id == str(incident.pk)
    # the quarantined decks are out of play: they cannot fill a shoe any more
    with pytest.raises(RegulationError):
        services.fill_shoe(actor=staff["croupier"], session=today_session, deck_ids=[d.pk for d in wrong])
    assert Incident.objects.count() == 1


@pytest.mark.django_db
def test_under_lu_a_wrong_composition_is_refused_and_opens_its_incident(staff, table):
    """LU art. 32 (six decks, three of one back colour and three of the other) and art. 7 (a
    check at the table that fails is reported at once): the same refusal and incident under LU,
    with the séance's shoe device assigned (art. 32 §3, 40) and a maker approved by Finance."""
    from decimal import Decimal

    from tests.support import builders

    director, croupier = staff["director"], staff["croupier"]
    books_read_under("LU")
    day = builders.gaming_day()
    builders.shoe_for(table, day, director)
    with builders.at_day(day):
        session = services.open_session(
            actor=director,
            table=table,
            day=day,
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("20000.00"),
            croupier=croupier,
            guarantee_fund=Decimal("100000.00"),
            ministry_notice=builders.ministry_notice("10.00", day),
        )
    maker = builders.approved_maker(
        director, approval_reference="MF/CARTES/7", ministry="Ministère des Finances"
    )
    builders.cabinet_key(director)
    order = builders.sent_order(director, staff["officer"], maker, decks_per_colour=6)
    reception = builders.receive(director, order, prefixes=("L1", "L2"))
    decks = list(Deck.objects.filter(reception=reception).order_by("serial"))
    _issue(staff, session, decks)
    wrong = [d for d in decks if d.back_colour == "bleu"][:4] + [
        d for d in decks if d.back_colour == "rouge"
    ][:2]
    with assert_refused("SIXAIN_COMPOSITION", article="LU art. 32", field="decks"):
        services.fill_shoe(actor=croupier, session=session, deck_ids=[d.pk for d in wrong])
    assert not Shoe.objects.exists()
    incident = Incident.objects.get()
    assert (incident.kind, incident.route, incident.table_number, incident.day) == (
        IncidentKind.FOREIGN,
        IncidentRoute.TABLE_CHECK,
        table.number,
        day,
    )
    assert sorted(d.pk for d in incident.decks.all()) == sorted(d.pk for d in wrong)
    assert {Deck.objects.get(pk=d.pk).status for d in wrong} == {DeckStatus.QUARANTINED}
    assert AuditEvent.objects.filter(action="depot.incident_reported", object_id=str(incident.pk)).exists()


@pytest.mark.django_db
def test_the_admin_refuses_a_wrong_composition_and_says_the_incident(staff, depot_decks, today_session):
    from django.test import Client
    from django.urls import reverse

    a1 = [d for d in depot_decks if d.serial.startswith("A1-")]
    a2 = [d for d in depot_decks if d.serial.startswith("A2-")]
    _issue(staff, today_session, a1 + a2)
    blue = [d for d in a1 + a2 if d.back_colour == "bleu"][:4]
    red = [d for d in a1 + a2 if d.back_colour == "rouge"][:2]
    client = Client()
    client.force_login(staff["croupier"])
    response = client.post(
        reverse("admin:tables_session_act", args=[today_session.pk, "shoe"]),
        {"decks": [d.pk for d in blue + red], "label": ""},
    )
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "FR art. 55-4" in text and "trois d'une couleur de dos" in text
    assert not Shoe.objects.exists()
    incident = Incident.objects.get()
    assert incident.kind == IncidentKind.FOREIGN and incident.decks.count() == 6
    # no silent act: the page says the incident it opened, the decks quarantined, the article
    # and what to do next (as a return short of a card does)
    assert f"Incident n° {incident.number} ouvert" in text
    assert all(d.serial in text for d in blue + red)
    assert "consignés au dépôt" in text and "FR art. 40" in text
    assert "Signalez-le sur-le-champ à l'officier" in text
