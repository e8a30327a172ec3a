"""The checks every book of the casino shares: an amount, a required text, a date, a moment.

Pure checks over plain values: no query, no write; each raises
:class:`~casino_ops.regulations.RegulationError` with the book's article and the field at fault.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

CENT = Decimal("0.01")


def money(value: Any, field: str, article: str, *, allow_zero: bool = False) -> Decimal:
    """A positive amount in cents, or a refusal naming ``field``."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError, TypeError):
        amount = None
    if amount is None or not amount.is_finite() or amount != amount.quantize(CENT) or amount < 0:
        raise RegulationError(
            "AMOUNT_INVALID",
            _("Le montant « %(value)s » n'est pas une somme positive en centimes.") % {"value": value},
            article,
            field=field,
        )
    if amount == 0 and not allow_zero:
        raise RegulationError("AMOUNT_ZERO", _("Le montant ne peut pas être nul."), article, field=field)
    return amount


def required_text(value: Any, field: str, label: str, article: str) -> str:
    text = str(value or "").strip()
    if not text:
        raise RegulationError(
            "FIELD_REQUIRED", _("Indiquez %(what)s.") % {"what": label}, article, field=field
        )
    return text


def past_date(value: Any, field: str, article: str, *, past_only: bool = True) -> dt.date:
    """A date (not a moment), not in the future unless ``past_only`` is false."""
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise RegulationError("FIELD_INVALID", _("Indiquez une date."), article, field=field)
    if past_only and value > timezone.localdate():
        raise RegulationError("DATE_IN_FUTURE", _("Cette date est dans le futur."), article, field=field)
    return value


def past_moment(value: Any, field: str, article: str) -> dt.datetime:
    """An aware date and time, not in the future."""
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise RegulationError("FIELD_INVALID", _("Indiquez la date et l'heure."), article, field=field)
    if value > timezone.now():
        raise RegulationError("DATE_IN_FUTURE", _("Cette date est dans le futur."), article, field=field)
    return value
