"""LU art. 11: after a bank failure no round is played before the new authorisation: a hand log
of a shoe filled after the failure is refused until the authorisation is recorded, while the
log of a shoe played before the failure is still received."""

from __future__ import annotations

import json
from typing import Any

import pytest

from house_books.services.bank import record_new_authorisation
from tables.clock import history_at
from tables.models import HandLog, Session
from tables.services import resume_session, upload_hand_log
from tests import builders
from tests.builders import HANDLOG_FIXTURES, assert_refused

from .test_bank_failure_stops import D, _at, _fail, cashier, seances  # noqa: F401

pytestmark = pytest.mark.django_db


def _log(session: Session, label: str) -> bytes:
    doc = json.loads((HANDLOG_FIXTURES / "worked-example.json").read_text())
    doc.update(
        shoe_id=label,
        table=session.table.code,
        profile="LU",
        house_rules=session.house_rules,
        limits={"min": f"{session.minimum:.2f}", "max": f"{session.maximum:.2f}"},
    )
    return json.dumps(doc).encode()


def test_no_round_is_played_before_the_new_authorisation(
    seances: list[Session],  # noqa: F811
    director: Any,
    croupier: Any,
    cashier: Any,  # noqa: F811
) -> None:
    session = seances[0]
    builders.shoe(session, croupier=croupier, label="AVANT", hour=20)
    failure = _fail(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    with history_at(_at(21, 30)):
        resume_session(actor=croupier, session=session)
    builders.shoe(session, croupier=croupier, label="APRES", hour=22)
    with history_at(_at(22, 30)):
        # the shoe played before the failure: its log is received
        upload_hand_log(actor=croupier, session=session, raw=_log(session, "AVANT"), source="api")
        with assert_refused("BANK_FAILURE_NO_AUTHORISATION", article="LU art. 11", field="session"):
            upload_hand_log(actor=croupier, session=session, raw=_log(session, "APRES"), source="api")
    assert list(HandLog.objects.values_list("shoe_label", flat=True)) == ["AVANT"]
    record_new_authorisation(actor=director, failure=failure, granted_on=D, reference="MF/2026/88")
    with history_at(_at(22, 45)):
        upload_hand_log(actor=croupier, session=session, raw=_log(session, "APRES"), source="api")
