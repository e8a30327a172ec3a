"""Values that do not fit a column are refused by the act, naming the field: never a database error.

Each case was a raw ``IntegrityError`` or ``DataError`` before the acts validated their rows;
nothing is written and no audit event is recorded when they are refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, DepotSettings, Order, Reception, Sixain
from tests.support.builders import assert_refused, books_read_under

from .conftest import sixain_data

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def test_a_negative_most_sixains_is_refused(director: Any, casino: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=4)
    with assert_refused(
        "FIELD_INVALID", article="FR art. 39", field="max_sixains", nothing_recorded=True
    ) as refusal:
        services.set_max_sixains(actor=director, max_sixains=-3)
    error = refusal.value
    assert "0" in error.message
    assert DepotSettings.objects.get(pk=1).max_sixains == 4


def test_a_deck_serial_longer_than_its_column_is_refused(director: Any, sent_order: Order, key: Any) -> None:
    decks = [{"serial": "D" * 65, "back_colour": "bleu"}]
    with assert_refused(
        "FIELD_INVALID", article="FR art. 39", field="decks", nothing_recorded=True
    ) as refusal:
        services.receive(actor=director, order=sent_order, received_on=TODAY(), decks=decks)
    error = refusal.value  # fmt: skip
    assert "64" in error.message
    assert not Reception.objects.exists() and not Deck.objects.exists()


def test_a_back_colour_longer_than_its_column_is_refused(director: Any, sent_order: Order, key: Any) -> None:
    decks = [{"serial": "D-1", "back_colour": "b" * 33}]
    with assert_refused(
        "FIELD_INVALID", article="FR art. 39", field="decks", nothing_recorded=True
    ) as refusal:
        services.receive(actor=director, order=sent_order, received_on=TODAY(), decks=decks)
    error = refusal.value  # fmt: skip
    assert "32" in error.message
    assert not Deck.objects.exists()


def test_a_sixain_serial_longer_than_its_column_is_refused(
    director: Any, sent_order: Order, key: Any
) -> None:
    sixain = sixain_data("A1")
    sixain["serial"] = "S" * 65
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="sixains", nothing_recorded=True):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain])  # fmt: skip
    assert not Sixain.objects.exists() and not Deck.objects.exists()


def test_a_sixain_named_after_a_long_deck_serial_is_refused(
    director: Any, sent_order: Order, key: Any
) -> None:
    """FR: a sixain without serial is named ``S-<first deck>``, which may not fit although the deck does."""
    sixain = sixain_data("A1")
    sixain["serial"] = ""
    sixain["decks"][0]["serial"] = "D" * 64
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="sixains", nothing_recorded=True):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain])  # fmt: skip
    assert not Sixain.objects.exists()


def test_an_order_quantity_beyond_the_column_is_refused(director: Any, maker: Any) -> None:
    lines = [{"quantity": 2**31, "unit": "deck", "back_colour": "bleu"}]
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="lines", nothing_recorded=True):
        services.create_order(actor=director, manufacturer=maker, ordered_on=TODAY(), lines=lines)  # fmt: skip
    assert not Order.objects.exists()


def test_an_order_colour_longer_than_its_column_is_refused(director: Any, maker: Any) -> None:
    lines = [{"quantity": 3, "unit": "deck", "back_colour": "b" * 33}]
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="lines", nothing_recorded=True):
        services.create_order(actor=director, manufacturer=maker, ordered_on=TODAY(), lines=lines)  # fmt: skip
    assert not Order.objects.exists()


def test_long_free_texts_are_refused_naming_their_field(
    director: Any, officer: Any, committee: Any, maker: Any, sent_order: Order, decks: list[Deck]
) -> None:
    long = "x" * 301
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="code", nothing_recorded=True):
        services.register_manufacturer(actor=director, code="C" * 33, name="N", approval_reference="R", ministry="Ministère de l'Intérieur", valid_from=dt.date(2024, 1, 1))  # fmt: skip
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="note", nothing_recorded=True):
        services.create_order(actor=director, manufacturer=maker, ordered_on=TODAY(), note=long, lines=[{"quantity": 3, "unit": "deck", "back_colour": "bleu"}])  # fmt: skip
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="delivery_note", nothing_recorded=True):
        services.receive(actor=director, order=sent_order, received_on=TODAY(), delivery_note=long, decks=[{"serial": "N-1", "back_colour": "bleu"}])  # fmt: skip
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="reason", nothing_recorded=True):
        services.hand_over_key(actor=director, receiver=committee, reason=long)
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="note", nothing_recorded=True):
        services.open_for_inspection(actor=director, demanded_by=officer, note=long)  # fmt: skip
    fresh = services.create_order(
        actor=director, manufacturer=maker, ordered_on=TODAY(),
        lines=[{"quantity": 3, "unit": "deck", "back_colour": "bleu"}],
    )  # fmt: skip
    with assert_refused("FIELD_INVALID", article="FR art. 39", field="remark", nothing_recorded=True):
        services.stamp_order(actor=officer, order=fresh, remark=long)
    with assert_refused("FIELD_INVALID", article="FR art. 40", field="table_number", nothing_recorded=True):
        services.issue_decks(actor=director, table_number=40000, day=TODAY(), decks=decks[:1])  # fmt: skip
    assert Deck.objects.get(pk=decks[0].pk).status == "in_cabinet"


def test_table_and_incident_texts_are_refused_naming_their_field(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=3, day=TODAY(), decks=decks[:2])
    with assert_refused("FIELD_INVALID", article="FR art. 40", field="witness", nothing_recorded=True):
        services.check_at_table(actor=croupier, deck=decks[0], table_number=3, day=TODAY(), witness="w" * 151, order_checked=True, cards_counted=52, band_intact=True, video_reference="V1")  # fmt: skip
    with assert_refused("FIELD_INVALID", article="FR art. 40", field="results", nothing_recorded=True):
        services.return_decks(actor=director, table_number=3, day=TODAY(), results=[(decks[0], "fit", "r" * 301, 52)])  # fmt: skip
    now = timezone.now()
    with assert_refused("FIELD_INVALID", article="FR art. 40", field="shoe_reference", nothing_recorded=True):
        services.report_incident(actor=director, kind="missing", occurred_at=now - dt.timedelta(minutes=2), day=TODAY(), decks=decks[1:2], officer_informed=officer, officer_informed_at=now - dt.timedelta(minutes=1), circumstances="Carte manquante.", shoe_reference="s" * 65)  # fmt: skip
    assert Deck.objects.get(pk=decks[1].pk).status == "issued"


def test_lu_articles_in_validation_refusals(director: Any, sent_order: Order, key: Any) -> None:
    books_read_under("LU")
    with assert_refused("FIELD_INVALID", article="LU art. 6", field="max_sixains", nothing_recorded=True):
        services.set_max_sixains(actor=director, max_sixains=-1, reference="MF/2026/1")
