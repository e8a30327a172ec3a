"""What the tables' admin pages share: an act's page (its form, the service called, a refusal
on the field with its article), the read-only inline, the labels of the discrepancies."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from casino_ops import access
from casino_ops.access import Act
from casino_ops.admin_display import labelled_code
from casino_ops.admin_utils import regulation_error_to_form
from casino_ops.regulations import RegulationError

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


def _role_refusal(user: Any, acts: tuple[Act, ...]) -> access.RoleRequired | None:
    """The refusal of ``user`` for the first of ``acts`` when he may perform none of them."""
    if not acts or any(access.may(user, act) for act in acts):
        return None
    try:
        access.require(user, acts[0])
    except access.RoleRequired as error:
        return error
    return None


def act_view(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    *,
    title: str,
    form_class: Callable[..., forms.Form],
    perform: Callable[[dict[str, Any]], Any],
    back: str,
    perm: str,
    files: bool = False,
    acts: tuple[Act, ...] = (),
) -> HttpResponse:
    """Show an act's form; on POST call the service; a refusal goes on the field with its article.
    ``acts``: the regulated acts of which the user must be allowed one (casino_ops.access); to
    anyone else the page shows the refusal (RoleRequired, with its article) and does nothing."""
    if not request.user.has_perm(perm):
        raise PermissionDenied
    refusal = _role_refusal(request.user, acts)
    form = (
        form_class(request.POST or None, request.FILES or None) if request.method == "POST" else form_class()
    )
    if refusal is not None:
        if form.is_bound:
            form.is_valid()  # the form's own errors too, then the refusal
            regulation_error_to_form(form, refusal)
        else:
            modeladmin.message_user(request, str(refusal), messages.ERROR)
    elif request.method == "POST" and form.is_valid():
        try:
            perform(form.cleaned_data)
        except RegulationError as error:
            regulation_error_to_form(form, error)
        else:
            modeladmin.message_user(request, _("Acte enregistré : %(t)s.") % {"t": title}, messages.SUCCESS)
            return HttpResponseRedirect(back)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "back": back,
        "opts": modeladmin.model._meta,
        "multipart": files,
    }
    return TemplateResponse(request, "admin/tables/act_form.html", context)


class ReadOnlyInline(_TabularInline):
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
