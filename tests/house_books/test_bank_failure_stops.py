"""A bank failure (LU art. 11) stops every open séance at once: each interrupted by the tables'
own act, its cash counted and written as at the end of play since every table stops (LU art.
23), the line saying why; no advance is added until the new authorisation is recorded."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from audit.models import AuditEvent
from casino_ops.regulations import RegulationError
from house_books.models import BankFailure
from house_books.services.bank import record_new_authorisation
from tables.clock import history_at
from tables.models import EntryKind, Session, SessionStatus
from tables.services import add_advance, resume_session
from tests.support.bank_failure import (
    ADVANCE,
    D,
    fail_the_bank,
    on_failure_day,
    seances,  # noqa: F401 - the fixture
)

pytestmark = pytest.mark.django_db


def test_the_failure_interrupts_every_open_seance_with_its_reason(
    seances: list[Session],  # noqa: F811 - the fixture imported above
    director: Any,
    croupier: Any,
    cashier: Any,
) -> None:
    with pytest.raises(RegulationError) as refused:
        fail_the_bank(director, counts={3: "30120.00"}, cashier=cashier)
    assert (refused.value.code, refused.value.field) == ("BANK_FAILURE_COUNT_MISSING", "counts")
    assert refused.value.article == "LU art. 23" and "4" in refused.value.message
    with pytest.raises(RegulationError) as refused:
        fail_the_bank(director, counts={3: "30120.00", 4: "29000.00"})
    assert (refused.value.code, refused.value.field) == ("CASHIER_ABSENT", "cashier")
    with pytest.raises(RegulationError) as refused:
        fail_the_bank(director, counts={3: "30120.00", 4: "29000.00", 7: "1.00"}, cashier=cashier)
    assert (refused.value.code, refused.value.field) == ("BANK_FAILURE_NO_SEANCE", "counts")
    # nothing written by a refused failure: no failure, every séance still open
    assert not BankFailure.objects.exists()
    assert set(Session.objects.values_list("status", flat=True)) == {SessionStatus.OPEN}

    failure = fail_the_bank(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
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
    seances: list[Session],  # noqa: F811 - the fixture imported above
    director: Any,
    committee: Any,
    croupier: Any,
    cashier: Any,
    client: Any,
) -> None:
    failure = fail_the_bank(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    session = seances[0]
    with history_at(on_failure_day(21, 30)):
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
    with history_at(on_failure_day(22)):
        resume_session(actor=croupier, session=session)
        add_advance(actor=committee, session=session, amount=ADVANCE, counted_by=croupier)


def test_the_admin_records_the_failure_with_each_tables_count(
    seances: list[Session],  # noqa: F811 - the fixture imported above
    director: Any,
    cashier: Any,
    client: Any,
) -> None:
    client.force_login(director)
    form = {
        "occurred_at": on_failure_day(21, 10).strftime("%Y-%m-%d %H:%M"),
        "description": "Encaisse insuffisante",
        "officer_name": "Insp. Weber",
        "officer_told_at": on_failure_day(21, 15).strftime("%Y-%m-%d %H:%M"),
        "minister_told_at": on_failure_day(21, 40).strftime("%Y-%m-%d %H:%M"),
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
    seances: list[Session],  # noqa: F811 - the fixture imported above
    director: Any,
    croupier: Any,
    cashier: Any,
) -> None:
    from house_books.models import EarlyStop
    from house_books.services.hours import record_early_stop

    with pytest.raises(RegulationError) as refused:
        record_early_stop(
            actor=director, session=seances[0], reason="bank_failure", stopped_at=on_failure_day(21, 20)
        )
    assert (refused.value.code, refused.value.field, refused.value.article) == (
        "EARLY_STOP_NO_BANK_FAILURE",
        "reason",
        "LU art. 11",
    )
    fail_the_bank(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    stop = record_early_stop(
        actor=director, session=seances[0], reason="bank_failure", stopped_at=on_failure_day(21, 20)
    )
    assert EarlyStop.objects.get() == stop
    assert stop.get_reason_display() == "défaillance de la contrepartie : jeux arrêtés séance tenante"
