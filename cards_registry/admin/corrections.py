"""Corrections of the depot's books (FR art. 68): a registered rubric is never edited; a
correction, approved in words by the director, records the new mention beside the old."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm, choice_field

from .. import services
from ..models import (
    Correction,
    Deck,
    DeckReturn,
    Destruction,
    Incident,
    Order,
    Reception,
    ReturnLine,
    Sixain,
    TableCheck,
    TableIssue,
)


def _entry_choices() -> list[tuple[str, str]]:
    choices: list[tuple[str, str]] = []
    for model, label in (
        (Order, _("Bon n° %(number)s")),
        (Reception, _("Prise en charge n° %(number)s")),
        (Incident, _("Incident n° %(number)s")),
        (Destruction, _("Destruction n° %(number)s")),
    ):
        for pk, number in model.objects.order_by("-id").values_list("pk", "number")[:200]:
            choices.append((f"{model.__name__.lower()}:{pk}", label % {"number": number}))
    return choices


class CorrectionForm(ActForm):
    declared = declaration(services.record_correction)
    entry = forms.ChoiceField(label=_("entrée corrigée"), choices=())
    field = forms.CharField(
        label=_("rubrique"),
        max_length=64,
        help_text=_(
            "bon : ordered_on, note ; prise en charge : received_on, delivery_note ; incident : occurred_at, "
            "table_number, shoe_reference, circumstances ; destruction : method"
        ),
    )
    new_value = forms.CharField(label=_("nouvelle mention"), max_length=300)
    reason = forms.CharField(label=_("motif"), max_length=300)

    class Meta(ActForm.Meta):
        model = Correction

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "entry").choices = _entry_choices()

    def act(self, actor: Any, data: dict[str, Any]) -> Correction:
        kind, pk = data["entry"].split(":")
        model = {"order": Order, "reception": Reception, "incident": Incident, "destruction": Destruction}[
            kind
        ]
        return services.record_correction(
            actor=actor,
            entry=model._default_manager.get(pk=pk),
            field=data["field"],
            new_value=data["new_value"],
            reason=data["reason"],
        )


def _correction_entry_choices() -> list[tuple[str, str]]:
    """The entries a director may correct, named as in the books (numbers, serials, tables and days)."""
    choices = _entry_choices()
    for deck in Deck.objects.select_related("manufacturer").order_by("-id")[:300]:
        choices.append(
            (
                f"deck:{deck.pk}",
                _("Jeu %(maker)s:%(serial)s") % {"maker": deck.manufacturer.code, "serial": deck.serial},
            )
        )
    for sixain in Sixain.objects.select_related("manufacturer").order_by("-id")[:100]:
        choices.append((f"sixain:{sixain.pk}", f"Sixain {sixain.manufacturer.code}:{sixain.serial}"))
    for issue in TableIssue.objects.order_by("-id")[:100]:
        choices.append(
            (
                f"tableissue:{issue.pk}",
                _("Remise à la table %(table)s du %(day)s")
                % {"table": issue.table_number, "day": dates.day(issue.day)},
            )
        )
    for check in TableCheck.objects.select_related("issue_line__deck", "issue_line__issue").order_by("-id")[
        :100
    ]:
        choices.append(
            (
                f"tablecheck:{check.pk}",
                _("Contrôle du jeu %(serial)s à la table %(table)s")
                % {"serial": check.issue_line.deck.serial, "table": check.issue_line.issue.table_number},
            )
        )
    for back in DeckReturn.objects.order_by("-id")[:100]:
        choices.append(
            (
                f"deckreturn:{back.pk}",
                _("Retour de la table %(table)s du %(day)s")
                % {"table": back.table_number, "day": dates.day(back.day)},
            )
        )
    for line in ReturnLine.objects.select_related("issue_line__deck", "deck_return").order_by("-id")[:200]:
        choices.append(
            (
                f"returnline:{line.pk}",
                _("Jeu %(serial)s rendu par la table %(table)s")
                % {"serial": line.issue_line.deck.serial, "table": line.deck_return.table_number},
            )
        )
    return choices


_CORRECTED_MODELS: dict[str, type[models.Model]] = {
    "order": Order,
    "reception": Reception,
    "incident": Incident,
    "destruction": Destruction,
    "deck": Deck,
    "sixain": Sixain,
    "tableissue": TableIssue,
    "tablecheck": TableCheck,
    "deckreturn": DeckReturn,
    "returnline": ReturnLine,
}


class ApprovedCorrectionForm(CorrectionForm):
    """A correction of any registered rubric of the depot, approved in words by the director (FR art. 68)."""

    approval = forms.CharField(
        label=_("approbation en toutes lettres"),
        max_length=300,
        help_text=_("Par exemple : « Approuvé, le directeur responsable »."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "entry").choices = _correction_entry_choices()
        # the rubric chosen by its label under its book's name (the code is what is recorded)
        choices: list[tuple[str, Any]] = [("", "---------")]
        for model, fields in services.CORRECTABLE.items():
            labels = [(f, str(getattr(model._meta.get_field(f), "verbose_name", f))) for f in fields]
            choices.append((str(model._meta.verbose_name), labels))
        self.fields["field"] = forms.ChoiceField(label=self.fields["field"].label, choices=choices)

    def act(self, actor: Any, data: dict[str, Any]) -> Correction:
        kind, pk = data["entry"].split(":")
        return services.record_correction(
            actor=actor,
            entry=_CORRECTED_MODELS[kind]._default_manager.get(pk=pk),
            field=data["field"],
            new_value=data["new_value"],
            reason=data["reason"],
            approval=data["approval"],
        )


@admin.register(Correction)
class CorrectionAdmin(ActAdmin):
    add_form = ApprovedCorrectionForm
    list_display = ("at", "entry_display", "field", "old_value", "new_value", "reason", "approved_by")
    list_select_related = ("order", "reception", "incident", "destruction", "approved_by")
    detail_fields = ("at", "entry_display", "field", "old_value", "new_value", "reason", "approved_by")

    @admin.display(description=_("entrée"))
    def entry_display(self, obj: Correction) -> str:
        return str(obj.order or obj.reception or obj.incident or obj.destruction)
