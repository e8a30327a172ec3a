"""What several of the depot's admin pages share: the visa and corrections columns, an
action's run (a refusal as a message), decks named by serial or sixain."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from casino_ops.admin_utils import report_regulation_error
from casino_ops.forms import SafeForm
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino

from .. import selectors
from ..models import Deck

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


@admin.display(description=_("visa"))
def visa_display(modeladmin: admin.ModelAdmin[Any], obj: Any) -> str:
    visa = getattr(obj, "visa", None)
    return f"{visa.officer} — {timezone.localtime(visa.at):%d/%m/%Y %H:%M}" if visa else "non visé"


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
                    timezone.localtime(c.at).strftime("%d/%m/%Y"),
                )
                for c in obj.corrections.all()
            ),
        )
        or "—"
    )


def run_act(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    done: str | StrPromise | Callable[[Any], tuple[int, str]],
    fn: Callable[..., Any],
    **kwargs: Any,
) -> None:
    """Run the act ``fn`` for the user; a refusal is shown as a message, with its article.
    ``done``: the message once done, or a function of the act's result giving the message
    and its level (what the act opened, say)."""
    try:
        result = fn(actor=request.user, **kwargs)
    except RegulationError as error:
        report_regulation_error(modeladmin, request, error)
    except PermissionDenied as error:
        modeladmin.message_user(request, str(error), level=messages.ERROR)
    else:
        if callable(done):
            level, text = done(result)
            modeladmin.message_user(request, text, level=level)
        else:
            modeladmin.message_user(request, done)


class DecksBySerial(SafeForm):
    """Decks named by serial (``A1-1`` or ``MAKER:A1-1``) and by sixain, never by database id."""

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
