"""Visas are shown and printed with the officer's name, time and the fingerprint of his
passkey signature: the control register's day visa included (the LU demo stamps 23 days)."""

from __future__ import annotations

from typing import Any

import pytest

from audit.verification import verify
from inspection.registers import control_register
from tables.models import ControlDay
from tables.selectors import control_register as read_control_register

from .conftest import signed_in


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
