"""The casino's settings and house rules (règlement intérieur): the director's act."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino_ops import access, dates
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActForm, may_perform
from casino_ops.admin_utils import ModelAdmin
from casino_ops.models import HOUSE_RULE_KEYS, CalendarRule, CasinoSettings
from casino_ops.services import CALENDAR_FIELDS, CASINO_FIELDS, EDITABLE_FIELDS

from ..services.casino import update_casino_settings


class CasinoSettingsForm(ActForm):
    """The director's act on the casino's settings: the service checks and records them."""

    declared = declaration(update_casino_settings)
    calendar_rule: CalendarRule | None = None  # the new rule of the gaming day, when one was made

    class Meta:
        model = CasinoSettings
        fields = EDITABLE_FIELDS

    def act(self, actor: Any, data: dict[str, Any]) -> CasinoSettings:
        changes = {key: data[key] for key in EDITABLE_FIELDS if key in data}
        rules_before = CalendarRule.objects.count()
        saved = update_casino_settings(actor=actor, **changes)
        if CalendarRule.objects.count() > rules_before:
            self.calendar_rule = CalendarRule.objects.order_by("-pk").first()
        return saved


@admin.register(CasinoSettings)
class CasinoSettingsAdmin(ModelAdmin):
    form = CasinoSettingsForm
    list_display = ("name", "profile", "authorised_min_stake", "updated_at")
    fieldsets = (
        (None, {"fields": CASINO_FIELDS}),
        (gettext_lazy("Règlement intérieur"), {"fields": tuple(HOUSE_RULE_KEYS)}),
        (
            gettext_lazy("Journée de jeu et exercice"),
            {"fields": CALENDAR_FIELDS},
        ),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may_perform(request.user, self.form) and not CasinoSettings.objects.exists()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_perform(request.user, self.form)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"actor": access.acting_user(request)})

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.result  # saved by the service, in the form's act

    def save_model(self, request: HttpRequest, obj: CasinoSettings, form: Any, change: bool) -> None:
        rule = form.calendar_rule
        if rule is not None:
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

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass
