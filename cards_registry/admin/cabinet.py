"""The key and the cabinet: the key handed over, the cabinet opened for an inspection, the
inventory at an opening an officer demanded, and the officers' demands."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from casino_ops import access
from casino_ops.access import Act
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm, model_choice_field, users_with_role
from casino_ops.admin_utils import ReadOnlyAdmin

from .. import selectors, services
from ..models import CabinetDemand, CabinetInventory, CabinetOpening, KeyHandover


class KeyHandoverForm(ActForm):
    declared = declaration(services.hand_over_key)
    receiver = forms.ModelChoiceField(label=_("remise à"), queryset=get_user_model().objects.none())
    reason = forms.CharField(label=_("motif"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = KeyHandover

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "receiver").queryset = users_with_role(*access.roles_for(Act.HOLD_KEY))

    def act(self, actor: Any, data: dict[str, Any]) -> KeyHandover:
        return services.hand_over_key(actor=actor, **data)


@admin.register(KeyHandover)
class KeyHandoverAdmin(ActAdmin):
    add_form = KeyHandoverForm
    list_display = ("at", "giver", "receiver", "reason")
    list_select_related = ("giver", "receiver")
    detail_fields = ("at", "giver", "receiver", "reason")


class InspectionForm(ActForm):
    declared = declaration(services.open_for_inspection)
    demanded_by = forms.ModelChoiceField(
        label=_("demandée par (officier)"), queryset=get_user_model().objects.none()
    )
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = CabinetOpening

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "demanded_by").queryset = users_with_role(
            *access.roles_for(Act.DEMAND_OPENING)
        )

    def act(self, actor: Any, data: dict[str, Any]) -> CabinetOpening:
        return services.open_for_inspection(actor=actor, **data)


@admin.register(CabinetOpening)
class CabinetOpeningAdmin(ActAdmin):
    add_form = InspectionForm
    list_display = ("at", "purpose", "opened_by", "table_number", "day", "demanded_by", "note")
    list_filter = ("purpose", ("at", admin.DateFieldListFilter))
    list_select_related = ("opened_by", "demanded_by")
    detail_fields = ("at", "purpose", "opened_by", "table_number", "day", "demanded_by", "note")


class InventoryForm(ActForm):
    declared = declaration(services.record_inventory)
    opening = forms.ModelChoiceField(
        label=_("ouverture demandée par un officier"), queryset=CabinetOpening.objects.none()
    )
    found = forms.CharField(
        label=_("jeux trouvés (numéros de série)"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Un numéro par ligne ou séparés par des espaces ; FABRICANT:numéro si deux fabricants l'ont."
        ),
    )

    class Meta(ActForm.Meta):
        model = CabinetInventory

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "opening").queryset = CabinetOpening.objects.filter(
            purpose="inspection", inventory__isnull=True
        ).order_by("-at")

    def act(self, actor: Any, data: dict[str, Any]) -> CabinetInventory:
        return services.record_inventory(actor=actor, opening=data["opening"], found=data["found"].split())

    def done(self, result: CabinetInventory) -> tuple[int, str] | None:
        """A deck missing opened an incident, its decks quarantined: said, never silent."""
        if result.incident is None:
            return None
        return messages.WARNING, selectors.incident_notice([result.incident])


@admin.register(CabinetInventory)
class CabinetInventoryAdmin(ActAdmin):
    """The inventory at an opening demanded by an officer: decks found against the books."""

    add_form = InventoryForm
    list_display = ("at", "opening", "expected", "found", "missing", "unexpected", "incident")
    list_select_related = ("opening", "incident")
    detail_fields = ("at", "opening", "recorded_by", "expected", "found", "missing", "unexpected", "incident")


@admin.register(CabinetDemand)
class CabinetDemandAdmin(ReadOnlyAdmin):
    """The officers' demands to open the cabinet, recorded by them from the portal."""

    list_display = ("at", "officer", "reason", "answered")
    list_select_related = ("officer",)

    @admin.display(description=_("ouverture faite"), boolean=True)
    def answered(self, obj: CabinetDemand) -> bool:
        return obj.openings.exists()
