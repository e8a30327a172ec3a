"""LU art. 11: after a bank failure no séance resumes and no round is played before the new
authorisation: the interrupted séance stays so, a hand log of rounds played after the failure is
refused until the authorisation is recorded, while the log of a shoe played before the failure
is still received."""

from __future__ import annotations

from typing import Any

import pytest

from house_books.services.bank import record_new_authorisation
from tables.clock import history_at
from tables.models import HandLog, Session
from tables.services import resume_session, upload_hand_log
from tests.support import builders
from tests.support.bank_failure import (  # noqa: F401
    D,
    fail_the_bank,
    lu_hand_log,
    on_failure_day,
    seances,
)
from tests.support.builders import assert_refused

pytestmark = pytest.mark.django_db


def test_no_round_is_played_before_the_new_authorisation(
    seances: list[Session],  # noqa: F811
    director: Any,
    croupier: Any,
    cashier: Any,
) -> None:
    session = seances[0]
    builders.shoe(session, croupier=croupier, label="AVANT", hour=20)
    failure = fail_the_bank(director, counts={3: "30120.00", 4: "29000.00"}, cashier=cashier)
    with history_at(on_failure_day(21, 30)):
        # no séance resumes before the new authorisation (was accepted)
        with assert_refused("BANK_FAILURE_NO_AUTHORISATION", article="LU art. 11", field="session"):
            resume_session(actor=croupier, session=session)
    session.refresh_from_db()
    with history_at(on_failure_day(22, 30)):
        # the shoe played before the failure: its log is received
        upload_hand_log(actor=croupier, session=session, raw=lu_hand_log(session, "AVANT"), source="api")
        # a shoe the séance never filled: its rounds are played now, after the failure
        with assert_refused("BANK_FAILURE_NO_AUTHORISATION", article="LU art. 11", field="session"):
            upload_hand_log(
                actor=croupier, session=session, raw=lu_hand_log(session, "AILLEURS"), source="api"
            )
    assert list(HandLog.objects.values_list("shoe_label", flat=True)) == ["AVANT"]
    record_new_authorisation(actor=director, failure=failure, granted_on=D, reference="MF/2026/88")
    with history_at(on_failure_day(22, 40)):
        resume_session(actor=croupier, session=session)
    session.refresh_from_db()
    builders.shoe(session, croupier=croupier, label="APRES", hour=23)
    with history_at(on_failure_day(23, 30)):
        upload_hand_log(actor=croupier, session=session, raw=lu_hand_log(session, "APRES"), source="api")
    assert sorted(HandLog.objects.values_list("shoe_label", flat=True)) == ["APRES", "AVANT"]
