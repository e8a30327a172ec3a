"""Fixtures of the card depot tests: an approved maker, a sent order, the key, decks in the cabinet."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from cards_registry.models import Deck, Order
from house_books import services as house
from tests.support import builders
from tests.support.builders import books_read_under, gaming_day

COLOURS = builders.COLOURS
sixain_data = builders.sixain


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

    with floor.TABLE_CHECKS.temporarily("tables.in_service", None):
        yield


@pytest.fixture
def approved(
    director: Any, committee: Any, croupier: Any, officer: Any, decks: list[Deck], casino: Any
) -> Any:
    """The depot's decks in the cabinet; then the casino under LU with its book of approvals
    kept: the director, a committee member and the croupier approved two months ago."""
    books_read_under("LU")
    since = gaming_day() - dt.timedelta(days=60)
    for person, function, job in (
        (director, "director", ""),
        (committee, "committee", ""),
        (croupier, "staff", "croupier"),
    ):
        house.record_approval(
            actor=director, person=person, function=function, job=job, approved_on=since, reference="MJ/1"
        )
    return decks
