"""How many queries the depot's hottest acts cost (the LU demo checks hundreds of decks at the
tables): a lookup repeated for each person, each book or each call shows here as a count that
grew. The counts are those of the test database, its savepoints included; the rows an event
binds are read back with its insertion in the round trips of the record (not Django's)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from audit.models import AuditEvent
from cards_registry import services
from cards_registry.models import Deck, DeckStatus, TableCheck
from casino_ops import roles
from casino_ops.act_checks import Hook
from house_books.act_checks import approved_people
from tests.support.builders import gaming_day
from tests.support.depot_helpers import issue_today

pytestmark = pytest.mark.django_db


def test_a_check_at_the_table_costs_a_known_number_of_queries(
    approved: list[Deck], director: Any, croupier: Any, django_assert_num_queries: Any
) -> None:
    """The savepoint, the settings, the approvals, the deck locked, its issue line, the check
    written, the deck's new state (its key returned by the UPDATE), the release."""
    issue_today(director, approved[:1], received_by=croupier)
    day = gaming_day()
    with django_assert_num_queries(8):
        check = services.check_at_table(
            actor=croupier,
            deck=approved[0],
            table_number=1,
            day=day,
            witness="Inspecteur de salle",
            order_checked=True,
            cards_counted=52,
            band_intact=True,
        )
    assert check.new_deck and TableCheck.objects.filter(pk=check.pk).exists()
    assert Deck.objects.get(pk=approved[0].pk).status == DeckStatus.IN_PLAY
    event = AuditEvent.objects.order_by("-id").first()
    assert event is not None and event.action == "depot.deck_checked"
    rows = {(table, pk) for table, pk, _values in json.loads(event.payload)["rows"]}
    assert rows == {("cards_registry_deck", approved[0].pk), ("cards_registry_tablecheck", check.pk)}


def test_the_approvals_of_every_person_of_an_act_are_read_in_one_query(
    approved: list[Deck], director: Any, committee: Any, croupier: Any, django_assert_num_queries: Any
) -> None:
    day = gaming_day()
    for person in (director, committee, croupier):
        roles.roles_of(person)  # read once per user instance, to tell an officer (not approved)
    with django_assert_num_queries(1):
        approved_people(
            act=Hook.DEPOT_ISSUE,
            day=day,
            profile="LU",
            people={"actor": director, "received_by": croupier, "witness": committee},
        )


def test_no_query_for_approvals_when_no_one_signs(
    approved: list[Deck], django_assert_num_queries: Any
) -> None:
    day = gaming_day()
    with django_assert_num_queries(0):
        approved_people(act=Hook.DEPOT_ISSUE, day=day, profile="LU", people={"actor": None})
