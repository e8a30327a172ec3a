"""The decks: the list with its filters and the acts on the selected decks (issue to a
table, return from it, destruction before the officer, out of use), the sixains, the
declarations out of use and the returns counted deck by deck."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from casino_ops import access
from casino_ops.access import Act
from casino_ops.admin_acts import ActAdmin, ActForm, model_choice_field, users_with_role
from casino_ops.admin_utils import ReadOnlyAdmin
from casino_ops.forms import SafeFormMixin
from casino_ops.services import get_casino

from .. import selectors, services
from ..models import Deck, DeckReturn, OutOfUseDeclaration, ReturnResult, Sixain
from ._shared import DecksBySerial, named_decks, run_act


class DeckActionForm(SafeFormMixin, ActionForm):
    table_number = forms.IntegerField(label=_("table"), required=False, min_value=1)
    day = forms.DateField(label=_("journée"), required=False, initial=timezone.localdate)
    officer = forms.ModelChoiceField(
        label=_("officier"), required=False, queryset=get_user_model().objects.none()
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer").queryset = users_with_role(*access.roles_for(Act.VISA))


def _action_data(modeladmin: admin.ModelAdmin[Any], request: HttpRequest) -> dict[str, Any] | None:
    """The table, day and officer chosen above the list, or None (and a message) when refused."""
    form = DeckActionForm(request.POST)
    form.is_valid()
    # "action" is checked by the admin itself (the form here has no choices for it).
    refused = {
        name: errors for name, errors in form.errors.items() if name not in ("action", "select_across")
    }
    if refused:
        for name, errors in refused.items():
            label = form.fields[name].label if name in form.fields else ""
            modeladmin.message_user(
                request, f"{label} : {' '.join(str(e) for e in errors)}", level=messages.ERROR
            )
        return None
    data = form.cleaned_data
    return {
        "table_number": data.get("table_number"),
        "day": data.get("day") or timezone.localdate(),
        "officer": data.get("officer"),
    }


def _return_action(result: str, label: Any) -> Any:
    @admin.action(description=label)
    def action(modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(modeladmin, request)
        if data is None:
            return
        if not data["table_number"]:
            modeladmin.message_user(request, _("Indiquez la table."), level=messages.ERROR)
            return
        run_act(
            modeladmin,
            request,
            _("Jeux rendus et examinés."),
            services.return_decks,
            table_number=data["table_number"],
            day=data["day"],
            results=[(deck, result) for deck in queryset],
        )

    action.__name__ = f"return_{result}"
    return action


@admin.action(description=_("Déclarer hors d'usage au dépôt"))
def declare_out_of_use(
    modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Deck]
) -> None:
    run_act(
        modeladmin,
        request,
        _("Jeux déclarés hors d'usage."),
        services.declare_out_of_use,
        decks=list(queryset),
        reason=str(_("Déclarés hors d'usage par la direction")),
    )


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = ("serial", "manufacturer", "back_colour", "sixain", "status", "received_on")
    list_filter = (
        "status",
        "manufacturer",
        "back_colour",
        ("reception__received_on", admin.DateFieldListFilter),
    )
    list_select_related = ("manufacturer", "sixain", "reception")
    search_fields = ("serial", "sixain__serial")
    list_per_page = 60
    action_form = DeckActionForm
    actions = (
        "issue",
        _return_action(ReturnResult.FIT, _("Retour de table : apte, au dépôt")),
        _return_action(ReturnResult.WORN, _("Retour de table : hors d'usage (usé)")),
        _return_action(ReturnResult.MARKED, _("Retour de table : hors d'usage (marqué)")),
        _return_action(ReturnResult.DAMAGED, _("Retour de table : hors d'usage (abîmé)")),
        "destroy",
        declare_out_of_use,
    )
    fields = readonly_fields = (
        "serial",
        "manufacturer",
        "back_colour",
        "sixain",
        "status",
        "reception",
        "unsealed_at",
        "history_display",
    )

    @admin.display(description=_("reçu le"), ordering="reception__received_on")
    def received_on(self, obj: Deck) -> dt.date:
        return obj.reception.received_on

    @admin.display(description=_("vie du jeu"))
    def history_display(self, obj: Deck) -> str:
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li>{} — {} <small>(audit n° {})</small></li>",
                (
                    (timezone.localtime(line.at).strftime("%d/%m/%Y %H:%M"), line.what, line.audit_seq or "—")
                    for line in selectors.deck_history(obj)
                ),
            ),
        )

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if not access.may(request.user, Act.DEPOT):
            return {}
        return actions

    @admin.action(description=_("Remettre à la table (table et journée ci-dessus)"))
    def issue(self, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(self, request)
        if data is None:
            return
        if not data["table_number"]:
            self.message_user(request, _("Indiquez la table."), level=messages.ERROR)
            return
        decks = list(queryset)
        run_act(
            self,
            request,
            ngettext("%(n)s jeu remis à la table %(t)s.", "%(n)s jeux remis à la table %(t)s.", len(decks))
            % {"n": len(decks), "t": data["table_number"]},
            services.issue_decks,
            table_number=data["table_number"],
            day=data["day"],
            decks=decks,
        )

    @admin.action(
        description=_("Détruire devant l'officier ci-dessus (jeux vérifiés complets et non marqués)")
    )
    def destroy(self, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(self, request)
        if data is None:
            return
        run_act(
            self,
            request,
            _("Destruction enregistrée ; l'officier doit la viser."),
            services.destroy_decks,
            officer=data["officer"],
            checks=[{"deck": deck, "complete": True, "unmarked": True} for deck in queryset],
        )


@admin.register(Sixain)
class SixainAdmin(ReadOnlyAdmin):
    list_display = ("serial", "manufacturer", "reception")
    list_filter = ("manufacturer",)
    list_select_related = ("manufacturer", "reception")
    search_fields = ("serial",)


class OutOfUseForm(ActForm):
    serials = DecksBySerial.base_fields["serials"]
    sixains = DecksBySerial.base_fields["sixains"]
    reason = forms.CharField(label=_("motif"), max_length=300)
    field_map = {"decks": "serials"}

    class Meta(ActForm.Meta):
        model = OutOfUseDeclaration

    def act(self, data: dict[str, Any]) -> OutOfUseDeclaration:
        return services.declare_out_of_use(actor=self.user, decks=named_decks(data), reason=data["reason"])


@admin.register(OutOfUseDeclaration)
class OutOfUseDeclarationAdmin(ActAdmin):
    """Decks in the cabinet declared out of use (FR art. 39 §3, LU art. 6)."""

    add_form = OutOfUseForm
    list_display = ("at", "declared_by", "reason", "decks_display")
    list_select_related = ("declared_by",)
    detail_fields = ("at", "declared_by", "reason", "decks_display")

    @admin.display(description=_("jeux"))
    def decks_display(self, obj: OutOfUseDeclaration) -> str:
        return ", ".join(d.serial for d in obj.decks.all())


class CountedReturnForm(ActForm):
    """Decks back from a table, each examined and counted: one line per deck,
    ``serial result [cards] [remark]`` (result: fit, worn, marked, damaged)."""

    table_number = forms.IntegerField(label=_("table"), min_value=1)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    lines = forms.CharField(
        label=_("jeux rendus"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Une ligne par jeu : numéro, examen (fit, worn, marked, damaged), cartes comptées, observations."
        ),
    )
    officer_informed = forms.ModelChoiceField(
        label=_("officier avisé"), required=False, queryset=get_user_model().objects.none()
    )
    officer_informed_at = forms.DateTimeField(label=_("avisé le"), required=False)
    field_map = {"results": "lines", "decks": "lines"}

    class Meta(ActForm.Meta):
        model = DeckReturn

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer_informed").queryset = users_with_role(*access.roles_for(Act.VISA))

    def act(self, data: dict[str, Any]) -> DeckReturn:
        results = []
        for raw in data["lines"].splitlines():
            parts = raw.split(maxsplit=3)
            if not parts:
                continue
            [deck] = selectors.resolve_decks([parts[0]], profile=get_casino().profile)
            result = parts[1] if len(parts) > 1 else "fit"
            count = parts[2] if len(parts) > 2 else 52
            results.append((deck, result, parts[3] if len(parts) > 3 else "", count))
        return services.return_decks(
            actor=self.user,
            table_number=data["table_number"],
            day=data["day"],
            results=results,
            officer_informed=data.get("officer_informed"),
            officer_informed_at=data.get("officer_informed_at"),
        )


@admin.register(DeckReturn)
class DeckReturnAdmin(ActAdmin):
    """Returns from the tables, each deck counted (FR art. 40 §5, LU art. 7 §5)."""

    add_form = CountedReturnForm
    list_display = ("at", "table_number", "day", "returned_by")
    list_select_related = ("returned_by",)
    detail_fields = ("at", "table_number", "day", "returned_by", "lines_display")

    @admin.display(description=_("jeux rendus"))
    def lines_display(self, obj: DeckReturn) -> str:
        return ", ".join(
            f"{line.issue_line.deck.serial} : {line.get_result_display()}, {line.cards_counted} cartes"
            for line in obj.lines.select_related("issue_line__deck")
        )
