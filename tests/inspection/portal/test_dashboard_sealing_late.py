"""The officers' dashboard warns when the record is not being sealed: events have waited longer
than ``AUDIT_SEALING_LATE_AFTER`` (the condition of ``/health/``), with how many and the age of
the oldest, in French first; never from the cached part of the page."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
import time_machine
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import audit
from audit.actions import Action
from audit.chain import run_sealer
from audit.models import AuditEvent


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
def test_the_officers_read_the_sealers_alarm_in_the_audit_trail(officer_client, settings: Any) -> None:
    """Events waited longer than the setting (no sealer ran): the sealer, once it runs, seals the
    alarm after them, and the audit trail names it in the officer's language."""
    settings.AUDIT_SEALING = "sealer"
    settings.AUDIT_SEALING_LATE_AFTER = 0.5
    _record(2)
    time.sleep(1.0)
    stops = iter([False, True])
    run_sealer(lambda: next(stops), interval=0)
    alarm = AuditEvent.objects.get(action=Action.SEALING_INTERRUPTED)
    assert alarm.seq == 3
    page = officer_client.get(reverse("portal:audit_trail")).content.decode()
    assert "Scellement du journal interrompu" in page and "audit.sealing_interrupted" in page
    english = officer_client.get(reverse("portal:audit_trail"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sealing of the audit record interrupted" in english
