"""The decks: the list with its filters and the acts on the selected decks (issue to a
table, return from it, destruction before the officer, out of use), the sixains, the
declarations out of use and the returns counted deck by deck."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth import get_user_model
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from cards_registry.colours import colour
from casino_ops import access, dates
from casino_ops.access import Act
from casino_ops.acts import declaration
from casino_ops.admin_acts import (
    ActAdmin,
    ActForm,
    ActPageForm,
    act_action,
    act_action_page,
    may_perform,
    model_choice_field,
    users_with_role,
)
from casino_ops.admin_utils import ReadOnlyAdmin
from casino_ops.forms import SafeFormMixin
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino

from .. import selectors, services
from ..models import Deck, DeckReturn, IssueLine, OutOfUseDeclaration, ReturnResult, Sixain
from ._shared import DecksBySerial, named_decks


class DeckActionForm(SafeFormMixin, ActionForm):
    """The list's action alone: each act asks for its own fields on a page of its own
    (casino_ops.admin_acts.act_action_page), never all of them above the list."""


def return_outcome(deck_return: DeckReturn) -> tuple[int, str]:
    """The message after a return: the incidents it opened and the decks they quarantine
    (FR art. 40 §5, LU art. 7 §5), or that the decks are back."""
    opened = selectors.incidents_of_return(deck_return)
    if not opened:
        return messages.SUCCESS, str(_("Jeux rendus, comptés et examinés."))
    incidents = {incident.pk: incident for incident in opened.values()}
    return messages.WARNING, selectors.incident_notice(sorted(incidents.values(), key=lambda i: i.number))


def _table_field() -> forms.IntegerField:
    return forms.IntegerField(label=_("table"), min_value=1, max_value=32767)


def _day_field() -> forms.DateField:
    return forms.DateField(label=_("journée"), initial=timezone.localdate)


def _count_field(deck: Deck) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("cartes comptées du jeu %(serial)s") % {"serial": deck.serial},
        min_value=0,
        max_value=104,
        error_messages={
            "required": _("Jeu %(serial)s : comptez ses cartes et indiquez leur nombre, rien n'est présumé.")
            % {"serial": deck.serial}
        },
    )


class _SelectedDecksForm(ActPageForm):
    """An act on the decks selected in the list, on its own page: its own fields only."""

    def __init__(self, *args: Any, decks: list[Deck], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decks = decks


class _AtTableForm(_SelectedDecksForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table_number"] = _table_field()
        self.fields["day"] = _day_field()
        # the fields made here are read by clean(): the act runs once they are valid
        self.order_fields(["table_number", "day"])


class _CountedForm(_AtTableForm):
    """One count per deck, typed by whoever counted its cards: never one count for all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for deck in self.decks:
            self.fields[self.count_name(deck)] = _count_field(deck)

    @staticmethod
    def count_name(deck: Deck) -> str:
        return f"cards_{deck.pk}"


class IssueDecksForm(_AtTableForm):
    declared = declaration(services.issue_decks)

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.issue_decks(
            actor=actor, table_number=data["table_number"], day=data["day"], decks=self.decks
        )

    def done(self, result: Any) -> tuple[int, str]:
        n = len(self.decks)
        return messages.INFO, ngettext(
            "%(n)s jeu remis à la table %(t)s.", "%(n)s jeux remis à la table %(t)s.", n
        ) % {"n": n, "t": self.cleaned_data["table_number"]}


class ReturnDecksForm(_CountedForm):
    """Decks back from a table with one examination for all (the action's); the cards of each
    deck are counted by hand and its count typed: nothing is presumed."""

    declared = declaration(services.return_decks)

    def __init__(self, *args: Any, result: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.examined = result

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.return_decks(
            actor=actor,
            table_number=data["table_number"],
            day=data["day"],
            results=[(deck, self.examined, "", data[self.count_name(deck)]) for deck in self.decks],
        )

    def done(self, result: Any) -> tuple[int, str]:
        return return_outcome(result)


class CheckDecksAtTableForm(_CountedForm):
    """Several decks unsealed (new) or checked (used) at a table in one form (FR art. 40 §1,
    LU art. 7): the table, the day, the witness and the video once; for each deck its cards
    counted, its band and its maker's order. Each deck's check is its own act: a refused one
    (its incident opened, the deck quarantined) stops the form, the decks before it checked."""

    declared = declaration(services.check_at_table)
    witness = forms.CharField(label=_("témoin"), max_length=150)
    video_reference = forms.CharField(
        label=_("référence vidéo"),
        required=False,
        max_length=150,
        help_text=_("FR : jeu neuf descellé sous vidéo."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for deck in self.decks:
            self.fields[f"band_{deck.pk}"] = forms.BooleanField(
                label=_("bande de contrôle intacte du jeu %(serial)s (jeu neuf)") % {"serial": deck.serial},
                required=False,
            )
            self.fields[f"order_{deck.pk}"] = forms.BooleanField(
                label=_("ordre du fabricant vérifié du jeu %(serial)s") % {"serial": deck.serial},
                required=False,
            )
        per_deck = [
            name
            for deck in self.decks
            for name in (self.count_name(deck), f"band_{deck.pk}", f"order_{deck.pk}")
        ]
        self.order_fields(["table_number", "day", "witness", "video_reference", *per_deck])
        self.checked: list[Deck] = []

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        for deck in self.decks:
            try:
                services.check_at_table(
                    actor=actor,
                    deck=deck,
                    table_number=data["table_number"],
                    day=data["day"],
                    witness=data["witness"],
                    order_checked=data[f"order_{deck.pk}"],
                    cards_counted=data[self.count_name(deck)],
                    band_intact=data[f"band_{deck.pk}"],
                    video_reference=data["video_reference"],
                )
            except RegulationError as error:
                error.field = {
                    "cards_counted": self.count_name(deck),
                    "band_intact": f"band_{deck.pk}",
                    "order_checked": f"order_{deck.pk}",
                }.get(error.field or "", None if error.field in ("deck", "decks") else error.field)
                error.message = _("Jeu %(serial)s : %(refusal)s") % {
                    "serial": deck.serial,
                    "refusal": error.message,
                }
                if self.checked:
                    error.message += " " + _("Jeux déjà contrôlés : %(s)s.") % {
                        "s": ", ".join(d.serial for d in self.checked)
                    }
                raise
            self.checked.append(deck)
        return self.checked

    def done(self, result: Any) -> tuple[int, str]:
        return messages.SUCCESS, _("Jeux contrôlés à la table %(t)s : %(s)s.") % {
            "t": self.cleaned_data["table_number"],
            "s": ", ".join(deck.serial for deck in result),
        }


class DestroyDecksForm(_SelectedDecksForm):
    declared = declaration(services.destroy_decks)
    officer = forms.ModelChoiceField(label=_("officier"), queryset=get_user_model().objects.none())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer").queryset = users_with_role(*access.roles_for(Act.VISA))

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.destroy_decks(
            actor=actor,
            officer=data["officer"],
            checks=[{"deck": deck, "complete": True, "unmarked": True} for deck in self.decks],
        )

    def done(self, result: Any) -> tuple[int, str]:
        return messages.INFO, str(_("Destruction enregistrée ; l'officier doit la viser."))


class DeclareOutOfUseForm(_SelectedDecksForm):
    declared = declaration(services.declare_out_of_use)

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.declare_out_of_use(
            actor=actor, decks=self.decks, reason=str(_("Déclarés hors d'usage par la direction"))
        )

    def done(self, result: Any) -> tuple[int, str]:
        return messages.INFO, str(_("Jeux déclarés hors d'usage."))


def _return_action(result: str, label: Any) -> Any:
    @admin.action(description=label)
    def action(
        modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Deck]
    ) -> HttpResponse | None:
        return act_action_page(
            modeladmin, request, queryset, ReturnDecksForm, title=label, result=result, decks=list(queryset)
        )

    action.__name__ = f"return_{result}"
    return action


@admin.action(description=_("Déclarer hors d'usage au dépôt"))
def declare_out_of_use(
    modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Deck]
) -> None:
    act_action(modeladmin, request, DeclareOutOfUseForm, decks=list(queryset))


def _deck_at_table() -> Subquery:
    """The table and day a deck was last issued to, while it is not back (one subquery)."""
    return Subquery(
        IssueLine.objects.filter(deck=OuterRef("pk"), return_line__isnull=True)
        .order_by("-id")
        .values("issue__table_number")[:1]
    )


class BackColourFilter(admin.SimpleListFilter):
    """The decks by their back colour, each named in the page's language (the books keep it as typed)."""

    title = _("couleur du dos")
    parameter_name = "back_colour"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        typed = Deck.objects.order_by("back_colour").values_list("back_colour", flat=True).distinct()
        return [(value, colour(value)) for value in typed]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Deck]) -> QuerySet[Deck]:
        return queryset.filter(back_colour=self.value()) if self.value() else queryset


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = (
        "serial",
        "manufacturer",
        "back_colour_display",
        "sixain",
        "status",
        "at_table",
        "received_on",
    )
    list_filter = (
        "status",
        "manufacturer",
        BackColourFilter,
        ("reception__received_on", admin.DateFieldListFilter),
    )
    list_select_related = ("manufacturer", "sixain", "reception")
    search_fields = ("serial", "sixain__serial")
    list_per_page = 60
    action_form = DeckActionForm
    actions = (
        "issue",
        "check_at_table",
        _return_action(ReturnResult.FIT, _("Retour de table : apte, au dépôt")),
        _return_action(ReturnResult.WORN, _("Retour de table : hors d'usage (usé)")),
        _return_action(ReturnResult.MARKED, _("Retour de table : hors d'usage (marqué)")),
        _return_action(ReturnResult.DAMAGED, _("Retour de table : hors d'usage (abîmé)")),
        "destroy",
        declare_out_of_use,
    )
    fields = readonly_fields = (
        "serial",
        "manufacturer",
        "back_colour_display",
        "sixain",
        "status",
        "at_table",
        "reception",
        "unsealed_at",
        "history_display",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deck]:
        decks: QuerySet[Deck] = super().get_queryset(request)
        return decks.annotate(table_now=_deck_at_table())

    @admin.display(description=_("à la table"), ordering="table_now")
    def at_table(self, obj: Deck) -> str:
        """The table the deck is at (issued and not back), by its number: "—" in the depot."""
        number = getattr(obj, "table_now", None)
        return str(_("table %(n)s") % {"n": number}) if number is not None else "—"

    @admin.display(description=_("couleur du dos"), ordering="back_colour")
    def back_colour_display(self, obj: Deck) -> str:
        return colour(obj.back_colour)

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
                    (dates.moment(line.at), line.what, line.audit_seq or "—")
                    for line in selectors.deck_history(obj)
                ),
            ),
        )

    #: the form each action performs its act with: the action is offered to whoever may
    #: perform the act of its form's declaration (casino_ops.acts)
    action_forms: dict[str, Any] = {
        "issue": IssueDecksForm,
        "check_at_table": CheckDecksAtTableForm,
        **{f"return_{result}": ReturnDecksForm for result in ReturnResult},
        "destroy": DestroyDecksForm,
        "declare_out_of_use": DeclareOutOfUseForm,
    }

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        return {
            name: action
            for name, action in actions.items()
            if name not in self.action_forms or may_perform(request.user, self.action_forms[name])
        }

    @admin.action(description=_("Remettre à une table"))
    def issue(self, request: HttpRequest, queryset: QuerySet[Deck]) -> HttpResponse | None:
        return act_action_page(
            self, request, queryset, IssueDecksForm, title=_("Remettre à une table"), decks=list(queryset)
        )

    @admin.action(description=_("Desceller ou contrôler à la table (chaque jeu compté)"))
    def check_at_table(self, request: HttpRequest, queryset: QuerySet[Deck]) -> HttpResponse | None:
        return act_action_page(
            self,
            request,
            queryset,
            CheckDecksAtTableForm,
            title=_("Desceller ou contrôler à la table"),
            decks=list(queryset.order_by("serial")),
        )

    @admin.action(description=_("Détruire devant un officier (jeux vérifiés complets et non marqués)"))
    def destroy(self, request: HttpRequest, queryset: QuerySet[Deck]) -> HttpResponse | None:
        return act_action_page(
            self,
            request,
            queryset,
            DestroyDecksForm,
            title=_("Détruire devant un officier"),
            decks=list(queryset),
        )


@admin.register(Sixain)
class SixainAdmin(ReadOnlyAdmin):
    list_display = ("serial", "manufacturer", "reception")
    list_filter = ("manufacturer",)
    list_select_related = ("manufacturer", "reception")
    search_fields = ("serial",)


class OutOfUseForm(ActForm):
    declared = declaration(services.declare_out_of_use)
    serials = DecksBySerial.base_fields["serials"]
    sixains = DecksBySerial.base_fields["sixains"]
    reason = forms.CharField(label=_("motif"), max_length=300)
    field_map = {"decks": "serials"}

    class Meta(ActForm.Meta):
        model = OutOfUseDeclaration

    def act(self, actor: Any, data: dict[str, Any]) -> OutOfUseDeclaration:
        return services.declare_out_of_use(actor=actor, decks=named_decks(data), reason=data["reason"])


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


RETURN_ROWS = 12  # two sixains: a table's decks of a day, one row each

EXAMINED = [(value, label) for value, label in ReturnResult.choices if value != ReturnResult.QUARANTINED]


class CountedReturnForm(ActForm):
    """Decks back from a table, each examined and counted by hand: one row per deck, its
    serial, the examination chosen from the list and the cards counted (nothing presumed)."""

    declared = declaration(services.return_decks)
    table_number = forms.IntegerField(label=_("table"), min_value=1)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)
    officer_informed = forms.ModelChoiceField(
        label=_("officier avisé"), required=False, queryset=get_user_model().objects.none()
    )
    officer_informed_at = forms.DateTimeField(label=_("avisé le"), required=False)
    field_map = {"results": "deck_1", "decks": "deck_1"}

    class Meta(ActForm.Meta):
        model = DeckReturn

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "officer_informed").queryset = users_with_role(*access.roles_for(Act.VISA))

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        for row in range(1, RETURN_ROWS + 1):
            if not data.get(f"deck_{row}"):
                continue
            if not data.get(f"result_{row}"):
                self.add_error(f"result_{row}", _("Choisissez le résultat de l'examen."))
            if data.get(f"cards_{row}") is None and f"cards_{row}" not in self.errors:
                self.add_error(f"cards_{row}", _("Comptez les cartes et indiquez leur nombre."))
        return super().clean()

    def act(self, actor: Any, data: dict[str, Any]) -> DeckReturn:
        results = []
        for row in range(1, RETURN_ROWS + 1):
            serial = (data.get(f"deck_{row}") or "").strip()
            if not serial:
                continue
            [deck] = selectors.resolve_decks([serial], profile=get_casino().profile)
            results.append(
                (deck, data[f"result_{row}"], data.get(f"remark_{row}") or "", data[f"cards_{row}"])
            )
        return services.return_decks(
            actor=actor,
            table_number=data["table_number"],
            day=data["day"],
            results=results,
            officer_informed=data.get("officer_informed"),
            officer_informed_at=data.get("officer_informed_at"),
        )


def _row_label(text: str, row: int) -> str:
    return gettext(text) % {"n": row}


_row_label_lazy = lazy(_row_label, str)

for _row in range(1, RETURN_ROWS + 1):
    _fields: dict[str, forms.Field] = {
        f"deck_{_row}": forms.CharField(
            label=_row_label_lazy(gettext_noop("jeu %(n)s (numéro de série)"), _row),
            required=_row == 1,
            max_length=80,
        ),
        f"result_{_row}": forms.ChoiceField(
            label=_row_label_lazy(gettext_noop("examen du jeu %(n)s"), _row),
            required=False,
            choices=[("", "---------"), *EXAMINED],
        ),
        f"cards_{_row}": forms.IntegerField(
            label=_row_label_lazy(gettext_noop("cartes comptées du jeu %(n)s"), _row),
            required=False,
            min_value=0,
            max_value=104,
        ),
        f"remark_{_row}": forms.CharField(
            label=_row_label_lazy(gettext_noop("observations sur le jeu %(n)s"), _row),
            required=False,
            max_length=300,
        ),
    }
    # Both: a subclass (the admin's per-request form) collects the declared fields again.
    CountedReturnForm.declared_fields.update(_fields)
    CountedReturnForm.base_fields.update(_fields)


def _quarantined_line(line: Any, number: int) -> str:
    """A deck whose return opened an incident is quarantined, never "back in the depot for use"."""
    text = str(_("consigné : incident n° %(n)s ouvert")) % {"n": number}
    if line.result != ReturnResult.FIT:
        text += f" ({line.get_result_display()})"
    return text


@admin.register(DeckReturn)
class DeckReturnAdmin(ActAdmin):
    """Returns from the tables, each deck counted (FR art. 40 §5, LU art. 7 §5)."""

    add_form = CountedReturnForm
    list_display = ("at", "table_number", "day", "returned_by")
    list_select_related = ("returned_by",)
    detail_fields = ("at", "table_number", "day", "returned_by", "lines_display")

    def response_add(
        self, request: HttpRequest, obj: DeckReturn, post_url_continue: Any = None
    ) -> HttpResponse:
        """Say what the return opened: a deck short of a card or marked is quarantined, not back."""
        level, text = return_outcome(obj)
        self.message_user(request, text, level=level)
        return HttpResponseRedirect(reverse("admin:cards_registry_deckreturn_change", args=[obj.pk]))

    @admin.display(description=_("jeux rendus"))
    def lines_display(self, obj: DeckReturn) -> str:
        opened = selectors.incidents_of_return(obj)
        return ", ".join(
            f"{line.issue_line.deck.serial} : "
            + (
                _quarantined_line(line, opened[line.issue_line.deck_id].number)
                if line.issue_line.deck_id in opened
                else str(line.get_result_display())
            )
            + f", {line.cards_counted} "
            + str(_("cartes"))
            for line in obj.lines.select_related("issue_line__deck")
        )
