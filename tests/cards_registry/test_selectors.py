"""The depot's reads: decks at a table, a deck's life, and the books for the printed registers."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cards_registry import history, selectors, services
from cards_registry.history import HistoryLine
from cards_registry.models import Deck
from tests.support.builders import gaming_day

from .conftest import sixain_data

pytestmark = pytest.mark.django_db


def walk_books(day: dt.date) -> int:
    """Read every field a printed register prints; return the number of queries it took."""
    with CaptureQueriesContext(connection) as ctx:
        for r in selectors.receipt_book(day, day):
            _ = (
                r.book.number,
                r.order.number,
                r.order.book.number,
                r.manufacturer.name,
                r.recorded_by.username,
            )
            visa = getattr(r, "visa", None)
            _ = visa.officer.username if visa else None
            _ = [(d.serial, d.back_colour) for d in r.decks.all()] + [s.serial for s in r.sixains.all()]
            _ = [(c.field, c.approved_by.username) for c in r.corrections.all()]
        for o in selectors.order_book(day, day):
            _ = (o.book.number, o.manufacturer.name, getattr(o, "visa", None) and o.visa.officer.username)
            _ = [line.decks for line in o.lines.all()] + [x.number for x in o.receptions.all()]
            _ = list(o.corrections.all())
        for i in selectors.incidents(day, day):
            _ = (
                i.officer_informed.username,
                i.reported_by.username,
                [d.manufacturer.code for d in i.decks.all()],
            )
            closure = getattr(i, "closure", None)
            _ = closure and (closure.officer.username, list(closure.decks_fit.all()))
        for d in selectors.destructions(day, day):
            _ = (d.officer.username, getattr(d, "visa", None) and d.visa.officer.username)
            _ = [(line.deck.serial, line.deck.manufacturer.code, line.complete) for line in d.lines.all()]
        for entry in selectors.depot_log(day, day):
            _ = (entry.who and entry.who.username, entry.demanded_by and entry.demanded_by.username)
    return len(ctx.captured_queries)


def one_round(director: Any, officer: Any, order: Any, prefix: str) -> None:
    day = timezone.localdate()
    reception = services.receive(actor=director, order=order, received_on=day, sixains=[sixain_data(prefix)])
    services.stamp_reception(actor=officer, reception=reception)
    services.record_correction(
        actor=director,
        entry=reception,
        field="delivery_note",
        new_value=prefix,
        reason="r",
        approval="Approuvé",
    )
    decks = list(reception.decks.order_by("serial"))
    services.issue_decks(actor=director, table_number=1, day=day, decks=decks)
    services.return_decks(
        actor=director,
        table_number=1,
        day=day,
        results=[(decks[0], "worn", "", 52)] + [(d, "fit", "", 52) for d in decks[1:]],
    )
    now = timezone.now()
    incident = services.report_incident(
        actor=director,
        kind="foreign",
        occurred_at=now - dt.timedelta(minutes=1),
        day=day,
        decks=[decks[1]],
        officer_informed=officer,
        officer_informed_at=now,
        circumstances="Carte étrangère",
        table_number=1,
    )
    services.close_incident(actor=officer, incident=incident, finding="Vu", decks_fit=[])
    destruction = services.destroy_decks(
        actor=director,
        officer=officer,
        checks=[{"deck": d, "complete": True, "unmarked": True} for d in decks[:2]],
    )
    services.stamp_destruction(actor=officer, destruction=destruction)


def test_books_do_not_grow_in_queries(director: Any, officer: Any, sent_order: Any, key: Any) -> None:
    day = timezone.localdate()
    one_round(director, officer, sent_order, "R1")
    small = walk_books(day)
    for n in range(2, 6):
        one_round(director, officer, sent_order, f"R{n}")
    assert walk_books(day) == small
    assert selectors.receipt_book(day, day).count() == 5
    assert [i.number for i in selectors.incidents(day, day)] == [1, 2, 3, 4, 5]
    log = selectors.depot_log(day, day)
    assert log[0].kind == "key" and {e.purpose for e in log} >= {"prise en charge", "destruction"}
    assert [e.at for e in log] == sorted(e.at for e in log)


def test_books_carry_visas_and_corrections(director: Any, officer: Any, sent_order: Any, key: Any) -> None:
    day = timezone.localdate()
    one_round(director, officer, sent_order, "V1")
    [reception] = selectors.receipt_book(day, day)
    assert reception.visa.officer == officer
    assert [c.new_value for c in reception.corrections.all()] == ["V1"]
    [order] = selectors.order_book(day, day)
    assert order.visa.officer == officer and [r.number for r in order.receptions.all()] == [1]
    [destruction] = selectors.destructions(day, day)
    assert destruction.visa.officer == officer and destruction.lines.count() == 2
    assert not selectors.receipt_book(day - dt.timedelta(days=3), day - dt.timedelta(days=1)).exists()
    with pytest.raises(ValueError):
        selectors.receipt_book(day, day - dt.timedelta(days=1))


def test_deck_history_in_order_with_audit_numbers(
    director: Any, officer: Any, croupier: Any, decks: list[Deck]
) -> None:
    day = gaming_day()
    deck = decks[0]
    services.issue_decks(actor=director, table_number=3, day=day, decks=[deck])
    services.check_at_table(
        actor=croupier,
        deck=deck,
        table_number=3,
        day=day,
        witness="Témoin",
        order_checked=True,
        cards_counted=52,
        band_intact=True,
        video_reference="V-1",
    )
    services.return_decks(actor=director, table_number=3, day=day, results=[(deck, "worn", "", 52)])
    destruction = services.destroy_decks(
        actor=director, officer=officer, checks=[{"deck": deck, "complete": True, "unmarked": True}]
    )
    services.stamp_destruction(actor=officer, destruction=destruction)
    lines = selectors.deck_history(deck)
    words = [line.what.split(" ")[0] for line in lines]
    # the order's visa and its sending (FR art. 39) stand between the order and the reception
    assert words == [
        "Commandé",
        "Bon",
        "Bon",
        "Pris",
        "Remis",
        "Descellé",
        "Rendu",
        "Mis",
        "Détruit",
        "Destruction",
    ]
    seqs = [line.audit_seq for line in lines]
    assert all(seqs) and seqs == sorted(seqs)
    assert "visé" in lines[1].what and "envoyé" in lines[2].what
    assert "table 3" in lines[4].what


def test_history_providers_are_merged_in_time_order(decks: list[Deck]) -> None:
    deck = decks[0]
    marker = HistoryLine(
        at=timezone.now() + dt.timedelta(hours=1), what="Sabot n° 7, table 1", audit_seq=None
    )

    def provider(d: Deck) -> list[HistoryLine]:
        return [marker] if d.pk == deck.pk else []

    with history.PROVIDERS.temporarily("test.provider", provider):
        assert selectors.deck_history(deck)[-1] == marker
        assert marker not in selectors.deck_history(decks[1])


def test_find_deck(decks: list[Deck]) -> None:
    assert selectors.find_deck("A1-1") == [decks[0]]
    assert selectors.find_deck("A1-1", "NOPE") == []
