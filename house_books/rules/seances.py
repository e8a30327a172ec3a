"""The checks the casino's books add to the opening, the advance and the closing of a séance
(LU art. 11, 32, 40, 52, 71; under FR, the casino's internal rules): pure, no query; the
hook that runs them is :mod:`house_books.act_checks`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.act_checks import Hook
from casino_ops.regulations import RegulationError, cite


def check_seance_hours(
    act: Hook,
    day: dt.date,
    profile: str,
    at: dt.datetime,
    start: dt.datetime,
    close: dt.datetime,
    stopped: bool,
) -> None:
    """A séance opens within the hours notified to the ministers, and closes before the
    closing hour only once its early stop is recorded (``stopped``)."""
    article = cite("house.hours", profile)
    if act == Hook.SESSION_OPEN and at < start:
        raise RegulationError(
            "SESSION_BEFORE_START_HOUR",
            _("Les séances du %(day)s ne commencent pas avant %(start)s, heure notifiée aux ministres.")
            % {"day": dates.day(day), "start": timezone.localtime(start).strftime("%H:%M")},
            article,
            field="table",
        )
    if act == Hook.SESSION_OPEN and at >= close:
        raise RegulationError(
            "SESSION_AFTER_CLOSING_HOUR",
            _("L'heure de fermeture (%(close)s) est passée.")
            % {"close": timezone.localtime(close).strftime("%H:%M")},
            article,
            field="table",
        )
    if act == Hook.SESSION_CLOSE and at < close and not stopped:
        raise RegulationError(
            "EARLY_STOP_WITHOUT_REASON",
            _(
                "La séance ne s'arrête avant l'heure de fermeture (%(close)s) que si les joueurs se sont retirés ou après trois coups de suite sans mise : inscrivez d'abord ce motif."
            )
            % {"close": timezone.localtime(close).strftime("%H:%M")},
            article,
            field="session",
        )


def check_bank_authorised(act: Hook, profile: str, failure: Any) -> None:
    """LU art. 11: after a failure not yet followed by a new authorisation (``failure``) no
    séance opens, no advance feeds an open one, no interrupted séance resumes and no round is
    played."""
    if failure is None:
        return
    when = {"at": dates.moment(failure.occurred_at)}
    if act == Hook.SESSION_PLAY:
        raise RegulationError(
            "BANK_FAILURE_NO_AUTHORISATION",
            _(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune manche n'est jouée avant l'inscription d'une nouvelle autorisation : journal d'un sabot garni après la défaillance refusé."
            )
            % when,
            cite("house.bank", profile),
            field="session",
        )
    if act == Hook.SESSION_RESUME:
        raise RegulationError(
            "BANK_FAILURE_NO_AUTHORISATION",
            _(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune séance interrompue ne reprend avant l'inscription d'une nouvelle autorisation."
            )
            % when,
            cite("house.bank", profile),
            field="session",
        )
    if act == Hook.SESSION_ADVANCE:
        raise RegulationError(
            "BANK_FAILURE_NO_AUTHORISATION",
            _(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune avance n'est versée avant l'inscription d'une nouvelle autorisation."
            )
            % when,
            cite("house.bank", profile),
            field="session",
        )
    raise RegulationError(
        "BANK_FAILURE_NO_AUTHORISATION",
        _(
            "Depuis la défaillance de la contrepartie du %(at)s, aucune séance n'ouvre avant l'inscription d'une nouvelle autorisation."
        )
        % when,
        cite("house.bank", profile),
        field="table",
    )


def check_device_assigned(table_number: int, day: dt.date, profile: str, assigned: bool) -> None:
    """Under LU a séance opens only with its numbered shoe assigned (``assigned``)."""
    if not assigned:
        raise RegulationError(
            "SESSION_WITHOUT_DEVICE",
            _(
                "Aucun sabot n'est affecté à la table %(t)s pour la séance du %(day)s : le directeur affecte d'abord un sabot numéroté de l'armoire."
            )
            % {"t": table_number, "day": dates.day(day)},
            cite("house.devices", profile),
            field="table",
        )


def check_not_closed_down(profile: str, closing: Any) -> None:
    """After the closing down (``closing``) no séance opens."""
    if closing is not None:
        raise RegulationError(
            "CASINO_CLOSED_DOWN",
            _("L'exploitation a cessé le %(at)s : aucune séance n'ouvre plus.")
            % {"at": dates.moment(closing.closed_at)},
            cite("house.closing", profile),
            field="table",
        )
