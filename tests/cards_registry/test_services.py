"""Every act of the card depot, every refusal with its article, and the audit event of each act."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import (
    Book,
    CabinetOpening,
    Correction,
    Deck,
    DeckStatus,
    Order,
    Reception,
    Sixain,
    Visa,
)
from casino_ops import roles
from casino_ops.regulations import RegulationError
from tests.support.builders import assert_refused, books_read_under

from .conftest import make_sent_order, sixain_data

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def last_event(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).order_by("-id").first()


def to_lu(director: Any) -> None:
    books_read_under("LU")


# -- manufacturers and orders -----------------------------------------------------------


def test_register_manufacturer_records_the_approval(maker: Any) -> None:
    event = last_event("depot.manufacturer_registered")
    assert event.object_id == str(maker.pk) and event.seq is not None
    assert '"approval_reference":"Agrément INT-2024-017"' in event.payload


def test_manufacturer_dates_and_duplicates_refused(director: Any, maker: Any) -> None:
    common = dict(actor=director, name="X", approval_reference="A", ministry="Intérieur")
    with assert_refused("APPROVAL_DATES", article="FR art. 39") as refusal:
        services.register_manufacturer(
            code="X1", valid_from=dt.date(2025, 1, 1), valid_until=dt.date(2024, 1, 1), **common
        )
    err = refusal.value
    assert err.field == "valid_until"
    with assert_refused("MANUFACTURER_EXISTS", article="FR art. 39"):
        services.register_manufacturer(code="GRIM", valid_from=dt.date(2025, 1, 1), **common)


def test_order_numbers_follow_each_other_in_the_book(director: Any, maker: Any) -> None:
    line = [{"quantity": 6, "unit": "sixain", "back_colour": "bleu"}]
    orders = [
        services.create_order(actor=director, manufacturer=maker, ordered_on=TODAY(), lines=line)
        for _ in range(3)
    ]
    assert [o.number for o in orders] == [1, 2, 3]
    assert {o.book.number for o in orders} == {1}
    assert orders[0].lines.get().decks == 36
    assert last_event("depot.order_created").object_id == str(orders[2].pk)


def test_order_from_a_maker_not_approved_that_day_is_refused(director: Any, maker: Any) -> None:
    with assert_refused("MANUFACTURER_NOT_APPROVED", article="FR art. 39") as refusal:
        services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=dt.date(2023, 12, 31),
            lines=[{"quantity": 1, "unit": "deck", "back_colour": "bleu"}],
        )
    err = refusal.value
    assert err.field == "manufacturer"
    assert not Order.objects.exists()
    assert Book.objects.filter(last_number__gt=0).count() == 0  # no number taken


def test_order_from_a_maker_whose_approval_ended(director: Any, casino: Any) -> None:
    old = services.register_manufacturer(
        actor=director,
        code="OLD",
        name="Ancien",
        approval_reference="A-1",
        ministry="Intérieur",
        valid_from=dt.date(2020, 1, 1),
        valid_until=dt.date(2021, 1, 1),
    )
    with assert_refused("MANUFACTURER_NOT_APPROVED", article="FR art. 39"):
        services.create_order(
            actor=director,
            manufacturer=old,
            ordered_on=TODAY(),
            lines=[{"quantity": 1, "unit": "deck", "back_colour": "bleu"}],
        )


def test_empty_or_bad_order_lines_refused(director: Any, maker: Any) -> None:
    with assert_refused("ORDER_EMPTY", article="FR art. 39"):
        services.create_order(actor=director, manufacturer=maker, ordered_on=TODAY(), lines=[])
    with assert_refused("ORDER_QUANTITY", article="FR art. 39"):
        services.create_order(
            actor=director,
            manufacturer=maker,
            ordered_on=TODAY(),
            lines=[{"quantity": 0, "unit": "deck", "back_colour": "bleu"}],
        )


def test_order_cannot_be_sent_before_the_visa(director: Any, officer: Any, maker: Any) -> None:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=TODAY(),
        lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
    )
    with assert_refused("ORDER_NOT_STAMPED", article="FR art. 39"):
        services.send_order(actor=director, order=order)
    visa = services.stamp_order(actor=officer, order=order, remark="Vu")
    assert visa.officer == officer and visa.order == order
    sent = services.send_order(actor=director, order=order)
    assert sent.sent_at is not None
    assert last_event("depot.order_sent").object_id == str(order.pk)
    with assert_refused("ORDER_ALREADY_SENT", article="FR art. 39"):
        services.send_order(actor=director, order=order)
    with assert_refused("ALREADY_STAMPED", article="FR art. 39"):
        services.stamp_order(actor=officer, order=order)


@pytest.mark.parametrize("role", ["directeur", "comite_direction", "chef_de_table", "caissier"])
def test_visas_by_anyone_but_an_officer_are_refused(
    users: dict[str, Any], director: Any, maker: Any, role: str
) -> None:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=TODAY(),
        lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
    )
    with assert_refused("VISA_OFFICER_ONLY", article="FR art. 39") as refusal:
        services.stamp_order(actor=users[role], order=order)
    err = refusal.value
    assert err.field == "officer"
    assert not Visa.objects.exists()


def test_depot_acts_need_management(users: dict[str, Any], maker: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.create_order(
            actor=users["chef_de_table"],
            manufacturer=maker,
            ordered_on=TODAY(),
            lines=[{"quantity": 1, "unit": "deck", "back_colour": "bleu"}],
        )


# -- receptions ----------------------------------------------------------------------------


def test_reception_records_every_serial_and_opens_the_cabinet(
    reception: Reception, decks: list[Deck]
) -> None:
    assert reception.number == 1 and reception.book.number == 1
    assert len(decks) == 12 and {d.status for d in decks} == {DeckStatus.IN_CABINET}
    assert Sixain.objects.filter(reception=reception).count() == 2
    assert {d.back_colour for d in decks if d.serial.startswith("A1")} == {"bleu", "rouge"}
    assert not reception.over_delivery
    assert CabinetOpening.objects.filter(purpose="reception").count() == 1
    event = last_event("depot.reception_recorded")
    assert '"A1-1","bleu"' in event.payload and event.object_id == str(reception.pk)


def test_reception_numbers_have_no_gap_even_after_a_refusal(
    director: Any, sent_order: Order, key: Any, reception: Reception
) -> None:
    with pytest.raises(RegulationError):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain_data("A1")])
    second = services.receive(
        actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain_data("B1")]
    )
    assert second.number == 2


def test_reception_against_an_order_not_sent_is_refused(director: Any, maker: Any, key: Any) -> None:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=TODAY(),
        lines=[{"quantity": 6, "unit": "deck", "back_colour": "bleu"}],
    )
    with assert_refused("ORDER_NOT_SENT", article="FR art. 39"):
        services.receive(
            actor=director, order=order, received_on=TODAY(), decks=[{"serial": "Z1", "back_colour": "bleu"}]
        )


def test_serial_already_known_for_the_maker_is_refused(
    director: Any, sent_order: Order, reception: Any
) -> None:
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39") as refusal:
        services.receive(
            actor=director,
            order=sent_order,
            received_on=TODAY(),
            decks=[{"serial": "A1-3", "back_colour": "bleu"}],
        )
    err = refusal.value
    assert "A1-3" in err.message and err.field == "decks"
    with assert_refused("SERIAL_ALREADY_KNOWN", article="FR art. 39"):
        services.receive(
            actor=director,
            order=sent_order,
            received_on=TODAY(),
            decks=[{"serial": "N1", "back_colour": "bleu"}, {"serial": "N1", "back_colour": "bleu"}],
        )
    assert Reception.objects.count() == 1


def test_same_serial_from_another_maker_is_accepted(director: Any, officer: Any, reception: Any) -> None:
    other = services.register_manufacturer(
        actor=director,
        code="FOUR",
        name="Fournier",
        approval_reference="INT-2",
        ministry="Intérieur",
        valid_from=dt.date(2024, 1, 1),
    )
    order = make_sent_order(director, officer, other)
    r = services.receive(
        actor=director, order=order, received_on=TODAY(), decks=[{"serial": "A1-1", "back_colour": "bleu"}]
    )
    assert r.decks.get().manufacturer == other


def test_fr_each_deck_needs_its_serial(director: Any, sent_order: Order, key: Any) -> None:
    sixain = sixain_data("C1")
    sixain["decks"][2]["serial"] = ""
    with assert_refused("SERIAL_REQUIRED", article="FR art. 39"):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain])


def test_sixain_of_another_composition_is_refused(director: Any, sent_order: Order, key: Any) -> None:
    sixain = sixain_data("C1")
    sixain["decks"][3]["back_colour"] = "bleu"  # four blue, two red
    with assert_refused("SIXAIN_COMPOSITION", article="FR art. 55-4") as refusal:
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain])
    err = refusal.value
    assert "4 × bleu" in err.message
    sixain = sixain_data("C2")
    sixain["decks"] = sixain["decks"][:5]
    with assert_refused("SIXAIN_COMPOSITION", article="FR art. 55-4"):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain])


def test_partial_receptions_then_an_over_delivery_is_refused(
    director: Any, officer: Any, maker: Any, key: Any
) -> None:
    order = make_sent_order(director, officer, maker, sixains=2)  # 6 blue, 6 red
    first = services.receive(actor=director, order=order, received_on=TODAY(), sixains=[sixain_data("P1")])
    assert not first.over_delivery
    second = services.receive(actor=director, order=order, received_on=TODAY(), sixains=[sixain_data("P2")])
    assert not second.over_delivery
    with assert_refused("OVER_DELIVERY", article="FR art. 39", field="decks", nothing_recorded=True):
        services.receive(
            actor=director,
            order=order,
            received_on=TODAY(),
            decks=[{"serial": "P3-1", "back_colour": "bleu"}],
        )
    assert not Deck.objects.filter(serial="P3-1").exists()


def test_reception_needs_the_key_holder(committee: Any, director: Any, sent_order: Order, key: Any) -> None:
    with assert_refused("NOT_KEY_HOLDER", article="FR art. 39"):
        services.receive(actor=committee, order=sent_order, received_on=TODAY(), sixains=[sixain_data("K1")])


def test_reception_visa_officer_only(director: Any, officer: Any, reception: Reception) -> None:
    with assert_refused("VISA_OFFICER_ONLY", article="FR art. 39"):
        services.stamp_reception(actor=director, reception=reception)
    visa = services.stamp_reception(actor=officer, reception=reception)
    assert visa.reception == reception
    assert last_event("depot.reception_stamped").object_id == str(reception.pk)
    with assert_refused("ALREADY_STAMPED", article="FR art. 39"):
        services.stamp_reception(actor=officer, reception=reception)


def test_lu_sixain_serials_and_the_ministry_limit(director: Any, officer: Any, maker: Any, key: Any) -> None:
    to_lu(director)
    order = make_sent_order(director, officer, maker, sixains=5)
    services.set_max_sixains(actor=director, max_sixains=2, reference="MF/2026/7")
    lu_sixain = {"serial": "LU-1", "decks": [{"back_colour": "bleu"}] * 3 + [{"back_colour": "rouge"}] * 3}
    reception = services.receive(actor=director, order=order, received_on=TODAY(), sixains=[lu_sixain])
    assert sorted(reception.decks.values_list("serial", flat=True)) == [f"LU-1-{i}" for i in range(1, 7)]
    nameless = {"serial": "", "decks": lu_sixain["decks"]}
    with assert_refused("SERIAL_REQUIRED", article="LU art. 6"):
        services.receive(actor=director, order=order, received_on=TODAY(), sixains=[nameless])
    with assert_refused("MAX_SIXAINS", article="LU art. 6") as refusal:
        services.receive(
            actor=director,
            order=order,
            received_on=TODAY(),
            sixains=[{**lu_sixain, "serial": "LU-2"}, {**lu_sixain, "serial": "LU-3"}],
        )
    err = refusal.value
    assert err.field == "sixains"
    services.receive(
        actor=director, order=order, received_on=TODAY(), sixains=[{**lu_sixain, "serial": "LU-2"}]
    )
    with assert_refused("SIXAIN_COMPOSITION", article="LU art. 32"):
        services.receive(
            actor=director,
            order=order,
            received_on=TODAY(),
            sixains=[{"serial": "LU-9", "decks": [{"back_colour": "bleu"}] * 6}],
        )


# -- the key and the cabinet --------------------------------------------------------------


def test_key_handover_records_giver_and_receiver(director: Any, committee: Any, key: Any) -> None:
    assert services.current_key_holder() == director
    handover = services.hand_over_key(actor=director, receiver=committee, reason="Congés")
    assert handover.giver == director and handover.receiver == committee
    assert services.current_key_holder() == committee
    assert '"giver":"u_directeur"' in last_event("depot.key_handed_over").payload


def test_key_only_to_management_and_only_by_its_holder(
    users: dict[str, Any], director: Any, committee: Any, key: Any
) -> None:
    with assert_refused("KEY_HOLDER_ROLE", article="FR art. 39") as refusal:
        services.hand_over_key(actor=director, receiver=users["chef_de_table"])
    err = refusal.value
    assert err.field == "receiver"
    with assert_refused("NOT_KEY_HOLDER", article="FR art. 39"):
        services.hand_over_key(actor=committee, receiver=committee)
    assert services.current_key_holder() == director


def test_inspection_demanded_by_an_officer(director: Any, officer: Any, committee: Any, key: Any) -> None:
    opening = services.open_for_inspection(actor=director, demanded_by=officer, note="Contrôle inopiné")
    assert opening.purpose == "inspection" and opening.demanded_by == officer
    with assert_refused("INSPECTION_BY_OFFICER", article="FR art. 39"):
        services.open_for_inspection(actor=director, demanded_by=committee)
    with assert_refused("NOT_KEY_HOLDER", article="FR art. 39"):
        services.open_for_inspection(actor=committee, demanded_by=officer)


# -- decks at the tables -----------------------------------------------------------------


def issue(director: Any, decks: list[Deck], table: int = 1) -> Any:
    return services.issue_decks(actor=director, table_number=table, day=TODAY(), decks=decks)


def unseal(croupier: Any, deck: Deck, table: int = 1, **kw: Any) -> Any:
    args = dict(
        actor=croupier,
        deck=deck,
        table_number=table,
        day=TODAY(),
        witness="M. Durand",
        order_checked=True,
        cards_counted=52,
        band_intact=True,
        video_reference="CAM3-2026-001",
    )
    args.update(kw)
    return services.check_at_table(**args)


def test_issue_unseal_and_return(director: Any, croupier: Any, decks: list[Deck]) -> None:
    from cards_registry.selectors import decks_issued_to

    issued = issue(director, decks[:6])
    assert set(decks_issued_to(table_number=1, day=TODAY())) == set(decks[:6])
    assert not decks_issued_to(table_number=2, day=TODAY()).exists()
    assert issued.opening.purpose == "issue"
    check = unseal(croupier, decks[0])
    assert check.new_deck and check.video_reference
    deck = Deck.objects.get(pk=decks[0].pk)
    assert deck.status == DeckStatus.IN_PLAY and deck.unsealed_at is not None
    returned = services.return_decks(
        actor=director,
        table_number=1,
        day=TODAY(),
        results=[(d, "fit", "", 52) for d in decks[:5]] + [(decks[5], "worn", "coins usés", 52)],
    )
    assert returned.lines.count() == 6
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET
    assert Deck.objects.get(pk=decks[5].pk).status == DeckStatus.OUT_OF_USE
    assert not decks_issued_to(table_number=1, day=TODAY()).exists()
    # used deck issued again: checked, not unsealed
    issue(director, [decks[0]], table=2)
    again = unseal(croupier, decks[0], table=2, band_intact=None, video_reference="")
    assert not again.new_deck


def test_issue_refusals(director: Any, committee: Any, decks: list[Deck]) -> None:
    with assert_refused("ISSUE_DAY", article="FR art. 40"):
        services.issue_decks(
            actor=director, table_number=1, day=TODAY() - dt.timedelta(days=5), decks=decks[:1]
        )
    with assert_refused("NOT_KEY_HOLDER", article="FR art. 39"):
        services.issue_decks(actor=committee, table_number=1, day=TODAY(), decks=decks[:1])
    issue(director, decks[:1])
    with assert_refused("ILLEGAL_TRANSITION", article="FR art. 40"):
        services.issue_decks(actor=director, table_number=2, day=TODAY(), decks=decks[:1])


def test_unsealing_refusals(director: Any, croupier: Any, decks: list[Deck]) -> None:
    with assert_refused("DECK_NOT_AT_TABLE", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0])
    issue(director, decks[:3])
    with assert_refused("DECK_NOT_AT_TABLE", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0], table=3)
    with assert_refused("VIDEO_REQUIRED", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0], video_reference="")
    with assert_refused("ORDER_NOT_CHECKED", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0], order_checked=False)
    with assert_refused("WITNESS_REQUIRED", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0], witness=" ")
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.ISSUED
    # what the check finds is refused and quarantines the deck (its incident opened)
    with assert_refused("BAND_NOT_INTACT", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[1], band_intact=False)
    with assert_refused("CARD_COUNT", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[2], cards_counted=51)
    assert {Deck.objects.get(pk=d.pk).status for d in decks[1:3]} == {DeckStatus.QUARANTINED}


def test_lu_unsealing_needs_no_video(director: Any, croupier: Any, decks: list[Deck]) -> None:
    to_lu(director)
    issue(director, decks[:1])
    assert unseal(croupier, decks[0], video_reference="").new_deck


def test_return_refusals(director: Any, decks: list[Deck]) -> None:
    with assert_refused("DECK_NOT_AT_TABLE", article="FR art. 40"):
        services.return_decks(
            actor=director, table_number=1, day=TODAY(), results=[(decks[0], "fit", "", 52)]
        )
    issue(director, decks[:1])
    with assert_refused("ORDER_NOT_RESTORED", article="FR art. 40"):
        services.return_decks(
            actor=director,
            table_number=1,
            day=TODAY(),
            results=[(decks[0], "fit", "", 52)],
            order_restored=False,
        )


# -- incidents -------------------------------------------------------------------------------


def report(actor: Any, officer: Any, decks: list[Deck], **kw: Any) -> Any:
    now = timezone.now()
    args = dict(
        actor=actor,
        kind="missing",
        occurred_at=now - dt.timedelta(minutes=5),
        day=TODAY(),
        decks=decks,
        officer_informed=officer,
        officer_informed_at=now - dt.timedelta(minutes=4),
        circumstances="Le huit de pique manque au comptage de fin de sabot.",
        table_number=1,
        shoe_reference="SABOT-3",
    )
    args.update(kw)
    return services.report_incident(**args)


def test_incident_quarantines_until_the_officer_closes_it(
    director: Any, croupier: Any, officer: Any, decks: list[Deck]
) -> None:
    from cards_registry.selectors import decks_issued_to

    issue(director, decks[:6])
    incident = report(croupier, officer, decks[:2])
    assert incident.number == 1
    assert {d.status for d in Deck.objects.filter(pk__in=[decks[0].pk, decks[1].pk])} == {
        DeckStatus.QUARANTINED
    }
    assert decks[0] not in set(decks_issued_to(table_number=1, day=TODAY()))
    with assert_refused("DECK_QUARANTINED", article="FR art. 40"):
        services.issue_decks(actor=director, table_number=2, day=TODAY(), decks=decks[:1])
    with assert_refused("DECK_QUARANTINED", article="FR art. 40"):
        services.destroy_decks(
            actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
        )
    # back to the cabinet from the table, still quarantined
    services.return_decks(
        actor=director,
        table_number=1,
        day=TODAY(),
        results=[(decks[0], "fit", "", 52), (decks[1], "fit", "", 52)],
    )
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.QUARANTINED
    assert decks[0].issue_lines.get().return_line.result == "quarantined"
    closure = services.close_incident(
        actor=officer, incident=incident, finding="Carte retrouvée sous la table", decks_fit=[decks[0]]
    )
    assert closure.officer == officer
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET
    assert Deck.objects.get(pk=decks[1].pk).status == DeckStatus.OUT_OF_USE
    assert last_event("depot.incident_closed").object_id == str(incident.pk)
    from cards_registry.selectors import deck_history

    whats = [line.what for line in deck_history(decks[0])]
    assert any("consigné, jusqu'à la clôture" in w for w in whats)
    assert not any(w.startswith("Mis hors d'usage") for w in whats)
    assert "jeu rendu à l'usage" in whats[-1]
    with assert_refused("INCIDENT_CLOSED", article="FR art. 40"):
        services.close_incident(actor=officer, incident=incident, finding="x")


@pytest.mark.parametrize("role", ["directeur", "comite_direction", "chef_de_table"])
def test_incident_closure_by_anyone_but_an_officer_is_refused(
    users: dict[str, Any], director: Any, officer: Any, decks: list[Deck], role: str
) -> None:
    incident = report(director, officer, decks[:1])
    with assert_refused("CLOSURE_OFFICER_ONLY", article="FR art. 40") as refusal:
        services.close_incident(actor=users[role], incident=incident, finding="Vu")
    err = refusal.value
    assert err.field == "officer"
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.QUARANTINED


def test_incident_without_the_officer_or_his_time_is_refused(
    director: Any, officer: Any, committee: Any, decks: list[Deck]
) -> None:
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40") as refusal:
        report(actor=director, officer=None, decks=decks[:1])
    err = refusal.value
    assert err.field == "officer_informed"
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40") as refusal:
        report(actor=director, officer=officer, decks=decks[:1], officer_informed_at=None)
    err = refusal.value
    assert err.field == "officer_informed_at"
    with assert_refused("OFFICER_NOT_TOLD", article="FR art. 40"):
        report(actor=director, officer=committee, decks=decks[:1])
    with assert_refused("OFFICER_TOLD_BEFORE", article="FR art. 40"):
        report(
            actor=director,
            officer=officer,
            decks=decks[:1],
            officer_informed_at=timezone.now() - dt.timedelta(hours=1),
        )
    with assert_refused("CIRCUMSTANCES_REQUIRED", article="FR art. 40"):
        report(actor=director, officer=officer, decks=decks[:1], circumstances="")
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET


# -- destruction --------------------------------------------------------------------------


def out_of_use(director: Any, decks: list[Deck]) -> None:
    """Decks returned marked: the incident opened at the return is closed by the officer, decks unfit."""
    from cards_registry.models import Incident

    issue(director, decks)
    services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(d, "marked", "", 52) for d in decks]
    )
    officer = get_user_model().objects.filter(groups__name=roles.OFFICER).order_by("pk").first()
    for incident in Incident.objects.filter(decks__in=decks, closure__isnull=True).distinct():
        services.close_incident(actor=officer, incident=incident, finding="Marquage confirmé")


def test_destruction_in_front_of_the_officer_and_his_visa(
    director: Any, officer: Any, decks: list[Deck]
) -> None:
    out_of_use(director, decks[:2])
    destruction = services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[
            {"deck": d, "complete": True, "unmarked": False, "remark": "marquage au dos"} for d in decks[:2]
        ],
    )
    assert destruction.number == 1 and destruction.lines.count() == 2
    assert {d.status for d in Deck.objects.filter(pk__in=[d.pk for d in decks[:2]])} == {DeckStatus.DESTROYED}
    with assert_refused("VISA_OFFICER_ONLY", article="FR art. 39"):
        services.stamp_destruction(actor=director, destruction=destruction)
    visa = services.stamp_destruction(actor=officer, destruction=destruction)
    assert visa.destruction == destruction
    # a destroyed deck never returns
    with assert_refused("DECK_DESTROYED", article="FR art. 39"):
        services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:1])
    with assert_refused("DECK_DESTROYED", article="FR art. 39"):
        services.destroy_decks(
            actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
        )


def test_destruction_refusals(director: Any, officer: Any, committee: Any, decks: list[Deck]) -> None:
    with assert_refused("ILLEGAL_TRANSITION", article="FR art. 39"):
        services.destroy_decks(
            actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
        )  # still fit, in the cabinet
    out_of_use(director, decks[:1])
    with assert_refused("DESTRUCTION_WITNESS", article="FR art. 39"):
        services.destroy_decks(
            actor=director, officer=committee, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
        )
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.OUT_OF_USE


def test_only_the_witness_stamps_the_destruction(
    director: Any, officer: Any, decks: list[Deck], make_user: Any
) -> None:
    other = make_user("officier2", roles.OFFICER, is_staff=False)
    out_of_use(director, decks[:1])
    destruction = services.destroy_decks(
        actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
    )
    with assert_refused("VISA_NOT_WITNESS", article="FR art. 39"):
        services.stamp_destruction(actor=other, destruction=destruction)


# -- the state machine -------------------------------------------------------------------------


def test_illegal_transitions_are_refused_with_the_article(
    director: Any, croupier: Any, decks: list[Deck]
) -> None:
    # in the cabinet: cannot be put in play without being issued
    with assert_refused("DECK_NOT_AT_TABLE", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0])
    issue(director, decks[:1])
    unseal(croupier, decks[0])
    # in play: cannot be checked again as if issued
    with assert_refused("ILLEGAL_TRANSITION", article="FR art. 40"):
        unseal(croupier=croupier, deck=decks[0])
    from cards_registry.rules import TRANSITIONS, check_transition

    for status in DeckStatus.values:
        for target in DeckStatus.values:
            for act in set(TRANSITIONS.values()):
                deck = Deck(serial="X", status=status)
                if TRANSITIONS.get((status, target)) == act:
                    check_transition(deck, target, act, "FR")
                else:
                    with pytest.raises(RegulationError) as info:
                        check_transition(deck, target, act, "FR")
                    assert info.value.article in {"FR art. 39", "FR art. 40"}


# -- corrections ----------------------------------------------------------------------------------


def test_correction_is_a_new_entry_and_the_old_one_stays(director: Any, reception: Reception) -> None:
    original = reception.delivery_note
    first = services.record_correction(
        actor=director,
        entry=reception,
        field="delivery_note",
        new_value="BL 4412",
        reason="Erreur de copie",
        approval="Approuvé",
    )
    second = services.record_correction(
        actor=director,
        entry=reception,
        field="delivery_note",
        new_value="BL 4413",
        reason="Seconde erreur",
        approval="Approuvé",
    )
    assert (first.old_value, first.new_value) == (original, "BL 4412")
    assert second.old_value == "BL 4412"
    assert Reception.objects.get(pk=reception.pk).delivery_note == original
    assert services.current_value(reception, "delivery_note") == "BL 4413"
    assert Correction.objects.filter(reception=reception).count() == 2
    assert last_event("depot.correction_recorded").object_id == str(second.pk)


def test_correction_refusals(director: Any, committee: Any, reception: Reception) -> None:
    with assert_refused("CORRECTION_BY_DIRECTOR", article="FR art. 68"):
        services.record_correction(
            actor=committee,
            entry=reception,
            field="delivery_note",
            new_value="x",
            reason="y",
            approval="Approuvé",
        )
    with assert_refused("CORRECTION_FIELD", article="FR art. 68"):
        services.record_correction(
            actor=director, entry=reception, field="number", new_value="9", reason="y", approval="Approuvé"
        )
    with assert_refused("CORRECTION_REASON", article="FR art. 68"):
        services.record_correction(
            actor=director,
            entry=reception,
            field="delivery_note",
            new_value="x",
            reason=" ",
            approval="Approuvé",
        )
    with assert_refused("CORRECTION_SAME", article="FR art. 68"):
        services.record_correction(
            actor=director,
            entry=reception,
            field="delivery_note",
            new_value="BL 4411",
            reason="y",
            approval="Approuvé",
        )
    assert not Correction.objects.exists()
