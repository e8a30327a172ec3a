"""Fixtures of the card depot tests: an approved maker, a sent order, the key, decks in the cabinet."""

from __future__ import annotations

from typing import Any

import pytest

from cards_registry.models import Deck, Order
from casino_ops import roles
from tests.support import builders

COLOURS = builders.COLOURS
sixain_data = builders.sixain


@pytest.fixture
def committee(users: dict[str, Any]) -> Any:
    return users[roles.COMMITTEE]


@pytest.fixture
def croupier(users: dict[str, Any]) -> Any:
    return users[roles.CROUPIER]


@pytest.fixture
def maker(casino: Any, director: Any) -> Any:
    return builders.approved_maker(director)


@pytest.fixture
def key(director: Any, casino: Any) -> Any:
    """The director holds the cabinet's key."""
    return builders.cabinet_key(director)


def make_sent_order(director: Any, officer: Any, maker: Any, sixains: int = 10) -> Order:
    return builders.sent_order(director, officer, maker, decks_per_colour=sixains * 3)


@pytest.fixture
def sent_order(director: Any, officer: Any, maker: Any) -> Order:
    return make_sent_order(director, officer, maker)


@pytest.fixture
def reception(director: Any, sent_order: Order, key: Any) -> Any:
    """Two sixains (A1-*, A2-*) received into the cabinet."""
    return builders.receive(director, sent_order, prefixes=("A1", "A2"), delivery_note="BL 4411")


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
