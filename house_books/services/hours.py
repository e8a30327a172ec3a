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
from casino_ops.regulations import RegulationError, cite
from tables import selectors as tables

from .. import selectors
from ..models import BankFailure, EarlyStop, EarlyStopReason, SeanceHours
from ..rules.common import required_text
from ._shared import create, profile, require_management

RULE = "house.hours"
NOTICE = dt.timedelta(hours=24)


def _time(value: Any, field: str, article: str) -> dt.time:
    if not isinstance(value, dt.time):
        raise RegulationError("FIELD_INVALID", _("Indiquez une heure."), article, field=field)
    return value


def _moment(value: Any, field: str, article: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date et une heure."), article, field=field)
    return value


def _lock_book() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('house_books.hours'))")


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
    require_management(actor, article)
    weekday_start = _time(weekday_start, "weekday_start", article)
    holiday_start = _time(holiday_start, "holiday_start", article)
    closing = _time(closing, "closing", article)
    effective_from = _moment(effective_from, "effective_from", article)
    notified_at = _moment(notified_at, "notified_at", article)
    reference = required_text(reference, "reference", _("la référence de l'avis aux ministres"), article)
    if notified_at > timezone.now():
        raise RegulationError(
            "DATE_IN_FUTURE", _("L'avis aux ministres est dans le futur."), article, field="notified_at"
        )
    # Written when the notice is given: never back-dated to make a change look notified in time,
    # nor taking effect before it is written (LU art. 71: hours already past cannot be changed).
    now = tables.acts_now()
    if timezone.localtime(notified_at).date() < timezone.localtime(now).date():
        raise RegulationError(
            "HOURS_NOTICE_BACKDATED",
            _("L'avis aux ministres s'inscrit le jour où il est donné : le %(at)s est passé.")
            % {"at": timezone.localtime(notified_at).strftime("%d/%m/%Y")},
            article,
            field="notified_at",
        )
    if effective_from < now:
        raise RegulationError(
            "HOURS_BACKDATED",
            _("Les heures notifiées valent pour l'avenir : le %(at)s est passé.")
            % {"at": timezone.localtime(effective_from).strftime("%d/%m/%Y %H:%M")},
            article,
            field="effective_from",
        )
    _lock_book()
    earlier = SeanceHours.objects.exists()
    if effective_from < notified_at or (earlier and effective_from - notified_at < NOTICE):
        raise RegulationError(
            "HOURS_NOTICE_TOO_SHORT",
            _(
                "Un changement des heures d'ouverture est notifié aux ministres au moins vingt-quatre heures à l'avance (avis du %(at)s)."
            )
            % {"at": timezone.localtime(notified_at).strftime("%d/%m/%Y %H:%M")},
            article,
            field="effective_from",
        )
    if closing in (weekday_start, holiday_start):
        raise RegulationError(
            "HOURS_EMPTY",
            _("L'heure de fermeture ne peut être l'heure d'ouverture."),
            article,
            field="closing",
        )
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


@transaction.atomic
def record_early_stop(
    *, actor: User, session: Any, reason: str, stopped_at: dt.datetime | None = None, note: str = ""
) -> EarlyStop:
    """Why an open séance stops before the closing hour: the players have left, or three coups
    in a row passed without any stake (LU art. 71), or the bank failed (LU art. 11: a failure
    recorded at or before the stop). Recorded before the séance is closed."""
    current = profile()
    article = cite(RULE, current)
    require_management(actor, article)
    if reason not in EarlyStopReason.values:
        raise RegulationError(
            "EARLY_STOP_REASON",
            _(
                "Une séance ne s'arrête avant l'heure de fermeture que si les joueurs se sont retirés ou après trois coups de suite sans mise."
            ),
            article,
            field="reason",
        )
    session = tables.open_sessions().select_for_update(of=("self",)).filter(pk=session.pk).first()
    if session is None:
        raise RegulationError(
            "SESSION_ALREADY_CLOSED",
            _("La séance est déjà clôturée : le motif s'inscrit avant la clôture."),
            article,
            field="session",
        )
    moment = stopped_at or tables.acts_now()
    moment = _moment(moment, "stopped_at", article)
    if moment > timezone.now() or moment < session.opened_at:
        raise RegulationError(
            "EARLY_STOP_TIME",
            _("L'arrêt se situe pendant la séance, au plus tard maintenant."),
            article,
            field="stopped_at",
        )
    if (
        reason == EarlyStopReason.BANK_FAILURE
        and not BankFailure.objects.filter(
            occurred_at__gte=session.opened_at, occurred_at__lte=moment
        ).exists()
    ):
        raise RegulationError(
            "EARLY_STOP_NO_BANK_FAILURE",
            _("Aucune défaillance de la contrepartie n'est inscrite pendant cette séance, avant l'arrêt."),
            cite("house.bank", current),
            field="reason",
        )
    if EarlyStop.objects.filter(session=session).exists():
        raise RegulationError(
            "EARLY_STOP_RECORDED", _("L'arrêt de cette séance est déjà inscrit."), article, field="session"
        )
    hours = selectors.hours_in_force(session.opened_at)
    if hours is not None and moment >= selectors.seance_window(hours, session.day)[1]:
        raise RegulationError(
            "EARLY_STOP_NOT_EARLY",
            _("L'heure de fermeture est atteinte : aucun motif n'est à inscrire."),
            article,
            field="stopped_at",
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
