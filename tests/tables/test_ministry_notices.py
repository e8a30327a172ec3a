"""The notice to the minister of a raised minimum (LU art. 26) through its doors: the API records
it at the moment it is sent (the system's), keeps the day declared beside it and lists both; the
admin's list shows a day declared before the recording, and its "Ajouter" page records the act."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from tables.models import MinistryNotice
from tests.support import builders

from .conftest import DAY, at_day

D = Decimal
URL = "/api/tables/ministry-notices/"


@pytest.mark.django_db
def test_the_api_records_the_notice_when_sent_and_keeps_the_day_declared(lu_casino, staff, client):
    client.force_login(staff["director"])
    body = {
        "minimum": "20.00",
        "sent_on": (DAY - dt.timedelta(days=3)).isoformat(),
        "reference": "MF/2026/040",
    }
    with at_day(DAY, 11):
        response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 201, response.content
    notice = MinistryNotice.objects.get()
    assert notice.sent_on == DAY - dt.timedelta(days=3)  # the director's word, kept
    assert notice.recorded_at.date() == DAY and notice.recorded_by == staff["director"]  # the system's
    assert AuditEvent.objects.filter(action="ministry_notice.recorded", object_id=str(notice.pk)).exists()
    [row] = client.get(URL).json()
    assert (row["minimum"], row["sent_on"], row["reference"]) == ("20.00", body["sent_on"], "MF/2026/040")
    assert row["recorded_at"].startswith(DAY.isoformat())
    # a day declared after the recording is refused, with its field and article; nothing stored
    with at_day(DAY, 11):
        late = client.post(
            URL,
            {**body, "sent_on": (DAY + dt.timedelta(days=1)).isoformat()},
            content_type="application/json",
        )
    assert late.status_code == 400
    assert {k: late.json()[k] for k in ("code", "field", "article")} == {
        "code": "NOTICE_IN_FUTURE",
        "field": "sent_on",
        "article": "LU art. 26",
    }
    # only the director records it
    client.force_login(staff["committee"])
    assert client.post(URL, body, content_type="application/json").status_code == 403
    assert MinistryNotice.objects.count() == 1


@pytest.mark.django_db
def test_the_admin_records_the_notice_and_shows_a_day_declared_before_its_recording(lu_casino, staff, client):
    client.force_login(staff["director"])
    builders.ministry_notice("20.00", DAY, days_before=9, reference="MF/2026/041")
    builders.ministry_notice(
        "30.00", DAY, days_before=2, sent_on=DAY - dt.timedelta(days=6), reference="MF/2026/042"
    )
    page = client.get("/admin/tables/ministrynotice/").content.decode()
    assert "MF/2026/041" in page and "MF/2026/042" in page
    assert "4 jours avant" in page  # declared on the 24th, recorded on the 28th
    with at_day(DAY, 10):
        response = client.post(
            "/admin/tables/ministrynotice/add/",
            {"minimum": "40.00", "sent_on": DAY.isoformat(), "reference": "MF/2026/043"},
        )
    assert response.status_code == 302, re.findall(
        r'<ul class="errorlist.*?</ul>', response.content.decode(), re.S
    )
    added = MinistryNotice.objects.get(reference="MF/2026/043")
    assert (added.minimum, added.sent_on, added.recorded_at.date()) == (D("40.00"), DAY, DAY)
