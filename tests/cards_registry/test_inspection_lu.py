"""The depot's checks under the Luxembourg règlement: each breach planted as in its FR test
(test_inspection.py, test_inspection_open_breaches.py), the books then read under LU, and
``inspect_books`` names it with its LU article (LU art. 6, 7)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, Incident, Order, ReturnLine, TableIssue
from tests.support.builders import books_read_under, gaming_day, late_reported_incident, marked_deck_incident
from tests.support.guards import behind_the_guard
from tests.support.self_inspection import breaches_of
from tests.support.tampering import load_a_forged_table

pytestmark = pytest.mark.django_db


def _named_under_lu(check: str) -> list[tuple[str, str]]:
    books_read_under("LU")
    return [(b.article, b.object) for b in breaches_of(check)]


def test_lu_decks_out_after_their_day(director: Any, decks: list[Deck]) -> None:
    issue = services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    with behind_the_guard(TableIssue):
        TableIssue.objects.filter(pk=issue.pk).update(day=gaming_day() - dt.timedelta(days=3))
    assert _named_under_lu("depot.decks_out") == [("LU art. 7", "jeu A1-1 (GRIM)")]


def test_lu_an_incident_reported_late(director: Any, officer: Any, decks: list[Deck]) -> None:
    late_reported_incident(director, officer, decks[0], gaming_day())
    assert _named_under_lu("depot.incidents_reported") == [("LU art. 7", "incident n° 1")]


def test_lu_an_incident_never_closed(director: Any, officer: Any, decks: list[Deck]) -> None:
    now = timezone.now()
    incident = marked_deck_incident(director, officer, decks[0])
    with behind_the_guard(Incident):
        Incident.objects.filter(pk=incident.pk).update(
            occurred_at=now - dt.timedelta(days=10),
            officer_informed_at=now - dt.timedelta(days=10),
            recorded_at=now - dt.timedelta(days=10),
        )
    assert _named_under_lu("depot.incidents_open") == [("LU art. 7", f"incident n° {incident.number}")]


def test_lu_an_order_left_unstamped(sent_order: Order, director: Any, maker: Any) -> None:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=gaming_day(),
        lines=[{"quantity": 1, "unit": "sixain", "back_colour": "bleu"}],
    )
    with behind_the_guard(Order):
        Order.objects.filter(pk=order.pk).update(recorded_at=timezone.now() - dt.timedelta(days=8))
    assert _named_under_lu("depot.unstamped") == [("LU art. 6", f"bon de commande n° {order.number}")]


def test_lu_an_incomplete_return_without_incident(director: Any, decks: list[Deck]) -> None:
    services.issue_decks(actor=director, table_number=1, day=gaming_day(), decks=decks[:1])
    back = services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "fit", "", 52)]
    )
    with behind_the_guard(ReturnLine):
        ReturnLine.objects.filter(deck_return=back).update(cards_counted=50)
    assert _named_under_lu("depot.incomplete_returns") == [("LU art. 7", "jeu A1-1 (GRIM)")]


def test_lu_a_decks_state_written_behind_the_services(director: Any, decks: list[Deck]) -> None:
    from cards_registry.models import DeckStatus

    assert not _named_under_lu("depot.deck_states")
    with behind_the_guard(Deck):
        Deck.objects.filter(pk=decks[0].pk).update(status=DeckStatus.IN_PLAY)
    assert _named_under_lu("depot.deck_states") == [("LU art. 7", "jeu A1-1 (GRIM)")]


def test_lu_decks_taken_in_beyond_their_order(director: Any, officer: Any, maker: Any, key: Any) -> None:
    from cards_registry.models import OrderLine

    from .conftest import make_sent_order, sixain_data

    order = make_sent_order(director, officer, maker, sixains=1)  # 3 blue, 3 red
    services.receive(actor=director, order=order, received_on=gaming_day(), sixains=[sixain_data("V1")])
    assert not _named_under_lu("depot.over_delivery")
    with behind_the_guard(OrderLine):  # the order written down afterwards, behind the services
        OrderLine.objects.filter(order=order, back_colour="bleu").update(quantity=2)
    assert _named_under_lu("depot.over_delivery") == [("LU art. 6", f"bon de commande n° {order.number}")]


def test_lu_an_order_book_counter_moved_forward_is_a_numbering_breach(
    director: Any, decks: list[Deck]
) -> None:
    from django.db import connection

    assert not _named_under_lu("books.numbering")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_book SET last_number = last_number + 5 WHERE kind = 'order'")
    [(article, name)] = _named_under_lu("books.numbering")
    assert article == "LU art. 10" and name.startswith("cards_registry_book pk ")


def test_lu_a_book_row_loaded_by_loaddata_is_named(director: Any, casino: Any, tmp_path: Any) -> None:
    from django.db import connection

    from tables.services import create_table

    books_read_under("LU")
    with connection.cursor() as cursor:  # the act's row takes key 99, the forged row's of old
        cursor.execute("SELECT setval(pg_get_serial_sequence('tables_table', 'id'), 98)")
    create_table(actor=director, number=3, code="BJ03")  # the act binds the row read under LU
    assert not breaches_of("audit.books_bound")
    load_a_forged_table(tmp_path)
    found = breaches_of("audit.books_bound")
    assert [(b.article, "no event of the chain created this row" in b.detail) for b in found] == [
        ("LU art. 10", True)
    ]
