"""Self-inspection of the other books (see casino_ops.inspection)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.inspection import Breach, check
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from tables import selectors as tables

from . import selectors


def _profile() -> str:
    return get_casino().profile


@check("house.orphans_not_transferred", _("Orphelins non versés au bureau de bienfaisance en fin d'exercice"))
def orphans_not_transferred(day: dt.date | None) -> Iterator[Breach]:
    """Every exercise ended before ``day`` with orphans whose balance was not paid over."""
    today = day or timezone.localdate()
    open_years = selectors.orphan_exercises_open(before=today.year)
    if not open_years:
        return
    article = cite("house.orphans", _profile())
    for year, balance in open_years:
        yield Breach(
            "house.orphans_not_transferred",
            article,
            _("compte « orphelins » %(year)s") % {"year": year},
            _("solde de %(balance)s non versé au bureau de bienfaisance de la commune")
            % {"balance": balance},
        )


@check("house.tips_not_counted", _("Pourboires non comptés un jour de séance"))
def tips_not_counted(day: dt.date | None) -> Iterator[Breach]:
    """A day with a séance whose tips box was not counted (``day``, or the 31 days before today)."""
    if day is not None:
        first, last = day, day
    else:
        last = timezone.localdate() - dt.timedelta(days=1)
        first = last - dt.timedelta(days=30)
    played = sorted(
        {s.day for s in tables.sessions().filter(day__gte=first, day__lte=last).only("day", "table")}
    )
    missing = selectors.days_without_tips_count(played)
    if not missing:
        return
    article = cite("house.tips", _profile())
    for gaming_day in missing:
        yield Breach(
            "house.tips_not_counted",
            article,
            _("pourboires du %(day)s") % {"day": gaming_day.strftime("%d/%m/%Y")},
            _("séance tenue, tirelire non comptée au registre des pourboires"),
        )
