"""The unsealing (new deck) or check (used deck) at the table (FR art. 40, LU art. 7): the
deck named by its serial, the table by its number, never a database id."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm
from casino_ops.services import get_casino

from .. import selectors, services
from ..models import TableCheck


class TableCheckForm(ActForm):
    declared = declaration(services.check_at_table)
    serial = forms.CharField(
        label=_("jeu (numéro de série)"),
        max_length=80,
        help_text=_("FABRICANT:numéro si deux fabricants l'ont."),
    )
    table_number = forms.IntegerField(label=_("table"), min_value=1, max_value=32767)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    witness = forms.CharField(label=_("témoin"), max_length=150)
    band_intact = forms.BooleanField(label=_("bande de contrôle intacte (jeu neuf)"), required=False)
    order_checked = forms.BooleanField(label=_("ordre du fabricant vérifié"), required=False)
    cards_counted = forms.IntegerField(label=_("cartes comptées"), min_value=0, max_value=32767)
    video_reference = forms.CharField(
        label=_("référence vidéo"),
        required=False,
        max_length=150,
        help_text=_("FR : jeu neuf descellé sous vidéo."),
    )
    field_map = {"deck": "serial", "decks": "serial"}

    class Meta(ActForm.Meta):
        model = TableCheck

    def act(self, actor: Any, data: dict[str, Any]) -> TableCheck:
        [deck] = selectors.resolve_decks([data["serial"]], profile=get_casino().profile)
        return services.check_at_table(
            actor=actor,
            deck=deck,
            table_number=data["table_number"],
            day=data["day"],
            witness=data["witness"],
            order_checked=data["order_checked"],
            cards_counted=data["cards_counted"],
            band_intact=data["band_intact"],
            video_reference=data["video_reference"],
        )


@admin.register(TableCheck)
class TableCheckAdmin(ActAdmin):
    """Decks unsealed or checked at the table before play (FR art. 40 §1, LU art. 7)."""

    add_form = TableCheckForm
    list_display = ("at", "deck", "table_number", "day", "new_deck", "cards_counted", "witness", "checked_by")
    list_select_related = ("issue_line__deck", "issue_line__issue", "checked_by")
    search_fields = ("issue_line__deck__serial",)
    detail_fields = (
        "at",
        "deck",
        "table_number",
        "day",
        "checked_by",
        "witness",
        "new_deck",
        "band_intact",
        "order_checked",
        "cards_counted",
        "video_reference",
    )

    @admin.display(description=_("jeu"), ordering="issue_line__deck__serial")
    def deck(self, obj: TableCheck) -> str:
        return obj.issue_line.deck.serial

    @admin.display(description=_("table"))
    def table_number(self, obj: TableCheck) -> int:
        return obj.issue_line.issue.table_number

    @admin.display(description=_("journée"))
    def day(self, obj: TableCheck) -> Any:
        return obj.issue_line.issue.day
