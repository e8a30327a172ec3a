"""The tables (put out of service and back by an action) and who fixes their limits: the
director's delegate, the authorised minimum of the decree (stamped by an officer)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm, act_action, act_page, may_perform
from casino_ops.admin_utils import ReadOnlyAdmin
from casino_ops.services import get_casino
from casino_ops.validators import validate_no_control_characters

from .. import services
from ..models import AuthorisedMinimum, Delegation, MinistryNotice, Table
from .act_forms import (
    AuthorisedMinimumForm,
    DelegationForm,
    MinistryNoticeForm,
    StampMinimumForm,
    TableServiceForm,
)


class TableForm(ActForm):
    """A table put on the floor (the director or a committee member): its number, that of its
    cash box and advance book (FR art. 42, LU art. 9), the code its hand logs name, its boxes."""

    number = forms.IntegerField(label=_("numéro"), min_value=1, max_value=32767)
    code = forms.CharField(
        label=_("code"),
        max_length=16,
        help_text=_("Identifiant dans les journaux de mains, ex. BJ03."),
        validators=[validate_no_control_characters],
    )
    boxes = forms.IntegerField(label=_("nombre de cases"), initial=7, min_value=1, max_value=7)

    class Meta(ActForm.Meta):
        model = Table

    declared = declaration(services.create_table)

    def act(self, actor: Any, data: dict[str, Any]) -> Table:
        return services.create_table(
            actor=actor, number=data["number"], code=data["code"], boxes=data["boxes"]
        )


@admin.register(Table)
class TableAdmin(ActAdmin):
    """The tables: "Ajouter" puts one on the floor (``create_table``); out of service and back
    by the list's actions."""

    add_form = TableForm
    list_display = ("number", "code", "game", "boxes", "in_service")
    detail_fields = ("number", "code", "game", "boxes", "in_service")
    actions = ["put_out_of_service", "put_in_service"]

    def _set_service(self, request: HttpRequest, queryset: Any, in_service: bool) -> None:
        for table in queryset.order_by("number"):
            act_action(self, request, TableServiceForm, table=table, in_service=in_service)

    @admin.action(description=_("Mettre hors service les tables sélectionnées"), permissions=["view"])
    def put_out_of_service(self, request: HttpRequest, queryset: Any) -> None:
        self._set_service(request, queryset, False)

    @admin.action(description=_("Remettre en service les tables sélectionnées"), permissions=["view"])
    def put_in_service(self, request: HttpRequest, queryset: Any) -> None:
        self._set_service(request, queryset, True)


class _ActPageAdmin(ReadOnlyAdmin):
    """A book written by one act: its "Ajouter" is the act's own page (``act_form``, titled
    ``add_title``), offered to whoever may perform the act of the form's declaration; the
    page is seen by the book's view permission and leads back to its list."""

    act_form: type[Any]  # the form of its "Ajouter" page (the act)
    add_title: Any = ""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_perform(request.user, self.act_form)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        meta = self.model._meta
        return act_page(
            self,
            request,
            title=str(self.add_title),
            form_class=self.act_form,
            back=reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"),
            perm=f"{meta.app_label}.view_{meta.model_name}",
        )


@admin.register(Delegation)
class DelegationAdmin(_ActPageAdmin):
    """The director's delegates for the direction of play (LU art. 51 V): a dated act, read-only."""

    list_display = (
        "delegate",
        "approval_reference",
        "approved_on",
        "valid_from",
        "valid_until",
        "granted_by",
        "at",
    )
    list_select_related = ("delegate", "granted_by")
    act_form = DelegationForm  # the form of its "Ajouter" page (the act)

    add_title = _("Délégation pour la direction des jeux (LU art. 51 V)")


@admin.register(AuthorisedMinimum)
class AuthorisedMinimumAdmin(_ActPageAdmin):
    """The authorised minimum of the decree: recorded by the director, stamped by an officer."""

    list_display = (
        "minimum",
        "decree_reference",
        "decree_date",
        "in_force_on",
        "recorded_by",
        "stamped_by",
        "stamped_at",
    )
    list_select_related = ("recorded_by", "stamped_by")
    actions = ["stamp"]
    act_form = AuthorisedMinimumForm  # the form of its "Ajouter" page (the act)

    add_title = _("Minimum autorisé par un arrêté")

    @admin.action(description=_("Viser les actes sélectionnés (fonctionnaire)"), permissions=["view"])
    def stamp(self, request: HttpRequest, queryset: Any) -> None:
        for minimum in queryset:
            act_action(self, request, StampMinimumForm, minimum=minimum)


@admin.register(MinistryNotice)
class MinistryNoticeAdmin(_ActPageAdmin):
    """The notices to the minister of a raised minimum (LU art. 26), recorded when sent: the day
    the director declares beside the moment the system recorded it, and the gap when the declared
    day is the earlier."""

    list_display = (
        "reference",
        "minimum",
        "sent_on",
        "recorded_at",
        "declared_before_recording",
        "recorded_by",
    )
    list_select_related = ("recorded_by",)
    act_form = MinistryNoticeForm  # the form of its "Ajouter" page (the act)

    @admin.display(description=_("déclarée avant son inscription"))
    def declared_before_recording(self, notice: MinistryNotice) -> str:
        recorded_on = get_casino().gaming_day(notice.recorded_at)
        if notice.sent_on >= recorded_on:
            return "—"
        return str(_("%(n)s jours avant")) % {"n": (recorded_on - notice.sent_on).days}

    add_title = _("Information du ministre d'un relèvement du minimum")
