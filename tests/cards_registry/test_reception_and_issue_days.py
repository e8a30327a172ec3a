"""Receptions are written the day the decks arrive and never beyond the order (FR art. 39,
LU art. 6); decks are never issued for a day closed in the control register (FR art. 40, 72;
LU art. 7, 10)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from cards_registry import services
from cards_registry.models import Deck, DeckStatus, Order, Reception
from tests.support.builders import assert_refused, gaming_day
from tests.support.clients import signed_in

from .conftest import make_sent_order, sixain_data

pytestmark = pytest.mark.django_db


def days_around() -> tuple[dt.date, dt.date]:
    """The day before the current gaming day (or date) and the day after the current date."""
    today = timezone.localdate()
    return min(today, gaming_day()) - dt.timedelta(days=1), today + dt.timedelta(days=1)


def test_a_reception_is_neither_back_nor_future_dated(director: Any, sent_order: Order, key: Any) -> None:
    before, after = days_around()
    for day in (before, after, dt.date(2025, 1, 1)):
        with assert_refused(
            "RECEPTION_DAY", article="FR art. 39", field="received_on", nothing_recorded=True
        ):
            services.receive(actor=director, order=sent_order, received_on=day, sixains=[sixain_data("R1")])
    assert not Reception.objects.exists()
    services.receive(actor=director, order=sent_order, received_on=gaming_day(), sixains=[sixain_data("R1")])
    services.receive(
        actor=director, order=sent_order, received_on=timezone.localdate(), sixains=[sixain_data("R2")]
    )
    assert Reception.objects.count() == 2


def test_the_admin_refuses_a_back_dated_reception_on_its_field(
    director: Any, sent_order: Order, key: Any
) -> None:
    lines = "\n".join(f"{d['serial']} {d['back_colour']} SX9" for d in sixain_data("B9")["decks"])
    response = signed_in(director).post(
        reverse("admin:cards_registry_reception_add"),
        {"order": sent_order.pk, "received_on": days_around()[0].isoformat(), "decks": lines},
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "FR art. 39" in errors["received_on"][0]
    assert not Reception.objects.exists()


def test_an_over_delivery_is_refused_through_the_admin(
    director: Any, officer: Any, maker: Any, key: Any
) -> None:
    order = make_sent_order(director, officer, maker, sixains=1)  # 3 blue, 3 red
    lines = "\n".join(
        f"{d['serial']} {d['back_colour']} SX{n}" for n in (1, 2) for d in sixain_data(f"O{n}")["decks"]
    )
    response = signed_in(director).post(
        reverse("admin:cards_registry_reception_add"),
        {"order": order.pk, "received_on": timezone.localdate().isoformat(), "decks": lines},
    )
    assert response.status_code == 200
    error = response.context["adminform"].form.errors["decks"][0]
    assert "bon complémentaire" in error and "FR art. 39" in error
    assert not Reception.objects.exists() and not Deck.objects.exists()


def test_under_lu_an_over_delivery_of_sixains_is_refused(
    director: Any, officer: Any, maker: Any, key: Any, casino: Any
) -> None:
    from tests.support.builders import books_read_under

    books_read_under("LU")
    order = make_sent_order(director, officer, maker, sixains=1)
    with assert_refused("OVER_DELIVERY", article="LU art. 6", field="sixains"):
        services.receive(
            actor=director,
            order=order,
            received_on=gaming_day(),
            sixains=[sixain_data("L1"), sixain_data("L2")],
        )


@pytest.fixture
def afternoon_three_days_on() -> Any:
    moment = timezone.make_aware(
        dt.datetime.combine(timezone.localdate() + dt.timedelta(days=3), dt.time(15))
    )
    with time_machine.travel(moment, tick=True):
        yield moment


def test_no_deck_is_issued_for_a_day_closed_in_the_control_register(
    director: Any, decks: list[Deck], afternoon_three_days_on: Any
) -> None:
    from tables.services import close_day

    yesterday = timezone.localdate() - dt.timedelta(days=1)
    close_day(actor=director, day=yesterday)
    with assert_refused("ISSUE_DAY_CLOSED", article="FR art. 40", field="day", nothing_recorded=True):
        services.issue_decks(actor=director, table_number=1, day=yesterday, decks=decks[:1])
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET
    response = signed_in(director).post(
        reverse("admin:cards_registry_deck_changelist"),
        {
            "action": "issue",
            "_act": "1",
            "_selected_action": [decks[0].pk],
            "table_number": 1,
            "day": yesterday.isoformat(),
        },
        follow=True,
    )
    assert "arrêtée au registre de contrôle" in response.content.decode()
    assert Deck.objects.get(pk=decks[0].pk).status == DeckStatus.IN_CABINET
    services.issue_decks(actor=director, table_number=1, day=timezone.localdate(), decks=decks[:1])
