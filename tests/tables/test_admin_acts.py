"""The new acts in the admin: the director's delegate, the authorised minimum of a decree, taking
note of discrepancies; people and rows chosen from lists, no database id typed."""

from __future__ import annotations

import pytest

from tables.models import AuthorisedMinimum, Delegation

from .conftest import DAY


@pytest.mark.django_db
def test_delegation_recorded_in_the_admin(director_client, staff, casino):
    url = "/admin/tables/delegation/add/"
    page = director_client.get(url)
    assert page.status_code == 200
    assert staff["committee"].username in page.content.decode()  # chosen from the committee's list
    data = {
        "delegate": staff["committee"].pk,
        "approval_reference": "Agrément MJ 2026-14",
        "approved_on": DAY.isoformat(),
        "valid_from": DAY.isoformat(),
        "valid_until": (DAY.replace(day=1)).isoformat(),
    }
    refused = director_client.post(url, data)
    assert refused.status_code == 200 and "FR art. 55-5" in refused.content.decode()
    assert not Delegation.objects.exists()
    data["valid_until"] = ""
    assert director_client.post(url, data).status_code == 302
    assert Delegation.objects.get().delegate == staff["committee"]
    assert director_client.get("/admin/tables/delegation/").status_code == 200


@pytest.mark.django_db
def test_authorised_minimum_recorded_in_the_admin(director_client, client, staff, casino):
    url = "/admin/tables/authorisedminimum/add/"
    assert director_client.get(url).status_code == 200
    data = {
        "minimum": "2.00",
        "decree_reference": "Arrêté du 20/11/2026",
        "decree_date": "2026-11-20",
        "in_force_on": "2026-11-19",
    }
    refused = director_client.post(url, data)
    assert refused.status_code == 200 and not AuthorisedMinimum.objects.exists()
    data["in_force_on"] = "2026-11-25"
    assert director_client.post(url, data).status_code == 302
    act = AuthorisedMinimum.objects.get()
    # the director cannot stamp his own act
    director_client.post(
        "/admin/tables/authorisedminimum/", {"action": "stamp", "_selected_action": [act.pk]}
    )
    act.refresh_from_db()
    assert act.stamped_at is None
    client.force_login(staff["committee"])
    assert client.get(url).status_code == 403
