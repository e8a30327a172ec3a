"""The officer's two writes on the inspection page go through the portal's safe forms: a demand to
open the cabinet whose reason holds a NUL byte or is too long, a time he was told of an incident
at the calendar's end, is refused with the field's error (never a server error) and records
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from cards_registry.models import CabinetDemand, IncidentReport
from tests.support.permission_matrix import unreported_incident


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["Contrôle\x00inopiné", "x" * 301, "\x1b[31m"])
def test_a_demand_with_an_absurd_reason_is_refused_and_records_nothing(
    officer_client: Any, casino: Any, reason: str
) -> None:
    response = officer_client.post(reverse("portal:demand_opening"), {"reason": reason}, follow=True)
    assert response.status_code == 200
    assert not CabinetDemand.objects.exists()
    text = response.content.decode()
    assert "Motif" in text or "reason" in text


@pytest.mark.django_db
def test_a_demand_with_a_plain_reason_is_recorded(officer_client: Any, casino: Any) -> None:
    response = officer_client.post(reverse("portal:demand_opening"), {"reason": "Contrôle inopiné"})
    assert response.status_code == 302
    assert CabinetDemand.objects.get().reason == "Contrôle inopiné"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "informed_at", ["0001-01-01T00:00", "9999-12-31T23:59", "2026-12-01T10:00\x00", "hier"]
)
def test_an_absurd_time_told_is_never_written(officer_client: Any, casino: Any, informed_at: str) -> None:
    """The moment the officer was told is the system's (his acknowledgement takes no typed moment):
    a typed moment, absurd or not, is never read into the books, and is never a server error."""
    from django.utils import timezone

    incident = unreported_incident()
    before = timezone.now()
    response = officer_client.post(
        reverse("portal:incident_told", args=[incident.pk]), {"informed_at": informed_at}, follow=True
    )
    assert response.status_code == 200
    report = IncidentReport.objects.get(incident=incident)
    assert before <= report.informed_at <= timezone.now()
