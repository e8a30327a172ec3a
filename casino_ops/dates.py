"""Days, moments and amounts as the casino writes them, in the active language: French
02/12/2026 01:30 and 30 000,00, English 12/02/2026 01:30 and 30,000.00 (the formats are
``casino_ops/formats``). A moment is stored in UTC and written at the casino's local time.
The printed registers are made in French (FR art. 68), so they read 02/12/2026 and 30 000,00
whatever the language of the officer who asks for them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import formats, timezone

CENT = Decimal("0.01")


def day(value: dt.date | dt.datetime | None) -> str:
    """``02/12/2026`` (``12/02/2026`` in English); a moment is written as its local day."""
    if value is None or value == "":
        return ""
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def moment(value: dt.datetime | None, seconds: bool = False) -> str:
    """``02/12/2026 01:30`` at the casino's local time (``12/02/2026 01:30`` in English)."""
    if value is None or value == "":
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    time = formats.time_format(value, "H:i:s" if seconds else "H:i")
    return f"{formats.date_format(value, 'SHORT_DATE_FORMAT')} {time}"


def amount(value: Any) -> str:
    """``30 000,00`` (``30,000.00`` in English): two decimals, the thousands grouped. A text
    that is not a number (a hand log's own writing) is shown as it is."""
    if value is None or value == "":
        return ""
    try:
        number = Decimal(str(value)).quantize(CENT)
    except (InvalidOperation, ValueError):
        return str(value)
    return formats.number_format(number, 2, use_l10n=True, force_grouping=True)
