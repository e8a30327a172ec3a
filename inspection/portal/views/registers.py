"""Every register on screen, with filters, and its signed PDF.

The screen shows exactly what the signed PDF prints: both come from the
register's own module (``inspection.registers``), reading the apps' selectors.
Asking for the PDF makes a print request (a Report row), not a change to any
book; the PDF is made, signed and stored by the register pipeline.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from casino_ops.regulations import RegulationError
from inspection.models import Report
from inspection.registers.base import MODULES, REGISTERS, Request

from .. import access, selectors
from ..acts import RegisterPdfForm, answer
from ..forms import RegisterFilterForm


def available() -> dict[str, Any]:
    """Every register, by name, in the pipeline's order."""
    return {name: REGISTERS[name] for name in MODULES}


def _register_or_404(name: str) -> Any:
    registers = available()
    if name not in registers:
        raise Http404
    return registers[name]


def _default_period() -> tuple[dt.date, dt.date]:
    today = timezone.localdate()
    return today.replace(day=1), today


@access.officer_required()
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "portal/registers.html", {"registers": available()})


@access.officer_required()
def register_page(request: HttpRequest, name: str) -> HttpResponse:
    register = _register_or_404(name)
    start, end = _default_period()
    data = request.GET if "date_from" in request.GET else None
    form = RegisterFilterForm(
        data, needs_table=register.needs_table, initial={"date_from": start, "date_to": end}
    )
    context: dict[str, Any] = {"register": register, "name": name, "form": form, "sections": None}
    if data is None and not register.needs_table:
        period = Request(start, end)
    elif form.is_valid():
        period = Request(
            form.cleaned_data["date_from"], form.cleaned_data["date_to"], form.cleaned_data.get("table")
        )
    else:
        period = None
    if period is not None:
        try:
            register.check(period)
        except RegulationError as error:
            messages.error(request, str(error))
        else:
            # Read only when the cached rows are missing: kept for one version of
            # the books (selectors.books_version), like the signed PDF they match.
            context["sections"] = lambda: register.context(period)["sections"]
            context["version"] = selectors.books_version()
            context["variant"] = selectors.rendering_variant(request.user)
        context["period"] = period
        context["reports"] = list(
            Report.objects.filter(
                register=name,
                date_from=period.date_from,
                date_to=period.date_to,
                table_number=period.table,
                parent__isnull=True,
            ).order_by("-requested_at")[:5]
        )
    return render(request, "portal/register.html", context)


@access.officer_required(access.PRINT)
def request_pdf(request: HttpRequest, name: str) -> HttpResponse:
    """Ask for the register's signed PDF for a period (a print request: the act's form)."""
    register = _register_or_404(name)
    query = {k: request.POST.get(k, "") for k in ("date_from", "date_to", "table") if request.POST.get(k)}
    back = f"{reverse('portal:register', args=[name])}?{urlencode(query)}"
    return answer(
        request,
        RegisterPdfForm(request.POST, request=request, target=register),
        back,
        page=lambda refused: render(
            request, "portal/register.html", {"register": register, "name": name, "form": refused}
        ),
    )


@access.officer_required()
def download(request: HttpRequest, report_id: int) -> HttpResponseBase:
    report = access.get_visible_or_404(request.user, Report.objects.all(), pk=report_id)
    if report.state != Report.State.DONE or not report.file:
        raise Http404
    filename = f"{report.register}_{report.date_from:%Y%m%d}-{report.date_to:%Y%m%d}"
    if report.table_number is not None:
        filename += f"_table{report.table_number}"
    if report.part:
        filename += f"_partie{report.part}"
    return FileResponse(
        report.file.open("rb"), as_attachment=True, filename=f"{filename}.pdf", content_type="application/pdf"
    )
