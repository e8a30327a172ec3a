"""The table notice (LU art. 74): posted by the direction from the limits in force."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops.acts import declaration
from tables import selectors as tables

from ..books import book_fields
from ..models import TableNotice
from ..services.notices import post_table_notice
from . import ActAdmin, ActForm


def _tables() -> list[tuple[int, str]]:
    return [
        (row["number"], f"{row['code']} — n° {row['number']}")
        for row in tables.limits_in_force()
        if row["minimum"] is not None
    ]


class TableNoticeForm(ActForm):
    declared = declaration(post_table_notice)
    table = forms.TypedChoiceField(label=_("table"), coerce=int, choices=_tables)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)

    class Meta(ActForm.Meta):
        model = TableNotice

    def act(self, actor: Any, data: dict[str, Any]) -> TableNotice:
        return post_table_notice(actor=actor, **data)


@admin.register(TableNotice)
class TableNoticeAdmin(ActAdmin):
    add_form = TableNoticeForm
    list_display = ("table_number", "table_code", "day", "advance", "minimum", "maximum", "posted_by")
    detail_fields = book_fields(TableNotice)
