"""The hand logs as received, their discrepancies (found on receipt or by the replay), and
the director's act of taking note of them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from casino_ops.admin_acts import act_action, act_page
from casino_ops.admin_display import house_rule_labels, kv_list
from casino_ops.admin_utils import ReadOnlyAdmin

from .. import labels
from ..models import Discrepancy, DiscrepancyAcknowledgement, HandLog
from ._shared import discrepancy_label
from .act_forms import AcknowledgeForm, ExplanationForm
from .sessions import DiscrepancyInline, HandLogInline


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

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        codes = Discrepancy.objects.order_by().values_list("code", flat=True).distinct()
        named = [(c, labels.discrepancy_label(c)) for c in codes]
        return sorted(named, key=lambda item: str(item[1]))

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(code=self.value()) if self.value() else queryset


class DiscrepancyAdmin(ReadOnlyAdmin):
    list_display = ("code_display", "session", "hand_log", "round", "box", "player", "delta", "article")
    code_display = admin.display(description=_("écart"), ordering="code")(
        lambda self, obj: discrepancy_label(obj.code)
    )
    list_filter = (DiscrepancyCodeFilter, "article")
    list_select_related = ("session__table", "hand_log")
    # The page of one discrepancy: its code by its label, its detail as a key/value list.
    fields = readonly_fields = (
        HandLogDiscrepancyInline.fields[:1] + ("hand_log", "session") + (HandLogDiscrepancyInline.fields[1:])
    )
    detail_display = HandLogDiscrepancyInline.detail_display


@admin.register(Discrepancy)
class DiscrepancyActsAdmin(DiscrepancyAdmin):
    """The discrepancies' list, with the director's act of taking note of the selected ones
    (with his explanation, which a log of an unknown shoe requires)."""

    actions = ["acknowledge", "acknowledge_with_explanation"]

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("acknowledge/", wrap(self.acknowledge_view), name="tables_discrepancy_acknowledge"),
            *super().get_urls(),
        ]

    @admin.action(
        description=_("Prendre connaissance des écarts sélectionnés avec une explication (directeur)"),
        permissions=["view"],
    )
    def acknowledge_with_explanation(self, request: HttpRequest, queryset: Any) -> HttpResponse:
        ids = ",".join(str(pk) for pk in queryset.order_by("pk").values_list("pk", flat=True))
        return HttpResponseRedirect(f"{reverse('admin:tables_discrepancy_acknowledge')}?ids={ids}")

    def acknowledge_view(self, request: HttpRequest) -> HttpResponse:
        ids = [int(part) for part in request.GET.get("ids", "").split(",") if part.isdigit()][:1000]
        rows = list(Discrepancy.objects.filter(pk__in=ids).order_by("pk"))
        return act_page(
            self,
            request,
            title=str(_("Prise de connaissance de %(n)s écart(s)") % {"n": len(rows)}),
            form_class=ExplanationForm,
            back=reverse("admin:tables_discrepancy_changelist"),
            perm="tables.view_discrepancy",
            discrepancies=rows,
        )

    @admin.action(
        description=_("Prendre connaissance des écarts sélectionnés (directeur)"), permissions=["view"]
    )
    def acknowledge(self, request: HttpRequest, queryset: Any) -> None:
        act_action(self, request, AcknowledgeForm, discrepancies=list(queryset))


@admin.register(DiscrepancyAcknowledgement)
class AcknowledgementAdmin(ReadOnlyAdmin):
    list_display = ("discrepancy", "by", "at", "note")
    list_select_related = ("discrepancy", "by")
