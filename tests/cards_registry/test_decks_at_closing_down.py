"""The closing down of the casino (LU art. 52) finds every deck back in the depot: decks still
out to a table refuse it (DECKS_AT_TABLES); once they are counted back in, it is recorded."""

from __future__ import annotations

from typing import Any

import pytest

from cards_registry import services
from cards_registry.models import Deck
from house_books.models import ClosingDown
from tests.support.builders import assert_refused, books_read_under, closing_down, gaming_day

pytestmark = pytest.mark.django_db


def test_decks_at_the_tables_refuse_the_closing_down(director: Any, decks: list[Deck], casino: Any) -> None:
    books_read_under("LU")
    services.issue_decks(actor=director, table_number=2, day=gaming_day(), decks=decks[:2])
    with assert_refused("DECKS_AT_TABLES", article="LU art. 52", field="disposal", nothing_recorded=True):
        closing_down(director)
    assert not ClosingDown.objects.exists()
    services.return_decks(
        actor=director, table_number=2, day=gaming_day(), results=[(d, "fit", "", 52) for d in decks[:2]]
    )
    closing_down(director)
    assert ClosingDown.objects.count() == 1
