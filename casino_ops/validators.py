"""Validators shared by the forms, the API's serializers and the model fields.

Every value a person or a machine types reaches the database only after these:
no NUL byte or control character (PostgreSQL refuses NUL in text, and nothing
printable in a register has one), and dates inside the casino's window, from its
opening (``CASINO_OPENED_ON``) to ``DATE_WINDOW_DAYS_AHEAD`` days ahead (a year by
default), so that a slip such as ``0001-01-01`` or ``9999-12-31`` is refused at
once instead of being written into a register that cannot be corrected later.
Lengths and numeric ranges come from the model fields (:mod:`casino_ops.forms`).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

# Line breaks and tabs are text; every other control character is refused.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def first_forbidden_character(value: str) -> str | None:
    """The first control or surrogate character of ``value``, or None."""
    if value.isascii() and value.isprintable():  # U+0020 to U+007E only (C speed): none of them
        return None
    for char in value:
        if char in _ALLOWED_CONTROLS:
            continue
        if unicodedata.category(char) in {"Cc", "Cs"}:
            return char
    return None


@deconstructible
class NoControlCharactersValidator:
    """Refuse NUL bytes and other control characters (tabs and line breaks are kept)."""

    message = _("Caractère de contrôle interdit (U+%(code)04X) : saisissez du texte lisible.")
    code = "control_character"

    def __call__(self, value: Any) -> None:
        if not isinstance(value, str):
            return
        char = first_forbidden_character(value)
        if char is not None:
            raise ValidationError(self.message, code=self.code, params={"code": ord(char)})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoControlCharactersValidator)

    def __hash__(self) -> int:
        return hash(type(self))


validate_no_control_characters = NoControlCharactersValidator()


def earliest_date() -> dt.date:
    """The casino's opening date (setting ``CASINO_OPENED_ON``)."""
    value = getattr(settings, "CASINO_OPENED_ON", dt.date(2000, 1, 1))
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def latest_date() -> dt.date:
    """Today plus ``DATE_WINDOW_DAYS_AHEAD`` days (366 by default)."""
    return timezone.localdate() + dt.timedelta(days=int(getattr(settings, "DATE_WINDOW_DAYS_AHEAD", 366)))


def as_local_date(value: dt.date | dt.datetime) -> dt.date:
    if isinstance(value, dt.datetime):
        if timezone.is_aware(value):
            try:
                return timezone.localtime(value).date()
            except (OverflowError, ValueError):
                return value.date()
        return value.date()
    return value


@deconstructible
class DateWindowValidator:
    """A date (or a date and time) between the casino's opening and a year ahead.

    ``years_ahead`` widens the end for dates that may lie further in the future
    (a manufacturer's approval valid until…).
    """

    code = "date_window"

    def __init__(self, years_ahead: int | None = None) -> None:
        self.years_ahead = years_ahead

    def bounds(self) -> tuple[dt.date, dt.date]:
        last = latest_date()
        if self.years_ahead:
            last = max(last, timezone.localdate() + dt.timedelta(days=366 * self.years_ahead))
        return earliest_date(), last

    def __call__(self, value: Any) -> None:
        if not isinstance(value, dt.date):
            return
        first, last = self.bounds()
        day = as_local_date(value)
        if not first <= day <= last:
            raise ValidationError(
                _("Date hors de la période admise : du %(first)s au %(last)s."),
                code=self.code,
                params={
                    "first": formats.date_format(first, "SHORT_DATE_FORMAT"),
                    "last": formats.date_format(last, "SHORT_DATE_FORMAT"),
                },
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DateWindowValidator) and other.years_ahead == self.years_ahead

    def __hash__(self) -> int:
        return hash((type(self), self.years_ahead))


validate_date_window = DateWindowValidator()


def validate_ascii_number(value: Any) -> None:
    """Refuse digits other than 0-9 (Arabic-Indic, full-width…) in an amount or a number.

    Python's ``Decimal`` and ``int`` read them, which would let "١٠٠" be booked as
    100 on a register that shows something else.
    """
    if isinstance(value, str) and not value.isascii():
        raise ValidationError(
            _("Écrivez le nombre avec les chiffres 0 à 9."),
            code="ascii_digits",
        )
