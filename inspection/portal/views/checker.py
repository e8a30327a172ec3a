"""The signature checker: upload a PDF, see whether the casino signed and issued it.

Reading the upload changes nothing: the file is checked in memory and dropped.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import access
from ..checker import check_pdf
from ..forms import SignatureCheckForm
from .registers import available


@access.officer_required(access.READ, methods=("GET", "HEAD", "POST"))
def signature_checker(request: HttpRequest) -> HttpResponse:
    form = SignatureCheckForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        result = check_pdf(form.cleaned_data["pdf"].read())
        titles = {name: register.title for name, register in available().items()}
        for report in result.reports:
            report.title = titles.get(report.register, report.register)
    status = 400 if request.method == "POST" and not form.is_valid() else 200
    return render(request, "portal/checker.html", {"form": form, "result": result}, status=status)
