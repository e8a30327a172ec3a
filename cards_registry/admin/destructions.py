"""The destructions of decks before an officer (recorded by the action on the decks' list):
read here, with the officer's visa."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from casino_ops.admin_acts import ActAdmin

from ..models import Destruction
from . import _shared


@admin.register(Destruction)
class DestructionAdmin(ActAdmin):
    list_display = ("number", "at", "officer", "recorded_by", "deck_count", "visa_display")
    list_select_related = ("officer", "recorded_by", "visa__officer")
    list_filter = (("at", admin.DateFieldListFilter),)
    detail_fields = ("number", "at", "officer", "recorded_by", "method", "lines_display", "visa_display")
    visa_display = _shared.visa_display

    def get_queryset(self, request: HttpRequest) -> QuerySet[Destruction]:
        destructions: QuerySet[Destruction] = super().get_queryset(request)
        return destructions.annotate(deck_count=Count("lines"))

    @admin.display(description=_("jeux"))
    def deck_count(self, obj: Any) -> int:
        return int(obj.deck_count)

    @admin.display(description=_("jeux détruits"))
    def lines_display(self, obj: Destruction) -> str:
        return ", ".join(
            f"{line.deck.serial} (complet{'' if line.unmarked else ', marqué'})"
            for line in obj.lines.select_related("deck")
        )
