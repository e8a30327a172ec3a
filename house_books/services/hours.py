"""The hours of the séances (LU art. 71; under FR, an internal book).

The director tells the Ministers of Justice and of Finance at which hour the séances of the
counterpart games begin (it may differ on Sundays and holidays); he may change it only by
telling them at least 24 hours ahead. No séance opens before the hour notified; once opened
it goes on to the closing hour fixed by the authorisation, and stops earlier only when the
players have left, or after three coups in a row without any stake: that reason is recorded
(:func:`record_early_stop`) before the séance is closed.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from audit.actions import Action
from casino_ops.access import Act
from casino_ops.acts import declare_act
from casino_ops.regulations import cite
from tables import selectors as tables

from .. import selectors
from ..models import BankFailure, EarlyStop, EarlyStopReason, SeanceHours
from ..rules import hours as rules
from ..rules.common import required_text
from ._shared import create, profile

RULE = "house.hours"


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.hours'))")


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_HOURS_NOTIFIED,
    article="house.hours",
    gate_cites_article=True,
)
@transaction.atomic
def notify_seance_hours(
    *,
    actor: User,
    weekday_start: dt.time,
    holiday_start: dt.time,
    closing: dt.time,
    effective_from: dt.datetime,
    notified_at: dt.datetime,
    reference: str,
) -> SeanceHours:
    """The start hours notified to the ministers (weekdays; Sundays and holidays) and the
    closing hour of the authorisation, in force from ``effective_from``. A change is notified
    at least 24 hours before it takes effect (LU art. 71)."""
    current = profile()
    article = cite(RULE, current)
    weekday_start = rules.time(weekday_start, "weekday_start", article)
    holiday_start = rules.time(holiday_start, "holiday_start", article)
    closing = rules.time(closing, "closing", article)
    effective_from = rules.moment(effective_from, "effective_from", article)
    notified_at = rules.moment(notified_at, "notified_at", article)
    reference = required_text(reference, "reference", _("la référence de l'avis aux ministres"), article)
    rules.check_notice_moments(
        notified_at, effective_from, tables.acts_now(), article, clock_now=timezone.now()
    )
    _lock_book()
    earlier = SeanceHours.objects.exists()
    rules.check_notice_period(notified_at, effective_from, earlier, article)
    rules.check_not_empty(weekday_start, holiday_start, closing, article)
    hours = create(
        SeanceHours,
        article,
        weekday_start=weekday_start,
        holiday_start=holiday_start,
        closing=closing,
        effective_from=effective_from,
        notified_at=notified_at,
        reference=reference,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_HOURS_NOTIFIED,
        obj=hours,
        payload={
            "weekday_start": weekday_start.isoformat(),
            "holiday_start": holiday_start.isoformat(),
            "closing": closing.isoformat(),
            "effective_from": effective_from,
            "notified_at": notified_at,
            "reference": reference,
        },
    )
    return hours


@declare_act(
    act=Act.HOUSE_BOOKS,
    action=Action.HOUSE_EARLY_STOP_RECORDED,
    article="house.hours",
    gate_cites_article=True,
)
@transaction.atomic
def record_early_stop(
    *, actor: User, session: Any, reason: str, stopped_at: dt.datetime | None = None, note: str = ""
) -> EarlyStop:
    """Why an open séance stops before the closing hour: the players have left, or three coups
    in a row passed without any stake (LU art. 71), or the bank failed (LU art. 11: a failure
    recorded at or before the stop). Recorded before the séance is closed."""
    current = profile()
    article = cite(RULE, current)
    rules.check_stop_reason(reason, article)
    session = tables.open_sessions().select_for_update(of=("self",)).filter(pk=session.pk).first()
    rules.check_session_open(session, article)
    moment = stopped_at or tables.acts_now()
    moment = rules.moment(moment, "stopped_at", article)
    rules.check_stop_time(moment, session.opened_at, article, now=timezone.now())
    if reason == EarlyStopReason.BANK_FAILURE:
        rules.check_bank_failure(
            BankFailure.objects.filter(occurred_at__gte=session.opened_at, occurred_at__lte=moment).exists(),
            cite("house.bank", current),
        )
    rules.check_not_stopped(EarlyStop.objects.filter(session=session).exists(), article)
    hours = selectors.hours_in_force(session.opened_at)
    rules.check_early(
        moment, selectors.seance_window(hours, session.day)[1] if hours is not None else None, article
    )
    stop = create(
        EarlyStop,
        article,
        session=session,
        stopped_at=moment,
        reason=reason,
        note=str(note or "").strip(),
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.HOUSE_EARLY_STOP_RECORDED,
        obj=stop,
        payload={
            "session": session.pk,
            "table": session.table.number,
            "day": session.day,
            "stopped_at": moment,
            "reason": reason,
            "note": stop.note,
        },
    )
    return stop
