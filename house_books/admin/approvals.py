"""The book of approvals (agréments) and their ends (LU art. 51, 54, 63)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration
from casino_ops.admin_utils import ModelChoiceField

from .. import services
from ..books import book_fields
from ..models import Approval, ApprovalEnd, ApprovalEndEntry, ApprovalFunction
from . import ActAdmin, ActForm
from .people import PersonChoice, people


class ApprovalForm(ActForm):
    declared = declaration(services.record_approval)
    person = PersonChoice(label=_("personne agréée"), queryset=people())
    function = forms.ChoiceField(label=_("fonction"), choices=ApprovalFunction.choices)
    job = forms.CharField(label=_("emploi"), required=False, max_length=120)
    approved_on = forms.DateField(label=_("agréé le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'agrément"), max_length=120)

    class Meta(ActForm.Meta):
        model = Approval

    def act(self, actor: Any, data: dict[str, Any]) -> Approval:
        return services.record_approval(actor=actor, **data)


@admin.register(Approval)
class ApprovalAdmin(ActAdmin):
    add_form = ApprovalForm
    list_display = ("person", "function", "job", "approved_on", "reference", "ended_on", "end_kind")
    list_filter = ("function", "end_kind")
    search_fields = ("person__username", "person__last_name", "reference")
    detail_fields = book_fields(Approval)


class _ApprovalChoice(ModelChoiceField):
    def label_from_instance(self, obj: Approval) -> str:
        return f"{obj.person.get_username()} — {obj.get_function_display()} — {obj.reference}"


class ApprovalEndForm(ActForm):
    declared = declaration(services.end_approval)
    approval = _ApprovalChoice(
        label=_("agrément"), queryset=Approval.objects.filter(ended_on__isnull=True).select_related("person")
    )
    kind = forms.ChoiceField(label=_("fin"), choices=ApprovalEnd.choices)
    ended_on = forms.DateField(label=_("fin le"), initial=timezone.localdate)
    reference = forms.CharField(
        label=_("référence ou motifs"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
    minister_notified_on = forms.DateField(label=_("avis au Ministre de la Justice le"), required=False)

    class Meta(ActForm.Meta):
        model = ApprovalEndEntry

    def act(self, actor: Any, data: dict[str, Any]) -> Approval:
        return services.end_approval(actor=actor, **data)


@admin.register(ApprovalEndEntry)
class ApprovalEndAdmin(ActAdmin):
    """The ends of approvals (the same rows, seen from their end): "Ajouter" ends one."""

    add_form = ApprovalEndForm
    list_display = ("person", "function", "ended_on", "end_kind", "end_reference", "minister_notified_on")
    detail_fields = ApprovalAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(ended_on__isnull=False)
