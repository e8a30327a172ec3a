"""Read-only pages of the portal: dashboard and the audit trail."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from audit.verification import verify

from .. import access, selectors, sources
from ..forms import AuditSearchForm

AUDIT_PAGE = 50


@access.officer_required()
def dashboard(request: HttpRequest) -> HttpResponse:
    checkpoint = selectors.last_checkpoint()  # read once, for the version and the chain's panel

    @functools.cache
    def parts() -> dict[str, Any]:
        # Read only when the cached page body is missing: it is kept for one
        # version of the books (selectors.books_version) and one officer.
        return {
            "chain": selectors.chain_status(checkpoint),
            **vars(selectors.alarms()),  # forged, clock
            "recent_events": list(selectors.audit_events()[:8]),
            **sources.dashboard_parts(request.user),
        }

    return render(
        request,
        "portal/dashboard.html",
        {
            "parts": parts,
            "version": selectors.books_version(checkpoint),
            "variant": selectors.rendering_variant(request.user),
            "sealing_late": selectors.sealing_late(),
            "late_after": round(selectors.late_after()),
        },
    )


@access.officer_required()
def audit_trail(request: HttpRequest) -> HttpResponse:
    form = AuditSearchForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    events = list(selectors.audit_events(**{k: v for k, v in filters.items() if v})[: AUDIT_PAGE + 1])
    more = len(events) > AUDIT_PAGE
    events = events[:AUDIT_PAGE]
    query = request.GET.copy()
    query.pop("before", None)
    if more:
        query["before"] = str(events[-1].seq)
    return render(
        request,
        "portal/audit_trail.html",
        {"form": form, "events": events, "next_query": query.urlencode() if more else ""},
    )


@access.officer_required()
def chain_check(request: HttpRequest) -> HttpResponse:
    """Recompute the whole chain now (FR art. 68: books without erasure), and
    compare every book with what the chain says it holds."""
    outcome = verify()
    verification, book_problems = outcome.chain, outcome.book_problems
    return render(
        request,
        "portal/chain_check.html",
        {
            "verification": verification,
            "book_problems": book_problems + outcome.officer_problems,
            "all_ok": outcome.ok,
            "officer_acts": outcome.officer_acts,
            "chain": selectors.chain_status(),
        },
    )
