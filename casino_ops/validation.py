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
from django.db.models import Field, Model
from django.utils.text import capfirst

from .regulations import RegulationError

FIELD_INVALID = "FIELD_INVALID"


def regulation_error(
    error: ValidationError,
    article: str,
    *,
    field: str | None = None,
    label: str = "",
    code: str = FIELD_INVALID,
) -> RegulationError:
    """The :class:`RegulationError` for a Django ``ValidationError`` about ``field``."""
    messages = "; ".join(str(m) for m in error.messages)
    message = f"{capfirst(label)} : {messages}" if label else messages
    return RegulationError(code, message, article, field=field)


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
    code: str = FIELD_INVALID,
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
                code=code,
            ) from error
