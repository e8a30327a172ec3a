"""The session page: its books inline (advances, maximum, shoes, hand logs, discrepancies)
and its acts, each on a page of its own offered to the roles that may sign it."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from cards_registry.selectors import colour, incident_notice, open_incidents_at
from casino_ops import access, dates
from casino_ops.access import Act
from casino_ops.admin_acts import act_page, declared_acts, may_perform
from casino_ops.admin_display import hash_text, house_rule_labels, kv_list
from casino_ops.admin_utils import ReadOnlyAdmin

from .. import labels, selectors
from ..books import book_fields
from ..models import AdvanceEntry, Discrepancy, HandLog, MaximumChange, Session, Shoe
from ._shared import ReadOnlyInline, discrepancy_label
from .act_forms import (
    AdvanceForm,
    CloseForm,
    HandLogForm,
    InterruptForm,
    MaximumForm,
    OpenSessionForm,
    ResumeForm,
    ShoeForm,
)


class AdvanceEntryInline(ReadOnlyInline):
    model = AdvanceEntry
    verbose_name_plural = _("carnet d'avances : avances, interruptions, clôture, corrections")
    fields = book_fields(AdvanceEntry, without=("table", "session"))
    readonly_fields = fields
    ordering = ("line",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super()
            .get_queryset(request)
            .select_related("counted_by", "signed_by", "cashier", "key_holder", "corrects", "table")
        )


class MaximumChangeInline(ReadOnlyInline):
    model = MaximumChange
    fields = ("at", "previous", "maximum", "by", "display_changed")
    readonly_fields = fields


class ShoeInline(ReadOnlyInline):
    model = Shoe
    fields = ("number", "label", "filled_at", "croupier", "serials")
    readonly_fields = fields

    @admin.display(description=_("jeux (numéros de série)"))
    def serials(self, obj: Shoe) -> str:
        return ", ".join(f"{d.serial} ({colour(d.back_colour)})" for d in obj.decks.all())

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("croupier").prefetch_related("decks")


class HandLogInline(ReadOnlyInline):
    model = HandLog
    fields = ("link", "shoe_label", "sha256_display", "rounds", "source", "uploaded_at", "replay_state")
    readonly_fields = fields

    @admin.display(description=_("empreinte SHA-256"))
    def sha256_display(self, obj: HandLog) -> str:
        return hash_text(obj.sha256)

    @admin.display(description=_("journal"))
    def link(self, obj: HandLog) -> str:
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


class DiscrepancyInline(ReadOnlyInline):
    model = Discrepancy
    verbose_name_plural = _("écarts des journaux de mains")
    fields: ClassVar[tuple[str, ...]] = (
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
    readonly_fields: ClassVar[tuple[str, ...]] = fields

    code_display = admin.display(description=_("écart"))(lambda self, obj: discrepancy_label(obj.code))
    detail_display = admin.display(description=_("détail"))(lambda self, obj: kv_list(obj.detail))

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("hand_log")


# Each act's page is seen by whoever reads the séance (its model's view permission); who may
# perform the act is decided by casino_ops.access (SESSION_ACT_ACTS), nowhere else.
SESSION_ACTS = {
    "advance": (_("Avance complémentaire"), AdvanceForm),
    "maximum": (_("Changement du maximum"), MaximumForm),
    "interrupt": (_("Interruption"), InterruptForm),
    "resume": (_("Reprise"), ResumeForm),
    "close": (_("Clôture de la séance"), CloseForm),
    "shoe": (_("Garnir un sabot"), ShoeForm),
    "handlog": (_("Déposer un journal de mains"), HandLogForm),
}


# Who may perform each act: the acts of the declaration of the service its form calls
# (casino_ops.acts; the service refuses anyone else, with the article): the page offers a
# user only the acts of his role. The maximum is the director's, or a committee member's as
# his recorded delegate (the service checks that).
SESSION_ACT_ACTS: dict[str, tuple[Act, ...]] = {
    key: declared_acts(form_class) for key, (_title, form_class) in SESSION_ACTS.items()
}


def session_acts_for(user: Any) -> list[tuple[str, Any]]:
    return [
        (key, title)
        for key, (title, _f) in SESSION_ACTS.items()
        if any(access.may(user, act) for act in SESSION_ACT_ACTS[key])
    ]


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
        "guarantee_fund", "ministry_notice", "ministry_notified_on", "ministry_notice_reference", "croupier",
        "opened_at", "opened_by",
        "delegation", "status", "closed_at", "advances_total", "closing_cash", "result",
    )  # fmt: skip

    house_rules_display = admin.display(description=_("règlement intérieur en vigueur"))(
        lambda self, obj: kv_list(obj.house_rules, labels=house_rule_labels())
    )

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("tables.view_session")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Opening a séance signs its initial advance (FR art. 69, LU art. 10)."""
        return may_perform(request.user, OpenSessionForm)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("dealer-errors/", wrap(self.dealer_errors_view), name="tables_session_dealer_errors"),
            path("<int:pk>/act/<str:act>/", wrap(self.act), name="tables_session_act"),
            *super().get_urls(),
        ]

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        return act_page(
            self,
            request,
            title=str(_("Ouverture d'une séance : limites et avance initiale")),
            form_class=OpenSessionForm,
            back=reverse("admin:tables_session_changelist"),
            perm="tables.view_session",
            then=lambda session: reverse("admin:tables_session_change", args=[session.pk]),
        )

    def act(self, request: HttpRequest, pk: int, act: str) -> HttpResponse:
        if act not in SESSION_ACTS:
            raise PermissionDenied
        session = get_object_or_404(Session.objects.select_related("table"), pk=pk)
        title, form_class = SESSION_ACTS[act]
        return act_page(
            self,
            request,
            title=f"{title} — {session}",
            form_class=form_class,
            back=reverse("admin:tables_session_change", args=[pk]),
            perm="tables.view_session",
            files=act == "handlog",
            session=session,
        )

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        extra = {
            "session_acts": session_acts_for(request.user),
            "session_pk": object_id,
            "incident_notice": self._incident_notice(object_id),
        }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    @staticmethod
    def _incident_notice(object_id: str) -> str:
        """The incidents still open at the séance's table that day (a shoe refused for its
        composition, a failed check, a card the replay of its logs found): no act changes a
        deck's state without a word on the page it returns to (FR art. 40, LU art. 7)."""
        session = (
            Session.objects.select_related("table").filter(pk=object_id).first()
            if object_id.isdigit()
            else None
        )
        if session is None:
            return ""
        return incident_notice(open_incidents_at(table_number=session.table.number, day=session.day))

    def dealer_errors_view(self, request: HttpRequest) -> HttpResponse:
        if not request.user.has_perm("tables.view_discrepancy"):
            raise PermissionDenied
        by = request.GET.get("by", "table")
        if by not in selectors.GROUPS:
            by = "table"
        rows = [
            {
                **row,
                "by_code": [(labels.discrepancy_label(code), code, n) for code, n in row["by_code"].items()],
                "overpaid": dates.amount(row["overpaid"]),
                "underpaid": dates.amount(row["underpaid"]),
            }
            for row in selectors.dealer_error_summary(by=by)
        ]
        groups = {"table": _("table"), "session": _("séance"), "croupier": _("croupier")}
        context = {
            **self.admin_site.each_context(request),
            "title": _("Erreurs des croupiers par table, séance ou croupier"),
            "rows": rows,
            "by": by,
            "by_label": groups.get(by, by),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/tables/dealer_errors.html", context)
