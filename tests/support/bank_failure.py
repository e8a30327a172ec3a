"""A bank failure (LU art. 11) on a day two days back, with tables 3 and 4 open from 20:00."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from house_books.models import BankFailure
from house_books.services.bank import record_bank_failure
from house_books.services.devices import assign_device, register_device
from tables.clock import history_at
from tables.models import Session
from tables.services import open_session
from tests.support.builders import HANDLOG_FIXTURES

D = timezone.localdate() - dt.timedelta(days=2)
ADVANCE = Decimal("30000.00")


def on_failure_day(hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(D, dt.time(hour, minute)))


@pytest.fixture
def seances(lu_casino: Any, director: Any, croupier: Any, tables_in_service: list[Any]) -> list[Session]:
    """Tables 3 and 4 open on ``D`` from 20:00, each with its shoe (LU art. 32 §3, 40)."""
    opened = []
    for table in tables_in_service:
        device = register_device(
            actor=director, approved_model="Sabot ACME 6", approval_reference="MF/SAB/12"
        )
        assign_device(actor=director, device=device, table_number=table.number, day=D)
        with history_at(on_failure_day(20)):
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


def fail_the_bank(director: Any, **kw: Any) -> BankFailure:
    values: dict[str, Any] = {
        "occurred_at": on_failure_day(21, 10),
        "description": "Encaisse de la contrepartie insuffisante",
        "officer_name": "Insp. Weber",
        "officer_told_at": on_failure_day(21, 15),
        "minister_told_at": on_failure_day(21, 40),
    }
    values.update(kw)
    with history_at(on_failure_day(21, 12)):
        return record_bank_failure(actor=director, **values)


def lu_hand_log(session: Session, label: str) -> bytes:
    doc = json.loads((HANDLOG_FIXTURES / "worked-example.json").read_text())
    doc.update(
        shoe_id=label,
        table=session.table.code,
        profile="LU",
        house_rules=session.house_rules,
        limits={"min": f"{session.minimum:.2f}", "max": f"{session.maximum:.2f}"},
    )
    return json.dumps(doc).encode()
