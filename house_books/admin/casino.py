"""The casino's settings and house rules (règlement intérieur): the director's act."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from casino_ops import access, dates
from casino_ops.access import Act
from casino_ops.admin_utils import ModelAdmin, ModelForm, regulation_error_to_form
from casino_ops.forms import SafeFormMixin
from casino_ops.models import HOUSE_RULE_KEYS, CalendarRule, CasinoSettings
from casino_ops.regulations import RegulationError
from casino_ops.rules import check_casino_settings
from casino_ops.services import CALENDAR_FIELDS, CASINO_FIELDS, EDITABLE_FIELDS

from ..services.casino import update_casino_settings


class CasinoSettingsForm(SafeFormMixin, ModelForm):
    class Meta:
        model = CasinoSettings
        fields = EDITABLE_FIELDS

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                check_casino_settings(data)
            except RegulationError as error:
                regulation_error_to_form(self, error)
        return data


@admin.register(CasinoSettings)
class CasinoSettingsAdmin(ModelAdmin):
    form = CasinoSettingsForm
    list_display = ("name", "profile", "authorised_min_stake", "updated_at")
    fieldsets = (
        (None, {"fields": CASINO_FIELDS}),
        ("Règlement intérieur", {"fields": tuple(HOUSE_RULE_KEYS)}),
        (
            "Journée de jeu et exercice",
            {"fields": CALENDAR_FIELDS},
        ),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return access.may(request.user, Act.CASINO_SETTINGS) and not CasinoSettings.objects.exists()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.may(request.user, Act.CASINO_SETTINGS) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: CasinoSettings, form: Any, change: bool) -> None:
        if not access.may(request.user, Act.CASINO_SETTINGS):
            raise PermissionDenied
        changes = {key: form.cleaned_data[key] for key in EDITABLE_FIELDS if key in form.cleaned_data}
        rules_before = CalendarRule.objects.count()
        saved = update_casino_settings(actor=access.acting_user(request), **changes)
        obj.pk = saved.pk
        rule = CalendarRule.objects.order_by("-pk").first()
        if rule is not None and CalendarRule.objects.count() > rules_before:
            # FR art. 42, 49; LU art. 9, 26: the days and the exercise already opened keep their rule
            self.message_user(
                request,
                _(
                    "La journée de jeu et l'exercice déjà ouverts gardent leurs dates : la nouvelle heure "
                    "de changement de journée s'applique à partir de la journée du %(day)s, le nouveau "
                    "début d'exercice à partir du %(exercise)s."
                )
                % {"day": dates.day(rule.effective_from), "exercise": dates.day(rule.exercise_from)},
                messages.WARNING,
            )
