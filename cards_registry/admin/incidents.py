"""The incidents of the card procedure: reported by every route (decks by serial or sixain,
a foreign card, the police judiciaire told when no officer is present), and when and to
whom an incident found by a return, a destruction or a replay was reported."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino_ops import access, dates
from casino_ops.access import Act
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm, model_choice_field, users_with_role

from .. import selectors, services
from ..books import book_fields
from ..models import Deck, Incident, IncidentKind, IncidentReport, Manufacturer
from . import _shared
from ._shared import named_decks


class IncidentForm(ActForm):
    declared = declaration(services.report_incident)
    kind = forms.ChoiceField(label=_("nature"), choices=IncidentKind.choices)
    occurred_at = forms.DateTimeField(label=_("survenu le"), initial=timezone.now)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    table_number = forms.IntegerField(label=_("table"), required=False, min_value=1)
    shoe_reference = forms.CharField(label=_("sabot"), required=False, max_length=64)
    manufacturer = forms.ModelChoiceField(label=_("fabricant des jeux"), queryset=Manufacturer.objects.all())
    serials = forms.CharField(
        label=_("jeux concernés (numéros de série)"), widget=forms.Textarea(attrs={"rows": 2})
    )
    officer_informed = forms.ModelChoiceField(
        label=_("officier avisé"), queryset=get_user_model().objects.none(), required=False
    )
    officer_informed_at = forms.DateTimeField(label=_("avisé le"), required=False)
    circumstances = forms.CharField(label=_("circonstances"), widget=forms.Textarea(attrs={"rows": 3}))

    field_map = {"decks": "serials"}

    class Meta(ActForm.Meta):
        model = Incident

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer_informed").queryset = users_with_role(*access.roles_for(Act.VISA))

    def act(self, actor: Any, data: dict[str, Any]) -> Incident | None:
        serials = data.pop("serials").split()
        maker = data.pop("manufacturer")
        decks = list(Deck.objects.filter(manufacturer=maker, serial__in=serials))
        unknown = sorted(set(serials) - {d.serial for d in decks})
        if unknown:
            self.add_error("serials", _("Jeux inconnus : %(s)s") % {"s": ", ".join(unknown)})
            return None
        return services.report_incident(actor=actor, decks=decks, **data)


class ProcedureIncidentForm(IncidentForm):
    """The incident form with every route of the procedure: decks by serial or sixain, a foreign
    card outside any deck, the police judiciaire's head when no officer is present (FR)."""

    serials = forms.CharField(
        label=_("jeux concernés (numéros de série)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    sixains = forms.CharField(label=_("sixains (numéros de série)"), required=False)
    manufacturer = forms.ModelChoiceField(
        label=_("fabricant des jeux"), queryset=Manufacturer.objects.all(), required=False
    )
    card = forms.CharField(label=_("carte en cause"), required=False, max_length=150)
    authority_informed = forms.CharField(
        label=_("autorité avisée (chef du service territorial de police judiciaire)"),
        required=False,
        max_length=150,
    )

    def act(self, actor: Any, data: dict[str, Any]) -> Incident:
        maker = data.pop("manufacturer", None)
        serials = (data.get("serials") or "").split()
        if maker is not None:
            data["serials"] = " ".join(s if ":" in s else f"{maker.code}:{s}" for s in serials)
        return services.report_incident(actor=actor, decks=named_decks(data), **data)


@admin.register(Incident)
class IncidentAdmin(ActAdmin):
    add_form = ProcedureIncidentForm
    list_display = ("number", "kind", "occurred_at", "table_number", "officer_informed", "closed")
    list_filter = ("kind", "day", "table_number")
    list_select_related = ("officer_informed", "closure")
    detail_fields = (
        "number",
        "kind",
        "occurred_at",
        "table_number",
        "day",
        "shoe_reference",
        "decks_display",
        "officer_informed",
        "officer_informed_at",
        "circumstances",
        "reported_by",
        "closure_display",
        "corrections_display",
        "route",
        "card",
        "authority_informed",
        "told_display",
    )
    corrections_display = _shared.corrections_display

    @admin.display(description=_("clos"), boolean=True)
    def closed(self, obj: Any) -> bool:
        return hasattr(obj, "closure")

    @admin.display(description=_("jeux concernés"))
    def decks_display(self, obj: Incident) -> str:
        return ", ".join(d.serial for d in obj.decks.all())

    @admin.display(description=_("clôture"))
    def closure_display(self, obj: Any) -> str:
        closure = getattr(obj, "closure", None)
        if closure is None:
            return gettext("ouvert : les jeux sont consignés jusqu'à la clôture par l'officier")
        return _("%(officer)s le %(at)s : %(finding)s") % {
            "officer": closure.officer,
            "at": dates.moment(closure.at),
            "finding": closure.finding,
        }

    @admin.display(description=_("avisé (qui, quand, délai)"))
    def told_display(self, obj: Incident) -> str:
        told_at = obj.told_at
        if told_at is None:
            return str(_("pas encore signalé"))
        allowed = selectors.depot_settings().incident_report_minutes
        minutes = max(0, int((told_at - obj.occurred_at).total_seconds() // 60))
        declared = obj.declared_told_at
        late = minutes > allowed or (
            declared is not None and told_at - declared > dt.timedelta(minutes=allowed)
        )
        shown = f"{obj.told_whom}, {dates.moment(told_at)} (+{minutes} min)"
        if declared is not None and declared != told_at:
            shown += " — " + _("déclaré avisé le %(at)s") % {"at": f"{dates.moment(declared)}"}
        return shown + (" — " + str(_("EN RETARD")) if late else "")


class IncidentToldForm(ActForm):
    declared = declaration(services.record_incident_report)
    incident = forms.ModelChoiceField(
        label=_("incident"),
        queryset=Incident.objects.filter(officer_informed_at__isnull=True, later_report__isnull=True),
    )
    officer = forms.ModelChoiceField(
        label=_("officier avisé"), required=False, queryset=get_user_model().objects.none()
    )
    authority = forms.CharField(
        label=_("autorité avisée (chef du service territorial de police judiciaire)"),
        required=False,
        max_length=150,
    )
    informed_at = forms.DateTimeField(label=_("avisé le"), initial=timezone.now)
    field_map = {
        "officer_informed": "officer",
        "officer_informed_at": "informed_at",
        "authority_informed": "authority",
    }

    class Meta(ActForm.Meta):
        model = IncidentReport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer").queryset = users_with_role(*access.roles_for(Act.VISA))
        model_choice_field(self, "incident").queryset = Incident.objects.filter(
            officer_informed_at__isnull=True, later_report__isnull=True
        )

    def act(self, actor: Any, data: dict[str, Any]) -> IncidentReport:
        return services.record_incident_report(
            actor=actor,
            incident=data["incident"],
            officer_informed=data.get("officer"),
            authority_informed=data.get("authority") or "",
            informed_at=data["informed_at"],
        )


@admin.register(IncidentReport)
class IncidentReportAdmin(ActAdmin):
    """When and to whom an incident found by a return, a destruction or a replay was reported."""

    add_form = IncidentToldForm
    list_display = ("incident", "officer", "authority", "informed_at", "recorded_by")
    list_select_related = ("incident", "officer", "recorded_by")
    detail_fields = book_fields(IncidentReport)
