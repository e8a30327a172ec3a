"""The act of the authorised minimum (FR art. 55-5; LU art. 26, 33): the officer stamps it
from the portal's visas page, as an audited act in his name."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from casino_ops import roles
from tables.models import AuthorisedMinimum
from tables.services import record_authorised_minimum


def _act(samples) -> AuthorisedMinimum:
    return record_authorised_minimum(
        actor=samples.users[roles.DIRECTOR],
        minimum=Decimal("15.00"),
        decree_reference="Arrêté ministériel n° 2026-417",
        decree_date=dt.date(2026, 11, 2),
        in_force_on=dt.date(2026, 12, 15),
    )


@pytest.mark.django_db
def test_the_officer_stamps_the_authorised_minimum_from_the_visas_page(officer_client, samples) -> None:
    act = _act(samples)
    url = reverse("portal:stamp", args=["minimum-autorise", act.pk])
    page = officer_client.get(reverse("portal:visas")).content.decode()
    assert "Minimum autorisé" in page and "Arrêté ministériel n° 2026-417" in page
    assert f'action="{url}"' in page
    assert "Arrêté ministériel n° 2026-417" in officer_client.get("/inspection/").content.decode()
    response = officer_client.post(url, {"remark": ""}, follow=True)
    assert "visa apposé" in response.content.decode()
    act.refresh_from_db()
    assert act.stamped_by == samples.users[roles.OFFICER] and act.stamped_at is not None
    event = AuditEvent.objects.get(action="authorised_minimum.stamped", object_id=str(act.pk))
    assert event.actor_name == "u_officier" and event.seq is not None
    # Gone from the page; stamping again is refused with the reason, nothing changes.
    assert f'action="{url}"' not in officer_client.get(reverse("portal:visas")).content.decode()
    stamped_at = act.stamped_at
    again = officer_client.post(url, {"remark": ""}, follow=True).content.decode()
    assert "déjà visé" in again
    act.refresh_from_db()
    assert act.stamped_at == stamped_at
    assert AuditEvent.objects.filter(action="authorised_minimum.stamped").count() == 1


@pytest.mark.django_db
def test_only_an_officer_stamps_the_minimum(clients, samples) -> None:
    act = _act(samples)
    url = reverse("portal:stamp", args=["minimum-autorise", act.pk])
    assert clients[roles.DIRECTOR].post(url, {"remark": ""}).status_code == 404
    act.refresh_from_db()
    assert act.stamped_at is None
