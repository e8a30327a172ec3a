"""Fixtures of the card depot tests: an approved maker, a sent order, the key, decks in the cabinet."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, Order
from casino_ops import roles

COLOURS = ("bleu", "rouge")


def sixain_data(prefix: str, colours: tuple[str, str] = COLOURS) -> dict[str, Any]:
    """A sixain of six decks, three and three, with serials ``<prefix>-1`` … ``<prefix>-6``."""
    return {
        "serial": f"S{prefix}",
        "decks": [
            {"serial": f"{prefix}-{i}", "back_colour": colours[0] if i <= 3 else colours[1]}
            for i in range(1, 7)
        ],
    }


@pytest.fixture
def committee(users: dict[str, Any]) -> Any:
    return users[roles.COMMITTEE]


@pytest.fixture
def croupier(users: dict[str, Any]) -> Any:
    return users[roles.CROUPIER]


@pytest.fixture
def maker(casino: Any, director: Any) -> Any:
    return services.register_manufacturer(
        actor=director,
        code="GRIM",
        name="Cartes Grimaud",
        approval_reference="Agrément INT-2024-017",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2024, 1, 1),
        valid_until=None,
    )


@pytest.fixture
def key(director: Any, casino: Any) -> Any:
    """The director holds the cabinet's key."""
    return services.hand_over_key(actor=director, receiver=director, reason="Ouverture du dépôt")


def make_sent_order(director: Any, officer: Any, maker: Any, sixains: int = 10) -> Order:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=timezone.localdate(),
        lines=[
            {"quantity": sixains * 3, "unit": "deck", "back_colour": "bleu"},
            {"quantity": sixains * 3, "unit": "deck", "back_colour": "rouge"},
        ],
    )
    services.stamp_order(actor=officer, order=order)
    return services.send_order(actor=director, order=order)


@pytest.fixture
def sent_order(director: Any, officer: Any, maker: Any) -> Order:
    return make_sent_order(director, officer, maker)


@pytest.fixture
def reception(director: Any, sent_order: Order, key: Any) -> Any:
    """Two sixains (A1-*, A2-*) received into the cabinet."""
    return services.receive(
        actor=director,
        order=sent_order,
        received_on=timezone.localdate(),
        sixains=[sixain_data("A1"), sixain_data("A2")],
        delivery_note="BL 4411",
    )


@pytest.fixture
def decks(reception: Any) -> list[Deck]:
    return list(Deck.objects.filter(reception=reception).order_by("serial"))


@pytest.fixture(autouse=True)
def depot_alone():
    """The depot's own tests run the depot alone: no table check of the floor registered (any
    table number is accepted); the floor's check (tables.apps) is restored after each test."""
    from cards_registry import floor

    registered = floor._table_check
    floor.register_table_check(None)
    yield
    floor.register_table_check(registered)
