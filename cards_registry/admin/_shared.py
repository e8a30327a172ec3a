"""What several of the depot's admin pages share: the visa and corrections columns, decks
named by serial or sixain."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.forms import SafeForm
from casino_ops.services import get_casino

from .. import selectors
from ..models import Deck


@admin.display(description=_("visa"))
def visa_display(modeladmin: admin.ModelAdmin[Any], obj: Any) -> str:
    visa = getattr(obj, "visa", None)
    return f"{visa.officer} — {dates.moment(visa.at)}" if visa else str(_("non visé"))


@admin.display(description=_("corrections"))
def corrections_display(modeladmin: admin.ModelAdmin[Any], obj: Any) -> str:
    return _corrections(obj)


def _corrections(obj: Any) -> str:
    return (
        format_html_join(
            "",
            "<p>{} : « {} » → « {} » ({}, approuvée par {} le {})</p>",
            (
                (
                    c.field,
                    c.old_value,
                    c.new_value,
                    c.reason,
                    c.approved_by,
                    dates.day(c.at),
                )
                for c in obj.corrections.all()
            ),
        )
        or "—"
    )


class DecksBySerial(SafeForm):
    """Decks named by serial (``A1-1`` or ``MAKER:A1-1``) and by sixain, never by database id."""

    describe_errors = False  # its fields join the admin's forms, whose errors have no id

    serials = forms.CharField(
        label=_("jeux (numéros de série)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    sixains = forms.CharField(label=_("sixains (numéros de série)"), required=False)


def named_decks(data: dict[str, Any]) -> list[Deck]:
    return selectors.resolve_decks(
        (data.pop("serials", "") or "").split(),
        (data.pop("sixains", "") or "").split(),
        profile=get_casino().profile,
    )
