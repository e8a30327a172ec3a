"""Admin plumbing: the read-only admin of registered entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

# Django's admin and form classes take type parameters in the stubs only (django-stubs-ext's
# monkeypatch is a development tool): the apps subclass these names, generic for mypy.
if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    ModelChoiceField = forms.ModelChoiceField[Any]
    ModelForm = forms.ModelForm[Any]
else:
    ModelAdmin = admin.ModelAdmin
    ModelChoiceField = forms.ModelChoiceField
    ModelForm = forms.ModelForm


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
