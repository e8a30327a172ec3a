"""The depot's admin says what was done with what: decks issued name their table and their
number, and an order reads as in the portal and the registers (its book and number)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from cards_registry.models import Deck, Order

pytestmark = pytest.mark.django_db


def test_decks_issued_name_their_table_and_their_count(director_client: Any, decks: list[Deck]) -> None:
    url = reverse("admin:cards_registry_deck_changelist")
    ids = [d.pk for d in decks[:6]]
    response = director_client.post(
        url,
        {
            "action": "issue",
            "_act": "1",
            "_selected_action": ids,
            "table_number": 4,
            "day": timezone.localdate().isoformat(),
        },
        follow=True,
    )
    shown = [str(m) for m in response.context["messages"]]
    assert shown == ["6 jeux remis à la table 4."], shown


def test_an_order_reads_as_in_the_portal(director_client: Any, sent_order: Order) -> None:
    expected = (
        f"Bon de commande n° {sent_order.book.number}/{sent_order.number} — {sent_order.manufacturer.code}"
    )
    assert str(sent_order) == expected
    page = director_client.get(reverse("admin:cards_registry_order_changelist")).content.decode()
    assert expected in page
