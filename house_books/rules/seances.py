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
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite


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
        raise Refusal.SESSION_BEFORE_START_HOUR.error(
            article=article, day=dates.day(day), start=timezone.localtime(start).strftime("%H:%M")
        )
    if act == Hook.SESSION_OPEN and at >= close:
        raise Refusal.SESSION_AFTER_CLOSING_HOUR.error(
            article=article, close=timezone.localtime(close).strftime("%H:%M")
        )
    if act == Hook.SESSION_CLOSE and at < close and not stopped:
        raise Refusal.EARLY_STOP_WITHOUT_REASON.error(
            article=article, close=timezone.localtime(close).strftime("%H:%M")
        )


def check_bank_authorised(act: Hook, profile: str, failure: Any) -> None:
    """LU art. 11: after a failure not yet followed by a new authorisation (``failure``) no
    séance opens, no advance feeds an open one, no interrupted séance resumes and no round is
    played."""
    if failure is None:
        return
    when = {"at": dates.moment(failure.occurred_at)}
    if act == Hook.SESSION_PLAY:
        raise Refusal.BANK_FAILURE_NO_AUTHORISATION.error(
            profile,
            field="session",
            message=_(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune manche n'est jouée avant l'inscription d'une nouvelle autorisation : journal d'un sabot garni après la défaillance refusé."
            ),
            values=when,
        )
    if act == Hook.SESSION_RESUME:
        raise Refusal.BANK_FAILURE_NO_AUTHORISATION.error(
            profile,
            field="session",
            message=_(
                "Depuis la défaillance de la contrepartie du %(at)s, aucune séance interrompue ne reprend avant l'inscription d'une nouvelle autorisation."
            ),
            values=when,
        )
    if act == Hook.SESSION_ADVANCE:
        raise Refusal.BANK_FAILURE_NO_AUTHORISATION.error(profile, field="session", values=when)
    raise Refusal.BANK_FAILURE_NO_AUTHORISATION.error(
        profile,
        field="table",
        message=_(
            "Depuis la défaillance de la contrepartie du %(at)s, aucune séance n'ouvre avant l'inscription d'une nouvelle autorisation."
        ),
        values=when,
    )


def check_device_assigned(table_number: int, day: dt.date, profile: str, assigned: bool) -> None:
    """Under LU a séance opens only with its numbered shoe assigned (``assigned``)."""
    if not assigned:
        raise Refusal.SESSION_WITHOUT_DEVICE.error(profile, t=table_number, day=dates.day(day))


def check_not_closed_down(profile: str, closing: Any) -> None:
    """After the closing down (``closing``) no séance opens."""
    if closing is not None:
        raise Refusal.CASINO_CLOSED_DOWN.error(profile, at=dates.moment(closing.closed_at))
