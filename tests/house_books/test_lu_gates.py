"""Under LU, the book of devices is compelled: a séance opens only at a table with the shoe
the director assigned to it that day (LU art. 32 §3, 40); séances held with no approvals book
at all are named by the self-inspection (LU art. 51, 54, 63)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from casino_ops.regulations import RegulationError
from house_books import services
from house_books.services.devices import assign_device, register_device
from tables.models import Session
from tables.services import create_table
from tests.support.builders import shoe_for
from tests.support.seance_hours import D, open_seance_at
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _open(director: Any, croupier: Any, table: Any) -> Any:
    """A séance opened at 20:00 on ``D``, its shoe left to the test."""
    return open_seance_at(director, croupier, table, 20, shoe=False)


def test_no_devices_book_is_no_way_round_the_rule(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    """Under LU the book of devices is compelled: a casino that keeps none opens no séance."""
    with pytest.raises(RegulationError) as refused:
        _open(director, croupier, table)
    assert (refused.value.code, refused.value.article) == ("SESSION_WITHOUT_DEVICE", "LU art. 32, 40, 52")
    assert not Session.objects.exists()


def test_a_seance_needs_its_assigned_shoe(lu_casino: Any, director: Any, croupier: Any, table: Any) -> None:
    create_table(actor=director, number=4, code="BJ04")
    device = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=device, table_number=4, day=D)  # another table
    with pytest.raises(RegulationError) as refused:
        _open(director, croupier, table)
    assert refused.value.code == "SESSION_WITHOUT_DEVICE"
    assert refused.value.article == "LU art. 32, 40, 52" and refused.value.field == "table"
    assert not Session.objects.exists()
    second = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=second, table_number=3, day=D - dt.timedelta(days=1))  # another day
    with pytest.raises(RegulationError):
        _open(director, croupier, table)
    third = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=third, table_number=3, day=D)
    assert _open(director, croupier, table).table == table


def test_under_fr_the_devices_book_is_internal_and_does_not_bind(
    casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assert _open(director, croupier, table).day == D


def _book_breaches(day: dt.date | None = None) -> list[Any]:
    return breaches_of("house.approvals_book_not_kept", day)


def test_seances_without_an_approvals_book_are_named_under_lu(
    lu_casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    assert not _book_breaches()  # no séance held: nothing to say
    shoe_for(table, D, director)
    _open(director, croupier, table)
    found = _book_breaches()
    assert len(found) == 1 and found[0].article == "LU art. 51, 54, 63"
    assert f"{D:%d/%m/%Y}" in found[0].detail
    assert _book_breaches(D) and not _book_breaches(D - dt.timedelta(days=1))
    services.record_approval(
        actor=director,
        person=director,
        function="director",
        job="",
        approved_on=D - dt.timedelta(days=100),
        reference="MJ/1",
    )
    assert not _book_breaches()


def test_under_fr_no_approvals_book_is_no_breach(
    casino: Any, director: Any, croupier: Any, table: Any
) -> None:
    _open(director, croupier, table)
    assert not _book_breaches()
