"""Admin of the printed registers and the signed checkpoints (French).

Whoever asks for a register sees it in the list with its state and progress,
then downloads the signed PDF; the director and the committee see every
report. A report is never edited or deleted here: a new request makes a new
one (or returns the same one).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from audit.checkpoints import export
from audit.models import Checkpoint
from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActForm, may_perform
from casino_ops.admin_display import hash_text
from casino_ops.admin_utils import ReadOnlyAdmin
from casino_ops.regulations import RegulationError
from inspection.models import Report

from .base import MODULES, get_register
from .reports import parts_of, request_report

if TYPE_CHECKING:  # Django's admin and forms are generic only in the stubs
    from django.contrib.admin.options import _FieldGroups

    _ReportAdmin = admin.ModelAdmin[Report]
else:
    _ReportAdmin = admin.ModelAdmin


class ReportRequestForm(ActForm):
    """A register asked for: ``request_report`` checks the register, the period, the table and
    the signing certificate, and refuses with the reason."""

    register = forms.ChoiceField(label=_("registre"), choices=[])
    declared = declaration(request_report)
    field_map = {"table": "table_number"}

    class Meta:
        model = Report
        fields = ["register", "date_from", "date_to", "table_number"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "register" not in self.fields:  # the page of a report: every field is read-only
            return
        field = self.fields["register"]
        if isinstance(field, forms.ChoiceField):  # declared so above
            field.choices = [(name, str(get_register(name).title)) for name in MODULES]

    def act(self, actor: Any, data: dict[str, Any]) -> Report:
        return request_report(
            actor=actor,
            register=data["register"],
            date_from=data["date_from"],
            date_to=data["date_to"],
            table=data.get("table_number"),
        )


#: The fields of a request, then those of a report's page (all read-only).
_ASKED = ["register", "date_from", "date_to", "table_number"]
_SHOWN = [
    "register_title",
    "date_from",
    "date_to",
    "table_number",
    "requested_by",
    "requested_at",
    "state",
    "progress",
    "parts_progress",
    "attempts",
    "rows",
    "pages",
    "head_seq",
    "head_hash",
    "sha256",
    "error",
    "started_at",
    "finished_at",
    "download",
]


@admin.register(Report)
class ReportAdmin(_ReportAdmin):
    form = ReportRequestForm
    list_display = (
        "__str__",
        "requested_by",
        "requested_at",
        "state",
        "progress_bar",
        "parts_progress",
        "pages",
        "download",
        "error",
    )
    list_filter = ("state", "register")
    search_fields = ("sha256", "register")
    date_hierarchy = "requested_at"
    list_select_related = ("requested_by",)

    def _sees_all(self, request: HttpRequest) -> bool:
        return request.user.is_superuser or may_perform(request.user, ReportRequestForm)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        qs = super().get_queryset(request).filter(parent__isnull=True)
        if self._sees_all(request):
            return qs
        return qs.filter(requested_by=request.user.pk)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> _FieldGroups:
        return list(_ASKED if obj is None else _SHOWN)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else list(_SHOWN)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may_perform(request.user, ReportRequestForm)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"actor": request.user})

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.result  # asked in the form's act (request_report)

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        pass

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> None:  # type: ignore[override]  # no LogEntry
        pass  # the report row is the record of the request

    @admin.display(description=_("registre"))
    def register_title(self, obj: Report) -> str:
        try:
            title = str(get_register(obj.register).title)
        except (KeyError, RegulationError):
            return obj.register
        return format_html('{} <small class="code-caption">{}</small>', title, obj.register)

    @admin.display(description=_("avancement"))
    def progress_bar(self, obj: Report) -> str:
        pct = obj.progress
        if obj.state == Report.State.SPLIT:
            parts = list(obj.parts.values_list("progress", flat=True))
            pct = int(sum(parts) / len(parts)) if parts else 0
        return format_html('<progress value="{}" max="100" title="{} %"></progress> {} %', pct, pct, pct)

    @admin.display(description=_("parties faites"))
    def parts_progress(self, obj: Report) -> str:
        """Parts of the print made / parts (each a period printed once, see inspection.registers.parts)."""
        total = obj.period_parts.count()
        return f"{obj.period_parts.done()} / {total}" if total else "—"

    @admin.display(description=_("PDF signé"))
    def download(self, obj: Report) -> str:
        files = [p for p in parts_of(obj) if p.state == Report.State.DONE and p.file]
        if not files or (obj.state == Report.State.SPLIT and len(files) != obj.parts.count()):
            return "—"
        links = [
            format_html(
                '<a href="{}">{}</a>',
                reverse("admin:inspection_report_download", args=[p.pk]),
                _("télécharger") if len(files) == 1 else _("partie %(n)s") % {"n": i},
            )
            for i, p in enumerate(files, 1)
        ]
        return format_html(" · ".join(["{}"] * len(links)), *links)

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<int:report_id>/download/",
                self.admin_site.admin_view(self.download_view),
                name="inspection_report_download",
            ),
            *super().get_urls(),
        ]

    def download_view(self, request: HttpRequest, report_id: int) -> FileResponse:
        report = Report.objects.filter(pk=report_id).select_related("parent").first()
        if report is None or not report.file or report.state != Report.State.DONE:
            raise Http404
        top = report.parent or report
        if not (self._sees_all(request) or top.requested_by_id == request.user.pk):
            raise Http404
        if not self.has_view_permission(request):
            raise PermissionDenied
        name = f"{report.register}_{report.date_from:%Y%m%d}-{report.date_to:%Y%m%d}.pdf"
        return FileResponse(
            default_storage.open(report.file.name, "rb"),
            as_attachment=True,
            filename=name,
            content_type="application/pdf",
        )


#: The keys of a checkpoint's signed statement (audit.checkpoints.statement) by the field of the
#: checkpoint that keeps the same value; the others by their own label.
_STATEMENT_FIELDS = {
    "hash": "head_hash",
    "seq": "seq",
    "time": "made_at",
    "number": "number",
    "prev": "prev_hash",
    "root": "root_hash",
}
_STATEMENT_LABELS = {
    "casino": _("casino"),
    "type": _("type de déclaration"),
    "tree_size": _("taille de l'arbre"),
}
_STATEMENT_HASHES = ("hash", "prev", "root")


def _statement_value(key: str, value: Any) -> Any:
    if key in _STATEMENT_HASHES:
        return hash_text(str(value or ""))
    if key == "time" and isinstance(value, str):
        try:
            return dates.moment(dt.datetime.fromisoformat(value), seconds=True)
        except ValueError:
            return value
    if key == "type":
        return format_html('<span class="code-caption">{}</span>', value)
    if isinstance(value, int) and not isinstance(value, bool):
        return formats.number_format(value, use_l10n=True)
    return "—" if value is None else str(value)


@admin.register(Checkpoint)
class CheckpointAdmin(ReadOnlyAdmin):
    list_display = ("seq", "head_hash", "made_at", "signer")
    readonly_fields = ("seq", "head_hash", "made_at", "statement_display", "signer")
    exclude = ("signature", "statement")
    actions = ["export_checkpoints"]
    change_list_template = None

    @admin.display(description=_("déclaration signée"))
    def statement_display(self, obj: Checkpoint) -> str:
        """What the casino signed, each value by its label; the signed bytes themselves (the
        canonical JSON the signature covers) under it, as a caption."""
        try:
            data = json.loads(obj.statement)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            return format_html('<span class="code-caption">{}</span>', obj.statement)
        rows = format_html_join(
            "",
            "<dt>{}</dt><dd>{}</dd>",
            (
                (
                    getattr(Checkpoint._meta.get_field(_STATEMENT_FIELDS[key]), "verbose_name", key)
                    if key in _STATEMENT_FIELDS
                    else _STATEMENT_LABELS.get(key, key),
                    _statement_value(key, value),
                )
                for key, value in data.items()
            ),
        )
        return format_html('<dl class="kv">{}</dl><span class="code-caption">{}</span>', rows, obj.statement)

    @admin.action(description=_("Exporter les points de contrôle choisis (fichier signé pour l'officier)"))
    def export_checkpoints(self, request: HttpRequest, queryset: QuerySet[Checkpoint]) -> HttpResponse | None:
        try:
            data = export(since_seq=min(queryset.values_list("seq", flat=True)) - 1)
        except RegulationError as error:
            self.message_user(request, str(error), level=messages.ERROR)
            return None
        response = HttpResponse(data, content_type="application/pkcs7-mime")
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        response["Content-Disposition"] = f'attachment; filename="points-de-controle-{stamp}.p7m"'
        return response
