"""The forms of the officers' acts on the depot (the portal shows them): a visa, an incident's closure."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from cards_registry.colours import colour
from casino_ops.forms import SafeForm

from .models import Deck, IncidentClosure, Visa


class VisaForm(SafeForm):
    model = Visa
    remark = forms.CharField(label=_("Observations"), required=False, max_length=300)


class IncidentClosureForm(SafeForm):
    model = IncidentClosure
    finding = forms.CharField(
        label=_("Constatations"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000
    )
    decks_fit: forms.ModelMultipleChoiceField[Deck] = forms.ModelMultipleChoiceField(
        label=_("Jeux rendus à l'usage (les autres sont mis hors d'usage)"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, incident: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        decks_fit = cast("forms.ModelMultipleChoiceField[Deck]", self.fields["decks_fit"])
        decks_fit.queryset = incident.decks.all()
        decks_fit.label_from_instance = lambda obj: f"{obj.serial} ({colour(obj.back_colour)})"  # type: ignore[method-assign]
        self.prefix = f"incident-{incident.pk}"
