"""Visas are shown and printed with the officer's name, time and the fingerprint of his
passkey signature: the control register's day visa included (the LU demo stamps 23 days)."""

from __future__ import annotations

from typing import Any

import pytest

from audit.verification import verify
from inspection.registers import control_register
from tables.models import ControlDay
from tables.selectors import control_register as read_control_register
from tests.support.clients import signed_in


@pytest.mark.django_db
def test_the_day_visa_is_printed_and_shown_with_its_signature(lu_demo: Any, settings: Any) -> None:
    stamped = ControlDay.objects.filter(stamped_at__isnull=False).order_by("day")
    assert stamped.count() >= 20
    day = stamped.last()
    data = read_control_register(day.day)
    stamp = data["stamp"]
    assert stamp["by"] == "Claire Dubois" and len(stamp["fingerprint"]) == 19
    printed = str(control_register.day_section(day.day, data))
    assert "Claire Dubois" in printed and stamp["fingerprint"] in printed

    settings.TWO_FACTOR_REQUIRED = False
    from django.contrib.auth.models import User

    page = signed_in(User.objects.get(username="officier")).get(
        "/inspection/registre-de-controle/", {"day": day.day.isoformat()}
    )
    assert stamp["fingerprint"] in page.content.decode()


@pytest.mark.django_db
def test_every_visa_of_the_demo_verifies(lu_demo: Any) -> None:
    outcome = verify()
    assert outcome.ok, outcome.officer_problems[:3]
    assert outcome.officer_acts is not None and outcome.officer_acts.checked >= 23
    assert all(officer == "officier" for _seq, officer, _f in outcome.officer_acts.verified)


@pytest.mark.django_db
def test_the_depot_registers_print_each_visa_with_its_signature(lu_demo: Any) -> None:
    import datetime as dt

    from audit.actions import Action
    from audit.reads import officer_fingerprints
    from cards_registry.models import Order, Reception
    from inspection.registers.base import Request
    from inspection.registers.order_book import OrderBook
    from inspection.registers.receipt_book import ReceiptBook

    everything = Request(dt.date(2000, 1, 1), dt.date(2100, 1, 1))
    order = Order.objects.filter(visa__isnull=False).first()
    reception = Reception.objects.filter(visa__isnull=False).first()
    order_print = officer_fingerprints([order], Action.DEPOT_ORDER_STAMPED)[str(order.pk)]
    reception_print = officer_fingerprints([reception], Action.DEPOT_RECEPTION_STAMPED)[str(reception.pk)]
    assert order_print in str(OrderBook().context(everything))
    assert reception_print in str(ReceiptBook().context(everything))
