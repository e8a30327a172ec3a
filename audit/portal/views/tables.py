"""Sessions of the tables: the list, and each session's whole report."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import access, selectors
from ..forms import SessionFilterForm

PAGE = 100


@access.officer_required()
def sessions(request: HttpRequest) -> HttpResponse:
    form = SessionFilterForm(request.GET or None)
    filters = {k: v for k, v in (form.cleaned_data if form.is_valid() else {}).items() if v}
    rows = list(selectors.sessions(**filters)[:PAGE])
    return render(request, "portal/sessions.html", {"form": form, "sessions": rows, "limited": len(rows) == PAGE})


@access.officer_required()
def session(request: HttpRequest, session_id: int) -> HttpResponse:
    from tables.selectors import session_report

    found = access.get_visible_or_404(request.user, selectors.sessions(), pk=session_id)
    report = session_report(found.pk)
    return render(request, "portal/session.html", {"session": found, "report": report})
