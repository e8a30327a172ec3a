"""Séance hours and early stops (LU art. 71); bank failure and new authorisation (LU art. 11)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops import dates, roles
from casino_ops.acts import declaration
from casino_ops.admin_utils import ModelChoiceField
from tables import selectors as tables

from ..books import book_fields
from ..models import BankFailure, EarlyStop, EarlyStopReason, NewAuthorisation, SeanceHours
from ..services.bank import record_bank_failure, record_new_authorisation
from ..services.hours import notify_seance_hours, record_early_stop
from . import ActAdmin, ActForm


class SeanceHoursForm(ActForm):
    declared = declaration(notify_seance_hours)
    weekday_start = forms.TimeField(label=_("début des séances, jours ordinaires"))
    holiday_start = forms.TimeField(label=_("début des séances, dimanches et jours fériés"))
    closing = forms.TimeField(label=_("heure de fermeture fixée par l'autorisation"))
    effective_from = forms.DateTimeField(label=_("en vigueur à partir du"))
    notified_at = forms.DateTimeField(label=_("avis aux ministres le"), initial=timezone.now)
    reference = forms.CharField(label=_("référence de l'avis"), max_length=120)

    class Meta(ActForm.Meta):
        model = SeanceHours

    def act(self, actor: Any, data: dict[str, Any]) -> SeanceHours:
        return notify_seance_hours(actor=actor, **data)


@admin.register(SeanceHours)
class SeanceHoursAdmin(ActAdmin):
    add_form = SeanceHoursForm
    list_display = ("effective_from", "weekday_start", "holiday_start", "closing", "notified_at", "reference")
    detail_fields = (
        "effective_from",
        "weekday_start",
        "holiday_start",
        "closing",
        "notified_at",
        "reference",
        "recorded_by",
        "recorded_at",
    )


class _OpenSessionChoice(ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.table.code} — {dates.day(obj.day)} — {timezone.localtime(obj.opened_at):%H:%M}"


class EarlyStopForm(ActForm):
    declared = declaration(record_early_stop)
    session = _OpenSessionChoice(label=_("séance"), queryset=tables.open_sessions())
    reason = forms.ChoiceField(label=_("motif"), choices=EarlyStopReason.choices)
    stopped_at = forms.DateTimeField(label=_("arrêtée le"), initial=timezone.now)
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = EarlyStop

    def act(self, actor: Any, data: dict[str, Any]) -> EarlyStop:
        return record_early_stop(actor=actor, **data)


@admin.register(EarlyStop)
class EarlyStopAdmin(ActAdmin):
    add_form = EarlyStopForm
    list_display = ("session", "stopped_at", "reason", "recorded_by")
    detail_fields = book_fields(EarlyStop)


# -- bank failure (LU art. 11) ------------------------------------------------------------------


class BankFailureForm(ActForm):
    declared = declaration(record_bank_failure)
    occurred_at = forms.DateTimeField(label=_("survenue le"), initial=timezone.now)
    description = forms.CharField(
        label=_("circonstances"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )
    officer_name = forms.CharField(label=_("fonctionnaire présent avisé"), max_length=200)
    officer_told_at = forms.DateTimeField(label=_("fonctionnaire avisé le"), initial=timezone.now)
    minister_told_at = forms.DateTimeField(label=_("Ministre des Finances avisé le"), initial=timezone.now)
    counts = forms.CharField(
        label=_("encaisse comptée à chaque table ouverte"),
        help_text=_("Une ligne par table : « numéro de table : montant » (toutes les tables s'arrêtent)."),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=2000,
    )
    cashier = forms.ModelChoiceField(
        label=_("caissier présent"),
        queryset=get_user_model().objects.filter(groups__name=roles.CASHIER).order_by("username"),
        required=False,
    )

    class Meta(ActForm.Meta):
        model = BankFailure

    def clean_counts(self) -> dict[int, str]:
        """``3: 30120.00`` per line: the table's number and the cash counted there."""
        found: dict[int, str] = {}
        for line in str(self.cleaned_data.get("counts") or "").splitlines():
            if not line.strip():
                continue
            number, sep, amount = line.replace("=", ":").partition(":")
            if not sep or not number.strip().isdigit() or not amount.strip():
                raise forms.ValidationError(
                    _("Ligne « %(line)s » : écrivez « numéro de table : montant ».") % {"line": line.strip()}
                )
            found[int(number.strip())] = amount.strip().replace(",", ".")
        return found

    def act(self, actor: Any, data: dict[str, Any]) -> BankFailure:
        return record_bank_failure(actor=actor, **data)


@admin.register(BankFailure)
class BankFailureAdmin(ActAdmin):
    add_form = BankFailureForm
    list_display = ("occurred_at", "officer_name", "officer_told_at", "minister_told_at", "recorded_by")
    detail_fields = book_fields(BankFailure)


class _FailureChoice(ModelChoiceField):
    def label_from_instance(self, obj: BankFailure) -> str:
        return f"{dates.moment(obj.occurred_at)} — {obj.officer_name}"


class NewAuthorisationForm(ActForm):
    declared = declaration(record_new_authorisation)
    failure = _FailureChoice(
        label=_("défaillance"),
        queryset=BankFailure.objects.filter(new_authorisation__isnull=True).order_by("-occurred_at"),
    )
    granted_on = forms.DateField(label=_("accordée le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'autorisation"), max_length=120)

    class Meta(ActForm.Meta):
        model = NewAuthorisation

    def act(self, actor: Any, data: dict[str, Any]) -> NewAuthorisation:
        return record_new_authorisation(actor=actor, **data)


@admin.register(NewAuthorisation)
class NewAuthorisationAdmin(ActAdmin):
    add_form = NewAuthorisationForm
    list_display = ("failure", "granted_on", "reference", "recorded_by")
    detail_fields = book_fields(NewAuthorisation)
