"""The whole verification (audit.verification): the books compared on the connection, or in
a second process in the chain's own snapshot, say exactly what the event-by-event check says."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from audit.books import BookCheck
from audit.chain import seal_pending, verify_chain
from audit.verification import verify
from cards_registry import services as depot
from cards_registry.models import Deck, Reception
from casino_ops import roles
from tables.models import AdvanceEntry
from tests.support.guards import behind_the_guard
from tests.support.tampering import every_book_written


def _event_by_event() -> list[str]:
    check = BookCheck()
    chain = verify_chain(books=check)
    assert chain.chain_ok
    return check.check()


def _tamper(scenario: dict[str, Any]) -> None:
    advance, reception, deck = scenario["advance"], scenario["reception"], scenario["deck"]
    with behind_the_guard(AdvanceEntry, Reception, Deck), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_advanceentry SET amount = 3000 WHERE id = %s", [advance.pk])
        cursor.execute(
            "UPDATE cards_registry_reception SET delivery_note = 'BL 9' WHERE id = %s", [reception.pk]
        )
        cursor.execute(
            "DELETE FROM cards_registry_deck WHERE id = (SELECT max(id) FROM cards_registry_deck d WHERE "
            "NOT EXISTS (SELECT 1 FROM cards_registry_issueline i WHERE i.deck_id = d.id) AND "
            "NOT EXISTS (SELECT 1 FROM tables_shoedeck s WHERE s.deck_id = d.id))"
        )
        cursor.execute(
            "INSERT INTO cards_registry_deck (serial, back_colour, status, manufacturer_id, reception_id, "
            "status_before_quarantine) SELECT 'FAUX-1', back_colour, status, manufacturer_id, reception_id, '' "
            "FROM cards_registry_deck WHERE id <> %s LIMIT 1",
            [deck.pk],
        )


@pytest.mark.django_db
def test_the_books_compared_on_the_connection_say_what_the_event_by_event_check_says(
    users, casino, django_capture_on_commit_callbacks
):
    scenario = every_book_written(users, django_capture_on_commit_callbacks)
    assert verify().book_problems == _event_by_event() == []
    _tamper(scenario)
    problems = verify().book_problems
    assert problems == _event_by_event()
    assert len(problems) == 4, problems
    assert any("field amount" in p and "'3000.00'" in p for p in problems)
    assert any("field delivery_note" in p for p in problems)
    assert any("the row is gone" in p for p in problems)
    assert any("no event of the chain created this row" in p for p in problems)


def _depot(director: Any, officer: Any) -> Reception:
    maker = depot.register_manufacturer(
        actor=director,
        code="GRIM",
        name="Cartes Grimaud",
        approval_reference="Agrément INT-2024-017",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2024, 1, 1),
        valid_until=None,
    )
    depot.hand_over_key(actor=director, receiver=director, reason="Ouverture du dépôt")
    order = depot.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=timezone.localdate(),
        lines=[
            {"quantity": 3, "unit": "deck", "back_colour": "bleu"},
            {"quantity": 3, "unit": "deck", "back_colour": "rouge"},
        ],
    )
    depot.stamp_order(actor=officer, order=order)
    depot.send_order(actor=director, order=order)
    sixains = [
        {
            "serial": "S1",
            "decks": [
                {"serial": f"D-{i}", "back_colour": "bleu" if i <= 3 else "rouge"} for i in range(1, 7)
            ],
        }
    ]
    return depot.receive(actor=director, order=order, received_on=timezone.localdate(), sixains=sixains)


@pytest.mark.django_db(transaction=True)
def test_verify_audit_compares_the_books_in_a_second_process_in_the_chains_snapshot(users, casino, settings):
    reception = _depot(users[roles.DIRECTOR], users[roles.OFFICER])
    outcome = verify(parallel=True)
    assert outcome.ok and outcome.rows_checked > 6
    # a row bound only by an event waiting to be sealed: the waiting events are applied on top
    settings.AUDIT_SEALING = "sealer"
    depot.register_manufacturer(
        actor=users[roles.DIRECTOR],
        code="FOUR",
        name="Cartes Fournier",
        approval_reference="Agrément INT-2025-002",
        ministry="Ministère de l'Intérieur",
        valid_from=dt.date(2025, 1, 1),
        valid_until=None,
    )
    waiting = verify(parallel=True)
    assert waiting.chain.pending == 1 and waiting.book_problems == []
    seal_pending()
    deck = Deck.objects.filter(reception=reception).first()
    with behind_the_guard(Deck), connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_deck SET back_colour = 'vert' WHERE id = %s", [deck.pk])
    parallel = verify(parallel=True)
    assert parallel.book_problems == verify().book_problems == _event_by_event()
    assert len(parallel.book_problems) == 1
    assert f"cards_registry_deck pk {deck.pk} field back_colour" in parallel.book_problems[0]
    assert "found 'vert'" in parallel.book_problems[0]
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit")
    assert exit_info.value.code == 1
