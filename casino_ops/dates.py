"""Days and moments as the casino's books write them: dd/mm/yyyy (and hh:mm), always at the
casino's local time (a moment is stored in UTC; written as such it would be an hour or two off)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def day(value: dt.date | dt.datetime | None) -> str:
    """``02/12/2026``; a moment is written as its local day."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value).date()
    return value.strftime("%d/%m/%Y")


def moment(value: dt.datetime | None) -> str:
    """``02/12/2026 01:30`` at the casino's local time."""
    if value is None:
        return ""
    return timezone.localtime(value).strftime("%d/%m/%Y %H:%M")
