"""Sessions of the tables, each session's report, the advance book and the control register."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.selectors import advance_book as read_advance_book
from tables.selectors import control_register as read_control_register
from tables.selectors import session_report

from .. import access, selectors
from ..forms import AdvanceBookForm, ControlDayForm, SessionFilterForm
from .registers import available

PAGE = 100


@access.officer_required()
def sessions(request: HttpRequest) -> HttpResponse:
    form = SessionFilterForm(request.GET or None)
    filters = {k: v for k, v in (form.cleaned_data if form.is_valid() else {}).items() if v}
    rows = list(selectors.sessions(**filters)[:PAGE])
    return render(
        request,
        "portal/sessions.html",
        {
            "form": form,
            "sessions": rows,
            "limited": len(rows) == PAGE,
            "registers_url": reverse("portal:registers"),
        },
    )


@access.officer_required()
def session(request: HttpRequest, session_id: int) -> HttpResponse:
    found = access.get_visible_or_404(request.user, selectors.sessions(), pk=session_id)
    report = session_report(found.pk)
    return render(request, "portal/session.html", {"session": found, "report": report})


@access.officer_required()
def advance_book(request: HttpRequest) -> HttpResponse:
    """A table's advance book (FR model n° 10) over a period."""
    form = AdvanceBookForm(request.GET or None)
    book = None
    if form.is_valid():
        try:
            book = read_advance_book(
                form.cleaned_data["table"], form.cleaned_data["date_from"], form.cleaned_data["date_to"]
            )
        except ObjectDoesNotExist:
            form.add_error("table", _("Aucune table ne porte ce numéro."))
    return render(
        request,
        "portal/advance_book.html",
        {"form": form, "book": book, "pdf": "advance-book" in available()},
    )


@access.officer_required()
def control_register(request: HttpRequest) -> HttpResponse:
    """The control register (FR model n° 12) for one day."""
    form = ControlDayForm(request.GET or {"day": timezone.localdate().isoformat()})
    register = read_control_register(form.cleaned_data["day"]) if form.is_valid() else None
    return render(
        request,
        "portal/control_register.html",
        {"form": form, "register": register, "pdf": "control-register" in available()},
    )
