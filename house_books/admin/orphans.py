"""The orphans' book: entries, repayments, transfers (FR art. 67, LU art. 45)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_utils import ModelChoiceField

from .. import services
from ..books import book_fields
from ..models import OrphanEntry, OrphanKind, OrphanRepayment, OrphanTransfer
from . import ActAdmin, ActForm


class OrphanEntryForm(ActForm):
    declared = declaration(services.record_orphan)
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

    def act(self, actor: Any, data: dict[str, Any]) -> OrphanEntry:
        return services.record_orphan(actor=actor, **data)


@admin.register(OrphanEntry)
class OrphanEntryAdmin(ActAdmin):
    add_form = OrphanEntryForm
    list_display = ("number", "found_at", "kind", "table_number", "amount", "exercise", "recorded_by")
    list_filter = ("exercise", "kind")
    search_fields = ("number", "description")
    detail_fields = book_fields(OrphanEntry)


class _EntryChoice(ModelChoiceField):
    def label_from_instance(self, obj: OrphanEntry) -> str:
        return f"n° {obj.number} — {dates.amount(obj.amount)} — {dates.day(obj.found_at)}"


class OrphanRepaymentForm(ActForm):
    declared = declaration(services.repay_orphan)
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

    def act(self, actor: Any, data: dict[str, Any]) -> OrphanRepayment:
        return services.repay_orphan(actor=actor, **data)


@admin.register(OrphanRepayment)
class OrphanRepaymentAdmin(ActAdmin):
    add_form = OrphanRepaymentForm
    list_display = ("entry", "repaid_on", "amount", "owner_name", "recorded_by")
    detail_fields = book_fields(OrphanRepayment)


class OrphanTransferForm(ActForm):
    declared = declaration(services.transfer_orphans)
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

    def act(self, actor: Any, data: dict[str, Any]) -> OrphanTransfer:
        return services.transfer_orphans(actor=actor, **data)


@admin.register(OrphanTransfer)
class OrphanTransferAdmin(ActAdmin):
    add_form = OrphanTransferForm
    list_display = ("exercise", "transferred_on", "amount", "commune", "receipt", "minister_notified_on")
    detail_fields = book_fields(OrphanTransfer)
