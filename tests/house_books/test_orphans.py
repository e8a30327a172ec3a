"""The carnet d'enregistrement des orphelins (LU art. 8): acts, refusals, register, inspection, API."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops.checks import inspect
from casino_ops.regulations import RegulationError
from house_books import services
from house_books.models import OrphanEntry, OrphanRepayment, OrphanTransfer
from house_books.selectors import orphan_balance
from inspection.registers import get_register
from inspection.registers.base import Request
from tests.support.self_inspection import breaches_of

pytestmark = pytest.mark.django_db


def _at(day: dt.date, hour: int = 22) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


LAST_YEAR = timezone.localdate().year - 1


def _found(actor: Any, **kw: Any) -> OrphanEntry:
    values = {
        "found_at": _at(dt.date(LAST_YEAR, 11, 3)),
        "kind": "floor",
        "amount": Decimal("50.00"),
        "description": "Plaque trouvée à terre",
    }
    values.update(kw)
    return services.record_orphan(actor=actor, **values)


def _events(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action))


def test_a_sum_found_is_entered_numbered_with_one_audit_event(lu_casino: Any, committee: Any) -> None:
    first = _found(committee)
    second = _found(committee, kind="table", table_number=2, amount="10.00", description="Jeton laissé")
    assert (first.number, second.number) == (1, 2)
    assert first.exercise == LAST_YEAR
    assert orphan_balance(LAST_YEAR) == Decimal("60.00")
    events = _events("house.orphan_recorded")
    assert len(events) == 2
    assert {e.object_id for e in events} == {str(first.pk), str(second.pk)}


def test_an_abandoned_stake_is_the_stake_plus_its_winnings(lu_casino: Any, committee: Any) -> None:
    entry = _found(
        committee,
        kind="abandoned",
        amount=None,
        stake="25.00",
        winnings="37.50",
        table_number=3,
        description="Mise oubliée sur la case 4",
    )
    assert entry.amount == Decimal("62.50")
    with pytest.raises(RegulationError) as refused:
        _found(committee, kind="abandoned", amount="25.00", stake="25.00", winnings="37.50", table_number=3)
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "ORPHAN_AMOUNT_MISMATCH",
        "amount",
        "LU art. 8",
    )
    with pytest.raises(RegulationError) as refused:
        _found(committee, kind="abandoned", amount=None, table_number=3)
    assert refused.value.field == "stake"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"amount": "-3"}, "amount"),
        ({"amount": "0"}, "amount"),
        ({"amount": "1.001"}, "amount"),
        ({"amount": "abc"}, "amount"),
        ({"kind": "sky"}, "kind"),
        ({"description": "  "}, "description"),
        ({"found_at": timezone.now() + dt.timedelta(days=2)}, "found_at"),
    ],
)
def test_bad_input_is_refused_on_its_field(lu_casino: Any, committee: Any, changes: dict, field: str) -> None:
    with pytest.raises(RegulationError) as refused:
        _found(committee, **changes)
    assert refused.value.field == field
    assert refused.value.article == "LU art. 8"
    assert not OrphanEntry.objects.exists()
    assert not _events("house.orphan_recorded")


def test_only_the_direction_keeps_the_carnet(lu_casino: Any, croupier: Any) -> None:
    with pytest.raises(PermissionDenied):
        _found(croupier)


def test_repayment_to_the_rightful_owner(lu_casino: Any, committee: Any, director: Any) -> None:
    entry = _found(committee)
    _found(committee, amount="10.00")
    repayment = services.repay_orphan(
        actor=director,
        entry=entry,
        repaid_on=dt.date(LAST_YEAR, 11, 5),
        amount="30.00",
        owner_name="Henri Weber",
        owner_address="12 rue de la Gare, Luxembourg",
        proof="Reçu de change",
    )
    assert repayment.total_before == Decimal("60.00")  # the total struck at the date of the repayment
    assert orphan_balance(LAST_YEAR) == Decimal("30.00")
    assert len(_events("house.orphan_repaid")) == 1
    with pytest.raises(RegulationError) as refused:
        services.repay_orphan(
            actor=director,
            entry=entry,
            repaid_on=dt.date(LAST_YEAR, 11, 6),
            amount="20.01",
            owner_name="Henri Weber",
            owner_address="Luxembourg",
            proof="Reçu",
        )
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "ORPHAN_REPAY_TOO_MUCH",
        "amount",
        "LU art. 8",
    )
    for missing in ("owner_name", "owner_address", "proof"):
        values = {"owner_name": "H. Weber", "owner_address": "Luxembourg", "proof": "Reçu", missing: ""}
        with pytest.raises(RegulationError) as refused:
            services.repay_orphan(
                actor=director, entry=entry, repaid_on=dt.date(LAST_YEAR, 11, 6), amount="1", **values
            )
        assert refused.value.field == missing
    with pytest.raises(RegulationError) as refused:
        services.repay_orphan(
            actor=director,
            entry=entry,
            repaid_on=dt.date(LAST_YEAR, 11, 1),
            amount="1",
            owner_name="H",
            owner_address="L",
            proof="R",
        )
    assert refused.value.field == "repaid_on"
    assert OrphanRepayment.objects.count() == 1


def _transfer(director: Any, **kw: Any) -> OrphanTransfer:
    values = {
        "exercise": LAST_YEAR,
        "transferred_on": dt.date(LAST_YEAR + 1, 1, 1),
        "amount": "60.00",
        "commune": "Mondorf-les-Bains",
        "receipt": "Quittance n° 117",
        "minister_notified_on": dt.date(LAST_YEAR + 1, 1, 1),
    }
    values.update(kw)
    return services.transfer_orphans(actor=director, **values)


def test_year_end_transfer_balances_the_account_to_zero(
    lu_casino: Any, committee: Any, director: Any
) -> None:
    _found(committee)
    _found(committee, amount="10.00")
    with pytest.raises(RegulationError) as refused:
        _transfer(director, amount="50.00")
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "ORPHANS_BALANCE_NOT_ZERO",
        "amount",
        "LU art. 8",
    )
    with pytest.raises(RegulationError) as refused:
        _transfer(director, transferred_on=dt.date(LAST_YEAR, 12, 31))
    assert refused.value.field == "transferred_on"
    for bad in ("x", 99999, None):
        with pytest.raises(RegulationError) as refused:
            _transfer(director, exercise=bad)
        assert refused.value.field == "exercise"
    with pytest.raises(RegulationError) as refused:
        _transfer(director, receipt="")
    assert refused.value.field == "receipt"
    with pytest.raises(RegulationError) as refused:
        _transfer(director, minister_notified_on=dt.date(LAST_YEAR, 12, 31))
    assert refused.value.field == "minister_notified_on"
    with pytest.raises(RegulationError) as refused:
        _transfer(committee)
    assert refused.value.field == "actor"
    assert not OrphanTransfer.objects.exists()
    _transfer(director)
    assert orphan_balance(LAST_YEAR) == Decimal("0.00")
    assert len(_events("house.orphans_transferred")) == 1
    # the exercise is closed: no new entry, no second transfer
    with pytest.raises(RegulationError) as refused:
        _found(committee)
    assert refused.value.code == "ORPHANS_EXERCISE_CLOSED"
    with pytest.raises(RegulationError):
        _transfer(director, amount="0")


def test_under_fr_the_carnet_is_an_internal_book(casino: Any, committee: Any, director: Any) -> None:
    _found(committee)
    with pytest.raises(RegulationError) as refused:
        _transfer(director, amount="1.00")
    assert refused.value.article == "règlement intérieur du casino"


def test_inspection_finds_an_exercise_not_transferred(
    lu_casino: Any, committee: Any, director: Any, capsys
) -> None:
    _found(committee)
    found = breaches_of("house.orphans_not_transferred")
    assert len(found) == 1 and found[0].article == "LU art. 8"
    assert str(LAST_YEAR) in found[0].object
    with pytest.raises(SystemExit) as exit_:
        call_command("inspect_books", "--json")
    assert exit_.value.code == 1
    assert "house.orphans_not_transferred" in capsys.readouterr().out
    # the same orphans inspected on a day of their own exercise: nothing is due yet
    assert not [b for b in inspect(dt.date(LAST_YEAR, 12, 1)).breaches if b.check.startswith("house.")]
    _transfer(director, amount="50.00")
    assert not breaches_of("house.orphans_not_transferred")


def test_register_rows(lu_casino: Any, committee: Any, director: Any) -> None:
    entry = _found(committee)
    services.repay_orphan(
        actor=director,
        entry=entry,
        repaid_on=dt.date(LAST_YEAR, 11, 5),
        amount="50.00",
        owner_name="Henri Weber",
        owner_address="Luxembourg",
        proof="Reçu de change",
    )
    _transfer(director, amount="0.00")
    register = get_register("orphans")
    context = register.context(Request(dt.date(LAST_YEAR, 1, 1), dt.date(LAST_YEAR + 1, 12, 31)))
    entries, repayments, transfers = context["sections"]
    assert entries["rows"][0]["cells"][0][0] == 1
    assert "Henri Weber" in repayments["rows"][0]["cells"][4][0]
    assert transfers["rows"][0]["cells"][0][0] == LAST_YEAR


def test_read_api(lu_casino: Any, committee: Any, officer: Any, croupier: Any, client: Any) -> None:
    _found(committee)
    client.force_login(officer)
    response = client.get("/api/house/orphans/")
    assert response.status_code == 200
    body = json.loads(response.content)
    rows = body["results"] if isinstance(body, dict) else body
    assert rows[0]["number"] == 1 and rows[0]["left"] == "50.00"
    assert client.post("/api/house/orphans/", {}).status_code == 403
    client.force_login(croupier)
    assert client.get("/api/house/orphans/").status_code == 403


def test_admin_add_form_records_the_act_without_any_id(
    lu_casino: Any, committee: Any, director: Any, client: Any
) -> None:
    entry = _found(committee)
    client.force_login(director)
    page = client.get("/admin/house_books/orphanrepayment/add/")
    assert page.status_code == 200
    assert "raw_id" not in page.content.decode() and f"n° {entry.number}" in page.content.decode()
    response = client.post(
        "/admin/house_books/orphanrepayment/add/",
        {
            "entry": entry.pk,
            "repaid_on": dt.date(LAST_YEAR, 11, 5).isoformat(),
            "amount": "80.00",
            "owner_name": "H. Weber",
            "owner_address": "Luxembourg",
            "proof": "Reçu",
        },
    )
    assert response.status_code == 200
    assert "LU art. 8" in response.content.decode()
    assert not OrphanRepayment.objects.exists()
    response = client.post(
        "/admin/house_books/orphanentry/add/",
        {
            "found_at_0": "03/11/" + str(LAST_YEAR),
            "found_at_1": "22:00",
            "found_at": f"{LAST_YEAR}-11-03 22:00",
            "kind": "floor",
            "amount": "5.00",
            "description": "Jeton trouvé",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert OrphanEntry.objects.count() == 2


def test_fr_inspection_finds_an_exercise_not_transferred(casino: Any, committee: Any, director: Any) -> None:
    _found(committee)
    found = breaches_of("house.orphans_not_transferred")
    assert len(found) == 1 and found[0].article == "règlement intérieur du casino"
    assert str(LAST_YEAR) in found[0].object
    assert not [b for b in breaches_of("house.orphans_not_transferred", dt.date(LAST_YEAR, 12, 1))]
