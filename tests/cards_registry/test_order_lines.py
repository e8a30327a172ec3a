"""An order's line reads as a director writes it: "6 jeux bleu", "1 sixain rouge"."""

from __future__ import annotations

from django.utils import translation

from cards_registry.models import OrderLine, Unit


def test_an_order_line_agrees_its_unit_with_the_quantity():
    assert str(OrderLine(quantity=6, unit=Unit.DECK, back_colour="bleu")) == "6 jeux bleu"
    assert str(OrderLine(quantity=1, unit=Unit.DECK, back_colour="bleu")) == "1 jeu bleu"
    assert str(OrderLine(quantity=2, unit=Unit.SIXAIN, back_colour="rouge")) == "2 sixains rouge"
    with translation.override("en"):
        assert str(OrderLine(quantity=6, unit=Unit.DECK, back_colour="blue")) == "6 decks blue"
