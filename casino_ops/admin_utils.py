"""Admin plumbing: forms that run the regulated act and show its refusal on the field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest

from .regulations import RegulationError


def regulation_error_to_form(form: forms.BaseForm, error: RegulationError) -> None:
    """Put a refusal on the form: on its field when it names one, else on the form."""
    text = str(error)
    field = error.field if error.field in form.fields else None
    form.add_error(field, text)


class ReadOnlyAdmin(admin.ModelAdmin):
    """For registered entries: they are never edited or deleted in the admin (FR art. 68)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def report_regulation_error(
    modeladmin: admin.ModelAdmin, request: HttpRequest, error: RegulationError
) -> None:
    modeladmin.message_user(request, str(error), level=messages.ERROR)
