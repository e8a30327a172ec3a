"""The receptions of decks from a maker (the "prise en charge"): "Ajouter" reads the decks
received, one a line, against a sent order."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from cards_registry.colours import colour
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm

from .. import services
from ..books import book_fields
from ..models import Deck, Order, Reception, Sixain
from . import _shared


def _check_lengths(number: int, values: tuple[tuple[str, int | None, Any], ...]) -> None:
    for value, limit, what in values:
        if limit and len(value) > limit:
            raise forms.ValidationError(
                _("Ligne %(n)s : %(what)s de %(limit)s caractères au plus.")
                % {"n": number, "what": what, "limit": limit}
            )


def _parse_received(text: str) -> tuple[list[services.SixainData], list[services.DeckData]]:
    """One deck a line: ``serial colour [sixain]``; serial ``-`` when only the sixain is numbered (LU)."""
    sixains: dict[str, services.SixainData] = {}
    loose: list[services.DeckData] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        parts = raw.split()
        if len(parts) not in (2, 3):
            raise forms.ValidationError(
                _("Ligne %(n)s : écrivez « numéro couleur [sixain] », par ex. « A1-1 bleu SX1 ».")
                % {"n": number}
            )
        _check_lengths(
            number,
            (
                (parts[0], Deck._meta.get_field("serial").max_length, _("numéro du jeu")),
                (parts[1], Deck._meta.get_field("back_colour").max_length, _("couleur")),
                (
                    parts[2] if len(parts) == 3 else "",
                    Sixain._meta.get_field("serial").max_length,
                    _("sixain"),
                ),
            ),
        )
        serial = "" if parts[0] == "-" else parts[0]
        deck: services.DeckData = {"serial": serial, "back_colour": parts[1]}
        if len(parts) == 3:
            sixains.setdefault(parts[2], {"serial": parts[2], "decks": []})["decks"].append(deck)
        else:
            loose.append(deck)
    if not sixains and not loose:
        raise forms.ValidationError(_("Aucun jeu."))
    return list(sixains.values()), loose


class ReceptionForm(ActForm):
    declared = declaration(services.receive)
    order = forms.ModelChoiceField(
        label=_("bon de commande"),
        queryset=Order.objects.filter(sent_at__isnull=False).select_related("book", "manufacturer"),
    )
    received_on = forms.DateField(label=_("date de réception"), initial=timezone.localdate)
    delivery_note = forms.CharField(label=_("bordereau de livraison"), required=False, max_length=100)
    decks = forms.CharField(
        label=_("jeux reçus"),
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=_(
            "Un jeu par ligne : « numéro couleur [sixain] ». LU : « - couleur sixain » si seul le sixain est numéroté."
        ),
    )

    field_map = {"sixains": "decks"}

    class Meta(ActForm.Meta):
        model = Reception

    def clean_decks(self) -> tuple[list[services.SixainData], list[services.DeckData]]:
        return _parse_received(self.cleaned_data["decks"])

    def act(self, actor: Any, data: dict[str, Any]) -> Reception:
        sixains, decks = data["decks"]
        return services.receive(
            actor=actor,
            order=data["order"],
            received_on=data["received_on"],
            delivery_note=data["delivery_note"],
            sixains=sixains,
            decks=decks,
        )


@admin.register(Reception)
class ReceptionAdmin(ActAdmin):
    add_form = ReceptionForm
    list_display = (
        "number",
        "received_on",
        "manufacturer",
        "deck_count",
        "over_delivery",
        "visa_display",
    )
    list_filter = ("manufacturer", "received_on", "over_delivery")
    list_select_related = ("book", "manufacturer", "order__book", "order__manufacturer", "visa__officer")
    search_fields = ("number", "delivery_note", "decks__serial")
    detail_fields = (*book_fields(Reception), "visa_display", "decks_display", "corrections_display")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Reception]:
        receptions: QuerySet[Reception] = super().get_queryset(request)
        return receptions.annotate(deck_count=Count("decks"))

    @admin.display(description=_("jeux"), ordering="deck_count")
    def deck_count(self, obj: Any) -> int:
        return int(obj.deck_count)

    visa_display = _shared.visa_display
    corrections_display = _shared.corrections_display

    @admin.display(description=_("jeux reçus"))
    def decks_display(self, obj: Reception) -> str:
        return format_html_join(
            ", ",
            "{} ({}{})",
            (
                (
                    d.serial,
                    colour(d.back_colour),
                    _(", sixain %(serial)s") % {"serial": d.sixain.serial} if d.sixain else "",
                )
                for d in obj.decks.select_related("sixain").order_by("serial")
            ),
        )
