"""The admin page of a regulated act: entries read-only, "Ajouter" runs the act's service.

:class:`ActForm`'s ``clean()`` calls the act (a refusal lands on the field it names, with
the article, never as a traceback); :class:`ActAdmin` shows the entries read-only and
offers "Ajouter" to whoever may perform its act (:mod:`casino_ops.access`). Every app's
admin builds its acts' pages on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import access
from .access import Act
from .admin_utils import ReadOnlyAdmin, regulation_error_to_form
from .forms import SafeFormMixin
from .regulations import RegulationError

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups

    _ModelForm = forms.ModelForm[Any]
else:  # ModelForm is generic in the stubs only
    _ModelForm = forms.ModelForm


def users_with_role(*names: str) -> QuerySet[Any]:
    """The active users of any of the roles ``names``, by username (the choices of a form)."""
    return (
        get_user_model()
        .objects.filter(groups__name__in=names, is_active=True)
        .distinct()
        .order_by("username")
    )


def model_choice_field(form: forms.BaseForm, name: str) -> forms.ModelChoiceField[Any]:
    """The form's field ``name``, a choice of model instances (to set its queryset per request)."""
    field = form.fields[name]
    if not isinstance(field, forms.ModelChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ModelChoiceField")
    return field


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, a choice (to set its choices per request)."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ChoiceField")
    return field


class ActForm(SafeFormMixin, _ModelForm):
    """A form whose ``clean()`` runs the act; a refusal lands on the field it names.

    Its fields take their limits from the model's (casino_ops.forms): absurd input
    is refused on the field before the act's service is called."""

    user: Any = None  # set per request by ActAdmin.get_form
    result: Any = None
    field_map: dict[str, str] = {}  # the service's field name -> this form's field

    class Meta:
        fields: list[str] = []

    def act(self, data: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        data: dict[str, Any] = self.cleaned_data if cleaned is None else cleaned
        if not self.errors:
            try:
                self.result = self.act(data)
            except RegulationError as error:
                error.field = self.field_map.get(error.field or "", error.field)
                regulation_error_to_form(self, error)
            except PermissionDenied as error:
                self.add_error(None, str(error) or _("Vous n'avez pas le droit de faire cet acte."))
        return data

    def _post_clean(self) -> None:
        # The act validated and saved through its service; no model validation here.
        pass


class ActAdmin(ReadOnlyAdmin):
    """Read-only entries; "Ajouter" runs ``add_form``'s act for whoever may perform ``act``
    (casino_ops.access)."""

    add_form: type[ActForm] | None = None
    act: Act = Act.DEPOT
    detail_fields: tuple[str, ...] = ()

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.add_form is not None and access.may(request.user, self.act)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> _FieldGroups:
        if obj is None and self.add_form is not None:
            return list(self.add_form.base_fields)
        return list(self.detail_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return () if obj is None else self.detail_fields

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None and self.add_form is not None:
            return type(self.add_form.__name__, (self.add_form,), {"user": request.user})
        kwargs["fields"] = ()
        return super().get_form(request, obj, change=change, **kwargs)

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.result

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        pass  # saved by the service

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass
