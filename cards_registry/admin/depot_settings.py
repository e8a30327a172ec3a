"""The depot's settings the ministry fixes (the most sixains held, LU art. 6)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm

from .. import services
from ..models import DepotSettings


class DepotSettingsForm(ActForm):
    declared = declaration(services.set_max_sixains)
    max_sixains = forms.IntegerField(
        label=_("nombre maximal de sixains (LU)"),
        required=False,
        min_value=1,
        help_text=_("Fixé par le ministère (LU art. 6). Vide : sans limite (FR seulement)."),
    )
    reference = forms.CharField(
        label=_("référence de la décision du ministère"),
        required=False,
        max_length=200,
        help_text=_("LU art. 6 : la lettre ou l'arrêté qui fixe ce nombre."),
    )

    class Meta(ActForm.Meta):
        model = DepotSettings

    def act(self, actor: Any, data: dict[str, Any]) -> DepotSettings:
        return services.set_max_sixains(
            actor=actor, max_sixains=data["max_sixains"], reference=data.get("reference") or ""
        )


@admin.register(DepotSettings)
class DepotSettingsAdmin(ActAdmin):
    """The limit the ministry sets; "Ajouter" records a new value (the director only, audited)."""

    add_form = DepotSettingsForm
    list_display = ("__str__", "max_sixains")
    detail_fields = ("max_sixains",)
