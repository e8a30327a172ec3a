"""What the acts of these books share: the profile, who may act, checked creation (the
checks of their values are in :mod:`house_books.rules`)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model

from casino_ops import access
from casino_ops.access import Act
from casino_ops.services import get_casino
from casino_ops.validation import validate_fields

M = TypeVar("M", bound=Model)


def profile() -> str:
    return get_casino().profile


def require_management(actor: User, article: str) -> None:
    """The books are kept by the director or a committee member; a refusal cites the book's
    own article (``article``), never an empty one."""
    access.require(actor, Act.HOUSE_BOOKS, article=article)


def create(model: type[M], article: str, /, **values: Any) -> M:
    """``model.objects.create(**values)``, its values checked first against their fields."""
    instance = model(**values)
    validate_fields(instance, article)
    instance.save(force_insert=True)
    return instance
