"""``inspect_books`` names the depot's open breaches with their article: an officer's demand to
open the cabinet left unanswered (FR art. 39), an incident the officer never closed (FR art. 40),
decks taken in beyond their order (FR art. 39)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from cards_registry import services
from cards_registry.models import CabinetDemand, Deck, Incident, OrderLine
from tests.support.builders import books_breaches, books_read_under, gaming_day, marked_deck_incident
from tests.support.guards import behind_the_guard

from .conftest import make_sent_order, sixain_data

pytestmark = pytest.mark.django_db

CHECKS = ("depot.demands_unanswered", "depot.incidents_open", "depot.over_delivery")


def named(capsys: Any) -> tuple[int, list[tuple[str, str, str]]]:
    code = 0
    try:
        call_command("inspect_books", "--json")
    except SystemExit as exit_:
        code = int(exit_.code)
    out = json.loads(capsys.readouterr().out)
    assert set(CHECKS) <= set(out["checks"])
    code, kept = books_breaches(code, out["breaches"])
    return code, [(b["check"], b["article"], b["object"]) for b in kept]


def test_a_demand_to_open_the_cabinet_left_unanswered(
    capsys: Any, officer: Any, director: Any, key: Any
) -> None:
    demand = services.demand_opening(actor=officer, reason="Contrôle inopiné")
    assert named(capsys) == (0, [])  # the key holder is on his way
    with behind_the_guard(CabinetDemand):
        CabinetDemand.objects.filter(pk=demand.pk).update(at=timezone.now() - dt.timedelta(hours=2))
    demand.refresh_from_db()
    code, found = named(capsys)
    assert code == 1
    assert found == [
        (
            "depot.demands_unanswered",
            "FR art. 39",
            f"demande d'ouverture du {timezone.localtime(demand.at):%d/%m/%Y %H:%M}",
        )
    ]
    services.open_for_inspection(actor=director, demand=demand)
    assert named(capsys) == (0, [])


def test_an_incident_never_closed(capsys: Any, director: Any, officer: Any, decks: list[Deck]) -> None:
    now = timezone.now()
    incident = marked_deck_incident(director, officer, decks[0])
    assert named(capsys) == (0, [])  # the officer has time to close it
    with behind_the_guard(Incident):
        Incident.objects.filter(pk=incident.pk).update(
            occurred_at=now - dt.timedelta(days=10),
            officer_informed_at=now - dt.timedelta(days=10),
            recorded_at=now - dt.timedelta(days=10),  # told at once, as recorded then
        )
    code, found = named(capsys)
    assert (code, found) == (1, [("depot.incidents_open", "FR art. 40", f"incident n° {incident.number}")])
    services.close_incident(actor=officer, incident=incident, finding="Jeu marqué, hors d'usage.")
    assert named(capsys) == (0, [])


def test_decks_taken_in_beyond_their_order(
    capsys: Any, director: Any, officer: Any, maker: Any, key: Any
) -> None:
    order = make_sent_order(director, officer, maker, sixains=1)  # 3 blue, 3 red
    services.receive(actor=director, order=order, received_on=gaming_day(), sixains=[sixain_data("V1")])
    assert named(capsys) == (0, [])
    with behind_the_guard(OrderLine):  # the order written down afterwards, behind the services
        OrderLine.objects.filter(order=order, back_colour="bleu").update(quantity=2)
    code, found = named(capsys)
    assert (code, found) == (1, [("depot.over_delivery", "FR art. 39", f"bon de commande n° {order.number}")])


def test_under_lu_the_breaches_cite_lu(
    capsys: Any, director: Any, officer: Any, casino: Any, key: Any
) -> None:
    books_read_under("LU")
    demand = services.demand_opening(actor=officer)
    with behind_the_guard(CabinetDemand):
        CabinetDemand.objects.filter(pk=demand.pk).update(at=timezone.now() - dt.timedelta(hours=2))
    code, found = named(capsys)
    assert code == 1 and [(c, a) for c, a, _o in found] == [("depot.demands_unanswered", "LU art. 6")]
