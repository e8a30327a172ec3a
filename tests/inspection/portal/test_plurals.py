"""Quantities of the order book read in the plural: "6 jeux", never "6 jeu"."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from cards_registry.models import Order


@pytest.mark.django_db
def test_the_order_book_prints_the_plural_after_a_quantity(officer_client, samples) -> None:
    url = reverse("portal:register", args=["order-book"]) + "?date_from=2026-11-01&date_to=2026-11-30"
    assert Order.objects.count() == 3  # the samples' two, and the one of the séance's shoe (builders.shoe)
    page = officer_client.get(url).content.decode()
    assert "6 jeux dos bleu" in page and "6 jeux dos rouge" in page
    assert "6 jeu dos" not in page


def test_one_deck_one_sixain_several_sixains() -> None:
    from cards_registry.models import Unit
    from inspection.registers.order_book import quantity_of

    with translation.override("fr"):
        assert quantity_of(1, Unit.DECK) == "1 jeu"
        assert quantity_of(6, Unit.DECK) == "6 jeux"
        assert quantity_of(1, Unit.SIXAIN) == "1 sixain"
        assert quantity_of(10, Unit.SIXAIN) == "10 sixains"
    with translation.override("en"):
        assert quantity_of(6, Unit.DECK) == "6 decks"
