"""The books are written when the act happens: an orphan entered after the gaming day it was
found (LU art. 8, "immédiatement") and a shoe assigned for a day before it entered the
cabinet's book (LU art. 32 §3, 40) are named by the self-inspection with their article."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.utils import timezone

from house_books import services
from house_books.models import OrphanEntry
from house_books.services.devices import assign_device, register_device
from tables.clock import history_at
from tests.support.builders import gaming_day
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
D = TODAY - dt.timedelta(days=3)


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


def _named(check: str, day: dt.date | None = None) -> list[Any]:
    return breaches_of(check, day)


def _found(actor: Any, found_at: dt.datetime) -> OrphanEntry:
    return services.record_orphan(
        actor=actor, found_at=found_at, kind="floor", amount="5.00", description="Jeton trouvé à terre"
    )


def test_an_orphan_entered_after_its_gaming_day_is_named(
    lu_casino: Any, committee: Any, officer: Any, client: Any
) -> None:
    with history_at(_at(D, 22, 10)):  # written at once: nothing to say
        on_time = _found(committee, _at(D, 22))
    assert on_time.recorded_at == _at(D, 22, 10)
    assert not _named("house.orphan_entered_late")
    late = _found(committee, _at(D, 21))  # written three days later
    found = _named("house.orphan_entered_late")
    assert len(found) == 1 and found[0].article == "LU art. 8"
    assert f"n° {late.number}" in found[0].object and D.strftime("%d/%m/%Y") in found[0].detail
    # named on the day it was found and on the day it was written (LU art. 8)
    assert _named("house.orphan_entered_late", D) and _named("house.orphan_entered_late", gaming_day())
    assert not _named("house.orphan_entered_late", D - dt.timedelta(days=1))
    client.force_login(officer)
    body = json.loads(client.get("/api/house/orphans/").content)
    rows = body["results"] if isinstance(body, dict) else body
    assert {row["number"]: row["recorded_at"][:10] for row in rows} == {
        on_time.number: D.isoformat(),
        late.number: timezone.localtime(late.recorded_at).date().isoformat(),
    }


def test_an_orphan_entered_late_through_the_admin_is_named(
    lu_casino: Any, director: Any, client: Any
) -> None:
    client.force_login(director)
    response = client.post(
        "/admin/house_books/orphanentry/add/",
        {
            "found_at_0": D.strftime("%d/%m/%Y"),
            "found_at_1": "22:00",
            "found_at": f"{D.isoformat()} 22:00",
            "kind": "floor",
            "amount": "5.00",
            "description": "Jeton trouvé",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert len(_named("house.orphan_entered_late")) == 1


def test_a_shoe_used_before_its_inventory_is_named(
    lu_casino: Any, director: Any, tables_in_service: list[Any]
) -> None:
    with history_at(_at(D, 10)):
        listed = register_device(
            actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12"
        )
    assign_device(actor=director, device=listed, table_number=3, day=D)
    assert not _named("house.device_before_inventory")
    unlisted = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=unlisted, table_number=4, day=D)  # listed only today
    found = _named("house.device_before_inventory")
    assert len(found) == 1 and found[0].article == "LU art. 32, 40, 52"
    assert f"n° {unlisted.number}" in found[0].object and "table 4" in found[0].detail


# -- Under FR, the same books kept as the casino's internal books ---------------------------------


def test_fr_a_shoe_used_before_its_inventory_is_named(
    casino: Any, director: Any, tables_in_service: list[Any]
) -> None:
    with history_at(_at(D, 10)):
        listed = register_device(
            actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12"
        )
    assign_device(actor=director, device=listed, table_number=3, day=D)
    assert not _named("house.device_before_inventory")
    unlisted = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=unlisted, table_number=4, day=D)  # listed only today
    found = _named("house.device_before_inventory")
    assert len(found) == 1 and found[0].article == "règlement intérieur du casino"
    assert f"n° {unlisted.number}" in found[0].object and D.strftime("%d/%m/%Y") in found[0].detail


def test_fr_an_orphan_entered_after_its_gaming_day_is_named(casino: Any, committee: Any) -> None:
    with history_at(_at(D, 22, 10)):
        _found(committee, _at(D, 22))
    assert not _named("house.orphan_entered_late")
    late = _found(committee, _at(D, 21))  # written three days later
    found = _named("house.orphan_entered_late")
    assert len(found) == 1 and found[0].article == "règlement intérieur du casino"
    assert f"n° {late.number}" in found[0].object and D.strftime("%d/%m/%Y") in found[0].detail
    assert _named("house.orphan_entered_late", D)
