"""Filters of the officers' portal: codes by their label, amounts and JSON as an officer reads them."""

from __future__ import annotations

import ast
import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.db.models import Field
from django.utils import formats
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from audit.books import book_for
from audit.portal import labels
from casino_ops.models import HOUSE_RULE_KEYS, CasinoSettings

register = template.Library()


@register.filter
def action_label(code: Any) -> str:
    return labels.action_label(str(code))


@register.filter
def discrepancy_label(code: Any) -> str:
    return labels.discrepancy_label(str(code))


@register.filter
def object_label(object_type: Any) -> str:
    return labels.object_label(str(object_type))


@register.filter
def code_label(code: Any) -> SafeString:
    """A discrepancy code as its label, the code beneath in a small caption."""
    return format_html(
        '{} <small class="code-caption"><code>{}</code></small>',
        labels.discrepancy_label(str(code)),
        code,
    )


@register.filter
def money(value: Any) -> str:
    """An amount (a Decimal, or a string as a hand log writes it) in the active locale: 1234,50 in French, 1234.50 in English."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    return number_format(amount, 2)


_KEYS = {
    "log": _lazy("journal"),
    "session": _lazy("séance"),
    "min": _lazy("minimum"),
    "max": _lazy("maximum"),
    "rows": _lazy("lignes des registres inscrites"),
}


def _key_label(key: str) -> str:
    if key in _KEYS:
        return str(_KEYS[key])
    try:
        model_field = CasinoSettings._meta.get_field(key)
    except Exception:  # any other key reads as written, without underscores
        model_field = None
    if isinstance(model_field, Field):
        return str(model_field.verbose_name)
    return str(key).replace("_", " ")


def _value(value: Any, depth: int) -> SafeString | str:
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if value is None:
        return "—"
    if isinstance(value, dict):
        if not value:
            return "—"
        if depth > 4:
            return _inline(value)
        return format_html(
            '<dl class="kv">{}</dl>',
            format_html_join(
                "",
                "<dt>{}</dt><dd>{}</dd>",
                (
                    (
                        _key_label(k),
                        _rows(v, depth + 1) if k == _ROWS_KEY and _are_rows(v) else _value(v, depth + 1),
                    )
                    for k, v in value.items()
                ),
            ),
        )
    if isinstance(value, list):
        if not value:
            return "—"
        if all(not isinstance(v, dict | list) for v in value):
            return ", ".join(str(_value(v, depth + 1)) for v in value)
        return format_html(
            '<ol class="kv-list">{}</ol>',
            format_html_join("", "<li>{}</li>", ((_value(v, depth + 1),) for v in value)),
        )
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:  # a JSON field carried as its text (a book row's house rules): as key/value lists
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict | list):
            return _value(parsed, depth)
    if isinstance(value, str) and labels.DISCREPANCIES.get(value) is not None:
        return code_label(value)
    if isinstance(value, str) and labels.ACTIONS.get(value) is not None:
        return labels.action_label(value)
    return str(value)


_ROWS_KEY = "rows"  # audit.books: the rows of the books an act wrote, [[table, pk, {field: value}], ...]


def _are_rows(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(row, list | tuple)
        and len(row) == 3
        and isinstance(row[0], str)
        and isinstance(row[2], dict)
        for row in value
    )


def _rows(rows: list[Any], depth: int) -> SafeString | str:
    """Each row of a book as its model's name and key, then its fields by their verbose names."""
    if not rows:
        return "—"
    items = []
    for table, pk, values in rows:
        book = book_for(table)
        model = book.model if book is not None else None

        def name(field: str, model: Any = model) -> str:
            if model is not None:
                try:
                    return str(model._meta.get_field(field).verbose_name)
                except Exception:  # a field gone since reads as written
                    pass
            return _key_label(field)

        title = str(model._meta.verbose_name) if model is not None else table.replace("_", " ")
        fields = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((name(k), _value(v, depth + 2)) for k, v in values.items())
        )
        items.append((title, pk, fields))
    return format_html(
        '<ol class="kv-list">{}</ol>',
        format_html_join("", '<li>{} {}<dl class="kv">{}</dl></li>', items),
    )


def _in_text() -> re.Pattern[str]:
    keys = "|".join(sorted(HOUSE_RULE_KEYS, key=len, reverse=True))
    return re.compile(rf"(\{{[^{{}}]*\}}|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b(?:{keys})\b(?= : ))")


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{_key_label(k)} : {_inline(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_inline(v) for v in value)
    return str(_value(value, 5))


def _text(text: str) -> SafeString | str:
    """A line of a register: codes by their label (the code in a caption), a dict
    written into it (``{'log': True, 'session': False}``) as words, rule keys by their label."""
    parts = _in_text().split(text)
    if len(parts) == 1:
        return text
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(conditional_escape(part))
        elif part.startswith("{"):
            try:
                parsed = ast.literal_eval(part)
            except (ValueError, SyntaxError):
                parsed = None
            out.append(conditional_escape(_inline(parsed) if isinstance(parsed, dict) else part))
        elif part[0].isupper():
            out.append(code_label(part))
        else:
            out.append(conditional_escape(_key_label(part)))
    return mark_safe("".join(out))


@register.filter
def readable(value: Any) -> Any:
    """JSON (text or already parsed) as key/value lists; anything else as it is."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in ("{", "["):
            try:
                value = json.loads(text)
            except ValueError:
                return _text(value)
        else:
            return _text(value)
    if value is None:
        return "—"
    if not isinstance(value, dict | list):
        return value  # numbers and dates: the template localizes them
    shown = _value(value, 0)
    return shown if isinstance(shown, SafeString) else mark_safe(format_html("{}", shown))


@register.filter(expects_localtime=True)
def day(value: Any) -> str:
    """A date as the active locale writes it short (01/12/2026, 12/01/2026)."""
    if value in (None, ""):
        return ""
    return formats.date_format(value, "SHORT_DATE_FORMAT")


@register.filter(expects_localtime=True)
def moment(value: Any, seconds: bool = False) -> str:
    """A date and time in the casino's time zone: the short date and a 24-hour time."""
    if value in (None, ""):
        return ""
    return f"{formats.date_format(value, 'SHORT_DATE_FORMAT')} {formats.time_format(value, 'H:i:s' if seconds else 'H:i')}"
