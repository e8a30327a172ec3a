"""The recipe's rules: pure functions given what the service read and its day, and the refusal
they raise declared beside them (``casino_ops.refusals.declare``)."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext_lazy as _

from casino_ops import dates, refusals

CLEANING_IN_FUTURE = refusals.declare(
    __name__,
    "CLEANING_IN_FUTURE",
    _("Un nettoyage se date au plus tard du jour où il est inscrit (%(today)s)."),
    ("house.devices",),
    field="cleaned_on",
)


def check_cleaning(cleaned_on: dt.date, today: dt.date, profile: str) -> None:
    """A cleaning is recorded once done: never dated after the gaming day it is recorded on."""
    if cleaned_on > today:
        raise CLEANING_IN_FUTURE.error(profile, today=dates.day(today))
