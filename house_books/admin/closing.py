"""Closing down (LU art. 52): the director's act; the officer's visa is shown."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration

from ..books import book_fields
from ..models import ClosingDown, Disposal, DocumentsLeftAt
from ..services.closing import record_closing
from . import ActAdmin, ActForm

DOCUMENTS = "\n".join(
    [
        "Documents relatifs à la comptabilité spéciale des jeux",
        "Répertoire et fichier des joueurs admis",
        "Carnet de prise en charge et d'inventaire des jeux de cartes, des dés et des sabots",
        "Carnet de bons de commande de dés",
        "Registre d'observations",
    ]
)


class ClosingForm(ActForm):
    declared = declaration(record_closing)
    closed_at = forms.DateTimeField(label=_("cessation le"), initial=timezone.now)
    documents_left_at = forms.ChoiceField(label=_("documents laissés"), choices=DocumentsLeftAt.choices)
    documents = forms.CharField(
        label=_("documents remis (un par ligne)"),
        widget=forms.Textarea(attrs={"rows": 6}),
        initial=DOCUMENTS,
        max_length=4000,
    )
    disposal = forms.ChoiceField(label=_("cartes, sabots et fichier des exclus"), choices=Disposal.choices)
    successor = forms.CharField(label=_("successeur"), required=False, max_length=200)
    officer_name = forms.CharField(label=_("fonctionnaire présent (Gendarmerie)"), max_length=200)

    class Meta(ActForm.Meta):
        model = ClosingDown

    def act(self, actor: Any, data: dict[str, Any]) -> ClosingDown:
        return record_closing(actor=actor, **data)


@admin.register(ClosingDown)
class ClosingDownAdmin(ActAdmin):
    add_form = ClosingForm
    list_display = ("closed_at", "disposal", "officer_name", "recorded_by", "visa_by", "visa_at")
    detail_fields = book_fields(ClosingDown)
