"""The tips (pourboires) counted into their account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration

from .. import services
from ..books import book_fields
from ..models import TipsCount
from . import ActAdmin, ActForm
from .people import PersonChoice, people


class TipsCountForm(ActForm):
    declared = declaration(services.count_tips)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    box = forms.CharField(label=_("tirelire"), max_length=60, initial="Tirelire n° 1")
    amount = forms.DecimalField(label=_("montant compté"), max_digits=12, decimal_places=2, min_value=0)
    witness = PersonChoice(label=_("témoin"), queryset=people())
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = TipsCount

    def act(self, actor: Any, data: dict[str, Any]) -> TipsCount:
        return services.count_tips(actor=actor, **data)


@admin.register(TipsCount)
class TipsCountAdmin(ActAdmin):
    add_form = TipsCountForm
    list_display = ("day", "box", "amount", "counted_by", "witness", "counted_at")
    date_hierarchy = "day"
    detail_fields = book_fields(TipsCount)
