"""A model's own validation before a save, as a refusal naming the field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Model

from casino_ops.refusals import Refusal

M = TypeVar("M", bound=Model)


def validated(
    instance: M, article: str = "", *, fields: Iterable[str] | None = None, unique: bool = False
) -> M:
    """``full_clean()`` before a save, so that no IntegrityError or DataError reaches a user: a
    Django ValidationError becomes a RegulationError ``FIELD_INVALID`` naming the field.

    ``fields`` limits the check to the fields an ``update_fields`` save writes; ``unique`` also
    checks the unique fields and constraints (one query each; acts that number their rows under
    a lock leave it off). Links set from loaded rows are not re-read; an empty JSON object is a
    value, not a blank.
    """
    exclude = set()
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname)
        if fields is not None and field.name not in fields:
            exclude.add(field.name)
        elif (field.is_relation and value is not None) or value == {}:
            exclude.add(field.name)
    try:
        instance.full_clean(exclude=exclude, validate_unique=unique, validate_constraints=unique)
    except ValidationError as exc:
        name, errors = next(iter(exc.message_dict.items()))
        meta = instance._meta
        label = str(
            meta.verbose_name
            if name == NON_FIELD_ERRORS
            else getattr(meta.get_field(name), "verbose_name", name)
        )
        raise Refusal.FIELD_INVALID_ADVANCE_BOOK.error(
            article=article,
            field=None if name == NON_FIELD_ERRORS else name,
            values={"field": label, "error": " ".join(errors)},
        ) from None
    return instance
