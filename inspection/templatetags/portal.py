"""Filters of the officers' portal: codes by their label, amounts and JSON as an officer reads them."""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
from collections.abc import Sequence
from typing import Any

from django import template
from django.db.models import Field
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.books import book_for
from cards_registry.selectors import colour
from casino_ops import dates
from casino_ops.admin_display import object_model
from casino_ops.models import HOUSE_RULE_KEYS, CasinoSettings
from inspection.portal import labels
from inspection.registers import fmt

register = template.Library()


@register.filter
def person(user: Any) -> str:
    """A person as the books name him: full name, else user name; empty for nobody (a row the
    system wrote, e.g. an incident the replay of a hand log opened)."""
    return fmt.person(user)


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


@register.filter(name="colour")
def colour_filter(value: Any) -> str:
    """A deck's back colour in the active language (cards_registry.colours)."""
    return colour(value)


@register.filter
def money(value: Any) -> str:
    """An amount (a Decimal, or a string as a hand log writes it) in the active language:
    30 000,00 in French, 30,000.00 in English."""
    return dates.amount(value)


_KEYS = {
    "log": gettext_lazy("journal"),
    "session": gettext_lazy("séance"),
    "min": gettext_lazy("minimum"),
    "max": gettext_lazy("maximum"),
    "rows": gettext_lazy("lignes des registres inscrites"),
    "advance": gettext_lazy("avance initiale"),
    "authorised_minimum": gettext_lazy("minimum autorisé"),
    "maximum_fixed_by": gettext_lazy("maximum fixé par"),
    "certified_exact": gettext_lazy("certifiée exacte"),
    "changed": gettext_lazy("réglages modifiés"),
    "settings": gettext_lazy("réglages"),
    "control_correction": gettext_lazy("rectification au registre de contrôle"),
    "control_line": gettext_lazy("ligne du registre de contrôle"),
    "corrects_line": gettext_lazy("rectifie la ligne"),
    "previous": gettext_lazy("valeur précédente"),
    "day": gettext_lazy("journée"),
    "table": gettext_lazy("table"),
    "deck": gettext_lazy("jeu"),
    "decks": gettext_lazy("jeux"),
    "sixains": gettext_lazy("sixains"),
    "shoe": gettext_lazy("sabot"),
    "discrepancies": gettext_lazy("écarts"),
    "fit": gettext_lazy("jeux remis en service"),
    "out_of_use": gettext_lazy("jeux hors d'usage"),
    "lines": gettext_lazy("lignes"),
    "mode": gettext_lazy("mode"),
    "kind": gettext_lazy("nature"),
    "code": gettext_lazy("code"),
    "commune": gettext_lazy("commune"),
    "before": gettext_lazy("avant"),
    "after": gettext_lazy("après"),
    "officer_signature": gettext_lazy("signature de l'officier"),
    "reference": gettext_lazy("référence"),
    "serial": gettext_lazy("n° de série"),
    "back_colour": gettext_lazy("couleur du dos"),
    "status": gettext_lazy("état"),
    "status_before_quarantine": gettext_lazy("état avant consignation"),
    "reason": gettext_lazy("motif"),
    # the officer's signed statement (casino_ops.officers.statement) and its passkey's assertion
    "statement": gettext_lazy("déclaration signée"),
    "assertion": gettext_lazy("assertion de la clé d'accès"),
    "casino": gettext_lazy("casino"),
    "act": gettext_lazy("acte"),
    "target": gettext_lazy("objet"),
    "fields": gettext_lazy("mentions"),
    "officer": gettext_lazy("officier"),
    "issued_at": gettext_lazy("émise le"),
    "quantity": gettext_lazy("quantité"),
    "unit": gettext_lazy("unité"),
}
# an order line's unit (cards_registry.models.Unit) by its word
_UNITS = {"deck": gettext_lazy("jeu"), "sixain": gettext_lazy("sixain")}
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")
_AMOUNT = re.compile(r"^-?\d+\.\d{2}$")
_TARGET = re.compile(r"^([a-z_]+\.[a-z_]+):(\d+)$")  # an officer's act's object: app.model:pk


def _model_field(model: Any, key: str) -> Field[Any, Any] | None:
    if model is None:
        return None
    try:
        field = model._meta.get_field(key)
    except Exception:  # not a field of this model (or a field gone since)
        return None
    return field if isinstance(field, Field) else None


def _key_label(key: str, models: Sequence[Any] = ()) -> str:
    """A key by its field's label: the event's object's fields first, then the fields of the
    rows the act wrote, the portal's own words, the house rules'; else as written."""
    for model in models:
        field = _model_field(model, key)
        related = getattr(field, "related_model", None)
        if (
            field is not None
            and model._meta.auto_created
            and related is not None
            and not isinstance(related, str)
        ):
            # a row linking two entries (a many-to-many's): each side by its model's name
            return str(related._meta.verbose_name)
        if field is not None:
            return str(field.verbose_name)
    if key in _KEYS:
        return str(_KEYS[key])
    field = _model_field(CasinoSettings, key)
    if field is not None:
        return str(field.verbose_name)
    return str(key).replace("_", " ")


def _scalar(value: str, field: Field[Any, Any] | None = None) -> SafeString | str:
    """A value as stored in an event (JSON text): a choice by its label, a day, a moment or an
    amount in the active language's format."""
    if field is not None and field.choices:
        label = dict(field.flatchoices).get(value)
        if label is not None:
            return str(label)
    if _ISO_DAY.match(value):
        return dates.day(dt.date.fromisoformat(value))
    if _ISO_MOMENT.match(value):
        return dates.moment(dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
    if _AMOUNT.match(value):
        return dates.amount(value)
    target = _TARGET.match(value)
    if target is not None:
        model = _object_model(target.group(1))
        if model is not None:
            return f"{model._meta.verbose_name} {target.group(2)}"
    return value


def _dict(value: dict[str, Any], depth: int, models: Sequence[Any]) -> SafeString | str:
    if not value:
        return "—"
    if depth > 4:
        return _inline(value)
    if depth == 0 and _ROWS_KEY in value and _are_rows(value[_ROWS_KEY]):
        # the act's keys are mostly the fields of the rows it wrote
        models = [*models, *(m for m in (_row_model(r[0]) for r in value[_ROWS_KEY]) if m is not None)]
    return format_html(
        '<dl class="kv">{}</dl>',
        format_html_join(
            "",
            "<dt>{}</dt><dd>{}</dd>",
            (
                (
                    _key_label(k, models),
                    _rows(v, depth + 1)
                    if k == _ROWS_KEY and _are_rows(v)
                    else _keyed(k, v, depth + 1, _first_field(models, k)),
                )
                for k, v in value.items()
            ),
        ),
    )


def _value(value: Any, depth: int, models: Sequence[Any] = (), field: Any = None) -> SafeString | str:
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if value is None:
        return "—"
    if isinstance(value, dict):
        return _dict(value, depth, models)
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
    if isinstance(value, str) and labels.action_label(value) != value:
        return labels.action_label(value)
    if isinstance(value, str):
        return _scalar(value, field)
    return str(value)


def _keyed(key: str, value: Any, depth: int, field: Any) -> SafeString | str:
    """A value under its key: a deck's back colour in the page's language, else as _value."""
    if key == "back_colour" and isinstance(value, str):
        return colour(value)
    if key == "unit" and value in _UNITS:
        return str(_UNITS[value])
    if key == "decks" and isinstance(value, list) and value and all(_is_serial_and_colour(d) for d in value):
        return ", ".join(f"{serial} ({colour(back)})" for serial, back in value)  # a reception's decks
    return _value(value, depth, field=field)


def _is_serial_and_colour(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _first_field(models: Sequence[Any], key: str) -> Field[Any, Any] | None:
    for model in models:
        field = _model_field(model, key)
        if field is not None:
            return field
    return None


_ROWS_KEY = "rows"  # audit.books: the rows of the books an act wrote, [[table, pk, {field: value}], ...]


def _are_rows(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(row, list | tuple)
        and len(row) == 3
        and isinstance(row[0], str)
        and isinstance(row[2], dict)
        for row in value
    )


def _row_model(table: str) -> Any:
    book = book_for(table)
    return book.model if book is not None else None


def _row_title(model: Any) -> str:
    """A book's row by its model's name; a row linking two entries by the link's field on its owner
    ("incident — jeux concernés"), not by Django's own name for it ("Relation incident-deck")."""
    owner = model._meta.auto_created
    if owner:
        for field in owner._meta.many_to_many:
            if field.remote_field.through is model:
                return f"{owner._meta.verbose_name} — {field.verbose_name}"
    return str(model._meta.verbose_name)


def _rows(rows: list[Any], depth: int) -> SafeString | str:
    """Each row of a book as its model's name and key, then its fields by their verbose names."""
    if not rows:
        return "—"
    items = []
    for table, pk, values in rows:
        model = _row_model(table)
        own = [model] if model is not None else []
        title = _row_title(model) if model is not None else table.replace("_", " ")
        fields = format_html_join(
            "",
            "<dt>{}</dt><dd>{}</dd>",
            ((_key_label(k, own), _keyed(k, v, depth + 2, _first_field(own, k))) for k, v in values.items()),
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
def readable(value: Any, object_type: Any = "") -> Any:
    """JSON (text or already parsed) as key/value lists, its keys by the labels of the fields of
    ``object_type`` (an event's object) when given; anything else as it is."""
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
    model = _object_model(str(object_type)) if object_type else None
    shown = _value(value, 0, [model] if model is not None else [])
    return shown if isinstance(shown, SafeString) else mark_safe(format_html("{}", shown))


def _object_model(object_type: str) -> Any:
    """``tables.session`` -> the Session model (None for anything else)."""
    return object_model(object_type)


@register.filter
def day(value: Any) -> str:
    """A date as the active language writes it short (02/12/2026, 12/02/2026)."""
    return dates.day(value)


@register.filter
def moment(value: Any, seconds: bool = False) -> str:
    """A date and time in the casino's time zone: the short date and a 24-hour time."""
    return dates.moment(value, seconds)


@register.filter
def model_under(book: Any, profile: Any) -> Any:
    """The model a register names under the casino's regulation (no French model number under LU)."""
    return book.model_for(str(profile))
