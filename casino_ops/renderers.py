"""The API's JSON: every amount a string with two decimals (``"1000.00"``), in lists and
details alike. Its own module: DRF loads a renderer named in its settings while its views'
module may still be importing (``casino_ops.api`` imports DRF's generic views)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import renderers
from rest_framework.utils import encoders


def money_text(value: Decimal) -> str:
    """A decimal as the API writes it: a string, with two decimals when it has at most two
    (money: ``"1000.00"``, ``"-12.50"``); one finer keeps all its digits."""
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent >= -2:
        return f"{value:.2f}"
    return str(value)


class MoneyJSONEncoder(encoders.JSONEncoder):
    """DRF's encoder writes a decimal as a JSON number (a float: cents lost, "30000.0"); the
    API writes every amount as a string with two decimals, in lists and details alike."""

    def default(self, obj: Any) -> Any:
        if isinstance(obj, Decimal):
            return money_text(obj)
        return super().default(obj)


class JSONRenderer(renderers.JSONRenderer):
    """The API's JSON (``REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"]``): amounts as strings."""

    encoder_class = MoneyJSONEncoder
