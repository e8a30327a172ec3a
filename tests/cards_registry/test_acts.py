"""The depot's missing acts (FR art. 39-40, 68; LU art. 6-7) and the LU fixes."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import floor, selectors, services
from cards_registry.models import (
    CabinetOpening,
    Correction,
    Deck,
    DeckStatus,
    Incident,
    IncidentRoute,
    Sixain,
)
from tests.support.builders import assert_refused, books_read_under

from .conftest import make_sent_order, sixain_data

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


# -- 4. the missing acts ------------------------------------------------------------------------


def test_decks_in_the_cabinet_declared_out_of_use(director: Any, officer: Any, decks: list[Deck]) -> None:
    declaration = services.declare_out_of_use(actor=director, decks=decks[:2], reason="Dos décolorés")
    assert {Deck.objects.get(pk=d.pk).status for d in decks[:2]} == {DeckStatus.OUT_OF_USE}
    assert declaration.opening.purpose == "out_of_use"
    assert AuditEvent.objects.filter(action="depot.decks_declared_out_of_use").count() == 1
    with assert_refused("REASON_REQUIRED", article="FR art. 39") as refusal:
        services.declare_out_of_use(actor=director, decks=decks[2:3], reason=" ")
    err = refusal.value
    assert err.field == "reason"
    with assert_refused("ILLEGAL_TRANSITION", article="FR art. 40"):
        services.declare_out_of_use(actor=director, decks=decks[:1], reason="x")
    destruction = services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[{"deck": d, "complete": True, "unmarked": True} for d in decks[:2]],
    )
    assert destruction.lines.count() == 2


def test_issue_only_to_a_table_the_floor_accepts(director: Any, decks: list[Deck]) -> None:
    def only_table_1(number: int, day: Any) -> str | None:
        return None if number == 1 else f"Pas de table {number} en service."

    with floor.TABLE_CHECKS.temporarily("test.table_1", only_table_1):
        with assert_refused("TABLE_NOT_IN_SERVICE", article="FR art. 40") as refusal:
            services.issue_decks(actor=director, table_number=77, day=TODAY(), decks=decks[:1])
        err = refusal.value
        assert err.field == "table_number" and "77" in err.message
        assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET
        services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:1])


def test_the_officer_demands_the_opening_and_the_inventory_finds_differences(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    with assert_refused("INSPECTION_BY_OFFICER", article="FR art. 39"):
        services.demand_opening(actor=director, reason="x")
    demand = services.demand_opening(actor=officer, reason="Contrôle inopiné")
    opening = services.open_for_inspection(actor=director, demand=demand)
    assert opening.demanded_by == officer and opening.demand == demand
    with assert_refused("DEMAND_ANSWERED", article="FR art. 39"):
        services.open_for_inspection(actor=director, demand=demand)
    found = [d.serial for d in decks[1:]] + ["ZZ-9"]
    inventory = services.record_inventory(actor=director, opening=opening, found=found)
    assert (inventory.expected, inventory.found, inventory.missing, inventory.unexpected) == (
        12,
        12,
        ["A1-1"],
        ["ZZ-9"],
    )
    incident = Incident.objects.get(route=IncidentRoute.INSPECTION)
    assert incident == inventory.incident and incident.officer_informed == officer
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.QUARANTINED
    with assert_refused("INVENTORY_DONE", article="FR art. 39"):
        services.record_inventory(actor=director, opening=opening, found=found)
    [logged] = [e for e in selectors.depot_log(TODAY(), TODAY()) if e.kind == "opening" and e.demanded_by]
    assert "demande de l'officier" in logged.note and "manquants : A1-1" in logged.note
    assert f"demande de l'officier du {timezone.localtime(demand.at):%d/%m/%Y %H:%M}" in logged.note
    assert f"incident n° {incident.number}" in logged.note


def test_an_inventory_matching_the_books_opens_nothing(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    opening = services.open_for_inspection(actor=director, demanded_by=officer)
    inventory = services.record_inventory(
        actor=director, opening=opening, found=[f"GRIM:{d.serial}" for d in decks]
    )
    assert inventory.incident is None and not Incident.objects.exists()
    other = CabinetOpening.objects.exclude(pk=opening.pk).first()
    with assert_refused("INVENTORY_OPENING", article="FR art. 39"):
        services.record_inventory(actor=director, opening=other, found=[])


def test_every_field_of_the_depot_is_corrected_with_the_director_approval_in_words(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    deck = decks[0]
    with assert_refused("APPROVAL_IN_WORDS", article="FR art. 68") as refusal:
        services.record_correction(
            actor=director,
            entry=deck,
            field="serial",
            new_value="A1-1b",
            reason="Erreur de saisie",
            approval=" ",
        )
    err = refusal.value  # fmt: skip
    assert err.field == "approval"
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39"):
        services.record_correction(actor=director, entry=deck, field="serial", new_value="A1-2", reason="r", approval="Approuvé")  # fmt: skip
    correction = services.record_correction(
        actor=director, entry=deck, field="serial", new_value="A1-1b", reason="Erreur de saisie",
        approval="Approuvé, le directeur responsable",
    )  # fmt: skip
    assert (correction.deck, correction.old_value, correction.approval_words) == (
        deck,
        "A1-1",
        "Approuvé, le directeur responsable",
    )
    assert (
        Deck.objects.get(pk=deck.pk).serial == "A1-1" and selectors.current_value(deck, "serial") == "A1-1b"
    )
    sixain = Sixain.objects.get(serial="SA1")
    services.record_correction(
        actor=director, entry=sixain, field="serial", new_value="SA1-bis", reason="r", approval="Approuvé"
    )
    issue = services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[1:2])
    services.record_correction(
        actor=director, entry=issue, field="table_number", new_value="2", reason="r", approval="Approuvé"
    )
    check = services.check_at_table(
        actor=croupier, deck=decks[1], table_number=1, day=TODAY(), witness="W", order_checked=True,
        cards_counted=52, band_intact=True, video_reference="CAM-1",
    )  # fmt: skip
    services.record_correction(
        actor=director, entry=check, field="witness", new_value="M. Garnier", reason="r", approval="Approuvé"
    )
    back = services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(decks[1], "fit", "", 52)]
    )
    services.record_correction(
        actor=director,
        entry=back.lines.get(),
        field="remark",
        new_value="rien",
        reason="r",
        approval="Approuvé",
    )
    assert Correction.objects.count() == 5
    assert {c.field for c in Correction.objects.all()} == {"serial", "table_number", "witness", "remark"}


# -- 5. LU ------------------------------------------------------------------------------------


def lu_sixain(prefix: str) -> dict[str, Any]:
    data = sixain_data(prefix)
    for deck in data["decks"]:
        deck["serial"] = ""
    return data


def test_lu_sixain_cap_counts_every_sixain_held_and_loose_decks(
    director: Any, officer: Any, maker: Any, sent_order: Any, key: Any, croupier: Any
) -> None:
    services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain_data("B1")])
    services.receive(
        actor=director,
        order=sent_order,
        received_on=TODAY(),
        decks=[{"serial": "L-1", "back_colour": "bleu"}],
    )
    assert selectors.held_sixains() == 2  # one sixain, one loose deck (a sixain begun)
    deck = Deck.objects.get(serial="B1-1")
    services.declare_out_of_use(actor=director, decks=[deck], reason="usé")
    services.destroy_decks(
        actor=director, officer=officer, checks=[{"deck": deck, "complete": True, "unmarked": True}]
    )
    assert selectors.held_sixains() == 2  # the sixain with five decks left is still held
    books_read_under("LU")
    services.set_max_sixains(actor=director, max_sixains=2, reference="MF/2026/7")
    order = make_sent_order(director, officer, maker)
    with assert_refused("MAX_SIXAINS", article="LU art. 6"):
        services.receive(actor=director, order=order, received_on=TODAY(), sixains=[lu_sixain("C1")])  # fmt: skip


def test_lu_receives_only_sixains(director: Any, officer: Any, maker: Any, key: Any) -> None:
    books_read_under("LU")
    order = make_sent_order(director, officer, maker)
    with assert_refused("SIXAINS_ONLY", article="LU art. 6") as refusal:
        services.receive(
            actor=director, order=order, received_on=TODAY(), decks=[{"serial": "L-1", "back_colour": "bleu"}]
        )
    err = refusal.value  # fmt: skip
    assert err.field == "decks"
    services.receive(actor=director, order=order, received_on=TODAY(), sixains=[lu_sixain("D1")])


def test_the_ministry_is_the_profile_s(director: Any, casino: Any) -> None:
    common = dict(actor=director, name="X", approval_reference="A", valid_from=dt.date(2024, 1, 1))
    with assert_refused("MINISTRY_PROFILE", article="FR art. 39") as refusal:
        services.register_manufacturer(code="X1", ministry="Ministère des Finances", **common)
    err = refusal.value
    assert err.field == "ministry"
    books_read_under("LU")
    with assert_refused("MINISTRY_PROFILE", article="LU art. 6"):
        services.register_manufacturer(code="X2", ministry="Ministère de l'Intérieur", **common)
    services.register_manufacturer(code="X3", ministry="Ministère des Finances", **common)


def test_approval_is_checked_again_at_delivery(director: Any, officer: Any, casino: Any, key: Any) -> None:
    maker = services.register_manufacturer(
        actor=director, code="SOON", name="Fin proche", approval_reference="A", ministry="Intérieur",
        valid_from=dt.date(2024, 1, 1), valid_until=TODAY() + dt.timedelta(days=1),
    )  # fmt: skip
    order = make_sent_order(director, officer, maker)
    with assert_refused("MANUFACTURER_NOT_APPROVED", article="FR art. 39"):
        services.receive(actor=director, order=order, received_on=TODAY() + dt.timedelta(days=2), sixains=[sixain_data("E1")])  # fmt: skip


def test_the_admin_says_the_incident_an_inventory_opened(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    """No silent act: a deck missing at the inventory opens an incident and quarantines it; the
    page the inventory returns to says the incident's number, the deck, the article and whom to tell."""
    import html

    from django.test import Client
    from django.urls import reverse

    opening = services.open_for_inspection(actor=director, demanded_by=officer)
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("admin:cards_registry_cabinetinventory_add"),
        {"opening": opening.pk, "found": " ".join(d.serial for d in decks[1:])},
        follow=True,
    )
    incident = Incident.objects.get(route=IncidentRoute.INSPECTION)
    text = html.unescape(response.content.decode())
    assert f"Incident n° {incident.number} ouvert" in text and decks[0].serial in text
    assert "FR art. 40" in text and "Signalez-le sur-le-champ à l'officier" in text
