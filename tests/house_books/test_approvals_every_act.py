"""LU art. 51, 54, 63: whoever signs, counts, witnesses, keeps a key for or deals in any act of
the tables or the depot holds an approval in force that day; a revoked person is refused with
the article (art. 51 IV: no act of his function at all); the management committee has at least
four members, the director included (art. 51 I), and the self-inspection names it when not."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from casino_ops import act_checks
from casino_ops.act_checks import Hook
from casino_ops.regulations import RegulationError
from house_books import services
from tables.clock import history_at
from tables.models import Session
from tables.services import open_session
from tests.support.builders import gaming_day
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
SINCE = TODAY - dt.timedelta(days=100)
D = TODAY - dt.timedelta(days=3)
FIELDS = ("actor", "croupier", "counted_by", "witness", "key_holder", "receiver", "cashier", "signed_by")


def _approve(director: Any, person: Any, function: str = "staff", job: str = "croupier", **kw: Any) -> Any:
    return services.record_approval(
        actor=director,
        person=person,
        function=function,
        job="" if function != "staff" else job,
        approved_on=kw.pop("approved_on", SINCE),
        reference=kw.pop("reference", f"MJ/{person.pk}/{function}"),
    )


@pytest.fixture
def revoked_croupier(lu_casino: Any, director: Any, croupier: Any) -> Any:
    _approve(director, director, "director")
    approval = _approve(director, croupier)
    services.end_approval(
        actor=director,
        approval=approval,
        kind="revoked",
        ended_on=D - dt.timedelta(days=1),
        reference="MJ/REV/2026-9",
    )
    return croupier


@pytest.mark.parametrize("act", list(Hook))
@pytest.mark.parametrize("field", FIELDS)
def test_every_act_and_every_person_is_checked(
    act: Hook, field: str, director: Any, revoked_croupier: Any
) -> None:
    act_checks.run(act, day=D, profile="LU", people={"actor": director})  # approved: no refusal
    with pytest.raises(RegulationError) as refused:
        act_checks.run(act, day=D, profile="LU", people={"actor": director, field: revoked_croupier})
    assert (refused.value.code, refused.value.field) == ("NOT_APPROVED", field)
    assert refused.value.article == "LU art. 51, 54, 63"
    assert "révoqué" in refused.value.message and "MJ/REV/2026-9" in refused.value.message


def test_the_revoked_croupier_cannot_deal_a_seance(
    director: Any, revoked_croupier: Any, tables_in_service: list[Any], client: Any
) -> None:
    def _open() -> Any:
        with history_at(timezone.make_aware(dt.datetime.combine(D, dt.time(20)))):
            return open_session(
                actor=director,
                table=tables_in_service[0],
                day=D,
                minimum=Decimal("5.00"),
                maximum=Decimal("500.00"),
                advance_amount=Decimal("30000.00"),
                croupier=revoked_croupier,
                guarantee_fund=Decimal("100000.00"),
            )

    from house_books.services.devices import assign_device, register_device

    device = register_device(actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12")
    assign_device(actor=director, device=device, table_number=3, day=D)
    with pytest.raises(RegulationError) as refused:
        _open()
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "NOT_APPROVED",
        "croupier",
        "LU art. 51, 54, 63",
    )
    assert not Session.objects.exists()


def _committee_breaches(day: dt.date | None = None) -> list[Any]:
    return breaches_of("house.committee_incomplete", day)


def test_a_committee_of_fewer_than_four_is_named(
    lu_casino: Any, director: Any, committee: Any, make_user: Any
) -> None:
    assert not _committee_breaches()  # no book of approvals yet: the book's own check says so
    _approve(director, director, "director")
    _approve(director, committee, "committee")
    found = _committee_breaches()
    assert len(found) == 1 and found[0].article == "LU art. 51"
    assert "2 membre(s)" in found[0].detail and "4" in found[0].detail
    others = []
    for n in (2, 3):
        member = make_user(f"comite{n}", "comite_direction", password="x", is_staff=False)
        others.append(_approve(director, member, "committee"))
    assert not _committee_breaches()
    # revoked on the gaming day the inspection counts (between midnight and the roll-over hour,
    # still the evening's day, not the calendar's date)
    today = gaming_day()
    services.end_approval(
        actor=director, approval=others[0], kind="revoked", ended_on=today, reference="MJ/REV/1"
    )
    assert _committee_breaches() and not _committee_breaches(today - dt.timedelta(days=1))


def test_under_fr_the_committee_size_is_not_checked(casino: Any, director: Any) -> None:
    _approve(director, director, "director")
    assert not _committee_breaches()
