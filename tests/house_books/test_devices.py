"""The shoe devices (LU art. 32 §3, 40, 52): registered, assigned by the director, returned;
refusals with the article; the self-inspection's "systematic" and "missing" checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from audit.registers import get_register
from audit.registers.base import Request
from casino_ops.inspection import inspect
from casino_ops.regulations import RegulationError
from house_books.models import DeviceAssignment
from house_books.services.devices import assign_device, register_device, return_device

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
MONDAY = TODAY - dt.timedelta(days=TODAY.weekday() + 14)  # a full week two weeks ago


def _device(director: Any) -> Any:
    return register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")


def test_register_assign_and_return(lu_casino: Any, director: Any, committee: Any) -> None:
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
    assert [b for b in inspect(TODAY).breaches if b.check == "house.devices_missing"]
    return_device(actor=director, assignment=assignment)
    assert not [b for b in inspect(TODAY).breaches if b.check == "house.devices_missing"]
    assert AuditEvent.objects.filter(action="house.device_returned").count() == 1
    context = get_register("shoe-devices").context(Request(MONDAY, TODAY))
    assert "Sabot ACME 6" in [c[0] for c in context["sections"][0]["rows"][0]["cells"]]


def test_under_fr_an_internal_book(casino: Any, director: Any, committee: Any) -> None:
    device = _device(director)
    with pytest.raises(RegulationError) as refused:
        assign_device(actor=committee, device=device, table_number=3, day=MONDAY)
    assert refused.value.article == "règlement intérieur du casino"


def test_the_same_device_at_the_same_table_all_week_is_systematic(lu_casino: Any, director: Any) -> None:
    first, second = _device(director), _device(director)
    for offset in range(4):
        day = MONDAY + dt.timedelta(days=offset)
        return_device(
            actor=director, assignment=assign_device(actor=director, device=first, table_number=3, day=day)
        )
    found = [b for b in inspect().breaches if b.check == "house.devices_systematic"]
    assert len(found) == 1 and found[0].article == "LU art. 32, 40, 52" and "n° 1" in found[0].object
    day = MONDAY + dt.timedelta(days=4)
    return_device(
        actor=director, assignment=assign_device(actor=director, device=second, table_number=3, day=day)
    )
    assert not [b for b in inspect().breaches if b.check == "house.devices_systematic"]
