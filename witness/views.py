"""The witness's HTTP interface (C2SP tlog-witness v1.0.0) and the authority's view of its logs."""

from __future__ import annotations

import hashlib

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from . import service
from .models import Log
from .overview import overview


@csrf_exempt
@require_POST
def add_checkpoint(request: HttpRequest) -> HttpResponse:
    answer = service.add_checkpoint(request.body)
    return HttpResponse(answer.body, status=answer.status, content_type=answer.content_type)


@require_GET
def checkpoint(request: HttpRequest, origin_hash: str) -> HttpResponse:
    """The latest checkpoint cosigned for a log, with the log's and the witness's signatures."""
    for log in Log.objects.exclude(checkpoint=""):
        if hashlib.sha256(log.origin.encode("utf-8")).hexdigest() == origin_hash:
            return HttpResponse(log.checkpoint, content_type="text/plain; charset=utf-8")
    return HttpResponse("never cosigned\n", status=404, content_type="text/plain; charset=utf-8")


@staff_member_required
def logs(request: HttpRequest) -> HttpResponse:
    """The authority's view: each casino's log, last cosigned size and time, lag, refusals."""
    return render(request, "witness/logs.html", {"rows": overview()})
