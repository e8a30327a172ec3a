"""How the admin shows what it stores: a code by its label (the code as a small caption),
JSON as a key/value list, a hash that wraps, numbers and dates by the active locale."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from . import dates
from .models import CasinoSettings

# How deep a JSON value is written out as nested lists; deeper, it is shown as text.
MAX_DEPTH = 5
MAX_ITEMS = 200


def labelled_code(label: Any, code: str) -> SafeString:
    """``label`` with ``code`` under it, small and monospaced (the code is kept for searches)."""
    if not code:
        return format_html("{}", "—")
    if not label or str(label) == code:
        return format_html('<span class="code-caption">{}</span>', code)
    return format_html('{}<span class="code-caption">{}</span>', label, code)


def model_label(object_type: str) -> str:
    """``cards_registry.cabinetopening`` -> "ouverture du cabinet" (its verbose name)."""
    try:
        return str(apps.get_model(object_type)._meta.verbose_name)
    except (LookupError, ValueError):
        return ""


def hash_text(value: str) -> SafeString:
    return format_html('<span class="hash">{}</span>', value or "—")


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_AMOUNT = re.compile(r"^-?\d+\.\d{2}$")


def _scalar(value: Any) -> str:
    """A JSON value as the page writes everything else: an amount (``"1000.00"`` as the JSON
    keeps it) and a day in the active language's format (casino_ops.dates)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("oui") if value else gettext("non")
    if isinstance(value, Decimal) or (isinstance(value, str) and _AMOUNT.match(value)):
        return dates.amount(value)
    if isinstance(value, (int, float)):
        return formats.number_format(value, use_l10n=True)
    if isinstance(value, str) and _ISO_DAY.match(value):
        try:
            return dates.day(dt.date.fromisoformat(value))
        except ValueError:
            return value
    return str(value)


def _flat(data: Any) -> str:
    """A deep value on one line, without JSON's braces: ``a: 1, b: (c: 2)``."""
    if isinstance(data, dict):
        return ", ".join(f"{k}: {_flat(v)}" for k, v in data.items())
    if isinstance(data, list):
        return "(" + ", ".join(_flat(v) for v in data) + ")"
    return _scalar(data)


def house_rule_labels() -> dict[str, str]:
    """The house rules' keys by the casino settings' field names (they are the same)."""
    return {f.name: str(f.verbose_name) for f in CasinoSettings._meta.fields}


def kv_list(data: Any, depth: int = 0, labels: dict[str, str] | None = None) -> SafeString:
    """A dict (or a JSON text) as ``<dl class="kv">``; lists as numbered entries;
    ``labels`` names the keys (the key itself otherwise)."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return format_html('<span class="hash">{}</span>', data[:2000] if isinstance(data, str) else "")
    if depth >= MAX_DEPTH:
        return format_html("{}", _flat(data)[:500])
    if isinstance(data, dict):
        items = list(data.items())[:MAX_ITEMS]
    elif isinstance(data, list):
        items = [(f"{i}", v) for i, v in enumerate(data[:MAX_ITEMS], start=1)]
    else:
        return format_html("{}", _scalar(data))
    if not items:
        return format_html("{}", "—")
    rows = format_html_join(
        "",
        "<dt>{}</dt><dd>{}</dd>",
        (
            (
                (labels or {}).get(key, key),
                kv_list(value, depth + 1) if isinstance(value, (dict, list)) else _scalar(value),
            )
            for key, value in items
        ),
    )
    return mark_safe(f'<dl class="kv">{rows}</dl>')  # safe: rows escaped by format_html_join
