"""The checks of the séance hours and of a séance stopped early (LU art. 11, 71; under FR,
the casino's internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.regulations import RegulationError

from ..models import EarlyStopReason

NOTICE = dt.timedelta(hours=24)


def time(value: Any, field: str, article: str) -> dt.time:
    if not isinstance(value, dt.time):
        raise RegulationError("FIELD_INVALID", _("Indiquez une heure."), article, field=field)
    return value


def moment(value: Any, field: str, article: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date et une heure."), article, field=field)
    return value


def check_notice_moments(
    notified_at: dt.datetime, effective_from: dt.datetime, now: dt.datetime, article: str
) -> None:
    """Written when the notice is given: never back-dated to make a change look notified in
    time, nor taking effect before it is written (hours already past cannot be changed)."""
    if notified_at > timezone.now():
        raise RegulationError(
            "DATE_IN_FUTURE", _("L'avis aux ministres est dans le futur."), article, field="notified_at"
        )
    if timezone.localtime(notified_at).date() < timezone.localtime(now).date():
        raise RegulationError(
            "HOURS_NOTICE_BACKDATED",
            _("L'avis aux ministres s'inscrit le jour où il est donné : le %(at)s est passé.")
            % {"at": dates.day(notified_at)},
            article,
            field="notified_at",
        )
    if effective_from < now:
        raise RegulationError(
            "HOURS_BACKDATED",
            _("Les heures notifiées valent pour l'avenir : le %(at)s est passé.")
            % {"at": dates.moment(effective_from)},
            article,
            field="effective_from",
        )


def check_notice_period(
    notified_at: dt.datetime, effective_from: dt.datetime, earlier: bool, article: str
) -> None:
    """A change (``earlier``: hours already notified) is notified at least 24 hours ahead."""
    if effective_from < notified_at or (earlier and effective_from - notified_at < NOTICE):
        raise RegulationError(
            "HOURS_NOTICE_TOO_SHORT",
            _(
                "Un changement des heures d'ouverture est notifié aux ministres au moins vingt-quatre heures à l'avance (avis du %(at)s)."
            )
            % {"at": dates.moment(notified_at)},
            article,
            field="effective_from",
        )


def check_not_empty(weekday_start: dt.time, holiday_start: dt.time, closing: dt.time, article: str) -> None:
    if closing in (weekday_start, holiday_start):
        raise RegulationError(
            "HOURS_EMPTY",
            _("L'heure de fermeture ne peut être l'heure d'ouverture."),
            article,
            field="closing",
        )


def check_stop_reason(reason: str, article: str) -> None:
    if reason not in EarlyStopReason.values:
        raise RegulationError(
            "EARLY_STOP_REASON",
            _(
                "Une séance ne s'arrête avant l'heure de fermeture que si les joueurs se sont retirés ou après trois coups de suite sans mise."
            ),
            article,
            field="reason",
        )


def check_session_open(session: Any, article: str) -> None:
    if session is None:
        raise RegulationError(
            "SESSION_ALREADY_CLOSED",
            _("La séance est déjà clôturée : le motif s'inscrit avant la clôture."),
            article,
            field="session",
        )


def check_stop_time(stopped_at: dt.datetime, opened_at: dt.datetime, article: str) -> None:
    if stopped_at > timezone.now() or stopped_at < opened_at:
        raise RegulationError(
            "EARLY_STOP_TIME",
            _("L'arrêt se situe pendant la séance, au plus tard maintenant."),
            article,
            field="stopped_at",
        )


def check_bank_failure(bank_failed: bool, bank_article: str) -> None:
    """A stop for the bank's failure follows a failure recorded in the séance (LU art. 11)."""
    if not bank_failed:
        raise RegulationError(
            "EARLY_STOP_NO_BANK_FAILURE",
            _("Aucune défaillance de la contrepartie n'est inscrite pendant cette séance, avant l'arrêt."),
            bank_article,
            field="reason",
        )


def check_not_stopped(recorded: bool, article: str) -> None:
    if recorded:
        raise RegulationError(
            "EARLY_STOP_RECORDED", _("L'arrêt de cette séance est déjà inscrit."), article, field="session"
        )


def check_early(stopped_at: dt.datetime, closing_at: dt.datetime | None, article: str) -> None:
    """``closing_at``: the end of the séance's window under the hours in force, if any."""
    if closing_at is not None and stopped_at >= closing_at:
        raise RegulationError(
            "EARLY_STOP_NOT_EARLY",
            _("L'heure de fermeture est atteinte : aucun motif n'est à inscrire."),
            article,
            field="stopped_at",
        )
