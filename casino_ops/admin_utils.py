"""Admin plumbing: the project's admin base (amounts written as every page writes them) and the
read-only admin of registered entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import BaseModelAdmin
from django.http import HttpRequest

from .admin_display import amount_columns

# Django's admin and form classes take type parameters in the stubs only (django-stubs-ext's
# monkeypatch is a development tool): the apps subclass these names, generic for mypy.
if TYPE_CHECKING:
    _ModelAdmin = admin.ModelAdmin[Any]
    _BaseModelAdmin = BaseModelAdmin[Any]
    ModelChoiceField = forms.ModelChoiceField[Any]
    ModelForm = forms.ModelForm[Any]
else:
    _ModelAdmin = admin.ModelAdmin
    _BaseModelAdmin = object
    ModelChoiceField = forms.ModelChoiceField
    ModelForm = forms.ModelForm


class AmountsShown(_BaseModelAdmin):
    """Mixed into an admin (a page or an inline): each amount of its read-only fields is shown by :func:`casino_ops.admin_display.amount_column` ("30 000,00" in French,
    "30,000.00" in English, as on every page and register), never as Django writes a decimal."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return amount_columns(self.model, super().get_readonly_fields(request, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = set(self.get_readonly_fields(request, obj))

        def shown(name: Any) -> Any:
            if isinstance(name, (list, tuple)):
                return type(name)(shown(n) for n in name)
            column = amount_columns(self.model, [name])[0]
            return column if column in readonly else name

        return [
            (title, {**options, "fields": [shown(name) for name in options["fields"]]})
            for title, options in super().get_fieldsets(request, obj)
        ]


class ModelAdmin(AmountsShown, _ModelAdmin):
    """The project's admin page: amounts as every page writes them, in its list too."""

    def get_list_display(self, request: HttpRequest) -> Any:
        return amount_columns(self.model, super().get_list_display(request))


class ReadOnlyAdmin(ModelAdmin):
    """For registered entries: they are never edited or deleted in the admin (FR art. 68).

    The page shows exactly ``readonly_fields`` when they are given (a display method
    replacing a raw field, such as JSON shown as a list, does not show the raw one too)."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if self.fields:
            return self.fields
        shown = self.get_readonly_fields(request, obj)
        return list(shown) if shown else super().get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
