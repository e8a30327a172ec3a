"""The admin of the other books, for the director and the committee (in French).

Entries are read-only; "Ajouter" opens the act's form, which calls its service
(a refusal shows on its field with the article). Nothing is chosen by a database
id: an entry is picked in a list by its number.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards_registry.admin import ActAdmin, ActForm
from casino_ops.access import Act

from . import services
from .models import (
    Approval,
    ApprovalEnd,
    ApprovalEndEntry,
    ApprovalFunction,
    OrphanEntry,
    OrphanKind,
    OrphanRepayment,
    OrphanTransfer,
    TipsCount,
)


class OrphanEntryForm(ActForm):
    found_at = forms.DateTimeField(label=_("trouvé le"), initial=timezone.now)
    kind = forms.ChoiceField(label=_("nature"), choices=OrphanKind.choices)
    table_number = forms.IntegerField(label=_("table"), required=False, min_value=1, max_value=999)
    amount = forms.DecimalField(
        label=_("montant trouvé"),
        required=False,
        max_digits=12,
        decimal_places=2,
        min_value=0,
        help_text=_(
            "Pour une mise abandonnée en cours de partie : laissez vide, il est la mise plus ses gains."
        ),
    )
    stake = forms.DecimalField(
        label=_("mise oubliée"), required=False, max_digits=12, decimal_places=2, min_value=0
    )
    winnings = forms.DecimalField(
        label=_("gains cumulés"), required=False, max_digits=12, decimal_places=2, min_value=0
    )
    description = forms.CharField(
        label=_("circonstances"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )

    class Meta(ActForm.Meta):
        model = OrphanEntry

    def act(self, data: dict[str, Any]) -> OrphanEntry:
        return services.record_orphan(actor=self.user, **data)


@admin.register(OrphanEntry)
class OrphanEntryAdmin(ActAdmin):
    act = Act.HOUSE_BOOKS
    add_form = OrphanEntryForm
    list_display = ("number", "found_at", "kind", "table_number", "amount", "exercise", "recorded_by")
    list_filter = ("exercise", "kind")
    search_fields = ("number", "description")
    detail_fields = (
        "number",
        "exercise",
        "found_at",
        "kind",
        "table_number",
        "stake",
        "winnings",
        "amount",
        "description",
        "recorded_by",
        "recorded_at",
    )


class _EntryChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: OrphanEntry) -> str:
        return f"n° {obj.number} — {obj.amount} — {timezone.localtime(obj.found_at):%d/%m/%Y}"


class OrphanRepaymentForm(ActForm):
    entry = _EntryChoice(label=_("inscription primitive"), queryset=OrphanEntry.objects.order_by("-number"))
    repaid_on = forms.DateField(label=_("remboursé le"), initial=timezone.localdate)
    amount = forms.DecimalField(label=_("montant remboursé"), max_digits=12, decimal_places=2, min_value=0)
    owner_name = forms.CharField(label=_("nom du propriétaire"), max_length=200)
    owner_address = forms.CharField(
        label=_("adresse du propriétaire"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )
    proof = forms.CharField(
        label=_("justifications produites"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )

    class Meta(ActForm.Meta):
        model = OrphanRepayment

    def act(self, data: dict[str, Any]) -> OrphanRepayment:
        return services.repay_orphan(actor=self.user, **data)


@admin.register(OrphanRepayment)
class OrphanRepaymentAdmin(ActAdmin):
    act = Act.HOUSE_BOOKS
    add_form = OrphanRepaymentForm
    list_display = ("entry", "repaid_on", "amount", "owner_name", "recorded_by")
    detail_fields = (
        "entry",
        "repaid_on",
        "amount",
        "total_before",
        "owner_name",
        "owner_address",
        "proof",
        "recorded_by",
        "recorded_at",
    )


class OrphanTransferForm(ActForm):
    exercise = forms.IntegerField(label=_("exercice"), min_value=2000, max_value=2999)
    transferred_on = forms.DateField(label=_("versé le"), initial=timezone.localdate)
    amount = forms.DecimalField(
        label=_("montant versé (tout le solde)"), max_digits=12, decimal_places=2, min_value=0
    )
    commune = forms.CharField(label=_("commune"), max_length=120)
    receipt = forms.CharField(label=_("quittance du receveur communal"), max_length=120)
    minister_notified_on = forms.DateField(
        label=_("avis au Ministre des Finances le"), initial=timezone.localdate
    )

    class Meta(ActForm.Meta):
        model = OrphanTransfer

    def act(self, data: dict[str, Any]) -> OrphanTransfer:
        return services.transfer_orphans(actor=self.user, **data)


@admin.register(OrphanTransfer)
class OrphanTransferAdmin(ActAdmin):
    add_form = OrphanTransferForm
    act = Act.TRANSFER_ORPHANS
    list_display = ("exercise", "transferred_on", "amount", "commune", "receipt", "minister_notified_on")
    detail_fields = (
        "exercise",
        "transferred_on",
        "amount",
        "commune",
        "receipt",
        "minister_notified_on",
        "recorded_by",
        "recorded_at",
    )


# -- approvals --------------------------------------------------------------------------------


def _people() -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(is_active=True).order_by("username")


class _PersonChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        full = obj.get_full_name()
        return f"{full} ({obj.get_username()})" if full else obj.get_username()


class ApprovalForm(ActForm):
    person = _PersonChoice(label=_("personne agréée"), queryset=_people())
    function = forms.ChoiceField(label=_("fonction"), choices=ApprovalFunction.choices)
    job = forms.CharField(label=_("emploi"), required=False, max_length=120)
    approved_on = forms.DateField(label=_("agréé le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'agrément"), max_length=120)

    class Meta(ActForm.Meta):
        model = Approval

    def act(self, data: dict[str, Any]) -> Approval:
        return services.record_approval(actor=self.user, **data)


@admin.register(Approval)
class ApprovalAdmin(ActAdmin):
    add_form = ApprovalForm
    act = Act.APPROVALS
    list_display = ("person", "function", "job", "approved_on", "reference", "ended_on", "end_kind")
    list_filter = ("function", "end_kind")
    search_fields = ("person__username", "person__last_name", "reference")
    detail_fields = (
        "person",
        "function",
        "job",
        "approved_on",
        "reference",
        "ended_on",
        "end_kind",
        "end_reference",
        "minister_notified_on",
        "recorded_by",
        "recorded_at",
        "ended_by",
    )


class _ApprovalChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Approval) -> str:
        return f"{obj.person.get_username()} — {obj.get_function_display()} — {obj.reference}"


class ApprovalEndForm(ActForm):
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

    def act(self, data: dict[str, Any]) -> Approval:
        return services.end_approval(actor=self.user, **data)


@admin.register(ApprovalEndEntry)
class ApprovalEndAdmin(ActAdmin):
    """The ends of approvals (the same rows, seen from their end): "Ajouter" ends one."""

    add_form = ApprovalEndForm
    act = Act.APPROVALS
    list_display = ("person", "function", "ended_on", "end_kind", "end_reference", "minister_notified_on")
    detail_fields = ApprovalAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(ended_on__isnull=False)


# -- tips -------------------------------------------------------------------------------------


class TipsCountForm(ActForm):
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    box = forms.CharField(label=_("tirelire"), max_length=60, initial="Tirelire n° 1")
    amount = forms.DecimalField(label=_("montant compté"), max_digits=12, decimal_places=2, min_value=0)
    witness = _PersonChoice(label=_("témoin"), queryset=_people())
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = TipsCount

    def act(self, data: dict[str, Any]) -> TipsCount:
        return services.count_tips(actor=self.user, **data)


@admin.register(TipsCount)
class TipsCountAdmin(ActAdmin):
    add_form = TipsCountForm
    act = Act.COUNT_TIPS
    list_display = ("day", "box", "amount", "counted_by", "witness", "counted_at")
    date_hierarchy = "day"
    detail_fields = ("day", "box", "amount", "counted_by", "witness", "counted_at", "note", "recorded_at")
