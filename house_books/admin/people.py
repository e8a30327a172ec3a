"""Choosing a person in a book's form: by name, never by a database id."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from casino_ops.admin_utils import ModelChoiceField


def people() -> Any:
    """The active users, by username."""
    return get_user_model().objects.filter(is_active=True).order_by("username")


class PersonChoice(ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        full = obj.get_full_name()
        return f"{full} ({obj.get_username()})" if full else obj.get_username()
