"""A row checked against its model's fields before it is saved, the failure as a :class:`RegulationError`.

The database refuses what does not fit a column (a text longer than its ``max_length``,
a number outside its integer range, a negative number in a positive field) with an
``IntegrityError`` or a ``DataError``: a traceback for the user. A service calls
:func:`validate_fields` on each row it is about to save, so that the same values are
refused first with a clear error naming the field and the article of the act.

Only what each field itself requires is checked (its type and its validators: lengths,
ranges); relations, uniqueness and whether a value may be blank are the service's own
rules, checked before with their own codes and messages.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db.models import Field, Model
from django.utils.dateparse import parse_datetime
from django.utils.text import capfirst
from rest_framework import serializers

from .forms import TEXT_MAX_LENGTH
from .refusals import Refusal
from .regulations import RegulationError
from .validators import (
    DateWindowValidator,
    validate_ascii_number,
    validate_date_window,
    validate_no_control_characters,
)


def regulation_error(
    error: ValidationError,
    article: str,
    *,
    field: str | None = None,
    label: str = "",
) -> RegulationError:
    """The :class:`RegulationError` for a Django ``ValidationError`` about ``field``."""
    messages = "; ".join(str(m) for m in error.messages)
    message = f"{capfirst(label)} : {messages}" if label else messages
    return Refusal.FIELD_INVALID_GIVEN.error(article=article, field=field, message=message)


@functools.cache
def _checked_fields(model: type[Model], only: tuple[str, ...] | None) -> tuple[Field[Any, Any], ...]:
    """The fields of ``model`` whose values :func:`validate_fields` checks (no relation, no key)."""
    return tuple(
        field
        for field in model._meta.concrete_fields
        if not field.is_relation and not field.primary_key and (only is None or field.name in only)
    )


def validate_fields(
    instance: Model,
    article: str,
    *,
    field: str | None = None,
    only: Iterable[str] | None = None,
) -> None:
    """Refuse ``instance`` if a value does not fit its field (type, length, range) before it is saved.

    ``field`` names the argument of the act to report (a deck of ``decks``, a line of
    ``lines``); by default the model's field itself. ``only`` limits the fields checked.
    Empty values are left to the service (``blank``/``null`` are not checked here).
    """
    for model_field in _checked_fields(type(instance), tuple(only) if only is not None else None):
        value = getattr(instance, model_field.attname)
        if value in model_field.empty_values:
            continue
        try:
            model_field.run_validators(model_field.to_python(value))
        except ValidationError as error:
            raise regulation_error(
                error,
                article,
                field=field or model_field.name,
                label=str(model_field.verbose_name),
            ) from error


class SafeSerializerMixin:
    """Mixed into a DRF input serializer: the same checks as the forms' (``casino_ops.forms``)
    before a value is parsed: no control character in a text, digits 0-9 only in a number or a
    date (``١٢`` is not 12), dates inside the casino's window, texts no longer than a column."""

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = super().get_fields()  # type: ignore[misc]
        for field in fields.values():
            if field.read_only:
                continue
            if isinstance(field, serializers.CharField):
                field.validators.append(validate_no_control_characters)
                if field.max_length is None:
                    field.max_length = TEXT_MAX_LENGTH
                    field.validators.append(MaxLengthValidator(TEXT_MAX_LENGTH))
            elif isinstance(field, serializers.DateField | serializers.DateTimeField):
                if not any(isinstance(v, DateWindowValidator) for v in field.validators):
                    field.validators.append(validate_date_window)
        return fields

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "items"):
            errors: dict[str, list[str]] = {}
            fields = self.fields  # type: ignore[attr-defined]
            for name, value in data.items():
                field = fields.get(name)
                if field is None or getattr(field, "read_only", False):
                    continue
                for item in value if isinstance(value, list | tuple) else [value]:
                    if not isinstance(item, str):
                        continue
                    try:
                        validate_no_control_characters(item)
                        if isinstance(
                            field,
                            serializers.IntegerField
                            | serializers.DecimalField
                            | serializers.FloatField
                            | serializers.DateField
                            | serializers.DateTimeField,
                        ):
                            validate_ascii_number(item)
                        if isinstance(field, serializers.DateTimeField):
                            _moment_in_window(field, item)
                    except ValidationError as error:
                        errors.setdefault(name, []).extend(str(m) for m in error.messages)
                        break
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)  # type: ignore[misc]


def _moment_in_window(field: Any, text: str) -> None:
    """A date and time checked against the field's window on its own day, before DRF gives it a
    time zone: a naive moment at the calendar's ends (year 1, year 9999) has none to take (DRF's
    conversion overflows), so it is refused here like any other day out of the window."""
    try:
        parsed = parse_datetime(text)
    except ValueError:
        return  # not a moment: the field says so
    if parsed is None:
        return
    for validator in field.validators:
        if isinstance(validator, DateWindowValidator):
            validator(parsed.date())
