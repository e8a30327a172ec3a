"""Under LU, with the book of approvals kept, whoever signs, counts, witnesses or keeps the key
in a depot act holds an approval in force that day (LU art. 51, 54, 63): key handover,
reception, issue, lock (openings of the cabinet), count at the table, return, destruction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cards_registry import services
from cards_registry.models import Deck, DeckReturn, DeckStatus, KeyHandover, Reception
from house_books import services as house
from house_books.models import Approval
from tests.support.builders import assert_refused, gaming_day
from tests.support.depot_helpers import issue_today

from .conftest import make_sent_order, sixain_data

pytestmark = pytest.mark.django_db

ARTICLE = "LU art. 51, 54, 63"


def revoke(director: Any, person: Any) -> None:
    """The minister revokes ``person``'s approval from yesterday on: every power ends at once."""
    house.end_approval(
        actor=director,
        approval=Approval.objects.get(person=person),
        kind="revoked",
        ended_on=gaming_day() - dt.timedelta(days=1),
        reference="MJ/2026/077",
    )


def count_at_table(croupier: Any, deck: Deck) -> Any:
    return services.check_at_table(
        actor=croupier,
        deck=deck,
        table_number=1,
        day=gaming_day(),
        witness="Inspecteur de salle",
        order_checked=True,
        cards_counted=52,
        band_intact=True,
    )


def test_an_approved_staff_does_every_depot_act(
    approved: list[Deck], director: Any, committee: Any, croupier: Any, officer: Any
) -> None:
    decks = approved
    issue_today(director, decks[:1], received_by=croupier)
    count_at_table(croupier, decks[0])
    services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(decks[0], "worn", "", 52)]
    )
    services.destroy_decks(
        actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
    )
    services.declare_out_of_use(actor=director, decks=decks[1:2], reason="Usés")
    services.open_for_inspection(actor=director, demanded_by=officer)
    services.hand_over_key(actor=director, receiver=committee)
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.DESTROYED


# Each act, the person revoked and the field named in the refusal.
ACTS: dict[str, tuple[str, str, Callable[..., Any]]] = {
    "key handover to a revoked member": (
        "committee",
        "receiver",
        lambda c: services.hand_over_key(actor=c["director"], receiver=c["committee"]),
    ),
    "key handover by a revoked holder": (
        "director",
        "actor",
        lambda c: services.hand_over_key(actor=c["director"], receiver=c["committee"]),
    ),
    "reception": (
        "director",
        "actor",
        lambda c: services.receive(
            actor=c["director"], order=c["order"], received_on=gaming_day(), sixains=[sixain_data("Z1")]
        ),
    ),
    "issue": ("director", "actor", lambda c: issue_today(c["director"], c["decks"][:1])),
    "issue to a revoked croupier": (
        "croupier",
        "received_by",
        lambda c: issue_today(c["director"], c["decks"][:1], received_by=c["croupier"]),
    ),
    "lock: out of use": (
        "director",
        "actor",
        lambda c: services.declare_out_of_use(actor=c["director"], decks=c["decks"][:1], reason="Usé"),
    ),
    "lock: opening for the officer": (
        "director",
        "actor",
        lambda c: services.open_for_inspection(actor=c["director"], demanded_by=c["officer"]),
    ),
}


@pytest.mark.parametrize("act", list(ACTS))
def test_a_revoked_person_is_refused(
    act: str,
    approved: list[Deck],
    director: Any,
    committee: Any,
    croupier: Any,
    officer: Any,
    maker: Any,
) -> None:
    who, field, run = ACTS[act]
    people = {"director": director, "committee": committee, "croupier": croupier}
    context = {**people, "officer": officer, "maker": maker, "decks": approved}
    handovers, receptions = KeyHandover.objects.count(), Reception.objects.count()
    if act == "reception":
        context["order"] = make_sent_order(director, officer, maker, sixains=1)
    revoke(director, people[who])
    with assert_refused("NOT_APPROVED", article=ARTICLE, field=field, nothing_recorded=True):
        run(context)
    assert (KeyHandover.objects.count(), Reception.objects.count()) == (handovers, receptions)
    assert {d.status for d in Deck.objects.filter(pk__in=[d.pk for d in approved])} == {DeckStatus.IN_CABINET}


def test_a_revoked_croupier_does_not_count_at_the_table(
    approved: list[Deck], director: Any, croupier: Any
) -> None:
    issue_today(director, approved[:1])
    revoke(director, croupier)
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
        count_at_table(croupier, approved[0])
    assert Deck.objects.get(pk=approved[0].pk).status == DeckStatus.ISSUED


def test_a_revoked_holder_neither_takes_back_nor_destroys(
    approved: list[Deck], director: Any, officer: Any
) -> None:
    issue_today(director, approved[:2])
    services.return_decks(
        actor=director, table_number=1, day=gaming_day(), results=[(approved[0], "worn", "", 52)]
    )
    revoke(director, director)
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
        services.return_decks(
            actor=director, table_number=1, day=gaming_day(), results=[(approved[1], "fit", "", 52)]
        )
    with assert_refused("NOT_APPROVED", article=ARTICLE, field="actor", nothing_recorded=True):
        services.destroy_decks(
            actor=director,
            officer=officer,
            checks=[{"deck": approved[0], "complete": True, "unmarked": True}],
        )
    assert DeckReturn.objects.count() == 1


def test_the_admin_and_the_api_refuse_a_revoked_holder(approved: list[Deck], director: Any) -> None:
    issue_today(director, approved[:1])
    revoke(director, director)
    client = Client()
    client.force_login(director)
    response = client.post(
        "/api/depot/returns/",
        {
            "table_number": 1,
            "day": str(gaming_day()),
            "results": [{"deck": approved[0].serial, "result": "fit", "cards_counted": 52}],
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["article"]) == ("NOT_APPROVED", ARTICLE)
    page = client.post(
        reverse("admin:cards_registry_deckreturn_add"),
        {
            "table_number": 1,
            "day": gaming_day().isoformat(),
            "deck_1": approved[0].serial,
            "result_1": "fit",
            "cards_1": "52",
        },
    )
    assert page.status_code == 200 and ARTICLE in page.content.decode()
    assert not DeckReturn.objects.exists()
