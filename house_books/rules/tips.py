"""The checks of the register of tips (LU art. 57; under FR, internal rules): pure, no query."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops import dates
from casino_ops.regulations import RegulationError


def check_count_day(day: Any, moment: dt.datetime, article: str) -> None:
    """The box of a day gone or begun is counted, on that day or after it."""
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez la journée."), article, field="day")
    if day > timezone.localdate() or moment > timezone.now():
        raise RegulationError(
            "TIPS_IN_FUTURE", _("On ne compte pas les pourboires d'un jour à venir."), article, field="day"
        )
    if timezone.localtime(moment).date() < day:
        raise RegulationError(
            "TIPS_COUNTED_BEFORE_DAY",
            _("Le comptage ne peut précéder la journée."),
            article,
            field="counted_at",
        )


def check_witness(actor: User, witness: Any, article: str) -> None:
    """The count is made before a witness, not the one who counts."""
    if witness is None or getattr(witness, "pk", None) == actor.pk:
        raise RegulationError(
            "TIPS_WITNESS_REQUIRED",
            _("Le comptage se fait devant un témoin, autre que celui qui compte."),
            article,
            field="witness",
        )


def check_not_counted(day: dt.date, already_counted: bool, article: str) -> None:
    """One count per day."""
    if already_counted:
        raise RegulationError(
            "TIPS_ALREADY_COUNTED",
            _("Les pourboires du %(day)s sont déjà comptés.") % {"day": dates.day(day)},
            article,
            field="day",
        )
