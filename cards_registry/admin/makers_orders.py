"""The depot's makers and orders: "Ajouter" registers a maker or writes an order; the action
"Envoyer au fabricant" sends the orders an officer has stamped."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActAdmin, ActForm, ActPageForm, act_action
from casino_ops.forms import integer_range

from .. import services
from ..books import book_fields
from ..models import Manufacturer, Order, OrderLine, Unit
from . import _shared


class ManufacturerForm(ActForm):
    declared = declaration(services.register_manufacturer)
    code = forms.CharField(label=_("code"), max_length=32)
    name = forms.CharField(label=_("raison sociale"), max_length=200)
    approval_reference = forms.CharField(label=_("référence de l'agrément"), max_length=200)
    ministry = forms.CharField(label=_("ministère"), max_length=200, initial="Ministère de l'Intérieur")
    valid_from = forms.DateField(label=_("agréé du"))
    valid_until = forms.DateField(label=_("agréé jusqu'au"), required=False)

    class Meta(ActForm.Meta):
        model = Manufacturer

    def act(self, actor: Any, data: dict[str, Any]) -> Manufacturer:
        return services.register_manufacturer(actor=actor, **data)


@admin.register(Manufacturer)
class ManufacturerAdmin(ActAdmin):
    add_form = ManufacturerForm
    list_display = ("code", "name", "approval_reference", "ministry", "valid_from", "valid_until")
    search_fields = ("code", "name", "approval_reference")
    detail_fields = book_fields(Manufacturer)


# -- orders ----------------------------------------------------------------------------------


def _parse_order_lines(text: str) -> list[services.OrderLineData]:
    """``24 jeux bleu`` / ``10 sixains rouge``: one line each."""
    lines: list[services.OrderLineData] = []
    _low, most = integer_range(OrderLine._meta.get_field("quantity"))
    colour_length = OrderLine._meta.get_field("back_colour").max_length or 32
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        parts = raw.split()
        if len(parts) != 3 or not (parts[0].isascii() and parts[0].isdigit()):
            raise forms.ValidationError(
                _("Ligne %(n)s : écrivez « quantité unité couleur », par ex. « 24 jeux bleu ».")
                % {"n": number}
            )
        if len(parts[0]) > len(str(most)) or int(parts[0]) > most:
            raise forms.ValidationError(
                _("Ligne %(n)s : quantité de %(most)s au plus.") % {"n": number, "most": most}
            )
        if len(parts[2]) > colour_length:
            raise forms.ValidationError(
                _("Ligne %(n)s : couleur de %(limit)s caractères au plus.")
                % {"n": number, "limit": colour_length}
            )
        # the unit in either language: « jeux », « sixains » or "decks", "six-packs"
        unit = Unit.SIXAIN if parts[1].lower().startswith(("sixain", "six-pack")) else Unit.DECK
        if unit == Unit.DECK and not parts[1].lower().startswith(("jeu", "deck")):
            raise forms.ValidationError(
                _("Ligne %(n)s : l'unité est « jeux » ou « sixains ».") % {"n": number}
            )
        lines.append({"quantity": int(parts[0]), "unit": unit, "back_colour": parts[2]})
    return lines


class OrderForm(ActForm):
    declared = declaration(services.create_order)
    manufacturer = forms.ModelChoiceField(label=_("fabricant"), queryset=Manufacturer.objects.all())
    ordered_on = forms.DateField(label=_("date du bon"), initial=timezone.localdate)
    lines = forms.CharField(
        label=_("lignes"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "Une ligne par article : « quantité unité couleur », ex. « 24 jeux bleu », « 10 sixains rouge »."
        ),
    )
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    field_map = {"order": "manufacturer"}

    class Meta(ActForm.Meta):
        model = Order

    def clean_lines(self) -> list[services.OrderLineData]:
        return _parse_order_lines(self.cleaned_data["lines"])

    def act(self, actor: Any, data: dict[str, Any]) -> Order:
        return services.create_order(actor=actor, **data)


class SendOrderForm(ActPageForm):
    """A stamped order sent to its maker."""

    declared = declaration(services.send_order)

    def __init__(self, *args: Any, order: Order, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = order

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.send_order(actor=actor, order=self.order)

    def done(self, result: Any) -> tuple[int, str]:
        return messages.INFO, _("Bon n° %(number)s envoyé.") % {"number": self.order.number}


@admin.register(Order)
class OrderAdmin(ActAdmin):
    add_form = OrderForm
    list_display = (
        "number",
        "ordered_on",
        "manufacturer",
        "lines_display",
        "visa_display",
        "sent_at",
    )
    list_filter = ("manufacturer", "ordered_on")
    list_select_related = ("book", "manufacturer", "visa__officer")
    search_fields = ("number", "note")
    detail_fields = (
        "book",
        "number",
        "manufacturer",
        "ordered_on",
        "lines_display",
        "note",
        "recorded_by",
        "recorded_at",
        "visa_display",
        "sent_at",
        "receptions_display",
        "corrections_display",
    )
    actions = ("send",)
    visa_display = _shared.visa_display
    corrections_display = _shared.corrections_display

    def get_queryset(self, request: HttpRequest) -> QuerySet[Order]:
        return super().get_queryset(request).prefetch_related("lines")

    @admin.display(description=_("lignes"))
    def lines_display(self, obj: Order) -> str:
        return ", ".join(str(line) for line in obj.lines.all())

    @admin.display(description=_("prises en charge"))
    def receptions_display(self, obj: Order) -> str:
        return (
            ", ".join(
                _("n° %(number)s du %(day)s") % {"number": r.number, "day": dates.day(r.received_on)}
                for r in obj.receptions.all()
            )
            or "—"
        )

    @admin.action(description=_("Envoyer au fabricant (bons visés)"))
    def send(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        for order in queryset:
            act_action(self, request, SendOrderForm, order=order, prefix=f"Bon n° {order.number} : ")
