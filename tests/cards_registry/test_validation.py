"""Values that do not fit a column are refused by the act, naming the field: never a database error.

Each case was a raw ``IntegrityError`` or ``DataError`` before the acts validated their rows;
nothing is written and no audit event is recorded when they are refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import Deck, DepotSettings, Order, Reception, Sixain
from casino_ops.regulations import RegulationError
from casino_ops.services import update_casino_settings

from .conftest import sixain_data

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def _refused(code: str, article: str, field: str, fn: Any, /, **kwargs: Any) -> RegulationError:
    events = AuditEvent.objects.count()
    with pytest.raises(RegulationError) as info:
        fn(**kwargs)
    assert (info.value.code, info.value.article, info.value.field) == (code, article, field), info.value
    assert AuditEvent.objects.count() == events
    return info.value


def test_a_negative_most_sixains_is_refused(director: Any, casino: Any) -> None:
    services.set_max_sixains(actor=director, max_sixains=4)
    error = _refused(
        "FIELD_INVALID", "FR art. 39", "max_sixains", services.set_max_sixains, actor=director, max_sixains=-3
    )
    assert "0" in error.message
    assert DepotSettings.objects.get(pk=1).max_sixains == 4


def test_a_deck_serial_longer_than_its_column_is_refused(director: Any, sent_order: Order, key: Any) -> None:
    decks = [{"serial": "D" * 65, "back_colour": "bleu"}]
    error = _refused(
        "FIELD_INVALID", "FR art. 39", "decks", services.receive,
        actor=director, order=sent_order, received_on=TODAY(), decks=decks,
    )  # fmt: skip
    assert "64" in error.message
    assert not Reception.objects.exists() and not Deck.objects.exists()


def test_a_back_colour_longer_than_its_column_is_refused(director: Any, sent_order: Order, key: Any) -> None:
    decks = [{"serial": "D-1", "back_colour": "b" * 33}]
    error = _refused(
        "FIELD_INVALID", "FR art. 39", "decks", services.receive,
        actor=director, order=sent_order, received_on=TODAY(), decks=decks,
    )  # fmt: skip
    assert "32" in error.message
    assert not Deck.objects.exists()


def test_a_sixain_serial_longer_than_its_column_is_refused(
    director: Any, sent_order: Order, key: Any
) -> None:
    sixain = sixain_data("A1")
    sixain["serial"] = "S" * 65
    _refused(
        "FIELD_INVALID", "FR art. 39", "sixains", services.receive,
        actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain],
    )  # fmt: skip
    assert not Sixain.objects.exists() and not Deck.objects.exists()


def test_a_sixain_named_after_a_long_deck_serial_is_refused(
    director: Any, sent_order: Order, key: Any
) -> None:
    """FR: a sixain without serial is named ``S-<first deck>``, which may not fit although the deck does."""
    sixain = sixain_data("A1")
    sixain["serial"] = ""
    sixain["decks"][0]["serial"] = "D" * 64
    _refused(
        "FIELD_INVALID", "FR art. 39", "sixains", services.receive,
        actor=director, order=sent_order, received_on=TODAY(), sixains=[sixain],
    )  # fmt: skip
    assert not Sixain.objects.exists()


def test_an_order_quantity_beyond_the_column_is_refused(director: Any, maker: Any) -> None:
    lines = [{"quantity": 2**31, "unit": "deck", "back_colour": "bleu"}]
    _refused(
        "FIELD_INVALID", "FR art. 39", "lines", services.create_order,
        actor=director, manufacturer=maker, ordered_on=TODAY(), lines=lines,
    )  # fmt: skip
    assert not Order.objects.exists()


def test_an_order_colour_longer_than_its_column_is_refused(director: Any, maker: Any) -> None:
    lines = [{"quantity": 3, "unit": "deck", "back_colour": "b" * 33}]
    _refused(
        "FIELD_INVALID", "FR art. 39", "lines", services.create_order,
        actor=director, manufacturer=maker, ordered_on=TODAY(), lines=lines,
    )  # fmt: skip
    assert not Order.objects.exists()


def test_long_free_texts_are_refused_naming_their_field(
    director: Any, officer: Any, committee: Any, maker: Any, sent_order: Order, decks: list[Deck]
) -> None:
    long = "x" * 301
    _refused(
        "FIELD_INVALID", "FR art. 39", "code", services.register_manufacturer,
        actor=director, code="C" * 33, name="N", approval_reference="R", ministry="M",
        valid_from=dt.date(2024, 1, 1),
    )  # fmt: skip
    _refused(
        "FIELD_INVALID", "FR art. 39", "note", services.create_order,
        actor=director, manufacturer=maker, ordered_on=TODAY(), note=long,
        lines=[{"quantity": 3, "unit": "deck", "back_colour": "bleu"}],
    )  # fmt: skip
    _refused(
        "FIELD_INVALID", "FR art. 39", "delivery_note", services.receive,
        actor=director, order=sent_order, received_on=TODAY(), delivery_note=long,
        decks=[{"serial": "N-1", "back_colour": "bleu"}],
    )  # fmt: skip
    _refused(
        "FIELD_INVALID",
        "FR art. 39",
        "reason",
        services.hand_over_key,
        actor=director,
        receiver=committee,
        reason=long,
    )
    _refused(
        "FIELD_INVALID", "FR art. 39", "note", services.open_for_inspection,
        actor=director, demanded_by=officer, note=long,
    )  # fmt: skip
    fresh = services.create_order(
        actor=director, manufacturer=maker, ordered_on=TODAY(),
        lines=[{"quantity": 3, "unit": "deck", "back_colour": "bleu"}],
    )  # fmt: skip
    _refused(
        "FIELD_INVALID", "FR art. 39", "remark", services.stamp_order, actor=officer, order=fresh, remark=long
    )
    _refused(
        "FIELD_INVALID", "FR art. 40", "table_number", services.issue_decks,
        actor=director, table_number=40000, day=TODAY(), decks=decks[:1],
    )  # fmt: skip
    assert Deck.objects.get(pk=decks[0].pk).status == "in_cabinet"


def test_table_and_incident_texts_are_refused_naming_their_field(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    services.issue_decks(actor=director, table_number=3, day=TODAY(), decks=decks[:2])
    _refused(
        "FIELD_INVALID", "FR art. 40", "witness", services.check_at_table,
        actor=croupier, deck=decks[0], table_number=3, day=TODAY(), witness="w" * 151,
        order_checked=True, cards_counted=52, band_intact=True, video_reference="V1",
    )  # fmt: skip
    _refused(
        "FIELD_INVALID", "FR art. 40", "results", services.return_decks,
        actor=director, table_number=3, day=TODAY(), results=[(decks[0], "fit", "r" * 301)],
    )  # fmt: skip
    now = timezone.now()
    _refused(
        "FIELD_INVALID", "FR art. 40", "shoe_reference", services.report_incident,
        actor=director, kind="missing", occurred_at=now - dt.timedelta(minutes=2), day=TODAY(),
        decks=decks[1:2], officer_informed=officer, officer_informed_at=now - dt.timedelta(minutes=1),
        circumstances="Carte manquante.", shoe_reference="s" * 65,
    )  # fmt: skip
    assert Deck.objects.get(pk=decks[1].pk).status == "issued"


def test_lu_articles_in_validation_refusals(director: Any, sent_order: Order, key: Any) -> None:
    update_casino_settings(actor=director, profile="LU")
    _refused(
        "FIELD_INVALID", "LU art. 6", "max_sixains", services.set_max_sixains, actor=director, max_sixains=-1
    )
