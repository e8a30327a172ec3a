"""The shoe devices (LU art. 32 §3, 40, 52): registered, assigned by the director, returned;
refusals with the article; the self-inspection's "systematic" and "missing" checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books.models import DeviceAssignment, ShoeDevice
from house_books.services.devices import assign_device, register_device, return_device
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
MONDAY = TODAY - dt.timedelta(days=TODAY.weekday() + 14)  # a full week two weeks ago


def _device(director: Any) -> Any:
    return register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")


def test_register_assign_and_return(
    lu_casino: Any, director: Any, committee: Any, tables_in_service: Any
) -> None:
    device = _device(director)
    assert device.number == 1
    assert AuditEvent.objects.filter(action="house.device_registered", object_id=str(device.pk)).count() == 1
    with pytest.raises(RegulationError) as refused:
        assign_device(actor=committee, device=device, table_number=3, day=MONDAY)
    assert refused.value.code == "DEVICE_BY_DIRECTOR" and refused.value.article == "LU art. 32, 40, 52"
    assignment = assign_device(actor=director, device=device, table_number=3, day=MONDAY)
    with pytest.raises(RegulationError) as refused:
        assign_device(actor=director, device=device, table_number=4, day=MONDAY)
    assert refused.value.code == "DEVICE_ALREADY_ASSIGNED" and refused.value.field == "device"
    assert DeviceAssignment.objects.count() == 1
    assert breaches_of("house.devices_missing", TODAY)
    return_device(actor=director, assignment=assignment)
    assert not breaches_of("house.devices_missing", TODAY)
    assert AuditEvent.objects.filter(action="house.device_returned").count() == 1
    context = get_register("shoe-devices").context(Request(MONDAY, TODAY))
    assert "Sabot ACME 6" in [c[0] for c in context["sections"][0]["rows"][0]["cells"]]


def test_under_fr_an_internal_book(casino: Any, director: Any, committee: Any) -> None:
    device = _device(director)
    with pytest.raises(RegulationError) as refused:
        assign_device(actor=committee, device=device, table_number=3, day=MONDAY)
    assert refused.value.article == "règlement intérieur du casino"


def test_the_same_device_at_the_same_table_all_week_is_systematic(
    lu_casino: Any, director: Any, tables_in_service: Any
) -> None:
    first, second = _device(director), _device(director)
    for offset in range(4):
        day = MONDAY + dt.timedelta(days=offset)
        return_device(
            actor=director, assignment=assign_device(actor=director, device=first, table_number=3, day=day)
        )
    found = breaches_of("house.devices_systematic")
    assert len(found) == 1 and found[0].article == "LU art. 32, 40, 52" and "n° 1" in found[0].object
    day = MONDAY + dt.timedelta(days=4)
    return_device(
        actor=director, assignment=assign_device(actor=director, device=second, table_number=3, day=day)
    )
    assert not breaches_of("house.devices_systematic")


@pytest.mark.parametrize("profile", ["LU", "FR"])
def test_a_shoe_goes_only_to_a_table_in_service(profile: str, casino: Any, director: Any) -> None:
    from house_books.services.casino import update_casino_settings
    from tables.services import create_table, set_table_in_service

    update_casino_settings(actor=director, profile=profile)  # before any act (PROFILE_FIXED)
    tables_in_service = [create_table(actor=director, number=n, code=f"BJ{n:02d}") for n in (3, 4)]
    device = _device(director)
    article = "LU art. 32, 40, 52" if profile == "LU" else "règlement intérieur du casino"
    set_table_in_service(actor=director, table=tables_in_service[1], in_service=False, reason="travaux")
    for number in (9, 4):  # no such table; a table out of service
        with pytest.raises(RegulationError) as refused:
            assign_device(actor=director, device=device, table_number=number, day=MONDAY)
        assert (refused.value.code, refused.value.field) == ("TABLE_NOT_IN_SERVICE", "table_number")
        assert refused.value.article == article
    assert not DeviceAssignment.objects.exists()
    assert ShoeDevice.objects.get().state == "cabinet"
    assert assign_device(actor=director, device=device, table_number=3, day=MONDAY).table_number == 3


def test_a_second_shoe_for_the_same_table_the_same_day(
    lu_casino: Any, director: Any, tables_in_service: Any
) -> None:
    """A second séance at a table the same day may use another shoe: one shoe per day, not one
    per table (the séance's check accepts any shoe assigned to its table that day)."""
    first, second = _device(director), _device(director)
    assign_device(actor=director, device=first, table_number=3, day=MONDAY)
    assign_device(actor=director, device=second, table_number=3, day=MONDAY)
    assert DeviceAssignment.objects.filter(table_number=3, day=MONDAY).count() == 2


def test_admin_pages_register_assign_and_return_without_a_database_id(
    lu_casino: Any, director: Any, committee: Any, officer: Any, client: Any
) -> None:
    import json

    from tables.services import create_table

    create_table(actor=director, number=3, code="BJ03")
    client.force_login(director)
    response = client.post(
        "/admin/house_books/shoedevice/add/", {"approved_model": "Sabot ACME 6", "approval_reference": ""}
    )
    assert response.status_code == 200 and "approval_reference" in response.content.decode()
    response = client.post(
        "/admin/house_books/shoedevice/add/",
        {"approved_model": "Sabot ACME 6", "approval_reference": "MF/SAB/12"},
    )
    assert response.status_code == 302
    page = client.get("/admin/house_books/deviceassignment/add/").content.decode()
    assert "Sabot n° 1 — Sabot ACME 6" in page and "n° 3 — BJ03" in page
    device = ShoeDevice.objects.get(number=1)
    form = {"device": device.pk, "table_number": "3", "day": MONDAY.isoformat()}
    assert client.post("/admin/house_books/deviceassignment/add/", form).status_code == 302
    assignment = DeviceAssignment.objects.get()
    assert assignment.table_number == 3 and assignment.assigned_by == director
    page = client.get("/admin/house_books/devicereturnentry/add/").content.decode()
    assert f"Sabot n° 1 — table 3 — {MONDAY:%d/%m/%Y}" in page
    response = client.post("/admin/house_books/devicereturnentry/add/", {"assignment": assignment.pk})
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.returned_at is not None
    assert ShoeDevice.objects.get().state == "cabinet"
    # a second return of the same assignment: no longer offered, nothing changes
    response = client.post("/admin/house_books/devicereturnentry/add/", {"assignment": assignment.pk})
    assert response.status_code == 200 and "assignment" in response.content.decode()
    assert AuditEvent.objects.filter(action="house.device_returned").count() == 1
    # a committee member may not assign (the director's act): no add page
    client.force_login(committee)
    assert client.get("/admin/house_books/deviceassignment/add/").status_code == 403
    # the officers read both through the API, never write
    client.force_login(officer)
    body = json.loads(client.get("/api/house/devices/").content)
    rows = body["results"] if isinstance(body, dict) else body
    assert rows[0]["number"] == 1 and rows[0]["approved_model"] == "Sabot ACME 6"
    assert rows[0]["recorded_by"] == director.get_username()
    body = json.loads(client.get("/api/house/devices/assignments/").content)
    rows = body["results"] if isinstance(body, dict) else body
    assert rows[0]["device"] == 1 and rows[0]["table_number"] == 3 and rows[0]["returned_at"]
    assert client.get("/api/house/devices/assignments/?from=hier").status_code == 400
    assert client.post("/api/house/devices/", {}).status_code == 403


def test_fr_a_shoe_never_put_back_and_a_shoe_at_the_same_table_all_week_are_named(
    casino: Any, director: Any, tables_in_service: Any
) -> None:
    first, second = _device(director), _device(director)
    for offset in range(4):
        day = MONDAY + dt.timedelta(days=offset)
        return_device(
            actor=director, assignment=assign_device(actor=director, device=first, table_number=3, day=day)
        )
    found = breaches_of("house.devices_systematic")
    assert (
        len(found) == 1 and found[0].article == "règlement intérieur du casino" and "n° 1" in found[0].object
    )
    assert MONDAY.strftime("%d/%m/%Y") in found[0].detail
    assert not breaches_of("house.devices_missing")
    kept = assign_device(actor=director, device=second, table_number=4, day=MONDAY + dt.timedelta(days=4))
    missing = breaches_of("house.devices_missing", TODAY)
    assert len(missing) == 1 and missing[0].article == "règlement intérieur du casino"
    assert "n° 2" in missing[0].object and kept.day.strftime("%d/%m/%Y") in missing[0].detail
