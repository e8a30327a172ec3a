"""How the admin shows what it stores: a code by its label (the code as a small caption),
JSON as a key/value list, a hash that wraps, numbers, amounts and dates by the active locale."""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

from . import dates
from .models import CasinoSettings
from .plugins import Registry

# How deep a JSON value is written out as nested lists; deeper, it is shown as text.
MAX_DEPTH = 5
MAX_ITEMS = 200

#: The keys of the JSON the admin shows (a hand log in its format, docs/hand-log.md; a
#: discrepancy's detail; a replay's report) by their words in the page's language.
KEY_LABELS = {
    "format": gettext_lazy("format"),
    "shoe_id": gettext_lazy("sabot"),
    "table": gettext_lazy("table"),
    "profile": gettext_lazy("réglementation"),
    "house_rules": gettext_lazy("règlement intérieur"),
    "limits": gettext_lazy("limites"),
    "min": gettext_lazy("minimum"),
    "max": gettext_lazy("maximum"),
    "decks": gettext_lazy("jeux"),
    "burned": gettext_lazy("cartes brûlées"),
    "cut_card_after": gettext_lazy("carte de coupe après"),
    "rounds": gettext_lazy("manches"),
    "round": gettext_lazy("manche"),
    "number": gettext_lazy("numéro"),
    "boxes": gettext_lazy("cases"),
    "box": gettext_lazy("case"),
    "stakes": gettext_lazy("mises"),
    "player": gettext_lazy("joueur"),
    "amount": gettext_lazy("montant"),
    "insurance": gettext_lazy("assurance"),
    "insurance_net": gettext_lazy("assurance, solde"),
    "dealer": gettext_lazy("croupier"),
    "cards": gettext_lazy("cartes"),
    "hands": gettext_lazy("mains"),
    "hand": gettext_lazy("main"),
    "actions": gettext_lazy("décisions"),
    "doubled": gettext_lazy("doublée"),
    "soft": gettext_lazy("main souple"),
    "outcome": gettext_lazy("issue"),
    "settlements": gettext_lazy("paiements"),
    "net": gettext_lazy("solde"),
    "total": gettext_lazy("total"),
    "expected": gettext_lazy("attendu"),
    "recorded": gettext_lazy("inscrit"),
    "replayed": gettext_lazy("rejoué"),
    "discrepancies": gettext_lazy("écarts"),
    "code": gettext_lazy("code"),
    "article": gettext_lazy("article"),
    "ok": gettext_lazy("conforme"),
    "log": gettext_lazy("journal"),
    "session": gettext_lazy("séance"),
    "surrender": gettext_lazy("abandon (surrender)"),
}


def labelled_code(label: Any, code: str) -> SafeString:
    """``label`` with ``code`` under it, small and monospaced (the code is kept for searches)."""
    if not code:
        return format_html("{}", "—")
    if not label or str(label) == code:
        return format_html('<span class="code-caption">{}</span>', code)
    return format_html('{}<span class="code-caption">{}</span>', label, code)


#: A model's former ``app_label.model``, as the events recorded before it moved to another app
#: named it (the chain keeps what it recorded) -> its label now; registered by the app that took
#: it (the printed registers, once the record's, now the officers' app's).
FORMER_LABELS: Registry[str] = Registry("casino_ops.admin_display.FORMER_LABELS")


def object_model(object_type: str) -> type[models.Model] | None:
    """The model an event's ``object_type`` names, by its label now or a former one (None for
    anything else)."""
    try:
        return apps.get_model(FORMER_LABELS.get(object_type) or object_type)
    except (LookupError, ValueError):
        return None


def model_label(object_type: str) -> str:
    """``cards_registry.cabinetopening`` -> "ouverture du cabinet" (its verbose name)."""
    model = object_model(object_type)
    return "" if model is None else str(model._meta.verbose_name)


def objects_by_key(keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    """The objects named ``(app_label.model, pk)``, one query per model: what the audit trail's
    rows name, to show them in words."""
    wanted: dict[str, set[str]] = {}
    for object_type, object_id in keys:
        wanted.setdefault(object_type, set()).add(str(object_id))
    found: dict[tuple[str, str], Any] = {}
    for object_type, ids in wanted.items():
        model = object_model(object_type)
        if model is None:
            continue
        pks = (
            [pk for pk in ids if pk.isdigit()] if isinstance(model._meta.pk, models.AutoField) else list(ids)
        )
        for obj in model._default_manager.filter(pk__in=pks):
            found[(object_type, str(obj.pk))] = obj
    return found


def object_link(obj: Any, label: Any = "") -> SafeString:
    """An object in words (its label, then its own name) with a link to its admin page when it
    has one: never its database id."""
    meta = obj._meta
    text = f"{label} : {obj}" if label else str(obj)
    if admin.site.is_registered(obj.__class__):
        from django.urls import NoReverseMatch, reverse

        try:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        except NoReverseMatch:
            return format_html("{}", text)
        return format_html('<a href="{}">{}</a>', url, text)
    return format_html("{}", text)


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
        return ", ".join(f"{KEY_LABELS.get(k, k)}: {_flat(v)}" for k, v in data.items())
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
                (labels or {}).get(key) or KEY_LABELS.get(key, key),
                kv_list(value, depth + 1, labels) if isinstance(value, (dict, list)) else _scalar(value),
            )
            for key, value in items
        ),
    )
    return mark_safe(f'<dl class="kv">{rows}</dl>')  # safe: rows escaped by format_html_join


def is_amount(field: Any) -> bool:
    """A sum of money: every decimal field of two places in the project is one."""
    return isinstance(field, models.DecimalField) and field.decimal_places == 2


class AmountColumn:
    """A model's amount shown as every page writes it (``casino_ops.dates.amount``: "30 000,00",
    "30,000.00"): a column of a list or a read-only field of a page. Named, labelled and
    sorted as the field itself."""

    do_not_call_in_templates = True  # a page's template names the column, never calls it

    def __init__(self, model: type[models.Model], name: str) -> None:
        field = model._meta.get_field(name)
        self.__name__ = name
        self.short_description = getattr(field, "verbose_name", name)
        self.admin_order_field = name

    def __call__(self, obj: Any) -> str:
        value = getattr(obj, self.__name__)
        return admin.site.empty_value_display if value is None else dates.amount(value)

    def __str__(self) -> str:
        return self.__name__


@functools.cache
def amount_column(model: type[models.Model], name: str) -> AmountColumn:
    """The one column of ``model``'s amount ``name`` (the same object each time: the admin
    finds a read-only field by identity)."""
    return AmountColumn(model, name)


def amount_columns(model: type[models.Model], names: Iterable[Any]) -> tuple[Any, ...]:
    """``names`` with each amount of ``model`` replaced by its :func:`amount_column`."""
    return tuple(_amount_or_name(model, name) for name in names)


def _amount_or_name(model: type[models.Model], name: Any) -> Any:
    if not isinstance(name, str):
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    return amount_column(model, name) if is_amount(field) else name
