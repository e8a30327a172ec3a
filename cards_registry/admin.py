"""The depot's admin screens, for the director and the committee (in French).

Registered entries are read-only here (FR art. 68). Every act goes through a form
or an action that calls its service in :mod:`cards_registry.services`: a refusal
is shown on the form (on its field, with the article) or as a message, never as
a traceback, and nothing already recorded changes.

- Fabricants, bons de commande, prises en charge, remises de la clé, ouvertures
  (inspection), incidents and corrections: "Ajouter" opens the act's form.
- Bons de commande: action "Envoyer au fabricant" (once the officer has stamped it).
- Jeux: filters by state, maker and reception date, search by serial; actions
  "remettre à la table", "retour : apte / usé / marqué / abîmé" and "détruire devant
  l'officier", with the table, the day and the officer chosen above the list;
  the detail page shows the deck's whole life with audit numbers.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from casino_ops import access
from casino_ops.access import Act
from casino_ops.admin_utils import ReadOnlyAdmin, regulation_error_to_form, report_regulation_error
from casino_ops.forms import SafeFormMixin, integer_range
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino

from . import selectors, services
from .models import (
    CabinetOpening,
    Correction,
    Deck,
    DepotSettings,
    Destruction,
    Incident,
    IncidentKind,
    KeyHandover,
    Manufacturer,
    Order,
    OrderLine,
    Reception,
    ReturnResult,
    Sixain,
    Unit,
)


def _users_with_role(*names: str) -> QuerySet[Any]:
    return (
        get_user_model()
        .objects.filter(groups__name__in=names, is_active=True)
        .distinct()
        .order_by("username")
    )


# -- forms that run an act -----------------------------------------------------------------


class ActForm(SafeFormMixin, forms.ModelForm):
    """A form whose ``clean()`` runs the act; a refusal lands on the field it names.

    Its fields take their limits from the model's (casino_ops.forms): absurd input
    is refused on the field before the act's service is called."""

    user: Any = None  # set per request by ActAdmin.get_form
    result: Any = None
    field_map: dict[str, str] = {}  # the service's field name -> this form's field

    class Meta:
        fields: list[str] = []

    def act(self, data: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            try:
                self.result = self.act(data)
            except RegulationError as error:
                error.field = self.field_map.get(error.field or "", error.field)
                regulation_error_to_form(self, error)
            except PermissionDenied as error:
                self.add_error(None, str(error) or _("Vous n'avez pas le droit de faire cet acte."))
        return data

    def _post_clean(self) -> None:
        # The act validated and saved through its service; no model validation here.
        pass


class ActAdmin(ReadOnlyAdmin):
    """Read-only entries; "Ajouter" runs ``add_form``'s act for whoever may perform ``act``
    (casino_ops.access)."""

    add_form: type[ActForm] | None = None
    act: Act = Act.DEPOT
    detail_fields: tuple[str, ...] = ()

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.add_form is not None and access.may(request.user, self.act)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None and self.add_form is not None:
            return list(self.add_form.base_fields)
        return list(self.detail_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return () if obj is None else self.detail_fields

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None and self.add_form is not None:
            return type(self.add_form.__name__, (self.add_form,), {"user": request.user})
        kwargs["fields"] = ()
        return super().get_form(request, obj, change=change, **kwargs)

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.result

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        pass  # saved by the service

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass


# -- manufacturers ---------------------------------------------------------------------------


class ManufacturerForm(ActForm):
    code = forms.CharField(label=_("code"), max_length=32)
    name = forms.CharField(label=_("raison sociale"), max_length=200)
    approval_reference = forms.CharField(label=_("référence de l'agrément"), max_length=200)
    ministry = forms.CharField(label=_("ministère"), max_length=200, initial="Ministère de l'Intérieur")
    valid_from = forms.DateField(label=_("agréé du"))
    valid_until = forms.DateField(label=_("agréé jusqu'au"), required=False)

    class Meta(ActForm.Meta):
        model = Manufacturer

    def act(self, data: dict[str, Any]) -> Manufacturer:
        return services.register_manufacturer(actor=self.user, **data)


@admin.register(Manufacturer)
class ManufacturerAdmin(ActAdmin):
    add_form = ManufacturerForm
    list_display = ("code", "name", "approval_reference", "ministry", "valid_from", "valid_until")
    search_fields = ("code", "name", "approval_reference")
    detail_fields = (
        "code",
        "name",
        "approval_reference",
        "ministry",
        "valid_from",
        "valid_until",
        "registered_at",
    )


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
        unit = Unit.SIXAIN if parts[1].lower().startswith("sixain") else Unit.DECK
        if unit == Unit.DECK and not parts[1].lower().startswith("jeu"):
            raise forms.ValidationError(
                _("Ligne %(n)s : l'unité est « jeux » ou « sixains ».") % {"n": number}
            )
        lines.append({"quantity": int(parts[0]), "unit": unit, "back_colour": parts[2]})
    return lines


class OrderForm(ActForm):
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

    def act(self, data: dict[str, Any]) -> Order:
        return services.create_order(actor=self.user, **data)


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

    def get_queryset(self, request: HttpRequest) -> QuerySet[Order]:
        return super().get_queryset(request).prefetch_related("lines")

    @admin.display(description=_("lignes"))
    def lines_display(self, obj: Order) -> str:
        return ", ".join(str(line) for line in obj.lines.all())

    @admin.display(description=_("visa"))
    def visa_display(self, obj: Any) -> str:
        visa = getattr(obj, "visa", None)
        return f"{visa.officer} — {timezone.localtime(visa.at):%d/%m/%Y %H:%M}" if visa else "non visé"

    @admin.display(description=_("prises en charge"))
    def receptions_display(self, obj: Order) -> str:
        return ", ".join(f"n° {r.number} du {r.received_on:%d/%m/%Y}" for r in obj.receptions.all()) or "—"

    @admin.display(description=_("corrections"))
    def corrections_display(self, obj: Any) -> str:
        return _corrections(obj)

    @admin.action(description=_("Envoyer au fabricant (bons visés)"))
    def send(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        for order in queryset:
            try:
                services.send_order(actor=request.user, order=order)
            except (RegulationError, PermissionDenied) as error:
                self.message_user(request, f"Bon n° {order.number} : {error}", level=messages.ERROR)
            else:
                self.message_user(request, f"Bon n° {order.number} envoyé.")


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


# -- receptions ------------------------------------------------------------------------------


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
    order = forms.ModelChoiceField(
        label=_("bon de commande"),
        queryset=Order.objects.filter(sent_at__isnull=False).select_related("manufacturer"),
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

    def act(self, data: dict[str, Any]) -> Reception:
        sixains, decks = data["decks"]
        return services.receive(
            actor=self.user,
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
    list_select_related = ("book", "manufacturer", "order__manufacturer", "visa__officer")
    search_fields = ("number", "delivery_note", "decks__serial")
    detail_fields = (
        "book",
        "number",
        "order",
        "manufacturer",
        "received_on",
        "delivery_note",
        "over_delivery",
        "recorded_by",
        "recorded_at",
        "visa_display",
        "decks_display",
        "corrections_display",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Reception]:
        return super().get_queryset(request).annotate(deck_count=Count("decks"))

    @admin.display(description=_("jeux"), ordering="deck_count")
    def deck_count(self, obj: Any) -> int:
        return obj.deck_count

    visa_display = OrderAdmin.visa_display
    corrections_display = OrderAdmin.corrections_display

    @admin.display(description=_("jeux reçus"))
    def decks_display(self, obj: Reception) -> str:
        return format_html_join(
            ", ",
            "{} ({}{})",
            (
                (d.serial, d.back_colour, f", sixain {d.sixain.serial}" if d.sixain else "")
                for d in obj.decks.select_related("sixain").order_by("serial")
            ),
        )


# -- decks -----------------------------------------------------------------------------------


class DeckActionForm(SafeFormMixin, ActionForm):
    table_number = forms.IntegerField(label=_("table"), required=False, min_value=1)
    day = forms.DateField(label=_("journée"), required=False, initial=timezone.localdate)
    officer = forms.ModelChoiceField(
        label=_("officier"), required=False, queryset=get_user_model().objects.none()
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["officer"].queryset = _users_with_role(*access.roles_for(Act.VISA))


def _action_data(modeladmin: admin.ModelAdmin, request: HttpRequest) -> dict[str, Any] | None:
    """The table, day and officer chosen above the list, or None (and a message) when refused."""
    form = DeckActionForm(request.POST)
    form.is_valid()
    # "action" is checked by the admin itself (the form here has no choices for it).
    refused = {
        name: errors for name, errors in form.errors.items() if name not in ("action", "select_across")
    }
    if refused:
        for name, errors in refused.items():
            label = form.fields[name].label if name in form.fields else ""
            modeladmin.message_user(request, f"{label} : {' '.join(errors)}", level=messages.ERROR)
        return None
    data = form.cleaned_data
    return {
        "table_number": data.get("table_number"),
        "day": data.get("day") or timezone.localdate(),
        "officer": data.get("officer"),
    }


def _run(modeladmin: admin.ModelAdmin, request: HttpRequest, done: str, fn: Any, **kwargs: Any) -> None:
    try:
        fn(actor=request.user, **kwargs)
    except RegulationError as error:
        report_regulation_error(modeladmin, request, error)
    except PermissionDenied as error:
        modeladmin.message_user(request, str(error), level=messages.ERROR)
    else:
        modeladmin.message_user(request, done)


def _return_action(result: str, label: Any) -> Any:
    @admin.action(description=label)
    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(modeladmin, request)
        if data is None:
            return
        if not data["table_number"]:
            modeladmin.message_user(request, _("Indiquez la table."), level=messages.ERROR)
            return
        _run(
            modeladmin,
            request,
            _("Jeux rendus et examinés."),
            services.return_decks,
            table_number=data["table_number"],
            day=data["day"],
            results=[(deck, result) for deck in queryset],
        )

    action.__name__ = f"return_{result}"
    return action


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = ("serial", "manufacturer", "back_colour", "sixain", "status", "received_on")
    list_filter = (
        "status",
        "manufacturer",
        "back_colour",
        ("reception__received_on", admin.DateFieldListFilter),
    )
    list_select_related = ("manufacturer", "sixain", "reception")
    search_fields = ("serial", "sixain__serial")
    list_per_page = 60
    action_form = DeckActionForm
    actions = (
        "issue",
        _return_action(ReturnResult.FIT, _("Retour de table : apte, au dépôt")),
        _return_action(ReturnResult.WORN, _("Retour de table : hors d'usage (usé)")),
        _return_action(ReturnResult.MARKED, _("Retour de table : hors d'usage (marqué)")),
        _return_action(ReturnResult.DAMAGED, _("Retour de table : hors d'usage (abîmé)")),
        "destroy",
    )
    fields = readonly_fields = (
        "serial",
        "manufacturer",
        "back_colour",
        "sixain",
        "status",
        "reception",
        "unsealed_at",
        "history_display",
    )

    @admin.display(description=_("reçu le"), ordering="reception__received_on")
    def received_on(self, obj: Deck) -> dt.date:
        return obj.reception.received_on

    @admin.display(description=_("vie du jeu"))
    def history_display(self, obj: Deck) -> str:
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li>{} — {} <small>(audit n° {})</small></li>",
                (
                    (timezone.localtime(line.at).strftime("%d/%m/%Y %H:%M"), line.what, line.audit_seq or "—")
                    for line in selectors.deck_history(obj)
                ),
            ),
        )

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if not access.may(request.user, Act.DEPOT):
            return {}
        return actions

    @admin.action(description=_("Remettre à la table (table et journée ci-dessus)"))
    def issue(self, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(self, request)
        if data is None:
            return
        if not data["table_number"]:
            self.message_user(request, _("Indiquez la table."), level=messages.ERROR)
            return
        _run(
            self,
            request,
            _("Jeux remis à la table."),
            services.issue_decks,
            table_number=data["table_number"],
            day=data["day"],
            decks=list(queryset),
        )

    @admin.action(
        description=_("Détruire devant l'officier ci-dessus (jeux vérifiés complets et non marqués)")
    )
    def destroy(self, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
        data = _action_data(self, request)
        if data is None:
            return
        _run(
            self,
            request,
            _("Destruction enregistrée ; l'officier doit la viser."),
            services.destroy_decks,
            officer=data["officer"],
            checks=[{"deck": deck, "complete": True, "unmarked": True} for deck in queryset],
        )


@admin.register(Sixain)
class SixainAdmin(ReadOnlyAdmin):
    list_display = ("serial", "manufacturer", "reception")
    list_filter = ("manufacturer",)
    list_select_related = ("manufacturer", "reception")
    search_fields = ("serial",)


# -- the key and the cabinet -----------------------------------------------------------------


class KeyHandoverForm(ActForm):
    receiver = forms.ModelChoiceField(label=_("remise à"), queryset=get_user_model().objects.none())
    reason = forms.CharField(label=_("motif"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = KeyHandover

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["receiver"].queryset = _users_with_role(*access.roles_for(Act.HOLD_KEY))

    def act(self, data: dict[str, Any]) -> KeyHandover:
        return services.hand_over_key(actor=self.user, **data)


@admin.register(KeyHandover)
class KeyHandoverAdmin(ActAdmin):
    add_form = KeyHandoverForm
    list_display = ("at", "giver", "receiver", "reason")
    list_select_related = ("giver", "receiver")
    detail_fields = ("at", "giver", "receiver", "reason")


class InspectionForm(ActForm):
    demanded_by = forms.ModelChoiceField(
        label=_("demandée par (officier)"), queryset=get_user_model().objects.none()
    )
    note = forms.CharField(label=_("observations"), required=False, max_length=300)

    class Meta(ActForm.Meta):
        model = CabinetOpening

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["demanded_by"].queryset = _users_with_role(*access.roles_for(Act.DEMAND_OPENING))

    def act(self, data: dict[str, Any]) -> CabinetOpening:
        return services.open_for_inspection(actor=self.user, **data)


@admin.register(CabinetOpening)
class CabinetOpeningAdmin(ActAdmin):
    add_form = InspectionForm
    list_display = ("at", "purpose", "opened_by", "table_number", "day", "demanded_by", "note")
    list_filter = ("purpose", ("at", admin.DateFieldListFilter))
    list_select_related = ("opened_by", "demanded_by")
    detail_fields = ("at", "purpose", "opened_by", "table_number", "day", "demanded_by", "note")


# -- incidents, destructions, corrections ---------------------------------------------------------


class IncidentForm(ActForm):
    kind = forms.ChoiceField(label=_("nature"), choices=IncidentKind.choices)
    occurred_at = forms.DateTimeField(label=_("survenu le"), initial=timezone.now)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    table_number = forms.IntegerField(label=_("table"), required=False, min_value=1)
    shoe_reference = forms.CharField(label=_("sabot"), required=False, max_length=64)
    manufacturer = forms.ModelChoiceField(label=_("fabricant des jeux"), queryset=Manufacturer.objects.all())
    serials = forms.CharField(
        label=_("jeux concernés (numéros de série)"), widget=forms.Textarea(attrs={"rows": 2})
    )
    officer_informed = forms.ModelChoiceField(
        label=_("officier avisé"), queryset=get_user_model().objects.none(), required=False
    )
    officer_informed_at = forms.DateTimeField(label=_("avisé le"), required=False)
    circumstances = forms.CharField(label=_("circonstances"), widget=forms.Textarea(attrs={"rows": 3}))

    field_map = {"decks": "serials"}

    class Meta(ActForm.Meta):
        model = Incident

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["officer_informed"].queryset = _users_with_role(*access.roles_for(Act.VISA))

    def act(self, data: dict[str, Any]) -> Incident:
        serials = data.pop("serials").split()
        maker = data.pop("manufacturer")
        decks = list(Deck.objects.filter(manufacturer=maker, serial__in=serials))
        unknown = sorted(set(serials) - {d.serial for d in decks})
        if unknown:
            self.add_error("serials", _("Jeux inconnus : %(s)s") % {"s": ", ".join(unknown)})
            return None
        return services.report_incident(actor=self.user, decks=decks, **data)


@admin.register(Incident)
class IncidentAdmin(ActAdmin):
    add_form = IncidentForm
    act = Act.REPORT_INCIDENT
    list_display = ("number", "kind", "occurred_at", "table_number", "officer_informed", "closed")
    list_filter = ("kind", "day", "table_number")
    list_select_related = ("officer_informed", "closure")
    detail_fields = (
        "number",
        "kind",
        "occurred_at",
        "table_number",
        "day",
        "shoe_reference",
        "decks_display",
        "officer_informed",
        "officer_informed_at",
        "circumstances",
        "reported_by",
        "closure_display",
        "corrections_display",
    )
    corrections_display = OrderAdmin.corrections_display

    @admin.display(description=_("clos"), boolean=True)
    def closed(self, obj: Any) -> bool:
        return hasattr(obj, "closure")

    @admin.display(description=_("jeux concernés"))
    def decks_display(self, obj: Incident) -> str:
        return ", ".join(d.serial for d in obj.decks.all())

    @admin.display(description=_("clôture"))
    def closure_display(self, obj: Any) -> str:
        closure = getattr(obj, "closure", None)
        if closure is None:
            return "ouvert : les jeux sont consignés jusqu'à la clôture par l'officier"
        return f"{closure.officer} le {timezone.localtime(closure.at):%d/%m/%Y %H:%M} : {closure.finding}"


@admin.register(Destruction)
class DestructionAdmin(ActAdmin):
    list_display = ("number", "at", "officer", "recorded_by", "deck_count", "visa_display")
    list_select_related = ("officer", "recorded_by", "visa__officer")
    list_filter = (("at", admin.DateFieldListFilter),)
    detail_fields = ("number", "at", "officer", "recorded_by", "method", "lines_display", "visa_display")
    visa_display = OrderAdmin.visa_display

    def get_queryset(self, request: HttpRequest) -> QuerySet[Destruction]:
        return super().get_queryset(request).annotate(deck_count=Count("lines"))

    @admin.display(description=_("jeux"))
    def deck_count(self, obj: Any) -> int:
        return obj.deck_count

    @admin.display(description=_("jeux détruits"))
    def lines_display(self, obj: Destruction) -> str:
        return ", ".join(
            f"{line.deck.serial} (complet{'' if line.unmarked else ', marqué'})"
            for line in obj.lines.select_related("deck")
        )


def _entry_choices() -> list[tuple[str, str]]:
    choices: list[tuple[str, str]] = []
    for model, label in (
        (Order, "Bon"),
        (Reception, "Prise en charge"),
        (Incident, "Incident"),
        (Destruction, "Destruction"),
    ):
        for pk, number in model.objects.order_by("-id").values_list("pk", "number")[:200]:
            choices.append((f"{model.__name__.lower()}:{pk}", f"{label} n° {number}"))
    return choices


class CorrectionForm(ActForm):
    entry = forms.ChoiceField(label=_("entrée corrigée"), choices=())
    field = forms.CharField(
        label=_("rubrique"),
        max_length=64,
        help_text=_(
            "bon : ordered_on, note ; prise en charge : received_on, delivery_note ; incident : occurred_at, "
            "table_number, shoe_reference, circumstances ; destruction : method"
        ),
    )
    new_value = forms.CharField(label=_("nouvelle mention"), max_length=300)
    reason = forms.CharField(label=_("motif"), max_length=300)

    class Meta(ActForm.Meta):
        model = Correction

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = _entry_choices()

    def act(self, data: dict[str, Any]) -> Correction:
        kind, pk = data["entry"].split(":")
        model = {"order": Order, "reception": Reception, "incident": Incident, "destruction": Destruction}[
            kind
        ]
        return services.record_correction(
            actor=self.user,
            entry=model.objects.get(pk=pk),
            field=data["field"],
            new_value=data["new_value"],
            reason=data["reason"],
        )


@admin.register(Correction)
class CorrectionAdmin(ActAdmin):
    add_form = CorrectionForm
    act = Act.APPROVE_DEPOT_CORRECTION
    list_display = ("at", "entry_display", "field", "old_value", "new_value", "reason", "approved_by")
    list_select_related = ("order", "reception", "incident", "destruction", "approved_by")
    detail_fields = ("at", "entry_display", "field", "old_value", "new_value", "reason", "approved_by")

    @admin.display(description=_("entrée"))
    def entry_display(self, obj: Correction) -> str:
        return str(obj.order or obj.reception or obj.incident or obj.destruction)


class DepotSettingsForm(ActForm):
    max_sixains = forms.IntegerField(
        label=_("nombre maximal de sixains (LU)"),
        required=False,
        min_value=1,
        help_text=_("Fixé par le ministère (LU art. 6). Vide : sans limite."),
    )

    class Meta(ActForm.Meta):
        model = DepotSettings

    def act(self, data: dict[str, Any]) -> DepotSettings:
        return services.set_max_sixains(actor=self.user, max_sixains=data["max_sixains"])


@admin.register(DepotSettings)
class DepotSettingsAdmin(ActAdmin):
    """The limit the ministry sets; "Ajouter" records a new value (the director only, audited)."""

    add_form = DepotSettingsForm
    act = Act.DEPOT_SETTINGS
    list_display = ("__str__", "max_sixains")
    detail_fields = ("max_sixains",)


# -- the card procedure: acts added with the procedure (decks named by serial or sixain) -----------

from .models import (  # noqa: E402
    CabinetDemand,
    CabinetInventory,
    DeckReturn,
    IncidentReport,
    OutOfUseDeclaration,
    ReturnLine,
    TableCheck,
    TableIssue,
)


class _DecksBySerial(forms.Form):
    """Decks named by serial (``A1-1`` or ``MAKER:A1-1``) and by sixain, never by database id."""

    serials = forms.CharField(
        label=_("jeux (numéros de série)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    sixains = forms.CharField(label=_("sixains (numéros de série)"), required=False)


def _named_decks(data: dict[str, Any]) -> list[Deck]:
    return selectors.resolve_decks(
        (data.pop("serials", "") or "").split(),
        (data.pop("sixains", "") or "").split(),
        profile=get_casino().profile,
    )


class OutOfUseForm(ActForm):
    serials = _DecksBySerial.base_fields["serials"]
    sixains = _DecksBySerial.base_fields["sixains"]
    reason = forms.CharField(label=_("motif"), max_length=300)
    field_map = {"decks": "serials"}

    class Meta(ActForm.Meta):
        model = OutOfUseDeclaration

    def act(self, data: dict[str, Any]) -> OutOfUseDeclaration:
        return services.declare_out_of_use(actor=self.user, decks=_named_decks(data), reason=data["reason"])


@admin.register(OutOfUseDeclaration)
class OutOfUseDeclarationAdmin(ActAdmin):
    """Decks in the cabinet declared out of use (FR art. 39 §3, LU art. 6)."""

    add_form = OutOfUseForm
    list_display = ("at", "declared_by", "reason", "decks_display")
    list_select_related = ("declared_by",)
    detail_fields = ("at", "declared_by", "reason", "decks_display")

    @admin.display(description=_("jeux"))
    def decks_display(self, obj: OutOfUseDeclaration) -> str:
        return ", ".join(d.serial for d in obj.decks.all())


class ProcedureIncidentForm(IncidentForm):
    """The incident form with every route of the procedure: decks by serial or sixain, a foreign
    card outside any deck, the police judiciaire's head when no officer is present (FR)."""

    serials = forms.CharField(
        label=_("jeux concernés (numéros de série)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    sixains = forms.CharField(label=_("sixains (numéros de série)"), required=False)
    manufacturer = forms.ModelChoiceField(
        label=_("fabricant des jeux"), queryset=Manufacturer.objects.all(), required=False
    )
    card = forms.CharField(label=_("carte en cause"), required=False, max_length=150)
    authority_informed = forms.CharField(
        label=_("autorité avisée (chef du service territorial de police judiciaire)"),
        required=False,
        max_length=150,
    )

    def act(self, data: dict[str, Any]) -> Incident:
        maker = data.pop("manufacturer", None)
        serials = (data.get("serials") or "").split()
        if maker is not None:
            data["serials"] = " ".join(s if ":" in s else f"{maker.code}:{s}" for s in serials)
        return services.report_incident(actor=self.user, decks=_named_decks(data), **data)


IncidentAdmin.add_form = ProcedureIncidentForm
IncidentAdmin.detail_fields = (
    *IncidentAdmin.detail_fields,
    "route",
    "card",
    "authority_informed",
    "told_display",
)


@admin.display(description=_("avisé (qui, quand, délai)"))
def _told_display(modeladmin: admin.ModelAdmin, obj: Incident) -> str:
    told_at = obj.told_at
    if told_at is None:
        return str(_("pas encore signalé"))
    minutes = max(0, int((told_at - obj.occurred_at).total_seconds() // 60))
    late = minutes > selectors.depot_settings().incident_report_minutes
    return f"{obj.told_whom}, {timezone.localtime(told_at):%d/%m/%Y %H:%M} (+{minutes} min)" + (
        f" — {_('EN RETARD')}" if late else ""
    )


IncidentAdmin.told_display = _told_display


class IncidentToldForm(ActForm):
    incident = forms.ModelChoiceField(
        label=_("incident"),
        queryset=Incident.objects.filter(officer_informed_at__isnull=True, later_report__isnull=True),
    )
    officer = forms.ModelChoiceField(
        label=_("officier avisé"), required=False, queryset=get_user_model().objects.none()
    )
    authority = forms.CharField(
        label=_("autorité avisée (chef du service territorial de police judiciaire)"),
        required=False,
        max_length=150,
    )
    informed_at = forms.DateTimeField(label=_("avisé le"), initial=timezone.now)
    field_map = {
        "officer_informed": "officer",
        "officer_informed_at": "informed_at",
        "authority_informed": "authority",
    }

    class Meta(ActForm.Meta):
        model = IncidentReport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["officer"].queryset = _users_with_role(*access.roles_for(Act.VISA))
        self.fields["incident"].queryset = Incident.objects.filter(
            officer_informed_at__isnull=True, later_report__isnull=True
        )

    def act(self, data: dict[str, Any]) -> IncidentReport:
        return services.record_incident_report(
            actor=self.user,
            incident=data["incident"],
            officer_informed=data.get("officer"),
            authority_informed=data.get("authority") or "",
            informed_at=data["informed_at"],
        )


@admin.register(IncidentReport)
class IncidentReportAdmin(ActAdmin):
    """When and to whom an incident found by a return, a destruction or a replay was reported."""

    add_form = IncidentToldForm
    act = Act.RECORD_INCIDENT_NOTICE
    list_display = ("incident", "officer", "authority", "informed_at", "recorded_by")
    list_select_related = ("incident", "officer", "recorded_by")
    detail_fields = ("incident", "officer", "authority", "informed_at", "recorded_by", "recorded_at")


class InventoryForm(ActForm):
    opening = forms.ModelChoiceField(
        label=_("ouverture demandée par un officier"), queryset=CabinetOpening.objects.none()
    )
    found = forms.CharField(
        label=_("jeux trouvés (numéros de série)"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Un numéro par ligne ou séparés par des espaces ; FABRICANT:numéro si deux fabricants l'ont."
        ),
    )

    class Meta(ActForm.Meta):
        model = CabinetInventory

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["opening"].queryset = CabinetOpening.objects.filter(
            purpose="inspection", inventory__isnull=True
        ).order_by("-at")

    def act(self, data: dict[str, Any]) -> CabinetInventory:
        return services.record_inventory(
            actor=self.user, opening=data["opening"], found=data["found"].split()
        )


@admin.register(CabinetInventory)
class CabinetInventoryAdmin(ActAdmin):
    """The inventory at an opening demanded by an officer: decks found against the books."""

    add_form = InventoryForm
    list_display = ("at", "opening", "expected", "found", "missing", "unexpected", "incident")
    list_select_related = ("opening", "incident")
    detail_fields = ("at", "opening", "recorded_by", "expected", "found", "missing", "unexpected", "incident")


@admin.register(CabinetDemand)
class CabinetDemandAdmin(ReadOnlyAdmin):
    """The officers' demands to open the cabinet, recorded by them from the portal."""

    list_display = ("at", "officer", "reason", "answered")
    list_select_related = ("officer",)

    @admin.display(description=_("ouverture faite"), boolean=True)
    def answered(self, obj: CabinetDemand) -> bool:
        return obj.openings.exists()


def _correction_entry_choices() -> list[tuple[str, str]]:
    """The entries a director may correct, named as in the books (numbers, serials, tables and days)."""
    choices = _entry_choices()
    for deck in Deck.objects.select_related("manufacturer").order_by("-id")[:300]:
        choices.append((f"deck:{deck.pk}", f"Jeu {deck.manufacturer.code}:{deck.serial}"))
    for sixain in Sixain.objects.select_related("manufacturer").order_by("-id")[:100]:
        choices.append((f"sixain:{sixain.pk}", f"Sixain {sixain.manufacturer.code}:{sixain.serial}"))
    for issue in TableIssue.objects.order_by("-id")[:100]:
        choices.append(
            (f"tableissue:{issue.pk}", f"Remise à la table {issue.table_number} du {issue.day:%d/%m/%Y}")
        )
    for check in TableCheck.objects.select_related("issue_line__deck", "issue_line__issue").order_by("-id")[
        :100
    ]:
        choices.append(
            (
                f"tablecheck:{check.pk}",
                f"Contrôle du jeu {check.issue_line.deck.serial} à la table {check.issue_line.issue.table_number}",
            )
        )
    for back in DeckReturn.objects.order_by("-id")[:100]:
        choices.append(
            (f"deckreturn:{back.pk}", f"Retour de la table {back.table_number} du {back.day:%d/%m/%Y}")
        )
    for line in ReturnLine.objects.select_related("issue_line__deck", "deck_return").order_by("-id")[:200]:
        choices.append(
            (
                f"returnline:{line.pk}",
                f"Jeu {line.issue_line.deck.serial} rendu par la table {line.deck_return.table_number}",
            )
        )
    return choices


_CORRECTED_MODELS = {
    "order": Order,
    "reception": Reception,
    "incident": Incident,
    "destruction": Destruction,
    "deck": Deck,
    "sixain": Sixain,
    "tableissue": TableIssue,
    "tablecheck": TableCheck,
    "deckreturn": DeckReturn,
    "returnline": ReturnLine,
}


class ApprovedCorrectionForm(CorrectionForm):
    """A correction of any registered rubric of the depot, approved in words by the director (FR art. 68)."""

    approval = forms.CharField(
        label=_("approbation en toutes lettres"),
        max_length=300,
        help_text=_("Par exemple : « Approuvé, le directeur responsable »."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = _correction_entry_choices()
        self.fields["field"].help_text = "; ".join(
            f"{model._meta.verbose_name} : {', '.join(fields)}"
            for model, fields in services.CORRECTABLE.items()
        )

    def act(self, data: dict[str, Any]) -> Correction:
        kind, pk = data["entry"].split(":")
        return services.record_correction(
            actor=self.user,
            entry=_CORRECTED_MODELS[kind].objects.get(pk=pk),
            field=data["field"],
            new_value=data["new_value"],
            reason=data["reason"],
            approval=data["approval"],
        )


CorrectionAdmin.add_form = ApprovedCorrectionForm


@admin.action(description=_("Déclarer hors d'usage au dépôt"))
def declare_out_of_use(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Deck]) -> None:
    _run(
        modeladmin,
        request,
        _("Jeux déclarés hors d'usage."),
        services.declare_out_of_use,
        decks=list(queryset),
        reason=str(_("Déclarés hors d'usage par la direction")),
    )


DeckAdmin.actions = (*DeckAdmin.actions, declare_out_of_use)


class CountedReturnForm(ActForm):
    """Decks back from a table, each examined and counted: one line per deck,
    ``serial result [cards] [remark]`` (result: fit, worn, marked, damaged)."""

    table_number = forms.IntegerField(label=_("table"), min_value=1)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    lines = forms.CharField(
        label=_("jeux rendus"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Une ligne par jeu : numéro, examen (fit, worn, marked, damaged), cartes comptées, observations."
        ),
    )
    officer_informed = forms.ModelChoiceField(
        label=_("officier avisé"), required=False, queryset=get_user_model().objects.none()
    )
    officer_informed_at = forms.DateTimeField(label=_("avisé le"), required=False)
    field_map = {"results": "lines", "decks": "lines"}

    class Meta(ActForm.Meta):
        model = DeckReturn

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["officer_informed"].queryset = _users_with_role(*access.roles_for(Act.VISA))

    def act(self, data: dict[str, Any]) -> DeckReturn:
        results = []
        for raw in data["lines"].splitlines():
            parts = raw.split(maxsplit=3)
            if not parts:
                continue
            [deck] = selectors.resolve_decks([parts[0]], profile=get_casino().profile)
            result = parts[1] if len(parts) > 1 else "fit"
            count = parts[2] if len(parts) > 2 else 52
            results.append((deck, result, parts[3] if len(parts) > 3 else "", count))
        return services.return_decks(
            actor=self.user,
            table_number=data["table_number"],
            day=data["day"],
            results=results,
            officer_informed=data.get("officer_informed"),
            officer_informed_at=data.get("officer_informed_at"),
        )


@admin.register(DeckReturn)
class DeckReturnAdmin(ActAdmin):
    """Returns from the tables, each deck counted (FR art. 40 §5, LU art. 7 §5)."""

    add_form = CountedReturnForm
    list_display = ("at", "table_number", "day", "returned_by")
    list_select_related = ("returned_by",)
    detail_fields = ("at", "table_number", "day", "returned_by", "lines_display")

    @admin.display(description=_("jeux rendus"))
    def lines_display(self, obj: DeckReturn) -> str:
        return ", ".join(
            f"{line.issue_line.deck.serial} : {line.get_result_display()}, {line.cards_counted} cartes"
            for line in obj.lines.select_related("issue_line__deck")
        )
