"""What the tables' admin pages share: the read-only inline, the labels of the discrepancies,
the choices and amounts of the act forms."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from casino_ops.admin_display import labelled_code
from casino_ops.admin_utils import AmountsShown

from .. import labels

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    _TabularInline = admin.TabularInline[Any, Any]
else:  # generic in the stubs only
    _TabularInline = admin.TabularInline


def discrepancy_label(code: str) -> str:
    """A discrepancy's label in the active language, its code as a caption."""
    return labelled_code(labels.discrepancy_label(code), code)


def role_users(*role_names: str) -> QuerySet[Any]:
    return get_user_model().objects.filter(groups__name__in=role_names).distinct().order_by("username")


def money_field(label: str | StrPromise, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, max_digits=14, decimal_places=2, min_value=Decimal("0"), required=required
    )


class ReadOnlyInline(AmountsShown, _TabularInline):
    """An inline of registered entries: read, never added, changed or deleted."""

    template = "admin/edit_inline/tabular_plain.html"
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
