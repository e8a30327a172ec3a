"""The fichier des exclus (LU art. 68, 69, 75)."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_utils import ModelChoiceField

from .. import selectors, services
from ..books import book_fields
from ..models import (
    Exclusion,
    ExclusionGround,
    ExclusionKind,
    ExclusionLiftEntry,
    ExclusionNoticeEntry,
    ExclusionOrigin,
    OwnExclusionEntry,
    RefusedEntry,
)
from . import ActAdmin, ActForm

_MINISTER_GROUNDS = [(v, label) for v, label in ExclusionGround.choices if v != ExclusionGround.OWN]


class MinisterialExclusionForm(ActForm):
    declared = declaration(services.record_ministerial_exclusion)
    last_name = forms.CharField(label=_("nom"), max_length=120)
    first_names = forms.CharField(label=_("prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("date de naissance"))
    ground = forms.ChoiceField(label=_("motif"), choices=_MINISTER_GROUNDS)
    decided_on = forms.DateField(label=_("décidée le"))
    reference = forms.CharField(label=_("référence de la décision du ministre"), max_length=120)
    director_notified_on = forms.DateField(label=_("notifiée au directeur le"), initial=timezone.localdate)

    class Meta(ActForm.Meta):
        model = Exclusion

    def act(self, actor: Any, data: dict[str, Any]) -> Exclusion:
        return services.record_ministerial_exclusion(actor=actor, **data)


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
    detail_fields = (*book_fields(Exclusion), "notice_recorded", "refused_entries_list")

    @admin.display(description=_("avis : jour déclaré et inscription"))
    def notice_recorded(self, obj: Exclusion) -> str:
        """The notice's declared day beside the moment the system recorded it (LU art. 68, 69)."""
        declared = (
            obj.director_notified_on if obj.origin == ExclusionOrigin.MINISTER else obj.minister_notified_on
        )
        recorded = selectors.exclusion_notice_recordings([obj]).get(obj.pk)
        if declared is None or recorded is None:
            return "—"
        said = (
            _("déclarée le %(d)s, inscrite le %(r)s")
            if obj.origin == ExclusionOrigin.MINISTER
            else _("déclaré le %(d)s, inscrit le %(r)s")
        )
        return said % {
            "d": dates.day(declared),
            "r": dates.moment(recorded),
        }

    @admin.display(description=_("entrées refusées sous cette exclusion"))
    def refused_entries_list(self, obj: Exclusion) -> SafeString:
        return format_html_join(
            "",
            "<div>{} — {} {} ({})</div>",
            (
                (
                    dates.moment(e.refused_at),
                    e.last_name.upper(),
                    e.first_names,
                    e.physionomiste,
                )
                for e in obj.refused_entries.all()
            ),
        )


class OwnExclusionForm(ActForm):
    declared = declaration(services.record_own_exclusion)
    kind = forms.ChoiceField(label=_("nature"), choices=ExclusionKind.choices)
    last_name = forms.CharField(label=_("nom"), max_length=120)
    first_names = forms.CharField(label=_("prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("date de naissance"))
    decided_on = forms.DateField(label=_("décidée le"), initial=timezone.localdate)
    reasons = forms.CharField(label=_("motifs"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    class Meta(ActForm.Meta):
        model = OwnExclusionEntry

    def act(self, actor: Any, data: dict[str, Any]) -> Exclusion:
        return services.record_own_exclusion(actor=actor, **data)


class _ExclusionActAdmin(ActAdmin):
    """One act of the fichier des exclus on its own list: the entries ``shown`` (a filter),
    each entry's page the book's own."""

    shown: ClassVar[dict[str, Any]] = {}
    detail_fields = ExclusionAdmin.detail_fields
    refused_entries_list = ExclusionAdmin.refused_entries_list
    notice_recorded = ExclusionAdmin.notice_recorded

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(**self.shown)


@admin.register(OwnExclusionEntry)
class OwnExclusionAdmin(_ExclusionActAdmin):
    """Exclusions and refusals of admission by the management (LU art. 69)."""

    add_form = OwnExclusionForm
    list_display = ("last_name", "first_names", "kind", "decided_on", "reasons", "minister_notified_on")
    shown = {"origin": ExclusionOrigin.CASINO}


class _ExclusionChoice(ModelChoiceField):
    def label_from_instance(self, obj: Exclusion) -> str:
        return str(obj)


class ExclusionNoticeForm(ActForm):
    declared = declaration(services.notify_own_exclusion)
    exclusion = _ExclusionChoice(
        label=_("exclusion par la direction"),
        queryset=Exclusion.objects.filter(origin=ExclusionOrigin.CASINO, minister_notified_on__isnull=True),
    )
    notified_on = forms.DateField(label=_("avis au Ministre de la Justice le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de l'avis au ministre"), max_length=120)

    class Meta(ActForm.Meta):
        model = ExclusionNoticeEntry

    def act(self, actor: Any, data: dict[str, Any]) -> Exclusion:
        return services.notify_own_exclusion(actor=actor, **data)


@admin.register(ExclusionNoticeEntry)
class ExclusionNoticeAdmin(_ExclusionActAdmin):
    """The notices to the minister of the management's own exclusions: "Ajouter" gives one."""

    add_form = ExclusionNoticeForm
    list_display = ("last_name", "first_names", "decided_on", "minister_notified_on", "notice_reference")
    shown = {"minister_notified_on__isnull": False}


class ExclusionLiftForm(ActForm):
    declared = declaration(services.lift_exclusion)
    exclusion = _ExclusionChoice(
        label=_("exclusion"), queryset=Exclusion.objects.filter(lifted_on__isnull=True)
    )
    lifted_on = forms.DateField(label=_("radiée le"), initial=timezone.localdate)
    reference = forms.CharField(label=_("référence de la radiation"), max_length=120)

    class Meta(ActForm.Meta):
        model = ExclusionLiftEntry

    def act(self, actor: Any, data: dict[str, Any]) -> Exclusion:
        return services.lift_exclusion(actor=actor, **data)


@admin.register(ExclusionLiftEntry)
class ExclusionLiftAdmin(_ExclusionActAdmin):
    """The radiations from the list of the excluded: "Ajouter" records one."""

    add_form = ExclusionLiftForm
    list_display = ("last_name", "first_names", "decided_on", "lifted_on", "lift_reference")
    shown = {"lifted_on__isnull": False}


class _InForceChoice(ModelChoiceField):
    def label_from_instance(self, obj: Exclusion) -> str:
        return f"{obj} — {obj.reference}"


class RefusedEntryForm(ActForm):
    declared = declaration(services.record_refused_entry)
    exclusion = _InForceChoice(
        label=_("exclusion appliquée"),
        queryset=Exclusion.objects.filter(lifted_on__isnull=True).order_by("last_name", "first_names", "pk"),
    )
    refused_at = forms.DateTimeField(label=_("entrée refusée le"), initial=timezone.now)
    last_name = forms.CharField(label=_("nom"), max_length=120)
    first_names = forms.CharField(label=_("prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("date de naissance"))
    physionomiste = forms.CharField(label=_("physionomiste à l'entrée"), max_length=120)
    remark = forms.CharField(
        label=_("observations"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000, required=False
    )

    class Meta(ActForm.Meta):
        model = RefusedEntry

    def act(self, actor: Any, data: dict[str, Any]) -> RefusedEntry:
        return services.record_refused_entry(actor=actor, **data)


@admin.register(RefusedEntry)
class RefusedEntryAdmin(ActAdmin):
    """The entries refused at the door (LU art. 67, 75): "Ajouter" writes one under the
    exclusion it enforces, with the person as identified and the physionomiste."""

    add_form = RefusedEntryForm
    list_display = ("refused_at", "last_name", "first_names", "birth_date", "exclusion", "physionomiste")
    list_select_related = ("exclusion",)
    search_fields = ("last_name", "first_names", "physionomiste")
    date_hierarchy = "refused_at"
    detail_fields = book_fields(RefusedEntry)
