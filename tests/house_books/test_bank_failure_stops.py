"""A bank failure (LU art. 11) stops every open séance at once: each interrupted by the tables'
own act, its cash counted and written as at the end of play since every table stops (LU art.
23), the line saying why; no advance is added until the new authorisation is recorded."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops import roles
from casino_ops.regulations import RegulationError
from house_books.models import BankFailure
from house_books.services.bank import record_bank_failure, record_new_authorisation
from house_books.services.devices import assign_device, register_device
from tables.clock import history_at
from tables.models import EntryKind, Session, SessionStatus
from tables.services import add_advance, open_session, resume_session

pytestmark = pytest.mark.django_db

D = timezone.localdate() - dt.timedelta(days=2)
ADVANCE = Decimal("30000.00")


def _at(hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(D, dt.time(hour, minute)))


@pytest.fixture
def cashier(users: dict[str, Any]) -> Any:
    return users[roles.CASHIER]


@pytest.fixture
def seances(lu_casino: Any, director: Any, croupier: Any, tables_in_service: list[Any]) -> list[Session]:
    """Tables 3 and 4 open on ``D`` from 20:00, each with its shoe (LU art. 32 §3, 40)."""
    opened = []
    for table in tables_in_service:
        device = register_device(
            actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12"
        )
        assign_device(actor=director, device=device, table_number=table.number, day=D)
        with history_at(_at(20)):
            opened.append(
                open_session(
                    actor=director,
                    table=table,
                    day=D,
                    minimum=Decimal("5.00"),
                    maximum=Decimal("500.00"),
                    advance_amount=ADVANCE,
                    croupier=croupier,
                    guarantee_fund=Decimal("100000.00"),
                )
            )
    return opened


def _fail(director: Any, **kw: Any) -> BankFailure:
    values: dict[str, Any] = {
        "occurred_at": _at(21, 10),
        "description": "Encaisse de la contrepartie insuffisante",
        "officer_name": "Insp. Weber",
        "officer_told_at": _at(21, 15),
        "minister_told_at": _at(21, 40),
    }
    values.update(kw)
    with history_at(_at(21, 12)):
        return record_bank_failure(actor=director, **values)


def test_the_failure_interrupts_every_open_seance_with_its_reason(
    seances: list[Session], director: Any, croupier: Any, cashier: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        _fail(director, counts={3: "30120.00"}, cashier=cashier)
    assert (refused.value.code, refused.value.field) == ("BANK_FAILURE_COUNT_MISSING", "counts")
    assert refused.value.article == "LU art. 23" and "4" in refused.value.message
    with pytest.raises(RegulationError) as refused:
        _fail(director, counts={3: "30120.00", 4: "29000.00"})
    assert (refused.value.code, refused.value.field) == ("CASHIER_ABSENT", "cashier")
    with pytest.raises(RegulationError) as refused:
        _fail(director, counts={3: "30120.00", 4: "29000.00", 7: "1.00"}, cashier=cashier)
    assert (refused.value.code, refused.value.field) == ("BANK_FAILURE_NO_SEANCE", "counts")
    # nothing written by a refused failure: no failure, every séance still open
    assert not BankFailure.objects.exists()
    assert set(Session.objects.values_list("status", flat=True)) == {SessionStatus.OPEN}

    failure = _fail(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    for session, amount in zip(seances, ("30120.00", "29000.00"), strict=True):
        session.refresh_from_db()
        assert session.status == SessionStatus.INTERRUPTED
        line = session.entries.order_by("-line").first()
        assert line.kind == EntryKind.INTERRUPTION_COUNTED and line.amount == Decimal(amount)
        assert line.signed_by == director and line.cashier == cashier
        assert "Défaillance de la contrepartie" in line.note and "LU art. 11" in line.note
    payload = AuditEvent.objects.get(action="house.bank_failure_recorded", object_id=str(failure.pk)).payload
    payload = json.loads(payload) if isinstance(payload, str) else payload
    assert [s["table"] for s in payload["stopped"]] == [3, 4]
    assert AuditEvent.objects.filter(action="session.interrupted").count() == 2


def test_no_advance_until_the_new_authorisation(
    seances: list[Session], director: Any, committee: Any, croupier: Any, cashier: Any, client: Any
) -> None:
    failure = _fail(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    session = seances[0]
    with history_at(_at(21, 30)):
        with pytest.raises(RegulationError) as refused:  # the play never resumes (LU art. 11)
            resume_session(actor=croupier, session=session)
        assert (refused.value.code, refused.value.field) == ("BANK_FAILURE_NO_AUTHORISATION", "session")
        with pytest.raises(RegulationError) as refused:
            add_advance(actor=committee, session=session, amount=ADVANCE, counted_by=croupier)
    assert (refused.value.code, refused.value.article) == ("BANK_FAILURE_NO_AUTHORISATION", "LU art. 11")
    assert not session.entries.filter(kind=EntryKind.FURTHER_ADVANCE).exists()
    client.force_login(committee)
    response = client.post(
        f"/api/tables/sessions/{session.pk}/advances/",
        {"amount": "30000.00", "counted_by": croupier.username},
        content_type="application/json",
    )
    body = json.loads(response.content)
    assert response.status_code == 400, body
    assert (body["code"], body["article"]) == ("BANK_FAILURE_NO_AUTHORISATION", "LU art. 11")
    record_new_authorisation(actor=director, failure=failure, granted_on=D, reference="MF/2026/88")
    with history_at(_at(22)):
        resume_session(actor=croupier, session=session)
        add_advance(actor=committee, session=session, amount=ADVANCE, counted_by=croupier)


def test_the_admin_records_the_failure_with_each_tables_count(
    seances: list[Session], director: Any, cashier: Any, client: Any
) -> None:
    client.force_login(director)
    form = {
        "occurred_at": _at(21, 10).strftime("%Y-%m-%d %H:%M"),
        "description": "Encaisse insuffisante",
        "officer_name": "Insp. Weber",
        "officer_told_at": _at(21, 15).strftime("%Y-%m-%d %H:%M"),
        "minister_told_at": _at(21, 40).strftime("%Y-%m-%d %H:%M"),
        "counts": "3: 30120.00",
        "cashier": cashier.pk,
    }
    response = client.post("/admin/house_books/bankfailure/add/", form)
    page = response.content.decode()
    assert response.status_code == 200 and "LU art. 23" in page and "table 4" in page
    assert not BankFailure.objects.exists()
    response = client.post("/admin/house_books/bankfailure/add/", {**form, "counts": "3 30120"})
    assert response.status_code == 200 and not BankFailure.objects.exists()
    response = client.post(
        "/admin/house_books/bankfailure/add/", {**form, "counts": "3: 30120.00\n4: 29000,00"}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert set(Session.objects.values_list("status", flat=True)) == {SessionStatus.INTERRUPTED}


def test_a_stop_put_down_to_the_failure_needs_a_failure_during_the_seance(
    seances: list[Session], director: Any, croupier: Any, cashier: Any
) -> None:
    from house_books.models import EarlyStop
    from house_books.services.hours import record_early_stop

    with pytest.raises(RegulationError) as refused:
        record_early_stop(actor=director, session=seances[0], reason="bank_failure", stopped_at=_at(21, 20))
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "EARLY_STOP_NO_BANK_FAILURE",
        "reason",
        "LU art. 11",
    )
    _fail(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    stop = record_early_stop(
        actor=director, session=seances[0], reason="bank_failure", stopped_at=_at(21, 20)
    )
    assert EarlyStop.objects.get() == stop
    assert stop.get_reason_display() == "défaillance de la contrepartie : jeux arrêtés séance tenante"
