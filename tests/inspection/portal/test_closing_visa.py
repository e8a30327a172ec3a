"""The officer who attended the casino's closing down sets his visa on it from the portal
(LU art. 52): it waits on the dashboard and the visas page until he does."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from audit.actions import Action
from audit.models import AuditEvent
from casino_ops import roles
from house_books.models import ClosingDown
from house_books.services.casino import update_casino_settings
from tests.support import builders


@pytest.fixture
def closing(users: dict[str, Any]) -> ClosingDown:
    director = users[roles.DIRECTOR]
    update_casino_settings(
        actor=director, name="Casino de test", profile="LU", authorised_min_stake=Decimal("5.00")
    )
    return builders.closing_down(director)


@pytest.mark.django_db
def test_the_officer_stamps_the_closing_down_from_the_portal(officer_client, closing, users):
    page = officer_client.get("/inspection/visas/").content.decode()
    assert "Cessation de l&#x27;exploitation" in page or "Cessation de l'exploitation" in page
    assert f"/inspection/visas/cessation/{closing.pk}/" in page
    dashboard = officer_client.get("/inspection/").content.decode()
    assert "Cessation de l" in dashboard
    response = officer_client.post(
        f"/inspection/visas/cessation/{closing.pk}/", {"remark": "vu", "next": "/inspection/visas/"}
    )
    assert response.status_code == 302
    closing.refresh_from_db()
    assert closing.visa_by == users[roles.OFFICER] and closing.visa_remark == "vu"
    assert (
        AuditEvent.objects.filter(action=Action.HOUSE_CLOSING_STAMPED, object_id=str(closing.pk)).count() == 1
    )
    assert (
        f"/inspection/visas/cessation/{closing.pk}/"
        not in officer_client.get("/inspection/visas/").content.decode()
    )
