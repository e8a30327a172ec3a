"""The advance book and the control register: read-only, each line corrected by a new line
the director approves in words (FR art. 68); the days closed by the director."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.admin_acts import act_action, act_page, may_perform
from casino_ops.admin_utils import ReadOnlyAdmin
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from .. import selectors
from ..books import book_fields
from ..models import AdvanceEntry, ControlDay, ControlLine
from ._shared import ReadOnlyInline
from .act_forms import CloseDayForm, CorrectionForm


class CorrectedLineAdmin(ReadOnlyAdmin):
    """A book whose line is corrected by a new line the director approves in words (FR art. 68):
    the list's action opens the correction's page of the line chosen; once done, back to
    ``correction_back(line)``."""

    actions = ["correct"]
    correction_title: Any = None  # its title, given the line as ``%(line)s``

    def correction_back(self, line: Any) -> str:
        raise NotImplementedError

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/correct/", wrap(self.correct_view), name=self._correct_url_name()),
            *super().get_urls(),
        ]

    def _correct_url_name(self) -> str:
        return f"{self.opts.app_label}_{self.opts.model_name}_correct"

    def has_correct_permission(self, request: HttpRequest) -> bool:
        """A correction is approved by the director in words (FR art. 68)."""
        return may_perform(request.user, CorrectionForm)

    @admin.action(
        description=_("Corriger la ligne sélectionnée (nouvelle ligne, FR art. 68)"), permissions=["correct"]
    )
    def correct(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, _("Sélectionnez une seule ligne."), messages.WARNING)
            return None
        return HttpResponseRedirect(reverse(f"admin:{self._correct_url_name()}", args=[queryset.get().pk]))

    def correct_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        line = get_object_or_404(self.model, pk=pk)
        return act_page(
            self,
            request,
            title=self.correction_title % {"line": line},
            form_class=CorrectionForm,
            line=line,
            back=self.correction_back(line),
            perm=f"{self.opts.app_label}.view_{self.opts.model_name}",
        )


@admin.register(AdvanceEntry)
class AdvanceEntryAdmin(CorrectedLineAdmin):
    list_display = ("table", "line", "kind", "amount", "at", "counted_by", "signed_by")
    list_filter = ("kind", "table")
    list_select_related = ("table", "counted_by", "signed_by", "corrects")
    correction_title = _("Correction de la ligne %(line)s")

    def correction_back(self, entry: AdvanceEntry) -> str:
        return reverse("admin:tables_session_change", args=[entry.session_id])


class ControlLineInline(ReadOnlyInline):
    model = ControlLine
    fields = book_fields(ControlLine, without=("control_day",))
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

    list_display = ("day", "closed_at", "closed_by", "total_display", "stamped_at", "stamped_by")
    readonly_fields = (
        "closing_rules_display", "day", "closed_at", "closed_by", "total_display", "stamped_at", "stamped_by", "stamp_remark",
    )  # fmt: skip
    list_select_related = ("closed_by", "stamped_by")
    inlines = [ControlLineInline]
    actions = ["close_days"]

    @admin.display(description=_("total de la journée"))
    def total_display(self, obj: ControlDay) -> str:
        data = selectors.control_register(obj.day)
        total = dates.amount(data["total"])
        closing = data["total_at_closing"]
        if closing is None or closing == data["total"]:
            return total
        return format_html(
            '{} <small class="code-caption">{}</small>',
            total,
            _("arrêté à %(t)s, rectifié depuis") % {"t": dates.amount(closing)},
        )

    @admin.display(description=_("conditions de l'arrêté"))
    def closing_rules_display(self, obj: ControlDay) -> str:
        """The rules that decide whether the day may be closed, each met or not, said before the
        director tries (the refusal would name the first unmet one)."""
        rules = selectors.day_closing_rules(obj)
        article = cite("control_register", get_casino().profile)
        return format_html(
            '<ul class="closing-rules">{}</ul><p>{}</p>',
            format_html_join(
                "",
                "<li><strong>{}</strong> — {}{}</li>",
                (
                    (
                        _("respectée") if rule["met"] else _("non respectée"),
                        rule["rule"],
                        f" ({rule['detail']})" if rule["detail"] else "",
                    )
                    for rule in rules
                ),
            ),
            _("La journée peut être arrêtée (%(a)s).") % {"a": article}
            if all(rule["met"] for rule in rules)
            else _("La journée ne peut pas encore être arrêtée (%(a)s).") % {"a": article},
        )

    @admin.action(description=_("Arrêter les journées sélectionnées (directeur)"), permissions=["view"])
    def close_days(self, request: HttpRequest, queryset: Any) -> None:
        for control_day in queryset.order_by("day"):
            act_action(self, request, CloseDayForm, control_day=control_day)


@admin.register(ControlLine)
class ControlLineAdmin(CorrectedLineAdmin):
    list_display = ("control_day", "table", "session", "result", "corrects", "at", "by")
    list_select_related = ("control_day", "table", "session__table", "corrects__table", "by")
    correction_title = _("Correction au registre de contrôle %(line)s")

    def correction_back(self, line: ControlLine) -> str:
        return reverse("admin:tables_controlday_change", args=[line.control_day_id])
