"""The tips (LU art. 57): the daily count, the account "pourboires", the register, the inspection."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books import services
from house_books.models import TipsCount
from house_books.selectors import tips_account
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()  # read once: a future day is two days on, still ahead after midnight
D1 = TODAY - dt.timedelta(days=3)
D2 = TODAY - dt.timedelta(days=2)


@pytest.fixture
def approved(director: Any, committee: Any, cashier: Any) -> None:
    since = TODAY - dt.timedelta(days=100)
    services.record_approval(  # the director's own first: he keeps the book while approved himself
        actor=director, person=director, function="director", approved_on=since, reference="MJ/0"
    )
    services.record_approval(
        actor=director, person=committee, function="committee", approved_on=since, reference="MJ/1"
    )
    services.record_approval(
        actor=director, person=cashier, function="staff", job="caissier", approved_on=since, reference="MJ/2"
    )


def _count(actor: Any, witness: Any, **kw: Any) -> TipsCount:
    values = {"day": D1, "box": "Tirelire n° 1", "amount": "145.50", "witness": witness}
    values.update(kw)
    return services.count_tips(actor=actor, **values)


def test_the_daily_count_and_the_account(
    lu_casino: Any, approved: None, cashier: Any, committee: Any
) -> None:
    _count(cashier, committee)
    _count(cashier, committee, day=D2, amount="54.50")
    lines = tips_account(D1, D2)
    assert [(line["amount"], line["total"]) for line in lines] == [
        (Decimal("145.50"), Decimal("145.50")),
        (Decimal("54.50"), Decimal("200.00")),
    ]
    assert AuditEvent.objects.filter(action="house.tips_counted").count() == 2
    with pytest.raises(RegulationError) as refused:
        _count(cashier, committee)
    assert (refused.value.code, refused.value.article) == ("TIPS_ALREADY_COUNTED", "LU art. 57")


def test_counted_and_witnessed_by_approved_people_only(
    lu_casino: Any, director: Any, cashier: Any, committee: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        _count(cashier, committee)
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "NOT_APPROVED",
        "actor",
        "LU art. 51, 54, 63",
    )
    services.record_approval(
        actor=director, person=cashier, function="staff", job="caissier", approved_on=D1, reference="MJ/2"
    )
    with pytest.raises(RegulationError) as refused:
        _count(cashier, committee)
    assert refused.value.field == "witness"
    with pytest.raises(RegulationError) as refused:
        _count(cashier, cashier)
    assert refused.value.field == "witness"
    assert not TipsCount.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"amount": "-1"}, "amount"),
        ({"amount": "x"}, "amount"),
        ({"box": ""}, "box"),
        ({"day": TODAY + dt.timedelta(days=2)}, "day"),
    ],
)
def test_bad_counts_refused_on_their_field(
    lu_casino: Any, approved: None, cashier: Any, committee: Any, changes: dict, field: str
) -> None:
    with pytest.raises(RegulationError) as refused:
        _count(cashier, committee, **changes)
    assert refused.value.field == field
    assert not TipsCount.objects.exists()


def test_under_fr_an_internal_book(casino: Any, approved: None, cashier: Any, committee: Any) -> None:
    with pytest.raises(RegulationError) as refused:
        _count(cashier, committee, amount="-1")
    assert refused.value.article == "règlement intérieur du casino"


def test_inspection_finds_a_day_of_play_without_a_count(
    casino: Any, approved: None, cashier: Any, committee: Any, director: Any, croupier: Any
) -> None:
    from tables.clock import history_at
    from tables.services import create_table, open_session

    table = create_table(actor=director, number=3, code="BJ03")
    since = TODAY - dt.timedelta(days=100)  # who signs and counts the advance is approved too
    services.record_approval(
        actor=director, person=croupier, function="staff", job="croupier", approved_on=since, reference="MJ/4"
    )
    with history_at(dt.datetime.combine(D1, dt.time(14))):  # the séance opened on its own day
        open_session(
            actor=director,
            table=table,
            day=D1,
            minimum=Decimal("10.00"),
            maximum=Decimal("1000.00"),
            advance_amount=Decimal("30000.00"),
            croupier=croupier,
        )
    found = breaches_of("house.tips_not_counted", D1)
    assert len(found) == 1 and found[0].article == "règlement intérieur du casino"
    assert D1.strftime("%d/%m/%Y") in found[0].object
    assert [b.object for b in breaches_of("house.tips_not_counted")] == [found[0].object]
    assert not breaches_of("house.tips_not_counted", D2)  # no séance that day
    _count(cashier, committee)
    assert not breaches_of("house.tips_not_counted", D1)
    assert not breaches_of("house.tips_not_counted")


def test_register_and_api(
    lu_casino: Any, approved: None, cashier: Any, committee: Any, officer: Any, client: Any
) -> None:
    _count(cashier, committee)
    context = get_register("tips").context(Request(D1, D2))
    cells = [c[0] for c in context["sections"][0]["rows"][0]["cells"]]
    assert "Tirelire n° 1" in cells
    client.force_login(officer)
    body = json.loads(client.get("/api/house/tips/").content)
    rows = body["results"] if isinstance(body, dict) else body
    assert rows[0]["amount"] == "145.50" and rows[0]["total"] == "145.50"


def test_admin_count_by_the_cashier_with_the_witness_chosen_by_name(
    lu_casino: Any, approved: None, cashier: Any, committee: Any, client: Any
) -> None:
    client.force_login(cashier)
    page = client.get("/admin/house_books/tipscount/add/")
    assert page.status_code == 200 and committee.get_username() in page.content.decode()
    form = {
        "day": D1.isoformat(),
        "box": "Tirelire n° 1",
        "amount": "12.00",
        "witness": cashier.pk,
        "note": "",
    }
    response = client.post("/admin/house_books/tipscount/add/", form)
    assert response.status_code == 200 and "LU art. 57" in response.content.decode()
    assert not TipsCount.objects.exists()
    response = client.post("/admin/house_books/tipscount/add/", {**form, "witness": committee.pk})
    assert response.status_code == 302
    assert TipsCount.objects.get().counted_by == cashier


def test_lu_inspection_finds_a_day_of_play_without_a_count(
    lu_casino: Any, approved: None, cashier: Any, committee: Any, director: Any, croupier: Any
) -> None:
    from tables.clock import history_at
    from tables.services import create_table, open_session
    from tests.support.builders import shoe_for

    table = create_table(actor=director, number=3, code="BJ03")
    since = TODAY - dt.timedelta(days=100)
    services.record_approval(
        actor=director, person=croupier, function="staff", job="croupier", approved_on=since, reference="MJ/4"
    )
    shoe_for(table, D1, director)  # LU art. 32 §3, 40
    with history_at(timezone.make_aware(dt.datetime.combine(D1, dt.time(16)))):
        open_session(
            actor=director,
            table=table,
            day=D1,
            minimum=Decimal("5.00"),
            maximum=Decimal("500.00"),
            advance_amount=Decimal("30000.00"),
            croupier=croupier,
            guarantee_fund=Decimal("100000.00"),
        )
    found = breaches_of("house.tips_not_counted", D1)
    assert len(found) == 1 and found[0].article == "LU art. 57"
    assert D1.strftime("%d/%m/%Y") in found[0].object
    assert not breaches_of("house.tips_not_counted", D2)  # no séance that day
    _count(cashier, committee)
    assert not breaches_of("house.tips_not_counted", D1)
