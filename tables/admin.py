"""The tables in the admin: every page of a registered entry is read-only; each act is a form
that calls its service (a refusal is shown on the field with its article)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from cards_registry.selectors import decks_checked_for_play
from casino_ops import access, roles
from casino_ops.access import Act
from casino_ops.admin_display import hash_text, house_rule_labels, kv_list, labelled_code
from casino_ops.admin_utils import ReadOnlyAdmin, regulation_error_to_form, report_regulation_error
from casino_ops.forms import SafeForm
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino

from . import selectors, services
from .blackjack.summary import LABELS
from .models import (
    AdvanceEntry,
    AuthorisedMinimum,
    ControlDay,
    ControlLine,
    Delegation,
    Discrepancy,
    DiscrepancyAcknowledgement,
    HandLog,
    HandLogSource,
    MaximumChange,
    Session,
    Shoe,
    Table,
)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "code", "game", "boxes", "in_service")
    readonly_fields = ("number", "code", "game", "boxes", "in_service")
    actions = ["put_out_of_service", "put_in_service"]

    def _set_service(self, request: HttpRequest, queryset: Any, in_service: bool) -> None:
        for table in queryset.order_by("number"):
            try:
                services.set_table_in_service(actor=request.user, table=table, in_service=in_service)
            except (RegulationError, PermissionDenied) as error:
                if isinstance(error, RegulationError):
                    report_regulation_error(self, request, error)
                else:
                    self.message_user(request, str(error), messages.ERROR)
            else:
                self.message_user(request, _("Acte enregistré : %(t)s.") % {"t": table}, messages.SUCCESS)

    @admin.action(description=_("Mettre hors service les tables sélectionnées"), permissions=["view"])
    def put_out_of_service(self, request: HttpRequest, queryset: Any) -> None:
        self._set_service(request, queryset, False)

    @admin.action(description=_("Remettre en service les tables sélectionnées"), permissions=["view"])
    def put_in_service(self, request: HttpRequest, queryset: Any) -> None:
        self._set_service(request, queryset, True)

    def has_add_permission(self, request):  # noqa: ANN001
        return False

    def has_change_permission(self, request, obj=None):  # noqa: ANN001
        # every field is read-only (tables are created by their service): a page to read,
        # with no "Save" button
        return False

    def has_delete_permission(self, request, obj=None):  # noqa: ANN001
        return False


# The discrepancies found on receipt (the replay's own are labelled in blackjack/summary.py).
RECEIPT_LABELS = {
    "LIMITS_MISMATCH": _("limites du journal différentes de celles de la séance"),
    "PROFILE_MISMATCH": _("réglementation du journal différente de celle de la séance"),
    "HOUSE_RULES_MISMATCH": _("règles du journal différentes du règlement intérieur de la séance"),
    "SHOE_UNKNOWN": _("sabot du journal inconnu de la séance"),
    "BOX_NOT_ON_LAYOUT": _("case absente du tapis de la table"),
}


def discrepancy_label(code: str) -> str:
    """A discrepancy's label in the active language, its code as a caption."""
    from django.utils.translation import gettext

    label = RECEIPT_LABELS.get(code) or (gettext(LABELS[code]) if code in LABELS else "")
    return labelled_code(label, code)


# -- act forms ---------------------------------------------------------------------------------


def _users(*role_names: str) -> Any:
    return get_user_model().objects.filter(groups__name__in=role_names).distinct().order_by("username")


def _money_field(label: str, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, max_digits=14, decimal_places=2, min_value=Decimal("0"), required=required
    )


class OpenSessionForm(SafeForm):
    model = Session
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.filter(in_service=True))
    day = forms.DateField(
        label=_("journée de jeu"),
        required=False,
        help_text=_("Vide : la journée de jeu en cours, la seule pour laquelle une séance s'ouvre."),
    )
    minimum = _money_field(_("minimum des mises"))
    maximum = _money_field(_("maximum par case"))
    advance_amount = _money_field(_("avance initiale comptée et annoncée"))
    croupier = forms.ModelChoiceField(label=_("compté par (chef de table)"), queryset=_users(roles.CROUPIER))
    guarantee_fund = _money_field(_("fonds de garantie justifié (LU)"), required=False)
    ministry_notified_on = forms.DateField(
        label=_("ministre informé le (LU, relèvement du minimum)"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from django.utils import timezone

        super().__init__(*args, **kwargs)
        self.fields["day"].initial = get_casino().gaming_day(timezone.now())


class AdvanceForm(SafeForm):
    model = AdvanceEntry
    amount = _money_field(_("montant compté et annoncé"))
    counted_by = forms.ModelChoiceField(label=_("compté par"), queryset=_users(roles.CROUPIER))


class MaximumForm(SafeForm):
    model = MaximumChange
    maximum = _money_field(_("nouveau maximum par case"))
    display_changed = forms.BooleanField(
        label=_("l'affichage de la table indique le nouveau maximum"), required=False
    )


class InterruptForm(SafeForm):
    model = AdvanceEntry
    mode = forms.ChoiceField(
        label=_("interruption"),
        choices=[("counted", _("encaisse comptée et inscrite")), ("locked", _("encaisse déposée sous clé"))],
    )
    amount = _money_field(_("encaisse comptée"), required=False)
    key_holder = forms.ModelChoiceField(
        label=_("détenteur de la clé"),
        queryset=_users(roles.DIRECTOR, roles.COMMITTEE, roles.CROUPIER),
        required=False,
    )
    signed_by = forms.ModelChoiceField(
        label=_("signataire de l'encaisse comptée (LU : directeur ou membre du comité)"),
        queryset=_users(roles.DIRECTOR, roles.COMMITTEE),
        required=False,
    )
    cashier = forms.ModelChoiceField(
        label=_("caissier présent (LU, encaisse comptée)"), queryset=_users(roles.CASHIER), required=False
    )


class ResumeForm(SafeForm):
    confirm = forms.BooleanField(label=_("la partie reprend"))


class CloseForm(SafeForm):
    model = Session
    closing_cash = _money_field(_("encaisse comptée, annoncée et inscrite"))
    counted_by = forms.ModelChoiceField(label=_("compté par"), queryset=_users(roles.CROUPIER))
    cashier = forms.ModelChoiceField(
        label=_("caissier présent"), queryset=_users(roles.CASHIER), required=False
    )
    certified_exact = forms.BooleanField(label=_("je certifie l'inscription « exacte »"), required=False)


class ShoeForm(SafeForm):
    """The six decks are chosen among those the depot issued to the session's table for
    its day, by serial and sixain (what the director reads on the decks)."""

    model = Shoe
    decks = forms.ModelMultipleChoiceField(
        label=_("jeux remis à la table (six : trois de chaque couleur de dos)"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Un jeu choisi n'est pas (ou plus) remis à cette table pour la journée : rechargez la page."
            ),
            "invalid_pk_value": _("Choisissez les jeux dans la liste."),
        },
    )
    label = forms.CharField(label=_("identifiant du sabot (facultatif)"), required=False)

    def __init__(self, *args: Any, session: Session, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["decks"]
        # only the decks unsealed or checked at the table that day (FR art. 40, LU art. 7)
        field.queryset = decks_checked_for_play(table_number=session.table.number, day=session.day)
        field.label_from_instance = _deck_label

    def clean_decks(self) -> list[int]:
        return [deck.pk for deck in self.cleaned_data["decks"]]


def _deck_label(deck: Any) -> str:
    sixain = _("sixain %(s)s") % {"s": deck.sixain.serial} if deck.sixain_id else _("sans sixain")
    return f"{deck.serial} — {deck.back_colour}, {sixain}"


class HandLogForm(SafeForm):
    file = forms.FileField(label=_("journal de mains (.json : un sabot ; .jsonl : un sabot par ligne)"))


def _upload_hand_logs(user: Any, session: Session, upload: Any) -> list[Any]:
    """A .json file holds one log, a .jsonl file one log per line, like ``manage.py replay``: all
    the file's logs are received, or none (a refusal names the line)."""
    from django.db import transaction

    raw = upload.read()
    if not (upload.name or "").lower().endswith(".jsonl"):
        return [services.upload_hand_log(actor=user, session=session, raw=raw, source=HandLogSource.ADMIN)]
    logs = []
    with transaction.atomic():
        for number, line in enumerate(raw.split(b"\n"), 1):
            if not line.strip():
                continue
            try:
                logs.append(
                    services.upload_hand_log(
                        actor=user, session=session, raw=line.rstrip(b"\r"), source=HandLogSource.ADMIN
                    )
                )
            except RegulationError as error:
                raise RegulationError(
                    error.code,
                    _("Ligne %(n)s : %(m)s") % {"n": number, "m": error.message},
                    error.article,
                    field=error.field,
                ) from None
    return logs


class CorrectionForm(SafeForm):
    model = ControlLine
    amount = forms.DecimalField(label=_("montant correct"), max_digits=14, decimal_places=2)
    approval = forms.CharField(label=_("approbation du directeur, en toutes lettres"), widget=forms.Textarea)
    reason = forms.CharField(label=_("motif"), widget=forms.Textarea)


class CloseDayForm(SafeForm):
    confirm = forms.BooleanField(label=_("j'arrête la journée au registre de contrôle"))


def _role_refusal(user: Any, acts: tuple[Act, ...]) -> access.RoleRequired | None:
    """The refusal of ``user`` for the first of ``acts`` when he may perform none of them."""
    if not acts or any(access.may(user, act) for act in acts):
        return None
    try:
        access.require(user, acts[0])
    except access.RoleRequired as error:
        return error
    return None


def act_view(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    *,
    title: str,
    form_class: Callable[..., forms.Form],
    perform: Callable[[dict[str, Any]], Any],
    back: str,
    perm: str,
    files: bool = False,
    acts: tuple[Act, ...] = (),
) -> HttpResponse:
    """Show an act's form; on POST call the service; a refusal goes on the field with its article.
    ``acts``: the regulated acts of which the user must be allowed one (casino_ops.access); to
    anyone else the page shows the refusal (RoleRequired, with its article) and does nothing."""
    if not request.user.has_perm(perm):
        raise PermissionDenied
    refusal = _role_refusal(request.user, acts)
    form = (
        form_class(request.POST or None, request.FILES or None) if request.method == "POST" else form_class()
    )
    if refusal is not None:
        if form.is_bound:
            form.is_valid()  # the form's own errors too, then the refusal
            regulation_error_to_form(form, refusal)
        else:
            modeladmin.message_user(request, str(refusal), messages.ERROR)
    elif request.method == "POST" and form.is_valid():
        try:
            perform(form.cleaned_data)
        except RegulationError as error:
            regulation_error_to_form(form, error)
        else:
            modeladmin.message_user(request, _("Acte enregistré : %(t)s.") % {"t": title}, messages.SUCCESS)
            return HttpResponseRedirect(back)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "back": back,
        "opts": modeladmin.model._meta,
        "multipart": files,
    }
    return TemplateResponse(request, "admin/tables/act_form.html", context)


# -- the session page --------------------------------------------------------------------------


class _ReadOnlyInline(admin.TabularInline):
    template = "admin/edit_inline/tabular_plain.html"
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AdvanceEntryInline(_ReadOnlyInline):
    model = AdvanceEntry
    verbose_name_plural = _("carnet d'avances : avances, interruptions, clôture, corrections")
    fields = (
        "line",
        "kind",
        "amount",
        "at",
        "counted_by",
        "signed_by",
        "cashier",
        "key_holder",
        "corrects",
        "note",
    )
    readonly_fields = fields
    ordering = ("line",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super()
            .get_queryset(request)
            .select_related("counted_by", "signed_by", "cashier", "key_holder", "corrects", "table")
        )


class MaximumChangeInline(_ReadOnlyInline):
    model = MaximumChange
    fields = ("at", "previous", "maximum", "by", "display_changed")
    readonly_fields = fields


class ShoeInline(_ReadOnlyInline):
    model = Shoe
    fields = ("number", "label", "filled_at", "croupier", "serials")
    readonly_fields = fields

    @admin.display(description=_("jeux (numéros de série)"))
    def serials(self, obj: Shoe) -> str:
        return ", ".join(f"{d.serial} ({d.back_colour})" for d in obj.decks.all())

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("croupier").prefetch_related("decks")


class HandLogInline(_ReadOnlyInline):
    model = HandLog
    fields = ("link", "shoe_label", "sha256_display", "rounds", "source", "uploaded_at", "replay_state")
    readonly_fields = fields

    @admin.display(description=_("empreinte SHA-256"))
    def sha256_display(self, obj: HandLog) -> str:
        return hash_text(obj.sha256)

    @admin.display(description=_("journal"))
    def link(self, obj: HandLog) -> str:
        from django.utils.html import format_html

        return format_html(
            '<a href="{}">n° {}</a>', reverse("admin:tables_handlog_change", args=[obj.pk]), obj.pk
        )

    @admin.display(description=_("rejeu"))
    def replay_state(self, obj: HandLog) -> str:
        replay = getattr(obj, "replay", None) if hasattr(obj, "replay") else None
        if replay is None:
            return str(_("en attente"))
        return str(_("conforme")) if replay.ok else _("%(n)s écart(s)") % {"n": replay.discrepancy_count}

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("replay")


class DiscrepancyInline(_ReadOnlyInline):
    model = Discrepancy
    verbose_name_plural = _("écarts des journaux de mains")
    fields = (
        "hand_log",
        "code_display",
        "round",
        "box",
        "hand",
        "player",
        "expected",
        "recorded",
        "delta",
        "article",
        "detail_display",
    )
    readonly_fields = fields

    code_display = admin.display(description=_("écart"))(lambda self, obj: discrepancy_label(obj.code))
    detail_display = admin.display(description=_("détail"))(lambda self, obj: kv_list(obj.detail))

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("hand_log")


SESSION_ACTS = {
    "advance": (_("Avance complémentaire"), AdvanceForm, "tables.add_advanceentry"),
    "maximum": (_("Changement du maximum"), MaximumForm, "tables.add_maximumchange"),
    "interrupt": (_("Interruption"), InterruptForm, "tables.add_advanceentry"),
    "resume": (_("Reprise"), ResumeForm, "tables.add_advanceentry"),
    "close": (_("Clôture de la séance"), CloseForm, "tables.add_advanceentry"),
    "shoe": (_("Garnir un sabot"), ShoeForm, "tables.add_shoe"),
    "handlog": (_("Déposer un journal de mains"), HandLogForm, "tables.add_handlog"),
}


# Who may sign each act (casino_ops.access; the service refuses anyone else, with the
# article): the page offers a user only the acts of his role. The maximum is the
# director's, or a committee member's as his recorded delegate (the service checks that).
SESSION_ACT_ACTS: dict[str, tuple[Act, ...]] = {
    "advance": (Act.SIGN_ADVANCE,),
    "maximum": (Act.FIX_MAXIMUM, Act.FIX_MAXIMUM_AS_DELEGATE),
    "close": (Act.SIGN_ADVANCE,),
    "interrupt": (Act.COUNT,),
    "resume": (Act.COUNT,),
    "shoe": (Act.COUNT,),
    "handlog": (Act.COUNT,),
}


def session_acts_for(user: Any) -> list[tuple[str, Any]]:
    return [
        (key, title)
        for key, (title, _f, perm) in SESSION_ACTS.items()
        if user.has_perm(perm) and any(access.may(user, act) for act in SESSION_ACT_ACTS[key])
    ]


def _perform_session_act(act: str, user: Any, session: Session, data: dict[str, Any]) -> Any:
    if act == "advance":
        return services.add_advance(
            actor=user, session=session, amount=data["amount"], counted_by=data["counted_by"]
        )
    if act == "maximum":
        return services.change_maximum(
            actor=user, session=session, maximum=data["maximum"], display_changed=data["display_changed"]
        )
    if act == "interrupt":
        return services.interrupt_session(
            actor=user,
            session=session,
            mode=data["mode"],
            amount=data["amount"],
            key_holder=data["key_holder"],
            signed_by=data["signed_by"],
            cashier=data["cashier"],
        )
    if act == "resume":
        return services.resume_session(actor=user, session=session)
    if act == "close":
        return services.close_session(
            actor=user,
            session=session,
            closing_cash=data["closing_cash"],
            counted_by=data["counted_by"],
            cashier=data["cashier"],
            certified_exact=data["certified_exact"],
        )
    if act == "shoe":
        return services.fill_shoe(actor=user, session=session, deck_ids=data["decks"], label=data["label"])
    if act == "handlog":
        return _upload_hand_logs(user, session, data["file"])
    raise ValueError(act)


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    # the str() says table and day: the list fits 1366 px beside the filters
    list_display = ("__str__", "status", "minimum", "maximum", "advance_amount", "result")
    list_filter = ("status", "day", "table")
    list_select_related = ("table",)
    date_hierarchy = "day"
    inlines = [AdvanceEntryInline, MaximumChangeInline, ShoeInline, HandLogInline, DiscrepancyInline]
    change_form_template = "admin/tables/session/change_form.html"
    fields = readonly_fields = (
        "table", "day", "fiscal_year", "profile", "house_rules_display", "minimum", "maximum", "advance_amount",
        "guarantee_fund", "ministry_notified_on", "croupier", "opened_at", "opened_by", "delegation", "status", "closed_at",
        "advances_total", "closing_cash", "result",
    )  # fmt: skip

    house_rules_display = admin.display(description=_("règlement intérieur en vigueur"))(
        lambda self, obj: kv_list(obj.house_rules, labels=house_rule_labels())
    )

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("tables.view_session")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("tables.add_session")

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("dealer-errors/", wrap(self.dealer_errors_view), name="tables_session_dealer_errors"),
            path("<int:pk>/act/<str:act>/", wrap(self.act), name="tables_session_act"),
            *super().get_urls(),
        ]

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        holder: dict[str, Session] = {}

        def perform(data: dict[str, Any]) -> None:
            holder["session"] = services.open_session(actor=request.user, **data)

        response = act_view(
            self,
            request,
            title=str(_("Ouverture d'une séance : limites et avance initiale")),
            form_class=OpenSessionForm,
            perform=perform,
            back=reverse("admin:tables_session_changelist"),
            perm="tables.add_session",
        )
        if "session" in holder:
            return HttpResponseRedirect(reverse("admin:tables_session_change", args=[holder["session"].pk]))
        return response

    def act(self, request: HttpRequest, pk: int, act: str) -> HttpResponse:
        if act not in SESSION_ACTS:
            raise PermissionDenied
        session = get_object_or_404(Session.objects.select_related("table"), pk=pk)
        title, form_class, perm = SESSION_ACTS[act]
        if form_class is ShoeForm:
            form_class = functools.partial(ShoeForm, session=session)
        return act_view(
            self,
            request,
            title=f"{title} — {session}",
            form_class=form_class,
            perform=lambda data: _perform_session_act(act, request.user, session, data),
            back=reverse("admin:tables_session_change", args=[pk]),
            perm=perm,
            files=act == "handlog",
            acts=SESSION_ACT_ACTS[act],
        )

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        extra = {
            "session_acts": session_acts_for(request.user),
            "session_pk": object_id,
        }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def dealer_errors_view(self, request: HttpRequest) -> HttpResponse:
        if not request.user.has_perm("tables.view_discrepancy"):
            raise PermissionDenied
        by = request.GET.get("by", "table")
        if by not in selectors.GROUPS:
            by = "table"
        rows = selectors.dealer_error_summary(by=by)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Erreurs de donne par table, séance ou croupier"),
            "rows": rows,
            "by": by,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/tables/dealer_errors.html", context)


# -- the advance book, the control register, hand logs ----------------------------------------------


@admin.register(AdvanceEntry)
class AdvanceEntryAdmin(ReadOnlyAdmin):
    list_display = ("table", "line", "kind", "amount", "at", "counted_by", "signed_by")
    list_filter = ("kind", "table")
    list_select_related = ("table", "counted_by", "signed_by", "corrects")
    actions = ["correct"]

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/correct/", wrap(self.correct_view), name="tables_advanceentry_correct"),
            *super().get_urls(),
        ]

    def has_correct_permission(self, request: HttpRequest) -> bool:
        """A correction is approved by the director in words (FR art. 68)."""
        return access.may(request.user, Act.CONTROL_REGISTER)

    @admin.action(
        description=_("Corriger la ligne sélectionnée (nouvelle ligne, FR art. 68)"), permissions=["correct"]
    )
    def correct(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, _("Sélectionnez une seule ligne."), messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:tables_advanceentry_correct", args=[queryset.get().pk]))

    def correct_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = get_object_or_404(AdvanceEntry, pk=pk)
        return act_view(
            self,
            request,
            title=f"{_('Correction de la ligne')} {entry}",
            form_class=CorrectionForm,
            perform=lambda d: services.correct_advance_entry(
                actor=request.user,
                entry=entry,
                amount=d["amount"],
                approval=d["approval"],
                reason=d["reason"],
            ),
            back=reverse("admin:tables_session_change", args=[entry.session_id]),
            perm="tables.add_advanceentry",
            acts=(Act.CONTROL_REGISTER,),
        )


class ControlLineInline(_ReadOnlyInline):
    model = ControlLine
    fields = (
        "table",
        "session",
        "advances",
        "closing_cash",
        "result",
        "at",
        "by",
        "corrects",
        "approval",
        "reason",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super().get_queryset(request).select_related("table", "session__table", "by", "corrects__table")
        )


@admin.register(ControlDay)
class ControlDayAdmin(ReadOnlyAdmin):
    """The day's total is the one figure of the portal and the PDF (selectors.control_register:
    the effective lines, corrections applied); the total written at closing is shown beside
    it when a correction came later."""

    list_display = ("day", "closed_at", "closed_by", "total_display")
    readonly_fields = ("day", "closed_at", "closed_by", "total_display")
    list_select_related = ("closed_by",)
    inlines = [ControlLineInline]
    actions = ["close_days"]

    @admin.display(description=_("total de la journée"))
    def total_display(self, obj: ControlDay) -> str:
        data = selectors.control_register(obj.day)
        total = number_format(data["total"], 2, force_grouping=True)
        closing = data["total_at_closing"]
        if closing is None or closing == data["total"]:
            return total
        return format_html(
            '{} <small class="code-caption">{}</small>',
            total,
            _("arrêté à %(t)s, rectifié depuis") % {"t": number_format(closing, 2, force_grouping=True)},
        )

    @admin.action(description=_("Arrêter les journées sélectionnées (directeur)"), permissions=["view"])
    def close_days(self, request: HttpRequest, queryset: Any) -> None:
        for control_day in queryset.order_by("day"):
            try:
                services.close_day(actor=request.user, day=control_day.day)
            except RegulationError as error:
                report_regulation_error(self, request, error)
            else:
                self.message_user(
                    request, _("Journée du %(d)s arrêtée.") % {"d": control_day}, messages.SUCCESS
                )


@admin.register(ControlLine)
class ControlLineAdmin(ReadOnlyAdmin):
    list_display = ("control_day", "table", "session", "result", "corrects", "at", "by")
    list_select_related = ("control_day", "table", "session__table", "corrects__table", "by")
    actions = ["correct"]

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/correct/", wrap(self.correct_view), name="tables_controlline_correct"),
            *super().get_urls(),
        ]

    def has_correct_permission(self, request: HttpRequest) -> bool:
        """A correction is approved by the director in words (FR art. 68)."""
        return access.may(request.user, Act.CONTROL_REGISTER)

    @admin.action(
        description=_("Corriger la ligne sélectionnée (nouvelle ligne, FR art. 68)"), permissions=["correct"]
    )
    def correct(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, _("Sélectionnez une seule ligne."), messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:tables_controlline_correct", args=[queryset.get().pk]))

    def correct_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(ControlLine, pk=pk)
        return act_view(
            self,
            request,
            title=f"{_('Correction au registre de contrôle')} {line}",
            form_class=CorrectionForm,
            perform=lambda d: services.correct_control_line(
                actor=request.user, line=line, result=d["amount"], approval=d["approval"], reason=d["reason"]
            ),
            back=reverse("admin:tables_controlday_change", args=[line.control_day_id]),
            perm="tables.add_controlline",
            acts=(Act.CONTROL_REGISTER,),
        )


class HandLogDiscrepancyInline(DiscrepancyInline):
    fields = (
        "code_display", "round", "box", "hand", "player", "expected", "recorded", "delta", "article",
        "detail_display",
    )  # fmt: skip
    readonly_fields = fields


@admin.register(HandLog)
class HandLogAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "session", "shoe", "rounds", "source", "uploaded_at")
    list_filter = ("source",)
    list_select_related = ("session__table", "shoe")
    readonly_fields = (
        "session", "shoe", "croupier", "sha256_display", "shoe_label", "table_code", "profile", "limits_min",
        "limits_max", "house_rules_display", "rounds", "source", "uploaded_by", "uploaded_at", "raw_display",
    )  # fmt: skip
    inlines = [HandLogDiscrepancyInline]

    sha256_display = HandLogInline.sha256_display
    house_rules_display = admin.display(description=_("règles du journal"))(
        lambda self, obj: kv_list(obj.house_rules, labels=house_rule_labels())
    )

    @admin.display(description=_("journal tel que reçu"))
    def raw_display(self, obj: HandLog) -> str:
        return format_html(
            "<details><summary>{}</summary>{}</details>",
            _("afficher le journal (%(n)s octets)") % {"n": number_format(len(obj.raw), force_grouping=True)},
            kv_list(obj.raw),
        )


class DiscrepancyCodeFilter(admin.SimpleListFilter):
    title = _("écart")
    parameter_name = "code"

    def lookups(self, request, model_admin):  # noqa: ANN001, ANN201
        from django.utils.translation import gettext

        codes = Discrepancy.objects.order_by().values_list("code", flat=True).distinct()
        named = [(c, RECEIPT_LABELS.get(c) or (gettext(LABELS[c]) if c in LABELS else c)) for c in codes]
        return sorted(named, key=lambda item: str(item[1]))

    def queryset(self, request, queryset):  # noqa: ANN001, ANN201
        return queryset.filter(code=self.value()) if self.value() else queryset


@admin.register(Discrepancy)
class DiscrepancyAdmin(ReadOnlyAdmin):
    list_display = ("code_display", "session", "hand_log", "round", "box", "player", "delta", "article")
    code_display = admin.display(description=_("écart"), ordering="code")(
        lambda self, obj: discrepancy_label(obj.code)
    )
    list_filter = (DiscrepancyCodeFilter, "article")
    list_select_related = ("session__table", "hand_log")


# -- who fixes the limits: the director's delegate, the authorised minimum of the decree --------


class DelegationForm(forms.Form):
    delegate = forms.ModelChoiceField(
        label=_("membre du comité de direction délégué"), queryset=_users(roles.COMMITTEE)
    )
    approval_reference = forms.CharField(label=_("référence de l'agrément du ministre"), max_length=200)
    approved_on = forms.DateField(label=_("agréé le"))
    valid_from = forms.DateField(label=_("en vigueur du"))
    valid_until = forms.DateField(label=_("en vigueur jusqu'au (facultatif)"), required=False)


@admin.register(Delegation)
class DelegationAdmin(ReadOnlyAdmin):
    """The director's delegates for the direction of play (LU art. 51 V): a dated act, read-only."""

    list_display = (
        "delegate",
        "approval_reference",
        "approved_on",
        "valid_from",
        "valid_until",
        "granted_by",
        "at",
    )
    list_select_related = ("delegate", "granted_by")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.may(request.user, Act.GRANT_DELEGATION)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        if not access.may(request.user, Act.GRANT_DELEGATION):
            raise PermissionDenied
        return act_view(
            self,
            request,
            title=str(_("Délégation pour la direction des jeux (LU art. 51 V)")),
            form_class=DelegationForm,
            perform=lambda d: services.grant_delegation(actor=request.user, **d),
            back=reverse("admin:tables_delegation_changelist"),
            perm="tables.view_delegation",
        )


class AuthorisedMinimumForm(forms.Form):
    minimum = _money_field(_("mise minimale autorisée"))
    decree_reference = forms.CharField(label=_("référence de l'arrêté"), max_length=200)
    decree_date = forms.DateField(label=_("arrêté du"))
    in_force_on = forms.DateField(label=_("en vigueur le"))


@admin.register(AuthorisedMinimum)
class AuthorisedMinimumAdmin(ReadOnlyAdmin):
    """The authorised minimum of the decree: recorded by the director, stamped by an officer."""

    list_display = (
        "minimum",
        "decree_reference",
        "decree_date",
        "in_force_on",
        "recorded_by",
        "stamped_by",
        "stamped_at",
    )
    list_select_related = ("recorded_by", "stamped_by")
    actions = ["stamp"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.may(request.user, Act.RECORD_AUTHORISED_MINIMUM)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        if not access.may(request.user, Act.RECORD_AUTHORISED_MINIMUM):
            raise PermissionDenied
        return act_view(
            self,
            request,
            title=str(_("Minimum autorisé par un arrêté")),
            form_class=AuthorisedMinimumForm,
            perform=lambda d: services.record_authorised_minimum(actor=request.user, **d),
            back=reverse("admin:tables_authorisedminimum_changelist"),
            perm="tables.view_authorisedminimum",
        )

    @admin.action(description=_("Viser les actes sélectionnés (fonctionnaire)"), permissions=["view"])
    def stamp(self, request: HttpRequest, queryset: Any) -> None:
        for act in queryset:
            try:
                services.stamp_authorised_minimum(actor=request.user, act=act)
            except RegulationError as error:
                report_regulation_error(self, request, error)
            else:
                self.message_user(request, _("Acte visé : %(a)s.") % {"a": act}, messages.SUCCESS)


# -- the director takes note of discrepancies --------------------------------------------------


class DiscrepancyActsAdmin(DiscrepancyAdmin):
    """The discrepancies' list, with the director's act of taking note of the selected ones."""

    actions = ["acknowledge"]

    @admin.action(
        description=_("Prendre connaissance des écarts sélectionnés (directeur)"), permissions=["view"]
    )
    def acknowledge(self, request: HttpRequest, queryset: Any) -> None:
        try:
            rows = services.acknowledge_discrepancies(actor=request.user, discrepancies=list(queryset))
        except RegulationError as error:
            report_regulation_error(self, request, error)
        else:
            self.message_user(
                request, _("%(n)s écart(s) pris en compte.") % {"n": len(rows)}, messages.SUCCESS
            )


admin.site.unregister(Discrepancy)
admin.site.register(Discrepancy, DiscrepancyActsAdmin)


@admin.register(DiscrepancyAcknowledgement)
class AcknowledgementAdmin(ReadOnlyAdmin):
    list_display = ("discrepancy", "by", "at", "note")
    list_select_related = ("discrepancy", "by")
