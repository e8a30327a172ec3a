"""The officers' dashboard warns when the record is not being sealed: events have waited longer
than ``AUDIT_SEALING_LATE_AFTER`` (the condition of ``/health/``), with how many and the age of
the oldest, in French first; never from the cached part of the page."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

import audit
from audit.actions import Action


def _record(n: int) -> None:
    with transaction.atomic():
        for i in range(n):
            audit.record(actor=None, action=Action.TABLE_CREATED, object_type="test.thing", object_id=i)


@pytest.mark.django_db
def test_the_dashboard_warns_when_events_wait_too_long_to_be_sealed(officer_client, settings: Any) -> None:
    settings.AUDIT_SEALING = "sealer"
    settings.AUDIT_SEALING_LATE_AFTER = 60
    _record(2)  # in sealer mode: waiting for the sealer
    page = officer_client.get("/inspection/").content.decode()
    assert "Scellement du journal en retard" not in page  # just recorded: the sealer has time
    assert officer_client.get("/health/").status_code == 200
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=7), tick=True):
        assert officer_client.get("/health/").status_code == 503
        page = officer_client.get("/inspection/").content.decode()
        assert "Scellement du journal en retard" in page
        assert "2 événements attendent d'être scellés depuis plus de 60 secondes" in page
        assert "le plus ancien depuis 7\xa0minutes" in page
        english = officer_client.get("/inspection/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "The audit record is not being sealed" in english
        assert "2 events have waited more than 60 seconds to be sealed" in english
        assert "the oldest for 7\xa0minutes" in english


@pytest.mark.django_db
def test_no_warning_in_inline_mode_and_no_query_for_it(officer_client, settings: Any) -> None:
    settings.AUDIT_SEALING = "inline"  # sealed in each act's transaction: nothing ever waits
    settings.AUDIT_SEALING_LATE_AFTER = 0
    _record(1)
    page = officer_client.get("/inspection/").content.decode()
    assert "Scellement du journal en retard" not in page
