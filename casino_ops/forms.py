"""Form plumbing that refuses absurd input before any service is called.

:func:`harden_fields` gives each field of a form the limits of the model field of
the same name (length, numeric range, digits) and the shared validators of
:mod:`casino_ops.validators` (no control characters, dates in the casino's
window); every field also refuses, before it parses anything, a raw value with a
control character, or digits other than 0-9 where a number or a date is read.
:class:`SafeFormMixin` applies it to a form (the admin's act forms, the portal's
forms); ``model`` names the model whose fields give the limits.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core import validators as dj_validators
from django.core.exceptions import FieldDoesNotExist
from django.db import connection, models

from .validators import (
    DateWindowValidator,
    NoControlCharactersValidator,
    first_forbidden_character,
    validate_ascii_number,
    validate_date_window,
    validate_no_control_characters,
)

# A text typed into a form without a length limit of its own (a model TextField).
TEXT_MAX_LENGTH = 4000
# A number typed into a form without a model field behind it: a 32-bit integer.
DEFAULT_INTEGER_RANGE = (-(2**31), 2**31 - 1)
_INTEGER_INTERNAL_TYPES = {
    "SmallIntegerField",
    "IntegerField",
    "BigIntegerField",
    "PositiveSmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "SmallAutoField",
    "AutoField",
    "BigAutoField",
}


def model_field(model: type[models.Model] | None, name: str) -> models.Field[Any, Any] | None:
    if model is None:
        return None
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, models.Field) else None


def integer_range(field: models.Field[Any, Any] | None) -> tuple[int, int]:
    """The range the database column of ``field`` holds (a 32-bit integer without one)."""
    if field is None:
        return DEFAULT_INTEGER_RANGE
    internal = field.get_internal_type()
    if isinstance(field, models.ForeignKey):
        internal = field.target_field.get_internal_type()
    if internal not in _INTEGER_INTERNAL_TYPES:
        return DEFAULT_INTEGER_RANGE
    low, high = connection.ops.integer_field_range(internal)
    return (low if low is not None else DEFAULT_INTEGER_RANGE[0], high if high is not None else 2**63 - 1)


def check_raw_input(field: forms.Field, value: Any) -> None:
    """Refuse a raw value before the field parses it (and before any query it runs)."""
    values = value if isinstance(value, list | tuple) else [value]
    for item in values:
        if not isinstance(item, str):
            continue
        if first_forbidden_character(item) is not None:
            validate_no_control_characters(item)
        if isinstance(field, forms.IntegerField | forms.FloatField | forms.DateField | forms.DateTimeField):
            validate_ascii_number(item)


def _has(field: forms.Field, kind: type) -> bool:
    return any(isinstance(v, kind) for v in field.validators)


def harden_field(field: forms.Field, source: models.Field[Any, Any] | None = None) -> forms.Field:
    """Give ``field`` the limits of ``source`` (its model field) and the shared validators."""
    if getattr(field, "_hardened", False):
        return field
    field._hardened = True  # type: ignore[attr-defined]
    if isinstance(field, forms.CharField):
        if not _has(field, NoControlCharactersValidator):
            field.validators.append(validate_no_control_characters)
        limit = getattr(source, "max_length", None) or (None if field.max_length else TEXT_MAX_LENGTH)
        if limit and (field.max_length is None or field.max_length > limit):
            field.max_length = limit
            field.validators.append(dj_validators.MaxLengthValidator(limit))
            field.widget.attrs["maxlength"] = str(limit)
    elif isinstance(field, forms.DateField | forms.DateTimeField):
        if not _has(field, DateWindowValidator):
            # the model field's own window when it has one (an approval valid for years)
            own = [v for v in getattr(source, "validators", []) if isinstance(v, DateWindowValidator)]
            field.validators.append(own[0] if own else validate_date_window)
    elif isinstance(field, forms.DecimalField):
        if isinstance(source, models.DecimalField) and (
            field.max_digits is None or field.max_digits > source.max_digits
        ):
            field.max_digits, field.decimal_places = source.max_digits, source.decimal_places
            field.validators.append(dj_validators.DecimalValidator(source.max_digits, source.decimal_places))
        if field.max_digits is None:
            field.max_digits = 14
            field.validators.append(dj_validators.DecimalValidator(14, field.decimal_places))
    elif isinstance(field, forms.IntegerField):
        low, high = integer_range(source)
        if field.max_value is None or field.max_value > high:
            field.max_value = high
            field.validators.append(dj_validators.MaxValueValidator(high))
            field.widget.attrs["max"] = str(high)
        if field.min_value is None or field.min_value < low:
            field.min_value = low
            field.validators.append(dj_validators.MinValueValidator(low))
    _guard_clean(field)
    return field


def _guard_clean(field: forms.Field) -> None:
    original = field.clean

    def clean(value: Any, *args: Any, **kwargs: Any) -> Any:
        check_raw_input(field, value)
        return original(value, *args, **kwargs)

    field.clean = clean  # type: ignore[method-assign]


def harden_fields(form_fields: dict[str, forms.Field], model: type[models.Model] | None = None) -> None:
    for name, field in form_fields.items():
        harden_field(field, model_field(model, name))


class SafeFormMixin:
    """Mixed into a form: limits from ``model`` (or the ModelForm's), shared validators."""

    model: type[models.Model] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        meta = getattr(self, "_meta", None)
        harden_fields(self.fields, self.model or getattr(meta, "model", None))  # type: ignore[attr-defined]


def describe_errors(form: forms.BaseForm) -> None:
    """Tie each field's error to its field (WCAG 1.3.1, 3.3.1): ``aria-invalid`` and
    ``aria-describedby`` naming the error shown as ``<auto_id>_error`` (and its help text); the
    first field in error takes the focus when the page comes back."""
    first = True
    for name in form.errors:
        if name not in form.fields or not form[name].auto_id:
            continue
        field, auto_id = form.fields[name], form[name].auto_id
        ids = field.widget.attrs.get("aria-describedby", "").split()
        if field.help_text:
            ids.append(f"{auto_id}_helptext")
        ids.append(f"{auto_id}_error")
        field.widget.attrs.update({"aria-describedby": " ".join(dict.fromkeys(ids)), "aria-invalid": "true"})
        if first:
            field.widget.attrs["autofocus"] = True
            first = False


class SafeForm(SafeFormMixin, forms.Form):
    """A form of the portal: safe input, and each error tied to its field
    (:func:`describe_errors`: its templates show a field's error as ``<auto_id>_error``)."""

    describe_errors = True

    def full_clean(self) -> None:
        super().full_clean()
        if self.describe_errors and self.is_bound:
            describe_errors(self)


def refuse_raw(value: Any, field: forms.Field | None = None) -> None:
    """For a value read outside a form (a query string): raise ValidationError when absurd."""
    check_raw_input(field or forms.CharField(), value)
