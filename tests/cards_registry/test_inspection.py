"""The depot's self-inspection checks: clean books pass; each breach, made behind the services'
back where they now refuse it, makes ``inspect_books`` exit 1 naming it and its article."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import (
    Deck,
    DeckStatus,
    DepotSettings,
    Incident,
    IssueLine,
    Order,
    ReturnLine,
    TableIssue,
)
from casino_ops import roles
from tests.support.builders import books_breaches, late_reported_incident
from tests.support.guards import behind_the_guard

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def breaches(capsys: Any, *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = 0
    try:
        call_command("inspect_books", "--json", *args)
    except SystemExit as exit_:
        code = int(exit_.code)
    out = json.loads(capsys.readouterr().out)
    assert {
        "depot.decks_out",
        "depot.incidents_reported",
        "depot.unstamped",
        "depot.sixain_cap",
        "depot.incomplete_returns",
        "depot.deck_states",
    } <= set(out["checks"])
    return books_breaches(code, out["breaches"])


def test_books_kept_by_the_procedure_are_clean(capsys: Any, director: Any, decks: list[Deck]) -> None:
    services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:6])
    assert breaches(capsys) == (0, [])


def test_decks_out_after_their_day(capsys: Any, director: Any, decks: list[Deck]) -> None:
    issue = services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:1])
    with behind_the_guard(TableIssue):
        TableIssue.objects.filter(pk=issue.pk).update(day=TODAY() - dt.timedelta(days=3))
    code, found = breaches(capsys)
    assert code == 1
    [breach] = found
    assert (breach["check"], breach["article"], breach["object"]) == (
        "depot.decks_out",
        "FR art. 40",
        "jeu A1-1 (GRIM)",
    )
    assert breach["url"] == f"/inspection/jeux/{decks[0].pk}/"
    assert breaches(capsys, "--day", str(TODAY() - dt.timedelta(days=3)))[0] == 1


def test_incident_not_reported_or_reported_late(
    capsys: Any, director: Any, officer: Any, decks: list[Deck]
) -> None:
    now = timezone.now()
    late_reported_incident(director, officer, decks[0], TODAY())
    incident = services.report_incident_from_replay(
        code="INVALID_CARD", table_number=1, day=TODAY(), shoe_reference="S1", decks=decks[1:2], detail="ZZ"
    )
    with behind_the_guard(Incident):
        Incident.objects.filter(pk=incident.pk).update(occurred_at=now - dt.timedelta(hours=2))
    code, found = breaches(capsys)
    assert code == 1
    assert [(b["check"], b["article"], b["object"]) for b in found] == [
        ("depot.incidents_reported", "FR art. 40", "incident n° 1"),
        ("depot.incidents_reported", "FR art. 40", "incident n° 2"),
    ]
    assert "3 j" in found[0]["detail"] and "jamais signalé" in found[1]["detail"]


def test_unstamped_entries_older_than_the_delay(
    capsys: Any, sent_order: Order, director: Any, maker: Any
) -> None:
    order = services.create_order(
        actor=director,
        manufacturer=maker,
        ordered_on=TODAY(),
        lines=[{"quantity": 1, "unit": "sixain", "back_colour": "bleu"}],
    )
    assert breaches(capsys)[0] == 0
    with behind_the_guard(Order):
        Order.objects.filter(pk=order.pk).update(recorded_at=timezone.now() - dt.timedelta(days=8))
    code, found = breaches(capsys)
    assert code == 1 and [(b["check"], b["article"]) for b in found] == [("depot.unstamped", "FR art. 39")]


def test_sixain_cap_exceeded(capsys: Any, director: Any, decks: list[Deck]) -> None:
    services.set_max_sixains(actor=director, max_sixains=2)
    assert breaches(capsys)[0] == 0
    DepotSettings.objects.filter(pk=1).update(max_sixains=1)
    code, found = breaches(capsys)
    assert (
        code == 1
        and found[0]["check"] == "depot.sixain_cap"
        and "2 sixains détenus pour 1" in found[0]["detail"]
    )


def test_incomplete_return_without_incident(capsys: Any, director: Any, decks: list[Deck]) -> None:
    services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[:1])
    back = services.return_decks(
        actor=director, table_number=1, day=TODAY(), results=[(decks[0], "fit", "", 52)]
    )
    with behind_the_guard(ReturnLine):
        ReturnLine.objects.filter(deck_return=back).update(cards_counted=50)
    code, found = breaches(capsys)
    assert code == 1
    assert [(b["check"], b["article"]) for b in found] == [("depot.incomplete_returns", "FR art. 40")]


def test_deck_states_against_the_books(capsys: Any, director: Any, decks: list[Deck]) -> None:
    Deck.objects.filter(pk=decks[0].pk).update(status=DeckStatus.IN_PLAY)
    Deck.objects.filter(pk=decks[1].pk).update(status=DeckStatus.QUARANTINED)
    issue = services.issue_decks(actor=director, table_number=1, day=TODAY(), decks=decks[2:3])
    other = services.issue_decks(actor=director, table_number=2, day=TODAY(), decks=decks[3:4])
    with behind_the_guard(IssueLine):
        IssueLine.objects.filter(issue=other).update(deck=decks[2])
    Deck.objects.filter(pk=decks[3].pk).update(status=DeckStatus.IN_CABINET)
    assert issue
    code, found = breaches(capsys)
    assert code == 1
    assert sorted((b["object"], b["detail"]) for b in found) == [
        ("jeu A1-1 (GRIM)", "« en jeu » sans remise en cours à une table"),
        ("jeu A1-2 (GRIM)", "consigné sans incident ouvert"),
        ("jeu A1-3 (GRIM)", "remis à 2 tables à la fois"),
    ]


def test_the_nightly_task_records_its_result(director: Any, decks: list[Deck]) -> None:
    from inspection.tasks import inspect_books

    Deck.objects.filter(pk=decks[0].pk).update(status=DeckStatus.IN_PLAY)
    # the deck's state, the same row against the chain (audit.books_bound), and the users' roles
    # held without an act of the book of roles (users_by_role: people.role_without_act, one per
    # role but the officer's)
    assert inspect_books() == 2 + len(roles.ALL_ROLES) - 1
    event = AuditEvent.objects.get(action="inspection.run")
    assert '"depot.deck_states"' in event.payload and '"FR art. 40"' in event.payload


def test_the_beat_runs_it_nightly(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["inspect-books-nightly"]
    assert entry["task"] == "inspection.tasks.inspect_books"


def test_an_order_book_counter_moved_forward_is_a_numbering_breach(
    capsys: Any, director: Any, decks: list[Deck]
) -> None:
    from django.db import connection

    assert breaches(capsys) == (0, [])
    with connection.cursor() as cursor:
        cursor.execute("UPDATE cards_registry_book SET last_number = last_number + 5 WHERE kind = 'order'")
    code, found = breaches(capsys)
    assert code == 1
    [breach] = found
    assert (breach["check"], breach["article"]) == ("books.numbering", "FR art. 68")
    assert breach["object"].startswith("cards_registry_book pk ")
    assert (
        "its counter last_number says n° 6, the last entry of cards_registry_order in it is n° 1"
        in (breach["detail"])
    )
