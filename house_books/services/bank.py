"""A bank failure (LU art. 11; under FR, an internal book).

When the casino can no longer hold the bank, the counterpart games stop at once and the
authorisation to play them lapses; the director tells at once the officer present and the
Minister of Finances. Every open séance is interrupted by the same act, its cash counted and
written as at the end of play since every table stops (LU art. 23), the line saying why. No
séance opens again, and no advance is added, until a new authorisation is recorded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops import dates
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from tables import selectors as tables
from tables.services import interrupt_session

from ..models import BankFailure, NewAuthorisation
from ..rules import bank as rules
from ..rules.common import required_text
from ._shared import create, profile

RULE = "house.bank"


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.bank'))")


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_BANK_FAILURE_RECORDED,
    article="house.bank",
    gate_cites_article=True,
)
@transaction.atomic
def record_bank_failure(
    *,
    actor: User,
    occurred_at: dt.datetime,
    description: str,
    officer_name: str,
    officer_told_at: dt.datetime,
    minister_told_at: dt.datetime,
    counts: Mapping[int, Any] | None = None,
    cashier: Any = None,
) -> BankFailure:
    """The casino can no longer hold the bank: the games stopped, the officer present and the
    Minister of Finances told (both notices with their times). Every open séance stops at once:
    ``counts`` gives, per table number, the cash counted at its interruption (by the
    séance's croupier, signed by ``actor``, under LU before ``cashier``); the advance book's line says it is the failure."""
    current = profile()
    article = cite(RULE, current)
    now = timezone.now()
    occurred_at = rules.moment(occurred_at, "occurred_at", article, now=now)
    description = required_text(description, "description", _("les circonstances"), article)
    officer_name = required_text(officer_name, "officer_name", _("le fonctionnaire présent avisé"), article)
    officer_told_at = rules.moment(officer_told_at, "officer_told_at", article, now=now)
    minister_told_at = rules.moment(minister_told_at, "minister_told_at", article, now=now)
    rules.check_notices_after(
        occurred_at, (("officer_told_at", officer_told_at), ("minister_told_at", minister_told_at)), article
    )
    _lock_book()
    stopping = _counts_of_open_seances(counts or {}, current)
    rules.check_no_failure_pending(
        BankFailure.objects.filter(new_authorisation__isnull=True).exists(), article
    )
    failure = create(
        BankFailure,
        article,
        occurred_at=occurred_at,
        description=description,
        officer_name=officer_name,
        officer_told_at=officer_told_at,
        minister_told_at=minister_told_at,
        recorded_by=actor,
    )
    note = _(
        "Défaillance de la contrepartie du %(at)s : jeux de contrepartie arrêtés séance tenante (%(a)s)"
    ) % {
        "at": dates.moment(occurred_at),
        "a": article,
    }
    stopped = []
    for session, amount in stopping:
        # each table's croupier counts its cash, the director who records the failure signs
        # (who counts never signs: FR art. 69; LU art. 10, 51)
        entry = interrupt_session(
            actor=session.croupier,
            session=session,
            mode="counted",
            amount=amount,
            signed_by=actor,
            cashier=cashier,
            note=note,
        )
        stopped.append({"table": session.table.number, "session": session.pk, "line": entry.line})
    audit.record(
        actor=actor,
        action=Action.HOUSE_BANK_FAILURE_RECORDED,
        obj=failure,
        payload={
            "occurred_at": occurred_at,
            "description": description,
            "officer_name": officer_name,
            "officer_told_at": officer_told_at,
            "minister_told_at": minister_told_at,
            "stopped": stopped,
        },
    )
    return failure


def _counts_of_open_seances(counts: Mapping[int, Any], current: str) -> list[tuple[Any, Any]]:
    """Each open séance with the cash counted at its table: every table stops, so each one's
    cash is counted and written as at the end of play (LU art. 23)."""
    article = cite("session.interruption", current)
    open_now = list(tables.open_sessions().filter(status="open"))  # an interrupted one stopped already
    return rules.counts_of_open_seances(counts, open_now, article)


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_NEW_AUTHORISATION_RECORDED,
    article="house.bank",
    gate_cites_article=True,
)
@transaction.atomic
def record_new_authorisation(
    *, actor: User, failure: BankFailure, granted_on: dt.date, reference: str
) -> NewAuthorisation:
    """The new authorisation granted after ``failure``: the séances may open again."""
    current = profile()
    article = cite(RULE, current)
    failure = BankFailure.objects.select_for_update().get(pk=failure.pk)
    rules.check_authorisation_not_recorded(NewAuthorisation.objects.filter(failure=failure).exists(), article)
    rules.check_granted_on(granted_on, failure.occurred_at, article, now=timezone.now())
    reference = required_text(reference, "reference", _("la référence de l'autorisation"), article)
    authorisation = create(
        NewAuthorisation,
        article,
        failure=failure,
        granted_on=granted_on,
        reference=reference,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_NEW_AUTHORISATION_RECORDED,
        obj=authorisation,
        payload={"failure": failure.pk, "granted_on": granted_on, "reference": reference},
    )
    return authorisation
