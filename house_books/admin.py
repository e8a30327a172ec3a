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
    BankFailure,
    EarlyStop,
    EarlyStopReason,
    NewAuthorisation,
    OrphanEntry,
    OrphanKind,
    OrphanRepayment,
    OrphanTransfer,
    SeanceHours,
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


# -- séance hours (LU art. 71) ------------------------------------------------------------------


class SeanceHoursForm(ActForm):
    weekday_start = forms.TimeField(label=_("début des séances, jours ordinaires"))
    holiday_start = forms.TimeField(label=_("début des séances, dimanches et jours fériés"))
    closing = forms.TimeField(label=_("heure de fermeture fixée par l'autorisation"))
    effective_from = forms.DateTimeField(label=_("en vigueur à partir du"))
    notified_at = forms.DateTimeField(label=_("avis aux ministres le"), initial=timezone.now)
    reference = forms.CharField(label=_("référence de l'avis"), max_length=120)

    class Meta(ActForm.Meta):
        model = SeanceHours

    def act(self, data: dict[str, Any]) -> SeanceHours:
        from .services.hours import notify_seance_hours

        return notify_seance_hours(actor=self.user, **data)


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


class _OpenSessionChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.table.code} — {obj.day:%d/%m/%Y} — {timezone.localtime(obj.opened_at):%H:%M}"


def _open_sessions() -> Any:
    from tables.models import Session, SessionStatus

    return (
        Session.objects.exclude(status=SessionStatus.CLOSED).select_related("table").order_by("table__number")
    )


class EarlyStopForm(ActForm):
    session = _OpenSessionChoice(label=_("séance"), queryset=_open_sessions())
    reason = forms.ChoiceField(label=_("motif"), choices=EarlyStopReason.choices)
    stopped_at = forms.DateTimeField(label=_("arrêtée le"), initial=timezone.now)
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = EarlyStop

    def act(self, data: dict[str, Any]) -> EarlyStop:
        from .services.hours import record_early_stop

        return record_early_stop(actor=self.user, **data)


@admin.register(EarlyStop)
class EarlyStopAdmin(ActAdmin):
    add_form = EarlyStopForm
    list_display = ("session", "stopped_at", "reason", "recorded_by")
    detail_fields = ("session", "stopped_at", "reason", "note", "recorded_by", "recorded_at")


# -- bank failure (LU art. 11) ------------------------------------------------------------------


class BankFailureForm(ActForm):
    occurred_at = forms.DateTimeField(label=_("survenue le"), initial=timezone.now)
    description = forms.CharField(
        label=_("circonstances"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )
    officer_name = forms.CharField(label=_("fonctionnaire présent avisé"), max_length=200)
    officer_told_at = forms.DateTimeField(label=_("fonctionnaire avisé le"), initial=timezone.now)
    minister_told_at = forms.DateTimeField(label=_("Ministre des Finances avisé le"), initial=timezone.now)

    class Meta(ActForm.Meta):
        model = BankFailure

    def act(self, data: dict[str, Any]) -> BankFailure:
        from .services.bank import record_bank_failure

        return record_bank_failure(actor=self.user, **data)


@admin.register(BankFailure)
class BankFailureAdmin(ActAdmin):
    add_form = BankFailureForm
    list_display = ("occurred_at", "officer_name", "officer_told_at", "minister_told_at", "recorded_by")
    detail_fields = (
        "occurred_at",
        "description",
        "officer_name",
        "officer_told_at",
        "minister_told_at",
        "recorded_by",
        "recorded_at",
    )


class _FailureChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: BankFailure) -> str:
        return f"{timezone.localtime(obj.occurred_at):%d/%m/%Y %H:%M} — {obj.officer_name}"


class NewAuthorisationForm(ActForm):
    failure = _FailureChoice(
        label=_("défaillance"),
        queryset=BankFailure.objects.filter(new_authorisation__isnull=True).order_by("-occurred_at"),
    )
    granted_on = forms.DateField(label=_("accordée le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'autorisation"), max_length=120)

    class Meta(ActForm.Meta):
        model = NewAuthorisation

    def act(self, data: dict[str, Any]) -> NewAuthorisation:
        from .services.bank import record_new_authorisation

        return record_new_authorisation(actor=self.user, **data)


@admin.register(NewAuthorisation)
class NewAuthorisationAdmin(ActAdmin):
    add_form = NewAuthorisationForm
    list_display = ("failure", "granted_on", "reference", "recorded_by")
    detail_fields = ("failure", "granted_on", "reference", "recorded_by", "recorded_at")


# -- exclusions (LU art. 68, 69, 75) ------------------------------------------------------------

from .models import (  # noqa: E402
    Exclusion,
    ExclusionGround,
    ExclusionKind,
    ExclusionLiftEntry,
    ExclusionNoticeEntry,
    ExclusionOrigin,
    OwnExclusionEntry,
)

_MINISTER_GROUNDS = [(v, label) for v, label in ExclusionGround.choices if v != ExclusionGround.OWN]


class MinisterialExclusionForm(ActForm):
    last_name = forms.CharField(label=_("nom"), max_length=120)
    first_names = forms.CharField(label=_("prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("date de naissance"))
    ground = forms.ChoiceField(label=_("motif"), choices=_MINISTER_GROUNDS)
    decided_on = forms.DateField(label=_("décidée le"))
    reference = forms.CharField(label=_("référence de la décision du ministre"), max_length=120)
    director_notified_on = forms.DateField(label=_("notifiée au directeur le"), initial=timezone.localdate)

    class Meta(ActForm.Meta):
        model = Exclusion

    def act(self, data: dict[str, Any]) -> Exclusion:
        return services.record_ministerial_exclusion(actor=self.user, **data)


@admin.register(Exclusion)
class ExclusionAdmin(ActAdmin):
    """The fichier des exclus; "Ajouter" records an exclusion pronounced by the minister."""

    add_form = MinisterialExclusionForm
    list_display = (
        "last_name",
        "first_names",
        "birth_date",
        "origin",
        "kind",
        "decided_on",
        "minister_notified_on",
        "lifted_on",
    )
    list_filter = ("origin", "kind")
    search_fields = ("last_name", "first_names", "reference")
    detail_fields = (
        "origin",
        "kind",
        "ground",
        "last_name",
        "first_names",
        "birth_date",
        "decided_on",
        "reference",
        "reasons",
        "director_notified_on",
        "minister_notified_on",
        "notice_reference",
        "lifted_on",
        "lift_reference",
        "recorded_by",
        "recorded_at",
    )


class OwnExclusionForm(ActForm):
    kind = forms.ChoiceField(label=_("nature"), choices=ExclusionKind.choices)
    last_name = forms.CharField(label=_("nom"), max_length=120)
    first_names = forms.CharField(label=_("prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("date de naissance"))
    decided_on = forms.DateField(label=_("décidée le"), initial=timezone.localdate)
    reasons = forms.CharField(label=_("motifs"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    class Meta(ActForm.Meta):
        model = OwnExclusionEntry

    def act(self, data: dict[str, Any]) -> Exclusion:
        return services.record_own_exclusion(actor=self.user, **data)


@admin.register(OwnExclusionEntry)
class OwnExclusionAdmin(ActAdmin):
    """Exclusions and refusals of admission by the management (LU art. 69)."""

    add_form = OwnExclusionForm
    list_display = ("last_name", "first_names", "kind", "decided_on", "reasons", "minister_notified_on")
    detail_fields = ExclusionAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(origin=ExclusionOrigin.CASINO)


class _ExclusionChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Exclusion) -> str:
        return str(obj)


class ExclusionNoticeForm(ActForm):
    exclusion = _ExclusionChoice(
        label=_("exclusion par la direction"),
        queryset=Exclusion.objects.filter(origin=ExclusionOrigin.CASINO, minister_notified_on__isnull=True),
    )
    notified_on = forms.DateField(label=_("avis au Ministre de la Justice le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'avis au ministre"), max_length=120)

    class Meta(ActForm.Meta):
        model = ExclusionNoticeEntry

    def act(self, data: dict[str, Any]) -> Exclusion:
        return services.notify_own_exclusion(actor=self.user, **data)


@admin.register(ExclusionNoticeEntry)
class ExclusionNoticeAdmin(ActAdmin):
    """The notices to the minister of the management's own exclusions: "Ajouter" gives one."""

    add_form = ExclusionNoticeForm
    list_display = ("last_name", "first_names", "decided_on", "minister_notified_on", "notice_reference")
    detail_fields = ExclusionAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(minister_notified_on__isnull=False)


class ExclusionLiftForm(ActForm):
    exclusion = _ExclusionChoice(
        label=_("exclusion"), queryset=Exclusion.objects.filter(lifted_on__isnull=True)
    )
    lifted_on = forms.DateField(label=_("radiée le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de la radiation"), max_length=120)

    class Meta(ActForm.Meta):
        model = ExclusionLiftEntry

    def act(self, data: dict[str, Any]) -> Exclusion:
        return services.lift_exclusion(actor=self.user, **data)


@admin.register(ExclusionLiftEntry)
class ExclusionLiftAdmin(ActAdmin):
    """The radiations from the list of the excluded: "Ajouter" records one."""

    add_form = ExclusionLiftForm
    list_display = ("last_name", "first_names", "decided_on", "lifted_on", "lift_reference")
    detail_fields = ExclusionAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(lifted_on__isnull=False)
